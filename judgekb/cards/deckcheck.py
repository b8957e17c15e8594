"""Deck checks at registration: is this deck legal under the list in force, every problem cited.

A decklist (``decklists``) is resolved against the imported card data, then checked:

* second edition: construction (Rules Reference: Deckbuilding, Deck Limits, Loyal, Plot Deck,
  Plot Deck Limit), the deckbuilding text of the agenda(s) (``data/agot2-agendas.yaml``, cited
  from the card's own text), copies of an agenda (FAQ 3.5), and the dated list chosen
  (``restricted_lists``): restricted cards, pods, banned cards, the printings outside the list's
  card pool (``bannedCards``) and cards released after the list's date;
* first edition: the tournament construction rules (Rules of Play), copies per title (FAQ 4.8),
  and the FAQ v5.5.1 restricted and banned lists as they stood at a version (``--as-of v5.4``).

Every check is registered in ``CHECKS`` with the clause ids that state its rule (a test fails
when one is missing from the knowledge base).  ``check`` collects every problem, as
``Board.status()`` does, and returns a ``Report``: the verdict first, then the problems, each
with the card, its printing, the decklist line and the citation lines.
"""

from __future__ import annotations

import contextlib
import html
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from rapidfuzz import fuzz, process

from judgekb import store, yamlio
from judgekb.cards import restricted_lists
from judgekb.cards.corpus_cards import normalise_name
from judgekb.cards.decklists import Decklist, Entry
from judgekb.engine import guard
from judgekb.yamlio import DataError

Verdict = Literal["legal", "not legal", "cannot be checked"]
Format = Literal["joust", "melee"]
AGENDAS_FILE = Path(__file__).resolve().parents[1] / "data" / "agot2-agendas.yaml"
FACTIONS2 = {
    "baratheon": "House Baratheon",
    "greyjoy": "House Greyjoy",
    "lannister": "House Lannister",
    "martell": "House Martell",
    "thenightswatch": "The Night's Watch",
    "stark": "House Stark",
    "targaryen": "House Targaryen",
    "tyrell": "House Tyrell",
}
CARD_DATA = {1: "../shared/cards/agot1/agot1.json", 2: "../shared/cards/agot2-throneteki"}  # each edition's import, as a message names it
HOUSES1 = ("Stark", "Lannister", "Baratheon", "Greyjoy", "Martell", "Targaryen")
FAQ23_LIST = "FFG FAQ v2.3"  # the list the corpus's FAQ v2.3 prints: its clauses are cited beside it
MAX_SUGGESTED = 20  # unknown names given their nearest names: fuzzy matching is a deck check's costly part
WEB_SECONDS = guard.WEB.seconds  # one deck check, parse to report, as one scenario run is bounded
CLI_SECONDS = guard.CLI.seconds


@contextlib.contextmanager
def bounded(source: str, seconds: float | None) -> Iterator[float | None]:
    """Parse and check a decklist under one deadline (``guard.deadline``, as scenario runs are); yields it for ``check``.

    Raises DataError naming the list when the deadline passes.
    """
    end = None if seconds is None else time.monotonic() + seconds
    try:
        with guard.deadline(seconds):
            yield end
    except guard.Timeout:
        raise DataError(f"{source}: the deck check took longer than {seconds:g}s; stopped") from None


@dataclass(frozen=True)
class Check:
    """One deck rule: the clause ids that state it (first existing id of each tuple), in one line."""

    name: str
    edition: int
    clauses: tuple[tuple[str, ...], ...]
    summary: str


CHECKS: dict[str, Check] = {}


def _check(name: str, edition: int, clauses: list[str | tuple[str, ...]], summary: str) -> Check:
    entry = Check(name, edition, tuple(c if isinstance(c, tuple) else (c,) for c in clauses), summary)
    CHECKS[f"{edition}:{name}"] = entry
    return entry


UNKNOWN = _check("unknown-card", 0, [], "every line must name a card in the imported card data")
AMBIGUOUS = _check("ambiguous-card", 2, ["agot2-tr/deck-lists"], "a title shared by different cards needs its pack on the list")
FACTION = _check("faction", 2, ["agot2-rr/deckbuilding"], "exactly one faction card")
AGENDAS = _check("agendas", 2, ["agot2-rr/deckbuilding", "agot2-rr/agenda-cards"], "at most one agenda unless an agenda allows more")
AGENDA_COPIES = _check("agenda-copies", 2, [("agot2-faq41/3.5", "agot2-faq/3.5")], "no more than 1 copy of each agenda (by title)")
PLOTS = _check(
    "plots",
    2,
    ["agot2-rr/deckbuilding", "agot2-rr/plot-deck", "agot2-tr/deck-building"],
    "exactly seven plots, one of them at most doubled",
)
PLOT_LIMIT = _check("plot-deck-limit", 2, ["agot2-rr/plot-deck-limit"], "a plot's Plot Deck Limit: X")
DRAW_MINIMUM = _check("draw-minimum", 2, ["agot2-rr/deckbuilding", "agot2-tr/deck-building"], "a draw deck of at least 60 cards")
COPIES = _check("copies", 2, ["agot2-rr/deckbuilding", "agot2-rr/deck-limits"], "at most 3 copies (by title), or the card's Deck Limit")
AFFILIATION = _check("affiliation", 2, ["agot2-rr/deckbuilding", "agot2-rr/neutral"], "each card neutral or of the deck's faction")
LOYAL = _check("loyal", 2, ["agot2-rr/loyal"], "loyal cards only in their own faction's deck")
AGENDA_TEXT = _check("agenda-text", 2, ["agot2-rr/agenda-cards"], "what the agenda's text allows and requires of the deck")
RESTRICTED = _check("restricted", 2, ["agot2-faq/joust-restricted-list/introduction"], "one card from the format's restricted list")
POD = _check("pod", 2, [], "cards of one pod of the list cannot share a deck")
BANNED = _check("banned", 2, [], "no card the list bans")
CARD_POOL = _check("card-pool", 2, [], "no printing outside the list's card pool (the printings it bans)")
OUTSIDE_POOL = _check(
    "draft-or-variant", 2, [], "no card of a draft set or variant format (codes 00…: Tower of Joy, Valyrian Draft Set, Kingsmoot…)"
)
UNRELEASED = _check(
    "released-after-list",
    2,
    ["agot2-faq41/card-legality/introduction", "agot2-tr/legal-products"],
    "no card released after the list's date",
)
PLOTS1 = _check("plots", 1, ["agot1-rules/tournament-play-and-deck-construction-rules"], "exactly seven plots, no duplicates")
DRAW_MINIMUM1 = _check("draw-minimum", 1, ["agot1-rules/tournament-play-and-deck-construction-rules"], "a House deck of at least 60 cards")
COPIES1 = _check("copies", 1, ["agot1-faq/4.8"], "at most 3 copies by title in the draw deck, regardless of card type")
CARD_LIMIT1 = _check("card-limit", 1, [], "a card's own limit: 'Limit N per deck', 'up to N copies … in your plot deck'")
HOUSE_ONLY1 = _check(
    "house-only",
    1,
    ["agot1-rules/tournament-play-and-deck-construction-rules"],
    "no card that says 'House X only' unless X is the deck's House",
)
RESTRICTED1 = _check("restricted", 1, ["agot1-faq/restricted/rules"], "one card from the format's restricted list")
AGENDAS1 = _check("agendas", 1, ["agot1-rules/agendas"], "a single agenda")
BANNED1 = _check("banned", 1, ["agot1-faq/banned/introduction"], "no banned card")


@dataclass(frozen=True)
class Citation:
    """What a problem rests on: a clause (id, citation line, verbatim text), a dated list, or a card's text."""

    line: str
    id: str | None = None
    text: str = ""
    url: str | None = None


@dataclass(frozen=True)
class Card:
    """One printing from the imported card data."""

    code: str
    name: str
    pack: str  # pack code (2nd) or set name (1st)
    pack_name: str
    number: str
    type: str
    faction: str  # 2nd: faction code; 1st: house names
    loyal: bool
    traits: tuple[str, ...]
    keywords: str
    text: str
    deck_limit: int | None
    released: str | None

    @property
    def printing(self) -> str:
        return f"{self.name} ({self.pack_name}, {self.number})"

    @property
    def key(self) -> str:
        return normalise_name(self.name)


@dataclass
class DeckCard:
    card: Card
    count: int
    entry: Entry
    codes: tuple[str, ...]  # every code of the same card (reprints with the same text)


@dataclass
class Problem:
    """One reason the deck is not legal (or could not be checked), with where it came from and why."""

    check: str
    message: str
    cards: list[str] = field(default_factory=list)
    printings: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    source_lines: list[str] = field(default_factory=list)
    cite: list[Citation] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The deck-check sheet: the verdict first, then each problem."""

    verdict: Verdict
    edition: int
    format: str
    list_used: str
    list_citation: Citation | None
    source: str
    deck_title: str | None
    faction: str | None
    agendas: list[str]
    counts: dict[str, int]
    problems: list[Problem]
    notes: list[str]
    cards: list[dict[str, Any]]

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------- card data


class CardPool:
    """The imported cards of one edition, indexed by normalised title."""

    def __init__(self, db: Any, edition: int) -> None:
        self.edition = edition
        self.by_key: dict[str, list[Card]] = defaultdict(list)
        self.by_code: dict[str, Card] = {}
        # draft sets and variant formats' cards (codes 00…) are not part of the joust/melee pool: kept apart, so that a
        # list naming one is told so rather than that no such card exists
        self.outside: dict[str, list[Card]] = defaultdict(list)
        self.outside_by_code: dict[str, Card] = {}
        self._names: list[str] | None = None
        if not db["imported_cards"].exists():
            return
        for row in db.query("select * from imported_cards where edition = ? order by code", [edition]):
            card = Card(
                code=str(row["code"]),
                name=row["name"],
                pack=str(row.get("pack") or row["set"] or ""),
                pack_name=str(row["set"] or ""),
                number=str(row["number"] or ""),
                type=str(row["type"] or "").lower(),
                faction=str(row["house"] or "").lower(),
                loyal=bool(row.get("loyal")),
                traits=tuple(t for t in str(row["traits"] or "").split(", ") if t),
                keywords=str(row["keywords"] or ""),
                text=str(row["text"] or ""),
                deck_limit=row.get("deck_limit"),
                released=row.get("released"),
            )
            if edition == 2 and card.code.startswith("00"):
                self.outside[card.key].append(card)
                self.outside_by_code[card.code] = card
                continue
            self.by_key[card.key].append(card)
            self.by_code[card.code] = card

    def __bool__(self) -> bool:
        return bool(self.by_code)

    def names(self) -> list[str]:
        if self._names is None:
            self._names = sorted({cards[0].name for cards in self.by_key.values()})
        return self._names


def _identity(card: Card) -> tuple[Any, ...]:
    """Printings with the same text, type and affiliation are one card (a reprint)."""
    return (card.type, card.faction, card.loyal, re.sub(r"\s+", " ", card.text).strip())


def _pack_matches(card: Card, pack: str) -> bool:
    want = pack.replace("’", "'").strip().casefold().removeprefix("the ")
    names = {card.pack.casefold(), card.pack_name.casefold().removeprefix("the ")}
    if want in names:
        return True
    # 1st edition: "DotN F117", "Core S13" -> the collector number; 2nd: "Core, 143"
    number = re.search(r"(\d{1,3})\s*$", want)
    if number and number.group(1).lstrip("0") == card.number.lstrip("0"):
        rest = want[: number.start()].strip(" ,").rstrip("abcdefghijklmnopqrstuvwxyz").strip(" ,")
        return not rest or rest in names or rest.split()[0] in names or len(rest) <= 6
    return fuzz.ratio(want, card.pack_name.casefold()) >= 90


@dataclass
class Resolved:
    cards: list[DeckCard]
    problems: list[Problem]
    notes: list[str] = field(default_factory=list)


def _suggest(pool: CardPool, name: str) -> list[str]:
    return [m[0] for m in process.extract(name, pool.names(), scorer=fuzz.WRatio, limit=3)]


def _outside(pool: CardPool, entry: Entry) -> Card | None:
    """The draft-set or variant printing an entry names (by code, or by name and the pack if given), if any."""
    if entry.code:
        return pool.outside_by_code.get(entry.code)
    printings = pool.outside.get(normalise_name(entry.name), [])
    if entry.pack:
        printings = [c for c in printings if _pack_matches(c, entry.pack)]
    return printings[0] if printings else None


def _outside_problem(card: Card, dc: DeckCard) -> Problem:
    only = "draft format only" in plain_text(card).casefold()
    return _problem(
        OUTSIDE_POOL,
        f"{card.printing} is a card of the {card.pack_name} (a draft set or variant format, card code {card.code}), not of the "
        "joust and melee card pool" + (": its text says \"Draft format only.\"" if only else ""),
        [dc],
        [card_text(card)] if only else [],
    )


def resolve(
    pool: CardPool, entries: list[Entry], allowed: Callable[[Card], bool] | None = None, deadline: float | None = None
) -> Resolved:
    """Each entry's printing, or a problem naming the line and the nearest names (for the first ``MAX_SUGGESTED``).
    ``allowed`` (the list in force's card pool) settles a title two cards share when only one of them could legally be
    in the deck (TR Deck Lists).  Raises guard.Timeout when ``deadline`` (time.monotonic) passes."""
    out = Resolved([], [])
    suggested = 0
    for entry in entries:
        if deadline is not None and time.monotonic() > deadline:  # (where no alarm can be set: a thread)
            raise guard.Timeout
        outside = _outside(pool, entry)
        in_pool = pool.by_code.get(entry.code) if entry.code else pool.by_key.get(normalise_name(entry.name))
        if outside and (not in_pool or (entry.pack and not any(_pack_matches(c, entry.pack) for c in pool.by_key[outside.key]))):
            dc = DeckCard(outside, entry.count, entry, (outside.code,))
            out.cards.append(dc)
            out.problems.append(_outside_problem(outside, dc))
            continue
        if entry.code:
            card = pool.by_code.get(entry.code)
            if card is None:
                out.problems.append(
                    Problem(
                        UNKNOWN.name,
                        f"line {entry.line}: no card with code {entry.code} in the imported card data",
                        lines=[entry.line],
                        source_lines=[entry.text],
                    )
                )
                continue
            same = [c.code for c in pool.by_key[card.key] if _identity(c) == _identity(card)]
            named = replace(entry, text=f"{entry.count}x {card.printing} — {entry.text}")  # a JSON line names only the code
            out.cards.append(DeckCard(card, entry.count, named, tuple(same)))
            continue
        printings = pool.by_key.get(normalise_name(entry.name), [])
        if not printings:
            near = _suggest(pool, entry.name) if suggested < MAX_SUGGESTED else []
            suggested += 1
            out.problems.append(
                Problem(
                    UNKNOWN.name,
                    f"line {entry.line}: no card named '{entry.name}'" + (f"; nearest: {', '.join(near)}" if near else ""),
                    lines=[entry.line],
                    source_lines=[entry.text],
                    suggestions=near,
                )
            )
            continue
        if entry.pack:
            matching = [c for c in printings if _pack_matches(c, entry.pack)]
            if not matching:
                out.problems.append(
                    Problem(
                        UNKNOWN.name,
                        f"line {entry.line}: no printing of '{printings[0].name}' in '{entry.pack}'; printings: "
                        + "; ".join(c.printing for c in printings),
                        lines=[entry.line],
                        source_lines=[entry.text],
                        suggestions=[c.printing for c in printings],
                    )
                )
                continue
            printings = matching
        groups: dict[tuple[Any, ...], list[Card]] = defaultdict(list)
        for card in printings:
            groups[_identity(card)].append(card)
        legal = [g for g in groups.values() if allowed and any(allowed(c) for c in g)]
        if len(groups) > 1 and len(legal) == 1:  # only one of the cards could legally be in the deck: that one is meant
            group = legal[0]
            others = [c.printing for c in printings if c not in group]
            out.notes.append(
                f"line {entry.line}: '{group[0].name}' is read as {group[0].printing}: the other card of that title "
                f"({'; '.join(others)}) is outside the list's card pool, so it could not legally be in the deck (TR Deck Lists)"
            )
            same = [c.code for c in pool.by_key[group[0].key] if _identity(c) == _identity(group[0])]
            out.cards.append(DeckCard(group[0], entry.count, entry, tuple(same)))
            continue
        if len(groups) > 1:
            choices = [c.printing for c in printings]
            out.problems.append(
                Problem(
                    AMBIGUOUS.name,
                    f"line {entry.line}: '{printings[0].name}' names {len(groups)} different cards; "
                    f"write the pack in parentheses: {'; '.join(choices)}",
                    cards=[printings[0].name],
                    lines=[entry.line],
                    source_lines=[entry.text],
                    suggestions=choices,
                )
            )
            continue
        group = next(iter(groups.values()))
        same = [c.code for c in pool.by_key[group[0].key] if _identity(c) == _identity(group[0])]
        out.cards.append(DeckCard(group[0], entry.count, entry, tuple(same)))
    if suggested > MAX_SUGGESTED:
        out.notes.append(f"nearest names are given for the first {MAX_SUGGESTED} of the {suggested} names no card has")
    return out


# ---------------------------------------------------------------------------- citations


class Citer:
    """Citation lines for clause ids, looked up once per report."""

    def __init__(self, db: Any) -> None:
        self.db = db

    def clause(self, ids: tuple[str, ...]) -> Citation | None:
        for clause_id in ids:
            row = store.clause(self.db, clause_id)
            if row is not None:
                text = f"Q: {row['heading']} A: {row['text']}" if row["kind"] == "qa" else row["text"]
                return Citation(row["citation"], clause_id, text)
        return None

    def check(self, check: Check) -> list[Citation]:
        return [c for ids in check.clauses if (c := self.clause(ids))]


def plain_text(card: Card) -> str:
    """A card's imported text without its HTML markup (the data writes icons and emphasis as tags and entities)."""
    return html.unescape(re.sub(r"<[^>]+>", "", card.text))


def in_card_pool(rl: restricted_lists.RestrictedList, card: Card) -> bool:
    """Whether a printing could legally be in a deck under the list ``rl``: not in its banned cards (the printings
    outside its card pool) and released by its date."""
    return card.code not in rl.banned_cards and (card.released or "") <= rl.date


def card_text(card: Card) -> Citation:
    """The card's own printed text, from the imported card data, as the rule's source."""
    text = plain_text(card).strip()
    return Citation(f"{card.printing}, card text (imported card data)", None, text)


def deck_limit_source(card: Card) -> Citation:
    """A card's deck limit comes from the data's ``deckLimit`` field: the imported text omits the printed line."""
    return Citation(f"{card.printing}: deck limit {card.deck_limit} (imported card data, deckLimit field)", None, "")


def list_citation(rl: restricted_lists.RestrictedList, fmt: str | None = None, part: str | None = None) -> Citation:
    url = rl.formats[fmt].url if fmt and fmt in rl.formats else None
    return Citation(rl.citation(fmt, part), None, f"{rl.name}, issued by {rl.issuer}, in force from {rl.date}", url)


# ---------------------------------------------------------------------------- second edition


def _load_agendas() -> dict[str, dict[str, Any]]:
    data = yamlio.read_data(AGENDAS_FILE)
    return {str(k): v for k, v in data.items()}


def matches(card: Card, where: dict[str, Any]) -> bool:
    """Does a card fit an agenda rule's filter (faction, loyal, type, trait, any_trait, keyword, not)?"""
    for key, want in where.items():
        if key == "faction" and card.faction != want:
            return False
        if key == "loyal" and card.loyal != want:
            return False
        if key == "type" and card.type not in (want if isinstance(want, list) else [want]):
            return False
        if key == "trait" and want.casefold() not in {t.casefold() for t in card.traits}:
            return False
        if key == "any_trait" and not {w.casefold() for w in want} & {t.casefold() for t in card.traits}:
            return False
        if key == "keyword" and not re.search(rf"\b{re.escape(want)}\b", card.keywords, re.IGNORECASE):
            return False
        if key == "not" and matches(card, want):
            return False
    return True


def _problem(check: Check, message: str, cards: list[DeckCard], cite: list[Citation]) -> Problem:
    return Problem(
        check.name,
        message,
        cards=sorted({dc.card.name for dc in cards}),
        printings=[dc.card.printing for dc in cards],
        lines=[dc.entry.line for dc in cards],
        source_lines=[dc.entry.text for dc in cards],
        cite=cite,
    )


@dataclass
class Deck2:
    faction: str | None
    agendas: list[DeckCard]
    plots: list[DeckCard]
    draw: list[DeckCard]


def _split2(cards: list[DeckCard]) -> tuple[list[DeckCard], list[DeckCard], list[DeckCard]]:
    agendas = [dc for dc in cards if dc.card.type == "agenda"]
    plots = [dc for dc in cards if dc.card.type == "plot"]
    draw = [dc for dc in cards if dc.card.type not in ("agenda", "plot", "title")]
    return agendas, plots, draw


def _faction_from_name(name: str) -> str | None:
    key = normalise_name(name).removeprefix("house ").removeprefix("the ")
    for code, title in FACTIONS2.items():
        if key in (normalise_name(title), normalise_name(title).removeprefix("house ").removeprefix("the "), code):
            return code
    return None


def construction2(deck: Deck2, citer: Citer, notes: list[str]) -> list[Problem]:
    """Rules Reference construction and the agendas' own deckbuilding text."""
    problems: list[Problem] = []
    rules = _load_agendas()
    agenda_rules = [(dc, rules.get(dc.card.code)) for dc in deck.agendas]
    for dc, rule in agenda_rules:
        if rule is None:
            notes.append(f"judgekb holds no deckbuilding rule for the agenda {dc.card.printing}; read its text: {card_text(dc.card).text}")
    # agendas: one, or what an agenda allows beside it; never two of a title (FAQ 3.5)
    by_title = Counter(dc.card.key for dc in deck.agendas for _ in range(dc.count))
    for key, n in by_title.items():
        if n > 1:
            same = [dc for dc in deck.agendas if dc.card.key == key]
            problems.append(
                _problem(
                    AGENDA_COPIES,
                    f"{n} copies of the agenda {same[0].card.name}: at most 1 copy of each agenda (by title)",
                    same,
                    citer.check(AGENDA_COPIES),
                )
            )
    extra = [(dc, rule["extra_agendas"]) for dc, rule in agenda_rules if rule and "extra_agendas" in rule]
    others = [dc for dc in deck.agendas if not any(dc is host for host, _ in extra)]
    allowed = 1
    cite = citer.check(AGENDAS)
    if extra:
        host, spec = extra[0]
        allowed = 1 + int(spec["count"])
        cite = [*cite, card_text(host.card)]
        wrong = [dc for dc in others if not matches(dc.card, spec["where"])]
        if wrong:
            problems.append(
                _problem(
                    AGENDA_TEXT,
                    f"{host.card.name} allows only {_describe(spec['where'])} agendas beside it, not "
                    + ", ".join(dc.card.name for dc in wrong),
                    wrong,
                    [card_text(host.card)],
                )
            )
    total = sum(dc.count for dc in deck.agendas)
    if total > allowed:
        problems.append(_problem(AGENDAS, f"{total} agendas: a deck may use {allowed}", deck.agendas, cite))
    active = [(dc, rule) for dc, rule in agenda_rules if rule]

    # plots
    plot_count, doubled, plot_cite = 7, 1, citer.check(PLOTS)
    for dc, rule in active:
        if "plot_count" in rule:
            plot_count, plot_cite = rule["plot_count"], [*plot_cite, card_text(dc.card)]
        if "doubled_plots" in rule:
            doubled = rule["doubled_plots"]
    n_plots = sum(dc.count for dc in deck.plots)
    if n_plots != plot_count:
        problems.append(_problem(PLOTS, f"{n_plots} plot cards: the plot deck must have exactly {plot_count}", [], plot_cite))
    plot_titles: dict[str, list[DeckCard]] = defaultdict(list)
    for dc in deck.plots:
        plot_titles[dc.card.key].append(dc)
    multiples = {k: v for k, v in plot_titles.items() if sum(dc.count for dc in v) > 1}
    for group in plot_titles.values():
        n = sum(dc.count for dc in group)
        limit = group[0].card.deck_limit
        if limit is not None and limit < 2 and n > limit:
            problems.append(
                _problem(
                    PLOT_LIMIT,
                    f"{n} copies of {group[0].card.name}: its plot deck limit is {limit} (imported card data)",
                    group,
                    [*citer.check(PLOT_LIMIT), deck_limit_source(group[0].card)],
                )
            )
        elif n > max(2, limit or 0):
            problems.append(
                _problem(
                    PLOTS,
                    f"{n} copies of the plot {group[0].card.name}: at most one additional copy (by title)"
                    + (f", or up to its Plot Deck Limit of {limit}" if limit and limit >= 3 else ""),
                    group,
                    plot_cite,
                )
            )
    if len(multiples) > doubled:
        group = [dc for v in multiples.values() for dc in v]
        problems.append(
            _problem(
                PLOTS,
                f"{len(multiples)} plots have more than one copy ({', '.join(v[0].card.name for v in multiples.values())}): "
                f"only {doubled} may",
                group,
                plot_cite,
            )
        )
    for dc, rule in active:
        spec = rule.get("plots_exactly")
        if spec:
            hits = [p for p in deck.plots if matches(p.card, spec["where"])]
            n = len({p.card.key for p in hits}) if spec.get("distinct") else sum(p.count for p in hits)
            if n != spec["count"] or sum(p.count for p in hits) != spec["count"]:
                problems.append(
                    _problem(
                        AGENDA_TEXT,
                        f"{dc.card.name}: the plot deck must include exactly {spec['count']} different "
                        f"{_describe(spec['where'])} plots; it has {sum(p.count for p in hits)} ({n} different)",
                        hits or [dc],
                        [card_text(dc.card)],
                    )
                )
        if "plots_all" in rule:
            wrong = [p for p in deck.plots if not matches(p.card, rule["plots_all"])]
            if wrong:
                problems.append(
                    _problem(
                        AGENDA_TEXT,
                        f"{dc.card.name}: every plot must be {' or '.join(rule['plots_all']['any_trait'])}; "
                        f"these are not: {', '.join(p.card.name for p in wrong)}",
                        wrong,
                        [card_text(dc.card)],
                    )
                )

    # draw deck size
    minimum, min_cite = 60, citer.check(DRAW_MINIMUM)
    for dc, rule in active:
        if rule.get("draw_minimum", 0) > minimum:
            minimum, min_cite = rule["draw_minimum"], [*min_cite, card_text(dc.card)]
    n_draw = sum(dc.count for dc in deck.draw)
    if n_draw < minimum:
        problems.append(_problem(DRAW_MINIMUM, f"{n_draw} cards in the draw deck: the minimum is {minimum}", [], min_cite))

    # copies by title across printings
    titles: dict[str, list[DeckCard]] = defaultdict(list)
    for dc in deck.draw:
        titles[dc.card.key].append(dc)
    for group in titles.values():
        n = sum(dc.count for dc in group)
        limit = min((dc.card.deck_limit for dc in group if dc.card.deck_limit is not None), default=3)
        limit_cite = citer.check(COPIES) + ([deck_limit_source(group[0].card)] if limit != 3 else [])
        for dc, rule in active:
            for spec in rule.get("copies", []):
                if matches(group[0].card, spec["where"]) and spec["count"] < limit:
                    limit, limit_cite = spec["count"], [card_text(dc.card)]
        if n > limit:
            where = f" across {len(group)} printings" if len(group) > 1 else ""
            problems.append(_problem(COPIES, f"{n} copies of {group[0].card.name}{where}: at most {limit} (by title)", group, limit_cite))

    # affiliation, loyalty, and what agendas allow or forbid
    includes = [(dc, w) for dc, rule in active for w in rule.get("include", [])]
    for dc in deck.plots + deck.draw:
        card = dc.card
        in_faction = card.faction in ("neutral", deck.faction) or deck.faction is None
        if not in_faction:
            allowed_by = [host for host, w in includes if dc in deck.draw and matches(card, w)]
            if card.loyal:
                problems.append(
                    _problem(
                        LOYAL,
                        f"{card.name} is loyal to {FACTIONS2.get(card.faction, card.faction)}: "
                        f"it cannot be in a {FACTIONS2.get(deck.faction or '', deck.faction)} deck",
                        [dc],
                        citer.check(LOYAL),
                    )
                )
            elif not allowed_by:
                problems.append(
                    _problem(
                        AFFILIATION,
                        f"{card.name} is a {FACTIONS2.get(card.faction, card.faction)} card in a "
                        f"{FACTIONS2.get(deck.faction or '', deck.faction)} deck, and no agenda of the deck allows it",
                        [dc],
                        citer.check(AFFILIATION),
                    )
                )
        for host, rule in active:
            for spec in rule.get("exclude", []):
                part = spec.get("deck", "both")
                in_part = part == "both" or (part == "plot") == (dc in deck.plots)
                if in_part and matches(card, spec["where"]) and not (spec.get("unless") and matches(card, spec["unless"])):
                    why = _saying(host.card, ("cannot include", "only include", "can only", "may only"))
                    problems.append(_problem(AGENDA_TEXT, f"{host.card.name} forbids {card.name}{why}", [dc], [card_text(host.card)]))
    for host, rule in active:
        for spec in rule.get("at_least", []):
            hits = [dc for dc in deck.draw if matches(dc.card, spec["where"])]
            n = len({dc.card.key for dc in hits}) if spec.get("distinct") else sum(dc.count for dc in hits)
            if n < spec["count"]:
                what = ("different " if spec.get("distinct") else "") + f"{_describe(spec['where'])} cards"
                problems.append(
                    _problem(
                        AGENDA_TEXT,
                        f"{host.card.name}: the deck must include at least {spec['count']} {what}; it has {n}"
                        + (" (the lines below)" if hits else ""),
                        [host, *hits],  # (a deck-check review: the count named none of the cards it counted)
                        [card_text(host.card)],
                    )
                )
        for spec in rule.get("at_most", []):
            hits = [dc for dc in deck.draw if matches(dc.card, spec["where"])]
            n = sum(dc.count for dc in hits)
            if n > spec["count"]:
                problems.append(
                    _problem(
                        AGENDA_TEXT,
                        f"{host.card.name}: the deck cannot include more than {spec['count']} {_describe(spec['where'])} cards; it has {n}",
                        hits,
                        [card_text(host.card)],
                    )
                )
        if "titles_per_faction" in rule:
            per: dict[str, set[str]] = defaultdict(set)
            for dc in deck.draw:
                if dc.card.faction != "neutral":
                    per[dc.card.faction].add(dc.card.key)
            for faction, keys in per.items():
                if len(keys) > rule["titles_per_faction"]:
                    hits = [dc for dc in deck.draw if dc.card.faction == faction]
                    problems.append(
                        _problem(
                            AGENDA_TEXT,
                            f"{host.card.name}: {len(keys)} different {FACTIONS2.get(faction, faction)} cards; "
                            f"at most {rule['titles_per_faction']}"
                            # (a deck-check review did not expect the deck's own faction to count: the card says each)
                            + (" (the deck's own faction too)" if faction == deck.faction else "")
                            + _saying(host.card, ("from each faction",)),
                            hits,
                            [card_text(host.card)],
                        )
                    )
    return problems


def _saying(card: Card, phrases: tuple[str, ...]) -> str:
    """': "the sentence of the card's text that states the rule"', for a message that says why; '' when none does."""
    text = plain_text(card)
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        if any(p in sentence.casefold() for p in phrases):
            return f': "{sentence.strip()}"'
    return ""


def _describe(where: dict[str, Any]) -> str:
    """The cards a rule counts, as the card says them: "Kingsguard character", the type last."""
    parts = []
    for key, value in sorted(where.items(), key=lambda item: item[0] == "type"):
        if key == "not":
            parts.append("not " + _describe(value))
        elif key == "loyal":
            parts.append("loyal" if value else "non-loyal")
        elif key == "faction":
            parts.append(FACTIONS2.get(value, value))
        else:
            parts.append(str(value))
    return " ".join(parts)


def list_checks2(cards: list[DeckCard], pool: CardPool, rl: restricted_lists.RestrictedList, fmt: str, citer: Citer) -> list[Problem]:
    """The dated list: restricted, pods, banned, card pool, release dates."""
    problems: list[Problem] = []
    part = rl.formats.get(fmt, restricted_lists.FormatList())
    faq_clauses = rl.name == FAQ23_LIST

    def on(codes: list[str] | tuple[str, ...]) -> list[DeckCard]:
        wanted = set(codes)
        return [dc for dc in cards if wanted & ({dc.card.code} if _pinned(dc) else set(dc.codes))]

    restricted = on(part.restricted)
    if len({dc.card.code for dc in restricted}) > 1:
        cite = [list_citation(rl, fmt, "restricted list")]
        rule = citer.clause((f"agot2-faq/{fmt}-restricted-list/introduction",))
        if rule:
            note = "" if faq_clauses else " (the rule as FAQ v2.3 printed it; later lists are published separately)"
            cite.append(Citation(rule.line + note, rule.id, rule.text))
        if faq_clauses:
            cite += [c for dc in restricted if (c := _faq23_card(citer, fmt, dc.card))]
        problems.append(
            _problem(
                RESTRICTED,
                f"{len({dc.card.code for dc in restricted})} cards from the {fmt} restricted list of {rl.name} "
                f"({', '.join(dc.card.printing for dc in restricted)}): a deck may include one",
                restricted,
                cite,
            )
        )
    for pod in part.pods:
        if pod.restricted:
            anchor = on((pod.restricted,))
            partners = on(pod.cards)
            if anchor and partners:
                problems.append(
                    _problem(
                        POD,
                        f"pod #{pod.number} of the {fmt} list of {rl.name}: {anchor[0].card.name} cannot be in a deck with "
                        + ", ".join(dc.card.name for dc in partners),
                        anchor + partners,
                        [list_citation(rl, fmt, f"pod #{pod.number}")],
                    )
                )
        else:
            members = on(pod.cards)
            if len({dc.card.code for dc in members}) > 1:
                problems.append(
                    _problem(
                        POD,
                        f"pod #{pod.number} of the {fmt} list of {rl.name}: "
                        + " and ".join(dc.card.printing for dc in members)
                        + " cannot be in the same deck",
                        members,
                        [list_citation(rl, fmt, f"pod #{pod.number}")],
                    )
                )
    for dc in on(part.banned):
        problems.append(
            _problem(BANNED, f"{dc.card.printing} is banned in {fmt} by {rl.name}", [dc], [list_citation(rl, fmt, "banned list")])
        )
    for dc in on(rl.banned_cards):
        legal = [c.printing for c in pool.by_key[dc.card.key] if in_card_pool(rl, c)]
        problems.append(
            _problem(
                CARD_POOL,
                f"{dc.card.printing} is not in the card pool of {rl.name}: "
                "the list bans this printing" + (f"; the list allows {', '.join(legal)}" if legal else ""),
                [dc],
                [list_citation(rl, None, "printings outside its card pool")],
            )
        )
    for dc in cards:
        if dc.card.released and dc.card.released > rl.date:
            cite = [list_citation(rl), *citer.check(UNRELEASED)]
            problems.append(
                _problem(
                    UNRELEASED,
                    f"{dc.card.printing} was released on {dc.card.released}, after {rl.name} ({rl.date}): it is not legal under that list",
                    [dc],
                    cite,
                )
            )
    return problems


def _pinned(dc: DeckCard) -> bool:
    """The player named the printing (its pack, or a code): lists then apply to that printing only."""
    return bool(dc.entry.pack or dc.entry.code)


def _faq23_card(citer: Citer, fmt: str, card: Card) -> Citation | None:
    rows = list(
        citer.db.query(
            "select id from clauses where doc = 'agot2-faq' and kind = 'restricted' and json_extract(data, '$.format') = ?", [fmt]
        )
    )
    for row in rows:
        found = store.clause(citer.db, row["id"])
        if found and normalise_name(str(found["data"].get("card", ""))) == card.key:
            return Citation(found["citation"], found["id"], found["text"])
    return None


# ---------------------------------------------------------------------------- first edition


@dataclass
class List1:
    """The 1st-edition FAQ lists as they stood at a version."""

    version: str
    restricted: dict[str, list[dict[str, Any]]]  # format -> clause rows
    banned: list[dict[str, Any]]


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version))


def lists1(db: Any, as_of: str | None) -> List1:
    """FAQ v5.5.1's lists, or as they stood at ``as_of``: entries removed after it are put back."""
    latest = "5.5.1"
    want = as_of.lstrip("vV") if as_of else latest
    rows = [
        store.clause(db, r["id"])
        for r in db.query("select id from clauses where doc = 'agot1-faq' and kind in ('restricted', 'list-change')")
    ]
    restricted: dict[str, list[dict[str, Any]]] = {"joust": [], "melee": []}
    banned: list[dict[str, Any]] = []
    for row in rows:
        if row is None:
            continue
        data = row["data"]
        if row["kind"] == "restricted" and data.get("format") in restricted:
            introduced = row.get("version")
            if not introduced or _version_key(introduced) <= _version_key(want):
                restricted[data["format"]].append(row)
        elif row["kind"] == "list-change" and row.get("version") and _version_key(row["version"]) > _version_key(want):
            # removed after the version asked for: it was still on the list then
            (banned if data.get("list") == "banned" else restricted.setdefault(data.get("list", "joust"), [])).append(row)
    return List1(f"v{want}", restricted, banned)


def _row_matches(row: dict[str, Any], dc: DeckCard) -> bool:
    data = row["data"]
    if normalise_name(str(data.get("card", ""))) != dc.card.key:
        return False
    number = re.sub(r"\D", "", str(data.get("number") or ""))
    return not number or number.lstrip("0") == dc.card.number.lstrip("0")


PER_DECK1 = re.compile(r"\bLimit (\d+) per deck\b", re.IGNORECASE)  # a card's printed limit (Street of Steel)
PLOT_COPIES1 = re.compile(r"\bYou may have up to (\d+) copies of .{1,80}? in your plot deck\b", re.IGNORECASE)  # The Power of Arms


def _plot_copies1(card: Card) -> int | None:
    """How many copies of a plot its own text allows (the rulebook allows no duplicate plot; the card's text
    that says otherwise is what FAQ v5.5.1's 'as the regular game rules (or card text) allow' means)."""
    found = PLOT_COPIES1.search(card_text(card).text)
    return int(found.group(1)) if found else None


def check1(cards: list[DeckCard], house: str | None, fmt: str, lists: List1, citer: Citer) -> list[Problem]:
    problems: list[Problem] = []
    agendas = [dc for dc in cards if dc.card.type == "agenda"]
    if sum(dc.count for dc in agendas) > 1:
        problems.append(
            _problem(
                AGENDAS1, f"{sum(dc.count for dc in agendas)} agendas: a player may choose a single agenda", agendas, citer.check(AGENDAS1)
            )
        )
    plots = [dc for dc in cards if dc.card.type == "plot"]
    draw = [dc for dc in cards if dc.card.type not in ("plot", "agenda", "house", "title")]
    n_plots = sum(dc.count for dc in plots)
    if n_plots != 7:
        problems.append(_problem(PLOTS1, f"{n_plots} plot cards: the plot deck must have exactly seven", [], citer.check(PLOTS1)))
    plot_titles: dict[str, list[DeckCard]] = defaultdict(list)
    for dc in plots:
        plot_titles[dc.card.key].append(dc)
    for group in plot_titles.values():
        n, allowed = sum(dc.count for dc in group), _plot_copies1(group[0].card)
        if n > 1 and allowed is None:
            problems.append(_problem(PLOTS1, f"{n} copies of {group[0].card.name}: no duplicate plot cards", group, citer.check(PLOTS1)))
        elif allowed is not None and n > allowed:
            problems.append(
                _problem(
                    CARD_LIMIT1,
                    f"{n} copies of {group[0].card.name}: its text allows up to {allowed} in the plot deck",
                    group,
                    [card_text(group[0].card)],
                )
            )
    n_draw = sum(dc.count for dc in draw)
    if n_draw < 60:
        problems.append(_problem(DRAW_MINIMUM1, f"{n_draw} cards in the House deck: the minimum is 60", [], citer.check(DRAW_MINIMUM1)))
    titles: dict[str, list[DeckCard]] = defaultdict(list)
    for dc in draw:
        titles[dc.card.key].append(dc)
    for group in titles.values():
        n = sum(dc.count for dc in group)
        limit = next((int(m.group(1)) for dc in group if (m := PER_DECK1.search(card_text(dc.card).text))), None)
        if limit is not None and n > limit:
            message = f"{n} copies of {group[0].card.name}: its text says 'Limit {limit} per deck'"
            problems.append(_problem(CARD_LIMIT1, message, group, [card_text(group[0].card)]))
        elif n > 3:
            problems.append(_problem(COPIES1, f"{n} copies of {group[0].card.name}: at most 3 by title", group, citer.check(COPIES1)))
    for dc in plots + draw:
        only = re.search(r"House (\w+) only", dc.card.text)
        if only and house and only.group(1).casefold() != house.casefold():
            problems.append(
                _problem(
                    HOUSE_ONLY1,
                    f"{dc.card.name} says 'House {only.group(1)} only' and the deck is {house}",
                    [dc],
                    [*citer.check(HOUSE_ONLY1), card_text(dc.card)],
                )
            )
    on_list = [(dc, row) for dc in cards for row in lists.restricted.get(fmt, []) if _row_matches(row, dc)]
    if len({dc.card.code for dc, _ in on_list}) > 1:
        removed = [f"{dc.card.name} was removed from it by v{row['version']}" for dc, row in on_list if row["kind"] == "list-change"]
        cite = citer.check(RESTRICTED1) + [Citation(row["citation"], row["id"], row["text"]) for _, row in on_list]
        problems.append(
            _problem(
                RESTRICTED1,
                f"{len(on_list)} cards from the {fmt} restricted list as of FAQ {lists.version}: a deck may include one"
                + (f" ({'; '.join(removed)}, later than {lists.version})" if removed else ""),
                [dc for dc, _ in on_list],
                cite,
            )
        )
    for dc in cards:
        for row in lists.banned:
            if _row_matches(row, dc):
                problems.append(
                    _problem(
                        BANNED1,
                        f"{dc.card.printing} was on the banned list at FAQ {lists.version} (removed by v{row['version']})",
                        [dc],
                        [Citation(row["citation"], row["id"], row["text"]), *citer.check(BANNED1)],
                    )
                )
    return problems


# ---------------------------------------------------------------------------- entry point


def _detect_edition(deck: Decklist, pools: dict[int, CardPool]) -> int:
    """ThronesDB JSON is 2nd edition; otherwise the edition whose cards the lines name (with their packs)."""
    if deck.shape == "thronesdb-json":
        return 2
    score = {ed: sum(1 for e in deck.entries if normalise_name(e.name) in pools[ed].by_key) for ed in (1, 2)}
    if score[1] == score[2]:
        packs = {
            ed: sum(
                1 for e in deck.entries for c in pools[ed].by_key.get(normalise_name(e.name), []) if e.pack and _pack_matches(c, e.pack)
            )
            for ed in (1, 2)
        }
        return 1 if packs[1] > packs[2] else 2
    return 1 if score[1] > score[2] else 2


def _other_edition_note(db: Any, deck: Decklist, here: CardPool) -> list[str]:
    """Most names unknown in the chosen edition (``here``, its card pool) are the other edition's cards: the list
    was checked under the wrong edition (a review ran a first-edition list with --edition 2: 21 'unknown card' lines)."""
    edition = here.edition
    other = 3 - edition
    there = CardPool(db, other)
    names = [e.name for e in deck.entries if e.name and not e.code]
    unknown = [n for n in names if not here.by_key.get(normalise_name(n))]
    known_there = [n for n in unknown if there.by_key.get(normalise_name(n))]
    ordinal = "first" if other == 1 else "second"
    if not there and len(unknown) >= max(5, len(names) // 2):
        # (a hostile-input review: with only first-edition card data imported, a second-edition export was read as a
        # first-edition list, some 40 names unknown, and nothing said the other edition's card data was missing)
        return [
            f"{len(unknown)} of the {len(names)} names are not edition {edition}'s cards, and no {ordinal}-edition card data is "
            f"imported: if this is a {ordinal}-edition list, run judgekb import-cards {CARD_DATA[other]}, then check it again"
        ]
    if not there or len(known_there) < max(2, len(unknown) // 2):
        return []
    return [
        f"{len(known_there)} of the {len(unknown)} names not found in edition {edition}'s card data are {ordinal}-edition "
        f"cards ({', '.join(known_there[:3])}{'…' if len(known_there) > 3 else ''}): this looks like a {ordinal}-edition list; "
        f"check it with --edition {other} (or without --edition, which detects it)"
    ]


def check(
    db: Any,
    deck: Decklist,
    edition: int | None = None,
    fmt: str = "joust",
    list_name: str | None = None,
    as_of: str | None = None,
    deadline: float | None = None,
) -> Report:
    """Check a parsed decklist.  Raises DataError for a choice that cannot be honoured (no card data, unknown list);
    guard.Timeout when ``deadline`` (``bounded``'s) passes."""
    if fmt not in ("joust", "melee"):
        raise DataError(f"format must be joust or melee; got {fmt!r}")
    pools = {ed: CardPool(db, ed) for ed in ((edition,) if edition else (1, 2))}
    edition = edition or _detect_edition(deck, pools)
    pool = pools[edition]
    if not pool:
        ordinal = "1st" if edition == 1 else "2nd"
        raise DataError(f"no {ordinal}-edition card data imported: run judgekb import-cards {CARD_DATA[edition]}")
    citer = Citer(db)
    notes: list[str] = []
    rl = None
    if edition == 2:
        lists = restricted_lists.load(db)
        if not lists:
            raise DataError("no dated restricted lists imported: run judgekb import-cards on a throneteki folder with restricted-list.json")
        if as_of:
            raise DataError("--as-of is for first-edition FAQ versions; choose a second-edition list with --list")
        rl = restricted_lists.by_name(lists, list_name) if list_name is not None else restricted_lists.newest(lists)
        if rl is None:
            raise DataError(f"no restricted list named {list_name!r}; lists: " + ", ".join(x.name for x in reversed(lists)))
    elif list_name:
        raise DataError("--list names a second-edition list; for the first edition use --as-of VERSION (e.g. v5.4)")
    elif as_of and not re.fullmatch(r"v?\d+(\.\d+)*", as_of):
        raise DataError(f"--as-of must be a FAQ version such as v5.4; got {as_of!r}")
    elif as_of:  # (v0.1 was taken: every list entry then counted as later, v9 as if the lists had never changed)
        query = "select distinct version from clauses where doc = 'agot1-faq' and version is not null"
        first = min((str(r["version"]) for r in db.query(query)), key=_version_key, default="1.0")
        if not _version_key(first) <= _version_key(as_of.lstrip("vV")) <= _version_key("5.5.1"):
            raise DataError(f"--as-of {as_of}: the FAQ's versions run from v{first} to v5.5.1")

    # bare heading lines: the title, the faction, the agendas
    faction = deck.faction_code
    if faction is not None and faction not in FACTIONS2:  # (a review: 'wolves' was checked, one problem per card)
        raise DataError(f"{deck.source}: field 'faction_code': unknown faction {faction!r} (one of {', '.join(FACTIONS2)})")
    house = None
    title = deck.title
    entries = list(deck.entries)
    after_faction = False  # ThronesDB's export names the agendas right after the faction: a line there is one

    def names_faction(bare: Entry) -> bool:
        if edition == 2:
            return _faction_from_name(bare.name) is not None
        return bare.name.removeprefix("House ").strip() in HOUSES1

    # the export's first line is the deck's name, above its faction: a deck named after its agenda ("Alliance",
    # "Fealty") is still a name there, not a second copy of the agenda (a deck-check review)
    faction_line = next((b.line for b in deck.bare if names_faction(b)), None)
    deck_name = deck.bare[0] if deck.bare and faction_line is not None and deck.bare[0].line < faction_line else None
    for bare in deck.bare:
        code = _faction_from_name(bare.name) if edition == 2 else None
        house_name = bare.name.removeprefix("House ").strip() if edition == 1 else None
        if bare is deck_name and title is None:
            title = bare.name
        elif code:
            faction, after_faction = code, True
        elif edition == 1 and house_name in HOUSES1:
            house, after_faction = house_name, True
        elif (
            any(c.type == "agenda" for c in pool.by_key.get(normalise_name(bare.name), []))
            or bare.section == "agenda"
            or (after_faction and bare.line < deck.heading_end)
        ):
            entries.append(bare)  # (a misspelt agenda is then a name no card has: the check says so, nearest named)
        elif title is None:
            title = bare.name
        else:
            notes.append(f"line {bare.line} ignored (not a card line): {bare.text}")
    entries += [Entry(1, code, 0, f'agendas: "{code}"', code=code) for code in deck.agenda_codes if code not in {e.code for e in entries}]
    if edition == 2:  # "1x House Stark": the faction card written as a card line (the card data holds no faction cards)
        named = [(e, _faction_from_name(e.name)) for e in entries if normalise_name(e.name) not in pool.by_key]
        for entry, code in named:
            if code:
                faction = code
                entries.remove(entry)
    in_force = rl
    allowed = (lambda c: in_card_pool(in_force, c)) if in_force else None
    resolved = resolve(pool, entries, allowed, deadline)
    notes += resolved.notes
    if edition == 1:
        houses = [dc for dc in resolved.cards if dc.card.type == "house"]
        house = houses[0].card.name.removeprefix("House ") if houses else house
    cards = resolved.cards
    problems = list(resolved.problems)
    for p in problems:
        if p.check == AMBIGUOUS.name and edition == 2:
            p.cite = citer.check(AMBIGUOUS)
    faction_missing = False
    if edition == 2:
        agendas, plots, draw = _split2(cards)
        if faction is None:
            # (a deck-check review: a list with no faction card was LEGAL, its faction a guess that decides which cards
            # are out of faction; RR Deckbuilding: "exactly 1 faction card"; TR Deck Lists: the leader completes the
            # list from the cards the player uses).  The rest is checked as the most common faction, and no verdict given.
            loyal = Counter(dc.card.faction for dc in plots + draw if dc.card.faction != "neutral" for _ in range(dc.count))
            faction = loyal.most_common(1)[0][0] if loyal else None
            guessed = f": the rest is checked as {FACTIONS2[faction]}, the most common faction in it" if faction else ""
            problems.append(
                Problem(
                    FACTION.name,
                    f"the list names no faction card{guessed}; ask the player which faction card the deck uses and complete the list",
                    cite=citer.check(FACTION),
                )
            )
            faction_missing = True
        problems += construction2(Deck2(faction, agendas, plots, draw), citer, notes)
        assert rl is not None
        problems += list_checks2(cards, pool, rl, fmt, citer)
        list_used = f"{rl.name} ({rl.issuer}, {rl.date}), {fmt}"
        list_cite: Citation | None = list_citation(rl, fmt)
        counts = {"agendas": sum(dc.count for dc in agendas), "plots": sum(dc.count for dc in plots), "draw": sum(dc.count for dc in draw)}
        faction_name = FACTIONS2.get(faction or "", faction)
        agenda_names = [dc.card.name for dc in agendas]
    else:
        l1 = lists1(db, as_of)
        problems += check1(cards, house, fmt, l1, citer)
        intro = citer.clause(("agot1-faq/restricted/introduction",))
        list_used = f"AGoT LCG 1.0 FAQ restricted and banned lists as of {l1.version}, {fmt}"
        list_cite = intro
        counts = {
            "plots": sum(dc.count for dc in cards if dc.card.type == "plot"),
            "draw": sum(dc.count for dc in cards if dc.card.type not in ("plot", "agenda", "house", "title")),
            "agendas": sum(dc.count for dc in cards if dc.card.type == "agenda"),
        }
        faction_name = f"House {house}" if house else None
        agenda_names = [dc.card.name for dc in cards if dc.card.type == "agenda"]
    unread = [p for p in problems if p.check in (UNKNOWN.name, AMBIGUOUS.name)]
    unreadable = bool(unread) or faction_missing
    if unread:  # (a deck-check review read "57 cards: the minimum is 60" as a second fault of a 60-card list)
        uncounted = sum(e.count for e in deck.entries if e.line in {n for p in unread for n in p.lines})
        for p in problems:
            if p.check in (PLOTS.name, DRAW_MINIMUM.name, PLOTS1.name, DRAW_MINIMUM1.name) and uncounted:
                p.message += f" (not counting the {uncounted} card(s) on lines that name no card, or several)"
    if unreadable and (len(pools) == 1 or not pools[3 - edition]):  # a list of the other edition's cards says so
        notes += _other_edition_note(db, deck, pool)
    others = [p for p in problems if p.check not in (UNKNOWN.name, AMBIGUOUS.name)]
    # a line naming no card (or a list naming no faction card) makes every count uncertain: no verdict, but the
    # problems found so far are listed
    verdict: Verdict = "cannot be checked" if unreadable else ("not legal" if others else "legal")
    return Report(
        verdict=verdict,
        edition=edition,
        format=fmt,
        list_used=list_used,
        list_citation=list_cite,
        source=deck.source,
        deck_title=title,
        faction=faction_name,
        agendas=agenda_names,
        counts=counts,
        problems=problems,
        notes=notes,
        cards=[
            {"printing": dc.card.printing, "code": dc.card.code, "type": dc.card.type, "count": dc.count, "line": dc.entry.line}
            for dc in cards
        ],
    )


def unreadable_lines(report: Report) -> list[str]:
    """``file:line: problem`` for each line that names no card, or several: the message for stderr."""
    out = []
    for p in report.problems:
        if p.check in (UNKNOWN.name, AMBIGUOUS.name):
            out.append(f"{report.source}:{p.message.removeprefix('line ')}")
        elif p.check == FACTION.name and report.verdict == "cannot be checked":
            out.append(f"{report.source}: {p.message}")
    return out


def render(report: Report) -> str:
    """The sheet as plain text: verdict first, then each problem with card, printing, line and citations."""
    verdict = report.verdict.upper()
    lines = [f"{verdict} — {report.list_used}"]
    if report.list_citation:
        lines.append(f"List: {report.list_citation.line}" + (f" <{report.list_citation.url}>" if report.list_citation.url else ""))
    who = ", ".join(x for x in (report.deck_title, report.faction, " + ".join(report.agendas) or None) if x)
    lines.append(
        f"Deck: {who or '(untitled)'} — {report.counts.get('plots', 0)} plots, {report.counts.get('draw', 0)} draw cards "
        f"[{report.source}, {'1st' if report.edition == 1 else '2nd'} edition]"
    )
    if not report.problems:
        lines.append("No problems found.")
    for number, p in enumerate(report.problems, start=1):
        lines.append(f"\n{number}. [{p.check}] {p.message}")
        for line, text in zip(p.lines, p.source_lines, strict=False):
            lines.append(f"   line {line}: {text}" if line else f"   {text}")
        for c in p.cite:
            lines.append(f"   cites: {c.line}" + (f"  [{c.id}]" if c.id else ""))
    for note in report.notes:
        lines.append(f"\nNote: {note}")
    return "\n".join(lines) + "\n"
