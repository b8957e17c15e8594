"""A card page lists the clauses that write the card's title with no printing beside it (review r74, M5).

The second-edition Rules Reference names the melee titles by title alone: agot2-rr/title-cards ("The Crown
Regent contributes 2 additional STR …", "The Hand of the King contributes 1 …", "The Master of Ships
contributes 1 …", "The Master of Whispers contributes 1 …"), agot2-rr/redirect ("The Crown Regent title
card can be used to redirect a single challenge each round") and agot2-rr/assault ("redirected using the
Crown Regent melee title").  The expectations below are read off those texts, not off the pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judgekb import store
from judgekb.cards import cardpage, written
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def carded(carded_db_path: Path):
    return store.connect(carded_db_path)


def _page(db, name: str, edition: int) -> dict:
    [page] = cardpage.find(db, name, edition)
    assert page["name"] == name and "shown_for" not in page
    return page


RR_NAMES = [
    ("Crown Regent", ["agot2-rr/assault", "agot2-rr/redirect", "agot2-rr/title-cards"]),
    ("Hand of the King", ["agot2-rr/title-cards"]),
    ("Master of Ships", ["agot2-rr/title-cards"]),
    ("Master of Whispers", ["agot2-rr/title-cards"]),
]


@pytest.mark.parametrize("title, clause_ids", RR_NAMES)
def test_a_title_card_page_lists_the_rules_that_name_it(carded, title, clause_ids):
    page = _page(carded, title, 2)
    listed = [e["id"] for e in page["rules"]]
    assert set(clause_ids) <= set(listed), listed
    for entry in page["rules"]:
        if entry["id"] in clause_ids:
            assert title in entry["text"] and entry["writes_title"] is True
    assert all(e["id"].startswith("agot2-") for e in page["rules"] + page["faq"])  # never a first-edition clause
    shown = cardpage.render(page)
    assert "says nothing else about this card" not in shown
    assert "[agot2-rr/title-cards]  (writes its title; no printing named)" in shown


def test_a_first_edition_agenda_the_faq_names_by_title_lists_that_answer(carded):
    # agot1-faq/draw-cap: "(such as the benefit of the Kings of Summer agenda)"
    page = _page(carded, "Kings of Summer", 1)
    assert "agot1-faq/draw-cap" in [e["id"] for e in page["rules"]]


def test_a_clause_that_only_writes_a_title_is_not_that_cards_errata(carded):
    # Esgred's errata reads "If you control Asha Greyjoy, sacrifice Esgred": it names Asha Greyjoy, it is not hers
    page = _page(carded, "Asha Greyjoy", 2)
    assert "agot2-faq41/errata/esgred-war-of-the-five-kings-111" in [e["id"] for e in page["rules"]]
    assert not any("esgred" in e["id"] for e in page["errata"] + page["clarifications"])


def test_names_the_rules_use_for_something_else_are_not_read_as_the_card(carded):
    # first edition's "Hand of the King" is a title figure with a rule of its own (agot1-rules/hand-of-the-king);
    # the card of that name is a Stark attachment
    hand = _page(carded, "Hand of the King", 1)
    assert not any(e["id"].startswith("agot1-rules/") for e in hand["rules"])
    # "House Stark" in the rules is the faction, not the House card
    assert _page(carded, "House Stark", 1)["rules"] == []
    # the game's own name
    game = _page(carded, "A Game of Thrones", 2)
    assert not any(e["id"].startswith(("agot2-tr/", "agot2-rr/")) for e in game["rules"])


@pytest.mark.parametrize(
    "text, title, longer, expected",
    [
        ("The Crown Regent contributes 2 additional STR", "Crown Regent", [], True),
        ("the crown regent", "Crown Regent", [], False),  # the capitals make it a name
        ("redirected using the Crown Regent melee title", "Crown Regent", [], True),
        ("declares The Iron Fleet (For the Realm, 4) as attackers", "Iron Fleet", [], True),
        ("Iron Mines (Calm Over Westeros, 92)", "Calm Over Westeros", [], False),  # a set in a card reference
        ("he uses Tunnels of the Red Keep", "The Red Keep", ["Tunnels of the Red Keep"], False),
        ("the Iron Throne Edition booster set", "The Iron Throne", [], False),  # a longer name goes on
        ("the Iron Throne and power", "The Iron Throne", [], True),
    ],
)
def test_what_writing_a_title_means(text, title, longer, expected):
    assert written.writes(text, title, longer) is expected


# ---------------------------------------------------------------------------- a name that opens no page


@pytest.mark.parametrize(
    "typed, said, clause_ids",
    [
        ("Crown Regent", "Crown Regent", "agot2-rr/assault, agot2-rr/redirect, agot2-rr/title-cards"),
        ("hand of the king", "Hand of the King", "agot2-rr/title-cards"),
        ("Master of Ships", "Master of Ships", "agot2-rr/title-cards"),
    ],
)
def test_without_card_data_a_title_the_rules_write_says_where_and_offers_no_unrelated_card(db_path, typed, said, clause_ids):
    """It said "Did you mean: The Iron Fleet" for Crown Regent and "The Lord of the Crossing; …" for Hand of the King."""
    result = run_cli("card", typed, "--edition", "2", db=db_path)
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr == (
        f"judgekb: no card matching '{typed}'. The corpus writes “{said}” in {clause_ids} (judgekb show ID), citing no printing;"
        " import the card data (judgekb import-cards) to look for a card of that title.\n"
    )


@pytest.mark.parametrize("typed", ["Crown Regent", "Hand of the King", "Master of Ships", "Master of Coin"])
def test_near_titles_share_the_typed_words(db_path, typed):
    found = cardpage.lookup(store.connect(db_path), typed, 2)
    assert found.pages == [] and found.near == []


def test_with_card_data_a_name_no_card_has_says_so(carded):
    # first edition has no Crown Regent card; its rulebook has the title's rule (agot1-rules/crown-regent) first
    found = cardpage.lookup(carded, "crown regent", 1)
    assert found.pages == [] and found.near == []
    assert found.written_as == "Crown Regent" and found.written_in[0] == "agot1-rules/crown-regent"
    assert all(c.startswith("agot1-") for c in found.written_in)
    assert cardpage.not_found("crown regent", found).endswith("citing no printing; no imported card has that title.")


@pytest.mark.parametrize("typed", ["first player", "challenges phase", "of the king"])
def test_a_rules_term_is_never_said_to_be_written_as_a_card_name(db_path, typed):
    """Review r78 M2: 'judgekb card "first player"' said "The corpus writes “First Player” … citing no printing", as if
    the rules named a card so; "of the king" read as the name “of the King”.  A rules heading's term, or words not
    capitalised at both ends, are no name; the title cards still are ("crown regent")."""
    import sqlite_utils

    from judgekb.cards import cardpage

    db = sqlite_utils.Database(db_path)
    assert cardpage.lookup(db, typed, 2).written_in == []
    assert "agot2-rr/title-cards" in cardpage.lookup(db, "crown regent", 2).written_in


def test_a_title_typed_run_together_is_still_offered(db_path):
    """Review r78 L2: the stricter near titles (each typed word must start a word of the title) lost "theironfleet",
    which offered The Iron Fleet before; a title typed without its spaces is offered again."""
    import sqlite_utils

    from judgekb.cards import cardpage

    found = cardpage.lookup(sqlite_utils.Database(db_path), "theironfleet", 2)
    assert "The Iron Fleet" in found.near[:2] or [p["name"] for p in found.pages] == ["The Iron Fleet"], found
