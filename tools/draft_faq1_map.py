"""One-off helper that drafted corpus/maps/agot1-faq.yaml from the flattened FAQ.

It cuts the text at printed markers (section numbers, version tags, page furniture) and
writes each piece with the shortest unique anchors.  The committed map was then edited by
hand while reading the document; this script is kept so the drafting step is reviewable,
not because the build uses it.
"""

from __future__ import annotations

import re
import sys

MARKERS = re.compile(
    r"\(?\d\.\d{1,2}\) (?=[A-Z“\"])|\(v\d+(?:\.\d+)*\) |Page \d+\b|"
    r"A Game of Thrones LCG(?: Official Rules Clarifications and Frequently Asked Questions)?"
)
CONNECTORS = {
    "a",
    "an",
    "the",
    "of",
    "and",
    "vs.",
    "to",
    "in",
    "from",
    "with",
    "on",
    "for",
    "that",
    "into",
    "per",
    "as",
}


def unique_prefix(src: str, start: int, end: int) -> str:
    words = src[start:end].split(" ")
    for n in range(1, len(words) + 1):
        cand = " ".join(words[:n])
        if len(cand) >= 12 and src.count(cand) == 1:
            return cand
    return src[start:end]


def end_suffix(src: str, start: int, end: int, begin: str) -> str:
    words = src[start:end].split(" ")
    for n in range(1, len(words) + 1):
        cand = " ".join(words[-n:])
        if len(cand) < 8:
            continue
        frm = max(start, start + len(begin) - len(cand))
        if src.find(cand, frm) + len(cand) == end:
            return cand
    return src[start:end]


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main() -> None:
    src = open(sys.argv[1], encoding="utf-8").read()
    cuts = sorted({m.start() for m in MARKERS.finditer(src)} | {0, len(src)})
    for a, b in zip(cuts, cuts[1:], strict=False):
        piece = src[a:b].strip()
        if not piece:
            continue
        a2 = src.index(piece, a)
        b2 = a2 + len(piece)
        begin = unique_prefix(src, a2, b2)
        if begin == piece:
            print(f"- [{q(begin)}]")
        else:
            print(f"- [{q(begin)}, {q(end_suffix(src, a2, b2, begin))}]")


if __name__ == "__main__":
    main()
