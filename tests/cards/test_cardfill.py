"""Cards by name: printed values from the imported card databases, errata over printing, scenario over both."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judgekb import store
from judgekb.cards import cardfill
from judgekb.yamlio import DataError, loads
from tests.conftest import CORPUS

REST_1 = "\n  - {name: B, house: Stark}\nsteps: []\n"  # the second player and no steps
REST_2 = "\n  - {name: B, faction: stark}\nsteps: []\n"


@pytest.fixture
def carded(carded_db_path: Path):
    return store.connect(carded_db_path)


def fill(text: str, db) -> tuple[dict, list[cardfill.Note]]:
    data = loads(text, Path("t.yaml"))
    return data, cardfill.fill(data, db, CORPUS, Path("t.yaml"))


def zone(data: dict, player: int = 0, name: str = "in_play") -> list[dict]:
    return data["players"][player][name]


def test_a_first_edition_character_by_name_takes_its_printed_values(carded):
    data, notes = fill(
        """
edition: 1
players:
  - {name: Brian, house: Stark, in_play: [{name: Grey Wind, type: character}]}
  - {name: Darrell, house: Lannister, in_play: [Raff the Sweetling]}
steps: []
""",
        carded,
    )
    grey = zone(data)[0]
    assert grey["str"] == 4 and grey["icons"] == ["military"] and grey["unique"] is True
    assert grey["keywords"] == ["deadly", "no attachments"]  # from the printed keyword line
    assert grey["house"] == "Stark" and grey["traits"] == ["Creature", "Direwolf"]
    raff = zone(data, 1)[0]  # a bare name string works too
    assert raff["str"] == 2 and sorted(raff["icons"]) == ["intrigue", "military"]
    assert [n.card for n in notes] == ["Grey Wind", "Raff the Sweetling"]
    assert "Core 14" in notes[0].text()


def test_printings_that_differ_are_listed_until_one_is_asked_for(carded):
    with pytest.raises(DataError) as err:
        fill("edition: 1\nplayers:\n  - {name: A, house: Stark, in_play: [Bran Stark]}" + REST_1, carded)
    message = str(err.value)
    assert "t.yaml:3" in message and "Core 13" in message and "Lords of Winter 10" in message
    data, _ = fill("edition: 1\nplayers:\n  - {name: A, house: Stark, in_play: [{name: Bran Stark, printing: low_10}]}" + REST_1, carded)
    assert zone(data)[0]["str"] == 2 and zone(data)[0]["icons"] == ["power"] and "printing" not in zone(data)[0]
    # the format's default type is character: Grey Wind is the direwolf, unless the attachment is asked for
    data, _ = fill(
        "edition: 1\nplayers:\n  - {name: A, house: Stark, in_play: [Grey Wind, {name: Grey Wind, id: GW2, printing: low_2}]}" + REST_1,
        carded,
    )
    assert zone(data)[0]["type"] == "character" and zone(data)[1]["type"] == "attachment"


def test_a_card_described_by_hand_without_a_printing_takes_only_what_every_printing_shares(carded):
    data, notes = fill("edition: 1\nplayers:\n  - {name: A, house: Stark, in_play: [{name: Bran Stark, str: 3}]}" + REST_1, carded)
    bran = zone(data)[0]
    assert bran["str"] == 3 and bran["unique"] is True and "icons" not in bran  # icons differ between printings
    assert "no printing chosen" in notes[0].text()


def test_an_unknown_bare_name_lists_the_nearest_names_but_a_card_given_by_hand_is_kept(carded):
    with pytest.raises(DataError) as err:
        fill("edition: 2\nplayers:\n  - {name: A, faction: stark, in_play: [Jon Aryn]}" + REST_2, carded)
    assert "unknown card 'Jon Aryn'" in str(err.value) and "Jon Arryn" in str(err.value)
    data, notes = fill(
        "edition: 2\nplayers:\n  - {name: A, faction: stark, in_play: [{name: Homemade Knight, str: 3}]}" + REST_2,
        carded,
    )
    assert zone(data)[0] == {"name": "Homemade Knight", "str": 3, "__line__": 3} and notes == []


def test_second_edition_keywords_loyalty_faction_and_plot_values(carded):
    data, notes = fill(
        """
edition: 2
players:
  - name: Anna
    faction: baratheon
    plot: {name: A Noble Cause}
    in_play: [Jon Arryn]
  - {name: Ben, faction: stark}
steps: []
""",
        carded,
    )
    jon = zone(data)[0]
    assert jon["keywords"] == ["insight", "renown"] and jon["loyal"] is True and jon["faction"] == "baratheon"
    assert jon["str"] == 3 and jon["icons"] == ["power"]
    plot = data["players"][0]["plot"]
    assert {k: plot[k] for k in ("income", "initiative", "claim", "reserve")} == {"income": 5, "initiative": 0, "claim": 1, "reserve": 6}
    assert any(n.card == "plot A Noble Cause" for n in notes)


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        # (review 21) a mistyped plot, or a character's title, ran as a blank plot with no word
        ("{name: Sneak Atack}", "t.yaml:5: field 'plot': no plot in the card data is called 'Sneak Atack' (nearest: Sneak Attack"),
        ("{name: Robb Stark}", "t.yaml:5: field 'plot': 'Robb Stark' is a character, not a plot"),
        ("{name: Fealty}", "t.yaml:5: field 'plot': 'Fealty' is an agenda, not a plot"),  # (r46: "is a agenda")
        ("{name: Sneak Atack, income: 3, initiative: 1, claim: 2}", None),  # the judge's own plot: as written
    ],
)
def test_a_plot_the_card_data_does_not_know_is_said_not_run_blank(carded, plot: str, message: str | None):
    text = f"edition: 2\nplayers:\n  - name: Anna\n    faction: baratheon\n    plot: {plot}" + REST_2
    if message is None:
        data, _ = fill(text, carded)
        assert data["players"][0]["plot"]["claim"] == 2
        return
    with pytest.raises(DataError) as caught:
        fill(text, carded)
    assert str(caught.value).startswith(message), str(caught.value)


def test_fields_written_in_the_scenario_win_and_the_note_says_so(carded):
    data, notes = fill(
        "edition: 2\nplayers:\n  - {name: A, faction: baratheon, in_play: [{name: Jon Arryn, str: 5}]}" + REST_2,
        carded,
    )
    assert zone(data)[0]["str"] == 5
    assert notes[0].overridden == ["str"] and "scenario's own str" in notes[0].text()


def test_errata_in_the_knowledge_base_win_over_the_printing_and_are_cited(carded):
    data, notes = fill(
        "edition: 1\nplayers:\n  - {name: A, house: Targaryen, in_play: [{name: Jhogo, printing: core_117}]}" + REST_1,
        carded,
    )
    assert zone(data)[0]["traits"] == ["Dothraki", "Queensguard"]
    assert notes[0].errata[0]["clause"] == "agot1-faq/errata/jhogo-core-t117"
    assert "agot1-faq/errata/jhogo-core-t117" in notes[0].text()


def test_an_attachments_copy_limit_is_filled_from_its_text_and_dothraki_steeds_names_its_errata(carded):
    """Review 30: Dothraki Steed's "Limit 1 copy per character." (its FAQ v4.1 errata) was not applied: a second copy
    attached to the same rider.  Sand Steed prints the same line; an attachment without one has no limit."""
    data, notes = fill(
        "edition: 2\nplayers:\n  - {name: A, faction: targaryen, hand: [{name: Dothraki Steed, id: S1}, {name: Sand Steed, id: S2},"
        " {name: Milk of the Poppy, id: M}]}" + REST_2,
        carded,
    )
    steed, sand, milk = zone(data, 0, "hand")
    assert steed["limit_copies"] == 1 and sand["limit_copies"] == 1 and "limit_copies" not in milk
    assert "errata agot2-faq41/errata/dothraki-steed-fury-of-the-storm-36 applied (limit_copies: 1)" in notes[0].text()


def test_a_cards_printed_plot_value_modifiers_are_filled_from_its_text(carded):
    """Review 31: The Roseroad's "+1 Income.", The Kingsroad's "+1 Initiative." and The Frostfangs' "-1 Reserve."
    were never read from the card data (income, initiative and reserve checks ignored them), and The Roseroad's
    modifier was called a constant ability not applied. Several on one line, and a last one without its period,
    are read too; a card that only speaks of an initiative value has none."""
    data, notes = fill(
        "edition: 2\nplayers:\n  - {name: A, faction: tyrell, in_play: [The Roseroad, The Kingsroad, The Frostfangs,"
        " Desperate Deserter, Redwyne Merchanter, {name: The Eyrie, printing: '02098'}]}" + REST_2,
        carded,
    )
    roseroad, kingsroad, frostfangs, deserter, merchanter, eyrie = zone(data)
    assert roseroad["income"] == 1 and kingsroad["initiative"] == 1 and frostfangs["reserve"] == -1
    assert (deserter["income"], deserter["initiative"]) == (-1, -1) and merchanter["income"] == 1
    assert not {"income", "initiative", "reserve"} & set(eyrie)
    assert "constant" not in notes[0].text(), notes[0].text()


def test_every_errata_value_entry_quotes_its_clause(db):
    entries = cardfill.load_errata_values(CORPUS)
    assert len(entries) >= 5
    for entry in entries:
        row = store.clause(db, entry["clause"])
        assert row is not None, entry["clause"]
        assert row["kind"] == "errata"
        assert entry["quote"] in row["text"], entry["clause"]
        assert entry.get("set") or entry.get("add")


def test_without_an_import_nothing_changes_and_a_printing_asks_for_one(db):
    text = "edition: 1\nplayers:\n  - {name: A, house: Stark, in_play: [Grey Wind]}" + REST_1
    data, notes = fill(text, db)
    assert zone(data)[0] == "Grey Wind"
    assert len(notes) == 1 and "judgekb import-cards" in notes[0].text()  # the ruling says how to import
    with pytest.raises(DataError) as err:
        fill(text.replace("[Grey Wind]", "[{name: Grey Wind, printing: core_14}]"), db)
    assert "import-cards" in str(err.value)


def test_errata_values_file_is_plain_yaml():
    data = yaml.safe_load((CORPUS / "errata-values.yaml").read_text(encoding="utf-8"))
    assert set(data) == {"errata"}


def test_a_ruling_reads_out_what_changed_and_cites_lines_on_the_command_line():
    from tests.conftest import run_cli

    out = run_cli("run", "scenarios/001-darrell-brian-military-challenge.yaml", "--cite")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.index("Ruling:") < text.index("What changed:") < text.index("Trace:")
    assert "Sansa Stark: in play → dead pile" in text
    assert "Step 1 — challenge" in text and text.count("Step 1 —") == 1  # each scenario step once
    from judgekb.authority.citation import LOST_PAGES

    step = "agot1-rules/challenge-step-1-declare-attackers"
    cited = f"AGoT LCG 1.0 Rules of Play (Core Set) “Step 1: Declare attackers”{LOST_PAGES}  [{step}]"
    assert cited in text


def test_the_scenario_library_still_rules_the_same_with_both_card_databases_imported(carded_db_path):
    """Importing card data, as the README says to, must not break the library (placeholders say card_data: none)."""
    from tests.conftest import run_cli

    out = run_cli("run", "scenarios/", db=carded_db_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " 0 failed" in out.stdout.splitlines()[-1]


def test_a_bare_unknown_name_says_whose_list_it_is_in(carded):
    with pytest.raises(DataError) as err:
        fill("edition: 1\nplayers:\n  - name: A\n    house: Stark\n    deck: [Grey Wind, Card A]" + REST_1, carded)
    assert "t.yaml:3 (A's deck, card 2): field 'name': unknown card 'Card A'" in str(err.value)


def test_printed_values_that_are_not_whole_numbers_are_left_out():
    row = {"edition": 2, "type": "character", "strength": "²", "cost": "X", "icons": "", "text": "", "traits": "", "house": "stark"}
    values = cardfill.printing_values(row)
    assert "str" not in values and "cost" not in values
    assert cardfill.printing_values(dict(row, strength="3", cost="-"))["str"] == 3
    # a second-edition "-" cost is the format's "-": no printed cost (a shadow card with it is never marshaled from hand)
    assert cardfill.printing_values(dict(row, strength="3", cost="-"))["cost"] == "-"


def test_a_card_whose_printed_abilities_are_not_applied_says_so(carded):
    """A blind review: The Red Viper won a military challenge by 6 and its printed Reaction was never mentioned, not
    even under what did not happen.  A card filled from the database names the triggered abilities its text prints,
    which the engine applies only when given as steps; a card with none says nothing of the kind."""
    _, notes = fill(
        """
edition: 2
players:
  - name: Anna
    faction: martell
    in_play: [{name: The Red Viper, printing: "01109"}, House Maester, Winterfell Steward]
  - {name: Ben, faction: stark}
steps: []
""",
        carded,
    )
    by_card = {n.card: n for n in notes}
    assert by_card["The Red Viper"].abilities == ["Reaction"]
    viper = by_card["The Red Viper"].text()
    assert "its printed Reaction ability text is not applied: only abilities given as steps or effects are" in viper
    assert by_card["Winterfell Steward"].abilities == ["Marshaling Action"]
    assert by_card["House Maester"].abilities == [] and "not applied" not in by_card["House Maester"].text()
    assert cardfill.triggered_abilities("<b>Forced Reaction:</b> After … <b>Action:</b> Kneel …") == ("Forced Reaction", "Action")
    # a constant ability is named too (a second review: Robert Baratheon's "+1 STR for each other kneeling character"
    # was left out without a word); keywords and a deck limit are not abilities left out
    robert = "Intimidate. Renown.\nRobert Baratheon gets +1 STR for each other kneeling character in play."
    assert cardfill.triggered_abilities(robert) == ("constant",)
    assert cardfill.triggered_abilities("Limit 1 per deck.\nMarshalling: Kneel Street of Steel to lower the cost …", 1) == ("Marshalling",)
    assert cardfill.triggered_abilities("Stealth. Renown.") == ()


def test_an_attachments_printed_restriction_is_read_and_checked_or_said_unchecked(carded):
    """Review 14: Bodyguard ('Lord or Lady character only.') went onto Winterfell Steward, and the card values called the
    restriction 'constant ability text'.  The printed restriction is filled and checked; one the engine cannot read
    ('... or The Red Viper only.') is said unchecked, in the card values and in the trace."""
    from judgekb.engine.core import runner
    from judgekb.engine.scenario import load_scenario

    text = """
edition: 2
phase: marshaling
players:
  - name: Anna
    faction: stark
    gold: 10
    first: true
    in_play: [Winterfell Steward, {name: Viper Host, str: 1}]
    hand: [Bodyguard, {name: The Viper's Spear, printing: "26088"}]
  - {name: Ben, faction: stark}
steps:
  - marshal: {player: Anna, card: Bodyguard, onto: Winterfell Steward}
  - marshal: {player: Anna, card: The Viper's Spear, onto: Viper Host}
"""
    data, notes = fill(text, carded)
    by_card = {n.card: n for n in notes}
    assert zone(data, 0, "hand")[0]["restriction"] == "Lord or Lady character only."
    guard = by_card["Bodyguard"].text()
    assert "its printed restriction 'Lord or Lady character only.' is checked when it attaches" in guard
    assert "constant" not in guard and by_card["Bodyguard"].abilities == ["Interrupt"]
    assert "is not one the engine reads: it is not checked" in by_card["The Viper's Spear"].text()
    assert cardfill.triggered_abilities("<i>Lord</i> or <i>Lady</i> character only.\n<b>Interrupt:</b> …") == ("Interrupt",)
    path = Path("t.yaml")
    scenario = load_scenario(path, text, prepare=lambda d, _p: cardfill.fill(d, carded, CORPUS, path))
    ruling = runner.run(scenario, {})
    refused = [e for e in ruling.trace.entries if e.outcome == "refused"]
    assert [e.step for e in refused] == [1] and refused[0].clauses == ("agot2-rr/play-restrictions-and-permissions",)
    assert "Winterfell Steward has no Lord or Lady trait" in refused[0].text
    unread = [e for e in ruling.trace.entries if e.tag == "restriction not checked"]
    assert [e.step for e in unread] == [2] and ruling.state.cards["The Viper's Spear"].attached_to == "Viper Host"


def test_a_multi_house_card_is_affiliated_with_each_of_its_houses(carded):
    """Review 23: a multi-house card had no House from the card data, so it counted as neutral and never paid a gold
    penalty.  Rules of Play, Multi-house Cards: "considered to be affiliated with two or more Houses, as indicated by
    their shields, for all game purposes"; Phase 3: a card of another House costs 2 more (the gold penalty)."""
    from judgekb.engine.core import runner
    from judgekb.engine.scenario import load_scenario

    text = """
edition: 1
phase: marshalling
players:
  - name: Anna
    house: Greyjoy
    first: true
    gold: 10
    hand: [{name: Joffrey Baratheon, printing: pots_36}, {name: Theon Greyjoy, printing: pots_38}]
  - {name: Ben, house: Stark}
steps:
  - marshal: {player: Anna, card: Joffrey Baratheon}
  - marshal: {player: Anna, card: Theon Greyjoy}
"""
    data, _ = fill(text, carded)
    hand = zone(data, 0, "hand")
    assert sorted(hand[0]["house"]) == ["Baratheon", "Lannister"] and sorted(hand[1]["house"]) == ["Greyjoy", "Stark"]
    scenario = load_scenario(Path("t.yaml"), text, prepare=cardfill.preparer(carded, CORPUS))
    ruling = runner.run(scenario, runner.load_titles(CORPUS))
    joffrey, theon = hand[0]["cost"], hand[1]["cost"]
    assert ruling.state.players["Anna"].gold == 10 - (joffrey + 2) - theon  # Joffrey: neither of his Houses is Greyjoy
    paid = [e for e in ruling.trace.entries if e.rule == "marshal.cost" and "pays" in e.text]
    assert "2 gold penalty: Lannister/Baratheon card in a Greyjoy deck" in paid[0].text
    assert "agot1-rules/multi-house-cards" in paid[1].clauses and "Greyjoy is one" in paid[1].text
