"""Clauses of the unofficial web copy: one clause per paragraph, page chrome removed.

The web copy has no numbers or headings and its paragraphs were cut and merged by the
page, so the only honest unit is the paragraph as it stands.  Its map lists the chrome
(page title, product lists, comment widgets) by line and text; a chrome entry may be the
start of a line whose rest is a paragraph.
"""

from __future__ import annotations

import re
from pathlib import Path

from judgekb.corpus.model import Clause, Document, opening
from judgekb.corpus.spans import Span, join
from judgekb.yamlio import DataError, check_fields, load, where

LABEL_WORDS = 8  # a paragraph is headed by its opening words


def parse(doc: Document, source: str, map_path: Path) -> list[Clause]:
    data = load(map_path)
    check_fields(map_path, data, {"chrome"}, {"kind"}, "paragraph map")
    lines = source.split("\n")
    starts = [0] + [m.end() for m in re.finditer("\n", source)]
    chrome: dict[int, int] = {}  # line -> characters of chrome at its start
    for raw in data["chrome"]:
        if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[0], int)):
            raise DataError(f"{map_path}: chrome entries are [line, text]: {raw!r}")
        number, text = raw
        if not 1 <= number <= len(lines) or not lines[number - 1].lstrip().startswith(str(text)):
            raise DataError(f"{where(map_path, data)}: {doc.file}:{number} does not start with {text!r}")
        line = lines[number - 1]
        chrome[number] = len(line) - len(line.lstrip()) + len(str(text))
    clauses = []
    for number, line in enumerate(lines, 1):
        skip = chrome.get(number, 0)
        if not line[skip:].strip():
            continue
        lead = len(line[skip:]) - len(line[skip:].lstrip())
        span = Span(starts[number - 1] + skip + lead, starts[number - 1] + len(line.rstrip()))
        text = join(source, [span])
        clauses.append(
            Clause(
                id=f"{doc.id}/para-{number}",
                doc=doc.id,
                edition=doc.edition,
                kind=data.get("kind", "web"),
                heading=opening(text, LABEL_WORDS),
                text=text,
                spans=[span],
                data={"line": number},
            )
        )
    return clauses
