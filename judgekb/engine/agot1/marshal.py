"""Bringing cards into play: marshalling costs and penalties, limited, the copy limit, uniqueness,
duplicates, attachments and their restrictions, and "put into play"."""

from __future__ import annotations

from judgekb.engine.agot1 import rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, State
from judgekb.engine.core.trace import Trace


@rule(
    "unique.in-play",
    ["agot1-rules/unique-cards", "agot1-faq/3.29"],
    "a player may not play, put into play or take control of a unique card while owning/controlling a copy in play, "
    "or while a copy is in his or her dead pile",
)
def check_unique(state: State, player: str, card: Card, taking_control: bool = False) -> str | None:
    """None if the card may enter; "duplicate" if it must (and may) enter as a duplicate."""
    if not card.unique:
        return None
    if any(c.name == card.name and c.owner == player and c.zone == "dead" for c in state.cards.values()):
        raise IllegalStep(
            "unique.in-play",
            f"a copy of {card.name} is in {player}'s dead pile: {player} may not "
            f"{'take control of' if taking_control else 'play or put into play'} {card.name}",
        )
    same = [
        c
        for c in state.cards.values()
        if c.name == card.name
        and c.zone == "in_play"
        and not c.duplicate
        and c.key != card.key
        and (c.owner == player or c.controller == player)
    ]
    if not same:
        return None
    if not taking_control and all(c.owner == player and c.controller == player for c in same):
        return "duplicate"
    raise IllegalStep("unique.in-play", f"{player} already owns or controls a copy of the unique card {card.name} in play")


PHASE_3 = ["agot1-rules/phase-3-marshalling"]


@rule(
    "marshal.cost",
    ["agot1-rules/phase-3-marshalling", "agot1-rules/multi-house-cards"],
    "pay the printed cost from the gold pool; +2 gold penalty for a card of another House (not neutral); a multi-house "
    "card is affiliated with each of its Houses",
)
def pay(state: State, trace: Trace, player: str, card: Card) -> int:
    p = state.players[player]
    affiliated = card.houses or (card.house,)
    penalty = 2 if "neutral" not in affiliated and p.house not in affiliated else 0
    cost = card.cost + penalty
    if cost > p.gold:
        raise IllegalStep(
            "marshal.cost",
            f"{card.key} costs {card.cost}"
            + (f" + {penalty} gold penalty" if penalty else "")
            + f" = {cost} gold, but {player} has {p.gold}",
            cite=["agot1-rules/phase-3-marshalling"] + (["agot1-rules/multi-house-cards"] if card.houses else []),
        )
    p.gold -= cost
    trace.add(
        "marshal.cost",
        f"{player} pays {cost} gold for {card.key}"
        + (f" ({card.cost} + 2 gold penalty: {'/'.join(affiliated)} card in a {p.house} deck)" if penalty else "")
        + (f" (a multi-house card, affiliated with {', '.join(card.houses)}: {p.house} is one)" if card.houses and not penalty else "")
        + f"; {p.gold} gold left",
        cite=["agot1-rules/phase-3-marshalling"] + (["agot1-rules/multi-house-cards"] if card.houses else []),
    )
    return cost


@rule("keyword.limited", ["agot1-rules/limited"], "only one Limited card per player per round")
def check_limited(state: State, trace: Trace, player: str, card: Card) -> None:
    if "limited" in card.keywords:
        if state.players[player].limited_this_round:
            raise IllegalStep("keyword.limited", f"{player} has already played a Limited card this round")


@rule(
    "copy.limit",
    ["agot1-faq/copy-limit"],
    "no more than 3 copies (by title) of a card played each phase; put into play and duplicates do not count",
)
def check_copies(state: State, player: str, card: Card) -> None:
    if state.players[player].copies_this_phase.get(card.name, 0) >= 3:
        raise IllegalStep("copy.limit", f"{player} has already played 3 copies of {card.name} this phase")


@rule(
    "duplicate.marshal",
    ["agot1-rules/duplicates", "agot1-faq/4.2", "agot1-faq/copy-limit"],
    "a duplicate goes under an owned and controlled copy, for no gold; it is not an attachment and is not played as one",
)
def attach_duplicate(state: State, trace: Trace, player: str, card: Card, onto: Card) -> None:
    if onto.name != card.name or not onto.unique or onto.owner != player or onto.controller != player or onto.zone != "in_play":
        raise IllegalStep("duplicate.marshal", f"a duplicate of {card.name} must go on a copy {player} owns and controls in play")
    if state.phase == "setup":
        raise IllegalStep("duplicate.marshal", "duplicates may not be played during setup")
    card.zone, card.attached_to, card.duplicate, card.controller = "in_play", onto.key, True, player
    trace.add(
        "duplicate.marshal",
        f"{player} places {card.key} under {onto.key} as a duplicate, for no gold cost "
        "(a duplicate is not an attachment, and does not count toward the copy limit)",
    )


@rule(
    "attachment.restriction",
    ["agot1-faq/3.22", "agot1-rules/no-attachments", "agot1-rules/attachments"],
    "attachments go on a card that meets their restriction; never on a card with No Attachments",
)
def check_attach(state: State, player: str, card: Card, onto: Card) -> None:
    if onto.zone != "in_play" or onto.duplicate:
        raise IllegalStep("attachment.restriction", f"{onto.key} is not a card in play")
    if "no attachments" in state.keywords(onto):
        raise IllegalStep("attachment.restriction", f"{onto.key} has No Attachments: it may not have any attachments")
    problem = restriction_problem(state, card, onto, player)
    if problem:
        raise IllegalStep("attachment.restriction", problem)


def restriction_problem(state: State, card: Card, onto: Card, controller: str) -> str | None:
    rule_text = (card.restriction or "").lower()
    if not rule_text:
        return None if onto.type == "character" else f"{card.key} attaches to a character"
    if rule_text == "opponent's character" and (onto.controller == controller or onto.type != "character"):
        return f"{card.key} must be attached to an opponent's character, and {onto.key} is not ({controller} controls both)"
    if rule_text == "own character" and (onto.controller != controller or onto.type != "character"):
        return f"{card.key} must be attached to a character its controller controls"
    if rule_text == "location" and onto.type != "location":
        return f"{card.key} must be attached to a location"
    if rule_text.startswith("trait:") and rule_text.split(":", 1)[1] not in {t.lower() for t in onto.traits}:
        return f"{card.key} requires a {rule_text.split(':', 1)[1].title()} to attach to"
    return None


def marshal(state: State, trace: Trace, player: str, key: str, onto_key: str | None) -> None:
    """Play a card from hand during marshalling, checking every restriction before paying."""
    card = state.cards[key]
    if state.phase != "marshalling":
        raise IllegalStep(
            "marshal.cost", f"cards are marshalled only in the marshalling phase (the game is in the {state.phase} phase)", cite=PHASE_3
        )
    if card.zone != "hand" or card.owner != player:
        raise IllegalStep("marshal.cost", f"{key} is not in {player}'s hand", cite=PHASE_3)
    if card.type in ("event", "plot", "agenda"):
        raise IllegalStep("marshal.cost", f"{key} is not a character, location or attachment", cite=PHASE_3)
    onto = state.cards[onto_key] if onto_key else None
    mode = check_unique(state, player, card)
    if mode == "duplicate" or (onto is not None and onto.name == card.name):
        target = onto or next(c for c in state.in_play(player) if c.name == card.name)
        attach_duplicate(state, trace, player, card, target)
        return
    check_limited(state, trace, player, card)
    check_copies(state, player, card)
    if card.type == "attachment":
        if onto is None:
            raise IllegalStep("attachment.restriction", f"{key} is an attachment: say which card it goes onto")
        check_attach(state, player, card, onto)
    pay(state, trace, player, card)
    _enter(state, trace, player, card, onto, "marshals")
    state.players[player].copies_this_phase[card.name] = state.players[player].copies_this_phase.get(card.name, 0) + 1
    if "limited" in card.keywords:
        state.players[player].limited_this_round += 1
        trace.add("keyword.limited", f"{key} is {player}'s Limited card for this round")


@rule(
    "put-into-play",
    ["agot1-faq/4.4", "agot1-faq/copy-limit"],
    "'put into play' bypasses all costs, gold penalties and play restrictions (Limited, the copy limit); uniqueness still applies",
)
def put_into_play(state: State, trace: Trace, player: str, key: str, onto_key: str | None) -> None:
    card = state.cards[key]
    if card.zone == "in_play":
        raise IllegalStep("put-into-play", f"{key} is already in play")
    onto = state.cards[onto_key] if onto_key else None
    mode = check_unique(state, player, card)
    if mode == "duplicate":
        target = next(c for c in state.in_play(player) if c.name == card.name)
        card.zone, card.attached_to, card.duplicate, card.controller = "in_play", target.key, True, player
        trace.add("put-into-play", f"{player} already owns and controls {target.key}: {key} enters play as a duplicate")
        return
    if card.type == "attachment":
        if onto is None:
            raise IllegalStep("attachment.restriction", f"{key} is an attachment: say which card it goes onto")
        check_attach(state, player, card, onto)
    _enter(state, trace, player, card, onto, "puts into play")
    trace.add("put-into-play", f"{key} was put into play: no gold cost or penalty is paid, and Limited and the copy limit do not apply")


def _enter(state: State, trace: Trace, player: str, card: Card, onto: Card | None, verb: str) -> None:
    card.zone, card.controller, card.kneeling = "in_play", player, False
    if onto is not None:
        card.attached_to = onto.key
    marshals = verb == "marshals"
    trace.add(
        "marshal.cost" if marshals else "put-into-play",
        f"{player} {verb} {card.key}" + (f" onto {onto.key}" if onto else ""),
        cite=["agot1-rules/phase-3-marshalling"] if marshals else None,
    )


@rule(
    "at-command",
    ["agot1-faq/additional/at-your-command"],
    "cards at your command: cards in hand, cards you control in play, and cards in your shadows area",
)
def at_command(state: State, player: str) -> int:
    in_play = sum(1 for c in state.cards.values() if c.zone == "in_play" and c.controller == player)
    return in_play + len(state.zone(player, "hand")) + len(state.zone(player, "shadows"))
