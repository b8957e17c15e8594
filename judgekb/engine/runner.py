"""Run a scenario: feed its steps through the rules, record the trace, check what the judge expects."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from judgekb.engine.registry import IllegalStep, Trace
from judgekb.engine.rules import challenges, control, effects, leaving, marshal, phases, titles, victory
from judgekb.engine.state import Lasting, State
from judgekb.scenario import Scenario, challenge_type
from judgekb.yamlio import DataError, where

UNTIL = {
    "end of phase": "phase",
    "phase": "phase",
    "end of the phase": "phase",
    "end of round": "round",
    "round": "round",
    "end of the round": "round",
    "challenge": "challenge",
    "end of challenge": "challenge",
    "permanent": "permanent",
    None: "permanent",
}
LEAVE = ("kill", "discard", "return_to_hand", "return_to_deck")


@dataclass
class Ruling:
    scenario: Scenario
    trace: Trace
    state: State
    checks: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c["passed"] for c in self.checks)

    def summary(self) -> list[str]:
        lines = []
        for result in self.state.results:
            if result.get("ended_without_resolution"):
                lines.append(f"{result['type']} challenge by {result['attacker']} against {result['defender']}: ended without resolution")
            else:
                lines.append(
                    f"{result['type']} challenge by {result['attacker']} against {result['defender']}: "
                    f"{result['winner'] or 'no one'} wins ({result['attack']}–{result['defence']})"
                    + (", unopposed" if result.get("unopposed") else "")
                )
        refused = [e for e in self.trace.entries if e.outcome == "refused" and e.rule != "cannot.absolute"]
        for entry in refused:
            lines.append(f"step {entry.step} refused: {entry.text}")
        choices = [e for e in self.trace.entries if e.outcome == "choice-needed"]
        for entry in choices:
            lines.append(f"step {entry.step}: {entry.text}")
        if self.state.winner:
            lines.append(f"{self.state.winner} wins the game")
        return lines

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": str(self.scenario.path),
            "title": self.scenario.title,
            "passed": self.passed,
            "ruling": self.summary(),
            "trace": self.trace.as_json(),
            "expectations": self.checks,
            "power": {p: self.state.total_power(p) for p in self.state.players},
        }


def load_titles(corpus: Path) -> dict[str, dict[str, Any]]:
    return (yaml.safe_load((corpus / "titles.yaml").read_text(encoding="utf-8")) or {}).get("titles", {})


def run(scenario: Scenario, title_data: dict[str, dict[str, Any]], deadline: float | None = None) -> Ruling:
    """Run every step; ``deadline`` (a time.monotonic() value) bounds the run time."""
    state = copy.deepcopy(scenario.state)
    state.title_data = title_data
    trace = Trace()
    for number, step in enumerate(scenario.steps, 1):
        trace.step = number
        if deadline is not None and time.monotonic() > deadline:
            raise DataError(f"{scenario.path}: the scenario took too long to run (stopped at step {number})")
        verb = next(k for k in step if k != "__line__")
        before, logged = copy.deepcopy(state), len(trace.entries)
        try:
            apply(state, trace, verb, step[verb], scenario, step)
        except IllegalStep as exc:  # a refused step changes nothing: restore the board, keep the reason
            state = before
            del trace.entries[logged:]
            trace.add(exc.rule_id, f"illegal: {exc.reason}", "refused", line=step.get("__line__"))
    ruling = Ruling(scenario, trace, state)
    ruling.checks = check(scenario, ruling)
    return ruling


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in value if v != "__line__"]


def apply(state: State, trace: Trace, verb: str, args: Any, scenario: Scenario, step: dict[str, Any]) -> None:
    """Dispatch one scenario step to the rule functions."""
    path = scenario.path
    args = args if args is not None else {}
    if verb == "note":
        return
    if verb == "phase":
        name = args if isinstance(args, str) else args.get("name")
        options = args if isinstance(args, dict) else {}
        state.phase = str(name)
        if name == "plot":
            phases.initiative(state, trace, options.get("first_player"), options.get("random_winner"))
            for player, title in (options.get("titles") or {}).items():
                if player != "__line__":
                    state.players[player].title = title
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
            effects.add_cannot(state, trace, key, str(args["cannot"]))
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
        challenges.give_power(state, trace, player, amount, args.get("infamy"))
        trace.add("victory", f"{player} claims {amount} power")
    if gains:
        state.facts["victory_choice"] = args.get("victory_choice")
        victory.check(state, trace)


# ---------------------------------------------------------------- expectations


def check(scenario: Scenario, ruling: Ruling) -> list[dict[str, Any]]:
    """Compare what the judge expects with the final board; one record per expectation."""
    state, expect = ruling.state, scenario.expect
    out: list[dict[str, Any]] = []

    def record(what: str, expected: Any, actual: Any) -> None:
        out.append({"expect": what, "expected": expected, "actual": actual, "passed": expected == actual})

    last = state.results[-1] if state.results else {}
    if "challenge_winner" in expect:
        record("challenge_winner", expect["challenge_winner"], last.get("winner") or "none")
    for index, wanted in enumerate(expect.get("challenges") or []):
        got = state.results[index] if index < len(state.results) else {}
        for key, value in wanted.items():
            if key != "__line__":
                record(f"challenges[{index + 1}].{key}", value, got.get(key) if got.get(key) is not None else "none")
    zone_words = {"play": "in_play", "in play": "in_play"}
    for key, zone in _pairs(expect.get("zones")):
        card = state.cards[key]
        actual = "duplicate" if card.duplicate else card.zone
        record(f"zones.{key}", zone_words.get(zone, zone), actual)
    for key, read in PER_NAME.items():
        for name, value in _pairs(expect.get(key)):
            record(f"{key}.{name}", value, read(state, name))
    if "game_winner" in expect:
        record("game_winner", expect["game_winner"], state.winner or "none")
    if "refused" in expect:
        refused = sorted({e.step for e in ruling.trace.entries if e.outcome == "refused" and e.text.startswith("illegal")})
        record("refused", sorted(expect["refused"] or []), refused)
    if "choices_needed" in expect:
        needed = sorted({e.step for e in ruling.trace.entries if e.outcome == "choice-needed"})
        record("choices_needed", sorted(expect["choices_needed"] or []), needed)
    for key in ("initiative", "first_player", "dominance"):
        if key in expect:
            record(key, expect[key], state.facts.get(key, "none"))
    for key, value in _pairs(expect.get("participating")):
        challenge = state.challenge
        actual = bool(challenge and (key in challenge.attackers or key in challenge.defenders))
        record(f"participating.{key}", value, actual)
    for side, value in _pairs(expect.get("total_strength")):
        record(f"total_strength.{side}", value, last.get("attack" if side == "attack" else "defence"))
    return out


# expectations of the form {name: value}: what to read off the final board for each name
PER_NAME: dict[str, Any] = {
    "power": lambda state, player: state.total_power(player),
    "house_power": lambda state, player: state.players[player].power,
    "card_power": lambda state, card: state.cards[card].power,
    "gold": lambda state, player: state.players[player].gold,
    "strength": lambda state, card: state.strength(state.cards[card]),
    "kneeling": lambda state, card: state.cards[card].kneeling,
    "controller": lambda state, card: state.cards[card].controller,
    "attached_to": lambda state, card: state.cards[card].attached_to,
    "at_command": lambda state, player: marshal.at_command(state, player),
}


def _pairs(mapping: Any) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in (mapping or {}).items() if k != "__line__"]
