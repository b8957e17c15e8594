"""The second-edition ruleset: how each scenario step maps onto the second-edition rule functions."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from judgekb.engine.agot2 import RULES, cards, challenges, initiation, phases, rule, titles, victory, windows
from judgekb.engine.agot2.effects import effect
from judgekb.engine.agot2.leaving import check_terminal
from judgekb.engine.agot2.victory import check_elimination, check_victory
from judgekb.engine.agot2.windows import Context, event_matches, run_reactions
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import State
from judgekb.engine.core.steps import names, pairs
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import ICON_ALIASES, Scenario, phase_said2

__all__ = ["RULES", "VICTORY_RULE", "READERS", "setup", "apply", "known_tags"]
VICTORY_RULE = "victory"
GAME_OVER_CITE = ["agot2-rr/winning-the-game"]  # what forbids a step after the game ended (not FAQ 1.4, which counts power)
READERS: dict[str, Any] = {"power": victory.total_power}
# The trace tags docs/scenarios.md lists ("Trace tags"): what each entry is, as `trace_order` and `cites` name it
TAGS = frozenset(
    {
        "ability", "active player", "additional challenge", "assault", "attach", "attacking alone", "bestow", "blank",
        "canceled", "cannot", "challenge ends", "choice", "claim", "claim modifier", "claim value", "concede",
        "condition", "contribute", "control reverts", "cost", "cost reduction", "dead pile", "deck not given",
        "declare challenge", "declare defenders", "delayed effect", "delayed expires", "delayed resolves",
        "determine result", "discard", "does not kneel", "dominance", "draw", "draw bonus", "duplicate", "each player",
        "eligible", "eliminated", "errata", "expires at once", "first player", "forced first", "forced order", "gained in time", "gold",
        "gold value", "icon", "immune", "income", "initiative", "insight", "interrupt", "intimidate", "keyword",
        "keyword order", "kill", "kneel", "lasting expires", "limit", "limited", "loop", "marshal", "no claim",
        "no new initiative", "no winner", "not modeled", "not played", "not prevented", "not resolved", "not used",
        "participating", "phase begins", "phase ends", "pillage", "pillage order", "play", "power", "put into play",
        "reaction", "reaction window", "redirect", "referential", "refused", "removed", "renown", "replaced",
        "replacement", "reserve", "restriction not checked", "return gold", "return to deck", "return to hand",
        "reveal plot", "rivals bonus", "round ends", "sacrifice", "save", "setup", "shadows", "spend gold", "stand",
        "stealth", "strength", "take control", "terminal", "terminal condition", "terminal order", "then", "title",
        "title strength", "tokens", "trait", "unopposed", "unsuccessful", "unused choice", "used pile returns",
        "victory", "when revealed", "winner", "you",
    }
)


def known_tags() -> frozenset[str]:
    """Every tag a second-edition trace entry can carry (each entry names one of TAGS: a test reads the code for
    them).  A ``cites`` or ``trace_order`` tag outside them is a typo, and guard.run refuses it."""
    return TAGS


@rule("agenda.copies", ["agot2-faq41/3.5"], "a player cannot run more than 1 copy of each agenda, by title")
def setup(state: State, trace: Trace, scenario: Scenario) -> None:
    """Check the board before the first step: agenda copies (FAQ 3.5)."""
    trace.step = 0
    for name, player in state.players.items():
        seen: set[str] = set()
        for agenda in player.agendas:
            if agenda.lower() in seen:
                trace.add(
                    "agenda.copies",
                    f"illegal: {name} runs two copies of the agenda {agenda}: no more than 1 copy of each agenda, by title",
                    "refused",
                    tag="refused",
                    subject=name,
                )
            seen.add(agenda.lower())
    # a draw deck the scenario gives as empty ('deck: []'): its player is already out; when every player is, the first
    # player's choice is the scenario's top-level victory_choice (no step can carry it: the game is over before step 1)
    choice = state.facts.pop("setup_victory_choice", None)
    state.facts["victory_choice"] = choice
    titles.describe(state, trace)  # the melee titles the scenario gives, and where their relationships come from
    cards.check_attachments(state, trace)  # records each attachment's state as given: later changes are checked
    everyone_out = check_elimination(state, trace)
    if choice is not None and not everyone_out:
        trace.unused(
            "eliminated",
            "victory_choice",
            choice,
            "the first player chooses only when every player is eliminated at once, and not every player's draw deck is "
            "given empty before the first step",
            "agot2-rr/winning-the-game",
        )
    state.facts["victory_choice"] = None


@rule("loop", ["agot2-faq41/1.1"], "an infinite loop is shown once and then executed a stated number of times at once")
def loop(state: State, trace: Trace, args: dict[str, Any], scenario: Scenario, step: dict[str, Any]) -> None:
    times = int(args["times"])
    trace.add(
        "loop",
        f"{args.get('player') or 'the player'} shows one full cycle of the loop and executes it {times} time(s)",
        tag="loop",
        subject=str(args.get("player") or ""),
    )
    # the scenario's own step objects, not ``args``'s private copy: an interrupt inside the loop finds the step it
    # answers by identity (check_imminent), and a copy is in no scenario list (review r78 H1)
    given = step.get("loop")
    original: dict[str, Any] = given if isinstance(given, dict) else args
    for _ in range(times):
        for inner in original["steps"]:
            verb = next(k for k in inner if k != "__line__")
            if verb != "note":
                apply(state, trace, verb, inner[verb], scenario, inner)
            if state.winner:
                trace.add(
                    "loop", f"the loop makes {state.winner} win: the game is over and the loop stops", tag="loop", subject=state.winner
                )
                return


@rule(
    "phase.ended",
    [phases.END],
    "after the phase ends only its 'at the end of the phase' delayed effects and reactions to its end resolve, outside "
    "the phase; then the next phase begins",
)
def check_between_phases(state: State, verb: str, args: dict[str, Any]) -> None:
    """A plain effect, or an action, after end_phase and before the next phase step has no place in the End of Phase
    Timing Sequence: refused (the reactions to the end of the phase are given with end_phase or as reaction steps)."""
    if not state.ended("phase"):
        return
    trigger = str(args.get("trigger") or "action").lower() if verb in ("ability", "play_event") else ""
    if verb == "effect" or trigger.endswith("action"):
        what = "an action" if trigger else "an effect that is not a reaction to the end of the phase"
        raise IllegalStep(
            "phase.ended",
            f"the {phase_said2(state.phase)} phase has ended: after its end only 'at the end of the phase' delayed effects and reactions "
            f"to its end resolve, then the next phase begins, so {what} has no place here (give it as a reaction to the end "
            f"of the phase, or after the next phase step)",
            cite=[phases.END],
        )


RULES.add(
    "step.unmatched",
    ["agot2-rr/interrupts", "agot2-rr/reactions", "agot2-rr/cancel"],
    "an interrupt or reaction a step names whose triggering condition did not occur in that step (or whose effect was "
    "canceled) is said unused",
)


def unmatched(trace: Trace, ctx: Context, before: dict[str, int]) -> None:
    """Interrupts and reactions the step names that answered nothing (review 31: an interrupt 'to: claim: Ben',
    for which no interrupt window opens, was dropped without a word): each is said unused, with the events the
    step did produce, so the judge can see what it could have answered."""
    left = [(kind, spec, cite) for kind, specs, cite in (
        ("interrupt", ctx.interrupts, "agot2-rr/interrupts"), ("reaction", ctx.reactions, "agot2-rr/reactions")
    ) for spec in specs if not spec.get("_used")]  # fmt: skip
    if not left:  # (every step runs this: the trace is read only when something is left to say)
        return
    events = [e for e, n in ctx.occurred.items() if n > before.get(e, 0)]
    said = f"the events of this step are {', '.join(events[:8])}" if events else "this step produced no event to answer"
    this_step = itertools.takewhile(lambda e: e.step == trace.step, reversed(trace.entries))
    canceled = any(e.tag == "canceled" for e in this_step)
    for kind, spec, cite in left:
        name = f"{spec.get('card') or 'an ability'} (to: {spec.get('to') or '?'})"
        why, clause = f"its triggering condition '{spec.get('to')}' did not occur in this step ({said})", cite
        if canceled and kind == "interrupt":  # RR Cancel: "further interrupts ... cannot be initiated in reference to ..."
            why = "the effect it would answer was canceled: no further interrupt refers to a canceled effect"
            clause = "agot2-rr/cancel"
        elif any(event_matches(spec, e) for e in events):  # it occurred, with no interrupt window before it
            why = (
                f"the engine opens no interrupt window before '{spec.get('to')}' (not modeled): give the interrupt's "
                "effect as a step of its own before this one"
            )
        trace.unused("step.unmatched", kind, name, why, clause)


RULES.add(
    "forced.first.step",
    [windows.FORCED, "agot2-rr/triggering-condition"],
    "a non-forced interrupt or reaction step cannot be taken while a forced one to the same triggering condition, given "
    "as a later step of the same window, has not resolved",
)


def check_forced_first(scenario: Scenario, step: dict[str, Any], verb: str, args: dict[str, Any]) -> None:
    """An optional interrupt or reaction step while a forced one to the same triggering condition comes in a later step
    of the same window (only reaction, interrupt and note steps between): refused, since the forced one resolves first
    (RR Forced Interrupts / Forced Reactions; RR Triggering Condition, steps 3 and 6 before the windows of 4 and 7)."""
    if windows.is_forced(args):
        return
    found = _following(scenario.steps, step)
    if found is None or found[1] is not None:  # (a step inside a loop: its window is the loop's own)
        return
    for number, other in found[0]:
        other_verb = next((k for k in other if k != "__line__"), "")
        if other_verb == "note":
            continue
        if other_verb != verb:
            return
        spec = other[other_verb] or {}
        if windows.is_forced(spec) and event_matches(spec, str(args.get("to") or "")):
            raise IllegalStep(
                "forced.first.step",
                f"{spec.get('card') or 'a forced ability'} (step {number}) is a forced {verb} to {args.get('to')}: forced "
                f"{verb}s take priority and initiate before non-forced {verb}s to the same triggering condition, so "
                f"{args.get('card') or 'this ability'} cannot be initiated before it (give the forced {verb} first)",
                cite=[windows.FORCED, "agot2-rr/triggering-condition"],
            )


def say_forced_steps_order(
    state: State, trace: Trace, scenario: Scenario, step: dict[str, Any], verb: str, args: dict[str, Any]
) -> None:
    """Two or more forced reaction (interrupt) steps to one triggering condition in one window: the first player
    determines their order, whoever controls them (RR Forced Interrupts / Forced Reactions), and the steps give it.
    Said at the first of them (review r80 M3: the ruling never said who chose the order)."""
    if not windows.is_forced(args):
        return
    event, steps = str(args.get("to") or ""), scenario.steps
    at = next((i for i, s in enumerate(steps) if s is step), None)  # (a step inside a loop: its window is the loop's)
    if at is None:
        return

    def window(indices: range) -> list[tuple[int, dict[str, Any]]]:
        found = []
        for i in indices:
            other_verb = next((k for k in steps[i] if k != "__line__"), "")
            if other_verb == "note":
                continue
            if other_verb != verb:
                break
            spec = steps[i][other_verb] or {}
            if windows.is_forced(spec) and event_matches(spec, event):
                found.append((i + 1, spec))
        return found

    later = window(range(at + 1, len(steps)))
    if window(range(at - 1, -1, -1)) or not later:
        return
    order = ", then ".join(f"{windows.ability_said(spec)} (step {n})" for n, spec in [(at + 1, args), *later])
    trace.add(
        "forced.order",
        f"{state.first_player}, the first player, determines the order of the forced {verb}s to {event}, regardless of who "
        f"controls them: the steps give it, {order}; each resolves completely before the next initiates",
        cite=[windows.FORCED],
        tag="forced order",
        subject=state.first_player,
    )


RULES.add(
    "interrupt.not-imminent",
    ["agot2-rr/interrupts", "agot2-rr/triggering-condition"],
    "an interrupt step answers a triggering condition that is imminent: one the next step (not an interrupt or a note) "
    "is about to bring about; an interrupt to something not about to happen is refused",
)


def _following(steps: list[dict[str, Any]], step: dict[str, Any]) -> tuple[list[tuple[int, dict[str, Any]]], int | None] | None:
    """The steps after ``step`` in its own list (the scenario's, or a loop's), numbered, and the number of the loop
    step holding that list (None: the scenario's own); None when ``step`` is in neither (a step built in code)."""
    for number, candidate in enumerate(steps, 1):
        if candidate is step:
            return list(enumerate(steps, 1))[number:], None
        inner = candidate.get("loop")
        if isinstance(inner, dict) and isinstance(inner.get("steps"), list):
            found = _following(inner["steps"], step)
            if found is not None:
                return found[0], number
    return None


def check_imminent(
    state: State, scenario: Scenario, step: dict[str, Any], args: dict[str, Any], closed: tuple[dict[str, int], Any]
) -> None:
    """An interrupt used as a step answers the triggering condition the next step that is not an interrupt or a note
    brings about (RR Triggering Condition: it "becomes imminent ... the next thing that will occur in the game", and
    the interrupt window opens before it occurs; RR Interrupts: "interrupts the resolution of its triggering
    condition").  That step is tried on a copy of the board, without this interrupt: the event must become imminent
    (an interrupt window opens for it) or occur there.  Raises IllegalStep when it does not, when that step is
    refused, or when no such step follows; a condition that already occurred in the last step (``closed``: the reaction
    windows it opened, and its number) is named, since a reaction answers it."""
    event = str(args.get("to") or "")
    found = _following(scenario.steps, step)
    if found is None:
        return  # (a step built in code, in no scenario list)
    following, loop_step = found
    label = "step {n}" if loop_step is None else f"step {{n}} of the loop (step {loop_step})"
    verb_of = {id(s): next((k for k in s if k != "__line__"), "") for _, s in following}
    nxt = next(((n, s) for n, s in following if verb_of[id(s)] not in ("interrupt", "note")), None)
    were_open, last = closed
    past = next((e for e in were_open if event_matches(args, e)), None)
    late = (
        f"; '{past}' already occurred in step {last}: its interrupt window closed before it resolved, and a reaction "
        "answers it now"
        if past
        else ""
    )
    rule_of = "an interrupt is initiated in the interrupt window that opens when its triggering condition becomes imminent"
    if nxt is None:
        raise IllegalStep(
            "interrupt.not-imminent",
            f"'{event}' is not about to happen: no later step{'' if loop_step is None else ' of the loop'} that is not an "
            f"interrupt or a note brings it about ({rule_of}){late}",
            cite=["agot2-rr/interrupts", "agot2-rr/triggering-condition"],
        )
    number, other = nxt
    verb = verb_of[id(other)]
    said_step = f"the next step that is not an interrupt, {label.format(n=number)} ({verb}),"
    trial = copy.deepcopy(state)
    trial.facts["occurred"], trial.facts["imminent"] = {}, {}
    scratch = Trace(RULES, step=number)
    try:
        apply(trial, scratch, verb, other[verb], scenario, other)
    except IllegalStep as exc:
        raise IllegalStep(
            "interrupt.not-imminent",
            f"'{event}' is not about to happen: {said_step} is refused ({exc.reason}), so nothing in it becomes imminent "
            f"({rule_of}){late}",
            cite=["agot2-rr/interrupts", "agot2-rr/triggering-condition"],
        ) from None
    brought = list(dict.fromkeys([*trial.facts.get("imminent", {}), *trial.facts.get("occurred", {})]))
    if not any(event_matches(args, e) for e in brought):
        said = f"its events are {', '.join(brought[:8])}" if brought else "it brings about no event"
        raise IllegalStep(
            "interrupt.not-imminent",
            f"'{event}' is not about to happen: {said_step} does not bring it about ({said}); {rule_of}{late}",
            cite=["agot2-rr/interrupts", "agot2-rr/triggering-condition"],
        )


def _context(step_args: dict[str, Any]) -> Context:
    ctx = Context(
        saves=[s if isinstance(s, dict) else {"card": s, "by": "duplicate"} for s in step_args.get("saves") or []]
        + [{"card": k, "by": "duplicate"} for k in names(step_args.get("save"))],
        interrupts=list(step_args.get("interrupts") or []),
        reactions=list(step_args.get("reactions") or []),
        order=[str(o) for o in step_args.get("order") or []],
        forced_order=[str(o) for o in step_args.get("forced_order") or []],
    )
    ctx.apply_effect = effect
    return ctx


def apply(state: State, trace: Trace, verb: str, args: Any, scenario: Scenario, step: dict[str, Any]) -> None:
    """Dispatch one scenario step to the rule functions."""
    # a private copy: saves, interrupts and reactions are marked as used while the step runs
    args = {"name": args} if verb == "phase" and isinstance(args, str) else copy.deepcopy(args or {})
    ctx = _context(args)
    ctx.occurred = state.facts.setdefault("occurred", {})  # the game's record of events, for one reaction per occurrence
    closed = (dict(state.facts.get("open_windows") or {}), state.facts.get("window_step"))  # (what an interrupt step names late)
    if verb not in ("reaction", "note"):  # any other step closes the reaction windows the last one opened (RR Reactions)
        state.facts["open_windows"] = {}
        state.facts["reacted"] = {}  # (uses of a reaction are counted within its window)
        state.facts["not_occurred"] = {}  # events this step said did not occur (a kneel of a kneeling card)
        state.facts["window_step"] = trace.step  # the step whose reaction windows are open (unless it is refused)
        initiation.snapshot(state)  # where each card is as its chain of events begins
    ctx.open_windows = state.facts.setdefault("open_windows", {})
    happened = dict(ctx.occurred)  # (what the step adds to it: the events its interrupts and reactions could answer)
    state.facts["victory_choice"] = args.get("victory_choice")  # the first player's choice, stated with the step that needs it
    # every victory_choice the step names (its own, its effects'), said unused when no one was to choose (review r53)
    state.facts["victory_choice_named"] = [args["victory_choice"]] if args.get("victory_choice") else []
    state.facts["victory_choice_used"] = False
    check_between_phases(state, verb, args)
    if verb == "phase":
        phases.phase(state, trace, ctx, str(args["name"]), args)
    elif verb == "end_phase":
        phases.end_phase(state, trace, ctx)
    elif verb == "end_round":
        phases.end_round(state, trace, ctx)
    elif verb == "end_challenge":
        challenges.end_challenge(state, trace, ctx)
    elif verb == "marshal" and args.get("into") == "shadows":
        phases.activate(state, trace, args["player"], f"{args['player']} marshals a card into shadows")
        cards.marshal_into_shadows(state, trace, args["player"], args["card"], args.get("spend_from"))
    elif verb == "marshal":
        phases.activate(state, trace, args["player"], f"{args['player']} marshals")
        cards.marshal(
            state,
            trace,
            ctx,
            args["player"],
            args["card"],
            args.get("onto"),
            bool(args.get("as_duplicate")),
            args.get("bestow"),
            args.get("spend_from"),
            str(args.get("from") or "hand"),
        )
    elif verb == "put_into_play":
        cards.put_into_play(
            state, trace, ctx, args["player"], args["card"], args.get("onto"), args.get("from"), args.get("ambush"), args.get("bestow")
        )
    elif verb == "bring_out_of_shadows":
        cards.out_of_shadows(state, trace, ctx, args["player"], args["card"], args.get("onto"), args.get("shadow"))
    elif verb == "draw":
        phases.draw(state, trace, args["player"], int(args.get("count", 1)))
    elif verb == "challenge":
        kind = ICON_ALIASES[str(args["type"]).lower()]
        challenges.declare(
            state,
            trace,
            ctx,
            args["attacker"],
            kind,
            args["against"],
            names(args.get("attackers")),
            dict(pairs(args.get("stealth"))),
            dict(pairs(args.get("assault"))),
        )
    elif verb == "redirect":
        if titles.redirect(state, trace, args["player"], args.get("to")):
            if args.get("stealth"):
                challenges.declare_stealth(state, trace, dict(pairs(args["stealth"])), redirected=True)  # of the new defending player
            if args.get("assault"):  # RR Assault: the attacking player may choose a new target for assault
                challenges.declare_assault(state, trace, dict(pairs(args["assault"])), redirected=True)
        elif args.get("assault"):
            trace.unused(
                "keyword.assault",
                "assault",
                list(dict(pairs(args["assault"])).values()),
                "the new opponent is not chosen yet, so no location controlled by the new defending player can be targeted",
                "agot2-rr/assault",
            )
    elif verb == "defend":
        challenge = state.challenge
        challenges.defend(state, trace, ctx, args.get("player") or (challenge.defender if challenge else ""), names(args.get("defenders")))
    elif verb == "resolve":
        for field in ("claim", "discard", "pillage_order", "keyword_order", "decline", "use"):  # one name is a list of one
            if field in args:
                args[field] = names(args[field])
        challenges.resolve(state, trace, ctx, args)
    elif verb == "effect":
        effect(state, trace, ctx, args)
    elif verb in ("ability", "interrupt", "reaction"):
        if verb in ("reaction", "interrupt"):
            check_forced_first(scenario, step, verb, args)
        if verb == "reaction":
            windows.check_reaction_window(state, trace, ctx, args)
        if verb == "interrupt":
            check_imminent(state, scenario, step, args, closed)
        if verb in ("reaction", "interrupt"):
            say_forced_steps_order(state, trace, scenario, step, verb, args)
        if verb == "ability":  # a player's ability: one that could not change the game state is refused
            cards.triggered(state, trace, ctx, args, "ability", str(args.get("to") or ""))
        else:  # an interrupt or reaction in its chain of events: one that could not is not initiated (RR Abilities)
            windows.initiate(state, trace, ctx, args, verb, str(args.get("to") or ""))
    elif verb == "setup":
        cards.setup(
            state,
            trace,
            {p: names(v) for p, v in pairs(args.get("place"))},
            {a: str(h) for a, h in pairs(args.get("attach"))},
            {p: names(v) for p, v in pairs(args.get("shadows"))},
        )
    elif verb == "loop":
        loop(state, trace, args, scenario, step)
    elif verb == "concede":
        victory.concede(state, trace, args["player"])
    elif verb == "play_event":
        cards.play_event(state, trace, ctx, args)
    cards.check_attachments(state, trace)
    check_terminal(state, trace, ctx)
    run_reactions(state, trace, ctx)
    unmatched(trace, ctx, happened)
    if not ctx.forced_ordered:
        why = "no two forced abilities this step lists answer one triggering condition, so there is no order to determine"
        trace.unused("forced.order", "forced_order", ctx.forced_order, why, windows.FORCED)
    check_victory(state, trace)
    named = state.facts.pop("victory_choice_named", [])
    if not state.facts.pop("victory_choice_used", False):
        trace.unused(
            "eliminated",
            "victory_choice",
            list(dict.fromkeys(named)),
            "the first player chooses the winner only when every remaining player is eliminated at once, or when several "
            "players reach 15 power at once, and neither happened in this step",
            "agot2-rr/winning-the-game",
        )
