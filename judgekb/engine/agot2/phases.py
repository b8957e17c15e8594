"""The round's framework (second edition): plot and initiative, draw, income, dominance, standing,
taxation and reserve, and the end of a challenge, phase or round."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot2 import RULES, rule, titles
from judgekb.engine.agot2.constants import can_be
from judgekb.engine.agot2.leaving import ZONE_SAID, check_terminal, effect_said, revert_control
from judgekb.engine.agot2.victory import check_elimination, deck_counts, deck_stated, gain_power, remaining, total_power
from judgekb.engine.agot2.windows import Context, interrupts, queue_reactions, run_reactions
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Player, State
from judgekb.engine.core.steps import named_twice
from judgekb.engine.core.trace import Trace
from judgekb.engine.core.turns import turns_until
from judgekb.engine.scenario import phase_said2

END = "agot2-faq41/timing/end-of-phase"
ROUND_ENDS = "agot2-rr/appendix-i/taxation-phase/7.5"  # "this step also formalizes the end of the round"
MODIFIERS = "agot2-rr/modifiers"  # "any resultant value below zero is treated as zero"


def _gone(state: State) -> str:
    out = [n for n in state.players if n in state.facts.get("eliminated", [])]
    return f" ({', '.join(out)}: eliminated from the game, so not counted)" if out else ""


@rule(
    "plot.reveal",
    ["agot2-rr/appendix-i/plot-phase/1.3", "agot2-rr/plot-card", "agot2-rr/winning-the-game"],
    "each player reveals a new plot; the previous one goes to the used pile",
)
def reveal(state: State, trace: Trace, reveals: dict[str, str]) -> None:
    for player, name in reveals.items():
        if player not in remaining(state):
            raise IllegalStep(
                "plot.reveal", f"{player} has been eliminated from the game: no plot is revealed", cite=["agot2-rr/winning-the-game"]
            )
        card = state.cards.get(name)
        if card is None or card.type != "plot" or card.owner != player or card.zone != "plot":
            raise IllegalStep(
                "plot.reveal", f"{name} is not a plot card in {player}'s plot deck", cite=["agot2-rr/appendix-i/plot-phase/1.3"]
            )
        p = state.players[player]
        old = p.plot.name
        if old in state.cards and state.cards[old].type == "plot":
            state.cards[old].zone = "used"
        assert card.plot is not None
        if any(w in c for c in state.cannots(card) for w in ("marshal", "played", "put into play")):
            trace.add(
                "plot.not-prevented",
                f"{name} is revealed although it cannot be marshaled, played or put into play: plot cards are none of those",
                tag="not prevented",
                subject=name,
            )
        p.plot = card.plot
        card.zone = "revealed"
        state.facts.setdefault("plot_seq", {})[player] = state.next_seq()
        trace.add(
            "plot.reveal",
            f"{player} reveals {name} (income {card.plot.income}, initiative {card.plot.initiative}, claim "
            f"{card.plot.claim}, reserve {card.plot.reserve})" + (f"; {old} goes to the used pile" if old in state.cards else ""),
            cite=["agot2-rr/appendix-i/plot-phase/1.3", "agot2-rr/plot-card"],  # (Winning the Game decides only a refusal)
            tag="reveal plot",
            subject=player,
        )


@rule(
    "plot.recycle",
    ["agot2-rr/plot-card"],
    "a player who reveals the final card of his or her plot deck returns each plot card in the used pile to the plot deck",
)
def recycle_used(state: State, trace: Trace, players: list[str]) -> None:
    """RR Plot Card: "When a player reveals the final card of his or her plot deck, after all just revealed plot cards
    have entered play and all necessary "When Revealed" abilities have resolved, each plot card in that player's used
    pile is returned to his or her plot deck. The just revealed plot card is not yet in the used pile, and remains
    revealed."  A plot deck the scenario gives is the whole plot deck, as a draw deck is."""
    for player in players:
        mine = [c for c in state.cards.values() if c.type == "plot" and c.owner == player]
        if any(c.zone == "plot" for c in mine):
            continue
        used = sorted((c for c in mine if c.zone == "used"), key=lambda c: c.order)
        if not used:
            continue  # nothing to return
        revealed = next((c.key for c in mine if c.zone == "revealed"), "its plot")
        for card in used:
            card.zone = "plot"
        when = state.players[player].plot.when_revealed
        trace.add(
            "plot.recycle",
            f"{player} revealed {revealed}, the final card of {player}'s plot deck: "
            + ("once its When Revealed ability has resolved, " if when else "")
            + f"each plot card in the used pile ({', '.join(c.key for c in used)}) returns to the plot deck"
            + f"; {revealed}, just revealed, is not in the used pile and remains revealed",
            tag="used pile returns",
            subject=player,
        )


RULES.add("phase.begin", ["agot2-rr/appendix-i/challenges-phase/4.1"], "a phase begins")


@rule(
    "plot.when-revealed",
    ["agot2-rr/appendix-i/plot-phase/1.3", "agot2-rr/when-revealed"],
    "When Revealed abilities on the plots just revealed initiate after the first player is chosen; the first player "
    "orders several",
)
def when_revealed(state: State, trace: Trace, reveals: dict[str, str], first: str | None) -> None:
    """Step 1.3 III: say which When Revealed abilities must now initiate and who orders them (their text is free text:
    the engine does not apply it; a scenario gives their effects as steps)."""
    having = [p for p in state.player_order() if p in reveals and state.players[p].plot.when_revealed]
    if not having:
        return
    texts = "; ".join(f"{p}'s {reveals[p]}: '{state.players[p].plot.when_revealed}'" for p in having)
    if len(having) == 1:
        trace.add(
            "plot.when-revealed",
            f"the When Revealed ability on {texts} must now initiate (its text is not applied by the engine: give its effect "
            f"as a step)",
            cite=["agot2-rr/appendix-i/plot-phase/1.3", "agot2-rr/when-revealed"],
            tag="when revealed",
            subject=having[0],
        )
        return
    trace.add(
        "plot.when-revealed",
        f"{' and '.join(having)} have When Revealed abilities on their plots ({texts}): "
        + (f"the first player, {first}," if first else "the first player, once chosen,")
        + " determines the order in which they initiate, and each resolves before the next initiates (their text is not "
        "applied by the engine: give their effects as steps, in that order)",
        cite=["agot2-rr/appendix-i/plot-phase/1.3"],
        tag="when revealed",
    )


RULES.add(
    "plot.not-prevented", ["agot2-faq41/qa/the-iron-throne-lmhr"], "revealing a plot is not marshaling, playing or putting it into play"
)


@rule(
    "plot.initiative",
    [
        MODIFIERS,
        "agot2-rr/initiative",
        "agot2-rr/first-player",
        "agot2-rr/appendix-i/plot-phase/1.3",
        "agot2-faq41/errata/rules-reference-page-26-column-1-paragraph-9",
        "agot2-rr/winning-the-game",
    ],
    "highest initiative wins; tie: lowest power total; then random; the winner chooses the first player",
)
def initiative(state: State, trace: Trace, chooses: str | None, random_winner: str | None) -> bool:
    """Step 1.3 I and II; False when a choice the scenario does not state (the random pick, the first player) is
    needed, so no first player is chosen this plot phase.  A pick or choice that cannot apply is said, never dropped
    (review r80 M1)."""
    players = remaining(state)
    if chooses is not None and chooses not in players:
        raise IllegalStep(
            "plot.initiative",
            f"{chooses} has been eliminated from the game and cannot be the first player",
            cite=["agot2-rr/winning-the-game"],
        )
    modified = {n: sum(state.modifier(c, "initiative") for c in state.in_play(n)) for n in players}
    raw = {n: state.players[n].plot.initiative + modified[n] for n in players}
    below = {n: v for n, v in raw.items() if v < 0}  # RR Modifiers: "any resultant value below zero is treated as zero"
    totals = {n: max(0, v) for n, v in raw.items()}
    best = max(totals.values())
    tied = [n for n, v in totals.items() if v == best]
    gone = _gone(state)
    text = "initiative: " + ", ".join(f"{n} {v}" for n, v in totals.items()) + gone
    cite = ["agot2-rr/initiative", "agot2-rr/appendix-i/plot-phase/1.3"] + (["agot2-rr/winning-the-game"] if gone else [])
    if any(modified.values()):  # the Rules Reference erratum: initiative incorporates initiative (not reserve) modifiers
        text += " (counting initiative modifiers: " + ", ".join(f"{n} {v:+d}" for n, v in modified.items() if v) + ")"
        cite.append("agot2-faq41/errata/rules-reference-page-26-column-1-paragraph-9")
    if below:
        text += " (" + ", ".join(f"{n}'s {v} is below zero, so counts as 0" for n, v in below.items()) + ")"
        cite.append(MODIFIERS)
    tied_on_initiative = len(tied) > 1
    if tied_on_initiative:
        power = {n: total_power(state, n) for n in tied}
        least = min(power.values())
        tied = [n for n in tied if power[n] == least]
        text += "; tied, so the tied player with the lowest power total wins (" + ", ".join(f"{n} {v}" for n, v in power.items()) + ")"
    if len(tied) > 1:
        if random_winner not in tied:
            trace.add(
                "plot.initiative",
                text + f"; still tied between {', '.join(tied)}: a random method decides (state random_winner)",
                "choice-needed",
                cite=cite,
                tag="choice",
            )
            trace.unused(
                "plot.initiative",
                "random_winner",
                random_winner,
                f"{random_winner} is not one of the tied players ({', '.join(tied)}): the tie is broken by randomly selecting "
                "one of the tied players",
                "agot2-rr/appendix-i/plot-phase/1.3",
            )
            trace.unused(
                "plot.initiative",
                "first_player",
                chooses,
                "no player has won initiative yet (the random pick is needed first), and the first player is chosen by the "
                "player who wins initiative",
                "agot2-rr/appendix-i/plot-phase/1.3",
            )
            return False
        text += f"; still tied: {random_winner} wins the random determination"
        winner = random_winner
    else:
        winner = tied[0]
    state.facts["initiative"] = winner
    trace.add("plot.initiative", text + f"; {winner} wins initiative", cite=cite, tag="initiative", subject=winner)
    if len(tied) == 1:
        trace.unused(
            "plot.initiative",
            "random_winner",
            random_winner,
            ("the lowest power total breaks the tie" if tied_on_initiative else "initiative is not tied")
            + f" ({winner} wins initiative): no random selection is made",
            "agot2-rr/appendix-i/plot-phase/1.3",
        )
    if chooses is None:
        trace.add(
            "plot.initiative",
            f"{winner} chooses which player is the first player (state first_player): not assumed",
            "choice-needed",
            cite=["agot2-rr/first-player"],
            tag="choice",
            subject=winner,
        )
        return False
    state.first_player = chooses
    state.facts["first_player"] = chooses
    trace.add(
        "plot.initiative",
        f"{winner} chooses {chooses} to be the first player",
        cite=["agot2-rr/first-player"],
        tag="first player",
        subject=chooses,
    )
    return True


@rule(
    "draw.phase",
    ["agot2-rr/appendix-i/draw-phase/2.2", "agot2-rr/drawing-cards"],
    "each player simultaneously draws 2 cards from the top of the deck; eliminations follow all the draws",
)
def draw_phase(state: State, trace: Trace) -> None:
    before = deck_counts(state)
    for name in remaining(state, in_order=True):
        extra = draw_phase_bonus(state, name)
        by_title = titles.draw_bonus(state, trace, name)  # the Master of Laws (melee)
        _take(state, trace, name, 2 + extra + by_title, "draw.phase")
        if extra:
            trace.add(
                "draw.bonus",
                f"{name} draws {extra} more in the draw phase's framework draw because of a card effect",
                tag="draw bonus",
                subject=name,
            )
    check_elimination(state, trace, before, draw_phase=True)


MORE_IN_DRAW_PHASE = "more card in the draw phase"


def draw_phase_bonus(state: State, player: str) -> int:
    """Cards such as Time of Plenty: 'each player draws 1 more card in the draw phase' (a revealed plot's constant)."""
    return sum(
        1
        for c in state.cards.values()
        if c.zone in ("revealed", "in_play")
        and any(MORE_IN_DRAW_PHASE in text and ("each player" in text or c.controller == player) for text in c.constant)
    )


RULES.add(
    "draw.bonus",
    ["agot2-faq41/qa/time-of-plenty", "agot2-rr/appendix-i/draw-phase/2.2"],
    "'draws more in the draw phase' modifies only the framework draw of step 2.2, not card effects during the phase",
)


@rule("draw", ["agot2-rr/drawing-cards", "agot2-rr/deck"], "cards are drawn from the top of the deck")
def draw(state: State, trace: Trace, players: str | list[str], count: int, rule_id: str = "draw") -> None:
    """One player draws, or (a list) one effect draws for each of them at once: a deck that runs out is checked once,
    after every one of them drew (all out at once: the first player's choice)."""
    drawing = [players] if isinstance(players, str) else players
    if rule_id == "draw" and state.phase == "draw" and any(draw_phase_bonus(state, p) for p in drawing):
        trace.add(
            "draw.bonus",
            "this draw is a card effect during the draw phase: the 'more cards in the draw phase' effect does not change it",
            cite=["agot2-faq41/qa/time-of-plenty"],
            tag="draw bonus",
            subject=drawing[0] if len(drawing) == 1 else "",
        )
    before = deck_counts(state)
    for player in drawing:
        _take(state, trace, player, count, rule_id)
    check_elimination(state, trace, before)


@rule(
    "each player",
    ["agot2-rr/priority-of-simultaneous-resolution"],
    "an effect on every player resolves simultaneously upon all of them, once every choice is made in player order",
)
def each_player_said(trace: Trace, does: str, source: str | None) -> None:
    trace.add(
        "each player",
        f"{source or 'the effect'} affects every player: each {does}, all at once (any choices are made first, the first "
        "player first, then the others in player order)",
        tag="each player",
    )


def draw_each(state: State, trace: Trace, count: int, source: str | None) -> None:
    """'Each player draws N cards': one effect on every player still in the game, drawn simultaneously."""
    each_player_said(trace, f"draws {count} card(s)", source)
    draw(state, trace, remaining(state, in_order=True), count)


def _take(state: State, trace: Trace, player: str, count: int, rule_id: str) -> None:
    """Move up to ``count`` cards from the top of the deck to the hand, and say so (eliminations are the caller's)."""
    drawn = state.deck(player)[:count]
    for card in drawn:
        card.zone = "hand"
    unstated = not drawn and count and not deck_stated(state, player)
    trace.add(
        rule_id,
        (
            f"{player} draws no card: the scenario gives no draw deck for {player}"
            if unstated
            else f"{player} draws {len(drawn)} card(s) from the top of the deck"
            + (f": {', '.join(c.key for c in drawn)}" if drawn else "")
            + (f" (only {len(drawn)} left)" if len(drawn) < count else "")
        ),
        tag="draw",
        subject=player,
    )
    if unstated:
        trace.add(
            "deck.unstated",
            f"a draw deck the scenario leaves out is unknown, not empty: {player} is not eliminated "
            f"(a scenario gives an empty deck as 'deck: []')",
            "not-applied",
            tag="deck not given",
            subject=player,
        )


@rule(
    "marshaling.income",
    [
        "agot2-rr/appendix-i/marshaling-phase/3.2",
        "agot2-rr/appendix-i/marshaling-phase/3.3",
        "agot2-rr/income",
        "agot2-rr/plot-value-modifiers",
        "agot2-rr/blank",
        MODIFIERS,
    ],
    "the active player collects income: the plot's gold value plus gold modifiers; the first player is the first active "
    "player, then each next player in player order in turn",
)
def income(state: State, trace: Trace) -> None:
    """The marshaling phase begins: the first player is the first active player and collects income (3.2)."""
    state.facts["income_collected"] = []
    order = remaining(state, in_order=True)
    if order:
        collect(state, trace, order[0], "the first player, is the first active player and")


def activate(state: State, trace: Trace, player: str | None, why: str) -> None:
    """Players become the active player in player order (3.3), each collecting income (3.2): every player before
    ``player`` (or, with None, every player left: the phase ends) whose turn has not come yet passes in turn."""
    if state.phase != "marshalling" or "income_collected" not in state.facts:
        return
    collected: list[str] = state.facts["income_collected"]
    coming = turns_until(remaining(state, in_order=True), collected, player)
    if coming is None:
        raise IllegalStep(
            "marshal",
            f"{player} has already been the active player this phase and {collected[-1]} is the active player now: "
            f"only the active player marshals cards",
            cite=["agot2-rr/appendix-i/marshaling-phase/player-action-window"],
        )
    for name in coming:
        active = collected[-1] if collected else None
        trace.add(
            "marshaling.income",
            (f"{active} has finished marshaling" if active else "no player has been active yet")
            + f" ({why}): {name}, the next player in player order, becomes the active player",
            cite=["agot2-rr/appendix-i/marshaling-phase/3.3"],
            tag="active player",
            subject=name,
        )
        collect(state, trace, name, "")


def collect(state: State, trace: Trace, name: str, lead: str) -> None:
    p = state.players[name]
    cards = state.in_play(name)
    bonus = sum(state.modifier(c, "income") for c in cards)
    blank = [c.key for c in cards if c.income and state.blanked(c)]
    base = base_gold(state, name)
    by_title, title_words = titles.income(state, name)  # the Master of Coin's printed +2 Income (melee)
    raw = base + bonus + by_title
    below = raw < 0  # RR Modifiers: a value below zero is treated as zero (no gold is lost)
    p.gold += max(0, raw)
    state.facts.setdefault("income_collected", []).append(name)
    trace.add(
        "marshaling.income",
        f"{name}" + (f", {lead}" if lead else "") + f" collects income: plot {base}"
        + (f" + gold modifiers {bonus:+d}" if bonus else "")
        + (f" ({', '.join(blank)}: text box blank, so its gold modifier counts for nothing)" if blank else "")
        + (f" = {raw}, below zero, so income is 0 (no gold is taken from the pool)" if below else "")
        + f" → gold pool {p.gold - (by_title if not below else 0)}",
        cite=["agot2-rr/appendix-i/marshaling-phase/3.2", "agot2-rr/income"]
        + (["agot2-rr/plot-value-modifiers"] if bonus else [])
        + (["agot2-rr/blank"] if blank else [])
        + ([MODIFIERS] if below else []),
        tag="income",
        subject=name,
    )
    if by_title and not below:
        trace.add(
            "title.income",
            f"{name}'s income also counts {title_words} → gold pool {p.gold}",
            cite=["agot2-rr/income", "agot2-rr/plot-value-modifiers", titles.TITLE_CARDS],
            tag="income",
            subject=name,
        )


def base_gold(state: State, player: str) -> int:
    """The revealed plot's gold value: printed, or defined by lasting effects applied in the first player's order (FAQ 1.6)."""
    plot = state.players[player].plot
    defined = [e for e in state.effects if e.target == plot.name and e.kind == "base gold"]
    if not defined:
        return plot.income
    order = state.facts.get("priority", {}).get(plot.name, [])
    rank = {name: i for i, name in enumerate(order)}
    return int(max(defined, key=lambda e: (rank.get(e.source, -1), e.seq)).value)  # the one applied last prevails


@rule(
    "dominance",
    ["agot2-rr/appendix-i/dominance-phase/5.2", "agot2-rr/winning-the-game"],
    "standing characters' STR plus gold in the pool; the highest gains 1 power; a tie: no one",
)
def dominance(state: State, trace: Trace) -> str | None:
    """Determine dominance (Appendix I 5.2); the winner, or None on a tie."""
    totals = {
        n: sum(state.strength(c) for c in state.in_play(n, "character") if not c.kneeling) + state.players[n].gold
        for n in remaining(state)
    }
    regent = {n: titles.dominance_bonus(state, trace, n) for n in totals}  # the Crown Regent (melee)
    totals = {n: v + regent[n] for n, v in totals.items()}
    best = max(totals.values())
    tied = [n for n, v in totals.items() if v == best]
    gone = _gone(state)
    text = (
        "dominance: "
        + ", ".join(
            f"{n} {v} (standing STR + {state.players[n].gold} gold"
            + (f" + {regent[n]} {state.players[n].title}" if regent[n] else "")
            + ")"
            for n, v in totals.items()
        )
        + gone
    )
    cite = ["agot2-rr/appendix-i/dominance-phase/5.2"] + (["agot2-rr/winning-the-game"] if gone else [])
    if len(tied) > 1:
        state.facts["dominance"] = "none"
        trace.add("dominance", text + "; tied for the highest: no one wins dominance", "not-applied", cite=cite, tag="dominance")
        return None
    state.facts["dominance"] = tied[0]
    trace.add("dominance", text + f"; {tied[0]} wins dominance", cite=cite, tag="dominance", subject=tied[0])
    gain_power(
        state, trace, tied[0], 1, f"{tied[0]} wins dominance", rule_id="dominance", cite=["agot2-rr/appendix-i/dominance-phase/5.2"]
    )
    return tied[0]


@rule(
    "standing",
    ["agot2-rr/appendix-i/standing-phase/6.2", "agot2-faq41/2.1", "agot2-rr/cannot"],
    "each kneeling card stands (faction cards too), except a card that cannot be stood (it ignores this game effect)",
)
def standing(state: State, trace: Trace) -> None:
    kneeling = [c for c in state.cards.values() if c.zone == "in_play" and c.kneeling]
    held = [c.key for c in kneeling if not can_be(state, c, "stood")]
    knelt = [c.key for c in kneeling if c.key not in held]
    for key in knelt:
        state.cards[key].kneeling = False
    for name, player in state.players.items():  # a faction card is a card in play too (RR In Play and Out of Play)
        if player.faction_kneeling:
            player.faction_kneeling = False
            knelt.append(f"{name}'s faction card")
    trace.add(
        "standing",
        "each kneeling card stands" + (f": {', '.join(knelt)}" if knelt else " (none was kneeling)"),
        cite=["agot2-rr/appendix-i/standing-phase/6.2"],
        tag="stand",
    )
    for key in held:
        trace.add(
            "standing",
            f"{key} cannot be stood: it ignores the standing phase's stand, a game effect that does not choose it, and stays kneeling",
            "not-applied",
            cite=["agot2-faq41/2.1", "agot2-rr/cannot"],
            tag="cannot",
            subject=key,
        )


@rule("taxation.gold", ["agot2-rr/appendix-i/taxation-phase/7.2"], "unspent gold returns to the treasury")
def taxation(state: State, trace: Trace, discards: dict[str, list[str]]) -> None:
    for p in state.players.values():
        p.gold = 0
    trace.add("taxation.gold", "each player returns his or her unspent gold to the treasury", tag="return gold")
    for name in state.player_order():
        reserve(state, trace, name, discards.get(name))
    titles.return_titles(state, trace)  # 7.4 (melee)


@rule(
    "taxation.reserve",
    ["agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value", "agot2-rr/plot-value-modifiers", MODIFIERS],
    "a hand larger than the plot's reserve value (with all reserve modifiers) is discarded down to it, in player order",
)
def reserve(state: State, trace: Trace, player: str, chosen: list[str] | None) -> None:
    hand = state.zone(player, "hand")
    # RR Reserve Value: "the reserve value on his or her currently revealed plot (which incorporates all relevant reserve
    # modifiers)"; the modifiers are the cards' printed reserve icons (none on a blank card)
    modifiers = {c.key: state.modifier(c, "reserve") for c in state.in_play(player)}
    modifiers = {k: v for k, v in modifiers.items() if v}
    by_title = titles.reserve(state, trace, player)  # the Master of Laws' printed +1 Reserve (melee)
    if by_title:
        modifiers[str(state.players[player].title)] = by_title
    printed = state.players[player].plot.reserve
    raw = printed + sum(modifiers.values())
    limit = max(0, raw)
    cite = ["agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value"]
    if modifiers:
        cite.append("agot2-rr/plot-value-modifiers")
        floored = ": below zero, treated as zero" if raw < 0 else ""
        cite += [MODIFIERS] if floored else []
        shown = f"{limit} (plot {printed}, " + ", ".join(f"{k} {v:+d}" for k, v in modifiers.items()) + f"{floored})"
    else:
        shown = str(limit)
    excess = len(hand) - limit
    if excess <= 0 and chosen:
        raise IllegalStep(
            "taxation.reserve",
            f"{player} has {len(hand)} card(s) in hand, not more than reserve {shown}: no card may be discarded",
            cite=["agot2-rr/appendix-i/taxation-phase/7.3"],
        )
    if excess <= 0:
        trace.add(
            "taxation.reserve",
            f"{player} has {len(hand)} card(s) in hand, within reserve {shown}: nothing is discarded",
            "not-applied",
            cite=cite,
            tag="reserve",
            subject=player,
        )
        return
    if chosen is None and limit == 0:  # every card goes: nothing to choose
        chosen = [c.key for c in hand]
    if chosen is None:
        trace.add(
            "taxation.reserve",
            f"{player} has {len(hand)} cards, reserve {shown}: {player} chooses {excess} to discard (state 'discard')",
            "choice-needed",
            cite=cite,
            tag="choice",
            subject=player,
        )
        return
    wrong = [state.cards[k] for k in chosen if state.cards[k] not in hand]
    if wrong:  # (review r80 M5: the refusal said "must discard exactly 2" although 2 cards were named)
        raise IllegalStep(
            "taxation.reserve",
            "; ".join(f"{c.key} is not in {player}'s hand (it is in {_where(c)})" for c in wrong)
            + f": {player} must discard {excess} card(s) from his or her own hand",
            cite=["agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value"],
        )
    twice = named_twice(chosen)
    if twice:  # a card leaves the hand once: naming it twice would leave the hand above reserve (review r80 H3)
        raise IllegalStep(
            "taxation.reserve",
            f"{twice} is named more than once: {player} must discard exactly {excess} different card(s) from hand "
            f"({len(hand)} in hand, reserve {shown})",
            cite=["agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value"],
        )
    if len(chosen) != excess:
        # 7.3 decides it beside RR Reserve Value: discards end when hand size and reserve are equal, and none is
        # permitted "while at or below" the reserve value (review r80 L1: the refusal cited Reserve Value alone)
        beyond = ", and no card may be discarded once the hand is down to its reserve value" if len(chosen) > excess else ""
        raise IllegalStep(
            "taxation.reserve",
            f"{player} must discard exactly {excess} card(s) from hand ({len(hand)} in hand, reserve {shown}){beyond}; "
            f"{len(chosen)} named",
            cite=["agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value"],
        )
    for key in chosen:
        state.cards[key].zone = "discard"
    trace.add(
        "taxation.reserve",
        f"{player} has {len(hand)} cards, reserve {shown}: discards {', '.join(chosen)}",
        cite=cite,
        tag="reserve",
        subject=player,
    )


def _where(card: Card) -> str:
    """Where a card is, in the words a player uses: "Sara's hand", "the play area", "Lars's discard pile"."""
    if card.zone in ("in_play", "duplicate", "revealed"):
        return "play"
    if card.zone in ("removed", "being played"):
        return {"removed": "no area: it is removed from the game", "being played": "no area: it is being played"}[card.zone]
    said = {**ZONE_SAID, "plot": "plot deck", "used": "used pile"}
    return f"{card.owner}'s {said.get(card.zone, card.zone)}"


@rule(
    "period.end",
    [END, ROUND_ENDS],
    "the end of a phase (challenge, round): interrupts; 'until the end' effects expire (the period ends); 'at the end' "
    "delayed effects resolve; reactions",
)
def end_period(state: State, trace: Trace, ctx: Context, period: str) -> None:
    label = {"phase": f"the {phase_said2(state.phase)} phase", "challenge": "the challenge", "round": "the round"}[period]
    interrupts(state, trace, ctx, f"end of {period}")
    periods = {"phase": ("phase", "challenge"), "challenge": ("challenge",), "round": ("round", "phase", "challenge")}[period]
    ending = [e for e in state.effects if e.until in periods]
    state.effects = [e for e in state.effects if e not in ending]
    # the precise moment the period ends: an 'until the end of' it effect initiated from now on fails (RR Lasting Effects)
    state.end_periods(*periods)
    for ended in periods:  # "Limit X per [period]" / "Max X per [period]" counts start again (RR Limits and Maxima)
        state.facts.get("limits", {}).pop(ended, None)
    # 7.5 decides the round's end out of the taxation phase: "Any active "until the end of the round" lasting effects
    # expire at this time" (review r80 L2); the FAQ's sequence orders it
    by_7_5 = [END, ROUND_ENDS] if period == "round" and state.phase == "taxation" else [END]
    for effect in ending:
        trace.add(
            "period.end",
            f"'until the end of {period}' effect expires: {effect.target}'s {effect_said(effect)}",
            cite=by_7_5 if effect.until == "round" else [END],
            tag="lasting expires",
            subject=effect.target,
        )
        if effect.kind == "control":
            revert_control(state, trace, state.cards[effect.target], f"the effect from {effect.source or 'a card'} expired")
    due = [d for d in state.delayed if d.period in periods]
    state.delayed = [d for d in state.delayed if d not in due]
    if period != "challenge":
        said = f"{label} ends (after 'until the end' effects expire and before 'at the end' effects resolve)"
        trace.add("period.end", said, cite=by_7_5, tag=f"{period} ends")
    elif ending or due:  # 4.2.6 ends the challenge (said by end_challenge); the FAQ's sequence, which "can be generalized
        # and used when referring to the end of other periods, such as the end of a challenge", decides only the order
        trace.add(
            "period.end",
            "at the end of the challenge, 'until the end of the challenge' effects expire before 'at the end of the challenge' "
            "effects resolve (the end-of-phase sequence, generalized to the end of a challenge)",
            cite=[END],
            tag="challenge ends",
        )
    for delayed in due:
        trace.add(
            "period.end",
            f"'at the end of the {delayed.period}' delayed effect from {delayed.source or 'a card'} resolves",
            cite=[END],
            tag="delayed resolves",
            subject=delayed.source,
        )
        if ctx.apply_effect:
            ctx.apply_effect(state, trace, ctx, {**delayed.effect, "_delayed": True})
    check_terminal(state, trace, ctx)
    queue_reactions(ctx, f"end of {period}")
    run_reactions(state, trace, ctx)


def end_phase(state: State, trace: Trace, ctx: Context) -> None:
    from judgekb.engine.agot2.challenges import end_challenge

    activate(state, trace, None, "the marshaling phase ends, and no marshaling step is given for the players left")

    end_challenge(state, trace, ctx, quiet=True)
    end_period(state, trace, ctx, "phase")
    for p in state.players.values():
        _reset_challenge_counts(p)
    state.facts.pop("additional_challenges", None)  # "this phase"


def _reset_challenge_counts(player: Player) -> None:
    """A new challenges phase, or the end of a phase: the challenges declared, their opponents and the Hand of the
    King's additional challenge ("during the challenges phase") are counted afresh."""
    player.challenges_this_round = []
    player.challenge_opponents = []
    player.title_challenge_used = False


@rule("round.end", ["agot2-rr/limited", END], "at the end of the round, round limits (Limited) reset")
def end_round(state: State, trace: Trace, ctx: Context) -> None:
    end_phase(state, trace, ctx)
    _round_over(state, trace, ctx)


def _round_over(state: State, trace: Trace, ctx: Context) -> None:
    end_period(state, trace, ctx, "round")
    for p in state.players.values():
        p.limited_this_round = 0
        p.redirect_used_this_round = False  # the Crown Regent: "a single challenge each round"
        p.rival_bonuses_this_round = []  # RR Rivals: "a maximum of 1 rivals bonus per rival opponent ... each round"
    trace.add("round.end", "the round ended: Limited and other once-per-round counts reset", cite=["agot2-rr/limited"], tag="round ends")
    state.round += 1


def phase(state: State, trace: Trace, ctx: Context, name: str, options: dict[str, Any]) -> None:
    name = phase_said2(name)  # the trace spells the phase as the Rules Reference does, however the scenario wrote it
    current = phase_said2(state.phase)
    if current not in (name, "setup") and not state.ended("phase"):
        # a phase ends before the next begins, whether or not the scenario gave an end_phase step
        why = f"no end_phase step ends the {current} phase: it ends now, before the {name} phase begins"
        if state.facts.get("phase_assumed"):  # (dropped below, once the phase step has begun the next)
            why = f"the scenario gives no phase, so the {current} phase is assumed; " + why
        trace.add("period.end", why, cite=[END], tag="phase ends")
        end_phase(state, trace, ctx)
    if name == "plot" and current not in (name, "setup") and not state.ended("round"):
        # the plot phase begins a new round: the last round ends first
        why = f"no end_round step ends the round: it ends now, before the {name} phase begins"
        trace.add("period.end", why, cite=[ROUND_ENDS] if current == "taxation" else [END], tag="round ends")
        _round_over(state, trace, ctx)
    activate(state, trace, None, "the marshaling phase ends, and no marshaling step is given for the players left")
    state.facts.pop("income_collected", None)
    state.phase = "marshalling" if name == "marshaling" else name
    state.facts.pop("phase_assumed", None)  # the scenario has now said which phase it is
    state.begin_period("phase")  # a new phase (and round, after a round's end) has begun
    for p in state.players.values():
        if name == "challenges":
            _reset_challenge_counts(p)
    if name == "plot":
        revealing = {k: v for k, v in (options.get("reveal") or {}).items() if k != "__line__"}
        reveal(state, trace, revealing)
        first_chosen = initiative(state, trace, options.get("first_player"), options.get("random_winner"))
        when_revealed(state, trace, revealing, state.first_player if first_chosen else None)
        recycle_used(state, trace, list(revealing))
        if state.melee or options.get("titles"):
            chosen = {k: str(v) for k, v in (options.get("titles") or {}).items() if k != "__line__"}
            titles.select(state, trace, chosen, first_chosen)  # 1.4 (melee)
    elif name == "challenges":
        trace.add("phase.begin", "the challenges phase begins", tag="phase begins")
    elif name == "draw":
        draw_phase(state, trace)
    elif name == "marshaling":
        income(state, trace)
    elif name == "dominance":
        winner = dominance(state, trace)
        if winner:
            queue_reactions(ctx, f"win dominance: {winner}")
    elif name == "standing":
        standing(state, trace)
    elif name == "taxation":
        taxation(state, trace, {k: v for k, v in (options.get("discard") or {}).items() if k != "__line__"})
