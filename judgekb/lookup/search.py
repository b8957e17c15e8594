"""Keyword lookup that puts the answering ruling first, for queries typed the way players talk.

Recall comes from SQLite FTS5 (BM25, porter stemming) over clause headings and texts.  The query
is first read as a player wrote it: phrases players use ("tap", "graveyard", "run out of cards")
become the rules' words (``corpus/player-vocabulary.yaml`` and ``corpus/glossary.yaml``); typos
are corrected only when the word is neither in the corpus nor a real English word; filler words
of a question ("have", "get", "do I") are dropped while words with rules meaning ("no", "all",
"then") stay.  Each remaining idea is weighted by how rare it is in the corpus.

Each clause also carries the questions players ask that it decides (``corpus/player-questions/``,
"doc2query"): they are recalled through FTS5 tables of their own, with the rules' words for their
player words, so "can my tapped guy still block?" finds the step that says knelt characters cannot
be declared as defenders even though the two share few words.

Candidates are re-ranked by the weighted share of the query's ideas they cover, how well their
heading matches, how well a Q&A entry's own question matches the query, how closely the query
reads like one of the clause's players' questions, whether they contain the query as a phrase and
whether they concern a card the query names.  A superseded clause is
folded under its successor (an entry the later version removed, about a card the query names, stands
marked superseded when it says more than its successor); a restatement (summary, web copy) is folded under the clause it
restates only when it adds nothing for this query — otherwise it stands as its own hit, flagged
unofficial.  When the answer lives in a document the corpus does not hold (Learn to Play, the
Alternate Format Regulations, a card's own text), a notice says so first (:mod:`judgekb.lookup.notices`);
how text is read into words and stems is :mod:`judgekb.lookup.words`.

Everything the index needs at start is computed at build time — the tables in
:mod:`judgekb.lookup.tables`, and :meth:`Index.snapshot` (the in-memory state, stored as JSON) — and
read from the database, so a one-off lookup from the command line starts fast.
"""

from __future__ import annotations

import json
import marshal
import math
import re
import sqlite3
import sys
import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from itertools import pairwise
from operator import itemgetter, mul, or_
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from judgekb import store
from judgekb.lookup import notices
from judgekb.lookup.titles import ARTICLES, no_article, title_spans
from judgekb.lookup.words import (
    EDITION_ADJECTIVES,
    EDITION_NAMES,
    EDITION_SAID,
    ELIDED,
    FOREIGN_WORDS,
    IRREGULAR,
    QUESTION_ONLY,
    QUESTION_START,
    QUOTED,
    STOPWORDS,
    DocumentNamed,
    Group,
    Ideas,
    american_spelling,
    apostrophe_past,
    clean,
    english_words,
    named_documents,
    named_edition,
    question_of,
    sorted_words,
    stem_of,
    words_of,
    written_names,
)
from judgekb.lookup.words import QueryError as QueryError  # raised by clean(); callers catch it here

Postings = tuple["array[int]", "array[float]"]  # one phrase's FTS5 matches: row numbers, BM25 shares
CANDIDATES = 60  # FTS recall
CARD_ENTRIES = 20  # of which a card's list and errata entries, at most
SHORTLIST = 30  # candidates scored on every signal
# How much each signal counts in a candidate's score: a linear model fitted (tools/fit_lookup_weights.py,
# pairwise, L2) on the dev half of tests/eval/players.yaml, tests/eval/lookup.yaml and
# tests/eval/judge-review.yaml; title_only, asked_like and quoted were then set by hand on the dev half.
# head_exact (the query is one of the names a heading gives its entry: "claim" is "Claim or Claim
# Value", not "Intrigue Claim", or the term a definition question asks about: "what does unique mean")
# was set by hand: a keyword a judge types names its entry; dev unchanged.
# list_unasked (a named card's list entry, when the question asks something else of the card than its
# status) and errata_asked (a named card's errata entry, asked for) were set by hand on card-name
# probes: dev unchanged. timing_asked (a question of when or in what order, and a timing entry: a framework
# step, a FAQ timing sequence, a Q&A asking when, a FAQ section headed "Timing of") was set by hand on
# second-edition probes. state_heading (an entry headed by a card's state the question only tells of:
# Kneel for "can a tapped character still attack") was set by hand on second-edition table probes.
# Never tuned on the frozen test half.
WEIGHTS = {
    "bm25": 0.207, "fts": 0.583, "cover": 0.327, "heading": 0.241, "question": 0.034, "phrase": 0.193, "card": 0.993,
    "card_errata": -0.427, "card_kind": -0.39, "rank": 0.208, "qa": -0.273, "preamble": -0.144, "unofficial": -0.421,
    "redirect": -0.174, "off_topic": -0.225, "length": 0.282, "lead": 0.126, "head_precision": 0.385, "rules": 0.04,
    "title_only": -0.501, "asked": 0.289, "asked_fts": 0.319, "asked_like": 1.2, "quoted": 0.5, "head_exact": 0.1,
    "list_unasked": -0.3, "errata_asked": 0.4, "timing_asked": 0.4, "state_heading": -0.6,
}  # fmt: skip
DOC_CLAUSES = "select id, kind, heading from clauses where doc = ?"
# the ranks and honorifics character titles begin with, before the name players call them by
HONORIFICS = frozenset(
    "ser lady lord maester grand archmaester magister khal king queen prince princess septa septon brother "
    "father mother uncle old young little red black".split()
)
# The edits (insert, delete, replace, swap two neighbours) a typo may be from the word it meant: one in
# a word of up to SHORT_WORD letters, two in a longer one
SHORT_WORD = 4
TYPO_EDITS_SHORT = 1
TYPO_EDITS = 2
LEAD_WORDS = 30  # a clause's opening words, where a definition states what a term is
# A phase's first or last framework step (tables.BOUNDARY) answers only a question about a beginning or
# an end, said in one of these words: "can I use actions in the plot phase" is not one.
BOUNDARY_WORDS = frozenset(
    "begin begins beginning began start starts starting started end ends ending ended over finish finishes finished "
    "expire expires expiring milestone".split()
)
# A question about when or in what order something happens ("is renown before or after claim", "when
# does the unopposed power get applied", "when do I reveal my plot") is answered by a timing step (the
# round's framework steps, the FAQ's D.U.C.K. sequence), not by the glossary entry of the term it names,
# which says what the term does but not when ("When Revealed" for revealing a plot).
# "when do my characters stand" asks it of a player's cards as "when do i stand my characters" does.
TIMING_ASKED = re.compile(
    r"\b(?:before or after|after or before|timing|(?:what|which) order|order of|(?:comes|happens|goes|resolves?) first|"
    r"first or|when (?:is|are|does|do)\b.*\b(?:appl(?:y|ied|ies)|resolve[sd]?|happens?|processed|trigger(?:s|ed)?|checked|calculated))\b"
    r"|^when (?:do|does|can|should|must) (?:i|we|you|players?|each player|(?:my|your|our|their|his|her) \w+)\b"
    r"|\b(?:happens?|resolved?|resolves|comes?|goes|triggers?|appl(?:y|ies))\b (?:before|after)\b"
)
# A card's state said of the card a question is about ("can a tapped character still attack", "does a
# killed character keep its power") is the situation, not what is asked: the glossary entry headed by
# that state (Kneel, Kill) says what the state is, while the clause that answers applies it to the
# action asked about (step 4.2: attackers must be standing; Leaves Play: tokens return to the treasury).
# A clause whose heading matches no idea of the query but such a state is marked state_heading.
# (each state word -> the stems of the glossary headings that name that state).  Only states whose
# entries say what the act is: Blank ('does a blanked character still have its traits'), Sacrifice
# ('does a sacrificed character count as killed') and Discard Pile state what the state does to a card.
STATE_WORDS = {
    **dict.fromkeys(("tapped", "knelt", "kneeling", "kneeled", "exhausted"), ("kneel",)),
    **dict.fromkeys(("untapped", "standing", "stood"), ("stand",)),
    **dict.fromkeys(("dead", "killed"), ("kill",)),
}
STATE_NOUNS = frozenset(
    "character characters guy guys card cards location locations attachment attachments unit units dude dudes".split()
)
# A Q&A entry that asks when something resolves ("When do you resolve deadly?", "What is the timing of
# an epic phase?") or a FAQ section headed "Timing of ..." (first edition's 3.19 Timing of Immunity,
# second edition's 2.6 Timing of Terminal Condition Effects) answers a timing question as the framework
# steps do.
TIMING_HEADING = re.compile(
    r"^(?:when (?:do|does|is|are|can)\b|what is the timing\b|how does the timing\b|timing of\b)", re.IGNORECASE
)
DEFINITION_ASKED = re.compile(r"^(what|whats|what's) (is|are|does)\b|\b(mean|means|meaning|definition|define|term)\b")
# the words around the term a definition question asks about: "what does X mean", "what is a X", "define X"
DEFINED_TERM = re.compile(
    r"^(?:what(?:s| s)?(?: is| are| does| do)?(?: an?| the)?|define|definition of|meaning of) "
    r"|(?: mean| means| do| does)?$"
)
# a glossary entry that only points to another ('See "Plot Value Modifiers".'): it folds under that entry
REDIRECT = re.compile(r'^See (?:Appendix I, )?"[^"]+"\.?$')
# an entry that only spells out an abbreviation ('STR: The abbreviation for "strength."'): it folds
# under the entry of its document headed by the word it stands for, as a "See" entry does
ABBREVIATION = re.compile(r'^The abbreviation for "([^"]+?)\.?"\.?$')
CARD_KINDS = frozenset({"errata", "restricted", "list-change"})
CARD_ERRATA = {"errata": 1.0, "restricted": 0.5, "list-change": 0.33}  # the card_errata signal of a named card's entry
LIST_KINDS = frozenset({"restricted", "banned", "list-change"})
# A removed entry of this kind stands on its own whatever the query names (``Index._fold``): the lists'
# introductions, the sections of v2.3 that v4.1 dropped; a card's removed list entry needs the card named
REMOVED_STANDING_KIND = "section"
# The entries a later version removed (the build's ``removed`` supersedes links): read by the index and the offline index
REMOVED_ENTRIES = "select dst from links where type = 'supersedes' and json_extract(data, '$.relation') = 'removed' order by dst"
STATUS_WORDS = frozenset({"restricted", "restriction", "restrictions", "unrestricted", "banned", "ban", "legal", "legality",
                          "list", "lists", "pod", "pods", "joust", "melee"})  # fmt: skip
# A phase's flowchart (first-edition FAQ, "Flowchart: Taxation Phase") draws the rulebook's phase as
# boxes: it ranks with the rules it charts, not with the FAQ's rulings that amend them, so "what
# happens in the taxation phase" reads Phase 7: Taxation first.
FLOWCHART = re.compile(r"^Flowchart: ")
VOCABULARY_TYPO = 80  # rapidfuzz ratio: a vocabulary entry this close to its rules' word is its misspelling
ASKED_MATCHES = 180  # players' questions recalled per query (the best BM25 first)
# Phrase matches kept in memory across queries (Index._postings), beyond those ``warm`` loads, at most:
# a match is a row number and a float in two arrays (16 bytes), so the bound is some 6 MB per Index (one
# per server worker).  ``warm`` loads every word of the corpus and of the glossary and player vocabulary,
# in all three tables and both editions: about 370,000 matches, 6 MB, kept for good.
POSTINGS_HELD = 400_000
# How closely a query reads like one of a clause's players' questions (word order aside), counted in
# full from a spoken question's length on: a two-word keyword is matched by headings, not questions.
# It is rapidfuzz's token_sort_ratio: the ratio of the two texts with their words sorted.  The words
# of each question are sorted once, when it is first read (``sorted_words``), not at every comparison.
ASKED_LIKE = fuzz.ratio
SPOKEN_WORDS = 4
ASKED_SIGNALS = ("asked", "asked_fts", "asked_like")  # the signals from players' questions
RULE_KINDS = frozenset({"rules", "section", "timing", "definition", "qa", "regulation"})  # clauses that state a rule
ASKED_COMMON = 1.8  # an idea this common (weight: log(1 + clauses / clauses using it)) does not recall questions
# A card a spoken question names ("Opponent played Treachery on my Nightmares, does Nightmares still count
# as played?") is a piece of the situation, not the topic: a rules clause that names it only in passing,
# as its example (FAQ v4.1's Referential Targets explains them with Wildfire Assault), counts this much of
# the card signal.  A clause about the card (its errata or list entry, a Q&A entry or section its heading
# names it in) keeps the whole signal; so does every clause for a keyword lookup ("Nightmares FAQ").
NAMED_IN_PASSING = 0.3
# A card's list entry, when the question asks something else of the card than its list status ("red vipers
# claim", "neds ability"), counts this much of the card signal: it names the card but answers nothing asked,
# and FAQ v2.3's lists are not in force (set by hand on the blind review's queries; dev unchanged)
LIST_UNASKED_CARD = 0.6
PASSING_WORDS = 2 * SPOKEN_WORDS  # a question of this many words tells a situation
# A name the player capitalised in such a question ("My opponent put Milk of the Poppy on my Jon Snow,
# does Jon still keep his keywords?") is who acts, not what is asked: its words are rare, so at their
# full weight they put first whatever clause uses the name as an example (the Tournament Regulations'
# deck-list example with Jon Snow).  They count this share of their weight (a rule's name the player
# capitalises, "a Limited card", keeps all of it).
NAME_WEIGHT = 0.2
# A capitalised word is corrected only when it is this close to the corpus word (rapidfuzz ratio): a
# long keyword missing a letter ("Stelth", "Intimidat") still is; a name one or two letters from a
# rules word ("Theon" then, "Lancel" cancel, "Stannis" stands, "Robb" rob) is not.
NAME_TYPO = 90
# A query in another language: the corpus is English, and a word-for-word lookup finds nothing, or whatever
# English words its foreign words happen to look like (Spanish "empate" read as "empted", French "égalité" as
# "legality"); said plainly instead (``Index.foreign``)
NOT_ENGLISH = "the corpus is in English: the query has no English words to look up"
FOREIGN_QUERY = "the corpus is in English; most words of the query are not English words: results are from the few words read"


# A clause with no words loaded: its word counts and length, its padded words and stems (read only, shared)
NO_COUNTS: tuple[Counter[str], int] = (Counter(), 0)
NO_BODY: tuple[str, frozenset[str]] = ("", frozenset())
# The key the build keeps ``Index.derived`` under: marshal's format is this Python's own.
DERIVED_KEY = f"index derived, marshal {marshal.version}, python {sys.version_info[0]}.{sys.version_info[1]}"


@dataclass
class Hit:
    """One result: a clause, its score, the clauses folded under it, and whether its text is unofficial."""

    id: str
    score: float
    folded: list[dict[str, str]] = field(default_factory=list)
    unofficial: bool = False
    superseded_by: str = ""  # a removed entry standing on its own: the clause in force that says where it went


# ---------------------------------------------------------------------------- the index


def _in_edition(counts: tuple[int, ...], edition: int | None) -> int:
    """A (first edition, second edition) count for one edition, or both added when none is chosen."""
    return counts[0] if edition == 1 else counts[1] if edition == 2 else counts[0] + counts[1]


def connection(db: Any) -> sqlite3.Connection:
    """The plain sqlite3 connection under a sqlite-utils database (or the connection itself)."""
    return db.conn if hasattr(db, "conn") else db


class Index:
    """The in-memory side of search: phrases, cards, governance and clause facts (bodies on demand)."""

    # What the build works out from its snapshot (``Index.derived``), kept whole beside it for a fast start.
    synonyms: dict[str, list[str]]
    absent_topics: dict[str, Any]
    phrases: list[str]
    phrases_by_first: dict[str, list[tuple[int, str]]]
    clauses: dict[str, dict[str, Any]]
    by_rowid: dict[int, str]
    card_entries: frozenset[str]
    _timing_headed: frozenset[str]
    rules_rank: int
    questions: frozenset[str]
    governors: dict[str, list[tuple[str, str]]]
    removed: frozenset[str]
    questioned: frozenset[str]
    topic_words: frozenset[str]
    topic_shared: frozenset[str]
    topic_docs: frozenset[str]
    second_edition_only: frozenset[str]
    nicknames: dict[str, str]
    story_names: frozenset[str]
    story_characters: frozenset[str]
    story_traits: dict[int, frozenset[str]]
    size: dict[int, int]
    cards: list[dict[str, Any]]
    card_by_id: dict[str, dict[str, Any]]
    card_words: dict[str, set[int]]
    mentioned: dict[str, set[str]]

    def __init__(self, db: Any) -> None:
        self.conn = connection(db)
        vars(self).update(self._derived_facts())
        self.imported_editions = {e for (e,) in self._rows_if("select distinct edition from imported_cards")}
        self._imported_titles: dict[int, dict[str, str]] = {}
        self._corpus_cards_by_key: dict[tuple[int, str], list[str]] | None = None  # corpus_cards_called
        self._titles_by_length: dict[int, dict[int, dict[str, str]]] = {}  # edition -> words -> article-less key -> title
        self._title_firsts: dict[int, frozenset[str]] = {}
        self._titles_unarticled: dict[int, dict[str, str]] = {}  # imported_titles_unarticled
        self._title_words: dict[int, dict[str, list[str]]] = {}  # imported_titles_by_word
        self._corpus_title_words: frozenset[str] | None = None  # corpus_title_word
        self.title_spans_seen: dict[tuple[Any, ...], list[tuple[str, int, int]]] = {}  # titles.title_spans, per query
        self._bodies: dict[str, tuple[str, frozenset[str]]] = {}
        self._vocab_list: dict[int | None, list[str]] = {}
        self._word_facts: dict[str, tuple[int, int, bool]] = {}
        self._stem_df: dict[str, tuple[int, int]] = {}
        self._rules_df: dict[str, tuple[int, int]] = {}
        self._names: set[str] = set()  # words of the texts written only capitalised, no English word
        self._everyday: dict[str, bool] = {}  # Index.everyday, asked only by notices
        self._capitalised: set[str] = set()  # words of the texts written only capitalised ("jon", "snow")
        self._corrections: dict[tuple[str, int | None], str | None] = {}
        self._counts: dict[str, tuple[Counter[str], int]] = {}
        self._leads: dict[str, tuple[str, frozenset[str]]] = {}
        self._says_more: dict[str, bool] = {}  # does the text say anything beyond its own heading?
        self._boundary: set[str] = set()  # a phase's first or last framework step (tables.BOUNDARY)
        self._term_definition: set[str] = set()  # an entry that only defines a word (tables.TERM_DEFINITION)
        self.has_asked = bool(self._rows_if("select 1 from sqlite_master where name = 'asked_2_fts'"))
        self._headings: dict[str, tuple[str, frozenset[str]]] = {}
        self._heading_names: dict[str, frozenset[str]] = {}
        self._questions: dict[str, tuple[str, frozenset[str]]] = {}
        self._questions_sorted: dict[str, str] = {}  # a Q&A entry's question, its words sorted (ASKED_LIKE)
        self._postings_cache: dict[tuple[str, int | None, str], Postings] = {}
        self._postings_warm: dict[tuple[str, int | None, str], Postings] = {}  # warm's: never cleared
        self._postings_held = 0
        # asked_N rowid -> the clause's id and the question as ``asked_words`` reads it, its words
        # sorted last (``sorted_words``: ASKED_LIKE compares them)
        self._asked_rows: dict[int, dict[int, tuple[str, tuple[str, frozenset[str], int, str]]]] = {}
        self._rule_terms: frozenset[str] | None = None
        self._headings_said: dict[int, str] = {}  # headings_said
        self._card_status: Any = None  # restricted_lists.CardStatusNotes, or False with no lists imported

    def _derived_facts(self) -> dict[str, Any]:
        """``derived`` as the build kept it (``kept_facts``: loading it takes half the time of working it
        out again, at every cold start), else worked out from the JSON snapshot (a database another
        Python built, or a damaged value), else from the tables themselves."""
        rows = self._rows_if("select value from search_meta where key = ?", [DERIVED_KEY])
        kept = rows[0][0] if rows and isinstance(rows[0][0], bytes) else b""
        # checked before it is read: one flipped bit in a length can make marshal allocate gigabytes
        if len(kept) > 4 and int.from_bytes(kept[:4], "little") == zlib.crc32(kept[4:]):
            try:
                facts = marshal.loads(kept[4:])
            except (EOFError, ValueError, TypeError, MemoryError):
                facts = None
            if isinstance(facts, dict) and facts.keys() == DERIVED_FIELDS:
                return facts
        rows = self._rows_if("select value from search_meta where key = 'index'")
        return self.derived(json.loads(rows[0][0]) if rows else self.snapshot(self.conn, {}))

    @staticmethod
    def kept_facts(facts: dict[str, Any]) -> bytes:
        """``derived``'s facts as the build keeps them: marshal (this Python's format: ``DERIVED_KEY``
        names it) after the CRC-32 of the marshal data, 4 bytes little-endian."""
        data = marshal.dumps(facts)
        return zlib.crc32(data).to_bytes(4, "little") + data

    @staticmethod
    def derived(state: dict[str, Any]) -> dict[str, Any]:
        """The index's facts (the attributes declared on the class) from a snapshot as JSON reads it back."""
        synonyms: dict[str, list[str]] = state["synonyms"]
        phrases = sorted((t for t in synonyms if " " in t), key=lambda t: -len(t.split()))
        # only the phrases whose first word the query has are tried, in the same longest-first order
        # (the player vocabulary holds hundreds of phrases: trying each at every position of a query
        # cost more than the rest of the reading)
        phrases_by_first: dict[str, list[tuple[int, str]]] = {}
        for order, phrase in enumerate(phrases):
            phrases_by_first.setdefault(phrase.split()[0], []).append((order, phrase))
        fields = ("rowid", "doc", "edition", "kind", "heading", "doc_kind", "rank")
        clauses = {cid: {"id": cid, **dict(zip(fields, v, strict=True))} for cid, v in state["clauses"].items()}
        cards = [{**card, "keys": [(frozenset(required), phrase) for required, phrase in card["keys"]]} for card in state["cards"]]
        card_words: dict[str, set[int]] = {}  # title word -> cards whose title has it
        for number, card in enumerate(cards):
            for required, _ in card["keys"]:
                for word in required:
                    card_words.setdefault(word, set()).add(number)
        events = state.get("event_words", {})
        story: dict[str, list[str]] = state.get("story_names") or {}
        facts = {
            "synonyms": synonyms,
            "absent_topics": state["absent_topics"],
            "phrases": phrases,
            "phrases_by_first": phrases_by_first,
            "clauses": clauses,
            "by_rowid": {meta["rowid"]: cid for cid, meta in clauses.items()},
            "card_entries": frozenset(c for c, m in clauses.items() if m["kind"] in CARD_KINDS),  # a card's list or errata entries
            # the Q&A entries and FAQ sections whose heading asks or names when something resolves (TIMING_HEADING)
            "_timing_headed": frozenset(c for c, m in clauses.items() if TIMING_HEADING.match(m["heading"] or "")),
            "rules_rank": max((m["rank"] for m in clauses.values() if m["doc_kind"] == "official rules"), default=0),
            "questions": frozenset(state["questions"]),  # Q&A entries (their questions load with bodies)
            "governors": {c: [(g, r) for g, r in gs] for c, gs in state["governors"].items()},
            "removed": frozenset(state.get("removed", [])),  # entries a later version no longer prints
            "questioned": frozenset(state.get("questioned", [])),  # clauses with players' questions
            "topic_words": frozenset(stem_of(w) for w in events.get("words", [])),
            "topic_shared": frozenset(stem_of(w) for w in events.get("shared", [])),  # (two of them mark an event question)
            "topic_docs": frozenset(events.get("documents", [])),
            # words the vocabulary reads into a player's word that state a second-edition rule only
            "second_edition_only": frozenset(state.get("second_edition_only", [])),
            "nicknames": state.get("nicknames", {}),  # "dany": "daenerys" (corpus/card-aliases.yaml)
            # "theon", "winterfell": never a typo; "theon" also names a card (corpus/card-aliases.yaml)
            "story_names": frozenset(w for field in ("characters", "names") for w in story.get(field, [])),
            "story_characters": frozenset(story.get("characters", [])),
            # second edition's "ironborn", "kingsguard": a kind of card, and no title has the word (corpus/card-aliases.yaml)
            "story_traits": {e: frozenset(story.get(f"traits_edition{e}", [])) for e in (1, 2)},
            "size": {int(k): v for k, v in state["size"].items()},
            "cards": cards,
            "card_by_id": {card["id"]: card for card in cards},
            "card_words": card_words,
            "mentioned": {dst: set(srcs) for dst, srcs in state["mentioned"].items()},
        }
        assert facts.keys() == DERIVED_FIELDS
        return facts

    @classmethod
    def snapshot(cls, conn: sqlite3.Connection, questions: dict[str, str]) -> dict[str, Any]:
        """Everything the index holds in memory, as JSON-able data: computed once at build time."""

        def rows(sql: str, args: list[Any] | None = None) -> list[tuple[Any, ...]]:
            try:
                return conn.execute(sql, args or []).fetchall()
            except sqlite3.OperationalError:  # a table an older database does not have
                return []

        synonyms: dict[str, list[str]] = {}
        for term, expansion in rows("select term, expansion from glossary"):
            synonyms.setdefault(term, []).append(expansion)
        clauses = {
            cid: list(rest)
            for cid, *rest in rows(
                "select c.id, c.rowid, c.doc, c.edition, c.kind, c.heading, d.kind, d.rank "
                "from clauses c join documents d on d.id = c.doc"
            )
        }
        if not questions:
            questions = {
                cid: q
                for cid, kind, h, t in rows("select id, kind, heading, text from clauses")
                if (q := question_of(kind, h or "", t or ""))
            }
        governors: dict[str, list[list[str]]] = {}
        for clause, governor, relation in rows("select clause, governor, relation from governors order by clause, governor"):
            governors.setdefault(clause, []).append([governor, relation])
        for src, dst, text, target_heading, target_text in rows(
            "select l.src, l.dst, c.text, t.heading, t.text from links l join clauses c on c.id = l.src "
            "join clauses t on t.id = l.dst where l.type = 'cites' order by l.src, l.dst"
        ):
            # (not under a phase's bare title, "6. Standing phase": that answers less than the entry itself)
            container = words_of(target_text or "") == words_of(target_heading or "")
            if REDIRECT.match((text or "").strip()) and src not in governors and not container:
                governors[src] = [[dst, "redirects"]]
        for src, doc, text in rows("select id, doc, text from clauses where text like 'The abbreviation for %'"):
            spelled = ABBREVIATION.match((text or "").strip())
            named = spelled and [
                cid for cid, _, heading in rows(DOC_CLAUSES, [doc])
                if cid != src and (heading or "").split(",")[0].strip().casefold() == spelled.group(1).casefold()
            ]  # fmt: skip
            if named and src not in governors:
                governors[src] = [[named[0], "redirects"]]
        for old, new in cls._successors(rows, questions).items():
            if not any(r == "superseded" for _, r in governors.get(old, [])):
                governors[old] = [[new, "superseded"]]
        for entries in governors.values():  # restating a superseded text is restating its successor
            for entry in entries:
                if entry[1] == "restates" and entry[0] in governors and governors[entry[0]][0][1] == "superseded":
                    entry[0] = governors[entry[0]][0][0]
        meta = dict(rows("select key, value from search_meta"))
        cards = []
        for cid, name, edition, spellings in rows("select id, name, edition, spellings from cards"):
            names = [name, *json.loads(spellings or "[]")]
            cards.append({"id": cid, "edition": edition, "names": names, "keys": [[sorted(r), p] for r, p in map(cls._card_keys, names)]})
        cls._short_names(cards)
        mentioned: dict[str, list[str]] = {}
        for src, dst in rows("select src, dst from links where type = 'mentions' order by src"):
            mentioned.setdefault(dst, []).append(src)
        questioned = [cid for (cid,) in rows("select distinct id from asked order by id")]
        return {
            "synonyms": synonyms,
            "clauses": clauses,
            "questions": sorted(questions),
            "governors": governors,
            "absent_topics": json.loads(meta.get("absent_topics", "{}")),
            "event_words": json.loads(meta.get("event_words", "{}")),
            "second_edition_only": json.loads(meta.get("second_edition_only", "[]")),
            "nicknames": json.loads(meta.get("nicknames", "{}")),
            "story_names": json.loads(meta.get("story_names", "{}")),
            "size": {e: max(1, sum(1 for v in clauses.values() if v[2] == e)) for e in (1, 2)},
            "cards": cards,
            "mentioned": mentioned,
            "removed": [dst for (dst,) in rows(REMOVED_ENTRIES)],
            "questioned": questioned,  # the clauses players' questions are written for
        }

    def warm(self) -> Index:
        """Load every clause's words, the typo vocabularies and the FTS5 matches of every word the
        corpus, the glossary and the player vocabulary use now (a long-running server's start, under
        a second), so that no lookup pays for them, a judge's first question included; a one-off
        command-line lookup skips this."""
        self._body(list(self.clauses))
        for edition in (1, 2, None):
            self._vocab_words(edition)
        terms = {w for words, _ in self._bodies.values() for w in words.split()}
        terms |= {t for term, expansions in self.synonyms.items() for t in (term, *expansions)}
        tables = [("clauses_fts", 1), ("clauses_fts", 2), ("clauses_fts", None)]
        tables += [("asked_1_fts", None), ("asked_2_fts", None)] if self.has_asked else []
        for term in sorted(t for t in terms if t.strip()):
            for table, edition in tables:
                self._postings_warm[(table, edition, term)] = self._fetch_postings(table, edition, term)
        # and every players' question (about 14 MB): a first question's matches were read from the
        # database as it met them, a millisecond or more of its five in the slowest
        for number in (1, 2) if self.has_asked else ():
            self._hold_asked(number)
        return self

    @classmethod
    def open(cls, db_path: Path) -> Index:
        """An index over a read-only connection, without loading sqlite-utils (fast start-up)."""
        return cls(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, check_same_thread=False))

    def rows(self, sql: str, args: list[Any] | tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, args).fetchall()

    def _rows_if(self, sql: str, args: list[Any] | tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.rows(sql, args)
        except sqlite3.OperationalError:  # an optional table (imported cards) that does not exist
            return []

    @staticmethod
    def _card_keys(name: str) -> tuple[frozenset[str], str]:
        """The title words a query must contain to name the card, and the title as a phrase.

        When most of a title is small words ("I Am No One", "No Surprises") its one remaining word is
        too common to name the card alone, so the whole title must appear as a phrase.
        """
        words = [stem_of(w) for w in words_of(name)]
        content = frozenset(w for w in words if w not in STOPWORDS and w not in {"no", "not", "all", "then", "one"})
        phrase = " ".join(words)
        if not content or len(content) * 2 < len(words):
            return frozenset(words), phrase
        return content, ""

    @staticmethod
    def _short_names(cards: list[dict[str, Any]]) -> None:
        """Players name a card by its first word ("Rhaegar", "Euron", "Jaqen"): that word alone names
        the card when no other title of the edition has it and it is not an English word ("narrow" in
        Narrow Escape, "robert" are not)."""
        english = set(english_words(set()))
        if not english:  # without the word list every first word would look like a name
            return
        titled: dict[tuple[int, str], set[str]] = {}  # a word -> the cards whose title has it anywhere
        firsts: dict[tuple[int, str], dict[str, Any]] = {}
        for card in cards:
            for name in card["names"]:
                words = [w for w in words_of(name) if w not in STOPWORDS]
                for word in words:
                    titled.setdefault((card["edition"], word), set()).add(card["id"])
                if words:
                    firsts[(card["edition"], words[0])] = card
        for (edition, word), card in firsts.items():
            if len(titled[(edition, word)]) == 1 and len(word) >= 4 and word.isalpha() and word not in english:
                key = [[stem_of(word)], ""]
                if key not in card["keys"]:
                    card["keys"].append(key)
        # ... or by the name after the rank or honorific a title begins with ("aemon" for Maester Aemon,
        # "pycelle" for Grand Maester Pycelle, "illyrio" for Magister Illyrio, "gerris" for Ser Gerris
        # Drinkwater); never by a family name ("tyrell" of Margaery Tyrell) or a word past a small word
        for card in cards:
            for name in card["names"]:
                words = words_of(name)
                rank = 0
                while rank < min(2, len(words) - 1) and words[rank] in HONORIFICS:
                    rank += 1
                word = words[rank] if words else ""
                if rank and len(titled.get((card["edition"], word), ())) == 1 and len(word) >= 4 and word.isalpha() and word not in english:
                    key = [[stem_of(word)], ""]
                    if key not in card["keys"]:
                        card["keys"].append(key)

    @staticmethod
    def _successors(rows: Any, questions: dict[str, str]) -> dict[str, str]:
        """Entry-by-entry successors when a document supersedes another (FAQ v4.1 over v2.3):
        the same entry id, else the same heading, else (Q&A) the closest question."""
        successors: dict[str, str] = {}
        for new_doc, old_doc in rows("select id, supersedes from documents where coalesce(supersedes, '') != ''"):
            new = {cid: (kind, (heading or "").casefold()) for cid, kind, heading in rows(DOC_CLAUSES, [new_doc])}
            by_heading = {(kind, heading): cid for cid, (kind, heading) in new.items()}
            new_questions = {cid: questions[cid] for cid in new if cid in questions}
            for cid, kind, heading in rows(DOC_CLAUSES + " and kind != 'preamble'", [old_doc]):
                same = f"{new_doc}/{cid.split('/', 1)[1]}"
                if same in new:
                    successors[cid] = same
                elif (kind, (heading or "").casefold()) in by_heading:
                    successors[cid] = by_heading[(kind, (heading or "").casefold())]
                elif kind == "qa" and cid in questions and new_questions:
                    best = process.extractOne(questions[cid], new_questions, scorer=fuzz.token_set_ratio, score_cutoff=85)
                    if best:
                        successors[cid] = best[2]
        return successors

    # ------------------------------------------------------------------ word facts

    def _facts(self, words: list[str]) -> None:
        """Load document frequencies and English-word status of the query's words (cached)."""
        missing = [w for w in set(words) if w not in self._word_facts]
        if not missing:
            return
        marks = ",".join("?" * len(missing))
        sql = f"select word, df1, df2, rules1, rules2, named from vocab where word in ({marks})"
        found = {w: rest for w, *rest in self.rows(sql, missing)}
        english = {w for (w,) in self._rows_if(f"select word from english where word in ({marks})", missing)}
        for word in missing:
            d1, d2, r1, r2, named = found.get(word, (0, 0, 0, 0, 0))
            self._word_facts[word] = (d1, d2, word in english)
            self._rules_df[word] = (r1, r2)
            if named:
                self._capitalised.add(word)
                if word not in english:
                    self._names.add(word)
        stems = [t for t in {stem_of(w) for w in missing} if t not in self._stem_df]
        if stems:
            marks = ",".join("?" * len(stems))
            known = {t: (d1, d2) for t, d1, d2 in self._rows_if(f"select stem, df1, df2 from stems where stem in ({marks})", stems)}
            for stem in stems:
                self._stem_df[stem] = known.get(stem, (0, 0))

    def stem_df(self, word: str, edition: int | None) -> int:
        """How many clauses of the edition (both when None) use the word's stem."""
        return _in_edition(self._stem_df.get(stem_of(word), (0, 0)), edition)

    def df(self, word: str, edition: int | None) -> int:
        """How many clauses of the edition (both when None) use the word as written."""
        return _in_edition(self._word_facts.get(word, (0, 0, False))[:2], edition)

    def _vocab_words(self, edition: int | None) -> list[str]:
        if edition not in self._vocab_list:
            where = "df1 > 0" if edition == 1 else "df2 > 0" if edition == 2 else "1"
            self._vocab_list[edition] = [w for (w,) in self.rows(f"select word from vocab where {where} and length(word) >= 3")]
        return self._vocab_list[edition]

    def correct(self, word: str, edition: int | None = None) -> str | None:
        """The corpus word a typo most likely meant — only for a word that is in neither edition's
        texts nor a real English word (so "tapped" never becomes "applied")."""
        if len(word) < 4 or not word.isalpha() or word in self.synonyms or word in self.story_names:
            return None  # (a name from the story players say is no typo: "theon" is not "then")
        if (word, edition) not in self._corrections:
            self._corrections[(word, edition)] = self._correct(word, edition)
        return self._corrections[(word, edition)]

    def _correct(self, word: str, edition: int | None) -> str | None:
        self._facts([word])
        d1, d2, english = self._word_facts[word]
        if d1 or d2:  # a word in either edition's texts is never "corrected"
            return None
        if (american := american_spelling(word)) != word:  # "organiser" is the rules' "organizer", spelt British
            self._facts([american])
            if self.df(american, edition):
                return american
        if english:  # nor is a real English word ("tapped" never becomes "applied")
            return None
        if self.imported_title_word(word, edition):  # an imported card's name ("hodor") is no typo of "honor"
            return None
        matches = process.extract(word, self._vocab_words(edition), scorer=fuzz.ratio, score_cutoff=75, limit=8)
        # a slip of the finger is an edit or two, fewer in a short word: a ratio alone read a player's
        # own words as rules words ("lanni" as "planning", "bara" as "area", "valyrian" as "variant")
        reach = TYPO_EDITS_SHORT if len(word) <= SHORT_WORD else TYPO_EDITS
        matches = [m for m in matches if OSA.distance(word, m[0].replace("'", ""), score_cutoff=reach) <= reach]
        if not matches:
            return None
        best = max(score for _, score, _ in matches)
        tied = [m for m, score, _ in matches if score == best]
        self._facts(tied)
        return max(tied, key=lambda m: (self.df(m, edition), m))  # equally close: the more common rules word

    # ------------------------------------------------------------------ query analysis

    def analyse(
        self, text: str, edition: int | None = None, keep: set[str] | None = None, foreign: bool = False
    ) -> dict[str, Any]:
        """Read a query as a player wrote it: phrases, corrected typos, ideas weighted by rarity.
        ``keep``: words that count even when small ("would" in 'what is a "would" effect').  ``foreign``:
        a query in another language (``Index.foreign``), whose words are not typos of English ones ("empate" is
        no "empted", "egalite" no "legality"): none is corrected."""
        # a past tense with an apostrophe is read as written out ("dupe'd": "duped", blind review r87 L1), unless the
        # player vocabulary reads it as it stands ("sac'd", "errata'd")
        said = [w if w in self.synonyms else apostrophe_past(w) for w in words_of(text)]
        # a card's nickname is its title's words ("dany" is Daenerys, never the word "any" misspelled)
        nicknamed = {w: title for w in said if (title := self.nickname(w))}
        words = [v for w in said for v in (nicknamed[w].split() if w in nicknamed else [w])]
        names = written_names(text)  # a name the player capitalised is no typo
        lowered = " ".join(words)
        self._facts(words)
        taken = [False] * len(words)
        groups: list[Group] = []
        candidates = sorted(c for w in set(words) for c in self.phrases_by_first.get(w, ()))
        for _, phrase in candidates:  # longest phrases first; a phrase replaces its words
            parts = phrase.split()
            for start in range(len(words) - len(parts) + 1):
                if words[start : start + len(parts)] == parts and not any(taken[start : start + len(parts)]):
                    for i in range(start, start + len(parts)):
                        taken[i] = True
                    if not any(g.said == phrase for g in groups):
                        groups.append(Group(phrase, {phrase, *self.synonyms[phrase]}))
        content = [w for i, w in enumerate(words) if not taken[i] and (w not in STOPWORDS or w in (keep or ()))]
        if not content and not groups:
            content = words
        corrected: dict[str, str] = {}  # word -> the corpus word it is read as
        in_title = self._title_words_spelled(words, edition)
        filler: list[Group] = []  # words read as a misspelled small word ("waht", "dany" as "any")
        for word in dict.fromkeys(content):  # a word typed twice is one idea, not twice its weight
            group = Group(word, {word, *self.synonyms.get(word, [])})
            if word.endswith("'s"):
                group.terms.add(word[:-2])
            fixed = None if foreign else self.correct(word, edition)
            if fixed and word in names and fuzz.ratio(word, fixed) < NAME_TYPO:
                fixed = None  # a name the player capitalised ("Theon", "Lancel"), not a typo of "then", "cancel"
            if fixed and word in in_title and fixed not in in_title[word]:
                fixed = None  # a card title's word misspelled ("milk of the popy"): not another word ("copy")
            if fixed:
                group.terms.add(fixed)
                group.terms.update(self.synonyms.get(fixed, []))
                corrected[word] = fixed
            (filler if fixed in STOPWORDS else groups).append(group)
        if filler and not groups:  # nothing else to search: they stay
            groups = filler
        other = notices.other_edition_terms(self, words, edition)  # the other edition's terms this query uses
        instead: dict[str, list[str]] = {}  # and the words searched in their place
        for entry in other:
            term = entry["term"]
            # the idea the term is (or, for "house card", the idea its first word is)
            ideas_said = [g for g in groups if g.said == term or term in g.terms] or [g for g in groups if g.said == term.split()[0]]
            for group in ideas_said[:1] if entry.get("instead") else []:
                group.terms.update(entry["instead"])
                instead[term] = entry["instead"]
        if edition == 1:  # a second-edition rule read into a player's word is no first-edition idea
            for group in groups:
                group.terms -= self.second_edition_only - {group.said}
        self._facts([w for g in groups for t in g.terms for w in t.split()])
        size = self.size.get(edition or 0, self.size[1] + self.size[2])
        situation = len(words) >= PASSING_WORDS
        for group in groups:
            # a player's word is weighed by the rules' words it stands for, when it has any
            rules_terms = [t for t in group.terms if t != group.said] or list(group.terms)
            known = [f for f in (self._term_df(t, edition) for t in rules_terms) if f > 0]
            if not known:
                known = [f for f in (self._term_df(t, edition) for t in group.terms) if f > 0]
            group.weight = math.log(1 + size / min(known)) if known else math.log(1 + size)
            if situation and group.said in names and group.said not in self.rule_terms():  # who acts, not what is asked
                group.weight *= NAME_WEIGHT
        # a misspelling the player vocabulary reads outright ("initative": initiative) is said like a correction
        misspelled = {
            g.said: near for g in groups if " " not in g.said and g.said not in corrected and (near := self._vocabulary_spelling(g.said))
        } if not foreign else {}
        return {
            "words": words, "content": content, "groups": groups, "text": lowered, "other_edition": other, "instead": instead,
            "corrected": corrected, "nicknamed": nicknamed, "misspelled": misspelled, "foreign": foreign,
        }  # fmt: skip

    def _named_document(self, text: str) -> DocumentNamed | None:
        """The one-edition document a query names ("rules reference", "faq v4.1"), when all it names are
        of one edition.  A number written bare after "faq" that is also a section of the other edition's
        FAQ, asked about by a word of its heading ("faq 4.1 house affiliation": first edition's §4.1),
        names that section, not a version."""
        documents = named_documents(text)
        if not documents:
            return None
        said = {stem_of(w) for w in words_of(text)} - STOPWORDS
        for document in [d for d in documents if d.section]:
            sections = [
                m["heading"] or "" for cid, m in self.clauses.items()
                if m["edition"] != document.edition and cid.rsplit("/", 1)[-1] == document.section
            ]  # fmt: skip
            if any(said & {stem_of(w) for w in words_of(heading)} for heading in sections):
                documents.remove(document)
        editions = {d.edition for d in documents}
        return documents[0] if len(editions) == 1 else None

    def foreign(self, text: str) -> bool:
        """Is the query written in another language than English ("¿Quién gana un desafío en caso de
        empate?", "qui gagne une égalité lors d'un défi")?  Only when it has a small word of one
        (``FOREIGN_WORDS``, a French elision) and most of its words (English small words aside) are no
        words the lookup reads: not English, not the texts' or the player vocabulary's, no card's title or
        name, and no slip of one letter from a word of the texts ("stelth", "charcter").  A typo'd English
        question has no such small word, and its typos are a letter off."""
        said = list(dict.fromkeys(w for w in words_of(text) if w not in STOPWORDS and not w.isdigit()))
        marked = {w for w in said if w in FOREIGN_WORDS or ELIDED.match(w)}
        if not marked or len(said) < 2:
            return False
        self._facts(said)
        unread = [w for w in said if w in marked or not self._reads(w)]
        return len(unread) * 2 > len(said)

    def _reads(self, word: str) -> bool:
        """Does lookup read this word as it is or as a one-letter slip: English, the texts' or the player
        vocabulary's, a card's title or a name (``foreign``)?"""
        if self.known(word, None) or self.df(word, None) or word in self.story_names or self.nickname(word):
            return True
        if self.corpus_title_word(word) or self.imported_title_word(word, None) or self._vocabulary_spelling(word):
            return True
        fixed = self.correct(word, None)
        return fixed is not None and OSA.distance(word, fixed.replace("'", "")) <= 1

    def _unnamed_card(self, notes: list[str], analysis: dict[str, Any], edition: int | None, groups: list[Group]) -> str:
        """For a query no clause matches, whose card-text note names the card it spells out ("valar
        morgulis": Valar Morghulis): "names Valar Morghulis" (and "or uses" the query's other words),
        rather than repeating the title's words as typed.  Said only when no clause of the edition
        has the title's words in order; otherwise "" (the plain "uses ..." is said)."""
        pointed = next((p for n in notes if (p := notices.pointed_card(n))), None)
        if not pointed or edition is None or pointed[1] != edition:
            return ""
        name = pointed[0]
        if not any(name == title for title, _, _ in title_spans(self, analysis["words"], edition)):
            return ""
        if self._postings("clauses_fts", edition, " ".join(words_of(name)))[0]:
            return ""  # a clause does write the title (the query misspelled it): not "names"
        spelled = self._title_words_spelled(analysis["words"], edition)
        rest = list(dict.fromkeys(f'"{g.said[:40]}"' for g in groups if not set(g.said.split()) <= spelled.keys()))[:6]
        return f"names {name}" + (f" or uses {', '.join(rest)}" if rest else "")

    def _title_words_spelled(self, words: list[str], edition: int | None) -> dict[str, set[str]]:
        """Each word of an imported card title the query spells out, even misspelled ("milk of the
        popy": Milk of the Poppy), with the title's own words: such a word is the title's, and is
        not read as another corpus word ("popy" as "copy" searched for copies of cards)."""
        if edition is None or edition not in self.imported_editions:
            return {}
        spelled: dict[str, set[str]] = {}
        for name, start, size in title_spans(self, words, edition):  # (kept per query: the notices ask again)
            for word in words[start : start + size]:
                spelled.setdefault(word, set()).update(words_of(name))
        return spelled

    def _vocabulary_spelling(self, word: str) -> str | None:
        """The rules' word a player-vocabulary entry spells differently ("initative", "muligan"), or None
        for a player's own word (tap: kneel) or a word of the texts ("lanister", which first edition's
        FAQ prints) or English."""
        near = [t for t in self.synonyms.get(word, ()) if " " not in t and fuzz.ratio(word, t) >= VOCABULARY_TYPO]
        if not near or self.english(word) or self.rules_word(word, None):
            return None
        return near[0]

    def nickname(self, word: str) -> str | None:
        """The title words a card's nickname stands for, a possessive kept ("lf's" and "lfs": "littlefinger's")."""
        if word in self.nicknames:
            return self.nicknames[word]
        base = word.removesuffix("'s") if word.endswith("'s") else word[:-1] if word.endswith("s") else ""
        return f"{self.nicknames[base]}'s" if base in self.nicknames else None

    def rule_terms(self) -> frozenset[str]:
        """The words of rules clauses' headings ("Limited", "Stealth", "Military Claim"): a player who
        capitalises one ("a Limited card") names a rule, not a character.  Made at the first use."""
        if self._rule_terms is None:
            kinds = RULE_KINDS - {"qa"}  # (a Q&A entry's heading is its question, and names cards)
            self._rule_terms = frozenset(w for m in self.clauses.values() if m["kind"] in kinds for w in words_of(m["heading"] or ""))
        return self._rule_terms

    def headings_said(self, edition: int) -> str:
        """Every heading of the edition's clauses as lookup reads words, each padded with spaces, one
        a line: a phrase of words (padded) is in a heading when it is in this.  Made at the first use."""
        if edition not in self._headings_said:
            headings = (m["heading"] or "" for m in self.clauses.values() if m["edition"] == edition)
            self._headings_said[edition] = "\n".join(f" {' '.join(words_of(h))} " for h in headings)
        return self._headings_said[edition]

    def term_df(self, term: str, edition: int | None) -> int:
        """How many clauses of the edition (both when None) use a term (see ``_term_df``)."""
        self._facts(term.split())
        return self._term_df(term, edition)

    def corpus_title_word(self, word: str) -> bool:
        """Is the word (apostrophes aside) in the title of a card the corpus names, in either edition?
        (The words of ``corpus_cards_called``'s loose keys.)"""
        if self._corpus_title_words is None:
            self._corpus_title_words = frozenset(w for _, key in self._corpus_cards_by_name() for w in key.split())
        return word.replace("'", "") in self._corpus_title_words

    def _term_df(self, term: str, edition: int | None) -> int:
        """How many clauses use a term (by stem; a phrase: as many as use its rarest word)."""
        return min((self.stem_df(p, edition) for p in term.split()), default=0)

    def cards_named(self, analysis: dict[str, Any], edition: int | None) -> set[str]:
        """Cards whose title the query spells out, in the words the player typed (a corrected
        typo never names a card, and a title of small words must appear whole)."""
        typed = {stem_of(w) for w in analysis["words"]}
        text = " ".join(stem_of(w) for w in analysis["words"])
        # A misspelled title word that is no English word ("vipor", "narow", "daenarys") is read as the
        # word it misspells, and names a card when the title's other words are typed as written ("the red
        # vipor") or when the word it misspells is a name, no English word ("daenarys" alone).  A real
        # word is never corrected (Index.correct), so none is read as a card's ("one" is not I Am No One).
        corrected = {w: fixed for w, fixed in analysis.get("corrected", {}).items() if not self.english(w) and fixed not in STOPWORDS}
        mended = {stem_of(fixed) for fixed in corrected.values()} - typed
        mended_text = " ".join(stem_of(corrected.get(w, w)) for w in analysis["words"]) if mended else text
        names = {stem_of(fixed) for fixed in corrected.values() if not self.english(fixed)}
        found = set()
        for number in {i for w in typed | mended for i in self.card_words.get(w, ())}:
            card = self.cards[number]
            if edition and card["edition"] != edition:
                continue
            for required, phrase in card["keys"]:
                if spells_title((required, phrase), typed, text) or (
                    spells_title((required, phrase), typed | mended, mended_text) and (required & typed or required <= names)
                ):
                    found.add(card["id"])
                    break
        return found

    def known(self, word: str, edition: int | None) -> bool:
        """Is a word one the rules (not merely a card's errata or list entry), English or players use?"""
        base = word[:-2] if word.endswith("'s") else word
        if word in self.synonyms or base in self.synonyms:
            return True
        return self.rules_word(word, edition) or self.english(word) or self.english(base)

    def imported_titles(self, edition: int) -> dict[str, str]:
        """The edition's imported card titles by their loose key (``bare_name``), each once; loaded at the
        first lookup that looks for a title (about 2,000 rows an edition)."""
        if edition not in self._imported_titles:
            from judgekb.cards.corpus_cards import bare_name

            names = [r[0] for r in self._rows_if("select distinct name from imported_cards where edition = ? order by name", [edition])]
            self._imported_titles[edition] = {bare_name(n): n for n in names}
        return self._imported_titles[edition]

    def imported_titles_unarticled(self, edition: int) -> dict[str, str]:
        """The edition's titles with an article inside ("Milk of the Poppy"), by their loose key without
        any article ("milk of poppy"), as players drop it; a key two titles share, a key that is a title
        itself, and a key of two words, an everyday phrase ("bend knee", "at wall"), are left out."""
        if edition not in self._titles_unarticled:
            titles = self.imported_titles(edition)
            by_key: dict[str, set[str]] = {}
            for key, name in titles.items():
                words = no_article(key).split()
                bare = [w for w in words if w not in ARTICLES]
                if len(bare) > 2 and len(bare) < len(words):
                    by_key.setdefault(" ".join(bare), set()).add(name)
            self._titles_unarticled[edition] = {
                key: next(iter(names)) for key, names in by_key.items() if len(names) == 1 and key not in titles
            }
        return self._titles_unarticled[edition]

    def corpus_cards_called(self, name: str, edition: int) -> list[str]:
        """The corpus's cards of the edition with this name, on the loose key (``bare_name``: "To the
        Spears!" is the FAQ's "To the Spears"), by a map of every card's names made at the first use:
        a scan of them all per call cost a millisecond, and a question may name several cards."""
        from judgekb.cards.corpus_cards import bare_name

        return list(self._corpus_cards_by_name().get((edition, bare_name(name)), []))

    def _corpus_cards_by_name(self) -> dict[tuple[int, str], list[str]]:
        """Every corpus card by (edition, loose key of each of its names), made at the first use."""
        from judgekb.cards.corpus_cards import bare_name

        if self._corpus_cards_by_key is None:
            self._corpus_cards_by_key = {}
            for card in self.cards:
                for key in dict.fromkeys(bare_name(n) for n in card["names"]):
                    self._corpus_cards_by_key.setdefault((card["edition"], key), []).append(card["id"])
        return self._corpus_cards_by_key

    def imported_titles_by_word(self, edition: int) -> dict[str, list[str]]:
        """The edition's imported titles by each word of their loose key ("olennas": Olenna's Cunning …),
        sorted, so that finding the titles a word is in is one look-up, not a scan of every title."""
        if edition not in self._title_words:
            by_word: dict[str, set[str]] = {}
            for key, name in self.imported_titles(edition).items():
                for word in key.split():
                    by_word.setdefault(word, set()).add(name)
            self._title_words[edition] = {word: sorted(names) for word, names in by_word.items()}
        return self._title_words[edition]

    def imported_title_word(self, word: str, edition: int | None) -> bool:
        """Is the word (apostrophes aside) in a title of the edition's imported cards (either edition's
        when None)?  Loads the titles only when that edition's cards are imported."""
        editions = self.imported_editions & ({edition} if edition else {1, 2})
        return any(word.replace("'", "") in self.imported_titles_by_word(ed) for ed in editions)

    def imported_title_first_words(self, edition: int) -> frozenset[str]:
        """The first words of the edition's titles ("The" or "A" aside), as loose keys: a run of a
        query's words that begins with none of them spells no title."""
        if edition not in self._title_firsts:
            by_size = self._titles_by_size(edition)
            self._title_firsts[edition] = frozenset(key.split()[0] for titles in by_size.values() for key in titles)
        return self._title_firsts[edition]

    def imported_titles_of_length(self, edition: int, size: int) -> dict[str, str]:
        """The edition's titles of ``size`` words, "The" or "A" before them aside, by that article-less
        loose key (a misspelled run is compared with titles of its own length only)."""
        return self._titles_by_size(edition).get(size, {})

    def _titles_by_size(self, edition: int) -> dict[int, dict[str, str]]:
        if edition not in self._titles_by_length:
            by_size: dict[int, dict[str, str]] = {}
            for key, name in self.imported_titles(edition).items():
                plain = no_article(key)
                by_size.setdefault(len(plain.split()), {})[plain] = name
            self._titles_by_length[edition] = by_size
        return self._titles_by_length[edition]

    def card_status_notes(self) -> Any:
        """The imported restricted lists' status notes (restricted_lists.CardStatusNotes), made at the
        first lookup that may name a card; None when no lists are imported."""
        if self._card_status is None:
            if not self._rows_if("select 1 from sqlite_master where name = 'restricted_lists'"):
                self._card_status = False  # no lists imported: nothing to load, ever
            else:
                from judgekb.cards.restricted_lists import CardStatusNotes

                self._card_status = CardStatusNotes(self.conn)
        return self._card_status or None

    def name(self, word: str) -> bool:
        """Is the word one the texts write only capitalised and no English word: a name ("tyrion",
        "littlefinger", a card's title word the rules use in an example) or a capitalised term?"""
        self._facts([word])
        return word in self._names

    def everyday(self, word: str) -> bool:
        """Is the word an English word, with the everyday words the texts write only capitalised ("store" of "Store Championship")?"""
        if word not in self._everyday:  # (read here, not with every lookup's word facts: only a notice asks)
            self._facts([word])
            capitalised = self._rows_if("select 1 from english_capitalised where word = ?", [word])
            self._everyday[word] = self._word_facts[word][2] or bool(capitalised)
        return self._everyday[word]

    def english(self, word: str) -> bool:
        """Is the word in the English word list (the corpus's own names aside)?"""
        self._facts([word])
        return self._word_facts[word][2]

    def common_word(self, word: str, edition: int | None = None) -> bool:
        """Is a word one the rules of this edition (either, when None) or everyday English use (so a
        one-word card title it spells, "Taxation", names the card only when it is the whole query)?
        Only the searched edition's rules count: first edition's "Littlefinger variant" does not make
        the second-edition card Littlefinger a rules word."""
        self._facts([word])
        return bool(_in_edition(self._rules_df[word], edition) or self._word_facts[word][2] or word in STOPWORDS)

    def rules_df(self, word: str, edition: int | None) -> int:
        """How many rules clauses (not a card's errata or list entries) of the edition use the word as written."""
        self._facts([word])
        return _in_edition(self._rules_df[word], edition)

    def rules_word(self, word: str, edition: int | None) -> bool:
        """Do the rules of this edition (any edition when none is chosen) use the word?"""
        base = word[:-2] if word.endswith("'s") else word
        self._facts([word, base])
        return any(_in_edition(self._rules_df.get(w, (0, 0)), edition) for w in (word, base))

    def card_name(self, card_id: str) -> str:
        """A corpus card's printed title, for notices (the id itself when unknown)."""
        return next((c["names"][0] for c in self.cards if c["id"] == card_id), card_id)

    # ------------------------------------------------------------------ retrieval and ranking

    def _postings(self, table: str, edition: int | None, term: str) -> Postings:
        """One phrase's matches in an FTS5 table with its share of their BM25 (negative: best first),
        kept across queries.  FTS5's BM25 is a sum over the query's phrases, each with its own IDF, so a
        query's scores are its phrases' shares added up; scoring the whole OR query in FTS5 again
        cost a long question over a millisecond of its five.  Clause postings are of one edition."""
        key = (table, edition, term)
        found = self._postings_warm.get(key) or self._postings_cache.get(key)
        if found is None:
            found = self._fetch_postings(table, edition, term)
            # bounded: the terms are the users' words, and a server answers queries for days (each
            # phrase counts its matches and one for its key, so a word that matches nothing counts too)
            if self._postings_held + len(found[0]) + 1 > POSTINGS_HELD:
                self._postings_cache.clear()
                self._postings_held = 0
            self._postings_cache[key] = found
            self._postings_held += len(found[0]) + 1
        return found

    def _fetch_postings(self, table: str, edition: int | None, term: str) -> Postings:
        """The row numbers (a clause's rowid, a players' question's) and BM25 shares FTS5 gives one phrase."""
        phrase = '"' + term.replace('"', '""') + '"'
        if table == "clauses_fts":
            sql = (
                "select c.rowid, bm25(clauses_fts, 4.0, 1.0) from clauses_fts join clauses c "
                "on c.rowid = clauses_fts.rowid where clauses_fts match ?"
            )
            found = self.rows(sql + " and c.edition = ?", [phrase, edition]) if edition else self.rows(sql, [phrase])
        else:
            found = self.rows(f"select rowid, bm25({table}) from {table} where {table} match ?", [phrase])
        return array("q", [r for r, _ in found]), array("d", [share for _, share in found])

    def _phrase_scores(self, table: str, edition: int | None, terms: list[str]) -> dict[Any, float]:
        """Each matching row's BM25 for the OR of ``terms``: its phrases' cached shares added up."""
        if not terms:
            return {}
        # the first phrase's shares as they are (0.0 + share is share: the sums are the same), in C
        scores: dict[Any, float] = dict(zip(*self._postings(table, edition, terms[0]), strict=True))
        get = scores.get
        for term in terms[1:]:
            for key, share in zip(*self._postings(table, edition, term), strict=True):
                scores[key] = get(key, 0.0) + share
        return scores

    def _fts(self, groups: list[Group], edition: int | None, kinds: list[str] | None) -> list[tuple[str, float]]:
        terms = sorted({t for g in groups for t in g.terms if t.strip()})
        if not terms:
            return []
        scores = self._phrase_scores("clauses_fts", edition, terms)  # by rowid: only the kept rows are named
        if kinds:
            scores = {rowid: rank for rowid, rank in scores.items() if self.clauses[self.by_rowid[rowid]]["kind"] in kinds}
        # a card's list or errata entries repeat the same words ("Joust Restricted List: X", seventy
        # times): without a cap they fill the recall and the rule that governs them is never scored
        # (a card the query names brings its entries in on its own, see ``ranked``)
        cap = CANDIDATES if kinds and set(kinds) <= CARD_KINDS else CARD_ENTRIES  # unless they are all asked for
        found, listed = [], 0
        # (sorted(...)[:n] is heapq.nsmallest's result, ties in the same order, but sorts in C: nsmallest's
        # Python loop over a thousand matches was 7 % of a search's instructions, here and in _asked_fts)
        for rowid, rank in sorted(scores.items(), key=itemgetter(1))[: 2 * CANDIDATES]:
            cid = self.by_rowid[rowid]
            if cid in self.card_entries:
                listed += 1
                if listed > cap:
                    continue
            found.append((cid, -rank))
        return found[:CANDIDATES]

    def _asked_fts(
        self, groups: list[Group], edition: int | None, kinds: list[str] | None
    ) -> tuple[dict[str, float], dict[str, list[tuple[str, frozenset[str], int, str]]]]:
        """Clauses whose players' questions match the query: the best BM25 per clause, and the
        matching questions themselves (padded words, stems) for the finer match.  The query's
        commonest words ("card", "play") are left out of the match when rarer ones remain: they
        match thousands of questions and decide none."""
        # a word neither the rules, English nor the player vocabulary knows (a card's name: "pentoshi")
        # recalls no question: a question that happens to name a card with it is about a rule, and
        # would stand as the answer to a query that only names the card
        groups = [g for g in groups if any(all(self.known(w, edition) for w in t.split()) for t in g.terms)]
        telling = [g for g in groups if g.weight >= ASKED_COMMON] or groups
        terms = sorted({t for g in telling for t in g.terms if t.strip()})
        if not terms or not self.has_asked:
            return {}, {}
        best: dict[str, float] = {}
        matched: dict[str, list[tuple[str, frozenset[str], int, str]]] = {}
        for number in [edition] if edition in (1, 2) else [1, 2]:
            scores = self._phrase_scores(f"asked_{number}_fts", None, terms)
            best_rows = sorted(scores.items(), key=itemgetter(1))[:ASKED_MATCHES]
            # a question is held as matching reads it: reading it again for each query that recalls it was
            # 2 % of a search's instructions
            held = self._asked_rows.setdefault(number, {})  # at most the table's rows
            missing = [rowid for rowid, _ in best_rows if rowid not in held]
            if missing:
                self._hold_asked(number, missing)
            for rowid, rank in best_rows:
                cid, question = held[rowid]
                if kinds and self.clauses[cid]["kind"] not in kinds:
                    continue
                best[cid] = max(best.get(cid, 0.0), -rank)
                matched.setdefault(cid, []).append(question)
        return best, matched

    def _hold_asked(self, number: int, rowids: list[int] | None = None) -> None:
        """Read players' questions of ``asked_N`` (these rows, else all: ``warm``) as ``asked_words``
        reads them, worked out when the database was built, into ``_asked_rows``."""
        held = self._asked_rows.setdefault(number, {})
        # (a lookup asks for at most ASKED_MATCHES rows: well within SQLite's limit on parameters)
        where, args = ("", []) if rowids is None else (f" where rowid in ({','.join('?' * len(rowids))})", rowids)
        sql = f"select rowid, id, words, stems, size, said from asked_{number}{where}"
        for rowid, cid, words, stems, size, said in self.rows(sql, args):
            held[rowid] = (cid, (f" {words} ", frozenset(stems.split()), size, sorted_words(said)))

    def _body(self, clause_ids: list[str]) -> None:
        missing = list({c for c in clause_ids if c not in self._bodies})
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.rows(f"select id, {', '.join(CLAUSE_WORDS)} from clause_words where id in ({marks})", chunk):
                cid, words, stems, heading, heading_stems, names, says_more, boundary, term_definition, question, question_stems = row
                counts = Counter(stems.split())
                self._bodies[cid] = (f" {words} ", frozenset(counts))
                self._counts[cid] = (counts, sum(counts.values()))
                self._leads[cid] = (f" {' '.join(words.split()[:LEAD_WORDS])} ", frozenset(stems.split()[:LEAD_WORDS]))
                self._headings[cid] = (f" {heading} ", frozenset(heading_stems.split()))
                self._heading_names[cid] = frozenset(names.split("|")) - {""}
                self._says_more[cid] = bool(says_more)
                if boundary:
                    self._boundary.add(cid)
                if term_definition:
                    self._term_definition.add(cid)
                self._questions[cid] = (f" {question} ", frozenset(question_stems.split()))
                self._questions_sorted[cid] = sorted_words(question)

    def search(
        self, query: str, edition: int | None = None, kinds: list[str] | None = None, limit: int = 10
    ) -> tuple[list[Hit], list[str]]:
        """Ranked hits (governing clauses first, restatements folded) and notes for the user."""
        hits, notes, _ = self.ranked(query, edition, kinds, limit)
        return hits, notes

    def ranked(
        self, query: str, edition: int | None, kinds: list[str] | None, limit: int, explain: dict[str, Any] | None = None
    ) -> tuple[list[Hit], list[str], list[set[str]]]:
        """``search`` plus the query's word groups (for snippets), so the query is analysed once.

        ``explain``, when given, receives each candidate's signals (for tuning and debugging)."""
        text, notes = clean(query)
        named = named_edition(text)
        document = None if EDITION_SAID.search(text) else self._named_document(text)  # (the edition's own name decides)
        if named and edition is None:
            edition = named
            notes.append(f"searching {EDITION_NAMES[named]} only: the query names it")
        elif named and edition and named != edition:
            notes.append(
                f"the query names {EDITION_NAMES[named]}, but this search is of {EDITION_NAMES[edition]}: "
                "choose the edition to search"
            )
        elif document and edition is None:
            edition = document.edition
            notes.append(
                f"searching {EDITION_NAMES[edition]} only: the query names {document.said}, "
                f"a {EDITION_ADJECTIVES[edition]} document"
            )
        elif document and edition and document.edition != edition:
            notes.append(
                f"the query names {document.said}, a {EDITION_ADJECTIVES[document.edition]} document, but this search "
                f"is of {EDITION_NAMES[edition]}: choose the edition to search"
            )
        quoted = [" ".join(words_of(q)) for q in QUOTED.findall(text)]
        quoted = [q for q in quoted if q and len(quoted) == 1]  # one quoted term: the topic, small words too
        unedition = EDITION_SAID.sub(" ", text).strip()
        if named and not words_of(unedition):  # "2.0", "second edition": which edition, but not what about
            notes.append(f"the query names {EDITION_NAMES[named]} and nothing more: add what it is about")
            return [], notes, []
        foreign = self.foreign(unedition or text)
        analysis = self.analyse(unedition or text, edition, keep={w for q in quoted for w in q.split()}, foreign=foreign)
        if not analysis["words"]:
            # letters of another script ("挑战平局谁赢", "кто выигрывает при ничьей"), none of the English alphabet
            other_script = any(ch.isalpha() and not ch.isascii() for ch in text)
            notes.append(NOT_ENGLISH if other_script else "the query has no words to look up")
            return [], notes, []
        if len(analysis["words"]) >= 2 and not quoted and QUESTION_ONLY.issuperset(analysis["words"]):
            # "what is the", "how do i": any clause would match as well as another ("what is would" asks of a term)
            said = " ".join(analysis["words"][:8])
            notes.append(f'the query has only question words ("{said}"): add what it is about')
            return [], notes, []
        groups: list[Group] = analysis["groups"]
        term_sets = [g.terms for g in groups]
        cards = self.cards_named(analysis, edition)
        other_cards = notices.other_edition_cards(self, analysis, edition)  # (an empty result says to search there)
        notes = [
            *notices.absent(self, analysis, edition, cards), *notices.other_edition(analysis),
            *notices.errata_absent(self, analysis, edition, cards), *notices.list_status(self, analysis, edition, cards),
            *notices.first_edition_status(self, analysis, edition, cards), *other_cards, *notes, *notices.spelling(analysis),
        ]  # fmt: skip
        if foreign:  # said first: whatever follows reads a few words of it
            notes.insert(0, FOREIGN_QUERY)
        # a card named by words of a longer title the query names is not named ("hollow hill" of "knights
        # of the hollow hill"): its clauses are no more about the question than any other
        cards = notices.not_inside_another(self, analysis["words"], cards)
        groups, titled = self._one_idea_per_title(groups, cards)
        candidates = self._fts(groups, edition, kinds)
        recalled = {c for c, _ in candidates}
        for card in cards:  # clauses about a named card are candidates even without word hits
            for clause_id in self.mentioned.get(card, ()):
                meta = self.clauses[clause_id]
                if clause_id in recalled:  # its text matched: it keeps the score it matched with
                    continue
                if (not edition or meta["edition"] == edition) and (not kinds or meta["kind"] in kinds):
                    candidates.append((clause_id, 0.0))
                    recalled.add(clause_id)
        # players' questions are recalled by what the query asks of a named card, not by its name: a
        # question that names the card is about another ruling on it (the card's own signal finds those)
        asking = [g for g in groups if g not in titled] or groups
        asked_scores, asked_matched = self._asked_fts(asking, edition, kinds)
        candidates += [(c, 0.0) for c in sorted(asked_scores, key=lambda c: -asked_scores[c])[:CANDIDATES // 2] if c not in recalled]
        if not candidates:
            which = f"{EDITION_ADJECTIVES[edition]} " if edition in (1, 2) else ""
            said = ", ".join(f'"{w}"' for w in list(dict.fromkeys(g.said[:40] for g in groups))[:6])  # each word once
            notes = [n.removesuffix(" Closest clauses below.") for n in notes]  # there are none
            which += f"{' or '.join(kinds)} " if kinds else ""
            if kinds:  # the words may well be in other kinds of clause
                notes.append(f"no {which}clause uses {said}: search without the kind filter")
            elif other_cards:  # the other edition's card, said above
                notes.append(f"no {which}clause uses {said}: search the other edition")
            elif not any(n.startswith("card text:") for n in notes) and (card_page := notices.imported_title(self, analysis, edition)):
                # a real card the corpus never names (said in place of the notice that no title is spelled out)
                notes = [n for n in notes if not notices.is_no_title_notice(n)]
                notes.append(f"no {which}clause uses {said}: {card_page}")
            elif unnamed := self._unnamed_card(notes, analysis, edition, groups):  # "valar morgulis": the card, as titled
                notes.append(f"no {which}clause {unnamed}")
            elif any(n.startswith(("card text:", "not in the corpus")) or "list in force:" in n for n in notes):  # said above
                if not any(f"no {which}clause uses {said}" in n for n in notes):  # (nor twice: 'no first-edition clause uses "store"')
                    notes.append(f"no {which}clause uses {said}")
            elif near := notices.near_whole_title(self, text, edition):  # "the things i do for luv": a title misspelled
                notes.append(
                    f"no {which}clause uses {said}: did you mean the card {near[0]}? Its own text is on its card page "
                    f"(the Cards page, or {notices.card_command(*near)})"
                )
            elif any(n.startswith("other edition:") for n in notes):  # the word is right, the edition is not
                notes.append(f"no {which}clause uses {said}: search the other edition")
            elif foreign:  # (its spelling is not what is wrong)
                notes.append(f"no {which}clause uses {said}")
            else:
                notes.append(f"no {which}clause uses {said}: check the spelling" + (", or search the other edition" if edition else ""))
            return [], notes, term_sets
        notes += notices.unused_words(self, analysis, edition, notes)
        self._body([c for c, _ in candidates])
        for group in groups:
            group.prepare()
        matched: dict[str, float] = {}
        found_in: dict[str, int] = {}  # the ideas each candidate's text expresses (``Ideas.mask``)
        for clause_id, _ in candidates:
            matched[clause_id], found_in[clause_id] = self._bm25(groups, clause_id)
        top = max(matched.values()) or 1.0
        question = bool(QUESTION_START.match(analysis["text"])) or text.endswith("?")
        total = sum(g.weight for g in groups) or 1.0
        query_stems = frozenset(t for g in groups for t in g.stems) | {stem_of(w) for g in groups for p in g.phrases for w in p.split()}
        padded_query = f" {analysis['text']} " if len(analysis["words"]) >= 2 else None
        scored: dict[str, float] = {}
        covers: dict[str, frozenset[int]] = {}
        fts = dict(candidates)
        fts_top = max(fts.values()) or 1.0
        said_stems = {stem_of(w) for w in analysis["words"]}
        tournament = bool(self.topic_words & said_stems) or len(self.topic_shared & said_stems) >= 2

        ideas = Ideas(groups, total)
        # what the query asks besides the cards it names: their share of its weight (0 for a bare title)
        asked_bits = sum(1 << i for i, g in enumerate(groups) if not any(g is t for t in titled))
        asked_share = ideas.weighted(asked_bits)
        status_asked = bool(STATUS_WORDS & set(analysis["words"]))
        errata_asked = any("errata" in g.terms for g in groups)  # ("errata'd", "nerfed": the vocabulary's errata)
        weighted, f1 = ideas.weighted, ideas.f1
        spoken = min(1.0, len(analysis["words"]) / SPOKEN_WORDS)
        sorted_query = sorted_words(analysis["text"])
        asks_boundary = not BOUNDARY_WORDS.isdisjoint(analysis["words"])
        asks_term = len(groups) < 2 or bool(DEFINITION_ASKED.search(analysis["text"]))
        # the term a query names: the query itself, or what a definition question asks about ("what does unique mean")
        asked_terms = {analysis["text"], DEFINED_TERM.sub("", analysis["text"]).strip()}
        situation = len(analysis["words"]) >= PASSING_WORDS
        # (read with its typos mended: "does deadly hapen before renown")
        mended = " ".join(analysis["corrected"].get(w, w) for w in analysis["words"])
        asks_timing = bool(TIMING_ASKED.search(analysis["text"]) or (mended != analysis["text"] and TIMING_ASKED.search(mended)))
        # asked for a card's list status or errata, a rule that names the card only as its example (first
        # edition's "cannot" explains itself with Wildfire Assault) answers no more than any other rule
        asks_entry = status_asked or errata_asked
        typed = analysis["words"]
        states = {w for w, after in pairwise(typed) if w in STATE_WORDS and after in STATE_NOUNS}
        state_bits = sum(1 << i for i, g in enumerate(groups) if g.said.split()[0] in states) if states else 0
        state_bits = state_bits if state_bits != (1 << len(groups)) - 1 else 0  # the state alone is what is asked
        state_stems = frozenset(stem_of(s) for w in states for s in STATE_WORDS[w]) if state_bits else frozenset()
        padded_quoted = [f" {q} " for q in quoted]  # (padded once: most queries quote nothing)
        coverage: dict[str, float] = {}
        for clause_id in fts:
            found = found_in[clause_id]
            covers[clause_id], coverage[clause_id] = ideas.indices(found), weighted(found)
        # the full set of signals only for the candidates that text matching already favours
        asked_top = max(asked_scores.values(), default=0.0) or 1.0
        shortlist = sorted(
            fts, key=lambda c: -(fts[c] / fts_top + matched[c] / top + coverage[c] + asked_scores.get(c, 0.0) / asked_top)
        )[:SHORTLIST]
        shortlist += [c for c in fts if c not in shortlist and any(c in self.mentioned.get(card, ()) for card in cards)]
        # a superseded clause lends its successor nothing (it folds under it): the successor is scored on its own text
        successors = [s for s in self._successors_of(shortlist, edition, kinds) if s not in shortlist]
        if successors:
            self._body(successors)
            for clause_id in successors:
                if clause_id not in fts:  # recalled only through what it supersedes
                    fts[clause_id] = 0.0
                    matched[clause_id], found = self._bm25(groups, clause_id)
                    covers[clause_id], coverage[clause_id] = ideas.indices(found), weighted(found)
            shortlist += successors
        candidate_features: dict[str, dict[str, float]] = {}

        def about_share(clause_id: str) -> float:
            """In a told situation, a clause about a named card (a Q&A entry its heading names it in) is
            about the question as far as it also covers what the question asks besides the card: the
            Q&A 'can Meera Reed blank The Red Viper' led 'does the red viper's immunity protect his
            attachments' on the name alone.  The card signal runs from NAMED_IN_PASSING (the clause covers
            none of the rest of the question) to 1 (all of it)."""
            if asked_share <= 0:
                return 1.0
            found = sum(1 << i for i in covers[clause_id]) & asked_bits
            return NAMED_IN_PASSING + (1 - NAMED_IN_PASSING) * min(1.0, weighted(found) / asked_share)

        for clause_id in shortlist:
            meta, body = self.clauses[clause_id], self._bodies[clause_id]
            head = self._headings[clause_id]
            head_mask = ideas.mask(head)
            heading = f1(head_mask, len(head[1]))
            if clause_id in self.questions:  # a Q&A entry is matched by the question it answers
                asked_q = self._questions[clause_id]
                heading = max(heading, f1(ideas.mask(asked_q), len(asked_q[1])))
            named_here = [c for c in cards if clause_id in self.mentioned.get(c, ())]
            named = bool(named_here)
            in_passing = (
                named and (situation or asks_entry) and meta["kind"] not in CARD_KINDS
                and not any(self._heading_names_card(clause_id, c) for c in named_here)
            )  # fmt: skip
            about_in_situation = named and situation and not in_passing and meta["kind"] not in CARD_KINDS
            list_unasked = named and meta["kind"] in LIST_KINDS and asked_share > 0 and not status_asked
            _, length = self._counts[clause_id]
            lead = self._leads[clause_id]
            asked_here = asked_matched.get(clause_id, [])
            asked_f1 = ideas.best_f1(asked_here)
            liked: Any = process.extractOne(sorted_query, [a[3] for a in asked_here], scorer=ASKED_LIKE) if asked_here else None
            if clause_id in self.questions:  # the FAQ's own question is a player's question too
                own = ASKED_LIKE(sorted_query, self._questions_sorted[clause_id])
                liked = (None, own) if not liked or own > liked[1] else liked
            features = {
                "asked_like": (liked[1] / 100 if liked else 0.0) * spoken,
                "asked": asked_f1,
                "asked_fts": asked_scores.get(clause_id, 0.0) / asked_top,
                "bm25": matched[clause_id] / top,
                "fts": max(0.0, fts[clause_id]) / fts_top,
                "cover": coverage[clause_id],
                "heading": heading,
                "question": heading if question and clause_id in self.questions else 0.0,
                "phrase": float(padded_query is not None and padded_query in body[0]),
                # (a card's list entry, when the question asks something else of the card than its status,
                # names the card only in passing: "red vipers claim" asks what claim does, not whether it is restricted)
                "card": (
                    NAMED_IN_PASSING if in_passing else LIST_UNASKED_CARD if list_unasked
                    else about_share(clause_id) if about_in_situation else float(named)
                ),
                "list_unasked": float(list_unasked),
                # a named card's errata entry, asked for: its heading and text never say "errata"
                "errata_asked": float(named and meta["kind"] == "errata" and errata_asked),
                "card_errata": float(named) * CARD_ERRATA.get(meta["kind"], 0.0),
                "card_kind": float(not named and meta["kind"] in CARD_KINDS),
                "rank": (min(meta["rank"], self.rules_rank) if FLOWCHART.match(meta["heading"] or "") else meta["rank"]) / 30,
                "qa": float(meta["kind"] == "qa"),
                "preamble": float(meta["kind"] == "preamble"),
                "unofficial": float(meta["doc_kind"].startswith("unofficial")),
                "redirect": float(length <= 12 and body[0].startswith(f"{head[0]}see ")),
                # a container's title ("6. Standing phase"): it answers nothing, its steps do
                "title_only": float(
                    (not self._says_more[clause_id] or (clause_id in self._boundary and not asks_boundary)
                     or (clause_id in self._term_definition and not asks_term))
                    and meta["kind"] not in CARD_KINDS
                ),
                "off_topic": float((meta["doc"] in self.topic_docs) != tournament),
                "length": math.log(1 + length) / 6,
                "lead": weighted(ideas.mask(lead)),
                "head_precision": len(head[1] & query_stems) / len(head[1]) if head[1] else 0.0,
                "rules": float(meta["kind"] in ("rules", "section", "timing")),
                "quoted": float(bool(padded_quoted) and any(q in head[0] for q in padded_quoted)),
                "head_exact": float(bool(asked_terms & self._heading_names[clause_id])),
                "state_heading": float(bool(state_stems & head[1]) and not head_mask & ~state_bits),
                "timing_asked": float(asks_timing and (meta["kind"] == "timing" or clause_id in self._timing_headed)),
            }
            candidate_features[clause_id] = features
        self._impute_asked(candidate_features)
        weights: list[float] = []  # in the signals' order, the same for every candidate (read here: tuning sets WEIGHTS)
        for clause_id, features in candidate_features.items():
            if explain is not None:
                explain[clause_id] = features
            weights = weights or [WEIGHTS.get(k, 0.0) for k in features]
            score = sum(map(mul, weights, features.values()))
            scored[clause_id] = max(scored.get(clause_id, 0.0), score)

        def cover_of(clause_id: str) -> frozenset[int]:
            if clause_id not in covers:
                self._body([clause_id])
                covers[clause_id] = ideas.indices(ideas.mask(self._bodies.get(clause_id, NO_BODY)))
            return covers[clause_id]

        about_named = {c for card in cards for c in self.mentioned.get(card, ())}
        hits = self._fold(scored, cover_of, edition, limit, about_named)
        if notices.LISTS_NOT_IMPORTED in notes and not any(h.id in self.removed or self.clauses[h.id]["kind"] in LIST_KINDS for h in hits):
            notes[notes.index(notices.LISTS_NOT_IMPORTED)] = notices.LISTS_NOT_IMPORTED_NONE_SHOWN
        first = self.clauses[hits[0].id] if hits else None
        if (
            first and first["kind"] in LIST_KINDS and first["edition"] == 2
            and notices.LISTS_NOT_IMPORTED not in notes and self.card_status_notes() is None
        ):  # a list entry first, no list in force imported ("can I play the red viper in joust"): say which lists are not in force
            notes.append(notices.LISTS_NOT_IMPORTED)
        if edition is None and (mixed := editions_shown([self.clauses[h.id]["edition"] for h in hits])):
            notes.append(mixed)
        return hits, notes, term_sets

    def _one_idea_per_title(self, groups: list[Group], cards: set[str]) -> tuple[list[Group], list[Group]]:
        """A named card's title is one idea of the query, not one per word: "khal drogo's stealth"
        asks about stealth and one card, and its two rare name words weighed as two ideas made any
        clause that names Khal Drogo (a ruling on playing him from hand) outweigh the stealth rule.
        The title's words are searched as one group, weighed as its rarest word."""
        titles = [required for card in cards for required, _ in self.card_by_id[card]["keys"]]
        if not titles:
            return self._one_idea_per_name(groups), []
        merged: dict[frozenset[str], Group] = {}
        out: list[Group] = []
        for group in groups:
            stem = stem_of(group.said.removesuffix("'s"))
            title = next((t for t in titles if " " not in group.said and stem in t), None)
            if title is None:
                out.append(group)
            elif title in merged:
                into = merged[title]
                into.said, into.terms = f"{into.said} {group.said}", into.terms | group.terms
                into.weight = max(into.weight, group.weight)
            else:
                merged[title] = Group(group.said, set(group.terms), group.weight)
                out.append(merged[title])
        return self._one_idea_per_name(out), list(merged.values())

    def _one_idea_per_name(self, groups: list[Group]) -> list[Group]:
        """Adjacent words the texts write only capitalised, one of them no English word, are one name
        ("jon snow": a card no clause cites, named in a deck-list example), weighed as its rarest word."""
        out: list[Group] = []
        run: list[Group] = []

        def close() -> None:
            if len(run) > 1 and any(g.said in self._names for g in run):
                out.append(Group(" ".join(g.said for g in run), set().union(*(g.terms for g in run)), max(g.weight for g in run)))
            else:
                out.extend(run)
            run.clear()

        for group in groups:
            if " " not in group.said and group.said in self._capitalised:
                run.append(group)
            else:
                close()
                out.append(group)
        close()
        return out

    def ruled_on(self, card_id: str) -> bool:
        """Does the corpus hold a ruling on the card: a clause whose heading (a Q&A entry's: its question)
        names it, besides the card's list and errata entries?"""
        return bool(self.rulings_on(card_id))

    def rulings_on(self, card_id: str) -> set[str]:
        """The clauses ruling on the card: those whose heading (a Q&A entry's: its question) names it,
        besides the card's list and errata entries."""
        return {c for c in self.mentioned.get(card_id, ()) if c not in self.card_entries and self._heading_names_card(c, card_id)}

    def named_in_force(self, card_id: str) -> set[str]:
        """The governing clauses that name the card, besides its list and errata entries: a Q&A entry asked
        about it, or a ruling or regulation citing it in its text ("Oldtown Scholar (Sands of Dorne, 41)
        cannot trigger its reaction ..." of FAQ 1.9), never a superseded entry or an unofficial copy."""
        return {c for c in self.mentioned.get(card_id, ()) if c not in self.card_entries and not self.governors.get(c)}

    def _heading_names_card(self, clause_id: str, card_id: str) -> bool:
        """Does the clause's heading (a Q&A entry's: its question) name the card, by the words that name it?"""
        heading = " ".join(stem_of(w) for w in words_of(self.clauses[clause_id]["heading"] or ""))
        stems = frozenset(heading.split())
        return any(spells_title(key, stems, heading) for key in self.card_by_id[card_id]["keys"])

    def _impute_asked(self, candidate_features: dict[str, dict[str, float]]) -> None:
        """A rules clause no player's question is written for (the rule of the restricted lists, the
        multiplayer titles) cannot match one: it gets the median of the other candidates' players'-
        question signals, neither favoured nor punished, instead of zeros that lost it to any clause
        with questions that happen to share the query's small words."""
        if not self.questioned:
            return
        asked = [f for c, f in candidate_features.items() if c in self.questioned]
        # Only a clause that states a rule: a card's list or errata entry is never asked about (players
        # ask about the card, and the card's own signal finds its entries), and a preamble, a "See …"
        # entry or a phase's bare title has no questions because it answers none.
        unasked = [
            f for c, f in candidate_features.items()
            if c not in self.questioned and self.clauses[c]["kind"] in RULE_KINDS and not f["title_only"] and not f["redirect"]
        ]  # fmt: skip
        if not asked or not unasked:
            return
        for signal in ASKED_SIGNALS:
            values = sorted(f[signal] for f in asked)
            median = values[len(values) // 2]
            for features in unasked:
                features[signal] = median

    @staticmethod
    def _drop_redundant_unofficial(hits: list[Hit], cover_of: Callable[[str], frozenset[int]], limit: int) -> list[Hit]:
        """The first ``limit`` hits, without an unofficial text standing alone when the official hits
        shown cover every idea of the query it covers (page chrome, an introduction that merges
        into a copied entry): it answers nothing they do not."""
        while True:
            shown = hits[:limit]
            official: set[int] = set().union(*(cover_of(h.id) for h in shown if not h.unofficial))
            redundant = {h.id for h in shown if h.unofficial and cover_of(h.id) <= official}
            if not redundant:
                return shown
            hits = [h for h in hits if h.id not in redundant]

    def _successors_of(self, clause_ids: list[str], edition: int | None, kinds: list[str] | None) -> list[str]:
        """The clauses that supersede these, within the search's edition and kinds (first seen first)."""
        out: dict[str, None] = {}
        for clause_id in clause_ids:
            for governor, relation in self.governors.get(clause_id, ()):
                meta = self.clauses.get(governor)
                if relation != "superseded" or not meta:
                    continue
                if (not edition or meta["edition"] == edition) and (not kinds or meta["kind"] in kinds):
                    out[governor] = None
        return list(out)

    def _bm25(
        self, groups: list[Group], clause_id: str, k1: float = 1.2, b: float = 0.75, average: float = 60.0
    ) -> tuple[float, int]:
        """BM25 of a clause for the query's ideas (a group's count is that of all its terms), and the
        ideas its text expresses as bits, exactly ``Ideas.mask`` of its body: a group counts exactly
        when one of its stems or phrases is in the text, so the one pass over the text gives both."""
        # (shared empty defaults: building a Counter for the default on every call was a fifth of this method)
        counts, length = self._counts.get(clause_id, NO_COUNTS)
        text = self._bodies.get(clause_id, NO_BODY)[0]
        norm = k1 * (1 - b + b * length / average)
        score = 0.0
        found = 0
        get = counts.get
        for number, group in enumerate(groups):  # plain loops: this runs for every candidate of every query
            tf = 0
            for stem in group.stems:
                tf += get(stem, 0)
            for phrase in group.phrases:
                tf += text.count(phrase)
            if tf:
                score += group.weight * tf * (k1 + 1) / (tf + norm)
                found |= 1 << number
        return score, found

    def _fold(
        self, scored: dict[str, float], cover_of: Callable[[str], frozenset[int]], edition: int | None, limit: int,
        about_named: set[str] | frozenset[str] = frozenset(),
    ) -> list[Hit]:
        """Fold superseded clauses under their successors, and restatements under what they restate
        when they add nothing for this query; a restatement that covers more of the query than its
        governor and the official texts folded with it stands on its own, flagged unofficial.

        An entry a later version removed (v2.3's restricted lists: v4.1's Card Legality only says
        where the lists are now) about a card the query names (``about_named``) stands on its own,
        marked superseded, when it covers more of the query than its successor: it alone says
        anything about that card, and folded under a text that never names it, it was out of reach.
        A removed introduction of the lists (v2.3's "A player may select one card from the restricted
        list for any given deck", the only text that says so) stands so whatever the query names, just
        below the text in force."""
        governing: dict[str, list[str]] = {}
        for clause_id in scored:
            governors = [g for g, _ in self.governors.get(clause_id, []) if g in self.clauses]
            if edition:
                governors = [g for g in governors if self.clauses[g]["edition"] == edition]
            if governors:  # the governor that answers most of this query first
                governing[clause_id] = sorted(governors, key=lambda g: (-len(cover_of(g)), governors.index(g)))
        family: dict[str, set[int]] = {}  # what a governor and the official texts under it cover
        for clause_id, governors in governing.items():
            if not self.clauses[clause_id]["doc_kind"].startswith("unofficial"):
                for over in governors:
                    family.setdefault(over, set(cover_of(over))).update(cover_of(clause_id))
        hits: dict[str, Hit] = {}
        for clause_id, score in sorted(scored.items(), key=lambda kv: -kv[1]):
            governor: str | None = governing[clause_id][0] if clause_id in governing else None
            relation = dict(self.governors[clause_id])[governor] if governor else ""
            superseded_by = ""
            if (
                governor and relation == "superseded" and clause_id in self.removed
                and (clause_id in about_named or self.clauses[clause_id]["kind"] == REMOVED_STANDING_KIND)
            ):  # fmt: skip
                if not cover_of(clause_id) <= cover_of(governor):
                    superseded_by, governor = governor, None
            if governor and relation not in ("superseded", "redirects"):
                known = set().union(*(family.get(g) or cover_of(g) for g in governing[clause_id]))
                if not cover_of(clause_id) <= known:
                    governor = None  # it answers something its governors do not: it stands on its own
            if not governor:
                hit = hits.setdefault(clause_id, Hit(clause_id, score))
                hit.score = max(hit.score, score)
                hit.unofficial = self.clauses[clause_id]["doc_kind"].startswith("unofficial")
                hit.superseded_by = superseded_by
                continue
            hit = hits.setdefault(governor, Hit(governor, scored.get(governor, score)))
            if relation != "superseded" or governor not in scored:  # a superseded (or removed) entry adds nothing
                hit.score = max(hit.score, score)
            hit.folded.append({"id": clause_id, "relation": relation, "citation": ""})
        for hit in hits.values():  # a removed list introduction stands below the text in force that says where the lists went
            if hit.superseded_by in hits and hit.id not in about_named:
                hit.score = min(hit.score, hits[hit.superseded_by].score - 1e-6)
        ranked = self._drop_redundant_unofficial(sorted(hits.values(), key=lambda h: (-h.score, h.id)), cover_of, limit)
        folded = [f for h in ranked for f in h.folded]
        if folded:
            marks = ",".join("?" * len(folded))
            citations = dict(self.rows(f"select id, citation from clauses where id in ({marks})", [f["id"] for f in folded]))
            for entry in folded:
                entry["citation"] = citations.get(entry["id"], "")
            self._restating_sentences(ranked)
        return ranked

    def _restating_sentences(self, ranked: list[Hit]) -> None:
        """A restatement folded under a hit by one of its sentences (the build's ``restates`` link says
        which: ``links.restatements``) names that sentence's opening beside its citation, as ``sentence``:
        a web paragraph is cited by its own opening words, which may be another topic's."""
        pairs = {(f["id"], h.id): f for h in ranked for f in h.folded if f["relation"] == "restates"}
        sources = list({src for src, _ in pairs})
        if not sources:
            return
        marks = ",".join("?" * len(sources))
        for src, dst, data in self.rows(f"select src, dst, data from links where type = 'restates' and src in ({marks})", sources):
            sentence = json.loads(data or "{}").get("sentence") if (src, dst) in pairs else None
            if sentence:  # (its opening words, as the build keeps them: links.restatements)
                pairs[src, dst]["sentence"] = sentence


DERIVED_FIELDS = frozenset(Index.__annotations__)  # what ``Index.derived`` returns: the facts the class declares


# What ranking reads of a clause, as ``clause_words`` stores it (``tables.clause_words_row``).
CLAUSE_WORDS = (
    "words", "stems", "heading", "heading_stems", "names", "says_more", "boundary", "term_definition", "question", "question_stems",
)  # fmt: skip


# The characters of a word: a query stem marks a token where it starts a word, after none of these.
WORD_CHARACTERS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")
# a word a stem marks ends within this many letters of it: an ending ("attachments" of "attachment", "defenders" of
# "defend"), not another word that starts alike ("characteristics" is no "character": blind review r88 M1)
ENDING_LETTERS = 5


@lru_cache(maxsize=2048)
def _tokens(text: str) -> tuple[tuple[str, ...], str, tuple[int, ...]]:
    """A text's tokens, the text lower-cased with one space between them, and where each token starts
    in it.  Kept per text, so a snippet finds each query stem with ``str.find`` and compiles no pattern
    of its own (a pattern per query, and a search per token, were a sixth of the lookup's time)."""
    tokens = tuple(text.split())
    lowered = [t.lower() for t in tokens]  # (token by token: lower-casing may change a length, "İ")
    offsets, at = [], 0
    for token in lowered:
        offsets.append(at)
        at += len(token) + 1
    return tokens, " ".join(lowered), tuple(offsets)


def marked_stems(groups: list[set[str]]) -> set[str]:
    """The stems a snippet marks for the query's word groups: a phrase's small words ("the" in "until
    the end of the phase") mark nothing on their own; a number does ("15 power", "0 STR": the number is
    often what is asked, and chose the sentence that says it).  A word whose stem the suffix rules gave
    an e it lacks marks as typed too: "during" stems to "dure", "saving" to "save", and found neither
    in the text (an irregular form, "won", marks by its verb, "win", as before)."""
    marked = set()
    for w in (w for g in groups for t in g for w in t.split() if (len(w) > 2 or w.isdigit()) and w not in STOPWORDS):
        stem, typed = stem_of(w), w.removesuffix("'s").replace("'", "")
        marked.add(stem)
        if not typed.startswith(stem) and typed not in IRREGULAR:
            marked.add(typed)
    return marked


def idea_stems(groups: list[set[str]]) -> list[set[str]]:
    """``marked_stems`` of each of the query's ideas (word groups) apart: a snippet shows the most ideas it can."""
    return [marked_stems([g]) for g in groups]


def _whole_number(lowered: str, at: int, length: int) -> bool:
    """Is the number at ``at`` a whole number, not part of a step ("2" in "1.2"), a larger number ("15"
    in "150") or a decimal: a question's "2 cards" marks the text's "2", not its "step 2.2"."""
    before = lowered[at - 1] if at else " "
    after = lowered[at + length : at + length + 2]
    return before != "." and not (after[:1].isdigit() or (after[:1] == "." and after[1:2].isdigit()))


def snippet(
    text: str,
    groups: list[set[str]],
    width: int = 36,
    stems: list[set[str]] | None = None,
    sentences: bool = True,
    heading: str = "",
) -> str:
    """Whole sentences that say most of the query's ideas (``_whole_sentences``), matched words in [brackets];
    where the best is one long sentence, about ``width`` words around the run of query words that says most of
    the query's ideas (then the most matched words), from a sentence's start where one begins just before.
    ``stems``: ``idea_stems(groups)``, when the caller shows several snippets for one query; ``sentences``:
    False for the window alone (bench/lookup.py measures it as the baseline); ``heading``: the clause's heading (a
    Q&A entry's: its question), printed above the snippet, so the ideas it says count after the others."""
    tokens, lowered, offsets = _tokens(text)
    if not tokens:
        return ""
    if stems is None:
        stems = idea_stems(groups)
    if not any(stems):
        return " ".join(tokens[:width]) + (" …" if len(tokens) > width else "")
    ideas = [0] * len(tokens)  # the ideas (bits) each token's words say
    for number, idea in enumerate(stems):
        for stem in idea:  # a token is marked where a word in it starts with a stem and ends soon after
            at = lowered.find(stem)
            while at >= 0:
                if (not at or lowered[at - 1] not in WORD_CHARACTERS) and (not stem.isdigit() or _whole_number(lowered, at, len(stem))):
                    rest = at + len(stem)
                    while rest < len(lowered) and lowered[rest] in WORD_CHARACTERS:
                        rest += 1
                    if stem.isdigit() or rest - at - len(stem) <= ENDING_LETTERS:  # (a number: whole, as checked)
                        ideas[bisect_right(offsets, at) - 1] |= 1 << number
                at = lowered.find(stem, at + 1)
    # the ideas the heading says ("time" of Going to Time): every sentence of the clause is read under it, so a run that
    # says the question's other ideas comes first ("went to time and we're both on 12 power, who gets the win" showed the
    # worked example, "going to time ... 11 power ... 13 power", over the step on tied power: blind review r88 M3)
    titled = 0
    words_titled = {stem_of(w) for w in words_of(heading)} | set(words_of(heading))
    for number, idea in enumerate(stems):
        if any(w.startswith(stem) for stem in idea for w in words_titled):
            titled |= 1 << number
    if sentences and len(tokens) > width and (shown := _whole_sentences(tokens, ideas, groups, width, titled)):  # (shorter: all of it)
        return shown
    # the window (from a marked word) that says the most different ideas, then the most marked words, the
    # first such: counting marks alone chose "the attacker [wins] the [challenge]" over the sentence that
    # says what a [tie] is, the word the question turns on
    hits = [k for k, i in enumerate(ideas) if i]  # the marked tokens, in order
    best: tuple[int, int] = (-1, -1)
    start = 0
    for first, at in enumerate(hits):
        end = bisect_left(hits, at + width, first)  # the marks inside the window from ``at``
        score = (reduce(or_, map(ideas.__getitem__, hits[first:end])).bit_count(), end - first)
        if score > best:
            best, start = score, at
    start = min(start, max(0, len(tokens) - width))
    marked = hits[bisect_left(hits, start) : bisect_left(hits, start + width)]
    seen, last = 0, 0  # placed by the marks that say something new: a repeated word after them adds nothing
    for number, k in enumerate(marked):
        if ideas[k] & ~seen:
            seen, last = seen | ideas[k], number
    marked = marked[: last + 1]
    if marked:  # the first densest window ends on its last match: it shows a third of its slack before the
        # matches and the rest after them, where what the matched words say is read; or it starts at the
        # start of a sentence, the one nearest that, from which it still shows every match
        lead = (width - (marked[-1] - marked[0] + 1)) // 3
        start = min(max(0, marked[0] - lead), max(0, len(tokens) - width))
        opens = [k for k in range(max(0, marked[-1] + 1 - width), marked[0] + 1) if not k or tokens[k - 1].endswith(SENTENCE_ENDS)]
        start = min(opens, key=lambda k: (abs(k - start), k), default=start)
    end = min(len(tokens), start + width)
    # else a sentence that begins or ends a few words outside the window is shown whole, so the snippet
    # reads from a sentence's start to its end where one is that close ("… If the text of this" stopped
    # before what it said)
    opens_at = [k for k in range(start, max(0, start - SENTENCE_REACH) - 1, -1) if not k or tokens[k - 1].endswith(SENTENCE_ENDS)]
    closes_at = [k for k in range(end, min(len(tokens), end + SENTENCE_REACH) + 1) if tokens[k - 1].endswith(SENTENCE_ENDS)]
    begins, ends = (opens_at or [start])[0], (closes_at or [end])[0]
    start, end = begins, ends if begins == start or ends - begins <= width + SENTENCE_REACH else end
    window = [f"[{t}]" if ideas[k] else t for k, t in enumerate(tokens[start:end], start)]
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(tokens) else ""
    return prefix + " ".join(window) + suffix


@lru_cache(maxsize=2048)
def _sentences(tokens: tuple[str, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
    """A text's sentences, as the token ranges they span and their words (``words_of``, space-padded, for a phrase
    match); kept per text, as ``_tokens`` keeps its tokens."""
    spans, begin = [], 0
    for k, token in enumerate(tokens):
        if token.endswith(SENTENCE_ENDS) or k == len(tokens) - 1:
            spans.append((begin, k + 1))
            begin = k + 1
    return tuple(spans), tuple(f" {' '.join(words_of(' '.join(tokens[a:b])))} " for a, b in spans)


def _whole_sentences(tokens: tuple[str, ...], ideas: list[int], groups: list[set[str]], width: int, titled: int = 0) -> str:
    """The snippet as whole sentences: the run of sentences (``SNIPPET_WORDS`` at most) that says the most of the
    query's ideas besides those its heading says (``titled``, bits), then the most of them all, an idea counting twice
    where one of its phrases is written whole ("do not appear for a round"), then the most marked words, then the
    fewest words; then the sentences after it while the whole is within
    ``width``, where what the matched words say is read, and a sentence in parentheses that follows, which says what
    the one before means (``SENTENCE_REACH`` words past ``SNIPPET_WORDS`` at most: Intimidate's "(The chosen character
    is not required to be participating in the challenge.)", blind review r87 M1), and the text's last sentence where
    only it remains, within the same reach (an answer's conclusion: blind review r88 M2).  A window of words cut the
    sentence that answers: "If a
    tournament game goes to [time] with a player controlling [Tycho] at [15] or more [power,] that player's …"
    (blind review r79; the deciding sentence shown whole went from 55 % to 78 % of r79's questions and from 61 %
    to 79 % of the earlier reviews', at 46 words a snippet where 37 were).  "" where the best is one sentence
    longer than that (``snippet`` shows a window of it) or no sentence says an idea."""
    spans, texts = _sentences(tokens)
    # the Rules Reference's closing "Related: Ownership and Control, Save, Unique Cards" names other entries: it says
    # none of the query's ideas ("save" chose Duplicates' last sentences, and passed over the duplicate's save ability:
    # blind review r88 M1)
    related = next((n for n, (a, b) in enumerate(spans) if b - a == 1 and tokens[a] == RELATED), len(spans))
    said = [reduce(or_, ideas[a:b], 0) if n < related else 0 for n, (a, b) in enumerate(spans)]
    marks = [sum(1 for i in ideas[a:b] if i) if n < related else 0 for n, (a, b) in enumerate(spans)]
    distinct = [
        {stem_of(w) for k in range(a, b) if ideas[k] for w in words_of(tokens[k])} if said[n] else set()
        for n, (a, b) in enumerate(spans)
    ]
    phrases = [[f" {' '.join(words_of(t))} " for t in g if " " in t.strip()] for g in groups]
    whole = [0] * len(spans)
    if any(phrases):
        whole = [sum(1 << n for n, written in enumerate(phrases) if any(p in text for p in written)) for text in texts]
    best: tuple[int, int, int, int, int] | None = None
    chosen = (0, 0)
    for i in range(len(spans)):
        ideas_said = phrases_said = marked = 0
        stems_said: set[str] = set()
        for j in range(i, len(spans)):
            if j > i and spans[j][1] - spans[i][0] > SNIPPET_WORDS:
                break
            ideas_said, phrases_said, marked = ideas_said | said[j], phrases_said | whole[j], marked + marks[j]
            stems_said |= distinct[j]
            if not said[i] or not said[j]:  # (a run begins and ends on a sentence that says something)
                continue
            beyond = (ideas_said & ~titled).bit_count() + phrases_said.bit_count()
            score = (beyond, ideas_said.bit_count() + phrases_said.bit_count(), len(stems_said), marked, -(spans[j][1] - spans[i][0]))
            if best is None or score > best:
                best, chosen = score, (i, j)
    first, last = chosen
    if best is None or spans[last][1] - spans[first][0] > SNIPPET_WORDS:
        return ""
    while last + 1 < len(spans) and spans[last + 1][1] - spans[first][0] <= width:
        last += 1
    # a sentence in parentheses right after says what the one before it means ("(The chosen character is not required
    # to be participating in the challenge.)"): it goes with it, a few words past the bound
    while (
        last + 1 < len(spans) and tokens[spans[last + 1][0]].startswith("(")
        and spans[last + 1][1] - spans[first][0] <= SNIPPET_WORDS + SENTENCE_REACH
    ):  # fmt: skip
        last += 1
    # and the clause's one remaining sentence, a few words past the bound, closes it: an answer's conclusion comes last
    # ("An undefined X value defaults to 0, therefore The Hand's Judgment can be played for 0 gold.": blind review r88 M2)
    if last + 2 == len(spans) and spans[last + 1][1] - spans[first][0] <= SNIPPET_WORDS + SENTENCE_REACH:
        last += 1
    start, end = spans[first][0], spans[last][1]
    window = [f"[{t}]" if ideas[k] else t for k, t in enumerate(tokens[start:end], start)]
    return ("… " if start > 0 else "") + " ".join(window) + (" …" if end < len(tokens) else "")


def marked_tokens(shown: list[str], source: str | None) -> list[bool] | None:
    """Which of a snippet's tokens lookup marked, read against the text it was cut from (``source``): lookup writes a
    matched token as ``[token]``, and a text writes icons in brackets too ("military ([military]) challenge"), so the
    brackets alone cannot tell "[military]", the icon, from "[military]", the word matched.  The snippet's tokens are
    a run of the text's, each as it is or in brackets (the window's "…" aside).  None when they are not."""
    words = (source or "").split()
    lead = 1 if shown[:1] == ["…"] else 0
    tail = 1 if len(shown) > lead and shown[-1] == "…" else 0
    body = shown[lead : len(shown) - tail]
    for start in range(len(words) - len(body) + 1):
        here = words[start : start + len(body)]
        if all(t in (w, f"[{w}]") for t, w in zip(body, here, strict=True)):
            return [False] * lead + [t != w for t, w in zip(body, here, strict=True)] + [False] * tail
    return None


SNIPPET_EDGE = re.compile(r"^([\"'“‘(]*)(.*?)([.,;:!?\"'”’)]*)$", re.S)  # a marked token's quotes and stops stay unmarked


def marked_parts(token: str) -> tuple[str, str, str]:
    """A token lookup marked, less its brackets, as (leading quotes, word, trailing stops): the quotes and stops stay
    unmarked wherever the mark is drawn (the web page's highlight, the terminal's guillemets)."""
    edges = SNIPPET_EDGE.fullmatch(token)
    return whole_word(edges[1], edges[2], edges[3]) if edges and edges[2] else ("", token, "")


def whole_word(lead: str, word: str, tail: str) -> tuple[str, str, str]:
    """A marked token's (leading quotes, word, trailing stops), with a parenthesis the word opens or closes kept in it:
    "effect(s)" is one word, not "effect(s" and a stop, which marked it «effect(s») (blind review r88 L10)."""
    while word.count("(") > word.count(")") and tail.startswith(")"):
        word, tail = word + ")", tail[1:]
    while word.count(")") > word.count("(") and lead.endswith("("):
        lead, word = lead[:-1], "(" + word
    return lead, word, tail

# how a terminal shows a matched word: a mark no text writes, where brackets are the texts' icons ("[military]")
TERMINAL_MARK = ("«", "»")


def terminal_snippet(snippet: str, source: str | None) -> str:
    """A snippet as ``judgekb search`` prints it: each word lookup marked ``[like this]`` set in «guillemets», so a
    matched word is never mistaken for an icon the text writes in brackets: "for a single [[military]] challenge" read
    as two icons or two marks on a terminal (blind review r87 L3); it reads "for a single «[military]» challenge".  The
    marks are read against the text the snippet was cut from (``source``, as the web page reads them); a snippet not cut
    from it keeps its brackets as they are."""
    shown = snippet.split(" ")
    marks = marked_tokens(shown, source) if source else None
    if marks is None:
        return snippet

    def marked(token: str) -> str:
        lead, word, tail = marked_parts(token)
        return f"{lead}{TERMINAL_MARK[0]}{word}{TERMINAL_MARK[1]}{tail}"

    return " ".join(marked(t[1:-1]) if flag else t for t, flag in zip(shown, marks, strict=True))


SNIPPET_WORDS = 56  # the most words of whole sentences a snippet shows (a longer sentence: a window of it)
SENTENCE_REACH = 8  # words a snippet may reach past its window, either side, to show a sentence whole
SENTENCE_ENDS = (".", "?", "!", ":", ".)", ".”", '."', "?”", '?"')
RELATED = "Related:"  # a Rules Reference entry's last line: the entries it names follow


def spells_title(key: tuple[frozenset[str], str], stems: frozenset[str] | set[str], text: str) -> bool:
    """Do these stemmed words (``text``: the same, in order) spell a card's title by one of its keys
    (``Index._card_keys``): every required word, and the whole phrase where the title needs it?"""
    required, phrase = key
    if not required <= stems:
        return False
    if phrase:
        return re.search(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])", text) is not None
    return len(required) < 2 or written_together(required, text.split())


# the words a title's words may have between them as a player writes it: small words ("milk of poppy",
# "the hand's judgment"), stemmed as the query's words are
TITLE_FILLER = frozenset(STOPWORDS | {stem_of(w) for w in STOPWORDS} | {"no", "not", "all", "then", "one"})


def written_together(required: frozenset[str], stems: list[str]) -> bool:
    """Are a title's words written together, in one run of the query with no other word but small ones between
    them?  Words gathered from other names do not spell it ("Blood of the Dragon ... Risen from the Sea" is not
    Sea of Blood: blind review r87 M4)."""
    run: set[str] = set()
    for stem in stems:
        if stem in required:
            run.add(stem)
            if run == required:
                return True
        elif stem not in TITLE_FILLER:
            run = set()
    return False


def editions_shown(editions: list[int]) -> str:
    """With no edition chosen, results of both editions: which are which, and which to choose.  The two
    editions' rules differ ("bounce a card back to hand does it keep attachments": first edition's
    Attachments says they are discarded, second edition's Attachment Cards that they return to their
    owner's hand), and a hit's edition is only a badge on it.  Worded for the command line and the page
    alike (no option to type), as one line; "" when the results are of one edition."""
    numbers = {edition: [n for n, e in enumerate(editions, 1) if e == edition] for edition in (1, 2)}
    if not numbers[1] or not numbers[2]:
        return ""

    def listed(found: list[int]) -> str:
        runs: list[list[int]] = []
        for number in found:  # runs of three or more as a range: "6-10"
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)

    first = f"results {listed(numbers[1])} are" if len(numbers[1]) > 1 else f"result {numbers[1][0]} is"
    # (hyphens, not dashes: the API sends notes in a Latin-1 header too)
    return (
        f"both editions searched: {first} first edition (the LCG, 2008-2015), {listed(numbers[2])} second edition "
        "(played today): choose the edition to search (second for today's game)"
    )


# How a folded clause stands to the hit it is folded under, as the CLI, the page and app.js say it: the
# hit supersedes FAQ v2.3's entry, a "See …" entry points to the hit, an unofficial copy restates it.
FOLDED_SAID = {"superseded": "supersedes", "redirects": "pointed to by"}
FOLDED_OTHERWISE = "restated in"


def folded_said(relation: str) -> str:
    """What a hit's folded line says of the clause folded under it ("supersedes: … v2.3 …")."""
    return FOLDED_SAID.get(relation, FOLDED_OTHERWISE)


def results(
    index: Index, query: str, edition: int | None = None, kinds: list[str] | None = None, limit: int = 10, sentences: bool = True
) -> tuple[list[dict[str, Any]], list[str]]:
    """The JSON contract: ``id, citation, edition, kind, heading, text, score`` (+ question — a Q&A entry's
    question, which its heading may only name —, snippet, folded, unofficial, superseded_by — the clause
    in force, when the hit is an entry a later version removed —, superseded_by_citation, its citation,
    amends — what an erratum of a document not in the corpus corrects, and whether the corpus's copy reads so —,
    and parts — the steps printed under a hit that is only a title, as ``{id, heading}``)."""
    hits, notes, groups = index.ranked(query, edition, kinds, limit)
    if not hits:
        return [], notes
    # (``amends``: an erratum of a document the corpus does not hold, the printed Rules Reference: what it
    # corrects, and whether the corpus's copy already reads so, from its link's note; the erratum's own words
    # name only a page)
    rows = {
        r[0]: dict(zip(("id", "citation", "edition", "kind", "heading", "text", "amends", "glyphs"), r, strict=True))
        for r in index.rows(
            "select id, citation, edition, kind, heading, text, (select reason from links where type = 'supersedes'"
            " and dst like 'absent:%' and src = clauses.id), json_extract(data, '$.glyphs')"
            f" from clauses where id in ({','.join('?' * len(hits))})",
            [h.id for h in hits],
        )
    }
    successors = [h.superseded_by for h in hits if h.superseded_by]
    # the clause in force is named by its citation where the hit is shown ("see agot2-faq41/…" reads as nothing aloud)
    in_force: dict[str, str] = {}
    if successors:
        in_force = dict(index.rows(f"select id, citation from clauses where id in ({','.join('?' * len(successors))})", successors))
    out = []
    stems = idea_stems(groups)
    for hit in hits:
        row = rows[hit.id]
        amends = row.pop("amends") or ""
        glyphs = json.loads(row.pop("glyphs") or "[]")
        if glyphs:  # (17 clauses of first edition: the import, yaml and all, is no cost to every cold search)
            from judgekb.corpus.glyphs import glyph_note
        # a title with no text of its own ("7. Taxation phase") is shown with the steps printed under it
        title_only = words_of(row["text"] or "") == words_of(row["heading"] or "")
        parts = [{"id": p["id"], "heading": p["heading"]} for p in store.parts(index.conn, hit.id)] if title_only else []
        question = question_of(row["kind"], row["heading"] or "", row["text"] or "")
        answer = row["text"][len(question) :].strip() if question and row["text"].startswith(question) else row["text"]
        shown = snippet(answer or row["text"], groups, stems=stems, sentences=sentences, heading=row["heading"] or "")
        out.append(
            {
                **row,
                "score": round(hit.score, 4),
                "question": question,
                "snippet": shown,
                # a flattened PDF's icon the snippet shows ("|", the Shadows crest), said as `show` says it (r79 L3)
                "glyph_notes": [glyph_note(g) for g in glyphs if g.get("glyph") and g["glyph"] in shown],
                "folded": hit.folded,
                "unofficial": hit.unofficial,
                "superseded_by": hit.superseded_by,
                "superseded_by_citation": in_force.get(hit.superseded_by, ""),
                "amends": amends,
                "parts": parts,
            }
        )
    return out, notes
