"""A typed card name opens the right card's page or none: both editions' card databases imported, as at an event.

Names are what judges and players type (no apostrophes, no leading "The", typos, half a title);
the expected card is read off the card data, not off the resolver's output.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judgekb import store
from judgekb.cards import cardnames, cardpage
from judgekb.web import app as web
from tests.conftest import CORPUS, run_cli


@pytest.fixture(scope="module")
def carded(carded_db_path: Path):
    return store.connect(carded_db_path)


@pytest.fixture(scope="module")
def client(carded_db_path: Path):
    app = web.create_app(carded_db_path, CORPUS)
    app.testing = False
    return app.test_client()


def _opened(db, name: str, edition: int | None) -> list[tuple[str, int]]:
    return [(p["name"], p["edition"]) for p in cardpage.find(db, name, edition)]


# ---------------------------------------------------------------------------- the same name, typed loosely

SAME_NAME = [
    ("tyrions chain", 2, "Tyrion's Chain"),
    ("tyrion's chain", 2, "Tyrion's Chain"),
    ("jaqen hghar", 2, "Jaqen H'ghar"),
    ("rhllor infiltrator", 2, "R'hllor Infiltrator"),
    ("varys riddle", 2, "Varys's Riddle"),
    ("varys' riddle", 2, "Varys's Riddle"),
    ("varyss riddle", 2, "Varys's Riddle"),
    ("cask of ale", 2, '"A Cask of Ale"'),
    ("newly made lord", 2, "Newly-Made Lord"),
    ("family duty honor", 2, "Family, Duty, Honor"),
    ("rains of castamere", 2, '"The Rains of Castamere"'),
    ('"The Rains of Castamere"', 2, '"The Rains of Castamere"'),
    ("the rains of castamere", 2, '"The Rains of Castamere"'),
    ("red keep", 2, "The Red Keep"),
    ("family duty honor", 1, "Family, Duty, Honor"),
    ("jaqen hghar", 1, "Jaqen H'ghar"),
    ("hands judgement", 1, "The Hand's Judgement"),
]


@pytest.mark.parametrize("typed, edition, title", SAME_NAME)
def test_a_name_typed_without_its_punctuation_or_article_opens_its_card(carded, typed, edition, title):
    pages = cardpage.find(carded, typed, edition)
    assert [(p["name"], p["edition"]) for p in pages] == [(title, edition)]
    assert "shown_for" not in pages[0]  # the same name: nothing to warn about
    assert pages[0]["printed"], "the imported printed text is on the page"


def test_exact_titles_still_tell_apart_cards_an_article_separates(carded):
    # 2nd edition: Balerion (the dragon) and The Balerion (the ship) are two cards
    assert _opened(carded, "Balerion", 2) == [("Balerion", 2)]
    assert _opened(carded, "The Balerion", 2) == [("The Balerion", 2)]
    assert {p["type"] for p in cardpage.find(carded, "The Balerion", 2)[0]["printed"]} == {"location"}


# ---------------------------------------------------------------------------- typos open the card, and say so

TYPOS = [
    ("tunels of the red keep", 2, "Tunnels of the Red Keep"),
    ("Littlefnger", 2, "Littlefinger"),
    ("hands judgement", 2, "The Hand's Judgment"),  # judgement: the 2nd-edition title spells it judgment
    ("Rob Stark", 2, "Robb Stark"),
]


@pytest.mark.parametrize("typed, edition, title", TYPOS)
def test_a_typo_opens_the_one_near_title_and_the_page_says_so(carded, typed, edition, title):
    [page] = cardpage.find(carded, typed, edition)
    assert page["name"] == title
    assert page["shown_for"]["query"] == typed and page["shown_for"]["score"] >= cardnames.OPEN_SCORE


def test_a_name_players_call_a_card_by_opens_it(carded, client):
    """A blind builder review (r46): "ned stark", the players' name for Eddard Stark, found nothing on the card page
    or in the builder.  The nicknames search reads (corpus/card-aliases.yaml) are read here too, shown as a near name."""
    [page] = cardpage.find(carded, "ned stark", 2)
    assert page["name"] == "Eddard Stark" and page["shown_for"]["query"] == "ned stark"
    names = [c["name"] for c in client.get("/api/cards?edition=2&prefix=ned stark").get_json()]
    assert names and all(n.startswith("Eddard Stark") for n in names), names


def test_a_typo_with_no_edition_opens_the_title_in_both_editions(carded):
    assert _opened(carded, "tunels of the red keep", None) == [("Tunnels of the Red Keep", 1), ("Tunnels of the Red Keep", 2)]


# ---------------------------------------------------------------------------- otherwise: did you mean


def test_a_first_name_offers_the_cards_that_carry_it_first(carded):
    found = cardpage.lookup(carded, "tyrion", 2)
    assert found.pages == []
    assert found.near[:2] == ["Tyrion Lannister", "Tyrion's Chain"]
    everywhere = cardpage.lookup(carded, "tyrion", None).near
    tyrion_titles = {"Tyrion Lannister", "Tyrion's Chain", "Tyrion's Enforcers", "Tyrion's Thug", "Lord Tyrion's Host"}
    assert set(everywhere[: len(tyrion_titles)]) == tyrion_titles


@pytest.mark.parametrize(
    "typed, short_title, longer_title",
    [
        ("knights", "The Knight", "Knights of the Sun"),
        ("tywins", "The Twins", "Tywin's Stratagem"),
        ("bitter", "Biter", "Bitter Accusation"),
        ("ghosts", "Ghost", "Ghosts of Harrenhal"),
    ],
)
def test_the_start_of_a_title_never_jumps_to_a_short_title_one_letter_away(carded, typed, short_title, longer_title):
    found = cardpage.lookup(carded, typed, 2)
    assert found.pages == []
    assert short_title in found.near and longer_title in found.near


def test_nonsense_opens_nothing_and_offers_nothing(carded):
    found = cardpage.lookup(carded, "Zzyzx Qwerty", None)
    assert found.pages == [] and found.near == []


# ---------------------------------------------------------------------------- the command line


def test_card_command_shows_the_near_title_it_opened(carded_db_path):
    result = run_cli("card", "tunels of the red keep", "--edition", "2", db=carded_db_path)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first == "Showing Tunnels of the Red Keep for 'tunels of the red keep': no card has that name; this is the nearest title."
    assert second.startswith("Tunnels of the Red Keep — 2nd edition")
    assert "Sea of Blood" not in result.stdout
    littlefinger = run_cli("card", "Littlefnger", "--edition", "2", "--json", db=carded_db_path)
    assert littlefinger.returncode == 0, littlefinger.stderr
    assert "Showing Littlefinger for 'Littlefnger'" in littlefinger.stderr  # beside the JSON, not inside it
    assert '"shown_for": {' in littlefinger.stdout and '"name": "Littlefinger"' in littlefinger.stdout


def test_card_command_lists_the_near_titles_and_fails_when_none_is_clear(carded_db_path):
    result = run_cli("card", "tyrion", "--edition", "2", db=carded_db_path)
    assert result.returncode == 2 and result.stdout == ""
    # only titles close to what was typed: it also offered Extortion, Rioting and The Trident (review r74, M5)
    assert result.stderr == "judgekb: no card matching 'tyrion'. Did you mean: Tyrion Lannister; Tyrion's Chain\n"
    chain = run_cli("card", "tyrions chain", db=carded_db_path)
    assert chain.returncode == 0 and chain.stdout.startswith("Tyrion's Chain — 1st edition")
    assert "Tyrion's Chain — 2nd edition" in chain.stdout


# ---------------------------------------------------------------------------- the web page and its API


def _h1s(page: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<h1>(.*?) <span", page)]


def test_card_page_opens_the_near_title_with_a_note(client):
    page = client.get("/card?name=tunels+of+the+red+keep").get_data(as_text=True)
    assert _h1s(page) == ["Tunnels of the Red Keep", "Tunnels of the Red Keep"]
    assert "Showing <strong>Tunnels of the Red Keep</strong> for “tunels of the red keep”: no card has that name" in page
    assert "Sea of Blood" not in page
    alone = client.get("/card?name=Littlefnger&edition=2").get_data(as_text=True)
    assert _h1s(alone) == ["Littlefinger"]
    offer = alone.split("Not this card?", 1)[1].split("</p>", 1)[0]
    assert [html.unescape(c) for c in re.findall(r'<a class="chip" href="[^"]*">([^<]*)</a>', offer)][0] == "Littlefinger's Meddling"


def test_card_page_offers_did_you_mean_with_the_best_first(client):
    response = client.get("/card?name=tyrion&edition=2")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and _h1s(page) == []
    chips = [html.unescape(c) for c in re.findall(r'<a class="chip" href="[^"]*">([^<]*)</a>', page)]
    assert chips[:2] == ["Tyrion Lannister", "Tyrion's Chain"]
    assert "No card is called “tyrion”." in page and "Did you mean:" in page


def test_card_api_carries_the_near_title_warning(client):
    [page] = client.get("/api/card?name=Littlefnger&edition=2").get_json()
    assert page["name"] == "Littlefinger" and page["shown_for"]["query"] == "Littlefnger"
    assert client.get("/api/card?name=tyrion&edition=2").status_code == 404
    [exact] = client.get("/api/card?name=Littlefinger&edition=2").get_json()
    assert "shown_for" not in exact


# ---------------------------------------------------------------------------- keys


@pytest.mark.parametrize(
    "title, typed",
    [
        ("Varys's Riddle", "varys riddle"),
        ("Varys's Riddle", "varys' riddle"),
        ("Tyrion's Chain", "tyrions chain"),
        ("The Hatchlings' Feast", "hatchlings feast"),
        ("Newly-Made Lord", "Newly Made Lord"),
        ("Tarle the Thrice-Drowned", "TARLE THE THRICE DROWNED"),
        ('"A Cask of Ale"', "cask of ale"),
        ("Jaqen H’ghar", "jaqen h'ghar"),
        ("Khal Drogo", "Khál Drogo"),
    ],
)
def test_title_keys_answer_to_what_players_type(title, typed):
    assert cardnames.loose_key(typed) in cardnames.title_keys(title)


# ---------------------------------------------------------------------------- every title, and any text


def test_every_imported_title_opens_its_own_page_typed_exactly_or_loosely(carded):
    titles = sorted({(r["name"], r["edition"]) for r in carded.query("select distinct name, edition from imported_cards")})
    assert len(titles) > 3000
    missed = []
    cited: dict[str, set[str]] = {}  # a page's id, as cited: one title's, whether the corpus names the card or not
    for name, edition in titles:
        for typed in (name, cardnames.loose_key(name)):
            found = cardpage.lookup(carded, typed, edition)
            for p in found.pages if typed == name else []:
                cited.setdefault(p["id"], set()).add(cardnames.loose_key(p["name"]))
            opened = {cardnames.loose_key(p["name"]) for p in found.pages}
            # typed loosely, two cards may share a name once punctuation and articles are gone: then it is offered
            if opened != {cardnames.loose_key(name)} and cardnames.loose_key(name) not in {cardnames.loose_key(n) for n in found.near[:2]}:
                missed.append((typed, edition, [p["name"] for p in found.pages], found.near[:2]))
            assert all("shown_for" not in p for p in found.pages), typed
    assert not missed, missed[:10]
    shared = {page_id: names for page_id, names in cited.items() if len(names) > 1}
    assert not shared, list(shared.items())[:5]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=60), edition=st.sampled_from([None, 1, 2]))
def test_any_text_opens_pages_that_say_how_or_offers_titles(carded, text, edition):
    found = cardpage.lookup(carded, text, edition)
    for page in found.pages:
        assert page["edition"] in ((edition,) if edition else (1, 2))
        if "shown_for" in page:
            assert page["shown_for"]["query"] == text and page["shown_for"]["score"] >= cardnames.OPEN_SCORE
    assert len(found.near) <= cardnames.NEAR_LIMIT
