"""Clauses cut from a flattened document by a hand-reviewed span map.

The 1st-edition FAQ reached us as one line of text: two columns interleaved, page furniture
inside sentences.  Its clause map (``corpus/maps/agot1-faq.yaml``) records, for every clause,
the verbatim spans it is made of in reading order — that list *is* the repair: which spans
join which.  Page furniture and structural headings are listed too, so the build can prove
that every character of the source is accounted for exactly once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from judgekb.corpus.model import KINDS, Clause, Document
from judgekb.corpus.pages import load_layout
from judgekb.corpus.spans import Span, SpanError, join, overlaps, resolve, uncovered
from judgekb.yamlio import DataError, check_fields, load, where

CLAUSE_FIELDS = {
    "head",
    "text",
    "heading",
    "section",
    "version",
    "set",
    "card",
    "number",
    "cards",
    "format",
    "list",
    "printed",
    "note",
    "boundary",
    "version_from",
    "changelog",
}
SECTION_MARK = re.compile(r"^\(?(\d+\.\d+)\)\s*")
VERSION_MARK = re.compile(r"^\(v(\d+(?:\.\d+)*)\)\s*")


def _spans(source: str, raw: Any, label: str) -> list[Span]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(r, list) for r in raw):
        raise DataError(f"{label}: spans must be a list of [begin] or [begin, end] lists")
    try:
        return [resolve(source, r, label) for r in raw]
    except SpanError as exc:
        raise DataError(str(exc)) from None


def parse(doc: Document, source: str, map_path: Path) -> list[Clause]:
    """Build the clauses of ``doc`` from its span map, proving full coverage of the source."""
    data = load(map_path)
    check_fields(map_path, data, {"regions", "pages"}, set(), "span map")
    check_fields(map_path, data["pages"], {"evidence"}, set(), "pages")
    furniture: list[Span] = []
    headings: list[Span] = []
    items: list[dict[str, Any]] = []
    for region in data["regions"]:
        check_fields(map_path, region, {"region"}, {"furniture", "headings", "clauses"}, "region")
        label = f"{where(map_path, region)} ({region['region']})"
        furniture += _spans(source, region.get("furniture"), f"{label}: furniture")
        headings += _spans(source, region.get("headings"), f"{label}: headings")
        items += region.get("clauses") or []
    evidence = map_path.parent.parent / str(data["pages"]["evidence"])
    if not evidence.is_file():
        raise DataError(f"{where(map_path, data['pages'])}: field 'evidence' names a missing file: {evidence}")
    layout = load_layout(evidence, source, furniture)

    owned: list[tuple[str, Span]] = [("furniture", s) for s in furniture]
    owned += [("heading", s) for s in headings]
    clauses: list[Clause] = []
    seen: set[str] = set()
    for item in items:
        check_fields(map_path, item, {"id", "kind"}, CLAUSE_FIELDS, "clause")
        label = f"{where(map_path, item)} ({item['id']})"
        if item["kind"] not in KINDS:
            raise DataError(f"{label}: unknown kind '{item['kind']}'")
        cid = f"{doc.id}/{item['id']}"
        if cid in seen:
            raise DataError(f"{label}: duplicate clause id '{cid}'")
        seen.add(cid)
        head = _spans(source, item.get("head"), label)
        body = _spans(source, item.get("text"), label)
        if not body:
            raise DataError(f"{label}: clause has no text spans")
        owned += [(cid, s) for s in head + body]
        head_text = join(source, head)
        section = item.get("section")
        version = item.get("version")
        heading = item.get("heading")
        if head_text:
            m = SECTION_MARK.match(head_text)
            if m:
                section = section or m.group(1)
                head_text = head_text[m.end() :]
            m = VERSION_MARK.match(head_text)
            if m:
                version = version or m.group(1)
                head_text = head_text[m.end() :]
            heading = heading or head_text
        if item.get("card") or item.get("cards"):
            names = [item["card"]] if item.get("card") else [c[0] for c in item["cards"]]
            heading = item.get("heading") or " / ".join(dict.fromkeys(names))
            if item["kind"] == "restricted":  # the list is part of what the entry says
                heading = f"{str(item['format']).title()} Restricted List: {heading}"
        if not heading:
            raise DataError(f"{label}: clause needs a heading or head spans")
        kept = ("set", "card", "number", "cards", "format", "list", "note", "boundary", "version_from", "changelog")
        extra: dict[str, Any] = {k: item[k] for k in kept if k in item}
        if "printed" in item:
            extra["printed_section"] = item["printed"]
        page, unknown = layout.page_of(head + body)
        if unknown:
            extra["page_unknown"] = unknown
        elif inferred := layout.inferred_of(head + body):
            extra["page_inferred"] = inferred
        clauses.append(
            Clause(
                id=cid,
                doc=doc.id,
                edition=doc.edition,
                kind=item["kind"],
                heading=heading,
                text=join(source, body),
                spans=head + body,
                section=str(section) if section is not None else None,
                page=page,
                version=str(version) if version is not None else None,
                data=extra | ({"head_spans": len(head)} if head else {}),
            )
        )

    problems = []
    for a, b, sa, sb in overlaps(owned):
        problems.append(f"  {a} and {b} share source text at {sb.start}: {source[sb.start : min(sa.end, sb.end)][:60]!r}")
    for gap in uncovered(source, [s for _, s in owned]):
        problems.append(f"  not covered at {gap.start}-{gap.end}: {gap.text.strip()[:80]!r}")
    if problems:
        shown = "\n".join(problems[:25])
        more = f"\n  ... and {len(problems) - 25} more" if len(problems) > 25 else ""
        raise DataError(f"{map_path}: span map does not cover {doc.file} exactly once:\n{shown}{more}")
    return clauses
