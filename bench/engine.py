"""Engine benchmark, both editions: each scenario library, then random legal challenges, with invariants on every run.

    python bench/engine.py [--challenges 10000] [--seed 7]

Invariants checked after every scenario and every generated challenge:
  * power moves only between the power pool and cards (House cards included): the power in the
    game equals the starting power plus what was claimed from the pool minus what returned to it;
  * no card is in two places: every card has one zone, attached cards sit on a card in play,
    and no character both attacks and defends;
  * STR is never negative.
Prints scenarios per second and challenges per second; the baseline in the same run is the cost
of copying the board alone (what every step pays to make refusals side-effect free).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.engine.agot1 import RULES, challenges  # noqa: E402
from judgekb.engine.agot2 import challenges as challenges2  # noqa: E402
from judgekb.engine.agot2 import ruleset as ruleset2  # noqa: E402
from judgekb.engine.agot2.windows import Context  # noqa: E402
from judgekb.engine.core import runner  # noqa: E402
from judgekb.engine.core.registry import IllegalStep  # noqa: E402
from judgekb.engine.core.state import CHALLENGE_TYPES, ZONES, Card, Player, Plot, State  # noqa: E402
from judgekb.engine.core.trace import Trace  # noqa: E402
from judgekb.engine.scenario import load_scenario  # noqa: E402
from judgekb.yamlio import DataError  # noqa: E402

KEYWORDS = ["stealth", "renown", "deadly", "intimidate", "vigilant", "vengeful", "stalwart", "deathbound", "infamy"]
KEYWORDS2 = ["stealth", "renown", "insight", "intimidate", "pillage"]


def check_invariants(state: State, start_power: int) -> list[str]:
    problems = []
    expected = start_power + state.facts.get("from_pool", 0) - state.facts.get("to_pool", 0)
    if state.power_in_game() != expected:
        problems.append(f"power in game {state.power_in_game()} != start {start_power} + claimed - returned = {expected}")
    for card in state.cards.values():
        if card.zone not in ZONES:
            problems.append(f"{card.key} is in an unknown zone {card.zone!r}")
        if card.attached_to:
            host = state.cards.get(card.attached_to)
            if host is None or host.zone != "in_play" or card.zone != "in_play":
                problems.append(f"{card.key} is attached to {card.attached_to}, which is not in play with it")
        if state.strength(card) < 0:
            problems.append(f"{card.key} has negative STR")
        if card.power < 0:
            problems.append(f"{card.key} has negative power")
    for player in state.players.values():
        if player.power < 0:
            problems.append(f"{player.name}'s House has negative power")
    challenge = state.challenge
    if challenge and set(challenge.attackers) & set(challenge.defenders):
        problems.append("a character both attacks and defends")
    return problems


def random_board(rng: random.Random, keywords: list[str] = KEYWORDS) -> State:
    players = {
        name: Player(
            name,
            house,
            Plot(income=rng.randint(3, 6), initiative=rng.randint(0, 3), claim=rng.randint(1, 3)),
            gold=rng.randint(0, 5),
            power=rng.randint(0, 8),
        )
        for name, house in (("Attacker", "Lannister"), ("Defender", "Stark"))
    }
    cards: dict[str, Card] = {}
    for owner in players:
        for index in range(rng.randint(1, 6)):
            key = f"{owner[0]}{index}"
            icons = {t for t in CHALLENGE_TYPES if rng.random() < 0.55} or {rng.choice(CHALLENGE_TYPES)}
            cards[key] = Card(
                key,
                key,
                "character",
                owner,
                owner,
                "in_play",
                strength=rng.randint(0, 6),
                icons=icons,
                keywords={k for k in keywords if rng.random() < 0.12},
                kneeling=rng.random() < 0.2,
                power=rng.randint(0, 2),
            )
        for index in range(rng.randint(0, 4)):
            key = f"{owner[0]}h{index}"
            cards[key] = Card(key, key, "event", owner, owner, "hand")
        for index in range(3):
            key = f"{owner[0]}d{index}"
            cards[key] = Card(key, key, "character", owner, owner, "deck")
    return State(players=players, cards=cards, first_player="Attacker")


def random_challenge(rng: random.Random, state: State, trace: Trace) -> bool:
    kind = rng.choice(CHALLENGE_TYPES)
    ready = [c.key for c in state.in_play("Attacker", "character") if not c.kneeling and kind in state.icons(c)]
    if not ready:
        return False
    attackers = rng.sample(ready, rng.randint(1, len(ready)))
    challenges.declare(state, trace, "Attacker", kind, "Defender", attackers)
    targets = [c.key for c in state.in_play("Defender", "character") if "stealth" not in state.keywords(c)]
    choices = {a: rng.choice(targets) for a in attackers if "stealth" in state.keywords(state.cards[a]) and targets and rng.random() < 0.7}
    if choices:
        challenges.stealth(state, trace, choices)
    able = [
        c.key
        for c in state.in_play("Defender", "character")
        if not c.kneeling and kind in state.icons(c) and c.key not in state.challenge.stealth.values()
    ]
    challenges.defend(state, trace, "Defender", rng.sample(able, rng.randint(0, len(able))) if able else [])
    claim = state.players["Attacker"].plot.claim
    characters = [c.key for c in state.in_play("Defender", "character")]
    hand = [c.key for c in state.zone("Defender", "hand")]
    defenders = list(state.challenge.defenders)
    claimed = rng.sample(characters, min(claim, len(characters))) if kind == "military" else rng.sample(hand, min(claim, len(hand)))
    challenges.resolve(
        state,
        trace,
        {
            "claim": claimed,
            "discard": rng.sample(hand, min(claim, len(hand))),
            "deadly": next((d for d in defenders if d not in claimed), None),
        },
    )
    return True


def random_challenge2(rng: random.Random, state: State, trace: Trace) -> bool:
    """The same random challenge through the second-edition rules (D.U.C.K.)."""
    ctx = Context()
    ctx.apply_effect = ruleset2.effect
    kind = rng.choice(CHALLENGE_TYPES)
    ready = [c.key for c in state.in_play("Attacker", "character") if not c.kneeling and kind in state.icons(c)]
    if not ready:
        return False
    attackers = rng.sample(ready, rng.randint(1, len(ready)))
    targets = [c.key for c in state.in_play("Defender", "character") if "stealth" not in state.keywords(c)]
    stealth = {a: rng.choice(targets) for a in attackers if "stealth" in state.keywords(state.cards[a]) and targets and rng.random() < 0.7}
    challenges2.declare(state, trace, ctx, "Attacker", kind, "Defender", attackers, stealth)
    able = [
        c.key
        for c in state.in_play("Defender", "character")
        if not c.kneeling and kind in state.icons(c) and c.key not in state.challenge.stealth.values()
    ]
    challenges2.defend(state, trace, ctx, "Defender", rng.sample(able, rng.randint(0, len(able))) if able else [])
    claim = state.players["Attacker"].plot.claim
    characters = [c.key for c in state.in_play("Defender", "character")]
    hand = [c.key for c in state.zone("Defender", "hand")]
    choices = {"keyword_order": rng.sample(["renown", "insight", "intimidate", "pillage"], 4)}
    if kind == "military" and rng.random() < 0.8:
        choices["claim"] = rng.sample(characters, min(claim, len(characters)))
    if kind == "intrigue" and rng.random() < 0.8:
        choices["discard"] = rng.sample(hand, min(claim, len(hand)))
    challenges2.resolve(state, trace, ctx, choices)
    return True


def library(edition: int, files: list[Path], titles: dict) -> int:
    """Run one edition's library five times; print scenarios per second; return invariant violations."""
    scenarios, malformed = [], 0
    for f in files:
        try:
            scenario = load_scenario(f)
        except DataError:
            malformed += 1
            continue
        if scenario.edition == edition:
            scenarios.append(scenario)
    violations = 0
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        for scenario in scenarios:
            try:
                ruling = runner.run(scenario, titles)
            except DataError:
                continue
            found = check_invariants(ruling.state, scenario.state.power_in_game())
            violations += len(found)
            for problem in found if not timings else ():  # (a README review had to find the files by hand)
                print(f"  invariant violated in {scenario.path.name}: {problem}")
        timings.append(time.perf_counter() - start)
    per_second = len(scenarios) / statistics.median(timings)
    passed = 0
    for scenario in scenarios:
        try:
            passed += runner.run(scenario, titles).passed
        except DataError:
            pass
    print(
        f"edition {edition} scenario library: {len(scenarios)} scenarios, {passed} passed"
        + (f", {malformed} malformed files skipped" if malformed else "")
        + f"; {per_second:,.0f} scenarios/s (median of 5 passes); invariant violations: {violations}"
    )
    return violations


def challenges_run(edition: int, count: int, seed: int) -> list[str]:
    """Random legal challenges through one edition's rules, beside the same-run board-copy baseline."""
    rng = random.Random(seed)
    done = refused = 0
    problems: list[str] = []
    copy_time = 0.0
    copies = 0
    start = time.perf_counter()
    while done < count:
        state = random_board(rng, KEYWORDS if edition == 1 else KEYWORDS2)
        trace = Trace(RULES if edition == 1 else ruleset2.RULES)
        power = state.power_in_game()
        if copies < 1000:  # baseline: the per-step board copy the runner pays so refusals change nothing
            c0 = time.perf_counter()
            copy.deepcopy(state)
            copy_time += time.perf_counter() - c0
            copies += 1
        try:
            if not (random_challenge if edition == 1 else random_challenge2)(rng, state, trace):
                continue
        except IllegalStep as exc:  # a generated step the rules refuse (e.g. a claim choice the rules forbid)
            refused += 1
            problems.append(f"generated illegal step: {exc.reason}")
        done += 1
        for problem in check_invariants(state, power):
            problems.append(problem)
    elapsed = time.perf_counter() - start
    print(
        f"edition {edition} random challenges: {done:,} in {elapsed:.2f} s = {done / elapsed:,.0f} challenges/s "
        f"({done / elapsed / (copies / copy_time):.2f}× the baseline); baseline, copying a board alone: "
        f"{copies / copy_time:,.0f} copies/s; refused by the rules: {refused}; invariant violations: {len(problems)}"
    )
    for problem in problems[:10]:
        print(f"  {problem}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--challenges", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    titles = runner.load_titles(default_corpus())
    violations = library(1, sorted((ROOT / "scenarios").glob("*.yaml")), titles)
    violations += library(2, sorted((ROOT / "scenarios" / "agot2").glob("*.yaml")), titles)
    problems = challenges_run(1, args.challenges, args.seed) + challenges_run(2, args.challenges, args.seed)
    if violations or problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
