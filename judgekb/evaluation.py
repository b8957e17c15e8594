"""Measuring lookup: an evaluation set of judge queries, each with a phrase its answer contains."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "`": "'"})


def folded(text: str) -> str:
    """Case-, whitespace- and quote-insensitive form used to compare texts."""
    text = text.translate(QUOTES).replace("*", "")  # Markdown emphasis is formatting, not words
    return re.sub(r"\s+", " ", text).strip().casefold()


@dataclass(frozen=True)
class Item:
    query: str
    edition: int
    expect: str


def load(path: Path) -> list[Item]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Item(str(d["q"]), int(d["ed"]), str(d["expect"])) for d in data]


def answers(item: Item, result: dict[str, Any]) -> bool:
    """Does a result (heading and text) contain the expected phrase?"""
    return folded(item.expect) in folded(f"{result.get('heading', '')} {result.get('text', '')}")


def score(items: list[Item], lookup: Callable[[Item], list[dict[str, Any]]]) -> dict[str, Any]:
    """top-1 and top-5 over the set, and the misses for inspection."""
    top1 = top5 = 0
    misses = []
    for item in items:
        results = lookup(item)
        ranks = [i for i, r in enumerate(results[:5]) if answers(item, r)]
        top1 += bool(ranks and ranks[0] == 0)
        top5 += bool(ranks)
        if not ranks or ranks[0] != 0:
            misses.append((item, ranks[0] + 1 if ranks else None, [r["id"] for r in results[:3]]))
    n = len(items)
    return {"n": n, "top1": top1 / n, "top5": top5 / n, "misses": misses}
