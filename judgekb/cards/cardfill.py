"""Cards by name: fill a scenario card's printed values from an imported card database.

A judge types "Grey Wind", not its STR, icons and keywords.  When a card database has been
imported (``judgekb import-cards``), every scenario card whose name is found takes the values
printed on the card (type, STR, cost, icons, keywords from the text's keyword line, traits,
crests, House or faction, unique, plot values); errata in the knowledge base that change those
values win over the printing (``corpus/errata-values.yaml``, each entry citing its clause); and
fields written in the scenario win over both.  Every card filled gets a note saying where each
value came from, so the ruling can say so.

This works on the scenario mapping as loaded from YAML, before it is validated, so the engine
never needs to know that a card database exists.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from rapidfuzz import process

from judgekb import yamlio
from judgekb.cards import restrictions
from judgekb.cards.corpus_cards import normalise_name
from judgekb.engine.scenario import KEYWORDS as ED1_KEYWORDS
from judgekb.engine.scenario import KEYWORDS2 as ED2_KEYWORDS
from judgekb.yamlio import DataError, where

ZONES = ("in_play", "hand", "deck", "discard", "dead", "shadows", "used")
COPY_SUFFIX = re.compile(r"\s*#\d+$")
IMPORT_HINT = (
    "import a card database first, e.g. `judgekb import-cards ../shared/cards/agot1/agot1.json` (edition 1) "
    "or `judgekb import-cards ../shared/cards/agot2-throneteki` (edition 2)"
)

# Keywords a card's first text line may carry: the scenario format's vocabulary of each edition.
KEYWORDS = {1: ED1_KEYWORDS, 2: ED2_KEYWORDS}


@dataclass
class Printing:
    """One printing of a card in the imported database, as scenario fields."""

    name: str
    code: str
    set: str
    number: str
    values: dict[str, Any]
    text: str = ""  # its printed text, read for ``abilities`` only when this printing fills a card
    edition: int = 2

    @cached_property
    def abilities(self) -> tuple[str, ...]:
        """The abilities its text prints that no field carries ("Reaction", "Action", "constant")."""
        return triggered_abilities(self.text, self.edition)

    @property
    def label(self) -> str:
        if not self.code:
            return f"{self.name} (no printing chosen: only values all its printings share)"
        return f"{self.name} ({self.set} {self.number}, code {self.code})"


@dataclass
class Note:
    """Where a filled card's values came from: the printing, errata applied, fields the scenario overrode."""

    card: str
    printing: str
    filled: list[str]
    errata: list[dict[str, Any]] = field(default_factory=list)
    overridden: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    restriction: str | None = None  # an attachment's printed restriction, filled from the card text

    def as_json(self) -> dict[str, Any]:
        return {
            "card": self.card, "printing": self.printing, "filled": self.filled, "errata": self.errata,
            "overridden": self.overridden, "abilities": self.abilities, "restriction": self.restriction,
        }  # fmt: skip

    def text(self) -> str:
        if self.card == "(every card)":
            return f"No card database is imported for this edition: every card has only the values the scenario gives; {IMPORT_HINT}."
        parts = [f"{self.card}: printed values from {self.printing}" + (f" ({', '.join(self.filled)})" if self.filled else "")]
        for item in self.errata:
            parts.append(f"errata {item['clause']} applied ({item['field']}: {item['value']!r})")
        if self.overridden:
            parts.append(f"the scenario's own {', '.join(self.overridden)} used instead of the printing")
        if self.restriction:
            parts.append(
                f"its printed restriction '{self.restriction}' is checked when it attaches"
                if restrictions.parse(self.restriction) is not None  # (else the trace says it was not checked)
                else f"its printed restriction '{self.restriction}' is not one the engine reads: it is not checked"
            )
        if self.abilities:  # a judge must not read silence about them as "they did nothing"
            said = " and ".join(", ".join(self.abilities).rsplit(", ", 1))
            parts.append(f"its printed {said} ability text is not applied: only abilities given as steps or effects are")
        return "; ".join(parts)


def _words(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value if v not in (None, "")]
    return [w.strip() for w in str(value).split(",") if w.strip()]


def keyword_line(text: str, edition: int) -> list[str]:
    """The keywords on a card's first text line ("Deadly. No attachments."), or none."""
    first = re.sub(r"<[^>]+>", "", (text or "").split("\n", 1)[0])
    found = []
    for part in (p.strip().lower() for p in first.split(".")):
        if not part:
            continue
        base = part.split(" (")[0].strip()
        if base not in KEYWORDS[edition]:
            break
        found.append(part if edition == 2 and "(" in part else base)  # "ambush (3)" keeps its cost
    return found


def printing_values(row: dict[str, Any]) -> dict[str, Any]:
    """Scenario fields from an ``imported_cards`` row (both editions' formats)."""
    edition = int(row["edition"])
    extra = json.loads(row.get("stats") or "{}")
    values: dict[str, Any] = {"type": str(row.get("type") or "character").lower()}
    for source, target in (("strength", "str"), ("cost", "cost")):
        raw = row.get(source)
        if raw is not None and re.fullmatch(r"-?[0-9]{1,4}", str(raw)):  # "X", "-", "²" are not printed numbers
            values[target] = int(raw)
        elif target == "cost" and edition == 2 and str(raw).strip() == "-":
            values[target] = "-"  # no printed cost: the scenario format's "-" (a shadow card's, RR Shadows)
    icons = [i.lower() for i in _words(row.get("icons"))]
    if values["type"] == "character":
        values["icons"] = icons
    keywords = keyword_line(row.get("text") or "", edition)
    if keywords:
        values["keywords"] = keywords
    restriction = printed_restriction(row.get("text") or "") if edition == 2 and values["type"] == "attachment" else None
    if restriction:
        values["restriction"] = restriction
    copies = COPY_LIMIT.search(row.get("text") or "") if edition == 2 and values["type"] == "attachment" else None
    if copies:  # "Limit 1 copy per character." (RR Limits and Maxima): the engine applies it
        values["limit_copies"] = int(copies.group(1))
    if edition == 2 and values["type"] != "plot":  # "+1 Income.", "-1 Reserve." (RR Plot Value Modifiers)
        values |= plot_modifiers(row.get("text") or "")
    traits = _words(row.get("traits"))
    if traits:
        values["traits"] = traits
    values["unique"] = bool(row.get("unique"))
    houses = _words(row.get("house"))
    if edition == 1:
        if len(houses) > 1:  # a multi-house card: affiliated with each of its Houses (Rules of Play, Multi-house Cards)
            values["house"] = houses
        elif houses:
            values["house"] = "neutral" if houses[0].lower() == "neutral" else houses[0]
        if extra.get("crest"):
            values["crests"] = list(extra["crest"])
        for name in ("income", "initiative", "influence", "claim"):
            if isinstance(extra.get(name), int):
                values[name] = extra[name]
    else:
        if houses:
            values["faction"] = houses[0].lower()
        if extra.get("loyal"):
            values["loyal"] = True
        for name, number in (extra.get("plotStats") or {}).items():
            if isinstance(number, int):
                values[name] = number
    return values


TRIGGERS = re.compile(
    r"\b(Forced Reaction|Forced Interrupt|Reaction|Interrupt|Challenges Action|Marshaling Action|Dominance Action|Action|"
    r"When Revealed|Response|Any Phase|Marshalling|Challenges|Dominance|Plot|Taxation|Standing|Draw)\s*:",
)


# a second-edition card's printed plot value modifier: "+1 Income", "-1 Reserve"
PLOT_MODIFIER = re.compile(r"([+\-–−])(\d{1,2}) (Income|Initiative|Reserve)")


NOT_ABILITIES = re.compile(
    r"prized \d+|limit \d+ per deck|limit \d+ copy per character|no attachments except .*|attach only to .*"
    r"|" + PLOT_MODIFIER.pattern.lower() + r"|(.*\s)?(character|location)(\s.*)? only"
)  # a deck limit, an attachment's restriction ("Lord or Lady character only."), a plot value modifier


def plot_modifiers(text: str) -> dict[str, int]:
    """The plot value modifiers a card prints, from the paragraphs that hold nothing else ("+1 Income.",
    "-1 Income. -1 Initiative.", "+1 Reserve" without its period): the engine counts them (RR Plot Value
    Modifiers); "while your initiative value is 0" is no modifier."""
    found: dict[str, int] = {}
    for paragraph in _plain(text).split("\n"):
        parts = [PLOT_MODIFIER.fullmatch(p.strip()) for p in paragraph.split(".") if p.strip()]
        if parts and all(parts):
            for m in parts:
                assert m is not None
                found[m.group(3).lower()] = int(m.group(2)) * (-1 if m.group(1) in "-–−" else 1)
    return found


def _plain(text: str) -> str:
    """A card's text without markup, a paragraph a line."""
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", "\n", text)))


COPY_LIMIT = re.compile(r"^Limit (\d{1,2}) cop(?:y|ies) per (?:character|location|card)\b", re.IGNORECASE)


def printed_restriction(text: str) -> str | None:
    """An attachment's restriction as printed on its first text line, without markup: 'Lord or Lady character only.'"""
    first = html.unescape(re.sub(r"<[^>]+>", "", re.split(r"<br\s*/?>|\n", text or "", maxsplit=1)[0]))
    for part in (p.strip() for p in first.split(".")):
        if re.fullmatch(r"(.*\s)?(character|location)(\s.*)? only", part, re.IGNORECASE):
            return part + "."
    return None


def triggered_abilities(text: str, edition: int = 2) -> tuple[str, ...]:
    """The abilities a card's text prints that no scenario field carries: its triggered abilities by their trigger
    words, in order, once each, then "constant" where a paragraph is neither keywords, a trigger nor a deck limit
    ("Robert Baratheon gets +1 STR for each other kneeling character in play.")."""
    plain = _plain(text)
    found = list(dict.fromkeys(m.group(1) for m in TRIGGERS.finditer(plain)))
    for paragraph in (p.strip() for p in plain.split("\n")):
        parts = [x.strip().lower() for x in paragraph.split(".") if x.strip()]
        keywords = all(x.split(" (")[0] in KEYWORDS[edition] or NOT_ABILITIES.fullmatch(x) for x in parts)
        if paragraph and not keywords and not TRIGGERS.match(paragraph):
            found.append("constant")
            break
    return tuple(found)


def load_errata_values(corpus: Path) -> list[dict[str, Any]]:
    """``corpus/errata-values.yaml``: errata that change a card's printed values, as data."""
    path = corpus / "errata-values.yaml"
    if not path.is_file():
        return []
    return list(yamlio.read_data(path).get("errata") or [])


class CardBook:
    """The imported printings of one edition, looked up by name (nearest names on a miss)."""

    def __init__(self, db: Any, edition: int, errata: list[dict[str, Any]]):
        self.edition = edition
        self.by_key: dict[str, list[Printing]] = {}
        self.errata = [e for e in errata if int(e.get("edition", 0)) == edition]
        if "imported_cards" not in db.table_names():
            return
        for row in db["imported_cards"].rows_where("edition = ?", [edition]):
            printing = Printing(
                row["name"], str(row.get("code") or ""), str(row.get("set") or ""), str(row.get("number") or ""), printing_values(row),
                row.get("text") or "", edition,
            )
            self.by_key.setdefault(row["key"], []).append(printing)

    def __bool__(self) -> bool:
        return bool(self.by_key)

    def nearest(self, name: str, limit: int = 5) -> list[str]:
        keys = list(self.by_key)
        return [self.by_key[k][0].name for k, _score, _i in process.extract(normalise_name(name), keys, limit=limit)]

    def find(self, name: str, printing: str | None, wanted_type: str | None) -> list[Printing]:
        """The printings that match ``name`` (and ``printing``: a code, or "set number"), filtered by type."""
        found = self.by_key.get(normalise_name(name), [])
        if printing:
            want = normalise_name(str(printing))
            found = [p for p in found if want in (normalise_name(p.code), normalise_name(f"{p.set} {p.number}"), normalise_name(p.number))]
        if wanted_type:
            found = [p for p in found if p.values.get("type") == str(wanted_type).lower()] or found
        return found

    def errata_for(self, printing: Printing) -> list[dict[str, Any]]:
        out = []
        for entry in self.errata:
            if normalise_name(entry["card"]) != normalise_name(printing.name):
                continue
            numbers = {str(n) for n in entry.get("numbers") or []}
            if numbers and printing.number not in numbers:
                continue
            out.append(entry)
        return out


def _distinct(printings: list[Printing]) -> list[Printing]:
    """Printings whose values differ (reprints with the same values count once)."""
    seen: dict[str, Printing] = {}
    for p in printings:
        seen.setdefault(json.dumps(p.values, sort_keys=True), p)
    return list(seen.values())


def fill_card(spec: dict[str, Any], book: CardBook, path: Path, at: str | None = None) -> Note | None:
    """Fill one card mapping in place; ``None`` when the name is not in the database.

    ``at`` says where the card is written when it has no line of its own (a bare name in a list).
    """
    at = at or where(path, spec)
    name = COPY_SUFFIX.sub("", str(spec.get("name", "")))
    printing_asked = spec.get("printing")
    matches = book.find(name, printing_asked, spec.get("type", "character"))  # the format's default type is preferred
    if not matches:
        if printing_asked is not None or not set(spec) & GIVEN_BY_HAND:
            others = book.find(name, None, None)
            if others:
                listing = "; ".join(p.label for p in others)
                raise DataError(
                    f"{at}: field 'printing': {name!r} has no printing {printing_asked!r} (printings: {listing})"
                )
            raise DataError(f"{at}: field 'name': unknown card {name!r} (nearest: {', '.join(book.nearest(name))})")
        return None
    distinct = _distinct(matches)
    by_hand = set(spec) & GIVEN_BY_HAND
    if len(distinct) > 1 and not by_hand:
        listing = "; ".join(p.label for p in distinct)
        raise DataError(
            f"{at}: field 'name': {name!r} has printings that differ — "
            f"add 'printing: <set number or code>' (or 'type'): {listing}"
        )
    chosen = distinct[0]
    values = dict(chosen.values)
    if len(distinct) > 1:  # described by hand, printing not chosen: only what every printing agrees on
        values = {k: v for k, v in values.items() if all(p.values.get(k) == v for p in distinct)}
        chosen = Printing(chosen.name, "", "", "", values)
    applied = []
    for entry in book.errata_for(chosen):
        changes = dict(entry.get("set") or {})
        for field_name, extra in (entry.get("add") or {}).items():
            have = list(values.get(field_name) or [])
            changes[field_name] = have + [v for v in extra if v not in have]
        for field_name, value in changes.items():
            applied.append({"clause": entry["clause"], "field": field_name, "value": value, "printed": values.get(field_name)})
            values[field_name] = value
    written = {k for k in spec if k != "__line__"}
    filled = sorted(k for k in values if k not in written)
    overridden = sorted(k for k in values if k in written and k not in ("name", "type") and spec[k] != values[k])
    for key in filled:
        spec[key] = values[key]
    spec.pop("printing", None)
    abilities = [a for a in (distinct[0].abilities if len(distinct) == 1 else ()) if a != "constant" or "constant" not in spec]
    note = Note(str(spec.get("id") or spec["name"]), chosen.label, filled, applied, overridden, abilities)
    if "restriction" in filled:
        note.restriction = str(spec["restriction"])
    return note


# Fields that make a card "given by hand": a name not in the database is then taken as written.
# A bare name that is not in the database is far more likely a typo, so it gets the nearest names.
GIVEN_BY_HAND = {
    "type",
    "str",
    "cost",
    "icons",
    "keywords",
    "traits",
    "unique",
    "house",
    "faction",
    "income",
    "initiative",
    "claim",
    "reserve",
    "influence",
}

PLOT_FIELDS = {1: ("income", "initiative", "claim"), 2: ("income", "initiative", "claim", "reserve")}


def fill_plot(plot: dict[str, Any], book: CardBook, path: Path) -> Note | None:
    """A player's revealed plot named but without its values: income, initiative, claim (and reserve)."""
    found = book.find(str(plot["name"]), plot.get("printing"), "plot")
    matches = [p for p in _distinct(found) if p.values.get("type") == "plot"]
    if not matches:
        if set(plot) & set(PLOT_FIELDS[book.edition]):  # a plot of the judge's own values: as written
            return None
        # (review 21: "Sneak Atack", or a character's title, ran as a blank plot with no word)
        if found:
            kind = str(found[0].values.get("type") or "card")
            article = "an" if kind[:1] in "aeiou" else "a"  # (r46: "is a agenda")
            raise DataError(f"{where(path, plot)}: field 'plot': {plot['name']!r} is {article} {kind}, not a plot")
        is_plot = lambda n: any(p.values.get("type") == "plot" for p in book.find(n, None, "plot"))  # noqa: E731
        nearest = [n for n in book.nearest(str(plot["name"]), 12) if is_plot(n)]
        raise DataError(
            f"{where(path, plot)}: field 'plot': no plot in the card data is called {plot['name']!r}"
            + (f" (nearest: {', '.join(nearest[:5])})" if nearest else "")
            + "; or give its income, initiative and claim"
        )
    if len(matches) > 1:
        listing = "; ".join(p.label for p in matches)
        raise DataError(f"{where(path, plot)}: field 'plot': {plot['name']!r} has printings that differ — add 'printing': {listing}")
    values = {k: v for k, v in matches[0].values.items() if k in PLOT_FIELDS[book.edition]}
    written = {k for k in plot if k != "__line__"}
    filled = sorted(k for k in values if k not in written)
    overridden = sorted(k for k in values if k in written and plot[k] != values[k])
    for key in filled:
        plot[key] = values[key]
    plot.pop("printing", None)
    return Note(f"plot {plot['name']}", matches[0].label, filled, [], overridden)


def fill(data: Any, db: Any, corpus: Path, path: Path, books: dict[int, CardBook] | None = None) -> list[Note]:
    """Fill every card of a loaded scenario mapping from the imported database of its edition.

    Returns the notes for the ruling.  Without an import nothing changes; a card asked for by
    ``printing`` then gets a message saying how to import.  ``books`` keeps the loaded card
    books between scenarios (a folder run, a web worker): loading one costs tens of milliseconds.
    """
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return []
    edition = data.get("edition", 1)
    if edition not in (1, 2) or data.get("card_data") == "none":  # placeholder cards ("Card A", "T1"): as written
        return []
    books = {} if books is None else books
    if edition not in books:
        books[edition] = CardBook(db, edition, load_errata_values(corpus))
    book = books[edition]
    notes: list[Note] = []
    if not book:
        notes.append(Note("(every card)", f"no card database imported for edition {edition}: only the values written in the scenario", []))

    def visit(spec: Any, zone_list: list[Any], index: int, line: int | None, context: str) -> None:
        if not book:
            if isinstance(spec, dict) and "printing" in spec:
                raise DataError(f"{where(path, spec)}: field 'printing' needs an imported card database: {IMPORT_HINT}")
            return
        at = None
        if isinstance(spec, str):  # a bare name has no line of its own: say whose list it is in
            spec = {"name": spec, "__line__": line}
            zone_list[index] = spec
            at = f"{where(path, spec)} ({context}, card {index + 1})"
        if not isinstance(spec, dict) or "name" not in spec:
            return
        note = fill_card(spec, book, path, at)
        if note:
            notes.append(note)
        children = spec.get("attachments")
        if isinstance(children, list):
            for i, child in enumerate(children):
                visit(child, children, i, spec.get("__line__"), f"attachments of {spec['name']}")

    for player in data["players"]:
        if not isinstance(player, dict):
            continue
        plot = player.get("plot")
        if book and isinstance(plot, dict) and plot.get("name"):
            note = fill_plot(plot, book, path)
            if note:
                notes.append(note)
        for zone in ZONES:
            cards = player.get(zone)
            if isinstance(cards, list):
                for i, spec in enumerate(cards):
                    visit(spec, cards, i, player.get("__line__"), f"{player.get('name')}'s {zone}")
    return notes


def preparer(db: Any, corpus: Path) -> Callable[[Any, Path], list[Note]]:
    """The ``prepare`` hook for ``load_scenario``: fill cards by name from ``db``'s imports.

    The hook loads each edition's card book once, so keep it as long as the database is unchanged.
    """
    books: dict[int, CardBook] = {}

    def prepare(data: Any, path: Path) -> list[Note]:
        return fill(data, db, corpus, path, books)

    return prepare
