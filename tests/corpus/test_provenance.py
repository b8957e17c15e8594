"""Every served sentence comes from the sources verbatim, and no text is used twice."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from judgekb.corpus.parsers import html, markdown2
from judgekb.corpus.sources import load_documents, read_source
from judgekb.corpus.spans import Span, normalise
from tests.conftest import CORPUS

DOCS = {doc.id: doc for doc in load_documents(CORPUS)}
SOURCES = {doc_id: read_source(doc, CORPUS) for doc_id, doc in DOCS.items()}
HTML = {doc_id for doc_id, doc in DOCS.items() if doc.parser == "html"}
# An HTML source is compared as its text: markup and Twig tags removed, references decoded.


def _inside_tags(source: str) -> bytearray:
    """1 for each character inside a tag (found by the HTML tokenizer), 0 for text."""
    inside = bytearray(len(source))
    for tok in html.tokens(source):
        if tok.kind != "text":
            inside[tok.start : tok.end] = b"\x01" * (tok.end - tok.start)
    return inside


TAG_INSIDE = {doc_id: _inside_tags(SOURCES[doc_id]) for doc_id in HTML}
MARKDOWN = {doc_id for doc_id, doc in DOCS.items() if doc.parser == "markdown2"}
# A Markdown source is compared without its emphasis marks (served text carries no asterisks).
NORMALISED = {
    doc_id: html.inline_text(text) if doc_id in HTML else normalise(markdown2.plain_text(text) if doc_id in MARKDOWN else text)
    for doc_id, text in SOURCES.items()
}


def verbatim_pieces(text: str, source: str) -> list[str]:
    """Split ``text`` greedily into the longest pieces that occur verbatim in ``source``."""
    pieces = []
    i = 0
    while i < len(text):
        low, high = 0, len(text) - i
        while low < high:  # longest prefix of text[i:] found in source
            mid = (low + high + 1) // 2
            if text[i : i + mid] in source:
                low = mid
            else:
                high = mid - 1
        if low == 0:
            raise AssertionError(f"character {text[i]!r} at {i} does not occur in the source")
        pieces.append(text[i : i + low])
        i += low
        while i < len(text) and text[i] == " ":
            i += 1
    return pieces


def test_every_clause_text_is_made_of_verbatim_source_pieces(db, clauses):
    """Independent of the stored spans: cut each text into the longest verbatim pieces."""
    span_counts = {r["clause"]: r["n"] for r in db.query("select clause, count(*) n from spans group by clause")}
    for row in clauses:
        pieces = verbatim_pieces(row["text"], NORMALISED[row["doc"]])
        # A clause made of k spans is at most k verbatim pieces (fewer where spans happen to abut).
        assert len(pieces) <= span_counts[row["id"]], (row["id"], pieces[:5])


def test_stored_spans_rebuild_each_clause_text(db, clauses):
    spans = defaultdict(list)
    for span in db.query("select clause, seq, start, end from spans order by clause, seq"):
        spans[span["clause"]].append(span)
    for row in clauses:
        source = SOURCES[row["doc"]]
        stored = spans[row["id"]]
        assert stored, row["id"]
        heads = row["data"].get("head_spans", 0)
        if row["doc"] in HTML:
            body = html.join(source, [Span(s["start"], s["end"]) for s in stored[heads:]])
        elif row["doc"] in MARKDOWN:
            body = markdown2.join(source, [Span(s["start"], s["end"]) for s in stored[heads:]])
        else:
            body = " ".join(source[s["start"] : s["end"]] for s in stored[heads:])
        assert normalise(body) == row["text"], row["id"]
        for s in stored:
            assert source[s["start"] : s["end"]].strip(), (row["id"], s)
            if row["doc"] in HTML:  # a span starts and ends outside any tag
                inside = TAG_INSIDE[row["doc"]]
                assert not inside[s["start"]] and not inside[s["end"] - 1], (row["id"], source[s["start"] : s["end"]][:80])


def test_no_source_text_is_used_by_two_clauses(db):
    by_doc = defaultdict(list)
    for span in db.query("select s.clause, s.start, s.end, c.doc from spans s join clauses c on c.id = s.clause"):
        by_doc[span["doc"]].append(span)
    for doc_id, spans in by_doc.items():
        spans.sort(key=lambda s: (s["start"], s["end"]))
        widest = None
        for span in spans:
            if widest is not None:
                assert span["start"] >= widest["end"], f"{doc_id}: {widest['clause']} and {span['clause']} overlap"
            if widest is None or span["end"] > widest["end"]:
                widest = span


FURNITURE_AND_HEADINGS = {
    "agot1-faq": [
        r"Page \d+",
        r"(A Game of Thrones LCG )?(Official Rules Clarifications)?( and Frequently)?( Asked Questions)?",
        r"Rules Clarification and Enhancement|Timing Structure and Flowcharts",
        r"Framework Action|Player Actions|(Plot|Draw|Marshalling|Challenges|Dominance|Standing|Taxation) Phase",
        r"(Joust|Melee) Restricted List|Removed from (Joust Restriced|Melee Restricted) List|Removed Cards|Banned List",
        r"Game Play|Draw, Search, and Reveal|Card Effects and Abilities|Paying Costs|Card Effect Interpretation",
        r"Immunity|Dynamic Situations|Definitions and Terms|Keywords|Shadows Area|The Action Window in Detail",
        r"(A Game of Thrones )?Core Set|Kings of the (Sea|Storm)|Queen of Dragons|Lions of the Rock",
        r"Conquest and Defiance|Princes of the Sun|Kingsroad|Song of the Sea|Beyond the Narrow Sea",
        r"A Tale of Champions|Secrets of Oldtown|Brotherhood (w/o|Without) Banners|Defenders of the North",
        r"A Clash of Arms|King[’']s Landing|A Time of Ravens|Multiplayer Titles",
    ],
    "agot2-faq": [r"-{3,}"],
}
WEB_CHROME_LINES = {1, 22, 24, 26, 120, 122}  # page title, product list, comment widget


@pytest.mark.parametrize("doc_id", ["agot1-faq", "agot2-faq", "agot2-web"])
def test_text_outside_clauses_is_only_furniture_and_headings(doc_id, db):
    source = SOURCES[doc_id]
    covered = bytearray(len(source))
    for span in db.query("select s.start, s.end from spans s join clauses c on c.id = s.clause where c.doc = ?", [doc_id]):
        covered[span["start"] : span["end"]] = b"\x01" * (span["end"] - span["start"])
    leftover = "".join(" " if covered[i] else ch for i, ch in enumerate(source))
    if doc_id == "agot2-web":
        lines = {source.count("\n", 0, i) + 1 for i, ch in enumerate(leftover) if not ch.isspace()}
        assert lines <= WEB_CHROME_LINES, sorted(lines - WEB_CHROME_LINES)
        return
    pattern = re.compile("|".join(f"(?:{p})" for p in FURNITURE_AND_HEADINGS[doc_id]))
    remaining = pattern.sub(" ", leftover)
    if doc_id == "agot2-faq":  # Markdown heading marks of part headings are not clause text
        remaining = re.sub(r"^#+ .*$", " ", remaining, flags=re.M)
    assert not remaining.strip(), remaining.strip()[:200]


def test_the_1st_edition_faq_repairs_join_the_interleaved_columns(clauses):
    by_id = {row["id"]: row for row in clauses}
    replacement = by_id["agot1-faq/3.23"]["text"]
    assert "(such as the effect of a challenge's claim, or the drawing of a card) are handled." in replacement
    assert replacement.endswith('and the "deathbound" keyword.')
    # furniture never leaks into a sentence
    for row in clauses:
        if row["doc"] == "agot1-faq":
            assert not re.search(r"\bPage \d+ [a-z]", row["text"]), row["id"]
            assert "Official Rules Clarifications and Frequently Asked Questions" not in row["text"], row["id"]
    assert "can only be triggered once" in by_id["agot1-faq/2.4"]["text"]
    assert "Sansa Stark's effect (draw a card)" in by_id["agot1-faq/2.4"]["text"]
    assert by_id["agot1-faq/errata/naval-escort-dotn-f48"]["text"].endswith('X is the number of locations just knelt."')
