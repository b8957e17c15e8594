"""Cards leaving play (second edition): killing, discarding, sacrificing and returning cards, saves and
duplicates, terminal attachments, delayed effects that end with a card, and control reverting."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot2 import RULES, rule
from judgekb.engine.agot2.constants import can_be, cannot, save_canceled, why_cannot
from judgekb.engine.agot2.victory import check_victory, gain_power
from judgekb.engine.agot2.windows import Context, event_matches, interrupts, queue_reactions, replacement
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Lasting, State
from judgekb.engine.core.trace import Trace

# where a card is, as "it is in the …" says it
ZONE_SAID = {"in_play": "play area", "discard": "discard pile", "dead": "dead pile", "shadows": "shadows area", "deck": "draw deck"}
DESTINATION = {"kill": "dead", "discard": "discard", "sacrifice": "discard", "return_to_hand": "hand", "return_to_deck": "deck"}
PAST = {
    "kill": "killed",
    "discard": "discarded",
    "sacrifice": "sacrificed",
    "return_to_hand": "returned to hand",
    "return_to_deck": "returned to deck",
}
TAG = {
    "kill": "kill",
    "discard": "discard",
    "sacrifice": "sacrifice",
    "return_to_hand": "return to hand",
    "return_to_deck": "return to deck",
}


def raw_strength(state: State, card: Card, extra: int = 0) -> int:
    return card.strength + extra + sum(e.value for e in state.effects if e.target == card.key and e.kind == "str")


def _terminal_on(state: State, card: Card) -> list[Lasting]:
    return [e for e in state.effects if e.target == card.key and e.kind == "terminal"]


RULES.add(
    "save.ends-trigger",
    ["agot2-rr/the-word-would", "agot2-rr/save"],
    "once a card is saved, no further interrupt to the removal may be used, and it never happened: no reaction to it",
)


def _no_longer_imminent(trace: Trace, ctx: Context, key: str, events: tuple[str, ...]) -> None:
    """The interrupts and reactions the step names for a removal a save prevented are said unused, never dropped."""
    said = (
        (ctx.interrupts, "interrupt", "so what was about to happen is no longer imminent", "agot2-rr/the-word-would"),
        (ctx.reactions, "reaction", "and is not considered to have left play", "agot2-rr/save"),
    )
    for pool, kind, why, cite in said:
        for spec in [s for s in pool if not s.get("_used") and any(event_matches(s, e) for e in events)]:
            spec["_used"] = True
            trace.add(
                "save.ends-trigger",
                f"{spec.get('card') or ('an ' if kind == 'interrupt' else 'a ') + kind} ({kind} to "
                f"{spec.get('to')}) cannot be used: {key} was saved, {why}",
                "not-applied",
                cite=[cite],
                tag="not used",
                subject=str(spec.get("card") or ""),
            )


def try_saves(state: State, trace: Trace, ctx: Context, card: Card, how: str, as_cost: bool, cannot_be_saved: bool) -> bool:
    """Offer the step's saves for this card; True if one saved it."""
    for spec in [s for s in ctx.saves if s.get("card") == card.key and not s.get("_used")]:
        spec["_used"] = True
        by = str(spec.get("by") or "duplicate")
        if how == "sacrifice" and not as_cost:
            trace.add(
                "save.sacrifice", f"{card.key} is sacrificed: a sacrificed card cannot be saved", "refused", tag="save", subject=card.key
            )
            continue
        if as_cost:
            trace.add(
                "save.cost",
                f"{card.key} is {PAST[how]} as the cost of an ability: it cannot be saved (the {by} stays unused)",
                "refused",
                cite=["agot2-faq41/3.2", "agot2-rr/sacrifice"] if how == "sacrifice" else ["agot2-faq41/3.2"],
                tag="save",
                subject=card.key,
            )
            continue
            trace.add(
                "save.cost",
                f"{card.key} leaves play as the cost of an ability: it cannot be saved (the {by} stays unused)",
                "refused",
                tag="save",
                subject=card.key,
            )
            continue
        restricted = not can_be(state, card, "saved")  # its own words, a lasting effect or a constant ability on it
        if cannot_be_saved or restricted:
            said = ["the ability removing it says it cannot be saved"] if cannot_be_saved else []
            said += [why_cannot(state, card, "saved")] if restricted else []
            trace.add(
                "save.cannot",
                f"{card.key} cannot be saved ({'; '.join(said)}): the {by} cannot save it",
                "refused",
                # RR Save: "followed by the text 'cannot be saved'" is the removing ability's; a separate restriction is
                # decided by RR Cannot: "The word 'cannot' is absolute, and cannot be countermanded by other abilities."
                cite=(["agot2-rr/save"] if cannot_be_saved else []) + (["agot2-rr/cannot"] if restricted else []),
                tag="save",
                subject=card.key,
            )
            continue
        terminal = _terminal_on(state, card)
        bonus = int((spec.get("effect") or {}).get("str", 0))
        if terminal and by == "duplicate":
            trace.add(
                "save.terminal",
                f"{card.key} is under a terminal condition that a duplicate cannot cure: the duplicate cannot be used to save it",
                "refused",
                cite=["agot2-rr/save"],
                tag="save",
                subject=card.key,
            )
            continue
        if terminal and raw_strength(state, card, bonus) <= 0:
            trace.add(
                "save.terminal",
                f"{by} cannot save {card.key}: with its effect applied STR would still be 0, so it cannot cure the terminal "
                f"condition and cannot be initiated",
                "refused",
                tag="save",
                subject=card.key,
            )
            continue
        if save_canceled(state, trace, spec, card, by):
            continue
        if by == "duplicate":
            dups = [d for d in state.attachments(card) if d.duplicate]
            if not dups:
                raise IllegalStep("save.duplicate", f"{card.key} has no duplicate to discard", cite=["agot2-rr/duplicates"])
            move(state, dups[0], "discard")
            catelyn = any(
                c.zone == "in_play" and c.controller != card.controller and any("opponents cannot trigger" in t for t in c.constant)
                for c in state.cards.values()
            )
            trace.add(
                "save.duplicate",
                f"{card.controller} discards a duplicate of {card.key} to save it: it stays in play"
                + (
                    " (using a duplicate is a triggered game ability, not a card ability, so Catelyn Stark does not prevent it)"
                    if catelyn
                    else ""
                ),
                cite=["agot2-rr/duplicates", "agot2-rr/save"] + (["agot2-faq41/qa/catelyn-stark"] if catelyn else []),
                tag="save",
                subject=card.key,
            )
            return True
        cite = ["agot2-rr/save", "agot2-faq41/3.1"] if terminal else ["agot2-rr/save"]
        trace.add(
            "save.terminal",
            f"{by} saves {card.key} from being {PAST[how]}"
            + (f" and gives it {bonus:+d} STR, which cures the terminal condition" if terminal else ""),
            cite=cite,
            tag="save",
            subject=card.key,
        )
        hand_card = state.cards.get(by)
        if hand_card is not None and hand_card.type == "event" and hand_card.zone == "hand":
            hand_card.zone = "discard"
        if spec.get("effect") and ctx.apply_effect:
            ctx.apply_effect(
                state, trace, ctx, {"target": card.key, "source": by, **{k: v for k, v in spec["effect"].items() if k != "__line__"}}
            )
        return True
    return False


def _tokens_return(state: State, card: Card) -> str:
    """The tokens on a card leaving play go back ("2 power and 1 gold"), or '' when it carries none."""
    said = " and ".join(f"{n} {what}" for n, what in ((card.power, "power"), (card.gold_tokens, "gold")) if n)
    state.ledger(to_pool=card.power)
    card.power = card.gold_tokens = 0
    return said


def move(state: State, card: Card, zone: str, position: str = "top") -> None:
    """Put a card in a zone plainly (tokens and attachments handled by ``leave_play``)."""
    card.attached_to = None
    card.duplicate = False
    card.kneeling = False
    card.controller = card.owner
    if zone == "deck":
        state.place_in_deck(card, position)
    else:
        card.zone = zone
        card.order = state.next_seq()


@rule(
    "leave-play",
    [
        "agot2-rr/leaves-play",
        "agot2-rr/kill-killed",
        "agot2-rr/sacrifice",
        "agot2-rr/attachment-cards",
        "agot2-rr/duplicates",
        "agot2-rr/power",
        "agot2-rr/terminal",
        "agot2-rr/discard-pile",
        "agot2-rr/bestow",
    ],
    "a card leaving play goes to its owner's pile; its tokens return; attachments return to hand "
    "(terminal ones and duplicates are discarded)",
)
def leave_play(
    state: State,
    trace: Trace,
    ctx: Context,
    key: str,
    how: str,
    chosen: bool = False,
    as_cost: bool = False,
    cannot_be_saved: bool = False,
    position: str = "top",
) -> bool:
    """Kill, discard, sacrifice or return a card in play; True if it left play."""
    card = state.cards[key]
    if card.zone != "in_play" or card.duplicate:
        raise IllegalStep("leave-play", f"{key} is not in play", cite=["agot2-rr/leaves-play"])
    if not as_cost and not cannot(state, trace, card, PAST[how], chosen):
        return False
    event = f"{TAG[how]}: {key}"
    events = (event, f"leave play: {key}")
    for name in events:  # a save is a "would leave play" interrupt: eligible before the "is killed" ones (RR The word "Would")
        interrupts(state, trace, ctx, name, saving=True)
    if card.zone != "in_play":
        return False
    if try_saves(state, trace, ctx, card, how, as_cost, cannot_be_saved):
        ctx.replacements = [r for r in ctx.replacements if r.get("_event") not in events]  # nothing left to replace
        _no_longer_imminent(trace, ctx, key, events)
        return False
    for name in events:
        interrupts(state, trace, ctx, name, saving=False)
    if card.zone != "in_play":
        return False
    replaced = next((e for e in events if any(r.get("_event") == e for r in ctx.replacements)), None)
    if replaced is not None:  # (a cost too: a replaced removal still occurs, so the cost is paid)
        replacement(state, trace, ctx, replaced)
        for spare in [r for r in ctx.replacements if r.get("_event") in events]:
            ctx.replacements.remove(spare)
            trace.add(
                "replacement",
                f"{spare.get('source') or 'a replacement effect'} against {spare['_event']} is not used: {replaced} was "
                "already replaced, and one removal is resolved once",
                "not-applied",
                cite=["agot2-rr/replacement-effects"],
                tag="not used",
                subject=str(spare.get("source") or ""),
            )
        trace.add(
            "replacement",
            f"{key} being {PAST[how]} is still considered to have occurred, resolved by other means: reactions to it may be used",
            cite=["agot2-rr/replacement-effects"],
            tag="replaced",
            subject=key,
        )
        queue_reactions(ctx, event)
        return True
    controller = card.controller
    extras: list[str] = []
    cite = {"kill": ["agot2-rr/kill-killed"], "sacrifice": ["agot2-rr/sacrifice"]}.get(how, ["agot2-rr/leaves-play"])
    for attached in state.attachments(card):
        tokens = _tokens_return(state, attached)  # (it leaves play too: RR Leaves Play, "All tokens on the card")
        if tokens:
            extras.append(f"{attached.key}'s {tokens} return to the treasury")
            cite.append("agot2-rr/leaves-play")
        if attached.duplicate or "terminal" in state.keywords(attached):
            why = "a duplicate" if attached.duplicate else "terminal"
            extras.append(f"{attached.key} ({why}) is discarded to its owner {attached.owner}'s discard pile")
            cite += (["agot2-rr/leaves-play"] if attached.duplicate else ["agot2-rr/terminal"]) + ["agot2-rr/discard-pile"]
            move(state, attached, "discard")
        else:
            extras.append(f"{attached.key} returns to its owner {attached.owner}'s hand")
            cite += ["agot2-rr/leaves-play", "agot2-rr/attachment-cards"]
            move(state, attached, "hand")
    if card.power:
        extras.append(f"its {card.power} power returns to the treasury")
        state.ledger(to_pool=card.power)
        card.power = 0
        cite.append("agot2-rr/leaves-play")
    if card.gold_tokens:  # (a blind review: bestowed gold stayed on a card that left play, and the trace said nothing)
        extras.append(f"its {card.gold_tokens} gold returns to the treasury")
        card.gold_tokens = 0
        # RR Bestow: "When gold is discarded from a card with bestow, it is returned to the treasury."
        cite += ["agot2-rr/leaves-play"] + (["agot2-rr/bestow"] if "bestow" in state.keywords(card) else [])
    move(state, card, DESTINATION[how], position)
    place = {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck": f"deck ({position})"}[DESTINATION[how]]
    trace.add(
        "leave-play",
        f"{key} is {PAST[how]} and placed in its owner {card.owner}'s {place}"
        + (f" (it was controlled by {controller})" if controller != card.owner else "")
        + (f"; {'; '.join(extras)}" if extras else ""),
        cite=sorted(set(cite)),
        tag=TAG[how],
        subject=key,
    )
    prized = card.values.get("prized") if "prized" in state.keywords(card) else None
    if prized:
        for opponent in state.opponents(controller):
            gain_power(state, trace, opponent, prized, f"{key} (prized {prized}) left play", rule_id="prized", check=False)
        check_victory(state, trace)
    ended = [e for e in state.effects if e.target == key or e.while_in_play == key]
    state.effects = [e for e in state.effects if e not in ended]
    said = [effect_said(e) for e in ended if e.target == key and e.kind != "control"]  # (control: reverts, said below)
    if said:  # RR Leaves Play: "All lasting effects ... affecting the card while it is in play expire for that card"
        trace.add(
            "leave-play",
            f"the lasting effects on {key} expire as it leaves play: {'; '.join(said)}",
            cite=["agot2-rr/leaves-play"],
            tag="lasting expires",
            subject=key,
        )
    _end_delayed_on(state, trace, key)
    for effect in ended:
        if effect.kind == "control" and effect.target != key:
            revert_control(state, trace, state.cards[effect.target], f"{key} left play")
    from judgekb.engine.agot2.challenges import remove_from_challenge

    remove_from_challenge(state, trace, card, f"{key} left play")
    queue_reactions(ctx, event)
    queue_reactions(ctx, f"leave play: {key}")
    return True


def effect_said(effect: Lasting) -> str:
    """A lasting effect in the trace's words ("+3 STR from Grow")."""
    if effect.kind == "str":
        what = f"{effect.value:+d} STR"
    elif effect.kind == "reduce cost":
        what = f"cost reduction of {effect.value['by']} for the next {effect.value['next']} (unused)"
    else:
        said = {"terminal": "terminal condition", "control": "control change", "cannot": f"'cannot {effect.value}'"}
        what = said.get(effect.kind, f"{effect.kind} {effect.value}")
    return what + (f" from {effect.source}" if effect.source else "")


NOT_CARDS = ("source", "source_type", "__line__")  # an effect's own bookkeeping: never a card it affects


def cards_named(effect: Any) -> list[str]:
    """The names (card keys among them) an effect's fields give, nested mappings and lists included (``move_power: {from: X}``)."""
    found: list[str] = []
    if isinstance(effect, dict):
        for field_name, value in effect.items():
            if field_name not in NOT_CARDS:
                found += cards_named(value)
    elif isinstance(effect, list):
        for value in effect:
            found += cards_named(value)
    elif isinstance(effect, str):
        found.append(effect)
    return found


def _without(value: Any, key: str) -> Any:
    """``value`` with every mention of card ``key`` taken out: a field or list item naming it is dropped, a part that
    names it among others (``move_power: {from: key, to: Y}``) too, for that part affected the card."""

    def names_it(item: Any) -> bool:  # (a list is kept, its items filtered)
        return item == key or (isinstance(item, dict) and key in cards_named(item))

    if isinstance(value, dict):
        return {k: (v if k in NOT_CARDS else _without(v, key)) for k, v in value.items() if k in NOT_CARDS or not names_it(v)}
    if isinstance(value, list):
        return [_without(v, key) for v in value if not names_it(v)]
    return value


def _end_delayed_on(state: State, trace: Trace, key: str) -> None:
    """RR Leaves Play: "All lasting effects and/or delayed effects affecting the card while it is in play expire for
    that card": a delayed effect no longer touches it, even if it comes back into play before the effect resolves."""
    for delayed in [d for d in state.delayed if key in d.cards]:
        delayed.cards = tuple(c for c in delayed.cards if c != key)
        kept: dict[str, Any] = _without(delayed.effect, key)
        delayed.effect = kept
        if not any(v not in (None, [], {}) for k, v in kept.items() if k not in NOT_CARDS):
            state.delayed.remove(delayed)  # (nothing left for it to do)
        trace.add(
            "leave-play",
            f"the 'at the end of the {delayed.period}' delayed effect from {delayed.source or 'a card'} on {key} expires "
            f"for {key}: it left play (if it comes back, it is a new card)",
            cite=["agot2-rr/leaves-play"],
            tag="delayed expires",
            subject=key,
        )


# ------------------------------------------------------------------ terminal conditions


@rule(
    "terminal",
    ["agot2-faq41/definitions/terminal-condition", "agot2-faq41/2.6", "agot2-faq41/3.1"],
    "a terminal condition drives its card from play as soon as its condition is met, before reactions; the first player "
    "orders simultaneous ones",
)
def check_terminal(state: State, trace: Trace, ctx: Context) -> None:
    for card in [c for c in state.cards.values() if c.zone == "in_play" and _terminal_on(state, c)]:
        conditions = _terminal_on(state, card)
        if state.strength(card) > 0:
            continue
        if len(conditions) > 1:
            rank = {name: i for i, name in enumerate(ctx.order)}
            conditions.sort(key=lambda e: rank.get(e.source, len(rank)))
            if not ctx.order:
                trace.add(
                    "terminal",
                    f"{len(conditions)} terminal conditions would drive {card.key} from play at once: the first player, "
                    f"{state.first_player}, chooses their order (state 'order')",
                    "choice-needed",
                    cite=["agot2-faq41/3.1"],
                    tag="choice",
                    subject=card.key,
                )
            else:
                trace.add(
                    "terminal",
                    f"the first player, {state.first_player}, resolves the terminal conditions on {card.key} in this "
                    f"order: {', '.join(e.source for e in conditions)}",
                    cite=["agot2-faq41/3.1"],
                    tag="terminal order",
                    subject=card.key,
                )
        for condition in conditions:
            if card.zone != "in_play":
                break
            if state.strength(card) > 0:
                trace.add(
                    "terminal",
                    f"{card.key}'s STR is now {state.strength(card)}: the terminal condition from "
                    f"{condition.source or 'the effect'} no longer applies and does not resolve",
                    "not-applied",
                    cite=["agot2-faq41/3.1"],
                    tag="terminal",
                    subject=card.key,
                )
                continue
            how = "kill" if condition.value == "kill" else "discard"
            trace.add(
                "terminal",
                f"{card.key}'s STR is 0: the terminal condition from {condition.source or 'the effect'} makes its {how} "
                f"imminent at once, before any reaction",
                cite=["agot2-faq41/definitions/terminal-condition", "agot2-faq41/2.6"],
                tag="terminal",
                subject=card.key,
            )
            leave_play(state, trace, ctx, card.key, how)


# ------------------------------------------------------------------ control


RULES.add(
    "control.reverts",
    ["agot2-faq41/qa/multiple-take-control-effects"],
    "when a control change ends, control reverts to the next most recent one, else to the owner",
)


def revert_control(state: State, trace: Trace, card: Card, why: str) -> None:
    if card.zone != "in_play":
        return
    remaining = sorted((e for e in state.effects if e.target == card.key and e.kind == "control"), key=lambda e: e.seq)
    new = remaining[-1].value if remaining else card.owner
    if new == card.controller:
        return
    card.controller = new
    for dup in state.attachments(card):
        if dup.duplicate:
            dup.controller = new
    trace.add(
        "control.reverts",
        f"{why}: that control change on {card.key} ends, so control reverts to "
        + (f"{new}, whose control effect is the next most recent" if remaining else f"its owner, {new}"),
        tag="control reverts",
        subject=card.key,
    )
    from judgekb.engine.agot2.challenges import remove_from_challenge

    remove_from_challenge(state, trace, card, f"{card.key} changed control")
