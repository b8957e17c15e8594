"""Measuring lookup: the player set (questions as players ask them, the clause ids that answer each,
split into a dev half and a frozen test half) and the heading-built regression set (each query with a
phrase its answer contains)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from judgekb import yamlio
from judgekb.errors import DataError

QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "`": "'"})


def folded(text: str) -> str:
    """Case-, whitespace- and quote-insensitive form used to compare texts."""
    text = text.translate(QUOTES).replace("*", "")  # Markdown emphasis is formatting, not words
    return re.sub(r"\s+", " ", text).strip().casefold()


@dataclass(frozen=True)
class Item:
    """A regression query, its edition and a phrase its answer contains."""

    query: str
    edition: int
    expect: str


def load(path: Path) -> list[Item]:
    """The heading-built regression set (tests/eval/lookup.yaml)."""
    data = yamlio.safe_load(path.read_text(encoding="utf-8"))
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


# ---------------------------------------------------------------------------- the player set
# tests/eval/players.yaml: queries written question-first the way players ask, each with the
# clause ids that answer it (or ``absent:<document>`` when the answer is outside the corpus).
# QUESTION and GENERAL sort items into the bench's categories.  They are kept apart from the lookup's own
# QUESTION_START and STOPWORDS on purpose: tuning the lookup must never move an item between categories.

QUESTION = re.compile(
    r"^(who|what|what's|whats|wat|when|where|why|how|can|could|do|does|did|is|are|was|were|if|may|should|will|would|am|which)\b",
    re.IGNORECASE,
)
# Words too general to count as "a word the answer does not use" (see vocabulary_gap).
GENERAL = frozenset(
    "the a an of to in is are am do does did i my me it its on for and or if be with at by as what how who whom when "
    "where why can could would should will that this these those there their they them from into than so any about "
    "which while have has had get got use work happen happens happened mean means you your still ever just question "
    "whats what's i'm i've it's dont don't there's wat".split()
)
# how a notice names each absent document; a card's text is also named by the pointer to its card
# page that a lookup gives once a card database is imported ("card text: X is a card; …")
ABSENT_NAMES: dict[str, tuple[str, ...]] = {
    "alternate-format-regulations": ("alternate format regulations",),
    "learn-to-play": ("learn to play",),
    "card-text": ("card's own text", "card text:"),
    "fundamental-event-document": ("fundamental event document",),
}


@dataclass(frozen=True)
class PlayerItem:
    """A player's query, its edition, the clause ids that answer it (any one) and its tags."""

    query: str
    edition: int
    expect: tuple[str, ...]
    tags: tuple[str, ...]

    @property
    def half(self) -> str:
        return half(self.query)

    @property
    def question(self) -> bool:
        return self.query.rstrip().endswith("?") or bool(QUESTION.match(self.query.strip()))

    @property
    def absent(self) -> str | None:
        return self.expect[0][len("absent:") :] if self.expect[0].startswith("absent:") else None


def half(query: str) -> str:
    """The fixed split: SHA-1 of the casefolded query, odd → "test" (frozen), even → "dev"."""
    import hashlib

    return "test" if int(hashlib.sha1(query.strip().casefold().encode()).hexdigest()[:8], 16) % 2 else "dev"


def load_players(path: Path) -> list[PlayerItem]:
    """The player set (tests/eval/players.yaml, or a file of the same shape)."""
    data = yamlio.safe_load(path.read_text(encoding="utf-8"))
    return [PlayerItem(str(d["q"]), int(d["ed"]), tuple(d["expect"]), tuple(d.get("tags", []))) for d in data]


def vocabulary_gap(item: PlayerItem, answer_texts: list[str]) -> bool:
    """Does the query use a word (beyond general ones) that none of its answers contains?"""
    answer = {w[:5] for t in answer_texts for w in re.findall(r"[a-z0-9]+", t.lower())}
    words = [w.replace("'", "") for w in re.findall(r"[a-z0-9']+", item.query.lower())]
    return any(w[:5] not in answer for w in words if len(w) >= 3 and w not in GENERAL)


def categories(item: PlayerItem, gap: bool) -> list[str]:
    """The categories an item is reported under."""
    cats = [f"edition {item.edition}", "question" if item.question else "keyword"]
    if gap:
        cats.append("vocabulary gap")
    if "card" in item.tags:
        cats.append("card name")
    if {"typo", "slang"} & set(item.tags):
        cats.append("typo/slang")
    if item.absent:
        cats.append("not in corpus")
    return cats


# tests/eval/judgements.yaml: the record of blind relevance judgements (tools/relevance_pool.py ->
# judges -> tools/apply_judgements.py), each judged query with these lists of clause ids.
JUDGED_LISTS = ("pooled", "answers", "partial", "before")


def load_judgements(path: Path) -> list[dict[str, Any]]:
    """The record of judgements, checked: a list of judged queries, each with q (the query), ed (its
    edition) and JUDGED_LISTS as lists.  DataError names the file and the entry."""
    try:
        entries = yamlio.safe_load(path.read_text(encoding="utf-8")) or []
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise DataError(f"{path}: cannot read the record of judgements: {error}") from None
    if not isinstance(entries, list):
        raise DataError(f"{path}: expected a YAML list of judged queries")
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or "q" not in entry or "ed" not in entry:
            raise DataError(f"{path}: entry {number}: needs q (the query) and ed (its edition)")
        if not all(isinstance(entry.get(f) or [], list) for f in JUDGED_LISTS):
            raise DataError(f"{path}: entry {number} ({entry['q']!r}): {', '.join(JUDGED_LISTS)} must be lists of clause ids")
    return entries


def hit_ids(result: dict[str, Any]) -> set[str]:
    """The clause ids a search result stands for: its own and those folded under it."""
    return {result["id"], *(f["id"] for f in result.get("folded", []))}


def player_rank(item: PlayerItem, results: list[dict[str, Any]], notes: list[str]) -> int | None:
    """1-based rank of the first answering result; a hit answers when it, or a clause folded under
    it, is an expected id.  For an answer outside the corpus, rank 1 when a notice names the document."""
    if item.absent:
        names = ABSENT_NAMES.get(item.absent, (item.absent.replace("-", " "),))
        return 1 if any(name in n.lower() for n in notes for name in names) else None
    for rank, result in enumerate(results, 1):
        if hit_ids(result) & set(item.expect):
            return rank
    return None


def player_score(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "n": len(ranks),
        "top1": sum(r == 1 for r in ranks) / n,
        "top5": sum(r is not None and r <= 5 for r in ranks) / n,
        "mrr": sum(1 / r for r in ranks if r) / n,
    }


@dataclass(frozen=True)
class Deciding:
    """A blind-review question and the sentence of its answering clause that decides it (the snippet should show it)."""

    query: str
    edition: int
    clause: str
    sentence: str
    set: str


def load_deciding(path: Path) -> list[Deciding]:
    """tests/eval/deciding-sentences.yaml: the entries that quote a sentence (a null one has no answering clause)."""
    data = yamlio.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list of {{q, ed, clause, sentence, set}} entries")
    return [
        Deciding(str(e["q"]), int(e["ed"]), str(e["clause"]), str(e["sentence"]), str(e["set"]))
        for e in data
        if isinstance(e, dict) and e.get("sentence")
    ]


def shows_sentence(snippet: str, sentence: str) -> bool:
    """Does the snippet show the sentence whole: its words in order, the brackets marking matches (and the texts'
    own, "[military]" for an icon) aside, and the "…" that says the snippet is cut."""
    shown = snippet.removeprefix("… ").removesuffix(" …")
    return folded(sentence.replace("[", "").replace("]", "")) in folded(shown.replace("[", "").replace("]", ""))


def deciding_shown(entries: list[Deciding], lookup: Callable[[Deciding], list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Per set of ``entries``: of the questions whose answering clause is in the top five, how many (``n``) and
    in what share (``whole``) its snippet shows the deciding sentence whole."""
    shown: dict[str, list[bool]] = {}
    for entry in entries:
        hit = next((h for h in lookup(entry) if h["id"] == entry.clause), None)
        if hit is not None:
            shown.setdefault(entry.set, []).append(shows_sentence(hit["snippet"], entry.sentence))
    return {name: {"n": len(said), "whole": sum(said) / len(said)} for name, said in shown.items()}
