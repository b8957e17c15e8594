"""Winning: 15 power, and who wins when several players reach it at once."""

from __future__ import annotations

from judgekb.engine.agot1 import rule
from judgekb.engine.core.state import State
from judgekb.engine.core.trace import Trace

VICTORY = 15


@rule(
    "victory",
    ["agot1-rules/power-and-victory"],
    "the game ends when a player has 15 or more power; if several reach it at once, the first player chooses the winner",
)
def check(state: State, trace: Trace) -> str | None:
    if state.winner:
        return state.winner
    reached = [p for p in state.player_order() if state.total_power(p) >= VICTORY]
    if not reached:
        return None
    if len(reached) == 1:
        state.winner = reached[0]
        trace.add("victory", f"{reached[0]} has {state.total_power(reached[0])} power: the game is over and {reached[0]} wins")
    else:
        chooser = state.first_player
        state.facts["victory_choice_used"] = True  # (a step's victory_choice is said unused otherwise)
        choice = state.facts.get("victory_choice")
        state.winner = choice if choice in reached else None
        trace.add(
            "victory",
            f"{', '.join(reached)} reach 15 power at the same time: the first player, {chooser}, "
            "chooses which of them wins" + (f" — {choice}" if state.winner else " (state victory_choice)"),
            "applied" if state.winner else "choice-needed",
        )
    return state.winner
