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
