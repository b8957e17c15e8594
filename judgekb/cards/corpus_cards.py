"""Cards named in the corpus: a card table built from every card reference in the text.

References look like "Val (DotN F117)", "Catelyn Stark (CORE S6)", "Captain Groleo (F15 A Song
of the Sea)" in the 1st edition and "Catelyn Stark (Core, 143)", "Hot Pie (*Westeros*, 57)" in
the 2nd.  Set spellings are normalised through ``corpus/sets.yaml``; a parenthesis whose "set"
is not a known set is not a card reference.  Errata, restricted-list and list-change clauses
name their card in their data, so every one of them reaches the card table too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekb import yamlio
from judgekb.corpus.model import Clause
from judgekb.corpus.parsers.linemap import slug

PAREN = re.compile(r"\(([^()]{2,60})\)")
ED1_SET_FIRST = re.compile(r"^(?P<set>[A-Za-z&'’ ]+?) (?P<number>[A-Z]{0,2} ?\d{1,3})$")
ED1_NUMBER_FIRST = re.compile(r"^(?P<number>[A-Z]\d{1,3}) (?P<set>[A-Za-z&'’ ]+)$")
ED2_REF = re.compile(r"^\*?(?P<set>[^*,()]+?)\*?, (?P<number>\d{1,3})$")
NAME_WORD = re.compile(r"^(?:[A-Z0-9\"“][\w'’\-\".!”]*|of|the|a|an|and|in|to|by|or|on|with|from|at|for|o'|mo|zo|H'ghar)$")
QUESTION_WORDS = {
    "Does",
    "Do",
    "If",
    "When",
    "Can",
    "How",
    "Is",
    "What",
    "Could",
    "Which",
    "Why",
    "Would",
    "Example:",
    "For",
    "Then",
    "Since",
    "Both",
    "As",
    "While",
    "My",
    "Note",
    "Yes.",
    "No.",
}
LEADING = {"of", "the", "a", "an", "and", "in", "to", "by", "or", "on", "with", "from", "at", "for"}


def normalise_name(name: str) -> str:
    """The key a card name is compared by: quotes, emphasis and apostrophe shapes removed."""
    name = name.replace("’", "'").replace("*", "").replace("“", "").replace("”", "").replace('"', "")
    name = re.sub(r"'s$", "", name.strip())
    return " ".join(name.split()).casefold()


PUNCTUATION = re.compile(r"[\W_]+")  # what the loose key reads as a space


def bare_name(name: str) -> str:
    """A looser key, for names as players type them: the normalised name without apostrophes and with
    every other run of punctuation a space ("jaqen hghar" for Jaqen H'ghar, "newly made lord" for
    Newly-Made Lord, "family duty honor" for "Family, Duty, Honor")."""
    return " ".join(PUNCTUATION.sub(" ", normalise_name(name).replace("'", "")).split())


@dataclass
class SetIndex:
    """Set spellings of one edition mapped to a canonical slug and name."""

    edition: int
    by_alias: dict[str, dict[str, Any]] = field(default_factory=dict)

    def resolve(self, spelling: str) -> dict[str, Any] | None:
        key = spelling.replace("’", "'").strip().casefold()
        return self.by_alias.get(key)


def load_sets(path: Path) -> dict[int, SetIndex]:
    data = yamlio.read_data(path)
    out = {}
    for edition, key in ((1, "edition1"), (2, "edition2")):
        index = SetIndex(edition)
        for entry in data.get(key, []):
            for alias in [entry["slug"], entry["name"], *entry.get("aliases", [])]:
                index.by_alias[str(alias).replace("’", "'").casefold()] = entry
        out[edition] = index
    return out


@dataclass(frozen=True)
class Reference:
    name: str
    set: str  # canonical set name
    set_slug: str
    number: str  # "" where the reference names the product alone ("Jon Snow (Core Set)")


def _name_before(text: str, end: int, players: frozenset[str] = frozenset()) -> str:
    """The card name printed just before a parenthesis: the run of title-case words."""
    words = text[:end].rstrip().split(" ")
    taken: list[str] = []
    for word in reversed(words):
        if not word or not NAME_WORD.match(word.strip("*")) or word.endswith((",", ";", ".", ":")) and taken:
            break
        taken.insert(0, word.strip("*"))
    # a name quoted with its reference, as written on a deck list: "Jon Snow (Core Set)" (a title in quotes of its
    # own, “A Cask of Ale” (Fury of the Storm, 23), is the card's printed title, quotes and all: not read here)
    if taken and taken[0].startswith(('"', "“")) and not taken[-1].endswith(('"', "”")):
        taken[0] = taken[0].lstrip('"“')
    while taken and (taken[0] in LEADING or taken[0] in QUESTION_WORDS or re.sub(r"['’]s$", "", taken[0]) in players):
        taken.pop(0)
    name = " ".join(taken).strip(" ,;:")
    name = re.sub(r"(?:'s|’s)$", "", name)
    return name if name and name[0].isupper() else ""


def references(text: str, edition: int, sets: SetIndex, players: frozenset[str] = frozenset()) -> list[Reference]:
    """Every card reference in a clause text."""
    found = []
    for m in PAREN.finditer(text):
        inner = m.group(1).strip()
        parsed = None
        if edition == 1:
            for pattern in (ED1_SET_FIRST, ED1_NUMBER_FIRST):
                hit = pattern.match(inner)
                if hit and (resolved := sets.resolve(hit["set"])):
                    parsed = (resolved, hit["number"].replace(" ", ""))
                    break
        else:
            hit = ED2_REF.match(inner)
            if hit and not hit["set"].strip().startswith(("v", "page")):
                entry = sets.resolve(hit["set"]) or {"slug": slug(hit["set"]), "name": hit["set"].strip()}
                parsed = (entry, hit["number"])
            elif named_set := sets.resolve(inner.strip("*")):
                # a card named by its product alone, as a deck list names it: "Jon Snow (Core Set)" (the
                # Tournament Regulations' example; blind review r87 L2 got "'jon' is a name" for it)
                parsed = (named_set, "")
        if not parsed:
            continue
        name = _name_before(text, m.start(), players)
        if name:
            entry, number = parsed
            found.append(Reference(name, entry["name"], entry["slug"], number))
    return found


def card_id(edition: int, name: str) -> str:
    return f"card:{edition}:{slug(normalise_name(name))}"


def load_aliases(path: Path) -> tuple[dict[tuple[int, str], str], frozenset[str]]:
    """Alternative titles (by edition and normalised name) and the example players' names."""
    data = yamlio.read_data(path) if path.is_file() else {}
    aliases = {}
    for edition, key in ((1, "edition1"), (2, "edition2")):
        for spelling, title in (data.get(key) or {}).items():
            aliases[(edition, normalise_name(spelling))] = title
    return aliases, frozenset(data.get("example_players") or [])


def printing_group(edition: int, entry: dict[str, Any] | None, spelling: str, sets: SetIndex) -> str:
    """What a printing's number counts within, as the card databases name it.

    1st edition: the cycle's id prefix in agot1.json ("cad" for "C&D F76", "kotse" for Kings of the
    Sea); a chapter pack's cards are numbered within its cycle.  2nd edition: the slug of the pack
    or cycle name ("music-of-dragons", "westeros" for "(Westeros, 63)").
    """
    if edition == 1:
        if entry and entry.get("cycle"):
            entry = sets.resolve(entry["cycle"]) or entry
        return str(entry.get("db") or entry["slug"]) if entry else slug(spelling)
    name = str(entry["name"]) if entry else spelling
    return re.sub(r"-cycle$", "", slug(name))


def printing_number(number: Any) -> int | None:
    """The collector number without its letter: "F76" -> 76, "143" -> 143."""
    digits = re.sub(r"\D", "", str(number or ""))
    return int(digits) if digits else None


def printing_code(edition: int, entry: dict[str, Any] | None, spelling: str, number: str) -> str:
    """The printing as the FAQ prints it: "C&D F76" (1st edition), "Music of Dragons, 61" (2nd)."""
    if edition == 1:
        return f"{entry.get('abbr') or entry['name'] if entry else spelling} {number}"
    return f"{entry['name'] if entry else spelling}, {number}"


def collect(
    clauses: list[Clause], sets_file: Path, aliases_file: Path
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], dict[str, list[str]]]:
    """Cards, printings, ``mentions`` link rows, and the card ids each entry names in its data.

    A printing row ties the FAQ's printing code ("C&D F76", "(Core, 143)") to a ``group`` and a
    plain ``num`` that the imported card databases share, and lists the clauses citing it, so a
    card page can say which printing an errata or a list entry concerns.
    """
    sets = load_sets(sets_file)
    aliases, players = load_aliases(aliases_file)
    cards: dict[str, dict[str, Any]] = {}
    printings: dict[tuple[str, str, Any], dict[str, Any]] = {}
    mentions: dict[tuple[str, str], dict[str, Any]] = {}
    named: dict[str, list[str]] = {}

    def add(clause: Clause, name: str, entry: dict[str, Any] | None, spelling: str, number: str | None, how: str) -> str:
        printed = name
        name = aliases.get((clause.edition, normalise_name(name)), name)
        cid = card_id(clause.edition, name)
        card = cards.setdefault(cid, {"id": cid, "edition": clause.edition, "name": name, "key": normalise_name(name), "spellings": []})
        if printed != name and printed not in card["spellings"]:
            card["spellings"].append(printed)
        if number:
            group = printing_group(clause.edition, entry, spelling, sets[clause.edition])
            num = printing_number(number)
            row = printings.setdefault(
                (cid, group, num if num is not None else str(number)),
                {
                    "card": cid,
                    "set": entry["name"] if entry else spelling,
                    "number": str(number),
                    "group": group,
                    "num": num,
                    "code": printing_code(clause.edition, entry, spelling, str(number)),
                    "clauses": [],
                },
            )
            if clause.id not in row["clauses"]:
                row["clauses"].append(clause.id)
        reason = how.replace("{name}", name)  # the card's title, where the text spells it otherwise or the parse read less of it
        mentions.setdefault((clause.id, cid), {"src": clause.id, "dst": cid, "type": "mentions", "reason": reason})
        return cid

    for clause in clauses:
        data = clause.data
        entries = data.get("cards") or ([[data["card"], data.get("number")]] if data.get("card") else [])
        for name, number in entries:
            set_key = str(data.get("set") or "")
            entry = sets[clause.edition].resolve(set_key)
            cid = add(clause, str(name), entry, set_key, number, f"the {clause.kind} entry names this card")
            named.setdefault(clause.id, []).append(cid)
        for ref in references(clause.text + " " + clause.heading, clause.edition, sets[clause.edition], players):
            entry = sets[clause.edition].resolve(ref.set)
            cited = f"{ref.set} {ref.number}".strip()  # ("Jon Snow (Core Set)": no number)
            add(clause, ref.name, entry, ref.set, ref.number, "the text cites {name} " + f"({cited})")
    printing_rows = sorted(
        ({**row, "clauses": json.dumps(row["clauses"])} for row in printings.values()), key=lambda r: (r["card"], r["set"], r["number"])
    )
    return list(cards.values()), printing_rows, list(mentions.values()), named
