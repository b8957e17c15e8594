"""Leaving play: kills, discards and returns, saves with duplicates, "cannot", and where cards go."""

from __future__ import annotations

from judgekb.engine.agot1 import rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, State
from judgekb.engine.core.trace import Trace

DESTINATIONS = {"kill": "dead", "discard": "discard", "return_to_hand": "hand", "return_to_deck": "deck"}
VERBS = {"kill": "killed", "discard": "discarded", "return_to_hand": "returned to hand", "return_to_deck": "returned to deck"}


@rule(
    "cannot.absolute", ["agot1-faq/4.3"], "'cannot' is absolute; a card that cannot be killed/saved/etc. may not be chosen for that effect"
)
def check_cannot(state: State, card: Card, what: str) -> None:
    if f"be {what}" in state.cannots(card):
        raise IllegalStep(
            "cannot.absolute", f"{card.key} cannot be {what}: 'cannot' is an absolute and the card may not be chosen for that effect"
        )


@rule(
    "duplicate.save",
    ["agot1-faq/4.2", "agot1-rules/duplicates", "agot1-faq/4.14"],
    "a unique card about to leave play may be saved by discarding an attached duplicate, from a keyword's kill too",
)
def save_with_duplicate(state: State, trace: Trace, card: Card, how: str, cannot_be_saved: bool, keyword: str | None = None) -> bool:
    duplicates = [c for c in state.attachments(card) if c.duplicate]
    if cannot_be_saved or "be saved" in state.cannots(card):
        trace.add("cannot.absolute", f"{card.key} cannot be saved, so no duplicate may even attempt to save it", "refused")
        return False
    if not duplicates:
        raise IllegalStep("duplicate.save", f"{card.key} has no duplicate attached to discard")
    duplicate = duplicates[0]
    duplicate.zone, duplicate.attached_to, duplicate.duplicate = "discard", None, False
    trace.add(
        "duplicate.save",
        f"{card.owner} discards a duplicate of {card.key} to save it from being {how}"
        + (f" by {keyword} (a keyword's effect can be saved from)" if keyword else "")
        + f"; {card.key} stays in play",
        cite=["agot1-faq/4.2", "agot1-rules/duplicates"] + (["agot1-faq/4.14"] if keyword else []),
    )
    return True


@rule(
    "leave.play",
    ["agot1-faq/4.5", "agot1-faq/3.31", "agot1-rules/power-and-victory", "agot1-faq/timing/action-window/6-action-is-resolved"],
    "a card leaving play goes to its owner's pile; its power returns to the pool; attachments and duplicates are discarded",
)
def leave_play(state: State, trace: Trace, card: Card, how: str) -> None:
    destination = DESTINATIONS[how]
    words = set(state.keywords(card))
    reason = ""
    if how in ("kill", "discard") and "stalwart" in words:
        destination = "deck"
        trace.add("keyword.stalwart", f"{card.key} has Stalwart: it is placed on top of {card.owner}'s deck instead")
        reason = " (Stalwart)"
    elif destination == "discard" and "deathbound" in words:
        destination = "dead"
        trace.add("keyword.deathbound", f"{card.key} has Deathbound: it goes to the dead pile instead of the discard pile")
        reason = " (Deathbound)"
    discarded = [a.key for a in state.attachments(card)]
    for attached in state.attachments(card):
        attached.zone, attached.attached_to = "discard", None
        attached.controller = attached.owner
        attached.duplicate = False
    lost = card.power
    card.power = 0
    state.ledger(to_pool=lost)
    card.kneeling = False
    controller = card.controller
    card.zone = destination
    if destination == "deck":
        state.place_in_deck(card, "top")
    card.controller = card.owner
    state.effects = [e for e in state.effects if e.target != card.key]
    extra = []
    if discarded:
        extra.append(f"its attachments and duplicates ({', '.join(discarded)}) are discarded")
    if lost:
        extra.append(f"its {lost} power returns to the power pool")
    place = {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck": "deck"}[destination]
    if destination == "deck":
        place = "deck (on top)"
    cite = ["agot1-faq/4.5"]  # per fact: leaving play always; the owner's pile when control differed;
    if controller != card.owner:  # attachments discarded; power back to the pool
        cite.append("agot1-faq/3.31")
    if discarded:
        cite.append("agot1-faq/timing/action-window/6-action-is-resolved")
    if lost:
        cite.append("agot1-rules/power-and-victory")
    trace.add(
        "leave.play",
        f"{card.key} is {VERBS[how]} and placed in its owner {card.owner}'s {place}{reason}"
        + (f" (it was controlled by {controller})" if controller != card.owner else "")
        + (f"; {', '.join(extra)}" if extra else ""),
        cite=cite,
    )
    from judgekb.engine.agot1.challenges import remove_from_challenge

    remove_from_challenge(state, trace, card, f"{card.key} left play")


@rule("keyword.stalwart", ["agot1-rules/stalwart"], "Stalwart cards go to the top of their owner's deck")
def _stalwart() -> None:
    """Applied inside leave_play."""


@rule("keyword.deathbound", ["agot1-rules/deathbound", "agot1-faq/4.7"], "Deathbound cards go to the dead pile")
def _deathbound() -> None:
    """Applied inside leave_play."""


def remove(
    state: State, trace: Trace, key: str, how: str, cannot_be_saved: bool = False, save: bool = False, keyword: str | None = None
) -> bool:
    """Kill, discard or return a card; True if it left play."""
    card = state.cards[key]
    if card.zone != "in_play" or card.duplicate:
        raise IllegalStep("leave.play", f"{key} is not in play")
    check_cannot(state, card, VERBS[how])
    if save and save_with_duplicate(state, trace, card, VERBS[how], cannot_be_saved, keyword):
        return False
    leave_play(state, trace, card, how)
    return True
