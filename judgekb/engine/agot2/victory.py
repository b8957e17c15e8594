"""Power and victory (second edition): power totals, gaining and moving power, winning at 15 power, elimination
(a deck run out), conceding and passing the first player token."""

from __future__ import annotations

from judgekb.engine.agot2 import RULES, rule
from judgekb.engine.agot2.constants import constants
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, State
from judgekb.engine.core.trace import Trace

VICTORY = 15


def total_power(state: State, player: str) -> int:
    """FAQ 1.4: a player's power total counts the power on every card he or she controls (his or her title too: A Cask
    of Ale Q&A, a melee title is in play under its bearer's control)."""
    return state.players[player].power + state.players[player].title_power + sum(
        c.power for c in state.cards.values() if c.zone in ("in_play", "revealed") and c.controller == player
    )


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
