"""Spans: how clause text is cut from a source file without ever rewriting it.

A span is a half-open character range ``[start, end)`` of one source file.  Clause maps
name spans by verbatim anchors — ``[begin, end]`` — so a reviewer can read which words
start and finish each piece; :func:`resolve` turns anchors into offsets and refuses
anything ambiguous.  Clause text is always the whitespace-normalised join of its spans,
so every sentence judgekb serves can be traced back to the bytes it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WS = re.compile(r"\s+")


class SpanError(ValueError):
    """An anchor that is missing, ambiguous, or out of order in its source."""


@dataclass(frozen=True, order=True)
class Span:
    start: int
    end: int

    def text(self, source: str) -> str:
        return source[self.start : self.end]


def normalise(text: str) -> str:
    """Collapse runs of whitespace to one space and trim: the form clauses are compared in."""
    return _WS.sub(" ", text).strip()


def join(source: str, spans: list[Span]) -> str:
    """The clause text made of ``spans`` in reading order."""
    return normalise(" ".join(s.text(source) for s in spans))


def line_of(source: str, offset: int) -> int:
    """1-based line number of a character offset (for error messages)."""
    return source.count("\n", 0, offset) + 1


def find_unique(source: str, needle: str, where: str) -> int:
    """Offset of the only occurrence of ``needle``; a clear error if there are none or many."""
    first = source.find(needle)
    if first < 0:
        raise SpanError(f"{where}: anchor not found: {needle!r}")
    second = source.find(needle, first + 1)
    if second >= 0:
        raise SpanError(f"{where}: anchor {needle!r} occurs more than once (offsets {first} and {second}); lengthen it")
    return first


def _context(anchor: str) -> tuple[str, int, int]:
    """Split an anchor into (searchable text, «-offset, »-offset); markers are optional."""
    if anchor.count("«") > 1 or anchor.count("»") > 1:
        raise SpanError(f"anchor {anchor!r} has more than one « or »")
    left = anchor.find("«")
    plain = anchor.replace("«", "")
    right = plain.find("»")
    plain = plain.replace("»", "")
    return plain, (left if left >= 0 else 0), (right if right >= 0 else len(plain))


def resolve(source: str, anchors: list[str], where: str) -> Span:
    """Turn ``[begin]`` or ``[begin, end]`` into a span.

    ``begin`` must occur exactly once in the source; ``end`` is its first occurrence that
    finishes at or after the end of ``begin``.  A one-element list is the exact text.
    Either anchor may carry context around the span's edge: ``«`` marks where the span
    starts and ``»`` where it ends (``"Frequently «and Errata»Asked"`` is "and Errata").
    """
    if not anchors or len(anchors) > 2 or not all(isinstance(a, str) and a for a in anchors):
        raise SpanError(f"{where}: a span is [begin] or [begin, end] of non-empty strings")
    begin, left, right = _context(anchors[0])
    found_begin = find_unique(source, begin, where)
    start = found_begin + left
    if len(anchors) == 1:
        return Span(start, found_begin + right)
    end_text, end_left, end_right = _context(anchors[1])
    if "«" in anchors[1]:
        raise SpanError(f"{where}: an end anchor marks its edge with », not «")
    search_from = max(found_begin, found_begin + len(begin) - len(end_text))
    found = source.find(end_text, search_from)
    if found < 0:
        raise SpanError(f"{where}: end anchor {anchors[1]!r} not found after {anchors[0]!r}")
    return Span(start, found + end_right)


@dataclass(frozen=True)
class Gap:
    start: int
    end: int
    text: str


def uncovered(source: str, spans: list[Span]) -> list[Gap]:
    """Stretches of non-blank source text that no span covers, in source order."""
    gaps: list[Gap] = []
    cursor = 0
    for span in sorted(spans):
        if span.start > cursor and source[cursor : span.start].strip():
            gaps.append(Gap(cursor, span.start, source[cursor : span.start]))
        cursor = max(cursor, span.end)
    if source[cursor:].strip():
        gaps.append(Gap(cursor, len(source), source[cursor:]))
    return gaps


def overlaps(spans: list[tuple[str, Span]]) -> list[tuple[str, str, Span, Span]]:
    """Pairs of spans (with their owners) that share characters."""
    found = []
    ordered = sorted(spans, key=lambda p: (p[1].start, p[1].end))
    widest: tuple[str, Span] | None = None
    for owner, span in ordered:
        if widest is not None and span.start < widest[1].end:
            found.append((widest[0], owner, widest[1], span))
        if widest is None or span.end > widest[1].end:
            widest = (owner, span)
    return found
