"""Control changes: who may take what, what moves with the card, and what falls off."""

from __future__ import annotations

from judgekb.engine.agot1 import marshal, rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Lasting, State
from judgekb.engine.core.trace import Trace


@rule(
    "control.take",
    ["agot1-faq/3.27", "agot1-faq/3.28", "agot1-faq/3.29"],
    "the new controller gains the card and its duplicates, not its attachments; the change lasts as stated or until "
    "the card leaves play; unique cards follow the uniqueness rules",
)
def take_control(state: State, trace: Trace, player: str, key: str, until: str) -> None:
    from judgekb.engine.agot1.challenges import remove_from_challenge

    card = state.cards[key]
    if card.zone != "in_play" or card.duplicate or card.attached_to:
        raise IllegalStep("control.take", f"{key} is not a card in play whose control can change")
    if card.controller == player:
        raise IllegalStep("control.take", f"{player} already controls {key}")
    if {"be controlled", "change control"} & state.cannots(card):
        raise IllegalStep("cannot.absolute", f"{key} cannot change control")
    marshal.check_unique(state, player, card, taking_control=True)
    previous = card.controller
    card.controller = player
    moved = [d.key for d in state.attachments(card) if d.duplicate]
    for duplicate in state.attachments(card):
        if duplicate.duplicate:
            duplicate.controller = player
    kept = [a.key for a in state.attachments(card) if not a.duplicate]
    if until != "permanent":
        state.effects.append(Lasting(key, "control", player, until, previous=previous))
    text = f"{player} takes control of {key} from {previous}" + (
        f" until the end of the {until}" if until != "permanent" else " (permanent until it leaves play)"
    )
    if moved:
        text += f"; its duplicates ({', '.join(moved)}) come with it"
    if kept:
        text += f"; its attachments ({', '.join(kept)}) stay under their controllers"
    # per fact: 3.28 the duration (stated, else permanent until it leaves play); 3.27 only when duplicates or
    # attachments are there to follow or stay; 3.29 only for a unique card
    cite = (["agot1-faq/3.27"] if moved or kept else []) + ["agot1-faq/3.28"] + (["agot1-faq/3.29"] if card.unique else [])
    trace.add("control.take", text, cite=cite)
    remove_from_challenge(state, trace, card, f"{key} changed control during the challenge", control=True)
    recheck_attachments(state, trace)


@rule(
    "attachment.recheck",
    ["agot1-faq/3.22"],
    "an attachment whose restriction is no longer met is discarded at once, regardless of immunity",
)
def recheck_attachments(state: State, trace: Trace) -> None:
    from judgekb.engine.agot1 import leaving

    for card in list(state.cards.values()):
        if card.type != "attachment" or card.zone != "in_play" or not card.attached_to or card.duplicate:
            continue
        host = state.cards[card.attached_to]
        problem = marshal.restriction_problem(state, card, host, card.controller)
        if problem:
            trace.add("attachment.recheck", f"{card.key}'s restriction is no longer met ({problem}): it is immediately discarded from play")
            card.attached_to = None
            leaving.leave_play(state, trace, card, "discard")
