"""The round's framework: initiative, draw, income, dominance, standing, taxation, phase ends."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot1 import RULES, rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import State
from judgekb.engine.core.trace import Trace
from judgekb.engine.core.turns import turns_until

CHOOSE = "agot1-rules/plot-step-1-choose-and-reveal"  # "The player who wins initiative chooses who will act first"


@rule(
    "phase.initiative",
    [CHOOSE, "agot1-rules/initiative-bonuses"],
    "highest total initiative wins; ties go to the least claimed power, then random; the winner picks the first player",
)
def initiative(state: State, trace: Trace, chooses: str | None, random_winner: str | None) -> str:
    bonuses = {name: [c for c in state.in_play(name) if c.initiative] for name in state.players}
    totals = {name: p.plot.initiative + sum(c.initiative for c in bonuses[name]) for name, p in state.players.items()}
    best = max(totals.values())
    tied = [n for n, v in totals.items() if v == best]

    def said(name: str) -> str:
        parts = [f"{c.key} {c.initiative:+d}" + (", kneeling" if c.kneeling else "") for c in bonuses[name]]
        return f"{name} {totals[name]}" + (f" (plot {state.players[name].plot.initiative}; {'; '.join(parts)})" if parts else "")

    text = "initiative: " + ", ".join(said(n) for n in totals)
    if len(tied) > 1:
        power = {n: state.claimed_power(n) for n in tied}
        least = min(power.values())
        tied = [n for n in tied if power[n] == least]
        text += f"; tied, so the tied player with the least claimed power wins ({', '.join(f'{n} {power[n]}' for n in power)})"
    if len(tied) > 1:
        if random_winner not in tied:
            trace.add(
                "phase.initiative",
                text + f"; still tied between {', '.join(tied)}: the winner must be determined randomly (state random_winner)",
                "choice-needed",
                cite=[CHOOSE],
            )
            winner = tied[0]
        else:
            winner = random_winner
            text += f"; still tied, {winner} wins the random determination"
    else:
        winner = tied[0]
    by_cards = any(bonuses.values())  # (Initiative Bonuses: "raise the initiative value on your revealed plot, even when kneeling")
    trace.add(
        "phase.initiative",
        text + f"; {winner} wins initiative",
        cite=[CHOOSE] + (["agot1-rules/initiative-bonuses"] if by_cards else []),
    )
    state.facts["initiative"] = winner
    if chooses is None:  # the winner's choice is asked for, never assumed
        trace.add(
            "phase.initiative",
            f"a choice is needed: {winner} chooses which player is the first player (state first_player)",
            "choice-needed",
            cite=[CHOOSE],
        )
        return winner
    if chooses not in state.players:
        raise IllegalStep("phase.initiative", f"{chooses} is not a player", cite=[CHOOSE])
    state.first_player = chooses
    state.facts["first_player"] = chooses
    # Plot Step 1 alone decides it: "The player who wins initiative chooses who will act first"
    trace.add("phase.initiative", f"{winner} chooses {chooses} to be the first player", cite=[CHOOSE])
    return winner


@rule(
    "phase.draw",
    ["agot1-rules/phase-2-draw", "agot1-rules/master-of-laws"],
    "each player draws 2 cards; the Master of Laws draws 1 more, outside the draw cap",
)
def draw_phase(state: State, trace: Trace) -> None:
    for name in state.player_order():
        extra = state.title_data.get(state.players[name].title or "", {}).get("extra_draw", 0)
        drawn = _draw(state, name, 2 + extra)
        if not drawn and name not in state.facts.get("decks_stated", []):  # (scenario.py: `deck: []` included)
            _deck_unstated(trace, name)
            continue
        trace.add(
            "phase.draw",
            f"{name} draws {len(drawn)} card(s) in the draw phase"
            + (" (one more for the Master of Laws)" if extra else "")
            + (" — the deck ran out" if len(drawn) < 2 + extra else ""),
            cite=["agot1-rules/phase-2-draw"] + (["agot1-rules/master-of-laws"] if extra else []),
        )


RULES.add(
    "deck.unstated",
    [],
    "a House deck the scenario leaves out is unknown, not empty: drawing from it is not said to run out (the engine's "
    "reading of a scenario)",
)


def _deck_unstated(trace: Trace, player: str) -> None:
    """The draw from a House deck the scenario does not give: unknown, so nothing is said to have run out (r70 M4:
    "the deck ran out" for a deck the builder calls unknown)."""
    trace.add(
        "deck.unstated",
        f"{player} draws no card here: the scenario gives no House deck for {player}; a deck it leaves out is unknown, "
        "not empty, so it is not said to run out (a scenario gives an empty deck as 'deck: []') — no document in the "
        "corpus states this: it is how the engine reads a scenario",
        "not-applied",
        tag="deck not given",
        subject=player,
    )


def _draw(state: State, player: str, count: int) -> list[str]:
    drawn = state.deck(player)[:count]  # from the top
    for card in drawn:
        card.zone = "hand"
    return [c.key for c in drawn]


@rule(
    "draw.cap",
    ["agot1-faq/draw-cap", "agot1-faq/1.1", "agot1-rules/the-draw-cap", "agot1-faq/qa/draw-3-after-drawing"],
    "no player may draw more than 3 additional cards per round; cards are drawn one at a time up to the cap",
)
def draw(state: State, trace: Trace, player: str, count: int) -> None:
    p = state.players[player]
    allowed = max(0, 3 - p.extra_draws_this_round)
    taken = min(count, allowed)
    drawn = _draw(state, player, taken)
    p.extra_draws_this_round += len(drawn)
    text = f"{player} draws {len(drawn)} card(s) ({p.extra_draws_this_round} of 3 additional draws this round)"
    if taken < count:
        text += f"; the draw cap stops the other {count - taken}"
    trace.add(
        "draw.cap",
        text,
        cite=["agot1-rules/the-draw-cap", "agot1-faq/draw-cap"] + (["agot1-faq/qa/draw-3-after-drawing"] if taken < count else []),
    )


@rule(
    "phase.income",
    [
        "agot1-rules/phase-3-marshalling",
        "agot1-rules/master-of-coin",
        "agot1-faq/qa/heavy-taxes-black-raven",
        "agot1-faq/qa/income-locations-lost-before-marshalling",
        "agot1-faq/qa/kneeling-location-income",
    ],
    "income is the plot's income plus income bonuses (Master of Coin +2), counted by each player at the beginning of "
    "his or her own turn to marshal, the first player first, then the next player in turn",
)
def income(state: State, trace: Trace, cap: int | None, extra: int) -> None:
    """The marshalling phase begins: the first player is the active player and counts income; each other player counts
    when his or her turn comes (FAQ: "Income is counted at the beginning of each 'Active Player's' portion")."""
    state.facts["income_collected"] = []
    state.facts["income_terms"] = (cap, extra)
    order = state.player_order()
    if order:
        _count_income(state, trace, order[0], "the first player, is the active player first and")


def activate(state: State, trace: Trace, player: str | None, why: str) -> None:
    """Players take their marshalling turns in order, each counting income as the turn begins: every player before
    ``player`` (or, with None, every player left: the phase ends) whose turn has not come yet takes it now."""
    if state.phase != "marshalling" or "income_collected" not in state.facts:
        return
    collected: list[str] = state.facts["income_collected"]
    coming = turns_until(state.player_order(), collected, player)
    if coming is None:
        raise IllegalStep(
            "phase.income",
            f"{player} has already had a marshalling turn this phase and {collected[-1]} is the active player now: "
            "only the active player marshals cards",
            cite=["agot1-rules/phase-3-marshalling"],
        )
    for name in coming:
        active = collected[-1] if collected else None
        trace.add(
            "phase.income",
            (f"{active}'s marshalling turn is over" if active else "no player has been active yet")
            + f" ({why}): it is {name}'s turn, and {name} counts income now, not when the phase began",
            cite=["agot1-rules/phase-3-marshalling", "agot1-faq/qa/income-locations-lost-before-marshalling"],
        )
        _count_income(state, trace, name, "")


def end_turns(state: State, trace: Trace, why: str) -> None:
    """The marshalling phase ends (an end_phase step, or the next phase begun without one): every player whose turn has
    not come takes it now, counting income, and the turns are over."""
    activate(state, trace, None, why)
    state.facts.pop("income_collected", None)


def _count_income(state: State, trace: Trace, name: str, lead: str) -> None:
    cap, extra = state.facts.get("income_terms") or (None, 0)
    p = state.players[name]
    locations = state.in_play(name)
    bonus = sum(c.income for c in locations)
    kneeling = [c.key for c in locations if c.income and c.kneeling]
    coin = state.title_data.get(p.title or "", {}).get("extra_income", 0)
    counted = p.plot.income + bonus + coin
    text = (
        f"{name}" + (f", {lead}" if lead else "") + f" counts income: plot {p.plot.income} + bonuses {bonus}"
        + (f" ({', '.join(kneeling)} kneeling: its bonus counts all the same)" if kneeling else "")
        + (f" + Master of Coin {coin}" if coin else "")
    )
    total = counted
    if cap is not None and counted > cap:
        total = cap
        text += f" = {counted}, more than {cap}: the rest is disregarded"
    if extra:
        total += extra
        text += f"; then takes {extra} additional gold token(s) from the treasury"
    p.gold += total
    state.facts.setdefault("income_collected", []).append(name)
    cite = ["agot1-rules/phase-3-marshalling"] + (["agot1-rules/master-of-coin"] if coin else [])
    cite += ["agot1-faq/qa/kneeling-location-income"] if kneeling else []
    cite += ["agot1-faq/qa/heavy-taxes-black-raven"] if cap is not None or extra else []
    trace.add("phase.income", text + f" → {total} gold (gold pool {p.gold})", cite=cite)


@rule(
    "phase.dominance",
    ["agot1-rules/phase-5-dominance", "agot1-faq/qa/dominance-tie"],
    "standing characters' STR plus 1 per gold; the highest claims 1 power; a tie means no one wins dominance",
)
def dominance(state: State, trace: Trace, infamy: dict[str, str] | None = None) -> str | None:
    totals = {}
    for name, p in state.players.items():
        standing = sum(state.strength(c) for c in state.in_play(name, "character") if not c.kneeling)
        totals[name] = standing + p.gold
    best = max(totals.values())
    tied = [n for n, v in totals.items() if v == best]
    text = "dominance: " + ", ".join(f"{n} {v} (standing STR + {state.players[n].gold} gold)" for n, v in totals.items())
    if len(tied) > 1:
        trace.add("phase.dominance", text + "; tied for the highest: no one wins dominance and no power is claimed")  # both decide
        state.facts["dominance"] = "none"
        return None
    winner = tied[0]
    from judgekb.engine.agot1.challenges import give_power
    from judgekb.engine.agot1.victory import check

    trace.add("phase.dominance", text + f"; {winner} wins dominance and claims 1 power", cite=["agot1-rules/phase-5-dominance"])
    give_power(state, trace, winner, 1, (infamy or {}).get(winner))
    state.facts["dominance"] = winner
    check(state, trace)
    return winner


@rule("phase.standing", ["agot1-rules/phase-6-standing"], "all kneeling cards stand")
def standing(state: State, trace: Trace) -> None:
    for card in state.cards.values():
        if card.zone == "in_play":
            card.kneeling = False
    trace.add("phase.standing", "all players stand their kneeling characters, locations and attachments")


@rule("phase.taxation", ["agot1-rules/phase-7-taxation"], "unspent gold returns to the treasury; titles return")
def taxation(state: State, trace: Trace) -> None:
    for p in state.players.values():
        p.gold = 0
    trace.add("phase.taxation", "all unspent gold returns to the treasury")


@rule("phase.end", ["agot1-faq/2.6"], "'until the end of the phase' lasting effects expire when the phase ends")
def end_phase(state: State, trace: Trace, why: str = "") -> None:
    """The phase ends (an end_phase or end_round step, or a phase step into the next phase: ``why`` says so)."""
    from judgekb.engine.agot1.challenges import end_challenge
    from judgekb.engine.agot1.effects import expire

    end_turns(state, trace, "the marshalling phase ends, and no marshalling step is given for the players left")
    if state.phase == "challenges":  # the Challenges Phase flowchart: the phase ends after the last player's challenges
        end_challenge(state, trace, "the challenges phase ends", ["agot1-faq/timing/chart-challenges-phase"])
    expire(state, trace, "phase")
    for p in state.players.values():
        p.copies_this_phase.clear()
        if state.phase == "challenges":  # Phase 4: "During a player's challenges phase, he may initiate one military,
            p.challenges_this_round = []  # one intrigue, and one power challenge" — a count per challenges phase
    state.challenge = None
    state.end_periods("phase")  # a phase step that follows begins the next phase without ending this one again
    said = f" ({why})" if why else ""
    trace.add("phase.end", f"the {state.phase} phase ends{said}; 'until the end of the phase' effects expire", cite=["agot1-faq/2.6"])


@rule(
    "round.end",
    ["agot1-rules/limited", "agot1-rules/the-draw-cap", "agot1-rules/round-sequence"],
    "per-round limits (Limited, the draw cap) reset when the round ends",
)
def end_round(state: State, trace: Trace, why: str = "") -> None:
    """The round ends (an end_round step, or a plot phase begun without one: ``why`` says so, citing Round Sequence,
    the seven phases in order, a round beginning with the plot phase); its phase ends first unless it has ended."""
    from judgekb.engine.agot1.effects import expire

    if why:
        trace.add("round.end", f"the round ends ({why})", cite=["agot1-rules/round-sequence"])
    if not state.ended("phase"):
        end_phase(state, trace)
    expire(state, trace, "round")
    trace.add(
        "round.end",
        "the round ended: the one Limited card per round and the 3 additional draws per round (the draw cap) reset",
        cite=["agot1-rules/limited", "agot1-rules/the-draw-cap"],
    )
    for p in state.players.values():
        p.limited_this_round = 0
        p.extra_draws_this_round = 0
        p.challenges_this_round = []
        p.opposes_claimed_this_round = False
        p.redirect_used_this_round = False
    state.round += 1
    state.end_periods("round")  # a plot phase step that follows begins the round without ending one again


PHASES: dict[str, Any] = {}
