"""Cards entering play and abilities (second edition): marshaling, putting into play, uniqueness and
the dead pile, duplicates, Limited, control changes, costs, triggered abilities, events, shadows."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot2 import RULES, attachment_restrictions, initiation, rule
from judgekb.engine.agot2.constants import ERRATA, can_be, cite_errata, constants
from judgekb.engine.agot2.leaving import leave_play, move
from judgekb.engine.agot2.windows import Context, queue_reactions, run_reactions
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Lasting, State
from judgekb.engine.core.steps import names
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import PHASE_ACTIONS, phase_said2

UNIQUE = "agot2-faq41/1.3"
# "If a card transitions from shadows to any other game area, all tokens on that card are discarded."
SHADOW_TOKENS = "agot2-rr/shadows/while-a-card-is-in-shadows"


@rule(
    "unique",
    [UNIQUE, "agot2-rr/unique-cards", "agot2-rr/dead-pile", "agot2-faq41/1.2"],
    "unique cards: one copy in play per player; not with a copy in the dead pile; duplicates need owning and controlling the copy",
)
def check_unique(state: State, player: str, card: Card, taking_control: bool = False) -> bool:
    """True if the card would enter play as a duplicate (the player owns and controls a copy in play)."""
    if not card.unique:
        return False
    others = [c for c in state.cards.values() if c.name == card.name and c is not card and not c.duplicate]
    verb = "take control of" if taking_control else "bring into play"
    if any(c.zone == "dead" and c.owner == player for c in others):
        dup = any(c.zone == "in_play" and c.owner == player and c.controller == player for c in others)
        raise IllegalStep(
            "unique",
            f"{player} cannot {verb} {card.name}" + (" (as a duplicate)" if dup else "") + f": another copy is in {player}'s dead pile",
            cite=["agot2-faq41/1.2", UNIQUE] if dup else [UNIQUE],
        )
    in_play = [c for c in others if c.zone == "in_play"]
    if taking_control:  # RR Unique Cards: "if he or she already controls or owns an in-play copy of that card"
        if any(player in (c.controller, c.owner) for c in in_play):
            whose = "controls" if any(c.controller == player for c in in_play) else "owns"
            raise IllegalStep(
                "unique",
                f"{player} already {whose} a copy of {card.name} in play, so cannot take control of another",
                cite=[UNIQUE] if whose == "controls" else ["agot2-rr/unique-cards"],  # (FAQ 1.3 says "controls"; RR "or owns")
            )
        return False
    if any(c.controller != c.owner and player in (c.controller, c.owner) for c in in_play):
        raise IllegalStep(
            "unique",
            f"a copy of {card.name} is controlled by a player who does not own it: neither that player nor its owner can "
            f"bring another copy into play, and a duplicate needs a copy its player owns and controls",
            cite=[UNIQUE, "agot2-faq41/1.2"],
        )
    if card.owner != player:
        if in_play or any(c.zone == "dead" and c.owner == card.owner for c in others):
            raise IllegalStep(
                "unique",
                f"{player} cannot bring {card.owner}'s {card.name} into play: another copy is in play or in its owner's dead pile",
                cite=[UNIQUE],
            )
    mine = [c for c in in_play if c.owner == player and c.controller == player]
    if mine:
        return True
    if [c for c in in_play if c.controller == player]:
        raise IllegalStep(
            "unique",
            f"{player} controls a copy of {card.name} he or she does not own: a duplicate must be owned and controlled",
            cite=["agot2-faq41/1.2"],
        )
    return False


@rule(
    "limited",
    ["agot2-rr/limited", "agot2-faq41/qa/limited-card-as-duplicate"],
    "one limited card marshaled or played per player per round; duplicates and cards put into play ignore it",
)
def check_limited(state: State, trace: Trace, player: str, card: Card, duplicate: bool) -> None:
    if "limited" not in card.keywords:
        return
    if duplicate:
        trace.add(
            "limited",
            f"{card.key} is marshaled as a duplicate, which has none of its printed keywords: it does not count as the "
            f"limited card this round",
            cite=["agot2-faq41/qa/limited-card-as-duplicate"],
            tag="limited",
            subject=card.key,
        )
        return
    p = state.players[player]
    if p.limited_this_round:
        raise IllegalStep("limited", f"{player} has already marshaled or played a limited card this round", cite=["agot2-rr/limited"])
    p.limited_this_round += 1


@rule(
    "marshal",
    [
        "agot2-rr/marshal",
        "agot2-rr/appendix-i/marshaling-phase/player-action-window",
        "agot2-rr/duplicates",
        "agot2-rr/gold",
        "agot2-rr/unique-cards",
        "agot2-rr/initiating-abilities-marshaling-cards",
        "agot2-rr/no-attachments",
        "agot2-rr/shadows/printed-cost-of-shadows-cards",
    ],
    "marshal a card from hand in the marshaling phase by paying its cost; a duplicate costs nothing; a shadow card "
    "with a '-' cost is never marshaled from hand",
)
def marshal(
    state: State,
    trace: Trace,
    ctx: Context,
    player: str,
    key: str,
    onto: str | None,
    as_duplicate: bool,
    bestowed: int | None = None,
    spend_from: str | None = None,
    origin: str = "hand",
) -> None:
    card = state.cards[key]
    if origin == "attached":
        marshal_facedown(state, trace, ctx, player, card, onto)
        return
    if state.phase != "marshalling":
        raise IllegalStep(
            "marshal",
            f"cards are marshaled only in the marshaling phase (the game is in the {phase_said2(state.phase)} phase)",
            cite=["agot2-rr/appendix-i/marshaling-phase/player-action-window"],
        )
    if card.zone != "hand" or card.owner != player:
        raise IllegalStep("marshal", f"{key} is not in {player}'s hand", cite=["agot2-rr/marshal"])
    if card.type not in ("character", "location", "attachment"):
        raise IllegalStep(
            "marshal", f"{key} is an {card.type}: only characters, locations and attachments are marshaled", cite=["agot2-rr/marshal"]
        )
    no_cost_shadow(card, "marshal", "marshaled")
    duplicate = check_unique(state, player, card)
    if as_duplicate and not duplicate:
        raise IllegalStep(
            "unique", f"{player} does not own and control a copy of {card.name} in play to duplicate", cite=["agot2-faq41/1.2"]
        )
    check_limited(state, trace, player, card, duplicate)
    cost = 0 if duplicate else reduced_cost(state, trace, player, card, card.cost, "marshal")
    pay_gold(state, trace, player, cost, spend_from, key, "marshal", ["agot2-rr/initiating-abilities-marshaling-cards"])
    cite = ["agot2-rr/duplicates"] if duplicate else ["agot2-rr/marshal"] + (["agot2-rr/unique-cards"] if card.unique else [])
    _enter(
        state,
        trace,
        player,
        card,
        onto,
        duplicate,
        "marshal",
        f"{player} marshals {key}" + (" as a duplicate, at no cost" if duplicate else f" for {cost} gold"),
        cite,
    )
    if bestowed:
        bestow(state, trace, player, card, bestowed, spend_from)
    state.facts.setdefault("entered", []).append(key)
    state.facts.setdefault("marshaled", []).append(key)
    queue_reactions(ctx, f"marshal: {key}")
    queue_reactions(ctx, f"enter play: {key}")


def no_cost_shadow(card: Card, rule_id: str, verb: str) -> None:
    """RR Shadows: a shadow card with a '-' printed cost cannot be marshaled or played from a player's hand."""
    if card.values.get("no printed cost") and "shadow" in card.keywords:
        raise IllegalStep(
            rule_id,
            f"{card.key} has the shadow keyword and a '-' in place of its printed cost: it cannot be {verb} from a player's "
            f"hand, and may only be played by being brought out of shadows",
            cite=["agot2-rr/shadows/printed-cost-of-shadows-cards"],
        )


@rule(
    "put-into-play",
    [
        "agot2-rr/put-into-play",
        UNIQUE,
        "agot2-faq41/qa/no-surprises",
        "agot2-rr/no-attachments",
        "agot2-rr/ambush",
        "agot2-rr/initiating-abilities-marshaling-cards",
        "agot2-rr/attachment-cards",
        "agot2-rr/event-cards",
        "agot2-rr/shadows/bringing-a-card-out-of-shadows",
        SHADOW_TOKENS,
    ],
    "a card put into play by an effect pays no cost and ignores Limited; uniqueness still applies; an event never enters play",
)
def put_into_play(
    state: State,
    trace: Trace,
    ctx: Context,
    player: str,
    key: str,
    onto: str | None,
    origin: str | None,
    ambush: int | None = None,
    bestowed: int | None = None,
) -> None:
    card = state.cards[key]
    if ambush is not None:
        if state.phase != "challenges":
            raise IllegalStep(
                "put-into-play",
                f"ambush is used only during the challenges phase (the game is in the {phase_said2(state.phase)} phase)",
                cite=["agot2-rr/ambush"],
            )
        if card.zone != "hand" or "ambush" not in state.keywords(card):
            raise IllegalStep("put-into-play", f"{key} is not a card with ambush in {player}'s hand", cite=["agot2-rr/ambush"])
        held = instances(card, "ambush")  # "the player controlling the card may choose which instance of ambush is used"
        if held and ambush not in held:
            raise IllegalStep(
                "put-into-play",
                f"{key} has {', '.join(f'ambush ({x})' for x in held)}, not ambush ({ambush})",
                cite=["agot2-rr/ambush"],
            )
        pay_gold(
            state, trace, player, ambush, None, f"ambush ({ambush})", "put-into-play",
            ["agot2-rr/ambush", "agot2-rr/initiating-abilities-marshaling-cards"],
        )
    if card.zone == "in_play":
        raise IllegalStep("put-into-play", f"{key} is already in play", cite=["agot2-rr/put-into-play"])
    if origin and card.zone != origin:
        raise IllegalStep("put-into-play", f"{key} is not in {card.owner}'s {origin}", cite=["agot2-rr/put-into-play"])
    if card.type == "event":  # RR Event Cards: "... an event card cannot enter play"
        raise IllegalStep(
            "put-into-play",
            f"{key} is an event card: an event card cannot enter play (it is played, then placed in the discard pile)",
            cite=["agot2-rr/event-cards"] + (["agot2-rr/shadows/bringing-a-card-out-of-shadows"] if card.zone == "shadows" else []),
        )
    if card.zone == "shadows" and player in state.facts.get("no_shadows", []):
        raise IllegalStep(
            "put-into-play",
            f"{player} cannot bring cards out of shadows, and putting one into play from shadows is bringing it out",
            cite=["agot2-faq41/qa/no-surprises"],
        )
    duplicate = check_unique(state, player, card)
    _enter(
        state,
        trace,
        player,
        card,
        onto,
        duplicate,
        "put-into-play",
        f"{player} puts {key} into play"
        + (" as a duplicate" if duplicate else "")
        + (f" with ambush ({ambush}), paying {ambush} gold" if ambush is not None else ""),
        ["agot2-rr/put-into-play"]
        + (["agot2-rr/ambush"] if ambush is not None else [])
        # ("Some effects allow a card to be 'put into play' from shadows. ... The shadow cost ... is not paid.")
        + (["agot2-rr/shadows/bringing-a-card-out-of-shadows"] if card.zone == "shadows" else []),
    )
    if bestowed:  # "When a card with bestow (X) enters play": put into play (ambush included) as well as marshaled
        bestow(state, trace, player, card, bestowed, None)
    state.facts.setdefault("entered", []).append(key)
    queue_reactions(ctx, f"put into play: {key}")
    queue_reactions(ctx, f"enter play: {key}")


def _enter(
    state: State,
    trace: Trace,
    player: str,
    card: Card,
    onto: str | None,
    duplicate: bool,
    rule_id: str,
    text: str,
    cite: list[str] | None = None,
) -> None:
    if duplicate:
        host = next(
            c
            for c in state.cards.values()
            if c.name == card.name and c is not card and c.zone == "in_play" and not c.duplicate and c.controller == player
        )
        card.attached_to, card.duplicate = host.key, True
    elif card.type == "attachment":
        if not onto:
            raise IllegalStep(
                rule_id,
                f"{card.key} is an attachment: say which card it goes onto ('onto')",
                cite=["agot2-rr/attachment-cards"],
            )
        host = state.cards[onto]
        if host.zone != "in_play":
            raise IllegalStep(rule_id, f"{onto} is not in play to attach to", cite=["agot2-rr/attachment-cards"])
        if "no attachments" in state.keywords(host):
            raise IllegalStep(rule_id, f"{onto} has No attachments: no attachment can be attached to it", cite=["agot2-rr/no-attachments"])
        check_restriction(state, trace, player, card, host, rule_id)
        check_copy_limit(state, card, host)
        card.attached_to = onto
    lost = [f"{n} {what}" for n, what in ((card.power, "power"), (card.gold_tokens, "gold")) if n and card.zone == "shadows"]
    if lost:  # RR Shadows: the tokens on a card do not come out of shadows with it
        state.ledger(to_pool=card.power)  # (the engine bench's power count missed it: a README review)
        card.power = card.gold_tokens = 0
    card.zone, card.controller, card.kneeling = "in_play", player, False
    card.order = state.next_seq()
    trace.add(
        rule_id,
        text + (f" onto {onto}" if onto and not duplicate else ""),
        cite=cite,
        tag="duplicate" if duplicate else rule_id.replace("-", " "),
        subject=card.key,
    )
    if lost:
        trace.add(
            rule_id,
            f"the tokens on {card.key} as it left shadows ({', '.join(lost)}) are discarded",
            cite=[SHADOW_TOKENS],
            tag="tokens",
            subject=card.key,
        )


@rule(
    "attach.restriction",
    ["agot2-rr/attachment-cards", "agot2-rr/play-restrictions-and-permissions"],
    "an attachment attaches only to a character unless its text says otherwise; its restriction must be observed",
)
def check_restriction(state: State, trace: Trace, player: str, card: Card, host: Card, rule_id: str) -> None:
    """Refuse an attachment onto a card its restriction (or, with none, the default: a character) does not allow."""
    alternatives = attachment_restrictions.parse(card.restriction)
    if alternatives is None:
        _unread(trace, card, "it was not checked, although it must be observed", "agot2-rr/play-restrictions-and-permissions")
        return
    problem = attachment_restrictions.unmet(state, alternatives, host, player)
    if problem is None:
        return
    played = rule_id == "marshal"  # a play restriction binds playing and marshaling; any card entering play needs an eligible card
    if not alternatives:
        why, cite = "with no restriction of its own, an attachment can only attach to a character", ["agot2-rr/attachment-cards"]
    else:
        why = f"its restriction is '{card.restriction}'"
        cite = ["agot2-rr/play-restrictions-and-permissions"] if played else ["agot2-rr/attachment-cards"]
    raise IllegalStep("attach.restriction", f"{card.key} cannot attach to {host.key}: {why}, and {problem}", cite=cite)


@rule(
    "attach.copy-limit",
    ["agot2-rr/limits-and-maxima", "agot2-faq41/errata/dothraki-steed-fury-of-the-storm-36"],
    "'Limit X copies per [card]' restricts how many copies of an attachment (by title) can be attached to each card",
)
def check_copy_limit(state: State, card: Card, host: Card) -> None:
    """Refuse a copy of an attachment onto a card that already has as many copies (by title) as its limit allows."""
    limit = card.values.get("limit copies")
    if not limit:
        return
    attached = [c.key for c in state.attachments(host) if c.name == card.name and not c.duplicate and c is not card]
    if len(attached) >= limit:
        errata = ERRATA.get(card.name)  # the line is the card's errata in force (Dothraki Steed): cited with the rule
        raise IllegalStep(
            "attach.copy-limit",
            f"{card.key} cannot attach to {host.key}: Limit {limit} cop{'y' if limit == 1 else 'ies'} per {host.type}"
            + (" (its text in force is its FAQ v4.1 errata)" if errata else "")
            + f", and {host.key} already has {', '.join(attached)}",
            cite=["agot2-rr/limits-and-maxima"] + ([errata] if errata else []),
        )


RULES.add(
    "attach.unread",
    ["agot2-rr/play-restrictions-and-permissions", "agot2-faq41/qa/attachments-in-setup-2"],
    "an attachment's restriction must be observed: one the engine cannot read is said to be unchecked",
)


@rule(
    "attach.illegal",
    ["agot2-rr/attachment-cards", "agot2-rr/no-attachments"],
    "if a situation arises in which an attachment is not legally attached, the attachment is discarded",
)
def check_attachments(state: State, trace: Trace) -> None:
    """Re-check each attachment in play against its restriction when the engine reads it (or, with none, the default:
    a character) and against its host's No attachments: one that was legally attached and no longer is (a blank took
    its host's printed trait, a control change, its host gained "No attachments"...) is discarded. RR Attachment Cards:
    "If a situation arises in which an attachment is not legally attached, discard the attachment."  RR No Attachments:
    "A card with this keyword cannot have an attachment card attached" (no exception for terminal attachments;
    duplicates are not attachments, RR Duplicates, and a facedown card has no card type of its own, RR Facedown Cards).
    The first check (before step 1) only records each attachment's state: one the scenario gives attached to a card it
    does not meet is taken as given (its host's values may be incomplete), never discarded."""
    legal: dict[str, bool] = state.facts.setdefault("attachments_legal", {})
    for card in sorted(state.cards.values(), key=lambda c: c.order):
        if card.type != "attachment" or card.zone != "in_play" or not card.attached_to or card.duplicate or card.facedown:
            continue
        alternatives = attachment_restrictions.parse(card.restriction)
        host = state.cards[card.attached_to]
        if host.zone != "in_play":
            continue
        barred = "no attachments" in state.keywords(host)
        if alternatives is None and not barred:  # (a restriction the engine cannot read: only No attachments is checked)
            legal[card.key] = True
            continue
        if barred:
            problem: str | None = "a card with this keyword cannot have an attachment card attached"
            why, cite = f"{host.key} has No attachments", ["agot2-rr/attachment-cards", "agot2-rr/no-attachments"]
        else:
            problem = attachment_restrictions.unmet(state, alternatives or [], host, card.controller)
            why = f"its restriction is '{card.restriction}'" if alternatives else "an attachment can only attach to a character"
            cite = ["agot2-rr/attachment-cards"]
        was = legal.get(card.key)
        legal[card.key] = problem is None
        if problem is None or was is not True:
            continue
        move(state, card, "discard")
        if card.power:
            state.ledger(to_pool=card.power)
            card.power = 0
        state.effects = [e for e in state.effects if e.target != card.key and e.while_in_play != card.key]
        del legal[card.key]
        trace.add(
            "attach.illegal",
            f"{card.key} is no longer legally attached to {host.key} ({why}, and {problem}): it is discarded",
            cite=cite,
            tag="discard",
            subject=card.key,
        )


@rule(
    "control.take",
    ["agot2-rr/ownership-and-control", UNIQUE, "agot2-faq41/qa/multiple-take-control-effects", "agot2-rr/target"],
    "a player takes control of a card; control changes stack, the most recent wins",
)
def take_control(state: State, trace: Trace, player: str, key: str, until: str, while_in_play: str | None, source: str) -> None:
    card = state.cards[key]
    if card.zone != "in_play" or card.duplicate or card.attached_to:
        raise IllegalStep("control.take", f"{key} is not a card in play whose control can change", cite=["agot2-rr/ownership-and-control"])
    held = [e for e in state.effects if e.target == key and e.kind == "control"]
    # RR Target: "... if the resolution of that ability's effect could not affect the target at all" (a control effect
    # on it already may end: taking control again, for longer, does affect it)
    if card.controller == player and not held:
        raise IllegalStep(
            "control.take",
            f"{player} already controls {key}: taking control of it could not affect it at all, so it is no eligible target",
            cite=["agot2-rr/target"],
        )
    check_unique(state, player, card, taking_control=True)
    previous = card.controller
    state.effects.append(
        Lasting(key, "control", player, until, source=source, previous=previous, while_in_play=while_in_play, seq=state.next_seq())
    )
    card.controller = player
    for dup in state.attachments(card):
        if dup.duplicate:
            dup.controller = player
    stacked = [e for e in state.effects if e.target == key and e.kind == "control"]
    trace.add(
        "control.take",
        f"{player} takes control of {key} from {previous}"
        + (f" while {while_in_play} stays in play" if while_in_play else "")
        + (f" ({len(stacked)} control effects on it: the most recent applies)" if len(stacked) > 1 else ""),
        cite=["agot2-rr/ownership-and-control"] + (["agot2-faq41/qa/multiple-take-control-effects"] if len(stacked) > 1 else []),
        tag="take control",
        subject=key,
    )
    from judgekb.engine.agot2.challenges import remove_from_challenge

    remove_from_challenge(state, trace, card, f"{key} changed control")


RULES.add(
    "reaction.marshaled",
    ["agot2-rr/marshal", "agot2-rr/put-into-play"],
    "a reaction to marshaling a card needs the card to have been marshaled; a card put into play was not marshaled",
)


@rule(
    "enter-play",
    ["agot2-faq41/qa/dothraki-handmaiden", "agot2-rr/enters-play", "agot2-rr/marshal"],
    "a card already in play (facedown, attached) that is marshaled does not enter play",
)
def marshal_facedown(state: State, trace: Trace, ctx: Context, player: str, card: Card, onto: str | None) -> None:
    host = state.cards.get(card.attached_to or "")
    if card.zone != "in_play" or not card.facedown or host is None:
        raise IllegalStep("enter-play", f"{card.key} is not a facedown card attached to a card in play", cite=["agot2-rr/marshal"])
    if host.controller != player or not any("marshal facedown cards attached to this card" in t for t in constants(state, host)):
        raise IllegalStep(
            "enter-play", f"no card of {player}'s lets {player} marshal {card.key} from under {host.key}", cite=["agot2-rr/marshal"]
        )
    if state.phase != "marshalling":
        raise IllegalStep(
            "marshal",
            f"cards are marshaled only in the marshaling phase (the game is in the {phase_said2(state.phase)} phase)",
            cite=["agot2-rr/appendix-i/marshaling-phase/player-action-window"],
        )
    cost = reduced_cost(state, trace, player, card, card.cost, "marshal")
    pay_gold(state, trace, player, cost, None, card.key, "marshal", ["agot2-rr/initiating-abilities-marshaling-cards"])
    card.facedown, card.controller = False, player
    card.attached_to = onto if card.type == "attachment" else None
    state.facts.setdefault("not_entered", []).append(card.key)
    state.facts.setdefault("marshaled", []).append(card.key)
    trace.add(
        "enter-play",
        f"{player} marshals {card.key} for {card.cost} gold from under {host.key}"
        + (f" onto {onto}" if card.attached_to else "")
        + ": it was already in play, so it does not enter play",
        tag="marshal",
        subject=card.key,
    )


# ------------------------------------------------------------------ gold, bestow


SPENDABLE = "its gold may be spent as if in your gold pool"


@rule(
    "gold.spend",
    ["agot2-rr/gold", "agot2-faq41/2.8"],
    "gold is paid from the gold pool, or from a card whose gold may be spent as if it were in the pool",
)
@rule(
    "cost.reduce",
    ["agot2-rr/initiating-abilities-marshaling-cards", "agot2-rr/modifiers"],
    "the cost reductions waiting for the next card of its type are applied to its cost (never below 0) and used up",
)
def reduced_cost(state: State, trace: Trace, player: str, card: Card, cost: int, way: str) -> int:
    """The card's cost after the player's waiting reductions for the next card of its type (``effects._reduce_cost``),
    which this card uses up: all of them, applied together (RR Modifiers), the cost never below 0."""
    waiting = [
        e for e in state.effects
        if e.target == player and e.kind == "reduce cost" and e.value["next"] in (card.type, "card") and e.value["as"] == way
    ]  # fmt: skip
    if not waiting:
        return cost
    state.effects = [e for e in state.effects if e not in waiting]
    by = sum(int(e.value["by"]) for e in waiting)
    reduced = max(0, cost - by)
    sources = ", ".join(e.source or "a cost reduction" for e in waiting)
    trace.add(
        "cost.reduce",
        f"{card.key}'s cost {cost} is reduced by {by} ({sources}) → {reduced}"
        + (" (a cost cannot be below 0: the rest of the reduction is lost)" if cost < by else "")
        + f"; the reduction{'s are' if len(waiting) > 1 else ' is'} used up",
        cite=["agot2-rr/initiating-abilities-marshaling-cards"] + (["agot2-rr/modifiers"] if cost < by else []),
        tag="cost reduction",
        subject=card.key,
    )
    return reduced


def instances(card: Card, keyword: str) -> list[int]:
    """The X of each instance of a keyword with a value the card has ("ambush (5)", "ambush (3)": [3, 5])."""
    found = sorted(v for k, v in card.values.items() if k.startswith(f"{keyword} ") and k[len(keyword) + 1 :].isdigit())
    return found or ([card.values[keyword]] if keyword in card.values else [])


ABILITY_COST = "the cost"  # what pay_gold pays for an ability's cost


def pay_gold(
    state: State, trace: Trace, player: str, amount: int, spend_from: str | None, what: str, rule_id: str, cite: list[str]
) -> None:
    """Pay ``amount`` gold for ``what``; gold on ``spend_from`` is used first (FAQ 2.8)."""
    pool = state.players[player]
    from_card = 0
    if spend_from:
        card = state.cards[spend_from]
        if card.zone != "in_play" or card.controller != player or SPENDABLE not in constants(state, card):
            raise IllegalStep(
                "gold.spend",
                f"{player} cannot spend the gold on {spend_from} as if it were in the gold pool",
                cite=["agot2-faq41/2.8"],
            )
        from_card = min(card.gold_tokens, amount)
    if pool.gold + from_card < amount:
        have = pool.gold + from_card
        said = (  # an ability's cost: RR Abilities, "only be initiated if its cost ... has the potential to be paid in full"
            f"the cost is {amount} gold and {player} has {have}: it cannot be paid in full, so the ability cannot be initiated"
            if what == ABILITY_COST
            else f"{what} costs {amount} gold and {player} has {have}"
        )
        raise IllegalStep(rule_id, said, cite=cite)
    if from_card:
        state.cards[str(spend_from)].gold_tokens -= from_card
        trace.add(
            "gold.spend",
            f"{player} spends {from_card} gold from {spend_from} as if it were in the gold pool (for {what})",
            cite=["agot2-faq41/2.8"],
            tag="spend gold",
            subject=str(spend_from),
        )
    pool.gold -= amount - from_card


RULES.add(
    "bestow.duplicate",
    ["agot2-faq41/qa/limited-card-as-duplicate"],
    "a card marshaled as a duplicate has none of its printed keywords, so no bestow",
)


@rule("bestow", ["agot2-rr/bestow", "agot2-faq41/2.8"], "a card with bestow (X) entering play may receive up to X gold from its controller")
def bestow(state: State, trace: Trace, player: str, card: Card, amount: int, spend_from: str | None) -> None:
    if card.duplicate:  # (a blind review: 2 gold moved onto a duplicate)
        why = f"{card.key} entered play as a duplicate, which has none of its printed keywords, bestow included"
        trace.unused("bestow.duplicate", "bestow", amount, why, "agot2-faq41/qa/limited-card-as-duplicate")
        return
    # (several instances: the player may choose which is used, so up to the highest X)
    limit = max(instances(card, "bestow"), default=0) if "bestow" in state.keywords(card) else 0
    if amount > limit:
        raise IllegalStep("bestow", f"{card.key} has bestow ({limit}): at most {limit} gold can be placed on it", cite=["agot2-rr/bestow"])
    have = state.players[player].gold
    try:
        pay_gold(state, trace, player, amount, spend_from, f"bestow on {card.key}", "bestow", ["agot2-rr/bestow"])
    except IllegalStep as exc:
        if exc.rule_id != "bestow":
            raise
        # bestow is no cost: the card has entered play; only the amount chosen is refused, and a legal one asked for
        trace.add(
            "bestow",
            f"{player} cannot move {amount} gold onto {card.key}: bestow moves gold from the gold pool, which "
            f"holds {have} once {card.key} has entered play ({card.key} stays in play: bestow is not a cost)",
            "refused",
            cite=["agot2-rr/bestow"],
            tag="bestow",
            subject=card.key,
        )
        trace.add(
            "bestow",
            f"bestow ({limit}): {player} may move 0 to {min(limit, have)} gold from the gold pool onto {card.key}, a decision "
            "made immediately upon its entering play: a legal choice is needed",
            "choice-needed",
            cite=["agot2-rr/bestow"],
            tag="choice",
            subject=card.key,
        )
        return
    card.gold_tokens += amount
    trace.add(
        "bestow",
        f"{player} moves {amount} gold onto {card.key} (bestow {limit})",
        cite=["agot2-rr/bestow"],
        tag="bestow",
        subject=card.key,
    )


# ------------------------------------------------------------------ costs and triggered abilities


@rule(
    "cost",
    [
        "agot2-rr/costs",
        "agot2-rr/kneel",
        "agot2-rr/sacrifice",
        "agot2-rr/kill-killed",
        "agot2-faq41/3.2",
        "agot2-faq41/2.1",
        "agot2-rr/abilities",
        "agot2-rr/initiating-abilities-marshaling-cards",
    ],
    "an ability's costs are paid in full before its effect; a card leaving play as a cost cannot be saved; "
    "a card that cannot be knelt, sacrificed or killed cannot be chosen to be so to pay one",
)
def pay_costs(state: State, trace: Trace, ctx: Context, player: str, cost: dict[str, Any]) -> None:
    if not cost:
        return
    for verb in ("kneel", "discard", "sacrifice", "kill", "return_to_hand"):
        for key in names(cost.get(verb)):
            card = state.cards[key]
            whose = card.controller if card.zone == "in_play" else card.owner
            if whose != player:
                raise IllegalStep(
                    "cost",
                    f"{key} is {whose}'s game element: an opponent's game elements may not be used to pay {player}'s cost",
                    cite=["agot2-rr/costs"],
                )
    for key in names(cost.get("kill")):  # (checked before anything is paid: the cost cannot be paid in full)
        card = state.cards[key]
        if card.zone != "in_play":
            raise IllegalStep("cost", f"{key} is not in play to be killed as a cost", cite=["agot2-rr/costs", "agot2-rr/kill-killed"])
    if cost.get("kneel_faction_card") and state.players[player].faction_kneeling:  # (before anything is paid)
        raise IllegalStep(
            "cost",
            f"{player}'s faction card is already kneeling: it cannot be knelt to pay the cost, so the ability cannot be initiated",
            cite=["agot2-rr/costs", "agot2-rr/kneel"],
        )
    for verb, past in (("kneel", "knelt"), ("sacrifice", "sacrificed"), ("kill", "killed")):
        for key in names(cost.get(verb)):
            if not can_be(state, state.cards[key], past):  # (its own words, a lasting effect or a constant ability)
                raise IllegalStep(
                    "cost",
                    f"{key} cannot be {past}, so it cannot be chosen to be {past} to pay the cost: the ability cannot be initiated",
                    cite=["agot2-faq41/2.1", "agot2-rr/costs"],
                )
    gold = int(cost.get("gold", 0))
    # (a blind review: the refusal cited only Costs; Abilities and Initiating Abilities step 2 decide it)
    unpaid = ["agot2-rr/abilities", "agot2-rr/initiating-abilities-marshaling-cards"]
    pay_gold(state, trace, player, gold, cost.get("spend_from"), ABILITY_COST, "cost", unpaid)
    paid = [f"{gold} gold"] if gold else []
    for key in names(cost.get("kneel")):
        card = state.cards[key]
        if card.zone != "in_play" or card.kneeling:
            raise IllegalStep(
                "cost",
                f"{key} cannot be knelt to pay the cost: it is not a standing card in play",
                cite=["agot2-rr/costs", "agot2-rr/kneel"],
            )
        card.kneeling = True
        paid.append(f"kneels {key}")
        queue_reactions(ctx, f"kneel: {key}")
    if cost.get("kneel_faction_card"):  # RR In Play and Out of Play: the faction card is in play, and kneels as a card does
        state.players[player].faction_kneeling = True
        paid.append(f"kneels {player}'s faction card")
        queue_reactions(ctx, f"kneel: {player}'s faction card")
    for key in names(cost.get("discard")):
        card = state.cards[key]
        if card.zone != "hand":
            raise IllegalStep("cost", f"{key} is not in hand to be discarded as a cost", cite=["agot2-rr/costs"])
        card.zone = "discard"
        paid.append(f"discards {key}")
    trace.add("cost", f"{player} pays the cost: {', '.join(paid) or 'see below'}", cite=["agot2-rr/costs"], tag="cost", subject=player)
    for verb in ("kneel", "sacrifice", "kill", "return_to_hand"):
        for key in names(cost.get(verb)):
            immune_cost(state, trace, state.cards[key])
    for verb in ("sacrifice", "kill", "return_to_hand"):
        for key in names(cost.get(verb)):
            leave_play(state, trace, ctx, key, verb, as_cost=True)


@rule("cost.immune", ["agot2-rr/immune"], "immunity protects a card from effects only: an immune card can still pay a cost")
def immune_cost(state: State, trace: Trace, card: Card) -> None:
    """RR Immune: 'Immunity only protects a card from effects. It does not prevent a card from being used to pay costs.'"""
    immune = sorted(set(card.immune) | {k.removeprefix("immune to ") for k in state.keywords(card) if k.startswith("immune to ")})
    if not immune:
        return
    trace.add(
        "cost.immune",
        f"{card.key} is immune to {', '.join(immune)}, but immunity only protects a card from effects: it can still be used "
        "to pay a cost",
        tag="immune",
        subject=card.key,
    )


RULES.add(
    "constant.inactive",
    ["agot2-rr/constant-abilities"],
    "a constant ability with a condition is active only while the condition holds",
)
RULES.add("event.not-played", ["agot2-faq41/1.5"], "triggering an event's ability while it is not in hand is not playing the event")
RULES.add("you", ["agot2-faq41/2.7"], "'you' in an ability triggered by a player other than its controller means that player")
RULES.add("setup.abilities", ["agot2-faq41/1.9"], "card abilities are not active during setup unless they refer to setup")
RULES.add(
    "hand-being-played",
    ["agot2-faq41/qa/the-hand-s-judgment", "agot2-faq41/1.5"],
    "an event being played is not in its owner's hand",
)
RULES.add(
    "catelyn",
    ["agot2-faq41/qa/catelyn-stark"],
    "Catelyn Stark stops opponents initiating triggered card abilities; not forced, when revealed, duplicates or keywords",
)


def check_may_trigger(state: State, trace: Trace, player: str, trigger: str, source: str) -> None:
    blockers = [
        c
        for c in state.cards.values()
        if c.zone == "in_play"
        and c.controller != player
        and any("opponents cannot trigger" in text for text in constants(state, c))
        and (
            not any("participating" in text for text in constants(state, c))
            or (
                state.challenge is not None and not state.challenge.ended and c.key in state.challenge.attackers + state.challenge.defenders
            )
        )
    ]
    if not blockers:
        idle = [
            c
            for c in state.cards.values()
            if c.zone == "in_play"
            and c.controller != player
            and any("opponents cannot trigger" in text and "participating" in text for text in constants(state, c))
        ]
        if idle:
            trace.add(
                "constant.inactive",
                f"{idle[0].key} is not participating in a challenge, so her ability does not stop {player} from using {source}",
                tag="not prevented",
                subject=idle[0].key,
            )
        return
    if trigger.startswith("forced") or trigger == "when revealed":
        trace.add(
            "catelyn",
            f"{blockers[0].key} does not stop {source}: a {trigger} ability is initiated by the game, not by the player",
            cite=["agot2-faq41/qa/catelyn-stark"],
            tag="not prevented",
            subject=source,
        )
        return
    raise IllegalStep(
        "catelyn",
        f"{blockers[0].key} prevents {player} from initiating triggered card abilities ({trigger}: {source})",
        cite=["agot2-faq41/qa/catelyn-stark"],
    )


@rule(
    "ability",
    [
        "agot2-rr/triggered-abilities",
        "agot2-rr/initiating-abilities-marshaling-cards",
        "agot2-rr/interrupts",
        "agot2-rr/reactions",
        "agot2-rr/the-word-then",
        "agot2-faq41/1.8",
        "agot2-faq41/1.7",
        "agot2-rr/forced-interrupts-forced-reactions",
    ],
    "a triggered ability: costs, then its effect; a post-then part only if the pre-then part resolved; reactions after both",
)
def triggered(state: State, trace: Trace, ctx: Context, spec: dict[str, Any], kind: str, event: str = "") -> bool:
    """Resolve one triggered ability (``spec`` as in the format: player, card, cost, effect, then)."""
    player = spec.get("player") or state.first_player
    source = str(spec.get("card") or "an ability")
    trigger = str(spec.get("trigger") or kind)
    check_action_phase(state, trigger, source)
    check_may_trigger(state, trace, player, trigger, source)
    if state.phase == "setup" and not spec.get("setup"):
        raise IllegalStep(
            "setup.abilities", f"{source}'s ability is not active during setup (it does not refer to setup)", cite=["agot2-faq41/1.9"]
        )
    check_limits(state, trace, player, spec, source)
    being_played = state.cards.get(source)
    if being_played is not None and being_played.zone == "being played":
        raise IllegalStep(
            "hand-being-played",
            f"{source} is in the process of being played and is no longer in {player}'s hand: that copy cannot be played again",
            cite=["agot2-faq41/qa/the-hand-s-judgment"],
        )
    if kind == "reaction" and event.startswith("enter play:"):
        entering = event.partition(": ")[2]
        if entering in state.facts.get("not_entered", []):
            raise IllegalStep(
                "enter-play",
                f"{entering} was marshaled from facedown under another card: it was already in play and did not enter play",
                cite=["agot2-faq41/qa/dothraki-handmaiden"],
            )
        if entering not in state.facts.get("entered", []):
            raise IllegalStep("enter-play", f"{entering} has not entered play", cite=["agot2-rr/enters-play"])
    if kind == "reaction" and event.startswith("marshal:"):
        marshaled = event.partition(": ")[2]
        if marshaled in state.cards and marshaled not in state.facts.get("marshaled", []):
            put = marshaled in state.facts.get("entered", [])
            raise IllegalStep(
                "reaction.marshaled",
                f"{marshaled} "
                + ("was put into play by a card ability, which is not marshaling it" if put else "has not been marshaled")
                + ": a reaction to marshaling it cannot be used",
                cite=["agot2-rr/marshal"] + (["agot2-rr/put-into-play"] if put else []),
            )
    verb, _, subject = event.partition(": ")
    area = {"discard": "discard", "kill": "dead"}.get(verb)
    card = state.cards.get(subject)
    targets = names((spec.get("effect") or {}).get("target"))
    if kind != "interrupt" and area and card is not None and subject in targets and card.zone != area:
        raise IllegalStep(
            "out-of-play-area",
            f"{source} cannot interact with {subject}: it is no longer in the {'discard' if area == 'discard' else 'dead'} pile",
            cite=["agot2-faq41/2.4"],
        )
    source_card = state.cards.get(source)
    played = source_card is not None and source_card.type == "event" and source_card.zone == "hand" and source_card.owner == player
    if spec.get("effect"):  # before any cost is paid (RR Costs)
        costs = bool(spec.get("cost")) or (played and source_card is not None and source_card.cost > 0)
        initiation.check(state, {"source": source, "controller": player, **spec["effect"]}, source, costs)
    cite_errata(state, trace, source)
    owner_card = state.cards.get(source)
    if owner_card is not None and owner_card.zone == "in_play" and owner_card.controller != player:
        trace.add(
            "you",
            f"{player} triggers {source}, which {owner_card.controller} controls: in its text 'you' means {player}, who triggers it",
            tag="you",
            subject=player,
        )
    trace.add(
        "ability",
        f"{player} uses {source} ({trigger})" + (f" in response to {event}" if event else ""),
        cite=(
            ["agot2-rr/interrupts"]
            if kind == "interrupt"
            else (["agot2-rr/reactions"] if kind == "reaction" else ["agot2-rr/triggered-abilities"])
        )
        # RR Forced Interrupts / Forced Reactions: it "must be resolved immediately whenever the triggering condition ... occurs"
        + (["agot2-rr/forced-interrupts-forced-reactions"] if trigger.lower().startswith("forced") else []),
        tag=kind if kind in ("interrupt", "reaction") else "ability",
        subject=source,
    )
    if source_card is not None and source_card.type == "event" and source_card.zone in ("discard", "dead", "removed"):
        trace.add(
            "event.not-played",
            f"{source} is used from outside its owner's hand: triggering its ability is not playing the event, "
            "so only the ability's own cost is paid (not the event's cost)",
            tag="not played",
            subject=source,
        )
    if played and source_card is not None:  # an event's triggered ability: playing it (FAQ 1.5)
        no_cost_shadow(source_card, "event.play", "played")
        source_card.zone = "being played"
    pay_costs(state, trace, ctx, player, spec.get("cost") or {})
    resolved = resolve_with_then(state, trace, ctx, spec, {"source": source, "controller": player, "_initiated": True})
    if played:
        assert source_card is not None
        source_card.zone, source_card.order = "discard", state.next_seq()
        trace.add(
            "event.play",
            f"{source} is placed in its owner's discard pile: playing it is complete",
            cite=["agot2-faq41/1.5"],
            tag="discard",
            subject=source,
        )
    return resolved


@rule(
    "limits",
    ["agot2-rr/limits-and-maxima"],
    "each copy of an ability with 'Limit X per period' may be used X times in that period (a card that re-enters play "
    "brings a new copy); 'Max X per period' counts every copy by title; both are player specific; a canceled use counts",
)
def check_action_phase(state: State, trigger: str, source: str) -> None:
    """RR Actions: an Action with a phase name as a qualifier ("Dominance Action:") "can only be initiated during an
    action window in the specified phase".  Raises IllegalStep outside that phase."""
    phase = PHASE_ACTIONS.get(trigger.lower())
    if phase is None or state.phase == phase:
        return
    raise IllegalStep(
        "action.phase",
        f"{source}'s ability is a '{trigger.title()}': a phase-qualified action can only be initiated "
        f"during an action window in the {phase_said2(phase)} phase, and the game is in the "
        f"{phase_said2(state.phase)} phase",
        cite=["agot2-rr/actions"],
    )


RULES.add(
    "action.phase",
    ["agot2-rr/actions"],
    "an action with a phase name as a qualifier (Dominance Action, Marshaling Action, Challenges Action) can only be "
    "initiated during an action window in that phase",
)


def check_limits(state: State, trace: Trace, player: str, spec: dict[str, Any], source: str) -> None:
    """Count this use against the ability's limit or maximum (``limit``/``max``: {times, per}), or refuse it."""
    for kind in ("limit", "max"):
        bound = spec.get(kind)
        if not bound:
            continue
        times, per = int(bound["times"]), str(bound["per"])
        card = state.cards.get(source)
        if kind == "limit":  # this copy of the ability: a card that left play and re-entered is a new copy
            copy = f"{card.key}@{card.order}" if card is not None and card.zone == "in_play" else source
            label, whose = f"Limit {times} per {per}", f"this copy of {source}'s ability"
        else:  # every copy by title, including this one
            copy = card.name if card is not None else source
            label, whose = f"Max {times} per {per}", f"the ability of {copy} (all copies by title count together)"
        counts = state.facts.setdefault("limits", {}).setdefault(per, {})
        used = counts.get(f"{kind}|{player}|{copy}", 0)
        period = per
        if used >= times:
            raise IllegalStep(
                "limits",
                f"{label}: {player} has already initiated {whose} {used} time(s) this {period}",
                cite=["agot2-rr/limits-and-maxima"],
            )
        counts[f"{kind}|{player}|{copy}"] = used + 1
        trace.add(
            "limits",
            f"{label}: {player} initiates {whose} for the {_ordinal(used + 1)} time this {period} (it counts even if canceled)",
            cite=["agot2-rr/limits-and-maxima"],
            tag="limit",
            subject=source,
        )


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def resolve_with_then(state: State, trace: Trace, ctx: Context, spec: dict[str, Any], base: dict[str, Any]) -> bool:
    """An ability's or event's effect, then its post-then part only if the pre-then part resolved in full (RR The word
    "Then"); reactions to either wait until both have (FAQ 1.8).  True if the pre-then part resolved."""
    source = str(base.get("source") or "")
    resolved = True
    if spec.get("effect"):
        resolved = bool(ctx.apply_effect(state, trace, ctx, {**base, **spec["effect"]}))
    if not spec.get("then"):
        return resolved
    if resolved:
        trace.add(
            "ability",
            f"the pre-then part of {source} resolved, so its post-then part resolves; reactions to either wait until both have",
            cite=["agot2-rr/the-word-then", "agot2-faq41/1.8"],
            tag="then",
            subject=source,
        )
        ctx.apply_effect(state, trace, ctx, {**base, **spec["then"], "_post_then": True})
    else:
        trace.add(
            "ability",
            f"the pre-then part of {source} did not resolve, so its post-then part does not",
            "not-applied",
            cite=["agot2-rr/the-word-then"],
            tag="then",
            subject=source,
        )
    return resolved


@rule(
    "event.play",
    [
        "agot2-faq41/1.5",
        "agot2-rr/event-cards",
        "agot2-faq41/qa/melisandre-seen-in-flames",
        "agot2-rr/cancel",
        "agot2-rr/limited",
        "agot2-rr/shadows/the-shadow-keyword",
        "agot2-faq41/qa/no-surprises",
        "agot2-rr/shadows/printed-cost-of-shadows-cards",
        "agot2-rr/shadows/bringing-a-card-out-of-shadows",
    ],
    "playing an event: it leaves the hand when its costs are paid, resolves or is canceled, then goes to its owner's discard "
    "pile; reactions to playing it come after",
)
def play_event(state: State, trace: Trace, ctx: Context, spec: dict[str, Any]) -> None:
    player, key = spec["player"], spec["card"]
    card = state.cards[key]
    origin = str(spec.get("from") or "hand")
    area = {"hand": "hand", "discard": "discard pile", "shadows": "shadows area"}[origin]
    check_action_phase(state, str(spec.get("trigger") or "action"), key)
    if card.type != "event" or card.zone != origin or card.owner != player:
        raise IllegalStep("event.play", f"{key} is not an event in {player}'s {area}", cite=["agot2-faq41/1.5"])
    if origin == "shadows" and "shadow" not in state.keywords(card):
        raise IllegalStep(
            "event.play", f"{key} has no shadow keyword to be played from shadows", cite=["agot2-rr/shadows/the-shadow-keyword"]
        )
    if origin == "shadows" and not instances(card, "shadow"):  # (as out_of_shadows: it was played for 0 gold)
        raise IllegalStep(
            "event.play",
            f"{key}'s shadow keyword is given with no (X) value (write it 'shadow (X)'): an event in shadows is played by "
            "paying its shadow cost, the value listed after the shadow keyword",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    if origin == "shadows" and player in state.facts.get("no_shadows", []):
        raise IllegalStep("event.play", f"{player} cannot bring cards out of shadows", cite=["agot2-faq41/qa/no-surprises"])
    if origin == "hand":
        no_cost_shadow(card, "event.play", "played")
    if origin == "discard":
        check_baelor(state, trace, player, card)
    check_may_trigger(state, trace, player, str(spec.get("trigger") or "action"), key)
    if "limited" in card.keywords:
        check_limited(state, trace, player, card, False)
    check_limits(state, trace, player, spec, key)
    pool = state.players[player]
    extra = dict(spec.get("cost") or {})
    default = instances(card, "shadow")[0] if origin == "shadows" else card.cost
    gold = int(extra.pop("gold", default))  # a stated gold cost is the event's cost, not an addition
    # (from shadows too: "Any effect that modifies the cost to bring a card out of shadows modifies that card's shadow cost")
    gold = reduced_cost(state, trace, player, card, gold, "play")
    if spec.get("effect"):  # before its costs are paid (RR Costs)
        effect = {"source": key, "source_type": "event", "controller": player, **spec["effect"]}
        initiation.check(state, effect, key, gold > 0 or any(k != "__line__" for k in extra))
    if pool.gold < gold:
        raise IllegalStep("event.play", f"{key} costs {gold} gold and {player} has {pool.gold}", cite=["agot2-faq41/1.5"])
    pool.gold -= gold
    card.zone = "being played"
    trace.add(
        "event.play",
        f"{player} plays {key}"
        + ("" if origin == "hand" else f" from the {area}" + (" (its shadow cost)" if origin == "shadows" else ""))
        + f": its cost ({gold} gold) is paid and it leaves the {area}; while it resolves it is in no out-of-play area",
        cite=["agot2-faq41/1.5"] + (["agot2-rr/shadows/the-shadow-keyword"] if origin == "shadows" else []),
        tag="play",
        subject=key,
    )
    pay_costs(state, trace, ctx, player, {k: v for k, v in extra.items() if k != "__line__"})
    if spec.get("canceled_by"):
        play_canceler(state, trace, str(spec["canceled_by"]), key)
        trace.add(
            "event.play",
            f"{key}'s effects are canceled by {spec['canceled_by']}: its costs stay paid",
            cite=["agot2-rr/cancel"],
            tag="canceled",
            subject=key,
        )
    elif spec.get("effect"):
        resolve_with_then(state, trace, ctx, spec, {"source": key, "source_type": "event", "controller": player, "_initiated": True})
    card.zone, card.order = "discard", state.next_seq()
    trace.add(
        "event.play",
        f"{key} is placed in its owner's discard pile: playing it is complete",
        cite=["agot2-faq41/1.5"],
        tag="discard",
        subject=key,
    )
    queue_reactions(ctx, f"play: {key}")
    if any(s.get("_event") == f"play: {key}" for s in ctx.pending_reactions):
        trace.add(
            "event.play",
            f"reactions to playing {key} may be used only now, after its effect resolved",
            cite=["agot2-faq41/qa/melisandre-seen-in-flames"],
            tag="reaction window",
            subject=key,
        )
    run_reactions(state, trace, ctx)


def play_canceler(state: State, trace: Trace, canceler_key: str, canceled: str) -> None:
    """The card that cancels ``canceled``: when it is an event in a player's hand, that player plays it — its cost is
    paid and it goes to its owner's discard pile (RR Cancel: "If the effects of an event card are canceled, the card is
    still considered to have been played"; the canceling event is played like any other, FAQ 1.5)."""
    canceler = state.cards.get(canceler_key)
    if canceler is None or canceler.type != "event" or canceler.zone != "hand":
        return
    other = state.players[canceler.owner]
    price = canceler.cost
    if canceler.values.get("cost is X"):  # X = the printed cost of the event canceled
        card = state.cards.get(canceled)
        if card is None or card.type != "event":
            raise IllegalStep(
                "event.x-cost",
                f"{canceler.key} costs X, the printed cost of the event it cancels, and {canceled} is not an event card",
                cite=["agot2-rr/the-letter-x"],
            )
        undefined = bool(card.values.get("no printed cost"))
        price = 0 if undefined else card.cost
        trace.add(
            "event.x-cost",
            f"{canceler.key} costs X, the printed cost of {canceled}: "
            + ("it has no printed cost ('-'), so X is undefined and defaults to 0" if undefined else f"X = {price}"),
            cite=["agot2-faq41/qa/the-hand-s-judgment-shadow-events"] if undefined else ["agot2-rr/the-letter-x"],
            tag="cost",
            subject=canceler.key,
        )
    if other.gold < price:
        raise IllegalStep("event.play", f"{canceler.key} costs {price} gold and {canceler.owner} has {other.gold}")
    other.gold -= price
    canceler.zone, canceler.order = "discard", state.next_seq()
    trace.add(
        "event.play",
        f"{canceler.owner} plays {canceler.key} ({price} gold) to cancel {canceled}; it goes to its owner's discard pile",
        cite=["agot2-faq41/1.5", "agot2-rr/cancel"],
        tag="play",
        subject=canceler.key,
    )


RULES.add(
    "event.x-cost",
    ["agot2-faq41/qa/the-hand-s-judgment-shadow-events", "agot2-rr/the-letter-x"],
    "a cost of X set by another card's printed cost; an undefined X ('-') is 0",
)


@rule(
    "baelor",
    ["agot2-faq41/qa/baelor-blacktyde"],
    "'cannot play copies of events in your discard pile' allows the only copy there",
)
def check_baelor(state: State, trace: Trace, player: str, card: Card) -> None:
    blockers = [
        c
        for c in state.cards.values()
        if c.zone == "in_play" and c.controller != player and any("cannot play copies of events" in t for t in constants(state, c))
    ]
    if not blockers:
        return
    copies = [c for c in state.zone(player, "discard") if c.name == card.name and c is not card]
    if copies:
        raise IllegalStep(
            "baelor",
            f"{blockers[0].key}: another copy of {card.name} is in {player}'s discard pile, so it cannot be played from there",
            cite=["agot2-faq41/qa/baelor-blacktyde"],
        )
    trace.add(
        "baelor",
        f"{blockers[0].key} does not stop {card.key}: it is the only copy in {player}'s discard pile",
        tag="not prevented",
        subject=blockers[0].key,
    )


@rule(
    "shadows",
    [
        "agot2-rr/shadows",
        "agot2-rr/shadows/bringing-a-card-out-of-shadows",
        "agot2-rr/shadows/unique-cards-and-shadows",
        "agot2-faq41/qa/no-surprises",
        "agot2-faq41/1.3",
        "agot2-faq41/1.2",
        "agot2-rr/no-attachments",
        "agot2-rr/attachment-cards",
        SHADOW_TOKENS,
    ],
    "a card in shadows comes out by paying its shadow (X) cost; unique cards follow the uniqueness rules; its tokens are discarded",
)
def out_of_shadows(
    state: State, trace: Trace, ctx: Context, player: str, key: str, onto: str | None = None, chosen: int | None = None
) -> None:
    card = state.cards[key]
    if card.zone != "shadows" or card.owner != player:
        raise IllegalStep("shadows", f"{key} is not in {player}'s shadows area", cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"])
    if card.type == "event":  # RR: "a player may bring a character, location, or attachment out of shadows"
        raise IllegalStep(
            "shadows",
            f"{key} is an event card: it is played from shadows (a play_event step), not brought out of shadows into play",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    if card.type not in ("character", "location", "attachment"):  # (review r53: a plot was brought out and into play)
        raise IllegalStep(
            "shadows",
            f"{key} is {'an' if card.type[0] in 'aeiou' else 'a'} {card.type} card: only a character, location or attachment "
            "may be brought out of shadows and into play",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    held = instances(card, "shadow")  # RR: "the player controlling the card may choose which instance ... is used"
    if "shadow" not in state.keywords(card) or not held:  # (review r53: brought out for its printed cost, or for 0)
        raise IllegalStep(
            "shadows",
            (
                f"{key} has no shadow keyword, so it has no shadow cost"
                if "shadow" not in state.keywords(card)
                else f"{key}'s shadow keyword is given with no (X) value (write it 'shadow (X)'), so its shadow cost is not known"
            )
            + ": a card is brought out of shadows only by paying its shadow cost, the value listed after the shadow keyword",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    if player in state.facts.get("no_shadows", []):
        raise IllegalStep("shadows", f"{player} cannot bring cards out of shadows", cite=["agot2-faq41/qa/no-surprises"])
    if chosen is not None and chosen not in held:
        raise IllegalStep(
            "shadows",
            f"{key} has {', '.join(f'shadow ({x})' for x in held) or 'no shadow (X)'}, not shadow ({chosen})",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    cost = chosen if chosen is not None else held[0]  # the cheapest instance unless one is named
    if state.players[player].gold < cost:
        raise IllegalStep(
            "shadows",
            f"{key}'s shadow cost is {cost} gold and {player} has {state.players[player].gold}",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
        )
    state.players[player].gold -= cost
    try:
        duplicate = check_unique(state, player, card)
    except IllegalStep as exc:  # the same uniqueness rules, stated again for shadows
        raise IllegalStep("shadows", exc.reason, cite=(exc.cite or []) + ["agot2-rr/shadows/unique-cards-and-shadows"]) from None
    if card.type == "attachment" and not duplicate and onto is None:
        eligible = [h.key for h in state.in_play() if _eligible_host(state, card, h, player)]
        if eligible:
            raise IllegalStep(
                "shadows",
                f"{key} is an attachment brought out of shadows: it must immediately be attached to an eligible card "
                f"(say which: 'onto'; eligible: {', '.join(eligible)})",
                cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
            )
        card.zone, card.order = "discard", state.next_seq()
        trace.add(
            "shadows",
            f"{player} pays {cost} gold to bring {key} out of shadows, but no card in play is eligible for it to attach to: "
            f"it is discarded without entering play",
            cite=["agot2-rr/shadows/bringing-a-card-out-of-shadows"],
            tag="discard",
            subject=key,
        )
        return
    _enter(
        state,
        trace,
        player,
        card,
        None if duplicate else onto,
        duplicate,
        "shadows",
        f"{player} brings {key} out of shadows for {cost} gold" + (" as a duplicate of the copy already in play" if duplicate else ""),
        ["agot2-rr/shadows/bringing-a-card-out-of-shadows"] + (["agot2-rr/shadows/unique-cards-and-shadows"] if card.unique else []),
    )


def _eligible_host(state: State, attachment: Card, host: Card, player: str) -> bool:
    """Could ``attachment`` attach to ``host`` now (No attachments, its restriction; an unread restriction counts as met)?"""
    if host.type not in ("character", "location", "attachment") or "no attachments" in state.keywords(host):
        return False
    alternatives = attachment_restrictions.parse(attachment.restriction)
    return alternatives is None or attachment_restrictions.unmet(state, alternatives, host, player) is None


@rule(
    "shadows.marshal",
    [
        "agot2-rr/shadows/marshaling-a-card-into-shadows",
        "agot2-rr/shadows/the-shadow-keyword",
        "agot2-rr/appendix-i/marshaling-phase/player-action-window",
        "agot2-rr/initiating-abilities-marshaling-cards",
        "agot2-rr/shadows/unique-cards-and-shadows",
    ],
    "the active player may pay 2 gold to marshal a card with shadow facedown into shadows from hand; it is not marshaling "
    "the card itself",
)
def marshal_into_shadows(state: State, trace: Trace, player: str, key: str, spend_from: str | None) -> None:
    card = state.cards[key]
    clause = "agot2-rr/shadows/marshaling-a-card-into-shadows"
    if state.phase != "marshalling":
        raise IllegalStep(
            "shadows.marshal",
            f"cards are marshaled into shadows only during the marshaling phase (the game is in the {phase_said2(state.phase)} phase)",
            cite=[clause],
        )
    if card.zone != "hand" or card.owner != player:
        raise IllegalStep("shadows.marshal", f"{key} is not in {player}'s hand", cite=[clause])
    if "shadow" not in state.keywords(card):
        raise IllegalStep("shadows.marshal", f"{key} has no shadow keyword: it cannot be marshaled into shadows", cite=[clause])
    pay_gold(state, trace, player, 2, spend_from, f"marshaling {key} into shadows", "shadows.marshal", [clause])
    card.zone, card.order = "shadows", state.next_seq()
    trace.add(
        "shadows.marshal",
        f"{player} pays 2 gold to marshal {key} into shadows, facedown: this is only 'marshaling a card into shadows', not "
        f"marshaling a card with its characteristics (it does not enter play, and Limited and uniqueness do not apply)",
        cite=[clause],
        tag="shadows",
        subject=key,
    )
    copies = [c for c in state.cards.values() if c is not card and c.name == card.name and c.owner == player]
    places = [said for z, said in (("in_play", "in play"), ("dead", "in the dead pile")) if any(c.zone == z for c in copies)]
    if card.unique and places:  # (a blind review: the subsection that says so was not cited)
        trace.add(
            "shadows.marshal",
            f"{key} is unique and {player} already has a copy of it {' and '.join(places)}: a unique card may still be "
            "marshaled into shadows",
            cite=["agot2-rr/shadows/unique-cards-and-shadows"],
            tag="shadows",
            subject=key,
        )


def _unread(trace: Trace, attachment: Card, what: str, cite: str) -> None:
    """An attachment's restriction the engine cannot read: said, never taken as met or as broken."""
    trace.add(
        "attach.unread",
        f"{attachment.key}'s restriction '{attachment.restriction}' is not one the engine reads: {what}",
        "not-applied",
        cite=[cite],
        tag="restriction not checked",
        subject=attachment.key,
    )


# ------------------------------------------------------------------ setup


def _restriction_met(state: State, trace: Trace, attachment: Card, host: Card) -> str | None:
    """Why an attachment's restriction is not met by ``host`` (its printed traits and keywords: no ability is active
    during setup), or None; an unreadable restriction is said to be unchecked (``attach.unread``)."""
    alternatives = attachment_restrictions.parse(attachment.restriction)
    if alternatives is None:
        why = f"whether it is legally attached to {host.key} was not checked, although an illegal attachment is discarded"
        _unread(trace, attachment, why, "agot2-faq41/qa/attachments-in-setup-2")
        return None
    return attachment_restrictions.unmet(state, alternatives, host, attachment.controller, printed=True)


def _check_setup_shadows(state: State, place: dict[str, list[str]], shadows: dict[str, list[str]]) -> None:
    """The cards a setup places into shadows: from the player's hand, with the shadow keyword (RR: "cards with the
    shadow keyword (including events) may be placed into shadows"), and not placed as setup cards too."""
    for player, keys in shadows.items():
        for key in keys:
            card = state.cards[key]
            if card.zone != "hand" or card.owner != player:
                raise IllegalStep("setup", f"{key} is not in {player}'s hand", cite=["agot2-rr/setup"])
            if "shadow" not in state.keywords(card):
                raise IllegalStep(
                    "setup",
                    f"{key} has no shadow keyword: it cannot be placed into shadows in setup",
                    cite=["agot2-rr/shadows/marshaling-a-card-into-shadows"],
                )
            if key in place.get(player, []):
                raise IllegalStep("setup", f"{key} is named both as a setup card and as placed into shadows", cite=["agot2-rr/setup"])


@rule(
    "setup",
    [
        "agot2-rr/setup",
        "agot2-faq41/qa/attachments-in-setup",
        "agot2-faq41/qa/attachments-in-setup-2",
        "agot2-rr/limited",
        "agot2-faq41/1.9",
        "agot2-rr/duplicates",
        "agot2-rr/attachment-cards",
        "agot2-rr/shadows/printed-cost-of-shadows-cards",
        "agot2-rr/shadows/marshaling-a-card-into-shadows",
    ],
    "setup cards are placed facedown, revealed at once, then each player's attachments attach at once to revealed cards he or she "
    "controls; additional copies of a unique card are placed at no cost and revealed as duplicates",
)
def setup(
    state: State, trace: Trace, place: dict[str, list[str]], attach: dict[str, str], shadows: dict[str, list[str]] | None = None
) -> None:
    placed: dict[str, str] = {}
    duplicates: dict[str, str] = {}  # an additional copy of a unique card -> the copy it is revealed on
    shadows = shadows or {}
    _check_setup_shadows(state, place, shadows)
    for player, keys in {**{p: [] for p in shadows}, **place}.items():
        cost = 2 * len(shadows.get(player, []))  # "by spending 2 gold from the amount allocated for setup for each card"
        limited = [k for k in keys if "limited" in state.keywords(state.cards[k])]
        if len(limited) > 1:
            raise IllegalStep("setup", f"{player} places more than 1 limited card ({', '.join(limited)})", cite=["agot2-rr/limited"])
        first: dict[str, str] = {}  # a unique title -> the copy placed first
        for key in keys:
            card = state.cards[key]
            if card.zone != "hand" or card.owner != player:
                raise IllegalStep("setup", f"{key} is not in {player}'s hand", cite=["agot2-rr/setup"])
            if card.type not in ("character", "location", "attachment"):
                raise IllegalStep(
                    "setup", f"{key} is an {card.type}: only characters, locations and attachments are placed", cite=["agot2-rr/setup"]
                )
            if card.values.get("no printed cost"):  # RR: "may only be played by being brought out of shadows"
                raise IllegalStep(
                    "setup",
                    f"{key} has no printed cost ('-'): such a card may only be brought out of shadows, so it cannot be placed "
                    "faceup as a setup card",
                    cite=["agot2-rr/shadows/printed-cost-of-shadows-cards", "agot2-rr/setup"],
                )
            if card.unique and card.name in first:  # "Additional copies of unique cards may be placed in setup at no cost"
                duplicates[key] = first[card.name]
            else:
                if card.unique:
                    first.setdefault(card.name, key)
                cost += card.cost
            placed[key] = player
        if cost > 8:
            into = f" (2 for each of {len(shadows[player])} card(s) placed into shadows)" if shadows.get(player) else ""
            raise IllegalStep(
                "setup",
                f"{player} places {cost} cost of cards{into}: no more than 8 may be placed",
                cite=["agot2-rr/setup"] + (["agot2-rr/shadows/marshaling-a-card-into-shadows"] if into else []),
            )
    for attachment, host in attach.items():
        card = state.cards[attachment]
        if placed.get(attachment) is None or card.type != "attachment":
            raise IllegalStep("setup", f"{attachment} is not an attachment placed in setup", cite=["agot2-rr/setup"])
        if placed.get(host) != placed[attachment] or host in duplicates or host == attachment:
            raise IllegalStep(
                "setup",
                f"{attachment} can only be attached to a revealed setup card its owner, {placed[attachment]}, controls; {host} is not one",
                cite=["agot2-faq41/qa/attachments-in-setup"],
            )
        # RR Setup: "Each attachment that is placed must be attached to an eligible target"; RR Attachment Cards: "An
        # attachment can only attach to a character, unless otherwise specified" (a trait it lacks may be lent by another
        # attachment: that case is discarded after attaching, FAQ Attachments in setup (2))
        kinds = {a.type for a in attachment_restrictions.parse(card.restriction) or []} or {"character"}
        if state.cards[host].type not in kinds:
            raise IllegalStep(
                "setup",
                f"{attachment} can only attach to a {' or '.join(sorted(kinds))}; {host} is a {state.cards[host].type}, no eligible target",
                cite=["agot2-rr/setup", "agot2-rr/attachment-cards"],
            )
    unattached = [k for k in placed if state.cards[k].type == "attachment" and k not in attach]
    if unattached:
        raise IllegalStep(
            "setup", f"{', '.join(unattached)} must be attached to an eligible card (state 'attach')", cite=["agot2-rr/setup"]
        )
    for key, player in placed.items():
        card = state.cards[key]
        card.zone, card.controller, card.kneeling, card.order = "in_play", player, False, state.next_seq()
    for key, copy in duplicates.items():
        state.cards[key].attached_to, state.cards[key].duplicate = copy, True
    for player, keys in shadows.items():
        for key in keys:
            card = state.cards[key]
            card.zone, card.order = "shadows", state.next_seq()  # (as marshal_into_shadows places one)
        if keys:
            trace.add(
                "setup",
                f"{player} places {', '.join(keys)} into shadows, 2 of the 8 setup gold each: "
                "they remain facedown in the shadows area when setup cards are revealed",
                cite=["agot2-rr/shadows/marshaling-a-card-into-shadows"],
                tag="shadows",
                subject=player,
            )
    trace.add(
        "setup",
        "setup cards are revealed at once: "
        + "; ".join(f"{p}: {', '.join(ks)}" for p, ks in place.items())
        + " — they are not marshaled, played or put into play, and their abilities are not active during setup",
        cite=["agot2-rr/setup", "agot2-faq41/1.9"],
        tag="setup",
    )
    if duplicates:
        trace.add(
            "setup",
            "additional copies of unique cards, placed at no cost, are revealed as duplicates: "
            + ", ".join(f"{k} on {c}" for k, c in duplicates.items()),
            cite=["agot2-rr/setup", "agot2-rr/duplicates"],
            tag="duplicate",
        )
    for attachment, host in attach.items():
        state.cards[attachment].attached_to = host
    if attach:
        trace.add(
            "setup",
            "each player's attachments are attached at the same time: " + ", ".join(f"{a} onto {h}" for a, h in attach.items()),
            cite=["agot2-rr/setup", "agot2-faq41/qa/attachments-in-setup-2"],
            tag="attach",
        )
    for attachment, host in attach.items():
        problem = _restriction_met(state, trace, state.cards[attachment], state.cards[host])
        if problem:
            card = state.cards[attachment]
            card.attached_to, card.zone, card.controller, card.order = None, "discard", card.owner, state.next_seq()
            trace.add(
                "setup",
                f"{attachment} is not legally attached ({problem}); another attachment cannot make it legal, "
                "since all attach at once: it is discarded",
                cite=["agot2-faq41/qa/attachments-in-setup-2"],
                tag="discard",
                subject=attachment,
            )
