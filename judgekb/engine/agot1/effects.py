"""Effects a scenario states explicitly: STR modifiers, keywords and icons gained or lost, kneeling,
"cannot", immunity to the effect's source, and when lasting effects expire."""

from __future__ import annotations

from judgekb.engine.agot1 import RULES, rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Lasting, State
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import cannot_words

UNTIL_WORDS = {
    "phase": "until the end of the phase",
    "round": "until the end of the round",
    "challenge": "until the end of the challenge",
    "permanent": "while it stays in play",
}
SOURCES = {
    "event": "events",
    "character": "character abilities",
    "location": "location abilities",
    "attachment": "attachment abilities",
    "plot": "plots",
}


@rule(
    "immunity.target",
    ["agot1-rules/immunity", "agot1-faq/3.16", "agot1-faq/3.17"],
    "a card ignores effects of the types it is immune to and cannot be chosen as their target",
)
def check_immunity(state: State, trace: Trace, target: str, source: str | None) -> None:
    if not source:
        return
    card = state.cards[target]
    immune_to = SOURCES.get(source, source)
    if immune_to in card.immune or "all" in card.immune or (source in ("event", "character") and "triggered effects" in card.immune):
        raise IllegalStep(
            "immunity.target", f"{target} is immune to {immune_to}: it cannot be chosen as the target of that effect and ignores it"
        )


@rule(
    "lasting.sum",
    ["agot1-faq/timing/multiple-lasting-effects", "agot1-rules/lasting-effects"],
    "lasting effects on a card are summed; a character's STR is never below 0",
)
def add_lasting(state: State, trace: Trace, effect: Lasting) -> None:
    card = state.cards[effect.target]
    if card.zone != "in_play":
        raise IllegalStep("lasting.sum", f"{effect.target} is not in play")
    before = state.strength(card)
    state.effects.append(effect)
    until = UNTIL_WORDS[effect.until]
    if effect.kind == "str":
        raw = card.strength + sum(e.value for e in state.effects if e.target == card.key and e.kind == "str")
        text = f"{effect.target} gets {effect.value:+d} STR {until}: STR {before} → {state.strength(card)}"
        if raw < 0:
            text += f" (printed STR and modifiers add up to {raw}, rounded up to 0)"
    else:
        text = f"{effect.target} {effect.kind.replace('gain', 'gains').replace('lose', 'loses')} {effect.value} {until}"
    trace.add("lasting.sum", text)
    challenge = state.challenge
    if effect.kind in ("gain icon", "lose icon") and challenge and card.key in challenge.attackers + challenge.defenders:
        side = "attacking" if card.key in challenge.attackers else "defending"
        trace.add("icon.mid-challenge", f"{card.key} is still {side}: gaining or losing an icon mid-challenge does not change that")


RULES.add(
    "icon.mid-challenge",
    ["agot1-faq/qa/losing-icon-mid-challenge"],
    "a participating character that gains or loses an icon stays attacking or defending",
)


@rule(
    "lasting.expire",
    ["agot1-faq/2.6", "agot1-rules/lasting-effects", "agot1-faq/3.28"],
    "lasting effects end with their duration; an expiring control change reverts control to the previous controller",
)
def expire(state: State, trace: Trace, period: str) -> None:
    """Per fact: "until the end of the phase" effects expire at the phase's end (FAQ 2.6); another stated period
    ends as the rulebook's Lasting Effects says ("some effects last for a set period of time"); a control change
    reverts to the previous controller (FAQ 3.28: "Any time a control change effect reaches its duration or
    expires, control of the card reverts back to its previous controller")."""
    from judgekb.engine.agot1.control import recheck_attachments

    periods = {"phase": ("phase", "challenge"), "round": ("round", "phase", "challenge")}.get(period, (period,))
    ending = [e for e in state.effects if e.until in periods]  # no challenge outlasts its phase, no phase its round
    state.effects = [e for e in state.effects if e not in ending]
    for effect in ending:
        card = state.cards[effect.target]
        duration = ["agot1-faq/2.6"] if effect.until == "phase" else ["agot1-rules/lasting-effects"]
        words = {"phase": "the end of the phase", "round": "the end of the round", "challenge": "the end of the challenge"}
        until = words.get(effect.until, effect.until)
        if effect.kind == "control" and effect.previous and card.zone == "in_play":
            card.controller = effect.previous
            for duplicate in state.attachments(card):
                if duplicate.duplicate:
                    duplicate.controller = effect.previous
            trace.add(
                "lasting.expire",
                f"the control change on {card.key} lasts until {until} and expires: control reverts to {effect.previous}",
                cite=["agot1-faq/3.28"] + (["agot1-faq/2.6"] if effect.until == "phase" else []),
            )
            recheck_attachments(state, trace)
        elif effect.kind == "str":
            trace.add("lasting.expire", f"{effect.target}'s {effect.value:+d} STR until {until} expires", cite=duration)
        elif effect.kind in ("gain keyword", "lose keyword", "gain icon", "lose icon"):
            verb, what = effect.kind.split()
            change = f"{'gained' if verb == 'gain' else 'lost'} {what} {effect.value}"
            trace.add("lasting.expire", f"{effect.target}'s {change} (until {until}) expires", cite=duration)
        elif effect.kind == "cannot":
            trace.add("lasting.expire", f"{effect.target}'s 'cannot {effect.value}' (until {until}) expires", cite=duration)


@rule("effect.kneel-stand", ["agot1-rules/kneeling-and-standing"], "kneel or stand a card")
def kneel_stand(state: State, trace: Trace, key: str, kneel: bool) -> None:
    card = state.cards[key]
    if card.zone != "in_play":
        raise IllegalStep("effect.kneel-stand", f"{key} is not in play")
    card.kneeling = kneel
    trace.add("effect.kneel-stand", f"{key} {'kneels' if kneel else 'stands'}")


@rule("cannot.absolute.gain", ["agot1-faq/4.3"], "a 'cannot' effect is an absolute that no other effect overrides")
def add_cannot(state: State, trace: Trace, key: str, what: str, until: str, source: str = "") -> None:
    """A lasting 'cannot' on a card: stored as ``cannot_words`` gives it (the form a card's own list and every check
    use), so "Be Killed" is "be killed"; it expires with its duration like any lasting effect."""
    words = cannot_words(what)
    state.effects.append(Lasting(key, "cannot", words, until, source))
    trace.add("cannot.absolute.gain", f"{key} cannot {words} {UNTIL_WORDS[until]}: an absolute that other effects may not override")


@rule(
    "effect.canceled",
    ["agot1-faq/3.4", "agot1-faq/3.15"],
    "a canceled effect does nothing, but its costs stay paid and it still counts as played for its limits",
)
def canceled(state: State, trace: Trace, source: str, by: str) -> None:
    trace.add(
        "effect.canceled",
        f"{source} is canceled by {by}: none of its effects resolve, but its costs stay paid "
        "and it still counts as played (and against any limit)",
    )


@rule(
    "effect.gold",
    ["agot1-rules/gold-dragon-tokens", "agot1-rules/other-uses-for-gold"],
    "an effect adds gold to or takes gold from a gold pool (never below 0)",
)
def change_gold(state: State, trace: Trace, player: str, amount: int) -> None:
    pool = state.players[player]
    pool.gold = max(0, pool.gold + amount)
    trace.add("effect.gold", f"{player}'s gold pool changes by {amount:+d} → {pool.gold}")
