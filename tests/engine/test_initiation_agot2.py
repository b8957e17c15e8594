"""Second edition: an ability whose effect could not change the game state is not initiated (RR Abilities, RR Costs).

Review r80: H1 (a nested reaction whose card had already left play refused the whole step, undoing its kill), M2 (a
reaction step refused citing RR Leaves Play), H4 (an event removing a non-participant from the challenge was played,
its cost paid, and a plain removal step left no trace line), H2 (a return to hand fetched any card from the discard or
dead pile as though its text named that pile)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb.corpus.sources import default_corpus
from judgekb.engine.core import runner
from judgekb.engine.core.trace import Entry
from judgekb.engine.scenario import load_scenario
from judgekb.yamlio import DataError

TITLES = runner.load_titles(default_corpus())

# Anna's Pyre: "Forced Reaction: After a character is killed, kill Page."  Ben's Sanctuary: "Forced Reaction: After a
# character is killed, return Page to its owner's hand."  Ben is the first player.
BOARD = """title: t
edition: 2
card_data: none
phase: challenges
players:
  - name: Anna
    faction: lannister
    gold: 3
    in_play:
      - {name: Pyre, type: location}
      - {name: Knight, str: 3, icons: [military]}
    hand: [{name: Removal Event, type: event, cost: 1}]
  - name: Ben
    faction: stark
    first: true
    gold: 2
    in_play:
      - {name: Sanctuary, type: location}
      - {name: Guard, str: 1, icons: [military]}
      - {name: Page, str: 1, icons: [military]}
    hand: [{name: Squire, str: 1, icons: [military]}]
steps:
"""
SANCTUARY = "{to: 'kill: Guard', player: Ben, card: Sanctuary, trigger: TRIGGER, effect: {source: Sanctuary, return_to_hand: Page}}"
PYRE = "{to: 'kill: Guard', player: Anna, card: Pyre, trigger: TRIGGER, effect: {source: Pyre, EFFECT}}"
KILL_GUARD = "  - effect: {source: Kill Event, source_type: event, controller: Anna, kill: Guard, reactions: [FIRST, SECOND]}\n"


def _run(steps: str) -> runner.Ruling:
    return runner.run(load_scenario(Path("t.yaml"), BOARD + steps), TITLES)


def _zones(ruling: runner.Ruling, *keys: str) -> list[str]:
    return [ruling.state.cards[k].zone for k in keys]


def _of(ruling: runner.Ruling, step: int, outcome: str) -> list[Entry]:
    return [e for e in ruling.trace.entries if e.step == step and e.outcome == outcome]


def _nested(trigger: str, pyre: str = "kill: Page") -> str:
    first = SANCTUARY.replace("TRIGGER", trigger)
    second = PYRE.replace("TRIGGER", trigger).replace("EFFECT", pyre)
    step = KILL_GUARD.replace("FIRST", first).replace("SECOND", second)
    # (two forced reactions: the first player, Ben, orders them, RR Forced Interrupts / Forced Reactions; unstated, the
    # engine asks for the order, as it changes the result)
    return step.replace("reactions: [", "forced_order: [Sanctuary, Pyre], reactions: [") if "forced" in trigger else step


@pytest.mark.parametrize("trigger", ["forced reaction", "reaction"])
def test_a_nested_reaction_whose_card_left_play_earlier_in_the_chain_is_not_initiated_and_the_kill_stands(trigger: str):
    """H1: Sanctuary returns Page to hand, then Pyre's "kill Page" could not change the game state.  It was refused as a
    whole step (citing RR Leaves Play), so Guard's kill was undone."""
    ruling = _run(_nested(trigger))
    assert _of(ruling, 1, "refused") == []
    assert _zones(ruling, "Guard", "Page") == ["dead", "hand"]
    [pyre] = _of(ruling, 1, "not-applied")
    assert (pyre.tag, pyre.subject, pyre.clauses) == ("reaction", "Pyre", ("agot2-rr/abilities",))
    assert pyre.text.startswith(f"Anna's Pyre ({trigger}) to kill: Guard is not initiated: Page has left play since this chain")
    assert "it is in its owner Ben's hand" in pyre.text


def test_a_nested_reaction_not_initiated_pays_none_of_its_costs():
    """RR Costs: "An ability cannot initiate (and therefore its costs cannot be paid) ..."."""
    step = _nested("forced reaction").replace("card: Pyre, trigger", "card: Pyre, cost: {gold: 1}, trigger")
    ruling = _run(step)
    assert ruling.state.players["Anna"].gold == 3
    [pyre] = _of(ruling, 1, "not-applied")
    assert pyre.clauses == ("agot2-rr/abilities", "agot2-rr/costs")


def test_a_nested_reaction_with_another_part_is_initiated_and_resolves_what_it_can():
    """RR Effects: "players must resolve as much of each aspect of the effect as they are able"."""
    ruling = _run(_nested("forced reaction", "kill: Page, power: {Anna: 1}"))
    assert _of(ruling, 1, "refused") == []
    assert ruling.state.players["Anna"].power == 1 and _zones(ruling, "Page") == ["hand"]
    [page] = _of(ruling, 1, "not-applied")
    assert (page.tag, page.subject, page.clauses) == ("kill", "Page", ("agot2-rr/abilities", "agot2-rr/effects"))


def test_a_nested_reaction_kneeling_a_card_an_earlier_reaction_knelt_is_not_initiated():
    first = "{to: 'kill: Guard', player: Ben, card: Sanctuary, effect: {source: Sanctuary, kneel: Knight}}"
    second = "{to: 'kill: Guard', player: Anna, card: Pyre, effect: {source: Pyre, kneel: Knight}}"
    ruling = _run(KILL_GUARD.replace("FIRST", first).replace("SECOND", second))
    assert _of(ruling, 1, "refused") == [] and _zones(ruling, "Guard") == ["dead"]
    [pyre] = _of(ruling, 1, "not-applied")
    assert pyre.tag == "reaction" and "Knight is already kneeling" in pyre.text
    assert pyre.clauses == ("agot2-rr/abilities", "agot2-rr/kneel")


def test_a_reaction_step_whose_card_left_play_earlier_in_the_chain_is_not_initiated_citing_rr_abilities():
    """M2: the same as separate steps; step 3 was refused citing only agot2-rr/leaves-play, which does not decide it."""
    steps = "  - effect: {source: Kill Event, source_type: event, controller: Anna, kill: Guard}\n"
    steps += "  - reaction: " + SANCTUARY.replace("TRIGGER", "forced reaction") + "\n"
    steps += "  - reaction: " + PYRE.replace("TRIGGER", "forced reaction").replace("EFFECT", "kill: Page") + "\n"
    ruling = _run(steps)
    assert [e.step for e in ruling.trace.entries if e.outcome == "refused"] == []
    assert _zones(ruling, "Guard", "Page") == ["dead", "hand"]
    [pyre] = [e for e in ruling.trace.entries if e.step == 3]
    assert (pyre.outcome, pyre.tag, pyre.clauses) == ("not-applied", "reaction", ("agot2-rr/abilities",))


def test_a_card_that_was_never_in_play_is_a_mistake_in_the_scenario_and_refuses_the_step():
    """Squire is in Ben's hand from the start: no earlier ability moved it, so the step is refused, saying where it is."""
    reaction = "{to: 'kill: Guard', player: Anna, card: Pyre, trigger: forced reaction, effect: {source: Pyre, kill: Squire}}"
    ruling = _run(KILL_GUARD.replace("FIRST, SECOND", reaction))
    [refusal] = _of(ruling, 1, "refused")
    assert refusal.text == (
        "illegal: Squire is not in play (it is in its owner Ben's hand): a card ability interacts only with cards in play "
        "unless its text names an out-of-play area"
    )
    assert refusal.clauses == ("agot2-rr/abilities",) and refusal.data["line"] == 23
    assert _zones(ruling, "Guard", "Squire") == ["in_play", "hand"]


# ------------------------------------------------------------------ H4: removing a character that is not participating

CHALLENGE = "  - challenge: {attacker: Ben, type: military, against: Anna, attackers: [Guard]}\n"
REMOVE = (
    "  - play_event: {player: Anna, card: Removal Event, effect: {source: Removal Event, target: WHO, choose: true, "
    "remove_from_challenge: WHO}}\n"
)


@pytest.mark.parametrize(("steps", "step", "why"), [
    (CHALLENGE + REMOVE.replace("WHO", "Page"), 2, "Page is not participating in the challenge"),
    (REMOVE.replace("WHO", "Guard"), 1, "no challenge is underway, so Guard is not participating in one"),
])  # fmt: skip
def test_an_event_removing_a_character_that_is_not_participating_cannot_be_played_and_costs_nothing(steps: str, step: int, why: str):
    """H4: the event was played (1 gold paid, the event discarded) and the trace never mentioned the removal."""
    ruling = _run(steps)
    assert [e.text for e in ruling.trace.entries if e.step == step] == [
        f"illegal: {why}: Removal Event could not change the game state, so it cannot be initiated and its costs are not paid"
    ]
    [refusal] = _of(ruling, step, "refused")
    assert refusal.clauses == ("agot2-rr/abilities", "agot2-rr/costs", "agot2-rr/participating")
    assert ruling.state.players["Anna"].gold == 3 and _zones(ruling, "Removal Event") == ["hand"]


def test_a_plain_removal_step_with_no_challenge_is_refused_with_a_trace_line():
    """H4: `effect: {remove_from_challenge: X}` with no challenge underway left no trace line at all."""
    ruling = _run("  - effect: {source: Other, controller: Anna, remove_from_challenge: Guard}\n")
    [refusal] = [e for e in ruling.trace.entries if e.step == 1]
    assert refusal.outcome == "refused" and refusal.clauses == ("agot2-rr/abilities", "agot2-rr/participating")


def test_an_ability_removing_a_non_participant_pays_no_cost():
    ability = "  - ability: {player: Ben, card: Sanctuary, trigger: action, cost: {kneel: [Sanctuary]}, "
    ability += "effect: {remove_from_challenge: Page}}\n"
    ruling = _run(CHALLENGE + ability)
    assert _of(ruling, 2, "refused")[0].clauses == ("agot2-rr/abilities", "agot2-rr/costs", "agot2-rr/participating")
    assert ruling.state.cards["Sanctuary"].kneeling is False


def test_an_effect_with_another_part_resolves_it_and_says_the_removal_did_nothing():
    ruling = _run(CHALLENGE + "  - effect: {source: Other, controller: Anna, remove_from_challenge: Page, power: {Anna: 1}}\n")
    assert ruling.state.players["Anna"].power == 1
    [idle] = _of(ruling, 2, "not-applied")
    assert (idle.tag, idle.subject, idle.clauses) == ("removed", "Page", ("agot2-rr/participating",))
    assert idle.text == "Page is not participating in the challenge: Other does not remove it from anything, and it stays as it is"


def test_an_effect_step_naming_nothing_the_engine_applies_is_still_traced():
    ruling = _run("  - effect: {source: Other, note: draw 2 cards}\n")
    [said] = [e for e in ruling.trace.entries if e.step == 1]
    assert said.outcome == "not-applied" and said.text.startswith("Other names no part the engine applies (its note: 'draw 2 cards')")


# ------------------------------------------------------------------ H2: a return to hand reaches a pile only when named

DEAD = BOARD.replace("    hand: [{name: Squire", "    dead: [{name: Grave Digger, str: 1, icons: [military]}]\n    hand: [{name: Squire")
RETURN = "  - ability: {player: Ben, card: Sanctuary, trigger: action, effect: {source: Sanctuary, return_to_hand: Grave Digger"


def test_a_return_to_hand_naming_no_pile_does_not_reach_the_dead_pile():
    """H2: it fetched the card, saying "the ability names that out-of-play area" though nothing in the file said so."""
    ruling = runner.run(load_scenario(Path("t.yaml"), DEAD + RETURN + "}}\n"), TITLES)
    [refusal] = _of(ruling, 1, "refused")
    assert refusal.text == (
        "illegal: Grave Digger is not in play (it is in its owner Ben's dead pile): a card ability interacts only with cards "
        "in play unless its text names an out-of-play area; if the card's text names its owner's dead pile, give `from: dead`"
    )
    assert refusal.clauses == ("agot2-rr/abilities",) and _zones(ruling, "Grave Digger") == ["dead"]


def test_a_return_to_hand_from_the_pile_its_text_names_reaches_it():
    ruling = runner.run(load_scenario(Path("t.yaml"), DEAD + RETURN + ", from: dead}}\n"), TITLES)
    assert _zones(ruling, "Grave Digger") == ["hand"]
    [moved] = [e for e in ruling.trace.entries if e.tag == "return to hand"]
    assert moved.clauses == ("agot2-rr/abilities",)
    assert moved.text == "Grave Digger returns from its owner's dead pile to hand: the ability's text names the dead pile (`from: dead`)"


def test_a_return_to_hand_from_a_pile_does_not_reach_a_card_elsewhere():
    """FAQ 2.4: such an aspect "cannot interact with a card that is not in that specific out-of-play area"."""
    ruling = runner.run(load_scenario(Path("t.yaml"), DEAD + RETURN.replace("Grave Digger", "Page") + ", from: dead}}\n"), TITLES)
    [refusal] = _of(ruling, 1, "refused")
    assert refusal.clauses == ("agot2-faq41/2.4",) and "Page is not in its owner's dead pile (it is in play)" in refusal.text
    assert _zones(ruling, "Page") == ["in_play"]


def test_a_forced_reaction_returning_a_character_killed_by_an_earlier_one_is_not_initiated():
    """H2, review scenario 11b: Pyre kills Page first; Sanctuary names no pile, so Page stays dead."""
    first = PYRE.replace("TRIGGER", "forced reaction").replace("EFFECT", "kill: Page")
    second = SANCTUARY.replace("TRIGGER", "forced reaction")
    step = KILL_GUARD.replace("FIRST", first).replace("SECOND", second)
    ruling = _run(step.replace("reactions: [", "forced_order: [Pyre, Sanctuary], reactions: ["))  # (Ben's order)
    assert _zones(ruling, "Guard", "Page") == ["dead", "dead"]
    [sanctuary] = _of(ruling, 1, "not-applied")
    assert (sanctuary.subject, sanctuary.clauses) == ("Sanctuary", ("agot2-rr/abilities",))


@pytest.mark.parametrize(("extra", "message"), [
    ("from: hand", "t.yaml:24: field 'from': with 'return_to_hand' it names the out-of-play area the card's text names, "
                   "discard or dead (its owner's discard pile or dead pile); got 'hand'"),
    ("from: dead, put_into_play: Squire", "t.yaml:24: field 'from': would name where both 'put_into_play' and "
                                          "'return_to_hand' take their cards from: give them as two effects"),
])  # fmt: skip
def test_from_with_a_return_to_hand_names_a_pile_or_is_refused_at_load(extra: str, message: str):
    with pytest.raises(DataError) as caught:
        load_scenario(Path("t.yaml"), DEAD + RETURN + f", {extra}}}}}\n")
    assert str(caught.value).startswith(message), str(caught.value)
