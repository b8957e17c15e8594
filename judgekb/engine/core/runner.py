"""Run a scenario: pick the edition's ruleset, feed the steps through it, record the trace, check
what the judge expects.  Shared by both editions."""

from __future__ import annotations

import copy
import importlib
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from judgekb import yamlio
from judgekb.engine.core import expectations
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import State
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import TITLE_FILES, Scenario
from judgekb.yamlio import DataError, where

EDITIONS = (1, 2)


def ruleset(edition: int) -> ModuleType:
    """The ruleset package for an edition: ``judgekb/engine/agot<edition>/ruleset.py``."""
    if edition not in EDITIONS:
        raise DataError(f"no ruleset for edition {edition} (editions: 1, 2)")
    return importlib.import_module(f"judgekb.engine.agot{edition}.ruleset")


@dataclass
class Ruling:
    scenario: Scenario
    trace: Trace
    state: State
    checks: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c["passed"] for c in self.checks)

    def summary(self) -> list[str]:
        lines = []
        for result in self.state.results:
            if result.get("ended_without_resolution"):
                lines.append(f"{result['type']} challenge by {result['attacker']} against {result['defender']}: ended without resolution")
            else:
                defending = result.get("defending_player")
                against = result["defender"] + (f" (defended by {defending})" if defending and defending != result["defender"] else "")
                lines.append(
                    f"{result['type']} challenge by {result['attacker']} against {against}: "
                    f"{result['winner'] or 'no one'} wins ({result['attack']}–{result['defence']})"
                    + (", unopposed" if result.get("unopposed") else "")
                )
        for entry in self.trace.entries:  # a whole step refused, or a choice within a step that went ahead (a save)
            if entry.outcome == "refused" and entry.text.startswith("illegal"):
                lines.append(f"step {entry.step} refused: {entry.text}")
            elif entry.outcome == "refused":
                lines.append(f"step {entry.step}: a choice was refused (the rest of the step went ahead): {entry.text}")
        for entry in self.trace.entries:
            if entry.outcome == "choice-needed":
                lines.append(f"step {entry.step}: {entry.text}")
        for entry in self.trace.entries:  # a player leaving the game is part of the ruling, not only of its trace
            if (entry.tag in ("eliminated", "concede") and entry.outcome == "applied") or entry.rule == "first player.eliminated":
                lines.append(f"step {entry.step}: {entry.text}" if entry.step else f"before the first step: {entry.text}")
        if self.state.winner:
            lines.append(f"{self.state.winner} wins the game")
        elif self.state.facts.get("game_over") is True:
            lines.append("the game ended with no winner")
        return lines

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": str(self.scenario.path),
            "title": self.scenario.title,
            "edition": self.scenario.edition,
            "passed": self.passed,
            "ruling": self.summary(),
            "trace": self.trace.as_json(),
            "expectations": self.checks,
            "power": {p: self.state.total_power(p) for p in self.state.players},
        }


TitleData = dict[int, dict[str, dict[str, Any]]]  # edition -> title -> its facts


def load_titles(corpus: Path) -> TitleData:
    """Each edition's melee titles (corpus/titles.yaml, corpus/titles2.yaml), by edition."""
    return {
        edition: _titles_of(yamlio.read_data(corpus / name), corpus / name)
        for edition, name in TITLE_FILES.items()
        if (corpus / name).is_file()
    }


def _titles_of(data: dict[str, Any], path: Path) -> dict[str, dict[str, Any]]:
    """The ``titles`` mapping of a titles file: each title a mapping of its facts, else a DataError naming the file."""
    titles = data.get("titles") or {}
    if not isinstance(titles, dict) or not all(isinstance(facts, dict) for facts in titles.values()):
        raise DataError(f"{path}: 'titles' must map each title to a mapping of its facts")
    return titles


PACKAGE = Path(__file__).resolve().parents[2]  # judgekb/


def fault_site(exc: BaseException) -> str:
    """Where in judgekb an unexpected exception was raised (``agot2/cards.py:123``), for the report a judge sends."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve().is_relative_to(PACKAGE)]
    if not frames:
        return "unknown"
    where = Path(frames[-1].filename)
    return f"{where.parent.name}/{where.name}:{frames[-1].lineno}"


class StepFault(Exception):
    """The engine failed on one step: its fault, not the file's (the format check let the step through, so it should
    be refused there or handled here).  The message names the step's line and where in judgekb, for the report."""

    def __init__(self, at: str, number: int, verb: str, exc: BaseException) -> None:
        super().__init__(
            f"{at}: step {number} ({verb}): judgekb's engine failed on this step ({type(exc).__name__} at {fault_site(exc)}); "
            "this is a fault in judgekb, not necessarily in the file: please report it with the file"
        )


def run(scenario: Scenario, title_data: TitleData, deadline: float | None = None) -> Ruling:
    """Run every step; ``deadline`` (a time.monotonic() value) bounds the run time."""
    rules = ruleset(scenario.edition)
    state = copy.deepcopy(scenario.state)
    state.title_data = title_data.get(scenario.edition, {})
    trace = Trace(rules.RULES)
    rules.setup(state, trace, scenario)
    for number, step in enumerate(scenario.steps, 1):
        trace.step = number
        if deadline is not None and time.monotonic() > deadline:
            raise DataError(f"{scenario.path}: the scenario took too long to run (stopped at step {number})")
        verb = next(k for k in step if k != "__line__")
        if verb == "note":
            continue
        if state.winner or state.facts.get("game_over"):  # once a player has won, nothing more happens
            how = (
                f"{state.winner} has won"
                if state.winner
                else "every player is eliminated and the first player's choice of the winner is needed"
                if state.facts.get("game_over") == "choice"
                else "the game ended with no winner"
            )
            trace.add(
                rules.VICTORY_RULE,
                f"illegal: the game is over ({how}), so no further step can be taken",
                "refused",
                cite=getattr(rules, "GAME_OVER_CITE", None),
                tag="refused",
            )
            continue
        before, logged = copy.deepcopy(state), len(trace.entries)
        try:
            rules.apply(state, trace, verb, step[verb], scenario, step)
        except IllegalStep as exc:  # a refused step changes nothing: restore the board, keep the reason
            state = before
            state.facts.setdefault("refused_steps", {})[number] = verb  # what later steps may need to say (a refused defend)
            del trace.entries[logged:]
            trace.add(exc.rule_id, f"illegal: {exc.reason}", "refused", cite=exc.cite, tag="refused", line=step.get("__line__"))
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, StopIteration) as exc:  # never a traceback
            raise StepFault(where(scenario.path, step), number, verb, exc) from None
    ruling = Ruling(scenario, trace, state)
    ruling.checks = expectations.check(scenario, state, trace, rules.READERS)
    return ruling
