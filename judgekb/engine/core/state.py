"""The board as plain data, shared by both editions: players, cards by zone (the deck in order),
the challenge under way, lasting and delayed effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHALLENGE_TYPES = ("military", "intrigue", "power")
ZONES = ("hand", "deck", "in_play", "discard", "dead", "shadows", "plot", "revealed", "used", "removed", "being played", "agenda")
CARD_TYPES = ("character", "location", "attachment", "event", "plot", "agenda")
KEYWORDS = (
    "stealth",
    "renown",
    "deadly",
    "intimidate",
    "vigilant",
    "vengeful",
    "limited",
    "no attachments",
    "deathbound",
    "stalwart",
    "infamy",
    "ambush",
    "setup",
)


@dataclass
class Plot:
    name: str = "plot"
    income: int = 0
    initiative: int = 0
    claim: int = 1
    reserve: int = 6
    traits: list[str] = field(default_factory=list)
    when_revealed: str = ""  # its When Revealed ability, as free text (for the record: not applied)


@dataclass
class Card:
    key: str  # unique within a scenario: the name, or "Name#2" for a second copy
    name: str
    type: str
    owner: str
    controller: str
    zone: str
    strength: int = 0
    icons: set[str] = field(default_factory=set)
    traits: list[str] = field(default_factory=list)
    crests: list[str] = field(default_factory=list)
    keywords: set[str] = field(default_factory=set)
    immune: set[str] = field(default_factory=set)  # "events", "character abilities", "triggered effects"…
    cannot: set[str] = field(default_factory=set)  # "be killed", "be saved", "be discarded"…
    unique: bool = False
    cost: int = 0
    house: str = "neutral"
    houses: tuple[str, ...] = ()  # a multi-house card's Houses (1st ed. Rules of Play, Multi-house Cards); house is the first
    kneeling: bool = False
    power: int = 0
    attached_to: str | None = None  # attachments and duplicates: the card they are on
    duplicate: bool = False
    restriction: str | None = None  # attachments: "opponent's character", "own character", "trait:Lord"…
    income: int = 0
    influence: int = 0
    initiative: int = 0
    reserve: int = 0  # a printed reserve modifier (2nd ed. RR Plot Value Modifiers): added to the revealed plot's reserve
    gold_tokens: int = 0
    order: int = 0  # position in its zone: the deck is read top (lowest) to bottom
    faction: str = "neutral"
    loyal: bool = False
    constant: set[str] = field(default_factory=set)  # constant abilities the engine knows (docs/scenarios.md)
    values: dict[str, int] = field(default_factory=dict)  # keyword values: ambush/bestow/shadow (X)
    plot: Plot | None = None  # plot cards: their values
    facedown: bool = False  # a facedown card in play (e.g. attached under Dothraki Handmaiden)


@dataclass
class TitleTerms:
    """A melee title's relationships as a second-edition scenario gives them (``title: {name, supports, rivals}``):
    a field given replaces what the printed title card says (corpus/titles2.yaml); one left out keeps it."""

    supports: str | None = None
    supports_given: bool = False  # ``supports`` was given (``null``: the title supports none)
    rivals: list[str] | None = None  # None: the printed rivals


@dataclass
class Player:
    name: str
    house: str
    plot: Plot = field(default_factory=Plot)
    gold: int = 0
    power: int = 0  # power on the House card
    title: str | None = None
    limited_this_round: int = 0
    extra_draws_this_round: int = 0
    copies_this_phase: dict[str, int] = field(default_factory=dict)
    challenges_this_round: list[str] = field(default_factory=list)
    opposes_claimed_this_round: bool = False
    redirect_used_this_round: bool = False
    title_terms: TitleTerms | None = None  # edition 2: the relationships the scenario gives for its title
    title_power: int = 0  # edition 2: power on the title borne (FAQ v4.1 A Cask of Ale Q&A: a title is in play)
    rival_bonuses_this_round: list[str] = field(default_factory=list)  # edition 2: opponents who gave a rivals bonus
    challenge_opponents: list[tuple[str, str]] = field(default_factory=list)  # this phase: (type, opponent initiated against)
    title_challenge_used: bool = False  # edition 2: the Hand of the King's additional challenge this phase
    faction_kneeling: bool = False  # edition 2: the faction card is knelt ("Kneel your faction card" costs)
    faction: str = "neutral"
    agendas: list[str] = field(default_factory=list)


@dataclass
class Lasting:
    """A lasting effect: summed with the others, expiring at ``until``."""

    target: str
    kind: str  # "str", "gain keyword", "lose keyword", "gain icon", "lose icon", "control", "cannot" (value: ``cannot_words``)
    value: Any
    until: str  # "phase", "round", "challenge", "permanent"
    source: str = ""
    previous: str | None = None  # for control: who controlled it before
    while_in_play: str | None = None  # lasts while this card stays in play
    source_type: str = ""  # the card type of the source (immunity to delayed effects: FAQ 2.2)
    seq: int = 0  # creation order: the latest control change wins


@dataclass
class Delayed:
    """A delayed effect resolved at the end of a period ("at the end of the phase, …")."""

    period: str  # "phase", "challenge", "round"
    effect: dict[str, Any]
    source: str = ""
    cards: tuple[str, ...] = ()  # the cards in play it affects: one that leaves play is no longer affected (2nd ed. RR Leaves Play)


@dataclass
class Challenge:
    type: str
    attacker: str
    defender: str  # the target: responsible for claim
    attackers: list[str] = field(default_factory=list)
    defenders: list[str] = field(default_factory=list)
    stealth: dict[str, str] = field(default_factory=dict)  # attacker key -> bypassed character key
    defending_player: str | None = None  # who declared defenders (a supporting player, or the target)
    kingsguard: str | None = None  # the Lord Commander who redirected this challenge against himself
    redirected: bool = False  # a title moved it to another target (who has declared no defenders yet)
    initiated_against: str | None = None  # edition 2: a redirected challenge is still considered initiated against him or her
    resolved: bool = False
    ended: bool = False
    initiated: bool = True  # a challenge counts as initiated even if it ends without a winner
    # card -> the players it contributes its STR to, oldest first, and whether by participating (FAQ 2.10)
    contributions: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)

    def unresolved_result(self) -> dict[str, Any]:
        """The result record of a challenge that ended before any winner was determined."""
        return {
            "type": self.type,
            "attacker": self.attacker,
            "defender": self.defender,
            "defending_player": self.defending_player or self.defender,
            "winner": None,
            "loser": None,
            "attack": 0,
            "defence": 0,
            "ended_without_resolution": True,
            "ended_without_winner": True,
            "claim": "none",
        }


@dataclass
class State:
    players: dict[str, Player]
    cards: dict[str, Card]
    first_player: str
    phase: str = "challenges"
    round: int = 1
    challenge: Challenge | None = None
    effects: list[Lasting] = field(default_factory=list)
    delayed: list[Delayed] = field(default_factory=list)
    winner: str | None = None
    results: list[dict[str, Any]] = field(default_factory=list)  # challenge results in order
    facts: dict[str, Any] = field(default_factory=dict)  # initiative, dominance… for expectations
    melee: bool = False
    title_data: dict[str, dict[str, Any]] = field(default_factory=dict)  # the edition's titles: corpus/titles.yaml, titles2.yaml
    # edition 2: each card's zone ("duplicate" for a duplicate) when the step whose reaction windows are open began:
    # an interrupt or reaction in that chain finds a card that has left play (or left a pile) since
    window_zones: dict[str, str] = field(default_factory=dict)

    # ---------------------------------------------------------------- queries

    def player_order(self) -> list[str]:
        """Players clockwise from the first player (scenario order is seating order)."""
        names = list(self.players)
        start = names.index(self.first_player)
        return names[start:] + names[:start]

    def in_play(self, player: str | None = None, kind: str | None = None) -> list[Card]:
        return [
            c
            for c in self.cards.values()
            if c.zone == "in_play"
            and c.attached_to is None
            and (player is None or c.controller == player)
            and (kind is None or c.type == kind)
        ]

    def zone(self, player: str, zone: str) -> list[Card]:
        return sorted((c for c in self.cards.values() if c.owner == player and c.zone == zone), key=lambda c: c.order)

    def refused_since_challenge(self, verb: str) -> list[int]:
        """The steps of this verb the runner refused (``facts["refused_steps"]``) since the challenge under way was
        declared (``facts["challenge_step"]``): a resolve says a refused defend step was refused, not missing."""
        since = int(self.facts.get("challenge_step", 0))
        return [n for n, refused in self.facts.get("refused_steps", {}).items() if refused == verb and n > since]

    def deck(self, player: str) -> list[Card]:
        """The player's draw deck, top first."""
        return self.zone(player, "deck")

    def deck_position(self, key: str) -> int | str:
        """1 for the top card of its owner's deck; "not in deck" otherwise."""
        card = self.cards[key]
        if card.zone != "deck":
            return "not in deck"
        return [c.key for c in self.deck(card.owner)].index(key) + 1

    def place_in_deck(self, card: Card, position: str = "top") -> None:
        """Put a card on the top or the bottom of its owner's deck."""
        others = [c.order for c in self.deck(card.owner) if c is not card]
        card.zone = "deck"
        if not others:
            card.order = 0
        else:
            card.order = min(others) - 1 if position == "top" else max(others) + 1

    def attachments(self, card: Card) -> list[Card]:
        return [c for c in self.cards.values() if c.attached_to == card.key and c.zone == "in_play"]

    def blanked(self, card: Card) -> bool:
        return any(e.target == card.key and e.kind == "blank" for e in self.effects)

    def next_seq(self) -> int:
        """The next number of the game's one running count: the order cards reach a zone and lasting effects begin
        (the latest control change wins; a pile's last card is its top)."""
        self.facts["seq"] = self.facts.get("seq", 0) + 1
        return int(self.facts["seq"])

    def ended(self, period: str) -> bool:
        """Has this period ("phase", "round", "challenge") ended, and the next not yet begun?  From the moment a
        period ends an "until the end of" it effect fails (RR Lasting Effects), a phase step that follows begins the
        next phase without ending this one again, and only its delayed effects and reactions to its end resolve."""
        return period in self.facts.get("ended_periods", [])

    def end_periods(self, *periods: str) -> None:
        """These periods have just ended (the phase's end ends its challenge too; the round's, its phase)."""
        self.facts["ended_periods"] = sorted(set(self.facts.get("ended_periods", [])) | set(periods))

    def begin_period(self, period: str) -> None:
        """A new period has begun: a new phase (and round, after a round's end) clears them all; a new challenge,
        only the challenge."""
        ended = self.facts.get("ended_periods", [])
        self.facts["ended_periods"] = [p for p in ended if p != "challenge"] if period == "challenge" else []

    def cannots(self, card: Card) -> set[str]:
        """The card's 'cannot' restrictions in force: its own and those a lasting effect on it gives, until it expires."""
        return card.cannot | {str(e.value) for e in self.effects if e.target == card.key and e.kind == "cannot"}

    def keywords(self, card: Card) -> set[str]:
        words = set() if self.blanked(card) else set(card.keywords)  # a blank text box keeps only gained keywords
        if any(e.target == card.key and e.kind == "lose keyword" and e.value == "all keywords" for e in self.effects):
            return set()  # "lose all keywords": every instance of each, whatever grants them (2nd ed. FAQ 2.9)
        for effect in self.effects:
            if effect.target == card.key and effect.kind == "gain keyword":
                words.add(effect.value)
            if effect.target == card.key and effect.kind == "lose keyword":
                words.discard(effect.value)
        return words

    def traits(self, card: Card) -> list[str]:
        """Printed traits plus gained ones, minus lost ones; 'lose all traits' leaves none (2nd ed. FAQ 2.9); a blank
        text box has no printed traits, while traits gained from another source stay (2nd ed. RR Blank)."""
        mine = [e for e in self.effects if e.target == card.key and e.kind in ("gain trait", "lose trait")]
        if any(e.kind == "lose trait" and e.value == "all traits" for e in mine):
            return []
        blank = any(e.target == card.key and e.kind == "blank" and e.value != "except traits" for e in self.effects)
        traits = [] if blank else list(card.traits)
        for effect in mine:
            if effect.kind == "gain trait" and effect.value not in traits:
                traits.append(effect.value)
            elif effect.kind == "lose trait" and effect.value in traits:
                traits.remove(effect.value)
        return traits

    def modifier(self, card: Card, kind: str) -> int:
        """A card's printed gold ('income'), initiative, reserve or influence modifier: none while its text box is blank (its
        non-challenge icons are part of the text box, 2nd ed. RR Blank)."""
        return 0 if self.blanked(card) else int(getattr(card, kind))

    def icons(self, card: Card) -> set[str]:
        icons = set(card.icons)
        net: dict[str, int] = {}
        for effect in self.effects:
            if effect.target == card.key and effect.kind in ("gain icon", "lose icon"):
                net[effect.value] = net.get(effect.value, 0) + (1 if effect.kind == "gain icon" else -1)
        for icon, change in net.items():  # lasting effects are summed; at most one icon of a kind
            if change > 0:
                icons.add(icon)
            elif change < 0:
                icons.discard(icon)
        return icons

    def strength(self, card: Card) -> int:
        """Printed STR plus every lasting modifier, floored at 0; a "set" value overrides every non-set
        modifier, and of several set values the most recently applied one wins."""
        sets = [e for e in self.effects if e.target == card.key and e.kind == "set str"]
        if sets:
            return max(0, int(max(sets, key=lambda e: e.seq).value))
        total = card.strength + sum(e.value for e in self.effects if e.target == card.key and e.kind == "str")
        return max(0, total)

    def total_power(self, player: str) -> int:
        """Power toward victory: the House card plus power on cards the player controls in play."""
        on_cards = sum(
            c.power
            for c in self.cards.values()
            if c.zone == "in_play"
            and c.controller == player
            and c.type in ("character", "location", "attachment")
            and (c.type == "character" or "infamy" in self.keywords(c))
        )
        return self.players[player].power + self.players[player].title_power + on_cards

    def claimed_power(self, player: str) -> int:
        """Power on the House and on characters (the initiative tie-break)."""
        return self.players[player].power + sum(c.power for c in self.in_play(player, "character"))

    def ledger(self, from_pool: int = 0, to_pool: int = 0) -> None:
        """Count power taken from / returned to the power pool (checked by the engine bench)."""
        self.facts["from_pool"] = self.facts.get("from_pool", 0) + from_pool
        self.facts["to_pool"] = self.facts.get("to_pool", 0) + to_pool

    def outcome(self) -> tuple[Any, ...]:
        """What a judge reads off the board: where each card is and who controls it, whether it kneels, its STR, tokens
        and host; each player's power, gold and faction card; the lasting effects; the winner.  Two orders of resolving
        the same abilities that leave the same outcome are the same ruling (running counts and records aside)."""
        cards = tuple(
            (c.key, c.zone, c.controller, c.kneeling, self.strength(c) if c.zone == "in_play" else 0, c.power, c.gold_tokens,
             c.attached_to, c.duplicate, c.facedown)
            for c in sorted(self.cards.values(), key=lambda c: c.key)
        )  # fmt: skip
        players = tuple((n, p.power, p.gold, p.faction_kneeling, p.title_power) for n, p in sorted(self.players.items()))
        effects = tuple(sorted((e.target, e.kind, repr(e.value), e.until, e.source) for e in self.effects))
        return cards, players, effects, self.winner, tuple(self.facts.get("eliminated", []))

    def power_in_game(self) -> int:
        return sum(p.power + p.title_power for p in self.players.values()) + sum(c.power for c in self.cards.values())

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]
