"""Printed pages of a flattened document, read from recorded evidence instead of guessed.

A flattened PDF keeps each page as one stretch of the text stream, in page order, but the
"Page N" footer can sit anywhere inside its page (often at a column break).  The evidence
file (``corpus/evidence/<doc>-pages.yaml``) records, for every page, where its stretch
begins (its running head), whether it has a footer, which pages are image-only dividers,
and which pages the source cannot tell apart.  This module loads that file, proves it
against the source (every footer inside its own page, every running head at a page start),
and answers "which page is this clause on" — or says the page cannot be determined.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekb.corpus.spans import Span, SpanError, resolve
from judgekb.yamlio import DataError, check_fields, load, strip_lines, where

PAGE_FIELDS = {"page", "pages", "starts", "determined", "inferred", "divider", "head", "footer", "holds", "evidence"}
CLAIM_FIELDS = {"at", "says", "expect", "divider", "holds", "why", "about"}
FOOTER = re.compile(r"Page (\d+)")


@dataclass(frozen=True)
class Stretch:
    """One page (or a run of pages the source cannot tell apart) and its part of the stream."""

    first: int
    last: int
    start: int
    end: int
    determined: bool
    inferred: str = ""  # a page the source prints no number on, placed by reasoning: what the citation says of it

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass
class Layout:
    """The pages of one document: text stretches in stream order, and the divider pages."""

    stretches: list[Stretch]
    dividers: dict[int, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # page label -> why it cannot be determined

    def stretch_at(self, offset: int) -> Stretch:
        for stretch in self.stretches:
            if stretch.start <= offset < stretch.end:
                return stretch
        return self.stretches[-1]

    def page_of(self, spans: list[Span]) -> tuple[int | str | None, str | None]:
        """The page a clause made of ``spans`` is cited on: ``12``, ``"13-14"`` when it runs
        over a page break, or ``None`` with the reason when its page cannot be determined."""
        ends = [s.start for s in spans] + [max(s.start, s.end - 1) for s in spans]
        touched = sorted({self.stretch_at(offset) for offset in ends}, key=lambda t: t.first)
        unknown = [t for t in touched if not t.determined]
        if unknown:
            t = unknown[0]
            return None, f"one of pp. {t.first}-{t.last}: {self.notes.get(t.label, 'the source does not show which')}"
        first, last = touched[0].first, touched[-1].last
        return (first if first == last else f"{first}-{last}"), None

    def inferred_of(self, spans: list[Span]) -> str:
        """What a citation says of a page the source prints no number on (the first edition FAQ's flowchart
        pages), when the clause lies on one: its number is inferred, and a judge reading it out should know."""
        ends = [s.start for s in spans] + [max(s.start, s.end - 1) for s in spans]
        return next((t.inferred for t in sorted({self.stretch_at(o) for o in ends}, key=lambda t: t.first) if t.inferred), "")


def evidence_path(corpus: Path, doc_id: str) -> Path:
    return corpus / "evidence" / f"{doc_id}-pages.yaml"


def _anchor(source: str, raw: Any, label: str) -> Span:
    if not isinstance(raw, list) or len(raw) != 1 or not isinstance(raw[0], str):
        raise DataError(f"{label}: an anchor is a one-element list: ['text «edge» text']")
    try:
        return resolve(source, raw, label)
    except SpanError as exc:
        raise DataError(str(exc)) from None


def load_layout(path: Path, source: str, furniture: list[Span]) -> Layout:
    """Read the evidence file and prove it against the source and its footers."""
    data = load(path)
    check_fields(path, data, {"document", "pages"}, {"claims"}, "page evidence")
    starts: list[tuple[int, int, int, bool, str]] = []
    dividers: dict[int, str] = {}
    notes: dict[str, str] = {}
    expected_page = 1
    for entry in data["pages"]:
        check_fields(path, entry, set(), PAGE_FIELDS, "page")
        label = f"{where(path, entry)}"
        numbers = entry.get("pages") or [entry.get("page"), entry.get("page")]
        if not (isinstance(numbers, list) and len(numbers) == 2 and all(isinstance(n, int) for n in numbers)):
            raise DataError(f"{label}: give 'page: N' or 'pages: [first, last]'")
        first, last = numbers
        if first != expected_page or last < first:
            raise DataError(f"{label}: pages must run 1, 2, 3 … without gaps; expected page {expected_page}, got {first}-{last}")
        expected_page = last + 1
        if entry.get("divider"):
            if "starts" in entry:
                raise DataError(f"{label}: a divider page carries no text, so it has no 'starts'")
            dividers[first] = str(entry["divider"])
            continue
        if "starts" not in entry:
            raise DataError(f"{label}: a text page needs 'starts' (the anchor where its stretch begins)")
        span = _anchor(source, entry["starts"], f"{label}: starts")
        determined = entry.get("determined", True) is not False
        if not determined:
            notes[f"{first}-{last}"] = " ".join(str(entry.get("evidence", "")).split())
        if "inferred" in entry and (not isinstance(entry["inferred"], str) or not entry["inferred"].strip()):
            raise DataError(f"{label}: 'inferred' says in a few words why the page's number is not printed")
        starts.append((span.start, first, last, determined, str(entry.get("inferred") or "").strip()))
    if [s[0] for s in starts] != sorted(s[0] for s in starts):
        raise DataError(f"{path}: page starts must follow the stream in page order")
    if starts and source[: starts[0][0]].strip():
        raise DataError(f"{path}: the first page must start at the beginning of the source")
    stretches = [
        Stretch(first, last, start, starts[n + 1][0] if n + 1 < len(starts) else len(source), determined, inferred)
        for n, (start, first, last, determined, inferred) in enumerate(starts)
    ]
    layout = Layout(stretches, dividers, notes)
    _check_footers(path, source, furniture, layout, data["pages"])
    return layout


def _check_footers(path: Path, source: str, furniture: list[Span], layout: Layout, entries: list[dict[str, Any]]) -> None:
    """Every "Page N" footer lies in page N's stretch; every page said to have one has one."""
    found: dict[int, int] = {}
    for span in furniture:
        m = FOOTER.fullmatch(span.text(source).strip())
        if not m:
            continue
        number, stretch = int(m.group(1)), layout.stretch_at(span.start)
        if not stretch.first <= number <= stretch.last:
            raise DataError(f"{path}: footer 'Page {number}' at offset {span.start} lies in the stretch of page {stretch.label}")
        found[number] = span.start
    for entry in entries:
        page = entry.get("page")
        if page is not None and bool(entry.get("footer")) != (page in found):
            says = "has" if entry.get("footer") else "has no"
            raise DataError(f"{where(path, entry)}: page {page} {says} a footer by the evidence, but the source disagrees")


def load_claims(path: Path, source: str) -> list[dict[str, Any]]:
    """The document's own page references with what they imply (for tests and review)."""
    data = load(path)
    claims = []
    for entry in data.get("claims") or []:
        check_fields(path, entry, {"at"}, CLAIM_FIELDS, "claim")
        span = _anchor(source, entry["at"], f"{where(path, entry)}: at")
        claims.append({**strip_lines(entry), "span": span, "line": entry.get("__line__")})
    return claims


def page_range(value: int | str | None) -> tuple[int, int] | None:
    """``12`` → (12, 12); ``"13-14"`` → (13, 14); None stays None."""
    if value in (None, ""):
        return None
    text = str(value)
    first, _, last = text.partition("-")
    return int(first), int(last or first)


def check_claim(claim: dict[str, Any], pages: dict[str, int | str | None], layout: Layout) -> list[str]:
    """What in ``claim`` disagrees with the clauses' pages (clause id without doc prefix → page)."""
    problems = []
    if "divider" in claim and claim["divider"] not in layout.dividers:
        problems.append(f"page {claim['divider']} is not a divider page")
    for pattern, want in (claim.get("expect") or {}).items():
        matched = [cid for cid in pages if fnmatch.fnmatchcase(cid, str(pattern))]
        if not matched:
            problems.append(f"no clause matches {pattern!r}")
        low, high = page_range(want) or (0, 0)
        for cid in matched:
            got = page_range(pages[cid])
            if got is None:
                problems.append(f"{cid}: page not determined")
            elif isinstance(want, int) and got[0] != want:
                problems.append(f"{cid} begins on p. {got[0]}, not p. {want}")
            elif not isinstance(want, int) and not (low <= got[0] and got[1] <= high):
                problems.append(f"{cid} is on pp. {pages[cid]}, outside {want}")
    return problems
