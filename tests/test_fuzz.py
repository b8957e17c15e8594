"""Fuzz properties (hypothesis): whatever a careless or hostile user types, judgekb answers.

Properties, over the command line (search, show, cite, card, changes, list, run), the scenario
loader and the web API:

* no traceback, ever; the CLI exits 0, 1 or 2 and the web answers below 500;
* every call finishes in bounded time.

Sized for CI (``JUDGEKB_FUZZ_EXAMPLES``, default 250 per property; a couple of minutes on two
cores).  ``bench/fuzz.py --count N`` runs the same properties longer before a release and
prints how many inputs were tried, how many failed, and the engine crash sites the last-boundary
guard caught (scenarios the format check should have refused, for issue 13).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgekb.cli import main
from judgekb.engine import guard
from judgekb.web import app as web
from judgekb.yamlio import DataError, loads
from tests.conftest import CORPUS, ROOT

EXAMPLES = int(os.environ.get("JUDGEKB_FUZZ_EXAMPLES", "250"))
SECONDS = 15.0  # a generous bound per call on a loaded CI machine; a hang shows as far more
settings.register_profile(
    "fuzz",
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ = settings.get_profile("fuzz")
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in SCENARIOS}

# Counts for bench/fuzz.py: inputs tried and failures per target, engine crash sites.
TRIED: Counter[str] = Counter()
FAILED: Counter[str] = Counter()
ENGINE_CRASHES: Counter[str] = Counter()


def _report() -> None:
    target = os.environ.get("JUDGEKB_FUZZ_REPORT")
    if target:
        data = {"tried": TRIED, "failed": FAILED, "engine_crashes": ENGINE_CRASHES.most_common()}
        Path(target).write_text(json.dumps(data, indent=1), encoding="utf-8")


atexit.register(_report)


def _counted(target: str, check: Any) -> None:
    TRIED[target] += 1
    try:
        check()
    except BaseException:
        FAILED[target] += 1
        raise


# ---------------------------------------------------------------------------- strategies

NASTY_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(st.characters(codec="utf-8"), max_size=30),
    st.sampled_from(["", " ", "²", "٣", "v.5.4", "5..4", "\x00", "\udcff", "'; drop table clauses; --", "%s%n", "../../etc/passwd", "*"]),
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "9", "é", "/", "claim "]), st.integers(1000, 60_000)),
)
IDS = ["agot1-faq/3.23", "agot1-rules/duplicates", "agot2-faq/2.6", "agot1-faq/errata/val-dotn-f117"]
VERSIONS = st.one_of(st.from_regex(r"v?[0-9]{1,3}(\.[0-9]{1,3}){0,3}", fullmatch=True), NASTY_TEXT)
DOCS = st.one_of(st.sampled_from(["agot1-faq", "agot1-rules", "agot2-faq", "agot2-web", "agot1-summary"]), NASTY_TEXT)
ID = st.one_of(st.sampled_from(IDS), st.builds(lambda i, t: i + t, st.sampled_from(IDS), NASTY_TEXT), NASTY_TEXT)
FLAG_VALUES = st.one_of(st.sampled_from(["1", "2", "all", "0", "-1", "101", "qa", "errata"]), NASTY_TEXT)

NASTY_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.lists(st.text(max_size=5), max_size=4),
    st.dictionaries(st.text(max_size=8), st.integers(-3, 3), max_size=3),
    st.sampled_from(["Darrell", "Brian", "military", "intrigue", "power", "dead", "in_play", "Raff the Sweetling", "plot"]),
)
TEXT_TRICKS = [
    "title: !!timestamp x\n",
    "title: !!binary aGk=\n",
    "notes: &a [1, 2]\nsee: *a\n",
    "notes: !!python/object/apply:os.system [echo]\n",
    "\t- broken: [\n",
    "players: *undefined\n",
    "notes: " + "[" * 200 + "]" * 200 + "\n",
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside loaded YAML that a mutation can touch."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _mutate(data: st.DataObject) -> str:
    """A scenario from the library with a few fields replaced, dropped or duplicated, or its text broken."""
    name = data.draw(st.sampled_from(sorted(TEXTS)), label="scenario")
    text = TEXTS[name]
    how = data.draw(st.sampled_from(["fields", "fields", "fields", "text", "trick"]), label="how")
    if how == "text":
        cut = data.draw(st.integers(0, len(text)), label="cut")
        junk = data.draw(st.text(max_size=12), label="junk")
        return text[:cut] + junk + text[cut + data.draw(st.integers(0, 8)) :]
    if how == "trick":
        return text + data.draw(st.sampled_from(TEXT_TRICKS), label="trick")
    tree = yaml.safe_load(text)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = _paths(tree)[1:]
        if not places:
            break
        place = data.draw(st.sampled_from(places), label="place")
        parent = tree
        for key in place[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]), label="action")
        if action == "delete":
            del parent[place[-1]]
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(parent[place[-1]])
        else:
            parent[place[-1]] = data.draw(NASTY_VALUES, label="value")
    return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False)


# ---------------------------------------------------------------------------- the command line


def _cli(db_path: Path, args: list[str], target: str) -> None:
    def check() -> None:
        had_numpy = "numpy" in sys.modules
        started = time.monotonic()
        result = CliRunner().invoke(main, ["--db", str(db_path), *args])
        took = time.monotonic() - started
        if not had_numpy and sys.modules.get("numpy", False) is None:
            del sys.modules["numpy"]  # the CLI blocks numpy for its start-up time; the rest of the test run may need it
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{args!r}: {type(result.exception).__name__}: {result.exception}")
        assert result.exit_code in (0, 1, 2), (args, result.output[-500:])
        assert "Traceback" not in result.output, (args, result.output[-2000:])
        assert took < SECONDS, (args, took)

    _counted(f"cli {target}", check)


@FUZZ
@given(data=st.data())
def test_cli_lookups_never_crash(db_path, data):
    command = data.draw(st.sampled_from(["show", "cite", "governing", "card", "changes", "list"]))
    if command in ("show", "cite", "governing"):
        args = [command, data.draw(ID)] + data.draw(st.sampled_from([[], ["--json"]]))
    elif command == "card":
        args = ["card", data.draw(st.one_of(st.sampled_from(["Val", "Eddard Stark", "the hound"]), NASTY_TEXT))]
        args += data.draw(st.sampled_from([[], ["--edition", "1"], ["--edition", "2"], ["--json"]]))
    elif command == "changes":
        args = ["changes", data.draw(DOCS), "--since", data.draw(VERSIONS)] + data.draw(st.sampled_from([[], ["--json"]]))
    else:
        args = ["list", data.draw(DOCS)] + data.draw(st.sampled_from([[], ["--kind", "qa"]]))
    _cli(db_path, args, command)


@settings(FUZZ, max_examples=max(5, EXAMPLES // 3))  # each CLI search loads the lookup index (~1 s)
@given(
    words=st.lists(NASTY_TEXT, min_size=0, max_size=4),
    options=st.lists(st.sampled_from(["--edition", "--kind", "--limit", "--json"]), max_size=3),
    values=st.lists(FLAG_VALUES, min_size=3, max_size=3),
)
def test_cli_search_never_crashes(db_path, words, options, values):
    args = ["search", *words]
    for option, value in zip(options, values, strict=False):
        args += [option] if option == "--json" else [option, value]
    _cli(db_path, args, "search")


@FUZZ
@given(data=st.data())
def test_cli_run_never_crashes(db_path, tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fuzz")
    files = [folder / f"s{n}.yaml" for n in range(data.draw(st.integers(1, 3), label="files"))]
    for file in files:
        file.write_text(_mutate(data), encoding="utf-8")
    target = [str(folder)] if len(files) > 1 else [str(files[0])]
    _cli(db_path, ["run", *target, *data.draw(st.sampled_from([[], ["--json"], ["--no-trace"]]), label="flags")], "run")


# ---------------------------------------------------------------------------- the scenario loader


@FUZZ
@given(data=st.data())
def test_the_scenario_loader_refuses_or_runs_every_mutation(data):
    text = _mutate(data)

    def check() -> None:
        started = time.monotonic()
        try:
            guard.run(Path("fuzz.yaml"), text, {}, guard.WEB)
        except guard.ScenarioError as exc:
            assert str(exc).startswith("fuzz.yaml")
            if not exc.malformed:  # caught by guard's last boundary: the site is for the scenario/engine owners
                found = re.findall(r"\((\w+)(?::[^()]*)? at ([\w./:-]+)\)", str(exc))  # (Kind[: message] at dir/file.py:N)
                assert found, str(exc)
                ENGINE_CRASHES[f"{found[-1][0]} at {found[-1][1]}"] += 1
        assert time.monotonic() - started < SECONDS

    _counted("scenario loader", check)


@FUZZ
@given(text=st.one_of(st.text(max_size=300), st.sampled_from(TEXT_TRICKS)))
def test_yaml_loading_raises_only_data_errors(text):
    def check() -> None:
        try:
            loads(text, Path("fuzz.yaml"))
        except DataError:
            pass

    _counted("yaml", check)


# ---------------------------------------------------------------------------- the web API


@pytest.fixture(scope="module")
def client(db_path):
    app = web.create_app(db_path, CORPUS)
    app.testing = False  # the real error handlers, as a judge meets them
    return app.test_client()


def _web(client: Any, method: str, url: str, target: str, **kwargs: Any) -> None:
    def check() -> None:
        started = time.monotonic()
        response = getattr(client, method)(url, **kwargs)
        assert response.status_code < 500, (url, response.status_code, response.get_data(as_text=True)[:500])
        if url.startswith("/api/") and response.status_code >= 400:
            assert response.get_json()["error"]
        assert time.monotonic() - started < SECONDS, url

    _counted(f"web {target}", check)


@FUZZ
@given(data=st.data())
def test_web_lookups_never_answer_5xx(client, data):
    def draw(strategy: Any) -> Any:  # an HTTP request carries bytes: lone surrogates cannot be sent
        value = data.draw(strategy)
        return value.encode("utf-8", "replace").decode("utf-8") if isinstance(value, str) else value

    def part(strategy: Any) -> str:  # a value inside the URL path, escaped as a browser would ('?' stays in the path)
        return quote(draw(strategy), safe="/")

    route = data.draw(st.sampled_from(["search", "clause", "governing", "card", "changes", "page"]))
    params = {
        k: draw(FLAG_VALUES) for k in data.draw(st.lists(st.sampled_from(["edition", "kind", "limit"]), max_size=3, unique=True))
    }
    if route == "search":
        _web(client, "get", "/api/search", route, query_string={"q": draw(NASTY_TEXT), **params})
    elif route in ("clause", "governing"):
        _web(client, "get", f"/api/{route}/{part(ID)}", route)
    elif route == "card":
        _web(client, "get", "/api/card", route, query_string={"name": draw(NASTY_TEXT), **params})
    elif route == "changes":
        _web(client, "get", f"/api/changes/{part(DOCS)}", route, query_string={"since": draw(VERSIONS)})
    else:
        page = data.draw(st.sampled_from(["/", "/c/", "/card", "/changes", "/scenario"]))
        url = page + (part(ID) if page == "/c/" else "")
        _web(
            client,
            "get",
            url,
            "pages",
            query_string={
                "q": draw(NASTY_TEXT),
                "name": draw(NASTY_TEXT),
                "doc": draw(DOCS),
                "since": draw(VERSIONS),
                **params,
            },
        )


@FUZZ
@given(data=st.data())
def test_web_scenario_runs_never_answer_5xx(client, data):
    text = _mutate(data)
    if data.draw(st.booleans(), label="as form"):
        _web(client, "post", "/scenario", "scenario page", data={"scenario": text})
    else:
        _web(client, "post", "/api/run", "run", data=text.encode("utf-8", "surrogatepass"))
