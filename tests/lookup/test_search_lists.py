"""Lookup with the dated second-edition restricted lists imported: a search naming a card shows, as a
note above the results, that card's status under the list in force (CLI, JSON API header, web page)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from judgekb.cards import restricted_lists
from judgekb.lookup import search
from judgekb.web import app as web
from tests.conftest import CORPUS, SHARED_CARDS, run_cli

LIST_FILE = SHARED_CARDS / "agot2-throneteki" / restricted_lists.FILE_NAME


@pytest.fixture(scope="module")
def listed_db(imported_db_path: Path) -> Path:
    """Both card databases and the dated lists (LIST_FILE) imported: conftest's, read only here."""
    return imported_db_path


def in_force() -> dict:
    """The list in force, read straight from the public data (the newest date; the file's order breaks ties)."""
    data = json.loads(LIST_FILE.read_text(encoding="utf-8"))
    return max(enumerate(data), key=lambda pair: (pair[1]["date"], pair[0]))[1]


def expected_status(code: str) -> list[str]:
    current = in_force()
    status = []
    for fmt in current["formats"]:
        if code in (fmt.get("restricted") or []):
            status.append(f"{fmt['name']} restricted")
        if code in (fmt.get("banned") or []):
            status.append(f"{fmt['name']} banned")
    return status


def test_cli_search_naming_a_card_notes_its_status_under_the_list_in_force(listed_db):
    current = in_force()
    result = run_cli("search", "is Robb Stark restricted", "--edition", "2", db=listed_db)
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "Robb Stark (Core Set 146)" in line]
    assert len(notes) == 1, result.stderr
    note = notes[0]
    for status in expected_status("01146"):
        assert status in note
    assert f"{current['name']}, {current['issuer']}, {current['date']}" in note
    # the redesign printing is named too, with its own status
    assert "Robb Stark (Across the Seven Kingdoms 2)" in note


def test_no_note_in_first_edition_or_for_a_rules_word_that_is_also_a_title(listed_db):
    index = search.Index.open(listed_db)
    _, notes = search.results(index, "Robb Stark", 1)
    assert not any(in_force()["name"] in n for n in notes), notes
    _, notes = search.results(index, "what happens in the taxation phase", 2)
    assert not any("Taxation (" in n for n in notes), notes
    _, notes = search.results(index, "Taxation", 2)  # the title alone names the plot
    assert any(n.startswith("Taxation (Core Set") for n in notes), notes


def test_no_note_without_imported_lists(db_path):
    _, notes = search.results(search.Index.open(db_path), "Robb Stark", 2)
    assert not any(in_force()["name"] in n for n in notes), notes


def test_api_header_and_web_page_show_the_note(listed_db):
    current = in_force()
    client = web.create_app(listed_db, CORPUS).test_client()
    response = client.get("/api/search?q=Catelyn+Stark&edition=2")
    assert response.status_code == 200
    header = response.headers.get("X-Judgekb-Notes", "")
    assert "Catelyn Stark (Core Set 143)" in header and current["name"] in header
    page = client.get("/?q=Catelyn+Stark&edition=2").get_data(as_text=True)
    notes = page.split('<div id="notes">', 1)[1].split("</div>", 1)[0]
    # (the card's title links its page: r81 L1)
    assert '<a class="card-link" href="/card?name=Catelyn+Stark&amp;edition=2">Catelyn Stark</a> (Core Set 143)' in notes
    assert current["date"] in notes


@contextmanager
def _browser_page(db_path: Path, browser: Any, size: str) -> Iterator[tuple[str, Any]]:
    """`judgekb serve` over the database and a chromium page at phone or desktop width, in a browser
    context of its own in this module's chromium: (base URL, page).

    A server per test, not per module: each page installs the offline copy's service worker, whose
    requests for the bundle hold a server worker for up to 15 s while it is first rendered; a shared
    server's two workers could still be held by the previous test's page and keep this one's
    searches waiting past their timeout."""
    from tests.browser_support import SHOTS, new_page, serving

    SHOTS.mkdir(parents=True, exist_ok=True)
    with serving(db_path) as base:
        context, page = new_page(browser, size)
        try:
            yield base, page
        finally:
            context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_note_in_the_browser_at_phone_and_desktop_widths(listed_db, browser, size):
    from tests.browser_support import SHOTS, no_horizontal_scroll

    current = in_force()
    with _browser_page(listed_db, browser, size) as (base, page):
        page.goto(f"{base}/?q=is+Robb+Stark+restricted&edition=2")
        notes = page.inner_text("#notes")
        assert "Robb Stark (Core Set 146)" in notes and current["name"] in notes and current["date"] in notes
        assert page.locator("#notes").bounding_box()["y"] < page.locator("#results").bounding_box()["y"]  # above the results
        no_horizontal_scroll(page)
        page.screenshot(path=str(SHOTS / f"search-list-note-{size}.png"), full_page=True)


POINTER_QUERY = "how much does robb stark cost"


def test_api_gives_the_notes_whole_in_the_body_on_request(listed_db):
    """The search page asks for the notes in the body (notes=1): whole, with their own "; " and any
    character, where the header folds them to Latin-1 and joins them with "; "; without it the body
    stays the list of hits."""
    client = web.create_app(listed_db, CORPUS).test_client()
    body = client.get(f"/api/search?q={POINTER_QUERY}&edition=2&notes=1").get_json()
    assert set(body) == {"hits", "notes", "notes_shown"} and body["hits"] and len(body["notes_shown"]) == len(body["notes"])
    assert body["notes"][0].startswith("card text: Robb Stark is a card; its own text is on its card page"), body["notes"]
    assert any(n.startswith("Robb Stark (Core Set 146)") for n in body["notes"]), body["notes"]
    assert isinstance(client.get(f"/api/search?q={POINTER_QUERY}&edition=2").get_json(), list)
    response = client.get(f"/api/search?q={POINTER_QUERY}&notes=yes")
    assert response.status_code == 400 and "notes must be 0 or 1" in response.get_data(as_text=True)


def test_a_card_page_pointer_links_the_card_on_the_web_page(listed_db):
    client = web.create_app(listed_db, CORPUS).test_client()
    page = client.get(f"/?q={POINTER_QUERY}&edition=2").get_data(as_text=True)
    notes = page.split('<div id="notes">', 1)[1].split("</div>", 1)[0]
    assert '<a class="card-link" href="/card?name=Robb+Stark&amp;edition=2">Robb Stark</a> is a card;' in notes
    # a card-page command in any note is a link on the web (here a first-edition card named in a second-edition search)
    page = client.get("/?q=is+hellholt+engineer+on+the+list&edition=2").get_data(as_text=True)
    notes = page.split('<div id="notes">', 1)[1].split("</div>", 1)[0]
    assert 'see its card page (<a class="card-link" href="/card?name=Hellholt+Engineer&amp;edition=1">Hellholt Engineer</a>)' in notes


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_typed_search_shows_each_note_whole_and_the_card_link_opens_its_page(listed_db, browser, size):
    """Typed in the search box (results as you type): the pointer is one note, not split at its "; ",
    and tapping the card's name opens its card page with its text."""
    from tests.browser_support import SHOTS, no_horizontal_scroll

    with _browser_page(listed_db, browser, size) as (base, page):
        page.goto(f"{base}/")
        page.select_option("#edition", "2")
        page.fill("#q", POINTER_QUERY)
        link = page.locator("#notes p.note a.card-link").first  # (the card's name; its page command is a link too)
        link.wait_for(timeout=10_000)
        notes = page.locator("#notes p.note").all_inner_texts()
        assert notes[0].startswith("card text: Robb Stark is a card; its own text is on its card page"), notes
        status = [n for n in notes if n.startswith("Robb Stark (Core Set 146)")]
        assert len(status) == 1 and " - " in status[0], notes  # the list status whole, with its list named
        no_horizontal_scroll(page)
        page.screenshot(path=str(SHOTS / f"search-card-pointer-{size}.png"), full_page=True)
        link.click()
        page.wait_for_selector("article.card h1")
        assert "Robb Stark" in page.inner_text("article.card h1")
        page.goto(f"{base}/")
        page.select_option("#edition", "2")
        page.fill("#q", "is hellholt engineer on the list")  # the other edition's card: its page command is a link
        link = page.locator("#notes p.note a.card-link").first
        link.wait_for(timeout=10_000)
        assert link.get_attribute("href") == "/card?name=Hellholt+Engineer&edition=1"
        link.click()
        page.wait_for_selector("article.card h1")
        assert "Hellholt Engineer" in page.inner_text("article.card h1")


def test_asked_what_is_on_the_list_the_note_lists_what_the_list_in_force_holds(listed_db):
    """"whats on the restricted list for joust": the list, not one card.  The note names every card the
    list in force restricts in joust and each of its pods, as the public data has them (counted, and
    each by name and set), and only the format asked; asked what is banned, only the banned cards."""
    current = in_force()
    joust = next(f for f in current["formats"] if f["name"] == "joust")
    melee = next(f for f in current["formats"] if f["name"] == "melee")
    index = search.Index.open(listed_db)
    names = dict(index.rows("select code, name from imported_cards where edition = 2"))
    _, notes = index.search("whats on the restricted list for joust rn", 2, None, 3)
    assert notes[0].startswith("list in force: ") and notes[0].endswith("for its status"), notes
    (listed,) = [n for n in notes if n.startswith(f"joust restricted ({len(joust['restricted'])}): ")]
    assert all(names[code] in listed for code in joust["restricted"]), listed
    assert [n for n in notes if n.startswith(f"joust pods ({len(joust.get('pods') or [])}): #1 ")], notes
    assert not [n for n in notes if n.startswith("melee")], notes
    _, notes = index.search("which cards are banned in melee", 2, None, 3)
    (listed,) = [n for n in notes if n.startswith(f"melee banned ({len(melee.get('banned') or [])})")]
    assert all(names[code] in listed for code in melee.get("banned") or []), listed
    assert not [n for n in notes if "restricted (" in n], notes
