"""Which card a typed name means: the one lookup behind ``judgekb card`` and the ``/card`` page.

A judge types a name at a table, often without its apostrophes, its leading "The" or its
hyphens, sometimes with a typo.  Opening the wrong card's page is worse than opening none (the
judge would read another card's text and list status), so a name opens a page only when it is
the same name or unmistakably a typo of one title:

1. exact: the card's key (``normalise_name``: case, quote and apostrophe shapes) or a printed spelling;
2. same name: the loose key (``loose_key``: ``corpus_cards.bare_name``, the key lookup's notes
   match titles by, without accents or a leading the/a/an; a possessive "'s" may be typed as "s",
   "'" or left out) names exactly one card in that edition;
3. near: ``fuzz.ratio`` between loose keys (plain edit similarity: a short title inside a longer
   query scores low, unlike ``WRatio``'s partial matching, which opened Sea of Blood for "tunels
   of the red keep") is at least ``OPEN_SCORE`` for one title and at least ``OPEN_MARGIN`` below
   it for every other; the page then says which title it shows for the typed name;
4. otherwise nothing opens, and ``near`` lists the likely titles, those whose words start with
   the typed words first ("tyrion" -> Tyrion Lannister, Tyrion's Chain).

The titles of both sources (cards the corpus names, imported card data) are indexed once per
database state and reused, so a look-up costs two small fuzzy scans, not a table read.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import unicodedata
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz import fuzz, process

from judgekb import store
from judgekb.cards.corpus_cards import bare_name, normalise_name

OPEN_SCORE = 90.0  # fuzz.ratio (0-100) between loose keys: about one character in ten differs, at most
OPEN_MARGIN = 8.0  # ...and every other title of the edition scores this much lower: no coin-toss between two cards
NEAR_LIMIT = 8  # titles offered when no page opens
NEAR_POOL = 60  # candidates of each scan re-ranked for the offer
NEAR_SCORE = 60.0  # fuzz.ratio a title needs to be offered at all (below, the offer is noise)
WORD_SCORE = 75.0  # fuzz.ratio between a typed word and a title's word for a typo of it ("rob"/"robb", "lanister"/"lannister")
SMALL_WORDS = frozenset({"of", "the", "a", "an", "and", "in", "to", "by", "or", "on", "with", "from", "at", "for"})
INSIDE_SCORE = 85.0  # fuzz.partial_ratio for the typed text found inside a longer title
INDEX_CACHE = 4  # databases whose title index is kept (a server has one; tests build several)

# imported printings, the one a judge means first: a core printing, then by code, a draft set's (code 00…, "Draft
# format only") last (the card page showed Robb Stark's Tower of Joy Draft Set printing as its printed text)
PRINTING_ORDER = "code like 'core%' desc, code like '01%' desc, code like '00%', code"
How = Literal["exact", "same name", "near"]
APOSTROPHES = re.compile(r"[’‘`´']")
POSSESSIVE = re.compile(r"(?<=\w)'s\b", re.IGNORECASE)
ARTICLE = re.compile(r"^(?:the|a|an) (?=\S)")


def loose_key(name: str) -> str:
    """The name as a judge might type it: ``bare_name`` (no apostrophes, punctuation a space) without accents or a leading article."""
    text = unicodedata.normalize("NFKD", APOSTROPHES.sub("'", name))
    return ARTICLE.sub("", bare_name("".join(c for c in text if not unicodedata.combining(c))))


def title_keys(name: str) -> set[str]:
    """Every loose key a title answers to: each possessive "'s" typed as "s" or left out ("Varys's" -> varyss, varys)."""
    parts = POSSESSIVE.split(APOSTROPHES.sub("'", name))
    keys = set()
    for ends in itertools.product(("s", ""), repeat=len(parts) - 1):
        keys.add(loose_key("".join(part + end for part, end in itertools.zip_longest(parts, ends, fillvalue=""))))
    return keys - {""}


@dataclass(frozen=True)
class Title:
    """A card page that can be opened: a card the corpus names, or an imported title it never mentions."""

    edition: int
    name: str  # the title the page shows
    key: str  # normalise_name key: imported printings join the page on it
    card_id: str | None  # the corpus card, or None for an imported-only title


@dataclass
class EditionIndex:
    """One edition's titles, by exact key, by loose key and as a list for fuzzy scans."""

    exact: dict[str, list[Title]] = field(default_factory=dict)
    loose: dict[str, list[Title]] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)  # loose keys, one per (title, key) pair
    owners: list[Title] = field(default_factory=list)  # the title each entry of ``keys`` belongs to
    names: list[str] = field(default_factory=list)  # the titles, for the near-title offer
    name_keys: list[str] = field(default_factory=list)  # their loose keys

    def add(self, title: Title, spellings: list[str]) -> None:
        for spelling in [title.name, *spellings]:
            _append(self.exact, normalise_name(spelling), title)
            for key in title_keys(spelling):
                _append(self.loose, key, title)
                self.keys.append(key)
                self.owners.append(title)
        self.names.append(title.name)
        self.name_keys.append(loose_key(title.name))


def _append(index: dict[str, list[Title]], key: str, title: Title) -> None:
    found = index.setdefault(key, [])
    if title not in found:
        found.append(title)


@dataclass
class Match:
    """A page a typed name opens, and how it was reached (the page says so when it was a near title)."""

    title: Title
    how: How
    score: float  # fuzz.ratio of the loose keys; 100 for exact and same-name matches


@dataclass
class Resolution:
    """What a typed name opens: matches (pages to show) or, failing that, near titles to offer."""

    query: str
    matches: list[Match]
    near: list[str]


_INDEXES: OrderedDict[tuple[Any, ...], dict[int, EditionIndex]] = OrderedDict()
_INDEXES_LOCK = threading.Lock()  # the web server answers on several threads


_STAMPS: weakref.WeakKeyDictionary[Any, tuple[Any, ...]] = weakref.WeakKeyDictionary()


def _stamp(db: Any) -> tuple[Any, ...]:
    """Changes when the database is rebuilt or cards are imported (then the index is rebuilt).  Read once per
    read-only connection (store.unchanging): counting the imported cards is a scan, and every card page asks
    twice (the offline copy renders some 3,500 of them)."""
    if not store.unchanging(db):
        return _read_stamp(db)
    stamp = _STAMPS.get(db)
    if stamp is None:
        stamp = _STAMPS[db] = _read_stamp(db)
    return stamp


def _read_stamp(db: Any) -> tuple[Any, ...]:
    path = next((r["file"] for r in db.query("pragma database_list") if r["name"] == "main"), "")
    built = next(db.query("select value from meta where key = 'built'"), {"value": ""})["value"] if db["meta"].exists() else ""
    cards = next(db.query("select count(*) as n, max(rowid) as r from cards"))
    imported = next(db.query("select count(*) as n, max(rowid) as r from imported_cards")) if db["imported_cards"].exists() else {}
    return (path or id(db), built, cards["n"], cards["r"], imported.get("n"), imported.get("r"))


def index(db: Any) -> dict[int, EditionIndex]:
    """Both editions' titles, built once per database state."""
    stamp = _stamp(db)
    with _INDEXES_LOCK:
        if stamp in _INDEXES:
            _INDEXES.move_to_end(stamp)
            return _INDEXES[stamp]
        built = _build(db)
        _INDEXES[stamp] = built
        while len(_INDEXES) > INDEX_CACHE:
            _INDEXES.popitem(last=False)
        return built


def _build(db: Any) -> dict[int, EditionIndex]:
    out = {1: EditionIndex(), 2: EditionIndex()}
    corpus_keys: set[tuple[int, str]] = set()
    for row in db.query("select id, edition, name, key, spellings from cards order by edition, id"):
        title = Title(row["edition"], row["name"], row["key"], row["id"])
        out.setdefault(row["edition"], EditionIndex()).add(title, json.loads(row["spellings"] or "[]"))
        corpus_keys.add((row["edition"], row["key"]))
    if db["imported_cards"].exists():
        # one title per key; of its spellings the one without quotes, then the first (they differ only in case or quotes)
        sql = "select distinct edition, key, name from imported_cards order by edition, key, instr(name, '\"') > 0, name"
        rows = db.query(sql)
        for (edition, key), group in itertools.groupby(rows, key=lambda r: (r["edition"], r["key"])):
            if (edition, key) in corpus_keys:
                continue  # the corpus card's page already shows the imported printings
            names = [r["name"] for r in group]
            out.setdefault(edition, EditionIndex()).add(Title(edition, names[0], key, None), names[1:])
    return out


def _near_match(idx: EditionIndex, query_key: str) -> tuple[list[Match], list[Title]]:
    """The one title the query is unmistakably a typo of, or none and the close contenders."""
    best: dict[Title, float] = {}
    for _, score, at in process.extract(query_key, idx.keys, scorer=fuzz.ratio, limit=None, score_cutoff=OPEN_SCORE - OPEN_MARGIN):
        owner = idx.owners[at]
        best[owner] = max(score, best.get(owner, 0.0))
    ranked = sorted(best.items(), key=lambda item: -item[1])
    if ranked and ranked[0][1] >= OPEN_SCORE and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= OPEN_MARGIN):
        # "knights", "tywins", "bitter": the start of other titles ("Knights of the Sun", "Tywin's
        # Stratagem") one letter from a short title ("The Knight", "The Twins", "Biter"): ask
        started = [t for t in _started(idx, query_key) if t != ranked[0][0]]
        if not started:
            return [Match(ranked[0][0], "near", round(ranked[0][1], 1))], []
        return [], [ranked[0][0], *started]
    return [], [title for title, _ in ranked if _words_close(query_key.split(), loose_key(title.name))]


def _started(idx: EditionIndex, query_key: str) -> list[Title]:
    """Titles in which every typed word begins a word of the title (what a judge typing its start has typed)."""
    words = query_key.split()
    found = (idx.owners[at] for at, key in enumerate(idx.keys) if all(any(k.startswith(w) for k in key.split()) for w in words))
    return list(dict.fromkeys(found))


def nicknamed(db: Any, name: str) -> str | None:
    """The name with the words players call a card by read as its title's words ("ned stark" -> "eddard stark";
    corpus/card-aliases.yaml's nicknames, as search reads them), or None when it has none."""
    if not db["search_meta"].exists():
        return None
    row = next(iter(db.query("select value from search_meta where key = 'nicknames'")), None)
    nicknames: dict[str, str] = json.loads(row["value"]) if row else {}
    words = loose_key(name).split()
    if not any(w in nicknames for w in words):
        return None
    return " ".join(nicknames.get(w, w) for w in words)


def resolve(db: Any, name: str, edition: int | None) -> Resolution:
    """The pages a typed card name opens, or the titles to offer instead (see the module docstring).  A name players
    call a card by is read as its title's words (a blind review: "ned stark" found nothing)."""
    typed = _resolve(db, name, edition)
    read = nicknamed(db, name) if not typed.matches else None
    if not read:
        return typed
    as_read = _resolve(db, read, edition)
    if as_read.matches:  # shown as for a near name: the page says which title it shows for what was typed
        return Resolution(name, [Match(m.title, "near", 100.0) for m in as_read.matches], as_read.near)
    return Resolution(name, [], _unique(as_read.near + typed.near)[:NEAR_LIMIT])


def _resolve(db: Any, name: str, edition: int | None) -> Resolution:
    titles = index(db)
    editions = [edition] if edition else sorted(titles)
    exact_key, query_key = normalise_name(name), loose_key(name)
    same: list[Match] = []
    for ed in editions:
        idx = titles.get(ed, EditionIndex())
        hits = idx.exact.get(exact_key)
        if hits:
            same += [Match(t, "exact", 100.0) for t in hits]
        elif len(idx.loose.get(query_key, [])) == 1:
            same.append(Match(idx.loose[query_key][0], "same name", 100.0))
    if same:
        return Resolution(name, same, [])
    near: list[Match] = []
    contenders: list[Title] = []
    for ed in editions:
        idx = titles.get(ed, EditionIndex())
        contenders += idx.loose.get(query_key, [])  # two cards with this name once punctuation is gone: ask
        if query_key and query_key not in idx.loose:
            found, close = _near_match(idx, query_key)
            near += found
            contenders += close
    # with no edition chosen, two editions' near titles must be the same title to open
    if near and not contenders and len({loose_key(m.title.name) for m in near}) == 1:
        shown = {m.title.name for m in near}  # beside the page, the other titles it might have been
        return Resolution(name, near, [n for n in near_titles(titles, query_key, editions) if n not in shown][:NEAR_LIMIT])
    offer = [t.name for t in contenders] + [m.title.name for m in near]
    return Resolution(name, [], _unique(offer + near_titles(titles, query_key, editions))[:NEAR_LIMIT])


def near_titles(titles: dict[int, EditionIndex], query_key: str, editions: list[int]) -> list[str]:
    """Titles to offer, best first: those whose words start with the typed words (titles that start so first), then the closest.

    Close is edit similarity, or the typed text found inside a longer title ("tyrion" in Tyrion
    Lannister); never a short title found inside the typed text (which offered Sea of Blood).
    """
    if not query_key:
        return []
    words = query_key.split()
    scores: dict[str, tuple[int, int, float]] = {}
    for ed in editions:
        idx = titles.get(ed, EditionIndex())
        close = process.extract(query_key, idx.name_keys, scorer=fuzz.ratio, limit=NEAR_POOL, score_cutoff=NEAR_SCORE)
        found = [(score, at) for _, score, at in close]
        inside = process.extract(query_key, idx.name_keys, scorer=fuzz.partial_ratio, limit=NEAR_POOL, score_cutoff=INSIDE_SCORE)
        found += [(0.9 * score, at) for _, score, at in inside if len(idx.name_keys[at]) > len(query_key)]
        for score, at in found:
            if not _words_close(words, idx.name_keys[at]):
                continue
            starts = all(any(t.startswith(w) for t in idx.name_keys[at].split()) for w in words)
            rank = (0 if starts else 1, 0 if idx.name_keys[at].startswith(query_key) else 1, -score)
            name = idx.names[at]
            scores[name] = min(rank, scores.get(name, rank))
    return sorted(scores, key=lambda name: (scores[name], name))


def _words_close(typed: list[str], title_key: str) -> bool:
    """Is every word typed (small words aside) the start of a word of the title, or one typo from one?  A
    title close only letter for letter is not what was typed: "crown regent" offered The Iron Fleet, and
    "hand of the king" The Lord of the Crossing, for the letters and the "of the" they share (review r74, M5)."""
    said = [w for w in typed if w not in SMALL_WORDS] or typed
    title = title_key.split()
    if all(any(t.startswith(w) or fuzz.ratio(w, t) >= WORD_SCORE for t in title) for w in said):
        return True
    # a title of several words typed as one ("theironfleet", review r78 L2): close letter for letter to the title's
    # words run together ("master of ships", typed with its spaces, is no Master of Whispers)
    return len(typed) == 1 and len(title) > 1 and fuzz.ratio(typed[0], "".join(title)) >= WORD_SCORE


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))
