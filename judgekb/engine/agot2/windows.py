"""Ability windows (second edition): interrupts to an imminent event, reactions to one that occurred, forced
abilities first, replacement ("instead") effects, and the Context a scenario step brings (saves, interrupts and
reactions offered, orders chosen)."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from judgekb.engine.agot2 import RULES
from judgekb.engine.core.registry import CannotInitiate, IllegalStep
from judgekb.engine.core.state import State
from judgekb.engine.core.steps import names
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import REACTION_VERBS2


@dataclass
class Context:
    """What a scenario step brings with it: saves offered, interrupts and reactions, orders chosen."""

    saves: list[dict[str, Any]] = field(default_factory=list)
    interrupts: list[dict[str, Any]] = field(default_factory=list)
    reactions: list[dict[str, Any]] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    pending_reactions: list[dict[str, Any]] = field(default_factory=list)
    replacements: list[dict[str, Any]] = field(default_factory=list)  # "instead" effects initiated against ``event``
    occurred: dict[str, int] = field(default_factory=dict)  # how many times each event has happened (the state's record)
    open_windows: dict[str, int] = field(default_factory=dict)  # events of the last step but reactions: times, still reactable
    event: str = ""  # the imminent event interrupts are answering
    apply_effect: Any = None  # ruleset.effect, to resolve an interrupt's or a save's own effect
    forced_order: list[str] = field(default_factory=list)  # the first player's order of forced abilities, by card
    trial: bool = False  # a copy of the board trying an order of forced abilities: no further trials inside it
    forced_ordered: bool = False  # forced_order named cards of two or more forced abilities to one condition


# ------------------------------------------------------------------ interrupts and reactions


def event_matches(spec: dict[str, Any], event: str) -> bool:
    wanted = str(spec.get("to", "")).strip().lower()
    verb, _, subject = event.partition(":")
    want_verb, _, want_subject = wanted.partition(":")
    return want_verb.strip() == verb.strip().lower() and (not want_subject.strip() or want_subject.strip() == subject.strip().lower())


def _offers_save(spec: dict[str, Any]) -> bool:
    effect = spec.get("effect") or {}
    return bool(effect.get("saves") or effect.get("save"))


def interrupts(state: State, trace: Trace, ctx: Context, event: str, saving: bool | None = None) -> None:
    """Interrupts to an imminent event resolve before it (RR Interrupts).  ``saving``: only those that offer a save
    (True: "would" interrupts, eligible first), or only the others (False)."""
    answering, ctx.event = ctx.event, event  # nested windows (a cost's own interrupts) restore it after
    # the triggering conditions an interrupt window opened for, recorded only on the trial copy of the board that
    # checks an interrupt step (ruleset.check_imminent sets the record): the game itself never reads it (review r78 L3)
    imminent = state.facts.get("imminent")
    if imminent is not None:
        imminent[event] = imminent.get(event, 0) + 1
    try:
        eligible = [
            s
            for s in ctx.interrupts
            if not s.get("_used") and event_matches(s, event) and (saving is None or _offers_save(s) == saving)
        ]
        listed = forced_first(trace, eligible, event, "interrupt")
        optional = [s for s in listed if not is_forced(s)]

        def attempt(board: State, scratch: Trace, copied: Context, order: list[dict[str, Any]], copy_of: Copy) -> None:
            for spec in order + [copy_of(s) for s in optional]:
                _interrupt(board, scratch, copied, spec, event)

        ordered = order_forced(state, trace, ctx, [s for s in listed if is_forced(s)], event, "interrupt", attempt)
        if ordered is None:  # the first player's order is needed: none of the interrupts to this event is assumed
            for spec in listed:
                spec["_used"] = True
            return
        for spec in ordered + optional:
            _interrupt(state, trace, ctx, spec, event)
    finally:
        ctx.event = answering


def _interrupt(state: State, trace: Trace, ctx: Context, spec: dict[str, Any], event: str) -> None:
    spec["_used"] = True
    effect = dict(spec.get("effect") or {})
    saves = effect.pop("saves", None) or [{"card": k, "by": "duplicate"} for k in names(effect.pop("save", None))]
    if saves:  # a save is offered to the removal about to happen (a duplicate's save is a game ability)
        ctx.saves.extend(s if isinstance(s, dict) else {"card": s, "by": "duplicate"} for s in saves)
        if not spec.get("cost") and not [k for k in effect if k not in ("__line__", "source", "source_type")]:
            return
        spec = {**spec, "effect": effect}
    initiate(state, trace, ctx, spec, "interrupt", event)


FORCED = "agot2-rr/forced-interrupts-forced-reactions"
RULES.add(
    "forced.first",
    # (the clauses a cost refusal cites: RR Costs, Kneel, Abilities, Initiating Abilities, Kill, FAQ 2.1)
    [
        FORCED,
        "agot2-rr/triggering-condition",
        "agot2-rr/costs",
        "agot2-rr/kneel",
        "agot2-rr/abilities",
        "agot2-rr/initiating-abilities-marshaling-cards",
        "agot2-rr/kill-killed",
        "agot2-faq41/2.1",
    ],
    "for any given triggering condition, forced interrupts and forced reactions initiate before the non-forced ones; an "
    "optional one whose cost can no longer be paid after them is not initiated",
)


def is_forced(spec: dict[str, Any]) -> bool:
    return str(spec.get("trigger") or "").lower().startswith("forced")


def forced_first(trace: Trace, specs: list[dict[str, Any]], event: str, kind: str) -> list[dict[str, Any]]:
    """The abilities answering ``event``, forced ones first (RR Forced Interrupts / Forced Reactions: "forced interrupts
    take priority and initiate before non-forced interrupts, and forced reactions ... before non-forced reactions"); an
    optional one listed before a forced one is marked as initiated after the forced ones, and the trace says so."""
    forced = [s for s in specs if is_forced(s)]
    optional = [s for s in specs if not is_forced(s)]
    overtaken = [s for s in optional if specs.index(s) < max((specs.index(f) for f in forced), default=-1)]
    if overtaken:
        trace.add(
            "forced.first",
            f"{', '.join(str(f.get('card') or 'a forced ability') for f in forced)} (forced {kind}) to {event} "
            f"take{'s' if len(forced) == 1 else ''} priority and resolve{'s' if len(forced) == 1 else ''} before "
            f"{', '.join(str(o.get('card') or 'an ability') for o in overtaken)}, listed before: forced {kind}s "
            f"initiate before non-forced {kind}s to the same triggering condition",
            cite=[FORCED, "agot2-rr/triggering-condition"],
            tag="forced first",
            subject=event.partition(": ")[2] or event,
        )
    for spec in optional:
        if forced:
            spec["_after_forced"] = True
    return forced + optional


RULES.add(
    "forced.order",
    [FORCED],
    "the first player determines the order in which two or more forced abilities to one triggering condition initiate, "
    "regardless of who controls them; each resolves completely before the next initiates",
)
MAX_TRIED = 24  # orders tried to see whether the order changes the result (4 forced abilities to one condition)
Copy = Callable[[dict[str, Any]], dict[str, Any]]  # an ability the step lists -> its copy on a trial board
Attempt = Callable[[State, Trace, "Context", list[dict[str, Any]], Copy], None]  # resolve an order on a trial board


def ability_said(spec: dict[str, Any]) -> str:
    """An ability a step lists, as the trace names it: its card and whose it is ("Pyre (Anna's)")."""
    return f"{spec.get('card') or 'a forced ability'}" + (f" ({spec['player']}'s)" if spec.get("player") else "")


def order_forced(
    state: State, trace: Trace, ctx: Context, forced: list[dict[str, Any]], event: str, kind: str, attempt: Attempt
) -> list[dict[str, Any]] | None:
    """The order two or more forced abilities to ``event`` initiate in: the first player's, "regardless of who controls
    the cards bearing those abilities" (RR Forced Interrupts / Forced Reactions).  The step's ``forced_order`` gives it;
    unstated, every order is tried on a copy of the board (``attempt``) and, when they differ, the choice is asked for
    (None: the abilities wait on it), never assumed (review r80 M3).  One forced ability has no order to choose."""
    if len(forced) < 2 or ctx.trial:
        return forced
    first, cards = state.first_player, [str(s.get("card") or "") for s in forced]
    stated = [c for c in dict.fromkeys(ctx.forced_order) if c in cards]
    ctx.forced_ordered = ctx.forced_ordered or bool(stated)
    if sorted(stated) == sorted(set(cards)):
        ordered = sorted(forced, key=lambda s: stated.index(str(s.get("card") or "")))
        trace.add(
            "forced.order",
            f"{first}, the first player, determines the order of the forced {kind}s to {event}, regardless of who controls "
            f"them: {', then '.join(ability_said(s) for s in ordered)}; each resolves completely before the next initiates",
            cite=[FORCED],
            tag="forced order",
            subject=first,
        )
        return ordered
    outcomes = set()
    for order in itertools.islice(itertools.permutations(forced), MAX_TRIED):
        outcomes.add(_try(state, trace, ctx, list(order), attempt))
    missing = [c for c in dict.fromkeys(cards) if c not in stated]
    named = ", ".join(ability_said(s) for s in forced)
    if len(outcomes) == 1 and math.factorial(len(forced)) <= MAX_TRIED:
        trace.add(
            "forced.order",
            f"the first player, {first}, determines the order of the forced {kind}s to {event} ({named}), regardless of who "
            f"controls them; the scenario {'states only part of it' if stated else 'does not state it'} (forced_order), and "
            f"every order has the same result: they resolve as listed, each completely before the next initiates",
            cite=[FORCED],
            tag="forced order",
            subject=first,
        )
        return forced
    trace.add(
        "forced.order",
        f"the first player, {first}, determines the order of the forced {kind}s to {event} ({named}), regardless of who "
        f"controls them, and the order changes the result: state it (forced_order: {' and '.join(missing)}, in the order "
        f"chosen); the {kind}s to {event} wait on that choice and are not resolved",
        "choice-needed",
        cite=[FORCED],
        tag="choice",
        subject=first,
    )
    return None


def _try(state: State, trace: Trace, ctx: Context, order: list[dict[str, Any]], attempt: Attempt) -> tuple[Any, ...]:
    """The board after resolving the forced abilities in ``order`` (and what follows them in the step) on a copy."""
    originals = [*ctx.interrupts, *ctx.reactions, *ctx.pending_reactions, *order]
    board, copied, copies = copy.deepcopy((state, ctx, originals))  # (one copy: a spec listed twice stays one spec)
    copied.trial = True

    def copy_of(spec: dict[str, Any]) -> dict[str, Any]:
        return next((c for o, c in zip(originals, copies, strict=True) if o is spec), spec)

    try:
        attempt(board, Trace(trace.registry, step=trace.step), copied, [copy_of(s) for s in order], copy_of)
    except IllegalStep as exc:  # (one order may be refused where another is not: that is a different result)
        return ("refused", exc.reason)
    return board.outcome()


def initiate(state: State, trace: Trace, ctx: Context, spec: dict[str, Any], kind: str, event: str) -> None:
    """Initiate one interrupt or reaction (one a step lists, or a step of its own).

    One whose effect could not change the game state (its card has left play since the chain of events began, an
    earlier interrupt or reaction having moved it) is not initiated: RR Abilities, "A card ability can only be
    initiated if its effect has the potential to change the game state"; nothing of it happens, its costs are not paid,
    and the rest of the step stands.  An optional one that comes after forced ones to the same triggering condition may
    find its cost no longer payable: it is not initiated either (RR Costs: "the process of initiating the ability ...
    immediately ends without further resolution").  Any other refusal refuses the step."""
    from judgekb.engine.agot2.cards import triggered

    before, logged = copy.deepcopy(state), len(trace.entries)
    pending, used = list(ctx.pending_reactions), [(s, s.get("_used")) for s in ctx.reactions + ctx.interrupts]
    try:
        triggered(state, trace, ctx, spec, kind, event)
    except IllegalStep as exc:
        if not isinstance(exc, CannotInitiate) and not spec.get("_after_forced"):
            raise
        state.__dict__.update(before.__dict__)  # (ctx shares the state's record of events: point it at the restored one)
        ctx.occurred, ctx.open_windows = state.facts.setdefault("occurred", {}), state.facts.setdefault("open_windows", {})
        ctx.pending_reactions = pending
        for s, flag in used:
            s["_used"] = flag
        del trace.entries[logged:]
        card = str(spec.get("card") or "the ability")
        if isinstance(exc, CannotInitiate):
            trace.add(
                exc.rule_id,
                f"{spec.get('player') or state.first_player}'s {card} ({spec.get('trigger') or kind}) to {event} is not "
                f"initiated: {exc.why}; its effect could not change the game state, so nothing of it happens and no cost "
                "of it is paid",
                "not-applied",
                cite=exc.cite,
                tag=kind,
                subject=card,
            )
            return
        trace.add(
            "forced.first",
            f"{card} ({kind}) to {event} is not initiated: after the forced abilities to it resolved, {exc.reason}",
            "not-applied",
            cite=sorted({FORCED, "agot2-rr/costs"} | (set(exc.cite or []) & set(trace.registry["forced.first"].clauses))),
            tag="not used",
            subject=str(spec.get("card") or ""),
        )


RULES.add(
    "replacement",
    ["agot2-rr/replacement-effects", "agot2-faq41/qa/scouting-vessel"],
    "of several replacement effects initiated against one event, the most recent is used",
)


def replacement(state: State, trace: Trace, ctx: Context, event: str) -> bool:
    """Apply the most recent replacement ('instead') effect initiated against ``event``; True if one replaced it."""
    chosen = [r for r in ctx.replacements if r.get("_event") == event]
    ctx.replacements = [r for r in ctx.replacements if r.get("_event") != event]
    if not chosen:
        return False
    last = chosen[-1]
    for other in chosen[:-1]:
        trace.add(
            "replacement",
            f"{other.get('source') or 'a replacement effect'} is not the most recent replacement effect against {event}: it is not used",
            "not-applied",
            cite=["agot2-rr/replacement-effects"],
            tag="not used",
            subject=str(other.get("source") or ""),
        )
    pillage = event.startswith("pillage:")
    trace.add(
        "replacement",
        f"{last.get('source') or 'a replacement effect'} replaces {event}: the most recently initiated replacement effect is the one used",
        cite=["agot2-rr/replacement-effects"] + (["agot2-faq41/qa/scouting-vessel"] if pillage and len(chosen) > 1 else []),
        tag="replaced",
        subject=str(last.get("source") or ""),
    )
    if ctx.apply_effect:
        ctx.apply_effect(state, trace, ctx, {**{k: v for k, v in last.items() if k not in ("instead", "_event")}, "_replacing": True})
    return True


def queue_reactions(ctx: Context, event: str, times: int = 1) -> None:
    """Reactions wait until the effect that caused the event has fully resolved (RR Reactions, FAQ 1.8)."""
    ctx.occurred[event] = ctx.occurred.get(event, 0) + times
    ctx.open_windows[event] = ctx.open_windows.get(event, 0) + times
    for spec in ctx.reactions:
        if not spec.get("_used") and event_matches(spec, event):
            spec["_used"] = True
            ctx.pending_reactions.append({**spec, "_event": event})


RULES.add(
    "reaction.once",
    ["agot2-rr/reactions", "agot2-faq41/qa/scouting-vessel"],
    "a reaction may be initiated once each time its triggering condition occurs",
)


RULES.add(
    "reaction.window",
    ["agot2-rr/reactions"],
    "a reaction is initiated in the reaction window its triggering condition opens; once it closes, no further reaction to it",
)


RULES.add(
    "reaction.not-occurred",
    ["agot2-rr/reactions", "agot2-rr/kneel", "agot2-rr/stand"],
    "a reaction needs its triggering condition to have occurred: a kneel of a kneeling card (a refused step) did not",
)


def _not_occurred(state: State, event: str) -> None:
    """A reaction to an event the last step did not produce: refused when the engine knows it did not occur there.

    RR Reactions: a reaction is initiated after its triggering condition occurs.  Raises IllegalStep when the last
    step said the event did not occur (a kneel of a card already kneeling, RR Kneel), or when the last step that was
    not a reaction was refused (nothing in it occurred)."""
    why = next((text for e, text in state.facts.get("not_occurred", {}).items() if e.lower() == event.lower()), None)
    verb = event.partition(": ")[0]
    if why is not None:
        raise IllegalStep(
            "reaction.not-occurred",
            f"{why}: no {verb} occurred in the last step, so there is no '{event}' for a reaction to answer",
            cite=["agot2-rr/reactions", "agot2-rr/stand" if verb == "stand" else "agot2-rr/kneel"],
        )
    refused = [n for n, v in state.facts.get("refused_steps", {}).items() if v not in ("reaction", "note")]
    last = max(refused, default=0)
    if last > int(state.facts.get("window_step") or 0):
        raise IllegalStep(
            "reaction.not-occurred",
            f"the last step before this reaction (step {last}) was refused, so nothing in it occurred: there is no "
            f"'{event}' for a reaction to answer",
            cite=["agot2-rr/reactions"],
        )


RULES.add(
    "reaction.no-trigger",
    ["agot2-rr/reactions", "agot2-rr/triggering-condition", "agot2-rr/event-cards"],
    "a reaction is initiated only after its triggering condition occurs: one to an event that did not occur is refused",
)


def _never_occurred(state: State, spec: dict[str, Any], event: str) -> None:
    """A reaction to an event the engine records but that has not occurred in this game: refused.

    RR Reactions: "After a triggering condition resolves, a reaction window for that triggering condition opens."  Every
    verb a reaction step may name (``scenario.REACTION_VERBS2``, checked at load) is one the engine records as it occurs,
    so an event not in its record did not occur.  Raises IllegalStep."""
    verb = event.partition(":")[0].strip().lower()
    if verb not in REACTION_VERBS2:  # (refused at load; a step built in code is checked here too)
        raise IllegalStep(
            "reaction.no-trigger",
            f"'{event}' is not an event the engine records (it records {', '.join(REACTION_VERBS2)}): whether this "
            "reaction's triggering condition occurred cannot be checked",
            cite=["agot2-rr/triggering-condition"],
        )
    subject = event.partition(":")[2].strip()
    if (verb, subject) in [("marshal", k) for k in state.facts.get("entered", [])] + [
        ("enter play", k) for k in state.facts.get("not_entered", [])
    ]:
        return  # (cards.triggered says why more exactly: put into play is not marshaling; marshaled from facedown)
    card = state.cards.get(str(spec.get("card") or ""))
    event_card = card is not None and card.type == "event"  # RR Event Cards: its triggering condition says when it can be played
    last = int(state.facts.get("window_step") or 0)
    raise IllegalStep(
        "reaction.no-trigger",
        f"'{event}' did not occur in the last step that was not a reaction (step {last}), nor earlier: a reaction is "
        "initiated only after its triggering condition occurs, so no reaction window for it opened"
        + (f"; {card.key} cannot be played" if event_card and card is not None else ""),
        cite=["agot2-rr/reactions", "agot2-rr/triggering-condition"] + (["agot2-rr/event-cards"] if event_card else []),
    )


def check_reaction_window(state: State, trace: Trace, ctx: Context, spec: dict[str, Any]) -> None:
    """A reaction used as a step: one use per occurrence of its triggering condition (when the engine recorded it)."""
    event = str(spec.get("to") or "")
    verb, _, subject = event.partition(": ")
    key = next((e for e in ctx.occurred if e.lower() == event.lower()), None)
    if key is None:
        _not_occurred(state, event)
        _never_occurred(state, spec, event)
        return
    if key not in ctx.open_windows:
        raise IllegalStep(
            "reaction.window",
            f"{key} happened before another step was taken: its reaction window closed when that step began, so "
            "further reactions to it cannot be initiated",
            cite=["agot2-rr/reactions"],
        )
    replaced = key in state.facts.get("replaced", {})
    used = state.facts.setdefault("reacted", {})
    card = str(spec.get("card") or "")
    count = used.get(f"{key}|{card}", 0)
    if count >= ctx.open_windows[key]:  # (once per occurrence in this window: earlier windows' occurrences are gone)
        raise IllegalStep(
            "reaction.once",
            f"{card or 'the reaction'} has already been used {count} time(s), once for each time {key} happened in this "
            "reaction window",
            cite=["agot2-rr/reactions"] + (["agot2-faq41/qa/scouting-vessel"] if replaced else []),
        )
    used[f"{key}|{card}"] = count + 1
    if replaced:
        trace.add(
            "reaction.once",
            f"{key} happened {ctx.open_windows[key]} time(s) (the replacement discarded that many cards using pillage): "
            f"use {count + 1} of {ctx.open_windows[key]}",
            tag="reaction window",
            subject=subject,
        )


def run_reactions(state: State, trace: Trace, ctx: Context) -> None:
    while ctx.pending_reactions:
        first = ctx.pending_reactions[0]["_event"]
        same = [s for s in ctx.pending_reactions if s["_event"] == first]
        if any(is_forced(s) for s in same) and not all(s.get("_ordered") for s in same):
            _order_reactions(state, trace, ctx, first, same)
            continue
        spec = ctx.pending_reactions.pop(0)
        verb, _, subject = spec["_event"].partition(": ")
        area = {"discard": "discard", "kill": "dead"}.get(verb)
        card = state.cards.get(subject)
        targets = names((spec.get("effect") or {}).get("target"))
        if area and card is not None and subject in targets and card.zone != area:
            trace.add(
                "out-of-play-area",
                f"{spec.get('card') or 'the reaction'} cannot interact with {subject} any more: it has left the "
                f"{'discard' if area == 'discard' else 'dead'} pile, so the reaction cannot be used",
                "not-applied",
                tag="not used",
                subject=str(spec.get("card") or ""),
            )
            continue
        initiate(state, trace, ctx, spec, "reaction", spec["_event"])


def _order_reactions(state: State, trace: Trace, ctx: Context, event: str, same: list[dict[str, Any]]) -> None:
    """Put the reactions pending to ``event`` in the order they initiate: forced ones first, in the first player's
    order; when that order is needed and not stated, none of them is pending any more (the trace asks for it)."""
    listed = forced_first(trace, same, event, "reaction")
    optional = [s for s in listed if not is_forced(s)]
    rest = [s for s in ctx.pending_reactions if s["_event"] != event]

    def attempt(board: State, scratch: Trace, copied: Context, order: list[dict[str, Any]], copy_of: Copy) -> None:
        copied.pending_reactions = order + [copy_of(s) for s in optional + rest]
        for s in order + [copy_of(s) for s in optional]:
            s["_ordered"] = True
        run_reactions(board, scratch, copied)

    ordered = order_forced(state, trace, ctx, [s for s in listed if is_forced(s)], event, "reaction", attempt)
    if ordered is None:  # the first player's order is needed: none of the reactions to this event is assumed
        ctx.pending_reactions = rest
        return
    for s in ordered + optional:
        s["_ordered"] = True
    ctx.pending_reactions = ordered + optional + rest


RULES.add(
    "out-of-play-area",
    ["agot2-faq41/2.4"],
    "an ability that interacts with a card in an out-of-play area cannot reach it once it has left that area",
)
