"""What second-edition trace lines say and cite: the clause that decides each line, and the words the Rules Reference
uses (review r80's low findings)."""

from __future__ import annotations

from pathlib import Path

from judgekb.corpus.sources import default_corpus
from judgekb.engine.core import runner
from judgekb.engine.core.runner import Ruling
from judgekb.engine.scenario import load_scenario

TITLES = runner.load_titles(default_corpus())
END = "agot2-faq41/timing/end-of-phase"
ROUND_ENDS = "agot2-rr/appendix-i/taxation-phase/7.5"

BOARD = """title: t
edition: 2
card_data: none
phase: {phase}
players:
  - name: Anna
    faction: lannister
    first: true
    gold: 5
    plot: {{name: Plot A, income: 5, initiative: 1, claim: 1, reserve: 6}}
    in_play: [{{name: Squire, str: 1, icons: [military, power]}}]
  - name: Ben
    faction: stark
    plot: {{name: Plot B, income: 5, initiative: 0, claim: 1, reserve: 6}}
    in_play: [{{name: Guard, str: 2, icons: [military, power]}}]
steps:
"""


def _run(phase: str, steps: str) -> Ruling:
    return runner.run(load_scenario(Path("t.yaml"), BOARD.format(phase=phase) + steps), TITLES)


def test_until_the_end_of_the_round_expires_citing_7_5_when_the_taxation_phase_ends_the_round():
    """r80 L2: the expiry cited only the FAQ's End of Phase Timing Sequence, which orders it; Appendix I 7.5 is what
    says "until the end of the round" effects expire as the taxation phase ends the round.  A round ended from another
    phase (an end_round step a card brings about) is not 7.5's, and does not cite it."""
    boon = "  - effect: {source: Boon, controller: Anna, target: Squire, str: 3, until: end of round}\n"
    for phase, cited in [("taxation", (END, ROUND_ENDS)), ("challenges", (END,))]:
        ruling = _run(phase, boon + "  - end_round: {}\n")
        lines = [(e.tag, e.clauses) for e in ruling.trace.entries if e.step == 2 and e.tag in ("lasting expires", "round ends")]
        assert lines == [
            ("lasting expires", cited),
            ("round ends", cited),
            ("round ends", ("agot2-rr/limited",)),  # the once-per-round counts
        ], (phase, lines)
    phase_only = _run("taxation", boon.replace("end of round", "end of phase") + "  - end_round: {}\n")
    assert [e.clauses for e in phase_only.trace.entries if e.tag == "lasting expires"] == [(END,)]


def test_a_defending_winner_is_told_why_there_is_no_unopposed_bonus():
    """r80 L3: when the attacker won the trace said "not unopposed, no bonus power"; when the defender won it said
    nothing at U, and a defending player asking why no unopposed power got no line and no citation."""
    ruling = _run(
        "challenges",
        "  - challenge: {attacker: Anna, type: power, against: Ben, attackers: [Squire]}\n"
        "  - defend: {player: Ben, defenders: [Guard]}\n  - resolve: {}\n",
    )
    said = [(e.text, e.outcome, e.clauses) for e in ruling.trace.entries if e.tag == "unopposed"]
    assert said == [
        (
            "U — Ben won as the defending player: no unopposed bonus, which only a player who wins an unopposed challenge as "
            "the attacker gains",
            "not-applied",
            ("agot2-rr/unopposed",),
        )
    ]
    assert ruling.state.players["Ben"].power == 0


def test_the_marshaling_phase_is_spelled_as_the_rules_reference_spells_it_however_the_scenario_wrote_it():
    """r80 L5: the second-edition trace said "the marshalling phase ends" (the board's first-edition spelling) where
    every other line says "marshaling", as the Rules Reference does.  A scenario may write either."""
    for written in ("marshaling", "marshalling"):
        ruling = _run(written, f"  - phase: {written}\n  - phase: challenges\n  - challenge: {{attacker: Anna, type: power, "
                      "against: Ben, attackers: [Squire]}\n")
        text = " ".join(e.text for e in ruling.trace.entries)
        assert "marshalling" not in text, text
        assert [e.text for e in ruling.trace.entries if e.tag == "phase ends"][0].startswith(
            "no end_phase step ends the marshaling phase: it ends now, before the challenges phase begins"
        )
        # naming the phase the board is in begins it without ending anything, whichever spelling
        assert not [e for e in ruling.trace.entries if e.step == 1 and e.tag == "phase ends"], written
    refused = _run("marshalling", "  - challenge: {attacker: Anna, type: power, against: Ben, attackers: [Squire]}\n")
    assert "(the game is in the marshaling phase)" in refused.trace.entries[0].text


def test_the_ambush_line_says_the_gold_paid():
    """r80 L5: "puts Areo#2 into play as a duplicate with ambush (3)" left the 3 gold paid to "What changed"."""
    scout = '    hand: [{name: Scout, str: 1, cost: 4, keywords: ["ambush (3)"]}]\n'
    body = BOARD.format(phase="challenges").replace("    in_play: [{name: Squire", scout + "    in_play: [{name: Squire", 1)
    ruling = runner.run(load_scenario(Path("t.yaml"), body + "  - put_into_play: {player: Anna, card: Scout, ambush: 3}\n"), TITLES)
    said = [e.text for e in ruling.trace.entries if e.tag == "put into play"]
    assert said == ["Anna puts Scout into play with ambush (3), paying 3 gold"]
    assert ruling.state.players["Anna"].gold == 2
