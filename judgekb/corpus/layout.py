"""A clause's text cut back into the paragraphs, list items and table cells its page sets apart.

The served text is one line (citations, checksums and search read it so); an HTML source's parser
keeps beside it where each block begins (``data["blocks"]``: ``[offset, "p"]``, ``[offset, "ul"]``,
``[offset, "ol", number]``, ``[offset, "ul" | "ol", number, depth]`` for a list inside a list item,
``[offset, "th" | "td", row, column]``).  The clause page and
``judgekb show`` both lay the text out from these pieces; the words are always the text's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LISTS = ("ul", "ol")
CELLS = ("th", "td")


@dataclass(frozen=True)
class Piece:
    """One paragraph, list item or table cell of a clause's text."""

    kind: str  # "p", "ul", "ol" (a list item of that list), "th" or "td" (a table cell)
    text: str
    number: int = 0  # an <ol> item's number, as the page draws it (the text has none)
    row: int = 0  # a table cell's row and column in its table, from 1
    column: int = 0
    depth: int = 1  # a list item's nesting: 2 for a list inside a list item


def pieces(text: str, blocks: list[list[Any]]) -> list[Piece]:
    """``text`` cut where ``blocks`` say each piece begins; joined with spaces they give back the text."""
    ends = [b[0] for b in blocks[1:]] + [len(text)]
    out = []
    for block, end in zip(blocks, ends, strict=True):
        kind, part = block[1], text[block[0] : end].strip()
        if kind in CELLS and len(block) > 3:
            out.append(Piece(kind, part, row=int(block[2]), column=int(block[3])))
        elif kind in LISTS and len(block) > 3:
            out.append(Piece(kind, part, number=int(block[2]), depth=int(block[3])))
        elif kind == "ol" and len(block) > 2:
            out.append(Piece(kind, part, number=int(block[2])))
        else:
            out.append(Piece(kind, part))
    return out


def table_rows(cells: list[Piece]) -> list[list[Piece | None]]:
    """One table's cells as its rows, each as wide as the widest row; a cell whose only content is
    an icon has no text, so no piece: it is ``None`` and the columns after it stay in place."""
    width = max(c.column for c in cells)
    rows: dict[int, list[Piece | None]] = {}
    for cell in cells:
        rows.setdefault(cell.row, [None] * width)[cell.column - 1] = cell
    return [rows[r] for r in sorted(rows)]


def grouped(parts: list[Piece]) -> list[tuple[str, list[Piece]]]:
    """Consecutive pieces of one list or one table together: ("p", [piece]), ("ul" | "ol", items),
    ("table", cells).  A list ends where the nesting changes, a table where the row count starts again."""
    out: list[tuple[str, list[Piece]]] = []
    for part in parts:
        group = "table" if part.kind in CELLS else part.kind
        last = out[-1] if out else None
        same = last is not None and last[0] == group and group != "p" and last[1][-1].depth == part.depth
        if same and group == "table" and last is not None and part.row < last[1][-1].row:
            same = False
        if same and last is not None:
            last[1].append(part)
        else:
            out.append((group, [part]))
    return out


def plain_text(text: str, blocks: list[list[Any]]) -> str:
    """The text as lines, for a terminal or a copy: each paragraph on a line of its own, list items
    marked as the page draws them ("•", "3."), a table's rows as lines of cells ("4-8 | 3 | No Cut")."""
    lines = []
    for group, parts in grouped(pieces(text, blocks)):
        if group == "table":
            lines += ["  " + " | ".join(c.text if c else "" for c in row) for row in table_rows(parts)]
        elif group in LISTS:
            lines += [f"{'  ' * p.depth}{f'{p.number}.' if p.number else '•'} {p.text}" for p in parts]
        else:
            lines.append(parts[0].text)
    return "\n".join(lines)
