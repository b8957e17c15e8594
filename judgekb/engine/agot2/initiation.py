"""Whether an ability can be initiated (second edition), asked before its costs are paid.

RR Abilities: "A card ability can only be initiated if its effect has the potential to change the game state"; RR
Costs: "An ability cannot initiate (and therefore its costs cannot be paid) if the resolution of its effect will not
change the game state."  An effect's fields are classed here: QUALIFIERS (who and what it names, its timing, a cost, a
condition, a flag) change nothing by themselves; KNEEL_STAND and every other field may.  ``check`` raises
CannotInitiate when every part that could change the game state could not: a kneel of a kneeling card, a kill (or any
move out of play) of a card that has left play since the chain of events it answers began, a return from a pile the
card has left since, removing a character that is not participating.

A card that has left play in the chain is a game fact; a card that was never where the effect looks for it (in hand
from the start, a character never in play) is a mistake in the scenario: ``check`` leaves it to the effect, which
refuses the step (``IN_PLAY_ONLY``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgekb.engine.agot2 import RULES
from judgekb.engine.core.registry import CannotInitiate
from judgekb.engine.core.state import Card, State
from judgekb.engine.core.steps import names

LEAVE = ("kill", "discard", "sacrifice", "return_to_hand", "return_to_deck")
PILES = {"discard": "discard pile", "dead": "dead pile"}  # the out-of-play areas a `from` with return_to_hand names
ZONE_SAID = {
    "hand": "hand",
    "discard": "discard pile",
    "dead": "dead pile",
    "deck": "draw deck",
    "shadows": "shadows area",
    "plot": "plot deck",
    "used": "used pile",
    "being played": "no out-of-play area (being played)",
}

# The fields of an effect (scenario.EFFECT) that cannot change the game state on their own: who and what it names, its
# timing, a cost, a condition, a choice or flag that only qualifies another part, free text.  An effect whose other parts
# all could not change the game state cannot be initiated (RR Abilities).  tests/engine/test_engine_validation.py checks
# that every EFFECT field is one of these, a kneel or stand part, or a part that may change the game state, so a new field
# is classed when it is added (review r65 M1: `note` and `cannot_be_saved` were taken as parts, and an effect that only
# kneels a kneeling card was let through).
QUALIFIERS = frozenset(
    ("source", "source_type", "controller", "player", "target", "choose", "all", "until", "reactions", "interrupts",
     "saves", "save", "cost", "cannot_be_saved", "position", "note", "victory_choice", "priority", "order", "forced_order", "infamy",
     "onto", "from", "kneeling", "participating", "each_player", "instead", "if_won_by", "if_attacking_alone",
     "referential")
)
KNEEL_STAND = frozenset(("kneel", "stand", "kneel_faction_card", "stand_faction_card"))
KNEEL_STAND_ONLY = QUALIFIERS | KNEEL_STAND

NO_CHANGE = "ability.no-change"
RULES.add(
    NO_CHANGE,
    ["agot2-rr/abilities", "agot2-rr/costs", "agot2-rr/kneel", "agot2-rr/stand", "agot2-rr/participating", "agot2-faq41/2.4"],
    "a card ability can only be initiated if its effect has the potential to change the game state: one that could not "
    "is not initiated and its costs are not paid",
)
PART_IDLE = "effect.part-idle"
RULES.add(
    PART_IDLE,
    ["agot2-rr/abilities", "agot2-rr/effects", "agot2-rr/participating", "agot2-faq41/2.4"],
    "an initiated effect resolves as much of each aspect as it is able: a card that has left play (or the out-of-play "
    "area the ability names) since the chain began, or a character not participating, is not affected",
)
IN_PLAY_ONLY = "effect.in-play-only"
RULES.add(
    IN_PLAY_ONLY,
    ["agot2-rr/abilities", "agot2-faq41/2.4"],
    "a card ability interacts only with cards in play unless its text names an out-of-play area, and then only with the "
    "cards in that area",
)


@dataclass(frozen=True)
class Idle:
    """A part of an effect that could not change the game state: why, in the game's words, and the clause deciding it."""

    said: str
    cite: str


def snapshot(state: State) -> None:
    """Each card's zone as a step that opens reaction windows begins: the interrupts and reactions of its chain of
    events (nested in it, or reaction steps after it) compare with it."""
    state.window_zones = {key: "duplicate" if card.duplicate else card.zone for key, card in state.cards.items()}


def in_play(card: Card) -> bool:
    return card.zone == "in_play" and not card.duplicate


def where(card: Card) -> str:
    """Where a card is, out of play ("in its owner Ben's hand") or in play."""
    if in_play(card):
        return "in play"
    if card.duplicate:
        return f"a duplicate on {card.attached_to}"
    if card.zone == "removed":
        return "removed from the game"
    return f"in its owner {card.owner}'s {ZONE_SAID.get(card.zone, card.zone)}"


def left_play(state: State, key: str) -> bool:
    """Card ``key`` is out of play, and was in play when this chain of events began or entered play and left since."""
    card = state.cards[key]
    if in_play(card):
        return False
    return state.window_zones.get(key) == "in_play" or f"leave play: {key}" in state.facts.get("open_windows", {})


def left_pile(state: State, key: str, pile: str) -> bool:
    """Card ``key`` was in its owner's ``pile`` when this chain of events began and is not there now."""
    return state.cards[key].zone != pile and state.window_zones.get(key) == pile


def named_pile(effect: dict[str, Any]) -> str | None:
    """The out-of-play area a return to hand names (`from: discard|dead`, as the card's text names it), else None."""
    origin = effect.get("from")
    return str(origin) if origin in PILES and effect.get("return_to_hand") and not effect.get("put_into_play") else None


def already(key: str, kneel: bool) -> str:
    """A card (or "PLAYER's faction card") already in the state a kneel (stand) would put it in."""
    if kneel:
        return f"{key} is already kneeling: a kneeling card cannot kneel again until it is standing"
    return f"{key} is already standing: it is upright, and a standing card does not stand again"


def gone_said(key: str, card: Card) -> str:
    return (
        f"{key} has left play since this chain of events began (it is {where(card)}), and a card ability interacts only "
        "with cards in play unless its text names an out-of-play area"
    )


def not_participating(state: State, key: str) -> str | None:
    """Why removing ``key`` from the challenge would change nothing, or None if it is participating."""
    challenge = state.challenge
    if challenge is None or challenge.ended:
        return f"no challenge is underway, so {key} is not participating in one"
    if key not in challenge.attackers + challenge.defenders:
        return f"{key} is not participating in the challenge"
    return None


def _idle(state: State, effect: dict[str, Any], part: str, key: str) -> Idle | None:
    """Why this part could not change the game state for card ``key``, or None if it could (or if the card is not where
    the effect looks for it and never was in this chain: the effect refuses that)."""
    card = state.cards.get(key)
    if card is None:
        return None
    pile = named_pile(effect) if part == "return_to_hand" else None
    if pile is not None:
        if left_pile(state, key, pile):
            said = f"{key} has left its owner's {PILES[pile]} since this chain of events began (it is {where(card)})"
            return Idle(said, "agot2-faq41/2.4")
        return None
    if part in LEAVE + ("kneel", "stand") and left_play(state, key):
        return Idle(gone_said(key, card), "agot2-rr/abilities")
    if part in ("kneel", "stand") and card.kneeling == (part == "kneel"):
        if effect.get("choose") and not effect.get("all") and key in names(effect.get("target")):
            return None  # a chosen target: not an eligible one (RR Target), said as the targets are chosen
        return Idle(already(key, part == "kneel"), "agot2-rr/kneel" if part == "kneel" else "agot2-rr/stand")
    if part == "remove_from_challenge":
        why = not_participating(state, key)
        return Idle(why, "agot2-rr/participating") if why else None
    return None


def idle_parts(state: State, effect: dict[str, Any]) -> list[Idle]:
    """Every part of ``effect`` that may change the game state, each said idle; empty when some part could change it
    (or when the effect has no such part at all)."""
    parts = [k for k in effect if k not in QUALIFIERS and not k.startswith("_") and effect[k] not in (None, False, "", [], {})]
    found: list[Idle] = []
    for part in parts:
        if part in ("kneel_faction_card", "stand_faction_card"):
            kneel = part == "kneel_faction_card"
            player = state.players.get(str(effect[part]))
            if player is None or player.faction_kneeling != kneel:
                return []
            found.append(Idle(already(f"{effect[part]}'s faction card", kneel), "agot2-rr/kneel" if kneel else "agot2-rr/stand"))
            continue
        if part not in LEAVE + ("kneel", "stand", "remove_from_challenge"):
            return []
        for key in names(effect[part]):
            idle = _idle(state, effect, part, key)
            if idle is None:
                return []
            found.append(idle)
    return found


def check(state: State, effect: dict[str, Any], source: str, costs: bool) -> None:
    """Before an ability's costs are paid: raises CannotInitiate when its effect could not change the game state.

    The potential "is assessed without taking into account the consequences of the cost payment" (RR Abilities), so
    this is asked once, before them; the effect, once initiated, resolves as much as it is able."""
    idle = idle_parts(state, effect)
    if not idle:
        return
    why = "; ".join(dict.fromkeys(i.said for i in idle))
    cite = sorted({i.cite for i in idle} | {"agot2-rr/abilities"} | ({"agot2-rr/costs"} if costs else set()))
    raise CannotInitiate(
        NO_CHANGE,
        f"{why}: {source} could not change the game state, so it cannot be initiated" + (" and its costs are not paid" if costs else ""),
        why,
        cite,
    )
