"""The second-edition scenario library as a library: sourced, cited, and covering the FAQ entries
issue 13 names.  (Whether each ruling holds is checked by running the scenarios.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

LIBRARY = ROOT / "scenarios" / "agot2"
FILES = sorted(LIBRARY.glob("*.yaml"))
CLAUSE = re.compile(r"agot2-(?:rr|faq41|faq)/[A-Za-z0-9./_-]*[A-Za-z0-9]")

# Every FAQ entry and Rules Reference rule the library must carry a scenario for (issue 13 point 6,
# plus the basic framework situations).  A scenario covers an id when its expectations cite it.
REQUIRED = [
    "agot2-faq41/2.6",
    "agot2-faq41/3.1",
    "agot2-faq41/3.2",
    "agot2-faq41/qa/multiple-take-control-effects",
    "agot2-faq41/qa/wolves-of-the-north",
    "agot2-faq41/qa/resolving-keywords",
    "agot2-faq41/qa/processing-keywords",
    "agot2-faq41/qa/catelyn-stark",
    "agot2-faq41/qa/melisandre-seen-in-flames",
    "agot2-faq41/qa/tycho-nestoris",
    "agot2-faq41/errata/old-wyk-lions-of-casterly-rock-28",
    "agot2-faq41/3.5",
    "agot2-faq41/1.2",
    "agot2-faq41/1.3",
    "agot2-faq41/1.4",
    "agot2-faq41/2.1",
    "agot2-faq41/2.10",
    "agot2-faq41/timing/duck",
    "agot2-faq41/timing/end-of-phase",
    "agot2-rr/military-claim",
    "agot2-rr/intrigue-claim",
    "agot2-rr/power-claim",
    "agot2-rr/unopposed",
    "agot2-rr/renown",
    "agot2-rr/insight",
    "agot2-rr/intimidate",
    "agot2-rr/stealth",
    "agot2-rr/winning-a-challenge",
    "agot2-rr/initiative",
    "agot2-rr/appendix-i/dominance-phase/5.2",
    "agot2-rr/appendix-i/taxation-phase/7.3",
    "agot2-rr/winning-the-game",
    "agot2-rr/limited",
]


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _expected_ids(data: dict) -> set[str]:
    expect = data.get("expect") or {}
    found = set()
    for item in expect.get("cites") or []:
        found.update(item.get("clauses") or [])
    for clauses in (expect.get("refused_cites") or {}).values():
        found.update(clauses)
    return found


def test_the_library_has_at_least_forty_second_edition_scenarios():
    assert len(FILES) >= 40
    assert all(_load(path).get("edition") == 2 for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_scenario_names_its_source_and_expects_citations(path: Path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Source:"), "the first line names the passage the scenario comes from"
    source = text.split("\ntitle:", 1)[0]
    assert re.search(r"FAQ v4\.1|FAQ v2\.3|Rules Reference|Appendix I", source), "the source is a second-edition document"
    data = _load(path)
    assert _expected_ids(data), "the scenario expects the trace to cite the clauses that decide it"
    # never a first-edition clause, and never FAQ v2.3 where v4.1 (in force) has the same entry
    assert {"agot1-faq/", "agot1-rules/", "agot1-summary/", "agot2-faq/"} <= set(data["expect"].get("not_cited") or [])


def test_every_faq_entry_issue_13_names_has_a_scenario():
    covered = set().union(*(_expected_ids(_load(path)) for path in FILES))
    missing = [clause for clause in REQUIRED if clause not in covered]
    assert not missing, missing


def test_every_clause_the_library_names_exists(db):
    ids = {row["id"] for row in db.query("select id from clauses")}
    named = set()
    for path in FILES:
        named.update(CLAUSE.findall(path.read_text(encoding="utf-8")))
    missing = sorted(named - ids)
    assert not missing, missing
