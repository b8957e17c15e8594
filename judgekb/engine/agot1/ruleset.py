"""The first-edition ruleset: how each scenario step maps onto the first-edition rule functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judgekb.engine.agot1 import RULES, challenges, control, effects, leaving, marshal, phases, titles, victory
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Lasting, State
from judgekb.engine.core.steps import UNTIL
from judgekb.engine.core.steps import names as _names
from judgekb.engine.core.trace import UNUSED_CHOICE, Trace
from judgekb.engine.scenario import Scenario, challenge_type
from judgekb.yamlio import DataError, where

__all__ = ["RULES", "VICTORY_RULE", "READERS", "setup", "apply", "known_tags"]
VICTORY_RULE = "victory"
LEAVE = ("kill", "discard", "return_to_hand", "return_to_deck")
READERS: dict[str, Any] = {"at_command": lambda state, player: marshal.at_command(state, player)}


def known_tags() -> frozenset[str]:
    """Every tag a first-edition trace entry can carry: the last part of its rule id (docs/scenarios.md), or the few
    given by name (a refused step, a choice not used, a deck the scenario leaves out)."""
    return frozenset({rule_id.split(".")[-1] for rule_id in RULES} | {"refused", UNUSED_CHOICE, "deck not given"})


def setup(state: State, trace: Trace, scenario: Scenario) -> None:
    """Nothing to check before the first step in the first edition."""


def apply(state: State, trace: Trace, verb: str, args: Any, scenario: Scenario, step: dict[str, Any]) -> None:
    """Dispatch one scenario step to the rule functions; a ``victory_choice`` the step names and no tie at 15 needed is
    said unused, never dropped (as in edition 2; review r65 L2)."""
    named = args.get("victory_choice") if isinstance(args, dict) else None
    state.facts["victory_choice_used"] = False
    _apply(state, trace, verb, args, scenario, step)
    if not state.facts.pop("victory_choice_used", False):
        trace.unused(
            VICTORY_RULE,
            "victory_choice",
            named,
            "the first player chooses the winner only when two or more players reach 15 power simultaneously, and that "
            "did not happen in this step",
            "agot1-rules/power-and-victory",
        )


def _apply(state: State, trace: Trace, verb: str, args: Any, scenario: Scenario, step: dict[str, Any]) -> None:
    path = scenario.path
    args = args if args is not None else {}
    if verb == "note":
        return
    if verb == "phase":
        name = args if isinstance(args, str) else args.get("name")
        options = args if isinstance(args, dict) else {}
        if name == "plot" and state.phase != "plot" and not state.ended("round"):
            # the plot phase begins a round (Round Sequence): the last round ends first, with its phase, as an
            # end_round step would end them (review r78 H2: its Limited card and 'until the end of the round' effects)
            phases.end_round(state, trace, f"no end_round step ended it: a new round begins with the {name} phase")
        elif name != state.phase and not state.ended("phase"):
            # a phase ends before the next begins, whether or not the scenario gave an end_phase step: its "until the
            # end of the phase" effects never carry into the next phase (FAQ 2.6)
            why = f"no end_phase step ended it: it ends as the {name} phase begins"
            if state.facts.get("phase_assumed"):
                why = f"the scenario gives no phase, so the {state.phase} phase is assumed; {why}"
            phases.end_phase(state, trace, why)
        else:
            phases.end_turns(state, trace, f"the marshalling phase ends as the {name} phase begins")  # (no end_phase step)
        state.begin_period("phase")  # the new phase (or the same one, begun again, or a new round) has not ended
        state.facts.pop("phase_assumed", None)  # the scenario has now said which phase it is
        state.phase = str(name)
        if name == "plot":
            phases.initiative(state, trace, options.get("first_player"), options.get("random_winner"))
            chosen = {player: str(title) for player, title in (options.get("titles") or {}).items() if player != "__line__"}
            if chosen:
                titles.select(state, trace, chosen)
        elif name == "draw":
            phases.draw_phase(state, trace)
        elif name == "marshalling":
            phases.income(state, trace, options.get("income_cap"), int(options.get("extra_gold", 0)))
        elif name == "dominance":
            state.facts["victory_choice"] = options.get("victory_choice")
            phases.dominance(state, trace, options.get("infamy"))
        elif name == "standing":
            phases.standing(state, trace)
        elif name == "taxation":
            phases.taxation(state, trace)
        elif name != "challenges":
            raise DataError(
                f"{where(path, step)}: unknown phase '{name}' (plot, draw, marshalling, challenges, dominance, standing, taxation)"
            )
        return
    if verb == "end_phase":
        phases.end_phase(state, trace)
        return
    if verb == "end_round":
        phases.end_round(state, trace)
        return
    if verb == "marshal":
        phases.activate(state, trace, args["player"], f"{args['player']} marshals")
        marshal.marshal(state, trace, args["player"], args["card"], args.get("onto"))
        return
    if verb == "put_into_play":
        marshal.put_into_play(state, trace, args["player"], args["card"], args.get("onto"))
        return
    if verb == "draw":
        phases.draw(state, trace, args["player"], int(args.get("count", 1)))
        return
    if verb == "challenge":
        kind = challenge_type(args.get("type"), path, args)
        challenges.declare(state, trace, args["attacker"], kind, args["against"], _names(args.get("attackers")))
        if args.get("stealth"):
            challenges.stealth(state, trace, {k: v for k, v in args["stealth"].items() if k != "__line__"})
        return
    if verb == "redirect":
        titles.redirect(state, trace, args["player"], args.get("to"))
        return
    if verb == "defend":
        if state.challenge is None:
            raise IllegalStep("challenge.defend", "there is no challenge to defend")
        challenges.defend(state, trace, args.get("player") or state.challenge.defender, _names(args.get("defenders")))
        return
    if verb == "resolve":
        listed = ("claim", "discard", "vigilant", "vengeful")  # one name given without a list is a list of one
        args = {**args, **{f: _names(args[f]) for f in listed if f in args}}
        state.facts["pending_saves"] = set(_names(args.get("save")))
        state.facts["victory_choice"] = args.get("victory_choice")
        challenges.resolve(state, trace, args)
        return
    if verb == "effect":
        effect(state, trace, args, path)
        return
    raise DataError(f"{where(path, step)}: unknown step '{verb}'")


def effect(state: State, trace: Trace, args: dict[str, Any], path: Path) -> None:
    """One explicit effect: STR, keywords, icons, control, kneel/stand, leave play, cannot, gold/power."""
    if args.get("canceled_by"):
        effects.canceled(state, trace, str(args.get("source") or "the effect"), str(args["canceled_by"]))
        return
    source = args.get("source_type")
    until = UNTIL.get(args.get("until"), None)
    if until is None:
        raise DataError(
            f"{where(path, args)}: field 'until' must be one of end of phase, end of round, challenge, permanent; got {args.get('until')!r}"
        )
    target = args.get("target")
    for key in _names(target):
        effects.check_immunity(state, trace, key, source)
    if "str" in args:
        for key in _names(target):
            effects.add_lasting(state, trace, Lasting(key, "str", int(args["str"]), until, args.get("source", "")))
    for kind in ("gain", "lose"):
        if kind in args:
            for key in _names(target):
                effects.add_lasting(state, trace, Lasting(key, f"{kind} keyword", str(args[kind]).lower(), until))
        if f"{kind}_icon" in args:
            for key in _names(target):
                effects.add_lasting(state, trace, Lasting(key, f"{kind} icon", str(args[f"{kind}_icon"]).lower(), until))
    if "take_control" in args:
        for key in _names(args["take_control"]):
            effects.check_immunity(state, trace, key, source)
            control.take_control(state, trace, args["player"], key, until)
    for key in _names(args.get("kneel")):
        effects.kneel_stand(state, trace, key, True)
    for key in _names(args.get("stand")):
        effects.kneel_stand(state, trace, key, False)
    if "cannot" in args:
        for key in _names(target):
            effects.add_cannot(state, trace, key, str(args["cannot"]), until, str(args.get("source", "")))
    saves = set(_names(args.get("save")))
    for how in LEAVE:
        for key in _names(args.get(how)):
            effects.check_immunity(state, trace, key, source)
            leaving.remove(state, trace, key, how, bool(args.get("cannot_be_saved")), key in saves)
    for player, amount in (args.get("gold") or {}).items():
        if player != "__line__":
            effects.change_gold(state, trace, player, int(amount))
    gains = [(p, int(a)) for p, a in (args.get("power") or {}).items() if p != "__line__"]
    for player, amount in gains:  # all at once, then one victory check: reaching 15 together is simultaneous
        trace.add("victory", f"{player} claims {amount} power")
        challenges.give_power(state, trace, player, amount, args.get("infamy"))
    if gains:
        state.facts["victory_choice"] = args.get("victory_choice")
        victory.check(state, trace)
