"""Pages of the 1st-edition FAQ: derived from recorded evidence, and checked against every
page claim the document makes about itself."""

from __future__ import annotations

import re

import pytest

from judgekb import store
from judgekb.corpus import pages
from judgekb.corpus.sources import load_documents, read_source
from judgekb.corpus.spans import Span
from judgekb.yamlio import DataError
from tests.conftest import CORPUS, run_cli

DOC = next(d for d in load_documents(CORPUS) if d.id == "agot1-faq")
SOURCE = read_source(DOC, CORPUS)
EVIDENCE = pages.evidence_path(CORPUS, "agot1-faq")
FOOTERS = [Span(m.start(), m.end()) for m in re.finditer(r"Page \d+", SOURCE)]
LAYOUT = pages.load_layout(EVIDENCE, SOURCE, [s for s in FOOTERS if SOURCE[s.start - 9 : s.start] != "Rulebook "])
CLAIMS = pages.load_claims(EVIDENCE, SOURCE)
# a page reference in running text: "pg. 3", "(p. 6-7)", "on page 18", "(pages 12-19)", "Rulebook Page 19"
PAGE_REFERENCE = re.compile(r"(?<![A-Za-z])(?:pg\.|p\.|pages?|(?<=Rulebook )Page) ?\d+(?:-\d+)?")


@pytest.fixture(scope="module")
def faq_pages(clauses):
    return {c["id"].split("/", 1)[1]: c["page"] for c in clauses if c["doc"] == "agot1-faq"}


def covered(db) -> bytearray:
    mask = bytearray(len(SOURCE))
    for s in db.query("select s.start, s.end from spans s join clauses c on c.id = s.clause where c.doc = 'agot1-faq'"):
        mask[s["start"] : s["end"]] = b"\x01" * (s["end"] - s["start"])
    return mask


def test_every_page_reference_in_the_document_is_recorded_as_a_claim(db):
    """Each page number the text mentions (not the footers) is listed in the evidence file."""
    mask = covered(db)
    found = {m.start() for m in PAGE_REFERENCE.finditer(SOURCE) if mask[m.start()]}
    assert found, "the FAQ makes page references"
    missing = sorted(i for i in found if not any(c["span"].start <= i < c["span"].end for c in CLAIMS))
    assert not missing, [SOURCE[i - 30 : i + 15] for i in missing]
    idle = [c["line"] for c in CLAIMS if not any(c["span"].start <= i < c["span"].end for i in found)]
    assert not idle, f"claims at lines {idle} do not sit on a page reference"


@pytest.mark.parametrize("claim", [c for c in CLAIMS if "about" not in c], ids=lambda c: c["says"][:40])
def test_document_page_claims_agree_with_the_clause_pages(claim, faq_pages):
    problems = pages.check_claim(claim, faq_pages, LAYOUT)
    if claim["holds"]:
        assert not problems, problems
    else:
        # a claim recorded as out of date must really disagree, and say why
        assert problems, f"claim at line {claim['line']} is marked as not holding but agrees with the pages"
        assert len(str(claim.get("why", "")).split()) >= 10


def test_claims_about_other_documents_name_them():
    others = [c for c in CLAIMS if "about" in c]
    assert others and all("Rulebook" in SOURCE[c["span"].start - 30 : c["span"].end + 20] for c in others)
    assert all("expect" not in c for c in others)


def test_each_running_head_starts_a_page_and_each_footer_lies_in_its_page():
    heads = [m.start() for m in re.finditer(r"A Game of Thrones LCG", SOURCE)]
    starts = {s.start for s in LAYOUT.stretches}
    assert len(heads) == 23 and set(heads) <= starts
    for span in FOOTERS:
        number = int(SOURCE[span.start + 5 : span.end])
        if SOURCE[span.start - 9 : span.start] == "Rulebook ":
            continue  # "Core Set Rulebook Page 19": an errata heading, not a footer
        stretch = LAYOUT.stretch_at(span.start)
        assert stretch.first == number, (number, stretch)
    assert sorted(LAYOUT.dividers) == [3, 8, 16, 24, 30]


def test_stored_pages_are_the_pages_the_evidence_gives(db, clauses):
    spans: dict[str, list[Span]] = {}
    for s in db.query("select s.clause, s.start, s.end from spans s join clauses c on c.id = s.clause where c.doc = 'agot1-faq'"):
        spans.setdefault(s["clause"], []).append(Span(s["start"], s["end"]))
    for row in (c for c in clauses if c["doc"] == "agot1-faq"):
        page, unknown = LAYOUT.page_of(spans[row["id"]])
        assert row["page"] == (None if page is None else str(page)), row["id"]
        assert row["data"].get("page_unknown") == unknown, row["id"]


def test_a_page_the_source_prints_no_number_on_is_cited_as_inferred(db, clauses):
    """A citation audit (r42): the flowchart pages 21-23 print no running head and no "Page N" footer; their
    numbers are inferred from the charts' order before the contents' "pg. 24", yet their nine chart clauses were
    cited "p. 23" as firmly as a printed page.  The citation now says the number is inferred; no clause on a
    page that prints its number says so."""
    inferred = {c["id"]: c for c in clauses if c["data"].get("page_inferred")}
    assert inferred and all(c["id"].startswith("agot1-faq/timing/chart-") for c in inferred.values()), sorted(inferred)
    assert {c["page"] for c in inferred.values()} == {"21", "22", "23"}
    for c in clauses:
        cited = store.clause(db, c["id"])["citation"]
        assert ("(page number inferred: the flowchart pages print none)" in cited) == (c["id"] in inferred), cited
    assert store.clause(db, "agot1-faq/timing/chart-standing-phase")["citation"].endswith(
        "Flowchart: Standing Phase, p. 23 (page number inferred: the flowchart pages print none)"
    )


def test_no_clause_is_cited_on_an_image_only_page(faq_pages):
    for cid, page in faq_pages.items():
        span = pages.page_range(page)
        if span:
            assert not any(span[0] <= d <= span[1] for d in LAYOUT.dividers), (cid, page)
    # the entries the old footer-position reading put on divider pages
    assert {faq_pages[i] for i in ("draw-cap", "1.1", "1.2", "1.3", "rules-clarification/introduction")} == {"9"}
    assert faq_pages["timing/introduction"] == "17"
    assert faq_pages["qa/dominance-action-before-count"] == "25"
    assert faq_pages["errata/introduction"] == "4"


def test_an_undetermined_page_is_said_not_guessed(db):
    row = store.clause(db, "agot1-faq/front/changes")
    assert row["page"] is None
    assert "page not determined (one of pp. 1-2)" in row["citation"]
    assert " p. 1" not in row["citation"] and " p. 2" not in row["citation"]


def test_a_clause_across_a_page_break_cites_both_pages(db):
    assert store.clause(db, "agot1-faq/3.14")["citation"].endswith(", pp. 10-11")
    assert store.clause(db, "agot1-faq/3.30")["citation"].endswith(", p. 12")


def test_evidence_that_contradicts_a_footer_fails_the_build(corpus_copy, tmp_path):
    path = corpus_copy / "evidence" / "agot1-faq-pages.yaml"
    text = path.read_text(encoding="utf-8")
    # move the start of page 12 past its own "Page 12" footer
    path.write_text(text.replace("starts: ['Page 11 «A Game of Thrones LCG']", "starts: ['Page 12 «(3.40) Saving']"), encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2
    assert "footer 'Page 12' at offset 43109 lies in the stretch of page 11" in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(DataError):
        pages.load_layout(path, SOURCE, FOOTERS[1:])
