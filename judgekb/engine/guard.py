"""Bounded scenario runs: the size, node and time limits one scenario may use, for the CLI and the web.

A scenario is untrusted input (pasted at a venue, posted to the API, found in a folder), so its
whole life — reading, YAML parsing, validation, running, expectation checks and the JSON the
caller prints — happens under one deadline and within size limits.  The CLI lifts the limits
with ``run --no-limits``; the web never does.  Anything the engine did not expect while running
one scenario becomes a ``ScenarioError`` naming the file, so a folder run reports every file.
"""

from __future__ import annotations

import contextlib
import difflib
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgekb.files import TooLarge, read_input
from judgekb.yamlio import DataError, where


@dataclass(frozen=True)
class Limits:
    """What one scenario may use; ``None`` lifts a limit."""

    max_bytes: int | None = 256 * 1024  # the web's request cap: a file too large to post is too large to run
    max_steps: int | None = 400
    max_cards: int | None = 400
    seconds: float | None = 2.0  # parse + validation + run + checks + JSON
    lifted_by: str = ""  # the option that lifts these limits, said in a message over one ("" on the web: no flags there)


MAX_NAME_CHARS = 200  # a card name typed or sent: none comes close; longer only costs fuzzy-matching time

WEB = Limits()
CLI = Limits(seconds=10.0, lifted_by="--no-limits")  # a judge's laptop may be slow; still never a hang
UNLIMITED = Limits(max_bytes=None, max_steps=None, max_cards=None, seconds=None)


class ScenarioError(Exception):
    """One scenario could not be run; ``malformed`` is True for bad input, False for an engine fault."""

    def __init__(self, message: str, malformed: bool = True) -> None:
        super().__init__(message)
        self.malformed = malformed


class Timeout(BaseException):  # noqa: N818 - a BaseException so no `except Exception` in the engine swallows it
    """Raised by the alarm when a scenario overruns its deadline."""


def _check_not_cited(path: Path, scenario: Any, db: Any) -> None:
    """Raises DataError for a ``not_cited`` entry that covers no clause of the corpus (a typo, ``agot2-rr/kneal``,
    ``agot3-rr``, ``AGOT2-RR``): it could never fail, so the expectation would pass whatever the trace cites (review
    r65 L3).  Only where the database is at hand (the CLI's run and the web); the format check cannot know the ids."""
    from judgekb import store
    from judgekb.engine.core.expectations import covers

    expect = scenario.expect or {}
    entries = expect.get("not_cited") or []
    for entry in [entries] if isinstance(entries, str) else entries:
        # (every clause an entry covers has an id beginning with the entry: read those as the run reads the entry)
        if isinstance(entry, str) and entry.strip() and not any(covers(c, entry) for c in store.clause_ids_starting(db, entry)):
            near = store.nearest_ids(db, entry) if "/" in entry.rstrip("/") else []
            hint = f". Nearest ids: {', '.join(near)}" if near else ""
            raise DataError(
                f"{where(path, expect, 'not_cited')}: field 'not_cited': {entry!r} is no clause id, document id or prefix "
                f"of the corpus, so it could never fail; give a clause id (agot2-rr/stealth), a document id (agot2-rr) or a "
                f"prefix ending in '/' or '-' (agot1-){hint}"
            )


def _check_cites(path: Path, scenario: Any, db: Any) -> None:
    """Raises DataError for a ``cites``, ``refused_cites`` or ``trace_order`` expectation naming a trace tag no entry of
    the edition can carry (``clam``), or, where the database is at hand, a clause id the corpus does not hold
    (``agot2-rr/power-claims``): a typo would read as the engine disagreeing (review r80 L4).  Nearest ones given."""
    from judgekb import store
    from judgekb.engine.core import runner

    expect = scenario.expect or {}
    tags = runner.ruleset(scenario.edition).known_tags()

    def check_tag(tag: Any, item: Any, field: str) -> None:
        if isinstance(tag, str) and tag and tag not in tags:
            near = difflib.get_close_matches(tag, sorted(tags), n=5, cutoff=0.6)
            hint = f". Nearest tags: {', '.join(near)}" if near else " (docs/scenarios.md lists them)"
            raise DataError(
                f"{where(path, item, field)}: field '{field}': {tag!r} is no trace tag of edition {scenario.edition}, so the "
                f"expectation could only fail{hint}"
            )

    def check_clauses(clauses: Any, item: Any, field: str) -> None:
        for clause in [clauses] if isinstance(clauses, str) else clauses or []:
            if db is not None and isinstance(clause, str) and store.clause(db, clause) is None:
                near = store.nearest_ids(db, clause)
                hint = f". Nearest ids: {', '.join(near)}" if near else ""
                raise DataError(
                    f"{where(path, item, field)}: field '{field}': {clause!r} is no clause id of the corpus, so the trace can "
                    f"never cite it{hint}"
                )

    for item in expect.get("cites") or []:
        check_tag(item.get("tag"), item, "tag")
        check_clauses(item.get("clauses"), item, "clauses")
    refused = expect.get("refused_cites") or {}
    for step, clauses in refused.items():
        if step != "__line__":
            check_clauses(clauses, refused, step)
    order = expect.get("trace_order") or []
    for label in [order] if isinstance(order, str) else order:
        check_tag(str(label).split(": ", 1)[0], expect, "trace_order")


def read_file(path: Path, limits: Limits) -> str:
    """The text of a scenario file: a regular file (never a FIFO or device), within the size limit, UTF-8."""
    try:
        data = read_input(path, limits.max_bytes)
    except TooLarge as exc:
        raise ScenarioError(f"{exc}; run it with --no-limits if it is meant to be this large") from None
    except DataError as exc:
        raise ScenarioError(f"{exc}; skipped") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {exc.start})") from None


ALARM_AGAIN_SECONDS = 0.05  # after a Timeout that something swallowed, the next one


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise Timeout when ``seconds`` pass: a real alarm in the main thread (CLI, gunicorn sync workers).

    Elsewhere (a threaded server) only the engine's own per-step deadline applies.
    """
    usable = seconds is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        # raised wherever the main thread is: inside a garbage-collection callback, a __del__ or a weakref callback,
        # Python reports it as "ignored" and goes on, and the work ran on past its deadline (a fresh clone's run: a
        # deck check spun on, and came back a 500).  So the alarm is set again until a Timeout gets through.
        signal.setitimer(signal.ITIMER_REAL, ALARM_AGAIN_SECONDS)
        raise Timeout

    assert seconds is not None  # (usable says so)
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(
    path: Path, text: str, titles: dict[int, Any], limits: Limits, db: Any = None, prepare: Any = None
) -> tuple[Any, dict[str, Any]]:
    """Load, check and run one scenario within ``limits``: the Ruling and its JSON (``rulingview``'s, with citations, if ``db``).

    ``prepare`` is ``load_scenario``'s hook (``cardfill.preparer``: cards by name from imports).

    Raises ScenarioError with a message naming the file for anything that goes wrong.
    """
    from judgekb.engine.core import runner
    from judgekb.engine.scenario import load_scenario

    if limits.max_bytes is not None and len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
        raise ScenarioError(f"{path}: larger than {limits.max_bytes // 1024} KB")
    started = time.monotonic()
    try:
        with deadline(limits.seconds):
            scenario = load_scenario(path, text, prepare=prepare, titles=titles)
            _check_size(path, scenario, limits)
            if db is not None:
                _check_not_cited(path, scenario, db)
            _check_cites(path, scenario, db)
            ruling = runner.run(scenario, titles, deadline=None if limits.seconds is None else started + limits.seconds)
            if db is None:
                return ruling, ruling.as_json()
            from judgekb.engine import rulingview

            return ruling, rulingview.ruling_json(ruling, db)
    except ScenarioError:  # (a limit, said as bad input: not "please report it")
        raise
    except Timeout:
        raise ScenarioError(f"{path}: the scenario took longer than {limits.seconds:g}s (parse, run and checks); stopped") from None
    except DataError as exc:
        raise ScenarioError(str(exc)) from None
    except runner.StepFault as exc:  # (the engine's fault on a step the format check let through: named, and reported)
        raise ScenarioError(str(exc), malformed=False) from None
    except RecursionError:
        raise ScenarioError(f"{path}: the scenario is nested too deeply") from None
    except MemoryError:
        raise ScenarioError(f"{path}: the scenario needs more memory than judgekb allows") from None
    except Exception as exc:  # the last boundary: an engine fault on one file must not end a folder run
        raise ScenarioError(
            f"{path}: judgekb could not run this scenario ({type(exc).__name__}: {str(exc)[:200]} at {runner.fault_site(exc)}); "
            "please report it with the file — the scenario format check missed something",
            malformed=False,
        ) from None


def _check_size(path: Path, scenario: Any, limits: Limits) -> None:
    """Refuse a scenario with more steps or cards than ``limits`` allow, naming the limit and the field (bad input)."""
    from judgekb.yamlio import where

    lift = f"; run it with {limits.lifted_by} if it is meant to be this large" if limits.lifted_by else ""
    steps, cards = len(scenario.steps), len(scenario.state.cards)
    if limits.max_steps is not None and steps > limits.max_steps:
        first_over = scenario.steps[limits.max_steps]
        raise ScenarioError(
            f"{where(path, first_over)}: field 'steps': a scenario may have at most {limits.max_steps} steps "
            f"(this one has {steps}){lift}"
        )
    if limits.max_cards is not None and cards > limits.max_cards:
        raise ScenarioError(
            f"{path}: field 'players': a scenario may have at most {limits.max_cards} cards in its players' zones, "
            "plots and faction cards included "
            f"(this one has {cards}){lift}"
        )
