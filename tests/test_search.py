"""Keyword lookup on the real corpus: quality on the evaluation set, the JSON contract, bad input."""

from __future__ import annotations

import json

import pytest

from judgekb import evaluation, search
from tests.conftest import ROOT, run_cli

EVAL = ROOT / "tests" / "eval" / "lookup.yaml"


@pytest.fixture(scope="module")
def index(db):
    return search.Index(db)


def test_evaluation_set_is_large_and_answerable(clauses):
    items = evaluation.load(EVAL)
    assert len(items) >= 100
    assert {i.edition for i in items} == {1, 2}
    for item in items:  # every expected phrase really is in some clause of that edition
        assert any(c["edition"] == item.edition and evaluation.answers(item, c) for c in clauses), item


def test_lookup_quality_on_the_evaluation_set(index):
    items = evaluation.load(EVAL)
    result = evaluation.score(items, lambda it: search.results(index, it.query, it.edition, None, 5)[0])
    misses = "\n".join(f"{rank} {it.query!r} -> {ids}" for it, rank, ids in result["misses"])
    assert result["top1"] >= 0.85, misses
    assert result["top5"] >= 0.95, misses


def test_done_when_queries(db_path):
    moribund = json.loads(run_cli("search", "moribound", "--json", db=db_path).stdout)
    assert moribund[0]["id"] == "agot1-faq/timing/moribund"
    tie = run_cli("search", "who wins a tie in a challenge", "--edition", "1", db=db_path)
    assert tie.returncode == 0
    assert tie.stdout.splitlines()[0].endswith("[agot1-faq/qa/challenge-tie]")
    assert "the attacker always [wins] [ties] in [challenges.]" in tie.stdout


def test_json_contract(db_path, db):
    hits = json.loads(run_cli("search", "stealth", "--edition", "1", "--limit", "3", "--json", db=db_path).stdout)
    assert 1 <= len(hits) <= 3
    for hit in hits:
        assert {"id", "citation", "edition", "kind", "heading", "text", "score"} <= set(hit)
        row = next(db.query("select text, citation from clauses where id = ?", [hit["id"]]))
        assert hit["text"] == row["text"] and hit["citation"] == row["citation"]
        assert hit["edition"] == 1 and isinstance(hit["score"], float)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_superseded_and_unofficial_texts_fold_under_what_governs_them(index, db):
    governed = {r["clause"] for r in db.query("select clause from governors")}
    for query in (
        "duplicates have no text titles or traits",
        "deadly keyword",
        "stealth",
        "infinite loop",
        "tokens control",
        "what is derived information",
    ):
        hits, _ = index.search(query, None, None, 10)
        assert not [h.id for h in hits if h.id in governed], query
    hits, _ = index.search("Duplicates have no text, titles, or traits", 1, None, 5)
    folded = {f["id"]: f["relation"] for h in hits for f in h.folded}
    assert folded.get("agot1-rules/duplicates") == "superseded"
    assert folded.get("agot1-summary/duplicates") == "restates"


def test_filters(index):
    hits, _ = index.search("terminal", 2, None, 10)
    assert hits and all(index.clauses[h.id]["edition"] == 2 for h in hits)
    errata, _ = index.search("should read", 1, ["errata"], 10)
    assert errata and all(index.clauses[h.id]["kind"] == "errata" for h in errata)


def test_card_names_and_typos(index):
    hits, _ = index.search("Naval Escort", 1, None, 3)
    assert "agot1-faq/errata/naval-escort-dotn-f48" in [h.id for h in hits]
    hits, _ = index.search("Catelyn Stark", 2, None, 3)
    assert hits[0].id == "agot2-faq41/qa/catelyn-stark"  # the FAQ in force (v4.1), not v2.3
    hits, _ = index.search("vigilent", 1, None, 1)
    assert hits[0].id == "agot1-rules/vigilant"


@pytest.mark.parametrize(
    ("query", "code", "expect"),
    [
        ("", 2, "empty query"),
        ("   \t ", 2, "empty query"),
        ("!!! ??? ...", 0, "no words"),
        ('"unbalanced quote', 0, ""),
        ("NEAR(deadly stealth, 2)", 0, ""),
        ("stealth* ^deadly -kill col:umn (((", 0, ""),
        ("dead\x01ly\x07", 0, ""),
    ],
)
def test_bad_input_never_gives_a_traceback(db_path, query, code, expect):
    result = run_cli("search", query, db=db_path)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and expect in result.stderr
    if code == 0:
        as_json = run_cli("search", query, "--json", db=db_path)
        assert isinstance(json.loads(as_json.stdout), list)


def test_long_and_non_utf8_queries(db_path):
    long = run_cli("search", "deadly " * 2000, "--json", db=db_path)
    assert long.returncode == 0 and "shortened" in long.stderr and json.loads(long.stdout)
    import os
    import subprocess
    import sys

    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    raw = subprocess.run([sys.executable, "-m", "judgekb", "search", b"st\xffealth\xfe"], capture_output=True, env=env, cwd=ROOT)
    assert raw.returncode == 0 and b"Traceback" not in raw.stderr
    bad_limit = run_cli("search", "deadly", "--limit", "0", db=db_path)
    assert bad_limit.returncode == 2
    bad_kind = run_cli("search", "deadly", "--kind", "bogus", db=db_path)
    assert bad_kind.returncode == 2 and "unknown --kind" in bad_kind.stderr
