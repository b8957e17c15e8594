"""The records judgekb is made of: documents (from manifests) and clauses (from parsing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekb.corpus.spans import Span

# Clause kinds, the unit a judge cites.  Kept here so parsers, store and tests agree.
KINDS = {
    "section": "a numbered or headed rules-clarification section of an FAQ",
    "errata": "a card errata or card clarification entry",
    "rulebook-errata": "an errata entry against the rulebook / Rules Reference",
    "qa": "one question-and-answer pair",
    "restricted": "one restricted-list entry (format in data)",
    "banned": "one banned-list entry",
    "list-change": "a card removed from a restricted or banned list",
    "definition": "one defined term",
    "timing": "one timing-structure step or sequence",
    "rules": "one section of the rules of play (1st edition) or one Rules Reference entry (2nd edition)",
    "regulation": "one section of the Tournament Regulations",
    "summary": "one section of the unofficial summary",
    "web": "one paragraph of the unofficial web copy",
    "preamble": "document front matter and section introductions",
}


def opening(text: str, words: int) -> str:
    """The first ``words`` words of a text, with … when there is more: how a text with no heading of its
    own is named (a web paragraph, a numbered step's start, the sentence a restatement copies)."""
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


@dataclass(frozen=True)
class Document:
    """One source document as described by its manifest."""

    id: str
    title: str
    edition: int
    kind: str
    authority: str
    version: str
    date: str
    file: str
    short: str  # the name used in citation lines, e.g. "AGoT LCG 1.0 FAQ"
    parser: str
    map: str | None = None
    rank: int = 0  # higher outranks lower within an edition (official FAQ > rules > unofficial)
    publisher: str = ""
    sha256: str = ""
    structure: str = ""  # for the html parser: which document shape (rules-reference, faq, regulations)
    provenance: str = ""  # JSON: where the source was published (repository, commit, path)
    pages: str = "printed"  # "none": the document has no page numbers; "lost": the source copy lost them; citations say so
    copies: str = ""  # unofficial copies: the documents it copies, comma-separated, the one to align with first
    chrome: tuple[str, ...] = ()  # html pages: how each passage the site added (not the document's text) begins
    supersedes: str = ""  # the id of the earlier version of this document, which it replaces entry by entry


@dataclass
class Clause:
    """One citable unit of a document, with the source spans it is made of."""

    id: str
    doc: str
    edition: int
    kind: str
    heading: str
    text: str
    spans: list[Span]
    section: str | None = None
    page: int | str | None = None
    version: str | None = None
    seq: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        """The clause as a flat row for the ``clauses`` table."""
        import json

        return {
            "id": self.id,
            "doc": self.doc,
            "edition": self.edition,
            "kind": self.kind,
            "section": self.section,
            "heading": self.heading,
            "page": self.page,
            "version": self.version,
            "text": self.text,
            "seq": self.seq,
            "data": json.dumps(self.data, ensure_ascii=False, sort_keys=True),
        }
