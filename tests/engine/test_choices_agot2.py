"""Second-edition choices a scenario names (claim discards, reserve discards, initiative picks, the order of
forced abilities, a cancel): each is checked against the rules and refused or said unused with the reason,
never counted twice or dropped without a word (review r80)."""

from __future__ import annotations

from pathlib import Path

from judgekb.corpus.sources import default_corpus
from judgekb.engine.core import runner
from judgekb.engine.core.runner import Ruling
from judgekb.engine.scenario import load_scenario

TITLES = runner.load_titles(default_corpus())

# Anna (claim 2) attacks Ben, who holds three cards; Lars (reserve 2) holds four cards and Sara one
INTRIGUE = """title: t
edition: 2
card_data: none
phase: challenges
players:
  - name: Anna
    faction: lannister
    first: true
    plot: {name: Plot A, income: 5, initiative: 1, claim: 2, reserve: 6}
    in_play: [{name: Spy, str: 3, icons: [intrigue]}]
  - name: Ben
    faction: stark
    plot: {name: Plot B, income: 5, initiative: 0, claim: 1, reserve: 6}
    hand: [C1, C2, C3]
steps:
  - challenge: {attacker: Anna, type: intrigue, against: Ben, attackers: [Spy]}
"""
TAXATION = """title: t
edition: 2
card_data: none
phase: standing
players:
  - name: Lars
    faction: lannister
    first: true
    plot: {name: a reserve 2 plot, income: 5, initiative: 1, claim: 1, reserve: 2}
    hand: [C1, C2, C3, C4]
  - name: Sara
    faction: stark
    plot: {name: a reserve 5 plot, income: 4, initiative: 2, claim: 1, reserve: 5}
    hand: [S1]
steps:
"""


def _run(text: str) -> Ruling:
    return runner.run(load_scenario(Path("t.yaml"), text), TITLES)


def _refusal(ruling: Ruling, step: int) -> tuple[str, tuple[str, ...]]:
    refused = [e for e in ruling.trace.entries if e.step == step and e.outcome == "refused"]
    assert len(refused) == 1, [(e.step, e.outcome, e.text) for e in ruling.trace.entries]
    return refused[0].text, refused[0].clauses


def test_the_same_card_named_twice_for_intrigue_claim_is_refused_not_counted_as_two_discards():
    """r80 H3: `discard: [C1, C1]` for claim 2 said "C1, C1 discarded at random" and took one card from Ben's hand."""
    ruling = _run(INTRIGUE + "  - resolve: {discard: [C1, C1]}\n")
    text, clauses = _refusal(ruling, 2)
    assert text == "illegal: C1 is named more than once: intrigue claim 2 discards 2 different card(s) at random from Ben's hand"
    assert clauses == ("agot2-rr/intrigue-claim",)
    assert len(ruling.state.zone("Ben", "hand")) == 3


def test_the_same_card_named_twice_for_reserve_is_refused_not_counted_as_two_discards():
    """r80 H3: `discard: {Lars: [C1, C1]}` with reserve 2 and four cards discarded one card and left Lars with 3."""
    ruling = _run(TAXATION + "  - phase: {name: taxation, discard: {Lars: [C1, C1]}}\n")
    text, clauses = _refusal(ruling, 1)
    assert text == (
        "illegal: C1 is named more than once: Lars must discard exactly 2 different card(s) from hand (4 in hand, reserve 2)"
    )
    assert clauses == ("agot2-rr/appendix-i/taxation-phase/7.3", "agot2-rr/reserve-value")
    assert len(ruling.state.zone("Lars", "hand")) == 4


def test_a_reserve_discard_naming_a_card_not_in_the_player_s_hand_says_where_it_is():
    """r80 M5: naming Sara's S1 in Lars's reserve discard was refused as "Lars must discard exactly 2 card(s) from
    hand", though two cards were named; the refusal says which card is not in his hand, and where it is."""
    ruling = _run(TAXATION + "  - phase: {name: taxation, discard: {Lars: [C1, S1]}}\n")
    text, _ = _refusal(ruling, 1)
    assert text == "illegal: S1 is not in Lars's hand (it is in Sara's hand): Lars must discard 2 card(s) from his or her own hand"
    assert len(ruling.state.zone("Lars", "hand")) == 4 and len(ruling.state.zone("Sara", "hand")) == 1


def _plot_phase(initiative_b: int, power_b: int, options: str, melee: bool = False) -> Ruling:
    """Anna (initiative 2, 3 power, first player), Ben and, in a melee, Cara (initiative 0) reveal plots."""
    players = "".join(
        f"""  - name: {name}
    faction: {faction}
    power: {power}
    plot_deck: [{{name: Plot {name}, type: plot, income: 5, initiative: {init}, claim: 1, reserve: 6}}, {{name: Spare {name}, type: plot}}]
"""
        for name, faction, power, init in [("Anna", "stark", 3, 2), ("Ben", "lannister", power_b, initiative_b), ("Cara", "tyrell", 0, 0)]
        if melee or name != "Cara"
    )
    reveal = "{Anna: Plot Anna, Ben: Plot Ben" + (", Cara: Plot Cara}" if melee else "}")
    text = f"title: t\nedition: 2\ncard_data: none\nphase: taxation\nfirst_player: Anna\nplayers:\n{players}steps:\n"
    return _run(text + f"  - phase: {{name: plot, reveal: {reveal}{options}}}\n")


def _unused(ruling: Ruling) -> list[str]:
    return [e.text for e in ruling.trace.entries if e.tag == "unused choice"]


def test_a_random_pick_naming_a_player_who_is_not_tied_is_said_unused_with_the_first_player_it_would_choose():
    """r80 M1: Cara (initiative 0) named as the random winner of Anna's and Ben's tie, and her choice of first
    player, were dropped without a word; the trace only asked for a random pick.  Both are said unused, with why, and
    1.4 does not call last round's first player this round's."""
    titles = "titles: {Anna: Master of Coin, Ben: Master of Laws, Cara: Crown Regent}"
    ruling = _plot_phase(2, 3, f", random_winner: Cara, first_player: Cara, {titles}", melee=True)
    assert _unused(ruling) == [
        "random_winner: Cara named, but it is not used: Cara is not one of the tied players (Anna, Ben): the tie is broken "
        "by randomly selecting one of the tied players",
        "first_player: Cara named, but it is not used: no player has won initiative yet (the random pick is needed first), "
        "and the first player is chosen by the player who wins initiative",
    ]
    assert [e.outcome for e in ruling.trace.entries if e.tag == "choice"] == ["choice-needed"]
    assert ruling.state.first_player == "Anna"
    selection = next(e.text for e in ruling.trace.entries if e.tag == "title")
    assert "the first player (not yet chosen: 1.3 waits on a choice) first" in selection and "Anna, first" not in selection


def test_a_first_player_named_while_the_random_pick_is_missing_is_said_unused():
    ruling = _plot_phase(2, 3, ", first_player: Ben")
    assert _unused(ruling) == [
        "first_player: Ben named, but it is not used: no player has won initiative yet (the random pick is needed first), "
        "and the first player is chosen by the player who wins initiative"
    ]
    assert ruling.state.first_player == "Anna"


def test_a_random_pick_no_tie_needs_is_said_unused_and_the_winner_s_choice_stands():
    """r80 M1 (12b): a random_winner given when initiative is not tied, or when the power totals break the tie, was
    silently ignored."""
    ruling = _plot_phase(1, 3, ", random_winner: Ben, first_player: Ben")
    assert _unused(ruling) == [
        "random_winner: Ben named, but it is not used: initiative is not tied (Anna wins initiative): no random selection is made"
    ]
    assert ruling.state.first_player == "Ben"
    ruling = _plot_phase(2, 5, ", random_winner: Ben, first_player: Ben")
    assert _unused(ruling) == [
        "random_winner: Ben named, but it is not used: the lowest power total breaks the tie (Anna wins initiative): no "
        "random selection is made"
    ]
    clauses = {c for e in ruling.trace.entries if e.tag == "unused choice" for c in e.clauses}
    assert clauses == {"agot2-rr/appendix-i/plot-phase/1.3"} and ruling.state.first_player == "Ben"


# Ben (first player) and Anna each have a location with a forced ability answering the kill of Ben's Guard
FORCED = """title: t
edition: 2
card_data: none
phase: challenges
players:
  - name: Anna
    faction: lannister
    plot: {name: Plot A, income: 5, initiative: 1, claim: 1, reserve: 6}
    in_play: [{name: Lookout, type: location}]
  - name: Ben
    faction: stark
    first: true
    plot: {name: Plot B, income: 5, initiative: 0, claim: 1, reserve: 6}
    in_play: [{name: Sanctuary, type: location}, {name: Guard, str: 1, icons: [military]}, {name: Page, str: 1, icons: [military]}]
    deck: [Old Nan, Hodor]
steps:
"""
KILL = "  - effect: {source: Kill, source_type: event, controller: Anna, target: Guard, choose: true, kill: Guard, "
LOOKOUT = '{to: "kill: Guard", player: Anna, card: Lookout, trigger: forced KIND, effect: {source: Lookout, draw: 1, player: Ben}}'
SANCTUARY = (
    '{to: "kill: Guard", player: Ben, card: Sanctuary, trigger: forced KIND, effect: {source: Sanctuary, return_to_deck: Page, '
    "position: top}}"
)
POWER = '{to: "kill: Guard", player: P, card: C, trigger: forced reaction, effect: {source: C, power: {P: 1}}}'


def _forced(entries: list) -> list[tuple[str, str]]:
    return [(e.outcome, e.text) for e in entries if e.rule == "forced.order"]


def test_forced_reactions_whose_order_does_not_matter_resolve_as_listed_and_the_ruling_says_the_first_player_orders_them():
    """r80 M3: two forced reactions of two players to one kill were resolved in the listed order, taken silently as the
    first player's.  When every order has the same result, the ruling says the first player determines it and that it
    makes no difference; no choice is asked for."""
    both = POWER.replace("P", "Anna").replace("C", "Lookout") + ", " + POWER.replace("P", "Ben").replace("C", "Sanctuary")
    ruling = _run(FORCED + KILL + f"reactions: [{both}]}}\n")
    assert _forced(ruling.trace.entries) == [
        (
            "applied",
            "the first player, Ben, determines the order of the forced reactions to kill: Guard (Lookout (Anna's), Sanctuary "
            "(Ben's)), regardless of who controls them; the scenario does not state it (forced_order), and every order has "
            "the same result: they resolve as listed, each completely before the next initiates",
        )
    ]
    assert ruling.state.players["Anna"].power == 1 and ruling.state.players["Ben"].power == 1
    assert not [e for e in ruling.trace.entries if e.outcome == "choice-needed"]


def test_forced_interrupts_whose_order_matters_wait_on_the_first_player_s_order_and_follow_it_once_given():
    """r80 M3, interrupts: Lookout's draw and Sanctuary's return to the top of the deck decide which card Ben draws."""
    both = f"{LOOKOUT}, {SANCTUARY}".replace("KIND", "interrupt")
    ruling = _run(FORCED + KILL + f"interrupts: [{both}]}}\n")
    assert [o for o, _ in _forced(ruling.trace.entries)] == ["choice-needed"]
    assert ruling.state.cards["Page"].zone == "in_play" and ruling.state.cards["Guard"].zone == "dead"
    for order, drawn in (("[Sanctuary, Lookout]", "Page"), ("[Lookout, Sanctuary]", "Old Nan")):
        ruling = _run(FORCED + KILL + f"forced_order: {order}, interrupts: [{both}]}}\n")
        said = _forced(ruling.trace.entries)
        assert len(said) == 1 and said[0][1].startswith("Ben, the first player, determines the order of the forced interrupts")
        assert ruling.state.cards[drawn].zone == "hand", order


def test_forced_reaction_steps_to_one_kill_say_the_first_player_orders_them_as_the_steps_give():
    """r80 M3 (11c): forced reactions given as separate steps; the first of them says whose order the steps give."""
    steps = (
        KILL.rstrip(", ") + "}\n"
        + f"  - reaction: {SANCTUARY.replace('KIND', 'reaction')}\n"
        + f"  - reaction: {LOOKOUT.replace('KIND', 'reaction')}\n"
    )  # fmt: skip
    ruling = _run(FORCED + steps)
    assert [(e.step, t) for e in ruling.trace.entries for o, t in [(e.outcome, e.text)] if e.rule == "forced.order"] == [
        (
            2,
            "Ben, the first player, determines the order of the forced reactions to kill: Guard, regardless of who controls "
            "them: the steps give it, Sanctuary (Ben's) (step 2), then Lookout (Anna's) (step 3); each resolves completely "
            "before the next initiates",
        )
    ]
    assert ruling.state.cards["Page"].zone == "hand"


def test_a_forced_order_with_nothing_to_order_is_said_unused():
    ruling = _run(FORCED + KILL + f"forced_order: [Sanctuary, Lookout], reactions: [{SANCTUARY.replace('KIND', 'reaction')}]}}\n")
    assert _unused(ruling) == [
        "forced_order: Sanctuary, Lookout named, but it is not used: no two forced abilities this step lists answer one "
        "triggering condition, so there is no order to determine"
    ]
    assert ruling.state.cards["Page"].zone == "deck"


SAVE = """title: t
edition: 2
card_data: none
phase: challenges
players:
  - name: Anna
    faction: lannister
    first: true
    gold: 3
    plot: {name: Plot A, income: 5, initiative: 1, claim: 1, reserve: 6}
    hand: [{name: Cancel Event, type: event, cost: 1}]
  - name: Ben
    faction: stark
    plot: {name: Plot B, income: 5, initiative: 0, claim: 1, reserve: 6}
    in_play: [{name: Eddard, str: 5, icons: [military], unique: true, duplicates: [true]}]
    hand: [{name: Risen, type: event, cost: 0}]
steps:
  - effect: {source: Kill, source_type: event, controller: Anna, target: Eddard, choose: true, kill: Eddard, saves: [SAVE]}
"""


def test_a_cancel_named_against_a_duplicate_s_save_is_refused_and_not_played():
    """r80 M4: `canceled_by` on a duplicate's save was an unknown field, so the table question "can I cancel the
    duplicate?" could not be put; RR Duplicates: the duplicate's interrupt is "(Cannot be canceled.)"."""
    ruling = _run(SAVE.replace("SAVE", "{card: Eddard, by: duplicate, canceled_by: Cancel Event}"))
    refused = [(e.text, e.clauses) for e in ruling.trace.entries if e.outcome == "refused"]
    assert refused == [
        (
            'Cancel Event cannot cancel the duplicate\'s save of Eddard: the interrupt a duplicate grants is "(Cannot be '
            "canceled.)\", so Cancel Event is not played against it (Cancel Event stays in Anna's hand, and no cost is paid)",
            ("agot2-rr/duplicates",),
        )
    ]
    assert ruling.state.cards["Eddard"].zone == "in_play" and ruling.state.cards["Cancel Event"].zone == "hand"
    assert ruling.state.players["Anna"].gold == 3


def test_a_save_by_a_card_ability_can_be_canceled_and_then_saves_nothing():
    """RR Cancel: a cancel prevents the effect from initiating; a canceled event is still played.  Anna's cancel (1 gold)
    cancels Ben's Risen: Eddard is killed, both events are in their owners' discard piles."""
    ruling = _run(SAVE.replace("SAVE", "{card: Eddard, by: Risen, canceled_by: Cancel Event}"))
    state = ruling.state
    assert state.cards["Eddard"].zone == "dead" and state.players["Anna"].gold == 2
    assert state.cards["Cancel Event"].zone == "discard" and state.cards["Risen"].zone == "discard"
    canceled = next(e for e in ruling.trace.entries if e.rule == "save.canceled")
    assert canceled.text == "Risen's save of Eddard is canceled by Cancel Event: it does not initiate, so it does not save Eddard"
    assert canceled.clauses == ("agot2-rr/cancel",)
