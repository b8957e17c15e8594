"""Leaving play, saves, terminal conditions, control changes, power and victory (second edition)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from judgekb.engine.agot2 import RULES, rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Lasting, State
from judgekb.engine.core.steps import names
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import REACTION_VERBS2

VICTORY = 15
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


def seq(state: State) -> int:
    state.facts["seq"] = state.facts.get("seq", 0) + 1
    return state.facts["seq"]


def total_power(state: State, player: str) -> int:
    """FAQ 1.4: a player's power total counts the power on every card he or she controls (his or her title too: A Cask
    of Ale Q&A, a melee title is in play under its bearer's control)."""
    return state.players[player].power + state.players[player].title_power + sum(
        c.power for c in state.cards.values() if c.zone in ("in_play", "revealed") and c.controller == player
    )


def raw_strength(state: State, card: Card, extra: int = 0) -> int:
    return card.strength + extra + sum(e.value for e in state.effects if e.target == card.key and e.kind == "str")


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
    imminent = state.facts.setdefault("imminent", {})  # (the triggering conditions an interrupt window opened for)
    imminent[event] = imminent.get(event, 0) + 1
    try:
        eligible = [
            s
            for s in ctx.interrupts
            if not s.get("_used") and event_matches(s, event) and (saving is None or _offers_save(s) == saving)
        ]
        for spec in forced_first(trace, eligible, event, "interrupt"):
            spec["_used"] = True
            effect = dict(spec.get("effect") or {})
            saves = effect.pop("saves", None) or [{"card": k, "by": "duplicate"} for k in names(effect.pop("save", None))]
            if saves:  # a save is offered to the removal about to happen (a duplicate's save is a game ability)
                ctx.saves.extend(s if isinstance(s, dict) else {"card": s, "by": "duplicate"} for s in saves)
                if not spec.get("cost") and not [k for k in effect if k not in ("__line__", "source", "source_type")]:
                    continue
                spec = {**spec, "effect": effect}
            initiate(state, trace, ctx, spec, "interrupt", event)
    finally:
        ctx.event = answering


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


def initiate(state: State, trace: Trace, ctx: Context, spec: dict[str, Any], kind: str, event: str) -> None:
    """Initiate one interrupt or reaction a step lists.  An optional one that comes after forced ones to the same
    triggering condition may find its cost no longer payable: it is then not initiated (RR Costs: "the process of
    initiating the ability ... immediately ends without further resolution"), and the rest of the step goes on."""
    from judgekb.engine.agot2.cards import triggered

    if not spec.get("_after_forced"):
        triggered(state, trace, ctx, spec, kind, event)
        return
    before, logged = copy.deepcopy(state), len(trace.entries)
    pending, used = list(ctx.pending_reactions), [(s, s.get("_used")) for s in ctx.reactions + ctx.interrupts]
    try:
        triggered(state, trace, ctx, spec, kind, event)
    except IllegalStep as exc:
        state.__dict__.update(before.__dict__)  # (ctx shares the state's record of events: point it at the restored one)
        ctx.occurred, ctx.open_windows = state.facts.setdefault("occurred", {}), state.facts.setdefault("open_windows", {})
        ctx.pending_reactions = pending
        for s, flag in used:
            s["_used"] = flag
        del trace.entries[logged:]
        trace.add(
            "forced.first",
            f"{spec.get('card') or 'the ability'} ({kind}) to {event} is not initiated: after the forced abilities to it "
            f"resolved, {exc.reason}",
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
            ordered = forced_first(trace, same, first, "reaction")
            for s in ordered:
                s["_ordered"] = True
            ctx.pending_reactions = ordered + [s for s in ctx.pending_reactions if s["_event"] != first]
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


RULES.add(
    "out-of-play-area",
    ["agot2-faq41/2.4"],
    "an ability that interacts with a card in an out-of-play area cannot reach it once it has left that area",
)


# ------------------------------------------------------------------ cannot, immunity


@rule(
    "cannot",
    ["agot2-faq41/2.1", "agot2-rr/cannot", "agot2-faq41/definitions/choose"],
    "a card that cannot be X-ed cannot be chosen to be X-ed and ignores non-targeting X effects",
)
def cannot(state: State, trace: Trace, card: Card, past: str, chosen: bool) -> bool:
    """True if the card may be X-ed; a chosen card is refused, a non-chosen one ignores the effect."""
    if can_be(state, card, past):
        return True
    if chosen:
        raise IllegalStep("cannot", f"{card.key} cannot be {past}, so it cannot be chosen to be {past}", cite=["agot2-faq41/2.1"])
    trace.add(
        "cannot",
        f"{card.key} cannot be {past}: it ignores this effect, which does not choose it (without the word 'choose' it is not targeting)",
        "not-applied",
        cite=["agot2-faq41/2.1", "agot2-faq41/definitions/choose"],
        tag="cannot",
        subject=card.key,
    )
    return False


def can_be(state: State, card: Card, past: str) -> bool:
    """May this card be chosen to be X-ed ("killed", "knelt")? Not when it, or a lasting effect on it, says it
    cannot be (FAQ 2.1: it cannot be chosen to be X-ed); ``cannot`` says so in the trace where one is chosen."""
    return f"be {past}" not in state.cannots(card) and f"cannot be {past}" not in constants(state, card)


def _why_cannot(state: State, card: Card, past: str) -> str:
    """Where a card's 'cannot be X-ed' comes from, as the trace says it."""
    lasting = [e for e in state.effects if e.target == card.key and e.kind == "cannot" and e.value == f"be {past}"]
    sources = [e.source or "an effect" for e in lasting]
    if sources:
        return f"a lasting effect from {', '.join(dict.fromkeys(sources))} says it cannot be {past}"
    if f"be {past}" in card.cannot:
        return f"its own text says it cannot be {past}"
    return f"a constant ability says it cannot be {past}"


ERRATA = {  # card title -> its errata in FAQ v4.1 (the text in force for that card)
    "Ser Horas Redwyne": "agot2-faq41/errata/ser-horas-redwyne-westeros-63",
    "Driftwood Cudgel": "agot2-faq41/errata/driftwood-cudgel-flight-of-crows-112",
    "To Go Forward You Must Go Back": "agot2-faq41/errata/to-go-forward-you-must-go-back-flight-of-crows-114",
    "Old Wyk": "agot2-faq41/errata/old-wyk-lions-of-casterly-rock-28",
    "Balon Greyjoy": "agot2-faq41/errata/balon-greyjoy-kings-of-the-isles-1",
    "Esgred": "agot2-faq41/errata/esgred-war-of-the-five-kings-111",
    "Kingsgrave": "agot2-faq41/errata/kingsgrave-fury-of-the-storm-30",
    "Dothraki Steed": "agot2-faq41/errata/dothraki-steed-fury-of-the-storm-36",
    "The Silver Steed": "agot2-faq41/errata/the-silver-steed-the-king-s-peace-54",
    "The Many-Faced God": "agot2-faq41/errata/the-many-faced-god-hear-my-words-52",
}
RULES.add("errata", sorted(ERRATA.values()), "a card with errata is played with its errata text")


def cite_errata(state: State, trace: Trace, source: str) -> None:
    """Once per step and card: the ability comes from a card whose text in force is its FAQ errata."""
    title = state.cards[source].name if source in state.cards else source
    clause = ERRATA.get(title)
    if clause and not any(e.step == trace.step and e.rule == "errata" and e.subject == title for e in trace.entries):
        trace.add("errata", f"{title}'s text in force is its FAQ v4.1 errata", cite=[clause], tag="errata", subject=title)


def constants(state: State, card: Card) -> set[str]:
    """The constant abilities the engine knows on a card, unless its text box is blank."""
    return set() if state.blanked(card) else {c.lower() for c in card.constant}


# The constant abilities the engine applies, as the words it looks for in a card's `constant` (docs/scenarios.md lists
# them): any other text is kept but does nothing, and the ruling says so (a hostile-input review: "you cannot wn the
# game" was silently ignored and the ruling flipped)
APPLIED_CONSTANTS = (
    "opponents cannot trigger",
    "you cannot win the game",
    "cannot be killed",
    "cannot be knelt",
    "cannot be sacrificed",
    "cannot be discarded",
    "cannot be returned",
    "str cannot be reduced by card effects",
    "its gold may be spent as if in your gold pool",
    "cannot play copies of events",
    "marshal facedown cards attached to this card",
    "more card in the draw phase",
)


# The constant abilities the engine applies only as a whole sentence about the card itself ("Hero does not kneel when
# declared as an attacker in a [military] challenge."): a printed condition the engine cannot check ("against an
# opponent whose reserve value is higher than yours", "Attached character ...") leaves the text unapplied, and said
# so, rather than applied unconditionally (review r51, finding 5)
NO_KNEEL = re.compile(
    r"(?:(?P<subject>.+?) )?does not kneel when declared as (?P<role>an attacker or defender|an attacker|a defender)"
    r"(?: in (?:a |an )?\[?(?P<kind>military|intrigue|power)\]? challenges?)?\.?"
)
NOT_BYPASSED = re.compile(r"(?:(?P<subject>.+?) )?cannot be bypassed by stealth\.?")
SELF_SUBJECTS = ("this character", "this card")


def _about_itself(card: Card, match: re.Match[str] | None) -> bool:
    """A constant's sentence matched and its subject, if any, is the card itself (its title or key, or 'this card')."""
    if match is None:
        return False
    subject = match.group("subject")
    return subject is None or subject in (card.name.lower(), card.key.lower(), *SELF_SUBJECTS)


def does_not_kneel(state: State, card: Card, role: str, kind: str) -> str | None:
    """What the card's constant 'does not kneel when declared as an attacker/a defender [in a TYPE challenge]' says, when
    it applies to this declaration (``role``: "attack" or "defend"), or None; a blank text box has none."""
    for text in sorted(constants(state, card)):
        match = NO_KNEEL.fullmatch(text)
        if not _about_itself(card, match) or match is None:
            continue
        roles, printed = match.group("role"), match.group("kind")
        if ("attacker" if role == "attack" else "defender") in roles and printed in (None, kind):
            article = "an" if kind[0] in "aeiou" else "a"
            return f"does not kneel when declared as {roles}" + (f" in {article} {kind} challenge" if printed else "")
    return None


def not_bypassed(state: State, card: Card) -> bool:
    """Does the card say 'cannot be bypassed by stealth' (its `cannot` list, a lasting effect or its own constant)?"""
    own = any(_about_itself(card, NOT_BYPASSED.fullmatch(t)) for t in constants(state, card))
    return own or not can_be(state, card, "bypassed by stealth")


def unapplied_constants(state: State) -> list[tuple[str, str]]:
    """(card, text) for each constant a scenario gives that none of APPLIED_CONSTANTS' words are in, and that is not
    one of the whole sentences about the card itself the engine applies (NO_KNEEL, NOT_BYPASSED)."""
    return [
        (card.key, text)
        for card in state.cards.values()
        for text in sorted(card.constant)
        if not any(words in text.lower() for words in APPLIED_CONSTANTS)
        and not any(_about_itself(card, pattern.fullmatch(text.lower())) for pattern in (NO_KNEEL, NOT_BYPASSED))
    ]


SOURCE_WORDS = {
    "event": "events",
    "character": "character abilities",
    "location": "location abilities",
    "attachment": "attachment abilities",
    "plot": "plots",
    "agenda": "agendas",
}


def immunity(state: State, card: Card, source_type: str) -> str | None:
    """The immunity, as the card names it ("character abilities", "card effects"), that shields the card
    from effects of this source type, else None."""
    words = SOURCE_WORDS.get(source_type, source_type)
    immune = set(card.immune) | {k.removeprefix("immune to ").strip() for k in state.keywords(card) if k.startswith("immune to ")}
    shields = (words, "card effects", "opponent's card effects" if source_type != "framework" else "")
    return next((shield for shield in shields if shield in immune), None)


@rule(
    "immune",
    ["agot2-rr/immune", "agot2-faq41/2.2"],
    "a card immune to a source ignores its effects; a delayed effect counts as an effect of the card that created it",
)
def check_immune(state: State, trace: Trace, card: Card, source_type: str | None, delayed: bool = False, chosen: bool = True) -> bool:
    """True if the effect reaches the card.  A chosen immune card is refused; otherwise the card ignores the effect."""
    if not source_type or not (words := immunity(state, card, source_type)):
        return True
    cite = ["agot2-rr/immune", "agot2-faq41/2.2"] if delayed else ["agot2-rr/immune"]
    if chosen:
        raise IllegalStep("immune", f"{card.key} is immune to {words}: it cannot be chosen or affected", cite=cite)
    trace.add(
        "immune",
        f"{card.key} is immune to {words}"
        + (" — a delayed effect counts as an effect of the card that created it" if delayed else "")
        + ": it ignores the effect",
        "not-applied",
        cite=cite,
        tag="immune",
        subject=card.key,
    )
    return False


# ------------------------------------------------------------------ leaving play and saves


RULES.add(
    "save.duplicate",
    ["agot2-rr/duplicates", "agot2-rr/save", "agot2-faq41/qa/catelyn-stark"],
    "a duplicate may be discarded to save the unique card it is on",
)
RULES.add(
    "save.terminal",
    ["agot2-rr/save", "agot2-faq41/3.1"],
    "a save must be able to cure an ongoing terminal condition, else it cannot be initiated",
)
RULES.add("save.sacrifice", ["agot2-rr/sacrifice"], "a sacrificed card cannot be saved")
RULES.add("save.cost", ["agot2-faq41/3.2", "agot2-rr/sacrifice"], "a card leaving play as a cost cannot be saved")
RULES.add(
    "save.cannot",
    ["agot2-rr/save", "agot2-rr/cannot"],
    "a card that 'cannot be saved' cannot be saved: by the removing ability's own text (RR Save) or by a restriction on "
    "the card (RR Cannot: absolute)",
)


RULES.add("prized", ["agot2-rr/prized"], "when a prized (X) card leaves play, each opponent of its controller gains X power")


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
            said += [_why_cannot(state, card, "saved")] if restricted else []
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
        card.order = seq(state)


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


# ------------------------------------------------------------------ power and victory


@rule(
    "victory",
    ["agot2-rr/winning-the-game", "agot2-faq41/1.4"],
    "the first player with 15 power on cards he or she controls wins at once; simultaneous: the first player chooses",
)
def check_victory(state: State, trace: Trace) -> str | None:
    if state.winner or state.facts.get("game_over"):
        return state.winner
    reached = [p for p in state.player_order() if total_power(state, p) >= VICTORY]
    blocked = [p for p in reached if _cannot_win(state, p)]
    for player in blocked:
        trace.add(
            "victory.tycho",
            f"{player} has {total_power(state, player)} power but controls a card that says 'you cannot win the game': "
            f"nothing in the rules can make {player} win",
            tag="victory",
            subject=player,
        )
    reached = [p for p in reached if p not in blocked]
    if not reached:
        return None
    if len(reached) == 1:
        state.winner = reached[0]
        on_cards = any(c.power and c.zone == "in_play" and c.controller == reached[0] for c in state.cards.values())
        trace.add(
            "victory",
            f"{reached[0]} has {total_power(state, reached[0])} power"
            + (" (counting the power on every card he or she controls)" if on_cards else "")
            + f": the game ends at once and {reached[0]} wins",
            cite=["agot2-rr/winning-the-game"] + (["agot2-faq41/1.4"] if on_cards else []),
            tag="victory",
            subject=reached[0],
        )
    else:
        state.facts["victory_choice_used"] = True  # (several reach 15 at once: the first player's choice is needed)
        choice = state.facts.get("victory_choice")
        on_cards = any(c.power and c.zone == "in_play" and c.controller in reached for c in state.cards.values())
        state.winner = choice if choice in reached else None
        asked = any(e.step == trace.step and e.rule == "victory" and e.outcome == "choice-needed" for e in trace.entries)
        if not state.winner and asked:
            return None  # the choice is asked once in a step, however often the totals are checked
        trace.add(
            "victory",
            f"{', '.join(reached)} reach 15 power at once: the first player, {state.first_player}, chooses who wins"
            + (f" — {choice}" if state.winner else " (state victory_choice)"),
            "applied" if state.winner else "choice-needed",
            cite=["agot2-rr/winning-the-game"] + (["agot2-faq41/1.4"] if on_cards else []),
            tag="victory",
        )
    return state.winner


RULES.add(
    "victory.tycho",
    ["agot2-faq41/qa/tycho-nestoris"],
    "a player whose card says 'you cannot win the game' cannot win; if all opponents are eliminated the game ends with no winner",
)


def _cannot_win(state: State, player: str) -> bool:
    return any(
        c.zone == "in_play" and c.controller == player and "you cannot win the game" in constants(state, c) for c in state.cards.values()
    )


def remaining(state: State, in_order: bool = False) -> list[str]:
    """The players still in the game (an eliminated player takes no part: RR Winning the Game), in seating order or,
    ``in_order``, in player order from the first player."""
    out = state.facts.get("eliminated", [])
    return [n for n in (state.player_order() if in_order else state.players) if n not in out]


@rule(
    "eliminated",
    ["agot2-rr/winning-the-game", "agot2-rr/appendix-i/draw-phase/2.2"],
    "a player whose draw deck has no cards remaining is eliminated at once; the last player left wins; if all remaining "
    "players are eliminated at once, the first player decides (in the draw phase: which of them wins)",
)
def check_elimination(state: State, trace: Trace, had_cards: dict[str, int] | None = None, draw_phase: bool = False) -> bool:
    """Eliminate every player whose draw deck now has no cards: one that had cards before (``had_cards``), or one whose
    deck the scenario gives (``deck: []`` included). A deck the scenario leaves out is unknown, never read as empty.
    ``draw_phase``: the players drew simultaneously in framework step 2.2, whose note decides a total elimination.
    Returns whether every player still in the game was eliminated at once (the first player's choice decides)."""
    out = state.facts.setdefault("eliminated", [])
    playing = remaining(state, in_order=True)
    newly = [p for p in playing if not state.deck(p) and ((had_cards or {}).get(p) or deck_stated(state, p))]
    if not newly:
        return False
    cite = ["agot2-rr/appendix-i/draw-phase/2.2"] if draw_phase else ["agot2-rr/winning-the-game"]
    if len(newly) > 1 and len(newly) == len(playing) and not state.winner:
        _all_eliminated(state, trace, newly, draw_phase)
        return True
    for player in newly:
        out.append(player)
        trace.add(
            "eliminated",
            (
                f"the scenario gives {player}'s draw deck with no cards ('deck: []'): a player is eliminated when his or her "
                f"draw deck has no cards remaining, so {player} is out of the game before the first step"
                if had_cards is None and trace.step == 0
                else f"{player}'s draw deck has no cards remaining: {player} is eliminated from the game at once"
            ),
            cite=cite,
            tag="eliminated",
            subject=player,
        )
    left = remaining(state)
    if len(left) > 1 and state.first_player in newly:
        pass_first_player(state, trace, out)
    if len(left) == 1 and not state.winner:
        if _cannot_win(state, left[0]):
            state.facts["game_over"] = True
            trace.add(
                "victory.tycho",
                f"all of {left[0]}'s opponents are eliminated, but {left[0]} cannot win the game: the game ends with no winner",
                tag="victory",
            )
        else:
            state.winner = left[0]
            trace.add(
                "eliminated",
                f"all of {left[0]}'s opponents are eliminated: {left[0]} wins",
                cite=["agot2-rr/winning-the-game"],
                tag="victory",
                subject=left[0],
            )
    return False


RULES.add(
    "first player.eliminated",
    ["agot2-rr/first-player"],
    "if the first player is eliminated from a game, the player to his or her left becomes the first player",
)


def pass_first_player(state: State, trace: Trace, out: list[str]) -> None:
    """The first player is eliminated: the player to his or her left (the next player clockwise, seating order, who is
    still in the game) becomes the first player."""
    gone = state.first_player
    new = next(p for p in state.player_order()[1:] if p not in out)
    state.first_player = new
    state.facts["first_player"] = new
    trace.add(
        "first player.eliminated",
        f"{gone}, the first player, is eliminated: {new}, the player to {gone}'s left, becomes the first player",
        tag="first player",
        subject=new,
    )


def _all_eliminated(state: State, trace: Trace, players: list[str], draw_phase: bool) -> None:
    """Every remaining player is eliminated at once: the first player decides (victory_choice), never 'wins' then 'eliminated'."""
    state.facts["eliminated"].extend(players)
    state.facts["victory_choice_used"] = True  # (the first player's choice is needed: a step's victory_choice is used)
    choice = state.facts.get("victory_choice")
    first = state.first_player
    said = " and ".join(", ".join(players).rsplit(", ", 1))
    if draw_phase:
        text = (
            f"{said} have no cards remaining in their draw decks after drawing simultaneously: all remaining players are "
            f"eliminated while fulfilling the draw step, so the first player, {first}, determines which of them wins the game"
        )
        cite = ["agot2-rr/appendix-i/draw-phase/2.2"]
    else:
        text = (
            f"{said} have no cards remaining in their draw decks at the same time: all remaining players would be eliminated "
            f"simultaneously, so the first player, {first}, determines the order in which they are eliminated (the last one "
            f"left, all of whose opponents are eliminated, wins)"
        )
        cite = ["agot2-rr/winning-the-game"]
    if choice not in players:
        state.facts["game_over"] = "choice"
        trace.add(
            "eliminated",
            text
            + (
                " (state victory_choice at the top of the scenario: the player who wins; no step can carry it, since the game "
                "waits on it before the first step)"
                if trace.step == 0
                else " (state victory_choice: the player who wins)"
            )
            + (f"; {choice} is not one of them" if choice else ""),
            "choice-needed",
            cite=cite,
            tag="choice",
        )
        return
    if _cannot_win(state, choice):
        able = [p for p in players if not _cannot_win(state, p)] if draw_phase else []
        if able:
            # the draw step's note: the first player "determines which of those players is the winner"; Tycho Nestoris
            # Q&A: "nothing within the game rules can cause that player to win the game", that choice included, so
            # another of them, who can win, is chosen (the engine's reading).  Outside the draw phase the first player
            # orders the eliminations, and the last one left cannot win: "the game ends with no winner" (the Q&A)
            state.facts["game_over"] = "choice"
            trace.add(
                "victory.tycho",
                text + f" — {choice} is named, but {choice} controls a card that says 'you cannot win the game', and nothing "
                f"within the game rules can cause that player to win: the first player chooses one of {', '.join(able)} "
                "(state victory_choice)",
                "choice-needed",
                tag="choice",
            )
            return
        state.facts["game_over"] = True
        trace.add(
            "victory.tycho",
            text + f" — {choice}, but {choice} controls a card that says 'you cannot win the game', as does every one of them: "
            "the game ends with no winner",
            tag="victory",
        )
        return
    state.winner = choice
    state.facts["eliminated"].remove(choice)
    trace.add(
        "eliminated",
        text
        + (
            f" — {first} chooses {choice}, who wins"
            if draw_phase
            else f" — {first} orders the eliminations with {'himself or herself' if choice == first else choice} last, so {choice} wins"
        ),
        cite=cite,
        tag="victory",
        subject=choice,
    )


def deck_stated(state: State, player: str) -> bool:
    """Does the scenario give this player's draw deck (``deck: []`` included)? One left out is unknown, not empty."""
    return player in state.facts.get("decks_stated", [])


RULES.add(
    "deck.unstated",
    [],
    "a draw deck the scenario leaves out is unknown, not empty: it eliminates no one (the engine's reading of a scenario)",
)


RULES.add("concede", ["agot2-faq41/qa/tycho-nestoris"], "a player whose opponent concedes wins, even if a card says he or she cannot win")
RULES.add("concede.plain", [], "a player who concedes leaves the game")


def concede(state: State, trace: Trace, player: str) -> None:
    if player in state.facts.get("eliminated", []):  # (review 22: a player out of the game conceded again)
        raise IllegalStep("concede.plain", f"{player} is already out of the game, so cannot concede it", cite=[])
    state.facts.setdefault("eliminated", []).append(player)
    left = remaining(state)
    if len(left) != 1:
        trace.add("concede.plain", f"{player} concedes and leaves the game", tag="concede", subject=player)
        if state.first_player == player:  # out of the game like an eliminated player: the token passes on (RR First Player)
            pass_first_player(state, trace, state.facts["eliminated"])
        return
    state.winner = left[0]
    if _cannot_win(state, left[0]):
        trace.add(
            "concede",
            f"{player} concedes: {left[0]} wins — a card that says 'you cannot win the game' does not stop a win by concession",
            tag="victory",
            subject=left[0],
        )
    else:
        trace.add("concede.plain", f"{player} concedes: {left[0]}, the last player left, wins", tag="victory", subject=left[0])


def deck_counts(state: State) -> dict[str, int]:
    return {p: len(state.deck(p)) for p in state.players}


RULES.add(
    "power.cannot-gain",
    ["agot2-rr/cannot", "agot2-rr/gains", "agot2-rr/moving-power"],
    "a card that cannot gain power gains none, whatever would give it; power moved onto it is not gained",
)


def can_gain_power(state: State, card: Card | None, player: str) -> bool:
    """Whether power may be gained on ``card`` (None: ``player``'s faction card): not while a 'cannot gain power' is on
    it (a card's own words or a lasting effect; for the faction card, a lasting effect on its player)."""
    if card is not None:
        return "gain power" not in state.cannots(card)
    return not any(e.target == player and e.kind == "cannot" and e.value == "gain power" for e in state.effects)


def moved_not_gained(state: State, trace: Trace, card: Card | None, player: str) -> None:
    """RR Moving Power: "Power that is moved is not considered 'gained'": said where the card it moves onto cannot gain
    power, so a judge sees why the restriction does not stop it."""
    if not can_gain_power(state, card, player):
        where = card.key if card else f"{player}'s faction card"
        trace.add(
            "power.cannot-gain",
            f"{where} cannot gain power, but power that is moved is not considered gained: the move is not stopped",
            cite=["agot2-rr/moving-power", "agot2-rr/cannot"],
            tag="power",
            subject=card.key if card else player,
        )


@rule("power.gain", ["agot2-rr/power"], "power is taken from the treasury and placed on a faction card or a card in play")
def gain_power(
    state: State,
    trace: Trace,
    player: str,
    amount: int,
    why: str,
    card: Card | None = None,
    rule_id: str = "power.gain",
    cite: list[str] | None = None,
    tag: str = "power",
    check: bool = True,
) -> None:
    if amount <= 0:
        return
    where = card.key if card else f"{player}'s faction card"
    if not can_gain_power(state, card, player):
        trace.add(
            "power.cannot-gain",
            f"{why}: {where} cannot gain power, so it gains none ('cannot' is absolute: no ability gives it power)",
            "not-applied",
            cite=["agot2-rr/cannot", "agot2-rr/gains"],
            tag=tag,
            subject=card.key if card else player,
        )
        return
    state.ledger(from_pool=amount)
    if card is not None:
        card.power += amount
    else:
        state.players[player].power += amount
    trace.add(
        rule_id,
        f"{why}: {where} gains {amount} power ({player}'s total: {total_power(state, player)})",
        cite=cite,
        tag=tag,
        subject=card.key if card else player,
    )
    if check:
        check_victory(state, trace)
