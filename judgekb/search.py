"""Keyword lookup that puts the answering ruling first.

Recall comes from SQLite FTS5 (BM25, porter stemming) over clause headings and texts; the
query is widened with the game glossary (``corpus/glossary.yaml``), set abbreviations and
typo corrections (rapidfuzz against the corpus vocabulary).  Candidates are then re-ranked by
how much of the query they cover, how well their heading matches, whether they contain the
query as a phrase and whether they concern a card the query names.  A superseded or
unofficial clause is folded under the clause that governs it, so an official clause and its
restatements are one hit.

The :class:`Index` holds everything a lookup needs in memory; build it once per process.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz, process

MAX_WORDS = 64
CANDIDATES = 120
WORD = re.compile(r"[0-9a-z]+(?:'[a-z]+)?")
STOPWORDS = frozenset(
    "the a an of to in is are am do does did i my me it its on for and or if be with at by as what how who whom when "
    "can could would should will shall that this these those there their they them he she his her we our us from "
    "into than then so not no any all about which while after before happens happen new".split()
)
QUESTION_START = ("who ", "what ", "when ", "how ", "can ", "does ", "do ", "is ", "if ", "may ", "should ", "why ")


class QueryError(ValueError):
    """A query that cannot be searched (empty, or nothing but whitespace)."""


@dataclass
class Hit:
    id: str
    score: float
    folded: list[dict[str, str]] = field(default_factory=list)


def clean(query: str) -> tuple[str, list[str]]:
    """Make any input searchable: valid UTF-8, no control characters, bounded length.

    Returns the cleaned text and notes for the user (e.g. that a long query was shortened).
    """
    notes = []
    text = query.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = "".join(" " if ch in "\t\n\r\f\v" else "" if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    if not text.strip():
        raise QueryError("empty query: type a word, a card name or a question")
    words = text.split()
    if len(words) > MAX_WORDS:
        notes.append(f"query shortened to its first {MAX_WORDS} words")
        text = " ".join(words[:MAX_WORDS])
    return " ".join(text.split()), notes


def words_of(text: str) -> list[str]:
    return WORD.findall(text.lower().replace("’", "'"))


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A crude stem for coverage checks (FTS5 does the real stemming)."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


class Index:
    """The in-memory side of search: vocabulary, glossary, cards, governance, clause facts."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.synonyms: dict[str, list[str]] = {}
        for row in db.query("select term, expansion from glossary"):
            self.synonyms.setdefault(row["term"], []).append(row["expansion"])
        self.vocab = {row["word"]: row["n"] for row in db.query("select word, n from vocab")}
        self.vocab_words = [w for w in self.vocab if len(w) >= 3]
        self.clauses = {
            row["id"]: row
            for row in db.query(
                "select rowid, id, doc, edition, kind, heading, section, citation, "
                "(select kind from documents d where d.id = c.doc) as doc_kind, "
                "(select rank from documents d where d.id = c.doc) as rank from clauses c"
            )
        }
        self.by_rowid = {row["rowid"]: row["id"] for row in self.clauses.values()}
        # lower-cased heading and text of every clause, for coverage and phrase checks without a query
        self.bodies = {row["id"]: f"{row['heading']} {row['text']}".lower() for row in db.query("select id, heading, text from clauses")}
        self.governors: dict[str, list[tuple[str, str]]] = {}
        for row in db.query("select clause, governor, relation from governors order by clause, governor"):
            self.governors.setdefault(row["clause"], []).append((row["governor"], row["relation"]))
        self.cards: list[dict[str, Any]] = []
        for row in db.query("select id, name, edition, spellings from cards"):
            names = [row["name"], *json.loads(row["spellings"] or "[]")]
            self.cards.append(
                {
                    "id": row["id"],
                    "edition": row["edition"],
                    "names": names,
                    "words": [set(words_of(n)) - STOPWORDS or set(words_of(n)) for n in names],
                }
            )
        self.card_words: dict[str, set[int]] = {}  # title word -> cards whose title has it
        for index, card in enumerate(self.cards):
            for words in card["words"]:
                for word in words:
                    self.card_words.setdefault(word, set()).add(index)
        self.mentioned: dict[str, set[str]] = {}
        for row in db.query("select src, dst from links where type = 'mentions'"):
            self.mentioned.setdefault(row["dst"], set()).add(row["src"])

    # ------------------------------------------------------------------ query analysis

    def correct(self, word: str) -> str | None:
        """The corpus word a typo most likely meant, if the word itself is not in the corpus."""
        if word in self.vocab or len(word) < 4 or word.isdigit():
            return None
        best = process.extractOne(word, self.vocab_words, scorer=fuzz.ratio, score_cutoff=75)
        return best[0] if best else None

    def analyse(self, text: str) -> dict[str, Any]:
        words = words_of(text)
        content = [w for w in words if w not in STOPWORDS] or words
        groups: list[set[str]] = []  # each query word with its corrections and synonyms
        for word in content:
            group = {word}
            fixed = self.correct(word)
            if fixed:
                group.add(fixed)
            for w in list(group):
                group.update(self.synonyms.get(w, []))
            groups.append(group)
        lowered = " ".join(words)
        for phrase, expansion in self.synonyms.items():  # multi-word glossary entries
            if " " in phrase and phrase in lowered:
                groups.append({*phrase.split(), *expansion})
        return {"words": words, "content": content, "groups": groups, "text": lowered}

    def cards_named(self, analysis: dict[str, Any], edition: int | None) -> set[str]:
        """Cards whose title the query spells out (typos in title words are already corrected)."""
        query_words = set(analysis["content"]) | {w for g in analysis["groups"] for w in g}
        found = set()
        for index in {i for w in query_words for i in self.card_words.get(w, ())}:
            card = self.cards[index]
            if edition and card["edition"] != edition:
                continue
            if any(words and words <= query_words for words in card["words"]):
                found.add(card["id"])
        return found

    # ------------------------------------------------------------------ retrieval and ranking

    def _fts(self, groups: list[set[str]], edition: int | None, kinds: list[str] | None) -> list[tuple[str, float]]:
        terms = sorted({t for g in groups for t in g if t})
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        sql = (
            "select c.id, bm25(clauses_fts, 4.0, 1.0) as rank from clauses_fts "
            "join clauses c on c.rowid = clauses_fts.rowid where clauses_fts match ?"
        )
        args: list[Any] = [match]
        if edition:
            sql += " and c.edition = ?"
            args.append(edition)
        if kinds:
            sql += f" and c.kind in ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        sql += " order by rank limit ?"
        args.append(CANDIDATES)
        return [(row["id"], -row["rank"]) for row in self.db.query(sql, args)]

    def search(
        self, query: str, edition: int | None = None, kinds: list[str] | None = None, limit: int = 10
    ) -> tuple[list[Hit], list[str]]:
        """Ranked hits (governing clauses first, restatements folded) and notes for the user."""
        hits, notes, _ = self.ranked(query, edition, kinds, limit)
        return hits, notes

    def ranked(
        self, query: str, edition: int | None, kinds: list[str] | None, limit: int
    ) -> tuple[list[Hit], list[str], list[set[str]]]:
        """``search`` plus the query's word groups (for snippets), so the query is analysed once."""
        text, notes = clean(query)
        analysis = self.analyse(text)
        if not analysis["words"]:
            notes.append("the query has no words to look up")
            return [], notes, []
        candidates = self._fts(analysis["groups"], edition, kinds)
        cards = self.cards_named(analysis, edition)
        for card in cards:  # clauses about a named card are candidates even without word hits
            for clause_id in self.mentioned.get(card, ()):
                meta = self.clauses[clause_id]
                if (not edition or meta["edition"] == edition) and (not kinds or meta["kind"] in kinds):
                    candidates.append((clause_id, 0.0))
        if not candidates:
            return [], notes, analysis["groups"]
        top = max(score for _, score in candidates) or 1.0
        question = text.lower().startswith(QUESTION_START) or text.endswith("?")
        group_stems = [{_stem(t) for t in g} for g in analysis["groups"]]
        scored: dict[str, float] = {}
        for clause_id, bm25 in candidates:
            meta, body = self.clauses[clause_id], self.bodies[clause_id]
            covered = sum(1 for g in group_stems if any(t in body for t in g))
            cover = covered / max(1, len(analysis["groups"]))
            heading = self._heading_match(group_stems, meta["heading"])
            phrase = 1.0 if len(analysis["words"]) >= 2 and analysis["text"] in body else 0.0
            card = 1.0 if any(clause_id in self.mentioned.get(c, ()) for c in cards) else 0.0
            score = 0.40 * (bm25 / top) + 0.30 * cover + 0.20 * heading + 0.10 * phrase + 0.20 * card
            score += 0.03 * meta["rank"] / 30  # official FAQ > rulebook > unofficial, by manifest rank
            if card:  # a card-name lookup wants the card's errata first, then its list entries
                score += {"errata": 0.06, "restricted": 0.03, "list-change": 0.02}.get(meta["kind"], 0.0)
            if question and meta["kind"] == "qa":
                score += 0.05
            if meta["kind"] == "preamble":
                score -= 0.10
            if meta["doc_kind"].startswith("unofficial"):
                score -= 0.05
            scored[clause_id] = max(scored.get(clause_id, 0.0), score)
        return self._fold(scored, edition, limit), notes, analysis["groups"]

    @staticmethod
    @lru_cache(maxsize=4096)
    def _heading_stems(heading: str) -> frozenset[str]:
        return frozenset(_stem(w) for w in words_of(heading) if w not in STOPWORDS and len(w) > 1)

    def _heading_match(self, query: list[set[str]], heading: str) -> float:
        """F1 of the query's content words (as stem groups) against the heading's stems (one-letter words ignored)."""
        head = self._heading_stems(heading)
        if not head:
            return 0.0
        found = sum(1 for g in query if g & head)
        if not found:
            return 0.0
        recall = found / len(query)
        precision = min(1.0, found / len(head))
        return 2 * recall * precision / (recall + precision)

    def _fold(self, scored: dict[str, float], edition: int | None, limit: int) -> list[Hit]:
        hits: dict[str, Hit] = {}
        for clause_id, score in sorted(scored.items(), key=lambda kv: -kv[1]):
            governors = [g for g, _ in self.governors.get(clause_id, []) if g in self.clauses]
            if edition:
                governors = [g for g in governors if self.clauses[g]["edition"] == edition]
            if not governors:
                hit = hits.setdefault(clause_id, Hit(clause_id, score))
                hit.score = max(hit.score, score)
                continue
            relation = dict(self.governors[clause_id])[governors[0]]
            hit = hits.setdefault(governors[0], Hit(governors[0], scored.get(governors[0], score)))
            hit.score = max(hit.score, score)
            hit.folded.append({"id": clause_id, "relation": relation, "citation": self.clauses[clause_id]["citation"]})
        ranked = sorted(hits.values(), key=lambda h: (-h.score, h.id))
        return ranked[:limit]


def snippet(text: str, groups: list[set[str]], width: int = 36) -> str:
    """About ``width`` words around the densest run of query words, matched words in [brackets]."""
    tokens = text.split()
    stems = sorted({_stem(t) for g in groups for t in g if len(t) > 2}, key=len, reverse=True)
    if not stems:
        return " ".join(tokens[:width]) + (" …" if len(tokens) > width else "")
    pattern = re.compile(r"(?<![0-9a-z])(?:" + "|".join(map(re.escape, stems)) + ")", re.IGNORECASE)
    flags = [bool(pattern.search(t)) for t in tokens]
    best, start = -1, 0
    for i in range(max(1, len(tokens) - width + 1)):
        count = sum(flags[i : i + width])
        if count > best:
            best, start = count, i
    window = [f"[{t}]" if flags[start + j] else t for j, t in enumerate(tokens[start : start + width])]
    prefix = "… " if start > 0 else ""
    suffix = " …" if start + width < len(tokens) else ""
    return prefix + " ".join(window) + suffix


def results(
    index: Index, query: str, edition: int | None = None, kinds: list[str] | None = None, limit: int = 10
) -> tuple[list[dict[str, Any]], list[str]]:
    """The JSON contract: ``id, citation, edition, kind, heading, text, score`` (+ snippet, folded)."""
    hits, notes, groups = index.ranked(query, edition, kinds, limit)
    if not hits:
        return [], notes
    rows = {
        r["id"]: r
        for r in index.db.query(
            f"select id, citation, edition, kind, heading, text from clauses where id in ({','.join('?' * len(hits))})",
            [h.id for h in hits],
        )
    }
    out = []
    for hit in hits:
        row = rows[hit.id]
        out.append({**row, "score": round(hit.score, 4), "snippet": snippet(row["text"], groups), "folded": hit.folded})
    return out, notes


def glossary_rows(corpus: Path) -> list[dict[str, str]]:
    """The glossary as (term, expansion) rows for the store: synonyms plus set abbreviations."""
    glossary = yaml.safe_load((corpus / "glossary.yaml").read_text(encoding="utf-8")) or {}
    rows = [{"term": str(k).lower(), "expansion": str(v).lower()} for k, vs in glossary["synonyms"].items() for v in vs]
    sets = yaml.safe_load((corpus / "sets.yaml").read_text(encoding="utf-8")) or {}
    for entry in sets.get("edition1", []):
        for alias in [entry.get("abbr", ""), *entry.get("aliases", [])]:
            if alias and len(alias) <= 5:
                rows += [{"term": alias.lower(), "expansion": w} for w in words_of(entry["name"])]
    return rows
