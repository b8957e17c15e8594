"""Explicit effects (second edition): what a scenario's `effect` (or an ability's effect) does, in
stages — preamble (windows, costs, conditions), targets, placement, modifiers, moves, tokens,
lasting rules — each citing the clauses that decide it."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from judgekb.engine.agot2 import RULES, cards, challenges, constants, initiation, leaving, phases, rule, titles, victory, windows
from judgekb.engine.agot2.constants import check_immune
from judgekb.engine.agot2.initiation import KNEEL_STAND_ONLY, LEAVE, PART_IDLE
from judgekb.engine.agot2.leaving import check_terminal, leave_play
from judgekb.engine.agot2.victory import check_victory, total_power
from judgekb.engine.agot2.windows import Context
from judgekb.engine.core.registry import CannotInitiate, IllegalStep
from judgekb.engine.core.state import Card, Delayed, Lasting, State
from judgekb.engine.core.steps import UNTIL, names, pairs
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import CANNOT2_EFFECT, ICON_ALIASES, cannot_words


def _until(value: Any) -> tuple[str, str | None]:
    text = str(value).strip() if value is not None else "end of phase"
    if text.lower().startswith("while in play:"):
        return "permanent", text.split(":", 1)[1].strip()
    return UNTIL[text.lower()], None


@rule(
    "lasting",
    [
        "agot2-rr/lasting-effects",
        "agot2-rr/strength-strength-modifiers",
        "agot2-rr/keywords",
        "agot2-rr/traits",
        "agot2-faq41/3.4",
        "agot2-faq41/2.9",
        "agot2-rr/immune",
        "agot2-rr/modifiers",
    ],
    "a lasting effect modifies a card for its duration; STR is never below 0; a card has an icon or keyword once or not at all",
)
def add_lasting(state: State, trace: Trace, effect_: Lasting) -> None:
    card = state.cards[effect_.target]
    if card.zone != "in_play":
        raise IllegalStep("lasting", f"{effect_.target} is not in play", cite=["agot2-rr/lasting-effects"])
    before, raw_before = state.strength(card), leaving.raw_strength(state, card)
    state.effects.append(effect_)
    until = {
        "phase": "until the end of the phase",
        "round": "until the end of the round",
        "challenge": "until the end of the challenge",
        "permanent": "while the effect lasts",
    }[effect_.until]
    if effect_.while_in_play:
        until = f"while {effect_.while_in_play} stays in play"
    if effect_.kind == "str":
        raw = leaving.raw_strength(state, card)
        text = (
            f"{effect_.target} gets {effect_.value:+d} STR {until}"
            + (f" ({effect_.source})" if effect_.source else "")
            + f": STR {before} → {state.strength(card)}"
        )
        if raw < 0:
            text += f" (printed STR and modifiers add up to {raw}; STR cannot be below 0)"
        elif raw_before < 0:
            text += f" (recalculated from the printed STR with every modifier: {raw}, not {before} {effect_.value:+d})"
        # RR Modifiers decides a value below zero, and that a new modifier recalculates from the base value
        below = ["agot2-rr/modifiers"] if raw < 0 or raw_before < 0 else []
        trace.add("lasting", text, cite=["agot2-rr/strength-strength-modifiers", *below], tag="strength", subject=card.key)
    elif effect_.kind == "terminal":
        trace.add(
            "terminal.add",
            f"{effect_.target} is {'killed' if effect_.value == 'kill' else 'discarded'} if its STR is 0, {until} "
            f"({effect_.source or 'the effect'}): a terminal condition",
            tag="terminal condition",
            subject=card.key,
        )
    elif effect_.kind in ("gain icon", "lose icon"):
        same = [e for e in state.effects if e.target == card.key and e.value == effect_.value and e.kind in ("gain icon", "lose icon")]
        losses = sum(1 for e in same if e.kind == "lose icon")
        if effect_.kind == "gain icon" and losses:
            has = effect_.value in state.icons(card)
            trace.add(
                "lasting.icon-not-had",
                f"{effect_.target} gains a {effect_.value} icon, which offsets a lasting loss of that icon: "
                + ("it now functions as having it" if has else "it still does not function as having it"),
                tag="icon",
                subject=card.key,
            )
        challenge = state.challenge
        if (
            effect_.kind == "lose icon"
            and challenge
            and not challenge.ended
            and challenge.type == effect_.value
            and card.key in challenge.attackers + challenge.defenders
        ):
            trace.add(
                "lasting.participating",
                f"{effect_.target} loses the {effect_.value} icon but stays a participating character of this challenge",
                tag="participating",
                subject=card.key,
            )
        trace.add(
            "lasting",
            f"{effect_.target} {effect_.kind.split()[0]}s a {effect_.value} icon {until} (a character has an icon or not, never two)",
            cite=["agot2-faq41/3.4"],
            tag="icon",
            subject=card.key,
        )
    elif effect_.kind in ("gain trait", "lose trait"):
        every = effect_.value == "all traits"
        trace.add(
            "lasting",
            f"{effect_.target} "
            f"{'loses all traits' if every else effect_.kind.split()[0] + 's the ' + str(effect_.value) + ' trait'} {until}"
            + (": every instance of each, whatever grants them" if every else "")
            + f" (traits now: {', '.join(state.traits(card)) or 'none'})",
            cite=["agot2-faq41/2.9"] if every else ["agot2-rr/traits"],
            tag="trait",
            subject=card.key,
        )
    elif effect_.value == "all keywords":
        trace.add(
            "lasting",
            f"{effect_.target} loses all keywords {until}: every instance of each",
            cite=["agot2-faq41/2.9"],
            tag="keyword",
            subject=card.key,
        )
    elif effect_.kind == "gain keyword" and str(effect_.value).startswith("immune to "):
        trace.add(
            "lasting",
            f"{effect_.target} gains immunity to {str(effect_.value).removeprefix('immune to ')} {until}: it cannot be targeted "
            "or affected by those effects; lasting effects already applied to it are not removed",
            cite=["agot2-rr/immune"],
            tag="immune",
            subject=card.key,
        )
    else:
        trace.add(
            "lasting",
            f"{effect_.target} {effect_.kind.split()[0]}s {effect_.value} {until}",
            cite=["agot2-rr/keywords"],
            tag="keyword",
            subject=card.key,
        )


RULES.add(
    "terminal.add",
    ["agot2-faq41/definitions/terminal-condition"],
    "a delayed effect that drives a card from play whenever its condition is met",
)
RULES.add(
    "effect.tokens",
    ["agot2-rr/gold", "agot2-rr/moving-power", "agot2-faq41/1.4", "agot2-rr/power"],
    "gold and power change hands; power counts for the player controlling the card it is on",
)
RULES.add("effect.kneel", ["agot2-rr/kneel", "agot2-rr/stand", "agot2-rr/target"], "kneel or stand a card (a faction card too)")
RULES.add("effect.cannot", ["agot2-faq41/2.1", "agot2-rr/cannot", "agot2-faq41/qa/no-surprises"], "'cannot' effects")
RULES.add("effect.delayed", ["agot2-rr/delayed-effects", "agot2-faq41/timing/end-of-phase"], "a delayed effect waits for its moment")
RULES.add("effect.canceled", ["agot2-rr/cancel"], "a canceled effect does not resolve")
RULES.add("cost.later", ["agot2-faq41/1.7"], "a cost paid after the ability initiated that cannot be paid makes that aspect fail")
RULES.add("effect.condition", [], "a card's own condition (its printed text), checked when it resolves")
RULES.add(
    "plot.reveal-later",
    ["agot2-faq41/qa/at-prince-doran-s-behest"],
    "a plot revealed by an ability does not cause a new initiative comparison",
)
RULES.add("effect.nothing", [], "an effect naming no part the engine applies (a note only) changes nothing on the board")
RULES.add("effect.blank", ["agot2-rr/blank"], "a blank text box is treated as having none of its printed content")
RULES.add(
    "lasting.icon-not-had", ["agot2-faq41/qa/nymeria-sand", "agot2-faq41/3.4"], "losing an icon a character does not have still applies"
)
RULES.add(
    "str.not-reduced",
    ["agot2-faq41/qa/daenerys-targaryen-tfm"],
    "a card whose STR cannot be reduced by card effects ignores reducing modifiers",
)
RULES.add(
    "lasting.participating", ["agot2-rr/participating"], "a participating character stays participating when it loses the challenge's icon"
)
RULES.add(
    "lasting.set", ["agot2-faq41/qa/dragon-sight"], "a lasting effect on a set of cards affects only the cards eligible when it is created"
)
RULES.add("attacking-alone", ["agot2-faq41/qa/attacking-alone"], "'attacking alone' is checked when the ability is used")
RULES.add("power.onto-plot", ["agot2-faq41/qa/a-cask-of-ale"], "a revealed plot is in play under its player's control; an agenda is not")
RULES.add(
    "claim.modifier",
    ["agot2-rr/claim", "agot2-faq41/2.5"],
    "a claim modifier applies to the card in the revealed-plot position",
)
RULES.add("resolves-unsuccessfully", ["agot2-faq41/3.3"], "with no legal target left when it resolves, an ability resolves unsuccessfully")
RULES.add("set-str", ["agot2-rr/modifiers"], "a set value overrides non-set modifiers; the most recent set value prevails")
RULES.add("out-of-play.move", ["agot2-rr/abilities"], "an ability whose text names an out-of-play area interacts with the cards there")
RULES.add(
    "priority",
    ["agot2-faq41/1.6", "agot2-faq41/qa/varys-s-riddle-summer-harvest"],
    "lasting effects that cannot apply together: the first player chooses their order once, and the choice is kept",
)
RULES.add("referential", ["agot2-faq41/2.3"], "referential targets are chosen as reference points and are not affected")
RULES.add(
    "effect.deck",
    ["agot2-rr/deck", "agot2-rr/discard-pile", "agot2-rr/dead-pile", "agot2-rr/kill-killed", "agot2-rr/in-play-and-out-of-play"],
    "discarding from the top of a deck, or a card from hand",
)


def effect(state: State, trace: Trace, ctx: Context, args: dict[str, Any]) -> bool:
    """Resolve one explicit effect, stage by stage; True if it changed the game state (for 'then').

    Raises CannotInitiate (before any cost is paid) when it could not change the game state, unless it is part of an
    ability already initiated (checked before that ability's costs, or a post-then, delayed or replacing part)."""
    r = Resolving(args, str(args.get("source") or ""), args.get("source_type"))
    if not any(args.get(flag) for flag in ("_initiated", "_post_then", "_delayed", "_replacing")):
        initiation.check(state, args, r.source or "the effect", bool(args.get("cost")))
    logged = len(trace.entries)
    stop = _preamble(state, trace, ctx, r)
    if stop is not None:
        return stop
    if not _choose_targets(state, trace, ctx, r):
        return False
    r.until, r.holder = _until(r.args.get("until"))
    _too_late(state, trace, r)
    if r.args.get("victory_choice"):  # the first player's choice, before any stage can need it (decks run out, power)
        state.facts["victory_choice"] = r.args["victory_choice"]
        state.facts.setdefault("victory_choice_named", []).append(r.args["victory_choice"])
    for stage in (_placement, _modifiers, _moves, _tokens, _lasting_rules):
        stage(state, trace, ctx, r)
    cards.check_attachments(state, trace)
    check_terminal(state, trace, ctx)
    check_victory(state, trace)
    if len(trace.entries) == logged and not any(args.get(flag) for flag in ("_initiated", "_post_then", "_delayed", "_replacing")):
        note = str(args.get("note") or "")
        trace.add(  # (every step is traced: one naming only what the engine does not apply is said so)
            "effect.nothing",
            f"{r.source or 'the effect'} names no part the engine applies"
            + (f" (its note: {note!r})" if note else "")
            + ": nothing changes on the board",
            "not-applied",
            tag="not modeled",
            subject=r.source,
        )
    if r.incomplete:  # (RR The word "Then": "If the pre-then aspect ... does not successfully resolve in full")
        return False
    return len(trace.entries) > logged and not all(e.outcome != "applied" for e in trace.entries[logged:])


LASTING_PARTS = ("str", "set_str", "gain", "lose", "gain_icon", "lose_icon", "terminal", "blank", "base_gold", "cannot", "take_control")


@rule(
    "lasting.late",
    ["agot2-rr/lasting-effects", "agot2-faq41/timing/end-of-phase"],
    "an 'until the end of X' effect that would initiate after the end of X expires at once and fails to initiate",
)
def _too_late(state: State, trace: Trace, r: Resolving) -> None:
    """The period the effect lasts until has already ended (a reaction to its end, or a delayed effect resolving at its
    end): its lasting parts expire at once without affecting the game state; the rest of the effect resolves.

    RR Lasting Effects states it for "an interrupt or reaction ability to something that occurred at the end of X";
    a delayed "at the end of X" effect resolves after X ends too (FAQ v4.1 End of Phase Timing Sequence: "anything
    that occurs as a result of the next two steps occurs outside of the phase"), and is cited so. A plain effect step
    after the phase ended is refused before it gets here (``ruleset.check_between_phases``)."""
    if r.holder is not None or not state.ended(r.until):
        return
    late = [k for k in LASTING_PARTS if k in r.args and r.args[k] not in (None, False)]
    if not late:
        return
    r.args = {k: v for k, v in r.args.items() if k not in late}
    who = ", ".join(r.targets) or "its target"
    trace.add(
        "lasting.late",
        f"{r.source or 'the effect'}'s 'until the end of the {r.until}' effect on {who} ({', '.join(late)}"
        + ("; no 'until' is given, so the default, the end of the phase" if r.args.get("until") is None else "")
        + ") would initiate "
        f"after the {r.until} ended: it expires immediately without affecting the game state, and fails to initiate",
        "not-applied",
        cite=["agot2-faq41/timing/end-of-phase"] if r.args.get("_delayed") else ["agot2-rr/lasting-effects"],
        tag="expires at once",
        subject=r.source or who,
    )


@dataclass
class Resolving:
    """An effect while it resolves: its arguments (narrowed as it goes) and what earlier stages decided."""

    args: dict[str, Any]
    source: str
    source_type: str | None
    chosen: bool = False
    targets: list[str] = field(default_factory=list)
    until: str = "phase"
    holder: str | None = None
    incomplete: bool = False  # a card it would move out of play stayed (saved, or 'cannot'): not resolved in full


def _preamble(state: State, trace: Trace, ctx: Context, r: Resolving) -> bool | None:
    """Windows and saves the effect brings, errata, cancel, costs, a card's own conditions, replacement.

    A value (not None) ends the effect with it."""
    args = r.args
    source = r.source
    source_type = r.source_type
    for key, pool in (("interrupts", ctx.interrupts), ("reactions", ctx.reactions)):  # windows an effect brings with it
        pool.extend(s for s in copy.deepcopy(args.get(key) or []) if s not in pool)
    for spec in args.get("saves") or []:
        save = spec if isinstance(spec, dict) else {"card": spec, "by": "duplicate"}
        if save not in ctx.saves:
            ctx.saves.append(copy.deepcopy(save))
    constants.cite_errata(state, trace, source)
    if source_type == "event" and source:
        windows.interrupts(state, trace, ctx, f"play: {source}")
    if args.get("canceled_by"):
        cards.play_canceler(state, trace, str(args["canceled_by"]), source or "the effect")
        trace.add(
            "effect.canceled",
            f"{source or 'the effect'} is canceled by {args['canceled_by']}: it does not resolve",
            tag="canceled",
            subject=source,
        )
        return False
    if args.get("cost"):
        payer = args.get("controller") or args.get("player") or state.first_player
        try:
            cards.pay_costs(state, trace, ctx, payer, args["cost"])
        except IllegalStep as exc:
            if not args.get("_post_then"):
                raise
            trace.add(
                "cost.later",
                f"the cost of the post-then part of {source or 'the ability'} cannot be paid ({exc.reason}): that aspect fails to resolve",
                "not-applied",
                tag="cost",
                subject=payer,
            )
            return False
    if "if_won_by" in args:
        challenge = state.challenge
        if challenge is not None and not challenge.resolved and not challenge.ended:
            # a condition on a result still to come is a delayed effect: it resolves once the winner is known
            state.delayed.append(Delayed("result", {**args, "source": source, "source_type": source_type}, source))
            trace.add(
                "effect.delayed",
                f"{source or 'the effect'} waits for the challenge's result ('if you win the challenge by {args['if_won_by']} or more'): "
                "a delayed effect that resolves as soon as the winner is determined, before reactions",
                cite=["agot2-rr/delayed-effects"],
                tag="delayed effect",
                subject=source,
            )
            return True
        last = state.results[-1] if state.results else {}
        you = args.get("controller") or last.get("attacker")
        won = last.get("winner") == you
        margin = abs(last.get("attack", 0) - last.get("defence", 0)) if won else -1
        met = margin >= int(args["if_won_by"])
        title = state.cards[source].name if source in state.cards else source
        errata = constants.ERRATA.get(title)
        trace.add(
            "errata" if errata else "effect.condition",
            (
                f"{source or 'the effect'}: the challenge was won by {margin} STR, "
                if won
                else f"{source or 'the effect'}: {you} did not win the challenge, "
            )
            + (f"at least {args['if_won_by']}" if met else f"less than {args['if_won_by']}, so the other branch applies")
            + ("" if errata else " — a condition printed on the card: no document in the corpus states this rule"),
            cite=[errata] if errata else None,
            tag="condition",
            subject=source,
        )
        if not met:
            other: dict[str, Any] = args.get("otherwise") or {}
            branch = {"source": source, "source_type": source_type, **other, "_initiated": True}  # (the ability's, initiated)
            return bool(other) and effect(state, trace, ctx, branch)
    if args.get("if_attacking_alone"):
        key = args["if_attacking_alone"]
        challenge = state.challenge
        attackers = [k for k in (challenge.attackers if challenge and not challenge.ended else []) if state.cards[k].zone == "in_play"]
        alone = attackers == [key]
        trace.add(
            "attacking-alone",
            f"{key} is "
            + ("attacking alone" if alone else "not attacking alone")
            + " now, when the ability is used: that is when 'attacking alone' is checked",
            "applied" if alone else "not-applied",
            tag="attacking alone",
            subject=key,
        )
        if not alone:
            raise IllegalStep("attacking-alone", f"{key} is not attacking alone", cite=["agot2-faq41/qa/attacking-alone"])
    if args.get("instead") and not args.get("_replacing"):
        ctx.replacements.append({**args, "_event": ctx.event})
        trace.add(
            "replacement",
            f"{source or 'an effect'} initiates a replacement effect against {ctx.event or 'the event'}",
            cite=["agot2-rr/replacement-effects"],
            tag="replacement",
            subject=source,
        )
        return True
    r.args = args
    return None


def _choose_targets(state: State, trace: Trace, ctx: Context, r: Resolving) -> bool:
    """Targets: gone ones (FAQ 3.3), immune ones ignored or refused; False ends the effect."""
    args = r.args
    source = r.source
    source_type = r.source_type
    chosen = bool(args.get("choose"))
    if chosen and source_type == "event":  # FAQ 3.3: a chosen target gone by the time it resolves
        gone = [k for k in names(args.get("target")) if state.cards[k].zone != "in_play"]
        if gone and len(gone) == len(names(args.get("target"))):
            trace.add(
                "resolves-unsuccessfully",
                f"{', '.join(gone)} is no longer a legal target when {source or 'the event'} resolves: it resolves unsuccessfully",
                "not-applied",
                tag="unsuccessful",
                subject=source,
            )
            return False
    targets = []
    for key in names(args.get("target")):
        if check_immune(
            state, trace, state.cards[key], source_type, delayed=bool(args.get("_delayed")), chosen=chosen and not args.get("all")
        ):
            targets.append(key)
    if args.get("target") and not targets:
        return False
    if chosen and not args.get("all") and not _could_affect(state, trace, r, targets):
        return False
    if args.get("target"):  # a card that ignored the effect is not moved by it either
        args = {k: ([n for n in names(v) if n in targets] if k in LEAVE + ("kneel", "stand") else v) for k, v in args.items()}
    r.args, r.chosen, r.targets = args, chosen, targets
    return True


# parts of an effect that act on its target other than kneeling or standing it
AFFECTS_TARGET = LASTING_PARTS + LEAVE + ("contribute", "participate", "remove_from_challenge", "power", "move_power")


@rule(
    "target.eligible",
    ["agot2-rr/target"],
    "a card is not an eligible target for an ability if the resolution of its effect could not affect the target at all",
)
def _could_affect(state: State, trace: Trace, r: Resolving, targets: list[str]) -> bool:
    """A chosen target whose only change from the effect is a kneel (stand) it already is in: not an eligible target.

    RR Target: "a kneeling character cannot be chosen as the target for an effect that reads, 'choose and kneel a
    character.'"  Raises IllegalStep when the ability is initiated with one; a post-then or delayed part chooses its
    targets later, so there only that aspect fails to resolve (False)."""
    args = r.args
    if any(k in args and args[k] not in (None, False) for k in AFFECTS_TARGET):
        return True
    kneel, stand = names(args.get("kneel")), names(args.get("stand"))
    idle = [
        k
        for k in targets
        if (k in kneel or k in stand) and not ((k in kneel and not state.cards[k].kneeling) or (k in stand and state.cards[k].kneeling))
    ]
    if not idle:
        return True
    why = "; ".join(f"{k} is already {'kneeling' if state.cards[k].kneeling else 'standing'}" for k in idle)
    verb = "kneel" if idle[0] in kneel else "stand"
    text = (
        f"{why}: the effect could not affect it at all, so it is not an eligible target for "
        f"{r.source or 'the ability'} ('choose and {verb}')"
    )
    if args.get("_post_then") or args.get("_delayed"):
        trace.add(
            "target.eligible", f"{text}: that aspect of the effect fails to resolve", "not-applied", tag="unsuccessful", subject=idle[0]
        )
        return False
    raise CannotInitiate("target.eligible", text, why, cite=["agot2-rr/target"])


def _placement(state: State, trace: Trace, ctx: Context, r: Resolving) -> None:
    """Plots revealed, referential targets, cards put into play, blank, participation and STR contribution."""
    args = r.args
    source = r.source
    targets = r.targets
    until = r.until
    holder = r.holder
    if args.get("reveal_plot"):
        for player, plot in pairs(args["reveal_plot"]):
            phases.reveal(state, trace, {player: plot})
        trace.add(
            "plot.reveal-later",
            "a plot revealed by an ability is simply another revealed plot: initiative was already compared, so it is not compared "
            "again and the first player does not change",
            tag="no new initiative",
        )
        phases.recycle_used(state, trace, [player for player, _ in pairs(args["reveal_plot"])])
    if args.get("referential") is not None:
        kept = names(args["referential"])
        rest = [
            c.key for c in state.cards.values() if c.zone == "in_play" and c.type == "character" and not c.attached_to and c.key not in kept
        ]
        trace.add(
            "referential",
            f"{', '.join(kept) or 'no character'} chosen as reference points: the effect resolves on the characters not chosen"
            + (f" ({', '.join(rest)})" if rest else ""),
            tag="referential",
            subject=source,
        )
        args = {**args, str(args.get("rest") or "kill"): rest, "all": True}
    for key in names(args.get("put_into_play")):
        card = state.cards[key]
        onto = args.get("onto") if card.type == "attachment" else None  # (an attachment enters play attached, or not at all)
        cards.put_into_play(state, trace, ctx, args.get("player") or args.get("controller") or card.owner, key, onto, args.get("from"))
        if args.get("kneeling"):
            card.kneeling = True
        if args.get("participating"):
            challenges.join(state, trace, card, str(args["participating"]))
    if args.get("blank"):
        until, holder = _until(args.get("until"))
        for key in targets:
            state.effects.append(Lasting(key, "blank", True, until, source, while_in_play=holder))
            trace.add(
                "effect.blank",
                f"{key}'s printed text box is blank {'until the end of the ' + until if until != 'permanent' else ''}: "
                "its printed traits, keywords, card text and abilities, and non-challenge icons (gold, initiative and reserve "
                "modifiers) are treated as absent; traits, keywords and icons gained from another source stay",
                tag="blank",
                subject=key,
            )
    for key in names(args.get("remove_from_challenge")):
        idle = initiation.not_participating(state, key)
        if idle:  # (an ability that could do nothing else was not initiated: initiation.check)
            r.incomplete = True
            trace.add(
                PART_IDLE,
                f"{idle}: {source or 'the effect'} does not remove it from anything, and it stays as it is",
                "not-applied",
                cite=["agot2-rr/participating"],
                tag="removed",
                subject=key,
            )
            continue
        challenges.remove_from_challenge(
            state, trace, state.cards[key], f"{source or 'an ability'} removes {key} from the challenge", explicit=True
        )
    if args.get("contribute") or args.get("participate"):
        for key in targets:
            challenges.contribute(
                state, trace, state.cards[key], str(args.get("contribute") or args.get("participate")), bool(args.get("participate"))
            )
    r.args = args


def _modifiers(state: State, trace: Trace, ctx: Context, r: Resolving) -> None:
    """Terminal conditions, base values, STR, keywords and icons."""
    args = r.args
    source = r.source
    source_type = r.source_type
    chosen = r.chosen
    targets = r.targets
    until = r.until
    holder = r.holder
    until, holder = _until(args.get("until"))
    if "terminal" in args:
        how = "kill" if str(args["terminal"]).lower().startswith("kill") else "discard"
        for key in targets:
            if chosen:
                constants.cannot(state, trace, state.cards[key], "killed" if how == "kill" else "discarded", True)
            add_lasting(
                state, trace, Lasting(key, "terminal", how, until, source, while_in_play=holder, source_type=str(source_type or ""))
            )
    if "base_gold" in args:
        for key in names(args.get("target")):
            plot = state.cards[key]
            if plot.type != "plot" or plot.zone != "revealed":
                raise IllegalStep("priority", f"{key} is not a revealed plot card", cite=["agot2-faq41/1.6"])
            others = [e for e in state.effects if e.target == key and e.kind == "base gold"]
            state.effects.append(Lasting(key, "base gold", int(args["base_gold"]), until, source, seq=state.next_seq()))
            if args.get("priority"):
                state.facts.setdefault("priority", {})[key] = [str(s) for s in args["priority"]]
            chosen_order = state.facts.get("priority", {}).get(key)
            if others and not chosen_order:
                trace.add(
                    "priority",
                    f"{len(others) + 1} effects define the base gold value of {key} and cannot apply together: the first player, "
                    f"{state.first_player}, chooses the order they apply in (state priority)",
                    "choice-needed",
                    tag="choice",
                    subject=key,
                )
            else:
                trace.add(
                    "priority",
                    f"{key}'s base gold value is defined as {args['base_gold']} ({source or 'an effect'})"
                    + (
                        f"; the first player's order ({', '.join(chosen_order)}) decides which applies, and it is kept"
                        if others and chosen_order
                        else ""
                    ),
                    cite=["agot2-faq41/1.6", "agot2-faq41/qa/varys-s-riddle-summer-harvest"] if others else ["agot2-faq41/1.6"],
                    tag="gold value",
                    subject=key,
                )
    if "set_str" in args:
        for key in targets:
            others = [e for e in state.effects if e.target == key and e.kind == "set str"]
            state.effects.append(Lasting(key, "set str", int(args["set_str"]), until, source, while_in_play=holder, seq=state.next_seq()))
            trace.add(
                "set-str",
                f"{key}'s STR is set to {args['set_str']} ({source or 'an effect'}): a set value overrides every non-set modifier"
                + ("; of the set values in conflict the most recently applied one takes precedence" if others else "")
                + f" → STR {state.strength(state.cards[key])}",
                tag="strength",
                subject=key,
            )
            windows.queue_reactions(ctx, f"strength: {key}")
            check_terminal(state, trace, ctx)
    if "str" in args:
        for key in targets:
            card = state.cards[key]
            if int(args["str"]) < 0 and "str cannot be reduced by card effects" in constants.constants(state, card):
                trace.add(
                    "str.not-reduced",
                    f"{key}'s STR cannot be reduced by card effects: the {int(args['str']):+d} STR modifier is ignored",
                    "not-applied",
                    tag="strength",
                    subject=key,
                )
                continue
            add_lasting(state, trace, Lasting(key, "str", int(args["str"]), until, source, while_in_play=holder))
            windows.queue_reactions(ctx, f"strength: {key}")
            if args.get("all") and state.challenge and not state.challenge.ended:
                trace.add(
                    "lasting.set",
                    f"{source or 'the effect'} affects the cards eligible when it resolved ({', '.join(targets)}); "
                    "characters declared later are not affected",
                    tag="eligible",
                    subject=key,
                )
            check_terminal(state, trace, ctx)
    for kind in ("gain", "lose"):
        if kind in args:
            value = str(args[kind]).strip()
            is_trait = value.lower().startswith("trait:") or value.lower() == "all traits"
            what = "all traits" if value.lower() == "all traits" else (value.split(":", 1)[1].strip() if is_trait else value.lower())
            for key in targets:
                add_lasting(
                    state, trace, Lasting(key, f"{kind} {'trait' if is_trait else 'keyword'}", what, until, source, while_in_play=holder)
                )
        if f"{kind}_icon" in args:
            for key in targets:
                icon = ICON_ALIASES[str(args[f"{kind}_icon"]).lower()]
                if kind == "lose" and icon not in state.icons(state.cards[key]):
                    trace.add(
                        "lasting.icon-not-had",
                        f"{key} has no {icon} icon, yet the effect still applies: it now needs to gain the icon once more "
                        "before it functions as having it",
                        tag="icon",
                        subject=key,
                    )
                add_lasting(
                    state,
                    trace,
                    Lasting(key, f"{kind} icon", ICON_ALIASES[str(args[f"{kind}_icon"]).lower()], until, source, while_in_play=holder),
                )
    r.args = args
    r.until, r.holder = until, holder


RULES.add(
    "sacrifice.own",
    ["agot2-rr/sacrifice"],
    "a player instructed to sacrifice a card must choose a card in play that he or she controls",
)


def _check_sacrificer(state: State, args: dict[str, Any]) -> None:
    """RR Sacrifice: "that player must choose a card in play that he or she controls": the effect's ``player`` (the
    player instructed to sacrifice; a blind review's Lars sacrificed Sara's card) may name only cards he or she controls.
    With no ``player`` given, each card's controller sacrifices it."""
    player = args.get("player")
    for key in names(args.get("sacrifice")) if player else []:
        card = state.cards[key]
        if card.zone == "in_play" and card.controller != player:
            raise IllegalStep(
                "sacrifice.own",
                f"{player} is instructed to sacrifice, and {key} is controlled by {card.controller}: a player sacrifices only "
                "a card in play that he or she controls",
            )


@rule(
    "kneel.already",
    ["agot2-rr/kneel", "agot2-rr/stand", "agot2-rr/abilities"],
    "a kneeling card cannot kneel again until it is standing (a standing card does not stand): nothing occurs; an "
    "effect that could change nothing else cannot be initiated",
)
def _kneel_or_stand(state: State, trace: Trace, r: Resolving) -> list[str]:
    """The cards (a faction card as "PLAYER's faction card") the effect's kneel and stand parts change: one already
    kneeling (standing) is said and left alone, so there is no kneel (stand) for a reaction to answer; one that has left
    play since the chain of events began is said not affected.

    RR Kneel: "A kneeling card cannot kneel again until it is standing"; RR Stand: a card "in an upright state ... is
    considered standing".  Raises CannotInitiate when every card it would kneel or stand already is so and the effect
    has no other part: RR Abilities, "A card ability can only be initiated if its effect has the potential to change
    the game state" (``initiation.check`` says so before any cost; here what it could not see, such as the characters
    a referential effect leaves.  A part of an ability already initiated only fails to resolve)."""
    args = r.args
    wanted = [(k, True) for k in names(args.get("kneel"))] + [(k, False) for k in names(args.get("stand"))]
    for key, kneel in [(k, kneel) for k, kneel in wanted if initiation.left_play(state, k)]:
        wanted.remove((key, kneel))
        r.incomplete = True
        trace.add(
            PART_IDLE,
            f"{initiation.gone_said(key, state.cards[key])}: it does not {'kneel' if kneel else 'stand'}",
            "not-applied",
            cite=["agot2-rr/abilities"],
            tag="kneel" if kneel else "stand",
            subject=key,
        )
    kneeling = {k: state.cards[k].kneeling for k, _ in wanted}
    for field_name, kneel in (("kneel_faction_card", True), ("stand_faction_card", False)):
        if args.get(field_name):
            key = f"{args[field_name]}'s faction card"
            wanted.append((key, kneel))
            kneeling[key] = state.players[str(args[field_name])].faction_kneeling
    idle = [(k, kneel) for k, kneel in wanted if kneeling[k] == kneel]
    changed = [k for k, kneel in wanted if kneeling[k] != kneel]
    if not idle:
        return changed
    cite = sorted({"agot2-rr/kneel" if kneel else "agot2-rr/stand" for _, kneel in idle})
    other = [k for k in args if k not in KNEEL_STAND_ONLY and not k.startswith("_") and args[k] not in (None, False, "", [], {})]
    initiated = any(args.get(flag) for flag in ("_initiated", "_post_then", "_delayed", "_replacing"))
    if not changed and not other and not initiated:
        why = "; ".join(initiation.already(k, kneel) for k, kneel in idle)
        raise CannotInitiate(
            "kneel.already",
            f"{why}: {r.source or 'the effect'} could not change the game state, so it cannot be initiated",
            why,
            cite=[*cite, "agot2-rr/abilities"],
        )
    for key, kneel in idle:
        # a reaction step to it is refused (windows.check_reaction_window): nothing occurred that it could answer
        state.facts.setdefault("not_occurred", {})[f"{'kneel' if kneel else 'stand'}: {key}"] = initiation.already(key, kneel)
        trace.add(
            "kneel.already",
            f"{initiation.already(key, kneel)}: it does not {'kneel' if kneel else 'stand'}, so no "
            f"{'kneel' if kneel else 'stand'} occurs for a reaction to answer",
            "not-applied",
            cite=["agot2-rr/kneel" if kneel else "agot2-rr/stand"],
            tag="kneel" if kneel else "stand",
            subject=key.removesuffix("'s faction card") if key not in state.cards else key,
        )
    return changed


def _from_pile(state: State, trace: Trace, r: Resolving, args: dict[str, Any]) -> dict[str, Any]:
    """A return to hand from the out-of-play area the card's text names (`from: discard|dead`): each card there goes to
    its owner's hand; ``args`` without them.  Without `from`, a return to hand acts on cards in play only.

    RR Abilities: "Card abilities only interact with, and can only target, cards that are in play, unless the ability
    text specifically refers to an out of play area"; FAQ 2.4: such an aspect "cannot interact with a card that is not
    in that specific out-of-play area".  Raises IllegalStep for a card that is not there and was not there when the
    chain of events began (a mistake in the scenario); one that has left it since is said not affected."""
    origin = initiation.named_pile(args)
    if origin is None:
        return args
    pile = initiation.PILES[origin]
    for key in names(args.get("return_to_hand")):
        card = state.cards[key]
        if card.zone == origin:
            card.zone, card.order = "hand", state.next_seq()
            trace.add(
                "out-of-play.move",
                f"{key} returns from its owner's {pile} to hand: the ability's text names the {pile} (`from: {origin}`)",
                cite=["agot2-rr/abilities"],
                tag="return to hand",
                subject=key,
            )
        elif initiation.left_pile(state, key, origin):
            r.incomplete = True
            trace.add(
                PART_IDLE,
                f"{key} has left its owner's {pile} since this chain of events began (it is {initiation.where(card)}): the "
                f"ability interacts only with cards in the {pile}, so it is not affected",
                "not-applied",
                cite=["agot2-faq41/2.4"],
                tag="return to hand",
                subject=key,
            )
        else:
            raise IllegalStep(
                initiation.IN_PLAY_ONLY,
                f"{key} is not in its owner's {pile} (it is {initiation.where(card)}): the ability's text names the {pile} "
                f"(`from: {origin}`), and such an ability interacts only with cards in that area",
                cite=["agot2-faq41/2.4"],
            )
    return {**args, "return_to_hand": []}


def _in_play_for(state: State, trace: Trace, r: Resolving, how: str, key: str) -> bool:
    """Whether card ``key`` is in play for a kill, discard, sacrifice or return; one that has left play since this chain of
    events began (an earlier interrupt or reaction moved it) is said not affected, and the rest of the effect resolves.

    RR Effects: "players must resolve as much of each aspect of the effect as they are able".  Raises IllegalStep for
    a card that was not in play when the chain began either (a mistake in the scenario: RR Abilities, an ability
    interacts only with cards in play unless its text names an out-of-play area)."""
    card = state.cards[key]
    if initiation.in_play(card):
        return True
    if initiation.left_play(state, key):
        r.incomplete = True
        trace.add(
            PART_IDLE,
            f"{initiation.gone_said(key, card)}: {r.source or 'the effect'} does not affect it; the rest of the effect "
            "resolves as far as it is able",
            "not-applied",
            cite=["agot2-rr/abilities", "agot2-rr/effects"],
            tag=leaving.TAG[how],
            subject=key,
        )
        return False
    hint = (
        f"; if the card's text names its owner's {initiation.PILES[card.zone]}, give `from: {card.zone}`"
        if how == "return_to_hand" and card.zone in initiation.PILES
        else ""
    )
    raise IllegalStep(
        initiation.IN_PLAY_ONLY,
        f"{key} is not in play (it is {initiation.where(card)}): a card ability interacts only with cards in play unless "
        f"its text names an out-of-play area{hint}",
        cite=["agot2-rr/abilities"],
    )


def _moves(state: State, trace: Trace, ctx: Context, r: Resolving) -> None:
    """Control, kneeling, leaving play and moves between out-of-play areas."""
    args = r.args
    source = r.source
    chosen = r.chosen
    until = r.until
    holder = r.holder
    for key in names(args.get("take_control")):
        cards.take_control(state, trace, args.get("player") or args.get("controller") or state.first_player, key, until, holder, source)
    kneel_stand = _kneel_or_stand(state, trace, r)
    for key in names(args.get("kneel")) + names(args.get("stand")):
        card = state.cards[key]
        kneel = key in names(args.get("kneel"))
        if key not in kneel_stand:
            continue  # already kneeling (standing): said by _kneel_or_stand
        if not constants.cannot(state, trace, card, "knelt" if kneel else "stood", chosen):
            continue  # FAQ 2.1: a card that cannot be knelt (stood) ignores a non-targeting kneel (stand)
        card.kneeling = kneel
        trace.add(
            "effect.kneel",
            f"{key} {'kneels' if kneel else 'stands'}",
            cite=["agot2-rr/kneel" if kneel else "agot2-rr/stand"],
            tag="kneel" if kneel else "stand",
            subject=key,
        )
        windows.queue_reactions(ctx, f"{'kneel' if kneel else 'stand'}: {key}")
    for verb, field_name in (("kneel", "kneel_faction_card"), ("stand", "stand_faction_card")):
        if args.get(field_name) and f"{args[field_name]}'s faction card" in kneel_stand:  # RR In Play and Out of Play
            player = str(args[field_name])
            state.players[player].faction_kneeling = verb == "kneel"
            trace.add(
                "effect.kneel",
                f"{player}'s faction card {'kneels' if verb == 'kneel' else 'stands'}",
                cite=["agot2-rr/kneel" if verb == "kneel" else "agot2-rr/stand"],
                tag=verb,
                subject=player,
            )
            windows.queue_reactions(ctx, f"{verb}: {player}'s faction card")
    if args.get("additional_challenge"):
        player = args.get("controller") or args.get("player") or state.first_player
        kind = ICON_ALIASES[str(args["additional_challenge"]).lower()]
        extra = state.facts.setdefault("additional_challenges", {}).setdefault(player, {})
        extra[kind] = extra.get(kind, 0) + 1
        trace.add(
            "challenge.additional",
            f"{player} may initiate an additional {kind} challenge this phase ({source or 'a card ability'})",
            tag="additional challenge",
            subject=player,
        )
    if args.get("draw"):
        if args.get("each_player"):
            phases.draw_each(state, trace, int(args["draw"]), source)
        else:
            phases.draw(state, trace, args.get("player") or args.get("controller") or state.first_player, int(args["draw"]))
    args = _from_pile(state, trace, r, args)
    _check_sacrificer(state, args)
    for how in LEAVE:
        for key in names(args.get(how)):
            if not _in_play_for(state, trace, r, how, key):
                continue
            left = leave_play(
                state,
                trace,
                ctx,
                key,
                how,
                chosen=chosen and not args.get("all"),
                cannot_be_saved=bool(args.get("cannot_be_saved")),
                position=str(args.get("position") or "top"),
            )
            r.incomplete = r.incomplete or not left
    for key in names(args.get("place_in_dead_pile")):
        card = state.cards[key]
        if card.zone == "in_play":
            raise IllegalStep(
                "effect.deck",
                f"{key} is in play: placing it in the dead pile would be killing it",
                cite=["agot2-rr/kill-killed"],
            )
        card.zone, card.order = "dead", state.next_seq()
        trace.add("effect.deck", f"{key} is placed in its owner's dead pile", cite=["agot2-rr/dead-pile"], tag="dead pile", subject=key)
    for key in names(args.get("discard_from_hand")):
        card = state.cards[key]
        if card.zone != "hand":
            where = leaving.ZONE_SAID.get(card.zone, card.zone)
            raise IllegalStep(
                "effect.deck",
                f"{key} is not in hand (it is in the {where}): it cannot be discarded from hand",
                cite=["agot2-rr/in-play-and-out-of-play"],
            )
        card.zone = "discard"
        trace.add("effect.deck", f"{key} is discarded from {card.owner}'s hand", cite=["agot2-rr/discard-pile"], tag="discard", subject=key)
        windows.queue_reactions(ctx, f"discard: {key}")
    if args.get("discard_from_deck"):
        each = args.get("each_player")
        players = victory.remaining(state, in_order=True) if each else [args.get("player") or state.first_player]
        if each:
            phases.each_player_said(trace, f"discards the top {int(args['discard_from_deck'])} card(s) of his or her deck", source)
        before = victory.deck_counts(state)
        for player in players:
            top = state.deck(player)[: int(args["discard_from_deck"])]
            for card in top:
                card.zone = "discard"
                windows.queue_reactions(ctx, f"discard: {card.key}")
            trace.add(
                "effect.deck",
                f"the top {len(top)} card(s) of {player}'s deck are discarded: {', '.join(c.key for c in top) or 'none'}",
                cite=["agot2-rr/discard-pile"],
                tag="discard",
                subject=player,
            )
        victory.check_elimination(state, trace, before)  # once, after every player's discard: they were simultaneous
    r.args = args


def _tokens(state: State, trace: Trace, ctx: Context, r: Resolving) -> None:
    """Gold, power and claim."""
    args = r.args
    source = r.source
    targets = r.targets
    until = r.until
    for player, amount in pairs(args.get("gold")):
        pool = state.players[player]
        pool.gold = max(0, pool.gold + int(amount))
        trace.add(
            "effect.tokens",
            f"{player}'s gold pool changes by {int(amount):+d} → {pool.gold}",
            cite=["agot2-rr/gold"],
            tag="gold",
            subject=player,
        )
    on_card = {state.cards[k].controller: state.cards[k] for k in targets if state.cards[k].zone == "in_play"}
    for player, amount in pairs(args.get("power")):  # all at once, then one victory check
        if int(amount) >= 0:
            victory.gain_power(
                state,
                trace,
                player,
                int(amount),
                f"{source or 'an effect'}",
                card=on_card.get(player),
                rule_id="effect.tokens",
                cite=["agot2-rr/power"],
                check=False,
            )
        else:
            lost = min(-int(amount), state.players[player].power)
            state.players[player].power -= lost
            state.ledger(to_pool=lost)
            trace.add(
                "effect.tokens", f"{player}'s faction card loses {-int(amount)} power", cite=["agot2-rr/power"], tag="power", subject=player
            )
    if "claim" in args:
        player = args.get("player") or args.get("controller") or state.first_player
        state.effects.append(Lasting(player, "claim", int(args["claim"]), until, source, seq=state.next_seq()))
        trace.add(
            "claim.modifier",
            f"the claim value on {player}'s revealed plot card changes by {int(args['claim']):+d} "
            + ("until the end of the " + until if until != "permanent" else "while the effect lasts"),
            cite=["agot2-rr/claim"],  # "The claim value on a player's revealed plot card (which incorporates all relevant claim modifiers)"
            tag="claim modifier",
            subject=player,
        )
    if args.get("move_power"):
        _move_power(state, trace, args["move_power"])
    if args.get("reduce_cost"):
        _reduce_cost(state, trace, r)
    r.args = args


@rule(
    "cost.reduction",
    ["agot2-rr/initiating-abilities-marshaling-cards"],
    "a cost reduction waits for the next card of its type its player marshals (or plays), until its period ends",
)
def _reduce_cost(state: State, trace: Trace, r: Resolving) -> None:
    """A reduction of the next card's cost ("reduce the cost of the next character you marshal this phase by
    3"): kept as a lasting effect on the player; the marshal or play step that pays the cost applies it
    (``cards.reduced_cost``: Initiating Abilities / Marshaling Cards, step 3: "Apply any modifiers to the cost")."""
    spec = r.args["reduce_cost"]
    player = str(r.args.get("player") or r.args.get("controller") or state.first_player)
    way = spec.get("as") or ("play" if spec["next"] == "event" else "marshal")
    value = {"by": int(spec["by"]), "next": spec["next"], "as": way}
    state.effects.append(Lasting(player, "reduce cost", value, r.until, r.source, seq=state.next_seq()))
    until = f" until the end of the {r.until}" if r.until != "permanent" else ""
    trace.add(
        "cost.reduction",
        f"the cost of the next {spec['next']} {player} {'plays' if way == 'play' else 'marshals'}{until} is reduced by {value['by']}"
        + (f" ({r.source})" if r.source else ""),
        cite=["agot2-rr/initiating-abilities-marshaling-cards"],
        tag="cost reduction",
        subject=player,
    )


def _lasting_rules(state: State, trace: Trace, ctx: Context, r: Resolving) -> None:
    """'cannot' effects and delayed effects."""
    args = r.args
    source = r.source
    source_type = r.source_type
    targets = r.targets
    until = r.until
    holder = r.holder
    if "cannot" in args:
        what = str(args["cannot"]).lower()
        if "out of shadows" in what:
            for player in names(args.get("player")) or [p for p in state.players if p != args.get("controller")]:
                state.facts.setdefault("no_shadows", []).append(player)
                trace.add(
                    "effect.cannot",
                    f"{player} cannot bring cards out of shadows (this includes putting them into play from shadows)",
                    cite=["agot2-faq41/qa/no-surprises"],
                    tag="cannot",
                    subject=player,
                )
        else:
            words = cannot_words(what)
            faction_cards = names(args.get("player")) if words == "gain power" and not targets else []
            for key in targets + faction_cards:
                card = state.cards.get(key)
                if words == CANNOT2_EFFECT[1] and (card is None or card.type != "plot"):
                    trace.add(
                        "effect.cannot",
                        f"{key} cannot {what}: not modeled — the engine does not check it when a card is marshaled, played or "
                        "put into play, so the scenario must not marshal, play or put it into play",
                        "not-applied",
                        tag="not modeled",
                        subject=key,
                    )
                    continue
                state.effects.append(Lasting(key, "cannot", words, until, source, while_in_play=holder))
                whose = f"{key}'s faction card" if card is None else key
                trace.add("effect.cannot", f"{whose} cannot {what}", cite=["agot2-rr/cannot"], tag="cannot", subject=key)
    if args.get("at_end_of"):
        delayed = args["at_end_of"]
        then = delayed.get("effect", {})
        named = [n for n in leaving.cards_named(then) if n in state.cards and state.cards[n].zone == "in_play"]
        affects = tuple(dict.fromkeys(named))
        state.delayed.append(Delayed(str(delayed["period"]), {**then, "source": source, "source_type": source_type}, source, affects))
        trace.add(
            "effect.delayed",
            f"{source or 'an effect'} creates a delayed effect that resolves at the end of the {delayed['period']}",
            tag="delayed effect",
            subject=source,
        )
    r.args = args


def _move_power(state: State, trace: Trace, spec: dict[str, Any]) -> None:
    count = int(spec.get("count", 1))
    origin, target = spec["from"], spec["to"]

    def holder(name: str) -> Any:
        if titles.title_named(name) is None:
            if name in state.cards:
                return state.cards[name]
            if name in state.players:
                return state.players[name]
        return titles.title_holder(state, name)  # a melee title (A Cask of Ale Q&A)

    source, dest = holder(origin), holder(target)
    on_title = [h for h in (source, dest) if isinstance(h, titles.TitlePower)]
    subject = dest.bearer if isinstance(dest, titles.TitlePower) else target
    if isinstance(source, titles.TitlePower):
        origin = f"{source.bearer}'s {source.player.title}"
    if isinstance(dest, titles.TitlePower):
        target = f"{dest.bearer}'s {dest.player.title}"
    special = target in state.cards and dest.type in ("agenda", "plot")
    if special and dest.zone != "revealed":
        raise IllegalStep(
            "power.onto-plot",
            f"{target} is {'an agenda' if dest.type == 'agenda' else 'not a revealed plot'}: it is not in play, so "
            f"power cannot be moved to it",
            cite=["agot2-faq41/qa/a-cask-of-ale"],
        )
    moved = min(count, source.power)
    source.power -= moved
    dest.power += moved
    trace.add(
        "effect.tokens",
        f"{moved} power moves from {origin} to {target}"
        + (f" (only {moved} there)" if moved < count else "")
        + "; power counts for whoever controls the card it is on",
        cite=["agot2-rr/moving-power", "agot2-faq41/1.4"],
        tag="power",
        subject=subject,
    )
    if moved and isinstance(dest, Card):
        victory.moved_not_gained(state, trace, dest, dest.controller)
    elif moved and target in state.players:
        victory.moved_not_gained(state, trace, None, target)
    if special:
        trace.add(
            "power.onto-plot",
            f"{target} is a revealed plot card, in play under {dest.controller}'s control, so power can be placed on it",
            tag="power",
            subject=target,
        )
    for title in on_title:
        trace.add(
            "power.onto-title",
            f"the {title.player.title} is a melee title, in play under {title.bearer}'s control while {title.bearer} bears it, "
            f"so power can be {'placed on it' if title is dest else 'on it'}; it counts toward {title.bearer}'s total "
            f"({total_power(state, title.bearer)})",
            cite=[titles.CASK_OF_ALE],
            tag="power",
            subject=title.bearer,
        )
    check_victory(state, trace)
