"""The clauses that write a card's title as a name, with no printing code beside it.

The corpus links a card to the clauses that cite a printing of it ("Master of Whispers (Core,
206)") or whose list and errata entries name it (``corpus_cards``).  The rules also name cards
by title alone: the second-edition Rules Reference's title cards ("The Crown Regent contributes
2 additional STR …") and Redirect ("The Crown Regent title card can be used to redirect …").  A
card page, and a card look-up that opens no page, read those here.

A clause writes a title when its heading or text has the title's words as the title prints them
(the capitals say it is a name: "the crown" is not The Crown), its leading "The", "A" or "An"
written or not, and the name ends there ("Iron Throne Edition", "A Game of Thrones Living Card
Game" are other names).  A name the corpus uses for something else is not read as the card:

* a title of one word once its article is gone ("Ghost", "The Knight"): the rules write traits,
  keywords and everyday words so;
* a title inside a longer title or set name of the edition ("Red Keep" in "Tunnels of the Red
  Keep"), and a set's name in a card reference ("(Calm Over Westeros, 92)");
* a title that is a set's name ("A Song of Summer", a chapter pack), or part of a document's
  title (the game's: "A Game of Thrones");
* a title that heads one of the edition's rules (first edition's title figures "Hand of the King",
  "Lord Commander of the Kingsguard": rules of their own, not the cards of those names);
* a House card's title (first edition's "House Stark"): the rules name the faction by it.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from judgekb import store
from judgekb.cards.cardnames import SMALL_WORDS

ARTICLE = re.compile(r"^(?:the|a|an)\s+(?=\S)", re.IGNORECASE)
QUOTES = re.compile(r"[\"“”*]")
# a card reference's parenthesis, whose set name is not the card: "(Core, 143)", "(DotN F117)", "(F15 A Song of the Sea)"
REFERENCE = re.compile(r"\((?:[^()]*?,\s*\d{1,3}|[^()]*?\s[A-Z]{0,2}\d{1,3}|[A-Z]\d{1,3}\s[^()]*?)\)")
NAME_CHAR = r"[\w'’]"
# the name goes on: a capitalised word next, with or without small words between ("A Song of Ice and Fire")
GOES_ON = r"(?:[ \t]+(?:of|the|and|of the)?[ \t]*[A-Z0-9])"
RULE_KINDS = ("rules", "section", "summary", "definition", "regulation")  # a clause headed by a name is that rule's term
NOT_READ = ("preamble",)  # a document's front matter and product blurbs (first edition's chapter packs): no rule names a card there
CACHE = 4  # database states whose exclusions are kept


def _plain(text: str) -> str:
    """Apostrophe, quote and emphasis shapes made one."""
    return unicodedata.normalize("NFC", QUOTES.sub("", text.replace("’", "'").replace("‘", "'")))


def bare_title(title: str) -> str:
    """The title as the rules may write it without its article: "The Iron Fleet" -> "Iron Fleet"."""
    return ARTICLE.sub("", " ".join(_plain(title).split()))


@lru_cache(maxsize=4096)  # (a card page asks twice for its title's; re's own cache keeps 512 of the ~3,500 titles)
def pattern(title: str) -> re.Pattern[str]:
    """The title written as a name: its own capitals, any spacing, its article optional, the name ending there."""
    words = [re.escape(w) for w in bare_title(title).split()]
    return re.compile(rf"(?<!{NAME_CHAR})(?:(?i:the|a|an)\s+)?" + r"\s+".join(words) + rf"(?!\w)(?!{GOES_ON})")


@dataclass(frozen=True)
class Names:
    """One edition's names that are not a card's when written alone: titles and sets, and the words ruled out."""

    documents: tuple[str, ...]  # the edition's documents' titles
    headings: frozenset[str]  # bare headings of the edition's rules clauses, casefolded
    houses: frozenset[str]  # bare titles of imported House cards, casefolded
    # worked out once per database state, not per card page:
    bare: tuple[tuple[str, str], ...]  # every card title (corpus cards and imported ones) and set name, and it without its article
    bare_sets: frozenset[str]  # the set names (the corpus's printings' and the imported cards') without their article
    terms: frozenset[str]  # the terms the headings name, each part of one naming several ("First Player, First Player Token")


_NAMES: OrderedDict[tuple[Any, ...], dict[int, Names]] = OrderedDict()
_LOCK = threading.Lock()


def names(db: Any, edition: int) -> Names:
    """The edition's names (see ``Names``), read once per database state."""
    from judgekb.cards import cardnames

    stamp = cardnames._stamp(db)
    with _LOCK:
        if stamp not in _NAMES:
            titles = cardnames.index(db)
            _NAMES[stamp] = {ed: _read(db, ed, titles[ed].names if ed in titles else []) for ed in (1, 2)}
            while len(_NAMES) > CACHE:
                _NAMES.popitem(last=False)
        return _NAMES[stamp][edition]


def _read(db: Any, edition: int, titles: list[str]) -> Names:
    imported = db["imported_cards"].exists()
    cited = 'select distinct p."set" from card_printings p join cards c on c.id = p.card where c.edition = ?'
    sets = {r["set"] for r in db.query(cited, [edition])}
    houses: set[str] = set()
    if imported:
        sets |= {r["set"] for r in db.query('select distinct "set" from imported_cards where edition = ?', [edition])}
        house_cards = "select distinct name from imported_cards where edition = ? and lower(type) = 'house'"
        houses = {bare_title(r["name"]).casefold() for r in db.query(house_cards, [edition])}
    kinds = ", ".join("?" * len(RULE_KINDS))
    headings = db.query(f"select distinct heading from clauses where edition = ? and kind in ({kinds})", [edition, *RULE_KINDS])
    set_names = tuple(sorted(s for s in sets if s))
    bare_headings = frozenset(bare_title(r["heading"] or "").casefold() for r in headings)
    return Names(
        documents=tuple(r["title"] for r in db.query("select title from documents where edition = ?", [edition])),
        headings=bare_headings,
        houses=frozenset(houses),
        bare=tuple((t, bare_title(t)) for t in dict.fromkeys((*titles, *set_names))),
        bare_sets=frozenset(bare_title(s) for s in set_names),
        terms=bare_headings | {part.strip() for heading in bare_headings for part in heading.split(",")},
    )


def counts(title: str, known: Names) -> bool:
    """Can the rules be read as naming the card when they write this title (see the module docstring)?"""
    bare = bare_title(title)
    if len(bare.split()) < 2 or bare.casefold() in known.headings or bare.casefold() in known.houses:
        return False
    mine = pattern(title)
    return bare not in known.bare_sets and not any(mine.search(_plain(d)) for d in known.documents)


def _longer(title: str, known: Names) -> list[str]:
    """The edition's other titles and set names that hold this title's words ("Tunnels of the Red Keep" for "The Red Keep")."""
    inner, mine = pattern(title), bare_title(title)
    return sorted({t for t, bare in known.bare if bare != mine and inner.search(bare)}, key=len, reverse=True)


def writes(text: str, title: str, longer: Iterable[str] = ()) -> bool:
    """Does the text write the title as a name (not inside a longer name, not as a set in a card reference)?"""
    plain = REFERENCE.sub(" ", _plain(text))
    for other in longer:
        plain = re.compile(r"\s+".join(re.escape(w) for w in bare_title(other).split())).sub(" ", plain)
    return bool(pattern(title).search(plain))


def _candidates(db: Any, name: str, editions: list[int]) -> list[dict[str, Any]]:
    """The clauses of ``editions`` (rules, not front matter) whose heading or text has the name's words, as FTS5 matches them."""
    phrase = " ".join(re.findall(r"\w+", bare_title(name)))
    if not phrase:
        return []
    rows = store.clauses_writing(db, phrase, tuple(editions), tuple(NOT_READ))
    return [{"id": i, "edition": e, "heading": h, "text": t} for i, e, h, t in rows]


def _in_order(db: Any, found: set[str]) -> list[str]:
    """The clause ids in document order."""
    if not found:
        return []
    sql = "select id from clauses where id in (select value from json_each(?)) order by doc, seq"
    return [r["id"] for r in db.query(sql, [json.dumps(sorted(found))])]


def clauses_writing(db: Any, titles: list[str], edition: int) -> list[str]:
    """The ids of the edition's clauses (in document order) whose heading or text writes one of ``titles`` (a card's
    title and its other printed spellings) as a name that can be the card's."""
    known = names(db, edition)
    found: set[str] = set()
    for title in dict.fromkeys(titles):
        if not counts(title, known):
            continue
        rows = _candidates(db, title, [edition])
        longer = _longer(title, known) if rows else []  # (read only where a clause may write it: a card page per title)
        for row in rows:
            if row["id"] not in found and writes(f"{row['heading'] or ''}\n{row['text'] or ''}", title, longer):
                found.add(row["id"])
    return _in_order(db, found)




def _rules_term(db: Any, name: str, edition: int) -> bool:
    """Is the name a term one of the edition's rules is headed by ("First Player"), and no card's title in either
    edition (first edition's rule "Crown Regent" is the title card's name all the same)?"""
    bare = bare_title(name).casefold()
    if bare not in names(db, edition).terms:
        return False
    return not any(bare == b.casefold() for ed in (1, 2) for _, b in names(db, ed).bare)


def clauses_naming(db: Any, typed: str, editions: list[int]) -> tuple[str, list[str]]:
    """A typed name that opens no card page, as the corpus writes it ("crown regent" -> "Crown Regent") and the
    clauses that write it as a name (two words or more, capitalised, not inside a longer title or set name), in
    document order; ("", []) when none does.  It says where the corpus names it, not which card it is."""
    words = bare_title(typed).split()
    if len(words) < 2:
        return "", []
    spelled = re.compile(r"(?<![\w'])" + r"[\W_]+".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE)
    found: set[str] = set()
    headed: set[str] = set()  # the clauses headed by the name (first edition's rule "Crown Regent") come first
    written = ""
    for row in _candidates(db, typed, editions):
        if spelled.fullmatch(bare_title(row["heading"] or "")):
            headed.add(row["id"])
        text = f"{row['heading'] or ''}\n{row['text'] or ''}"
        for hit in spelled.finditer(_plain(text)):
            name = hit.group(0)
            # a name: capitalised at both ends, small words between ("of the King" is not one), and not the heading of
            # one of the edition's rules ("First Player", "Challenges Phase": rules terms, no card's name; review r78 M2)
            said = name.split()
            if not all(w[0].isupper() or w.casefold() in SMALL_WORDS for w in said) or not (said[0][0].isupper() and said[-1][0].isupper()):
                continue
            if _rules_term(db, name, row["edition"]):
                continue
            if writes(text, name, _longer(name, names(db, row["edition"]))):
                found.add(row["id"])
                written = written or name
                break
    ordered = _in_order(db, found)
    return written, [c for c in ordered if c in headed] + [c for c in ordered if c not in headed]
