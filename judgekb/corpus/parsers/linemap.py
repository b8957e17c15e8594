"""Clauses cut from a line-oriented document (the rules of play, the summary) by a heading map.

The rulebook and the summary print headings on lines of their own (or, in the summary's
reference sheet, at the start of a paragraph).  Their maps (``corpus/maps/*.yaml``) list
every heading by line number and text — checked against the source, so a wrong line number
fails the build — and a section is everything from its heading to the next one.  Lines that
are page furniture (running heads, web addresses between sections) are listed too, so that
every non-blank line is accounted for.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from judgekb.corpus.model import KINDS, Clause, Document
from judgekb.corpus.spans import Span, join
from judgekb.yamlio import DataError, check_fields, load, where

_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """A readable id part: lower case, words joined by hyphens, quotes dropped."""
    text = text.lower().replace("'", "").replace("’", "").replace("“", "").replace("”", "")
    return _SLUG.sub("-", text).strip("-")


def _line_starts(source: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", source):
        starts.append(m.end())
    return starts


def _entry(path: Path, raw: Any, label: str) -> dict[str, Any]:
    """Normalise ``[line, text]`` / ``[line, text, id]`` or a mapping to a dict."""
    if isinstance(raw, list) and 2 <= len(raw) <= 3:
        out = {"line": raw[0], "text": raw[1]}
        if len(raw) == 3:
            out["id"] = raw[2]
        return out
    if isinstance(raw, dict):
        check_fields(path, raw, {"line", "text"}, {"id", "kind", "heading"}, label)
        return raw
    raise DataError(f"{path}: {label} must be [line, text], [line, text, id] or a mapping: {raw!r}")


def parse(doc: Document, source: str, map_path: Path) -> list[Clause]:
    """Build the sections of ``doc`` from its heading map; every line must be accounted for."""
    data = load(map_path)
    check_fields(map_path, data, {"sections"}, {"furniture", "headings", "kind", "page"}, "line map")
    default_kind = data.get("kind", "rules")
    if default_kind not in KINDS:
        raise DataError(f"{map_path}: unknown kind '{default_kind}'")
    lines = source.split("\n")
    starts = _line_starts(source)

    def locate(entry: dict[str, Any], what: str) -> tuple[int, Span]:
        number = entry["line"]
        if not isinstance(number, int) or not 1 <= number <= len(lines):
            raise DataError(f"{where(map_path, entry)}: {what} line {number!r} is not a line of {doc.file}")
        line = lines[number - 1]
        text = str(entry["text"])
        offset = line.find(text)
        if offset < 0 or line[:offset].strip():
            raise DataError(f"{where(map_path, entry)}: {doc.file}:{number} does not start with {text!r} (it reads {line.strip()[:60]!r})")
        begin = starts[number - 1] + offset
        return number, Span(begin, begin + len(text))

    furniture = {}
    for raw in data.get("furniture") or []:
        entry = _entry(map_path, raw, "furniture")
        number, span = locate(entry, "furniture")
        if lines[number - 1].strip() != str(entry["text"]).strip():
            raise DataError(f"{where(map_path, entry)}: furniture must be a whole line ({doc.file}:{number})")
        furniture[number] = span

    heads: list[tuple[int, Span, dict[str, Any]]] = []
    for raw in data["sections"]:
        entry = _entry(map_path, raw, "section")
        number, span = locate(entry, "section heading")
        heads.append((number, span, entry))
    for raw in data.get("headings") or []:  # group headings: end a section, start none
        entry = _entry(map_path, raw, "heading")
        number, span = locate(entry, "heading")
        heads.append((number, span, entry | {"group": True}))
    heads.sort(key=lambda h: h[0])
    first_head = heads[0][0] if heads else len(lines) + 1
    for n in range(1, first_head):
        if lines[n - 1].strip() and n not in furniture:
            raise DataError(f"{map_path}: {doc.file}:{n} comes before the first heading and is not furniture")

    clauses: list[Clause] = []
    seen: set[str] = set()
    for index, (number, head, entry) in enumerate(heads):
        end_line = heads[index + 1][0] if index + 1 < len(heads) else len(lines) + 1
        if index + 1 < len(heads) and heads[index + 1][0] == number:
            raise DataError(f"{where(map_path, entry)}: two headings on {doc.file}:{number}")
        if entry.get("group"):
            if any(lines[n - 1].strip() and n not in furniture for n in range(number + 1, end_line)):
                raise DataError(f"{map_path}: heading {entry['text']!r} ({doc.file}:{number}) has text under it; make it a section")
            continue
        body: list[Span] = []
        rest = Span(head.end, starts[number - 1] + len(lines[number - 1]))
        if source[rest.start : rest.end].strip():
            body.append(rest)
        for n in range(number + 1, end_line):
            if n in furniture or not lines[n - 1].strip():
                continue
            body.append(Span(starts[n - 1], starts[n - 1] + len(lines[n - 1])))
        if not body:
            raise DataError(f"{map_path}: section {entry['text']!r} ({doc.file}:{number}) has no text; list it under headings")
        heading = str(entry.get("heading") or entry["text"]).strip()
        cid = f"{doc.id}/{entry.get('id') or slug(heading)}"
        if cid in seen:
            raise DataError(f"{map_path}: duplicate clause id '{cid}' ({doc.file}:{number}); give this heading an id")
        seen.add(cid)
        kind = entry.get("kind", default_kind)
        if kind not in KINDS:
            raise DataError(f"{where(map_path, entry)}: unknown kind '{kind}'")
        clauses.append(
            Clause(
                id=cid,
                doc=doc.id,
                edition=doc.edition,
                kind=kind,
                heading=heading,
                text=join(source, body),
                spans=[head, *body],
                page=data.get("page"),
                data={"line": number, "head_spans": 1},
            )
        )
    return clauses
