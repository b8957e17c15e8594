"""What a judge sees of lookup's notes on the search page, in Debian's chromium at phone and desktop
widths: no shell command to type (the phone cannot run one), card names as links to the right card
page and edition, and a superseded hit that names the text in force by its citation, not its id.

Both ways the page shows results are checked: typed (search as you type, from /api/search) and
loaded (the server-rendered page, which works without JavaScript).
"""

from __future__ import annotations

from urllib.parse import quote_plus

import pytest

from tests.browser_support import SHOTS, new_page, no_horizontal_scroll

COMMAND_WORDS = ("`", "judgekb card", "PATH", "NAME", "--edition")


def _search(page, base: str, query: str, edition: str, typed: bool) -> None:
    """A search as a judge makes it: typed into the search box (results as you type, from /api/search),
    or the page loaded with the query in its address (the server-rendered page)."""
    if typed:
        page.goto(base + "/")
        page.select_option("#edition", edition)
        page.fill("#q", query)
    else:
        page.goto(f"{base}/?q={quote_plus(query)}&edition={edition}")


def _notes(page, base: str, query: str, edition: str, typed: bool) -> list[str]:
    """The notes shown for a query, typed or loaded."""
    _search(page, base, query, edition, typed)
    page.locator("#notes p.note").first.wait_for(timeout=10_000)
    return page.locator("#notes p.note").all_inner_texts()


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "loaded"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_without_cards_the_note_says_who_can_import_them_not_a_command(server, browser, size, typed):
    context, page = new_page(browser, size)
    notes = _notes(page, server, "what does the red viper do", "2", typed)
    said = " ".join(notes)
    assert "The Red Viper" in said and "no card database is imported" in said, notes
    assert not any(word in said for word in COMMAND_WORDS), notes
    assert "whoever runs this server can import one" in said, notes
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"notes-no-cards-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "loaded"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_card_titles_a_note_lists_are_links_to_their_pages(carded_server, browser, size, typed):
    """'ser davos': the note lists the titles with "davos" and says where card pages are; each title
    opens that card's page in the edition searched, and no command is left to type."""
    context, page = new_page(browser, size)
    notes = _notes(page, carded_server, "ser davos", "2", typed)
    assert not any(word in " ".join(notes) for word in COMMAND_WORDS), notes
    link = page.locator("#notes p.note a.card-link", has_text="Ser Davos Seaworth")
    assert link.count() == 1, notes
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"notes-card-titles-{size}.png"), full_page=True)
    link.click()
    page.wait_for_selector("article.card h1")
    assert "Ser Davos Seaworth" in page.inner_text("article.card h1")
    assert page.inner_text("article.card .badge") == "2nd ed."
    context.close()


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "loaded"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_both_editions_pointers_read_differently_and_open_their_edition(carded_server, browser, size, typed):
    """No edition chosen, 'how much str is robb stark': one pointer per edition. Read aloud they must
    not be the same sentence twice, and each opens its own edition's card."""
    context, page = new_page(browser, size)
    notes = _notes(page, carded_server, "how much str is robb stark", "all", typed)
    pointers = [n for n in notes if n.startswith("card text: Robb Stark is a card")]
    assert len(pointers) == 2 and pointers[0] != pointers[1], notes
    assert not any(word in " ".join(pointers) for word in COMMAND_WORDS), notes
    for edition, badge in (("first edition", "1st ed."), ("second edition", "2nd ed.")):
        note = page.locator("#notes p.note", has_text=edition).filter(has_text="card text: Robb Stark")
        assert note.count() == 1, notes
        note.locator("a.card-link").first.click()
        page.wait_for_selector("article.card h1")
        assert "Robb Stark" in page.inner_text("article.card h1")
        assert page.inner_text("article.card .badge") == badge
        page.go_back()
        page.locator("#notes p.note").first.wait_for(timeout=10_000)
    context.close()


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "loaded"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_superseded_hit_names_the_text_in_force_by_its_citation(server, browser, size, typed):
    """v2.3's restricted-list entry for The Red Viper stands alone, marked not in force: the line says
    which text is in force as a judge can read it out (its citation), and links to it."""
    context, page = new_page(browser, size)
    _search(page, server, "is the red viper restricted", "2", typed)
    gone = page.locator("#results li.hit p.unofficial", has_text="Not in force").first
    gone.wait_for(timeout=10_000)
    link = gone.locator("a")
    assert link.inner_text().startswith("AGoT 2.0 FAQ v4.1 (2024-01-22)") and "Card Legality" in link.inner_text()
    assert "agot2-faq41/" not in gone.inner_text()
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"notes-superseded-{size}.png"), full_page=True)
    link.click()
    page.wait_for_url("**/c/agot2-faq41/card-legality/introduction")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_search_the_server_refuses_says_why_not_no_results(server, browser, size):
    """A pasted page of text was a request line longer than the server reads (HTTP 414, before the app), and the page
    showed only "No results."; then it said the search was too long. Now the page shortens it as the lookup does
    (its last 64 words, where a question asks) before it asks the server, says so, and shows results."""
    context, page = new_page(browser, size)
    page.goto(server + "/")
    page.fill("#q", "can my character be killed after claim " * 250)
    note = page.locator("#notes p.note").first
    note.wait_for(timeout=10_000)
    assert "query shortened to its last 64 words" in note.inner_text(), note.inner_text()
    page.wait_for_selector("#results li.hit")
    assert len(page.url) < 8190 and "No results" not in page.inner_text("main")
    no_horizontal_scroll(page)
    context.close()


def test_each_listed_title_is_its_own_link_to_its_card(carded_db_path):
    """A note listing the titles of two words ('olenna tyrell' in first edition: 'card titles with
    "olenna": …; card titles with "tyrell": …') links each title alone, and each link opens that card."""
    from judgekb.web import app as web
    from tests.conftest import CORPUS

    client = web.create_app(carded_db_path, CORPUS).test_client()
    body = client.get("/api/search", query_string={"q": "olenna tyrell", "edition": "1", "notes": "1"}).get_json()
    links = [piece for parts in body["notes_shown"] for piece in parts if "href" in piece]
    titles = [piece["text"] for piece in links if piece["text"] != "the Cards page"]
    assert "Lady Olenna's Guard" in titles and "Mace Tyrell" in titles, links
    for piece in links:
        assert "card titles" not in piece["text"] and ";" not in piece["text"], piece
        page = client.get(piece["href"]).get_data(as_text=True)
        if piece["text"] != "the Cards page":
            assert f'{piece["text"]} <span class="badge ed1">'.replace("'", "&#39;") in page, piece
    shown = ["".join(piece["text"] for piece in parts) for parts in body["notes_shown"]]
    assert all("judgekb card" not in said for said in shown), shown


def test_a_misspelled_title_word_alone_names_the_titles_near_it_linked(carded_db_path):
    """A phone review: "insidous" (second edition) said only "the query names no imported card: check the
    spelling", while the Cards page offers "Did you mean: Insidious Scheme".  The note now names the
    titles with a word near the typed one, each a link to its card; a word near no title says nothing more."""
    from judgekb.web import app as web
    from tests.conftest import CORPUS

    client = web.create_app(carded_db_path, CORPUS).test_client()
    body = client.get("/api/search", query_string={"q": "insidous", "edition": "2", "notes": "1"}).get_json()
    said = ["".join(piece["text"] for piece in parts) for parts in body["notes_shown"]]
    assert any('check the spelling (card titles with a word near "insidous": Insidious Scheme' in n for n in said), said
    links = {piece["text"]: piece["href"] for parts in body["notes_shown"] for piece in parts if "href" in piece}
    assert "Insidious Scheme" in links and "Insidious Scheme" in client.get(links["Insidious Scheme"]).get_data(as_text=True)
    assert not [t for t in links if ")" in t or "Closest" in t], links
    body = client.get("/api/search", query_string={"q": "xyzzy plugh", "edition": "2", "notes": "1"}).get_json()
    said = ["".join(piece["text"] for piece in parts) for parts in body["notes_shown"]]
    assert any("check the spelling" in n for n in said) and not any("a word near" in n for n in said), said
    # a word of four letters one edit from a title's (a blind review: "hodr can he defend" named no title)
    body = client.get("/api/search", query_string={"q": "hodr can he defend", "edition": "2", "notes": "1"}).get_json()
    said = ["".join(piece["text"] for piece in parts) for parts in body["notes_shown"]]
    assert any('card titles with a word near "hodr": Hodor' in n for n in said), said


def test_every_note_is_shown_whole_and_as_said_when_it_gives_no_command(db_path, carded_db_path):
    """Each note kind the page shows comes back in notes_shown (a spelling note, a shortened query, an
    absent document, a list status, an empty result, an errata note): whole, and word for word unless it
    tells a terminal user to type something."""
    from judgekb.web import app as web
    from tests.conftest import CORPUS

    queries = [
        ("waht does stealth do", "2"), ("claim " * 70, "2"), ("how do i set up my first game", "2"),
        ("is the red viper restricted", "all"), ("hellholt engineer", "2"), ("ser davos errata", "2"),
        ("zzqx", "1"), ("what does the red viper do", "all"), ("olenna", "2"),
    ]  # fmt: skip
    for path in (db_path, carded_db_path):
        client = web.create_app(path, CORPUS).test_client()
        for query, edition in queries:
            response = client.get("/api/search", query_string={"q": query, "edition": edition, "notes": "1"})
            assert response.status_code == 200, (path, query)
            body = response.get_json()
            assert body["notes"] and len(body["notes_shown"]) == len(body["notes"]), (query, body["notes"])
            for note, parts in zip(body["notes"], body["notes_shown"], strict=True):
                if not any(command in note for command in ("judgekb card", "judgekb import-cards PATH")):
                    assert "".join(piece["text"] for piece in parts) == note, (query, note, parts)


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "loaded"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_result_line_cites_a_question_by_the_entry_name_its_title_does_not_show(server, browser, size, typed):
    """A Q&A hit's title is its question; the citation under it read "FAQ: Q&A" in place of the entry's
    name. Right for a first-edition entry, whose name is the question (the title says it), but FAQ v4.1
    names its entries ("Wolves of the North"): read aloud, "FAQ v4.1 … FAQ: Q&A" cites no entry."""
    context, page = new_page(browser, size)
    for query, edition, said in (
        ("can two wolves of the north choose the same stealth target", "2", "FAQ v4.1 (2024-01-22) FAQ: “Wolves of the North”"),
        ("who wins a tie in a challenge", "1", "FAQ v5.5.1 (2015-07-17) FAQ: Q&A, p. 25"),
    ):
        _search(page, server, query, edition, typed)
        source = page.locator("#results li.hit p.source", has_text=said)
        source.first.wait_for(timeout=10_000)
        if edition == "1":  # the question is the title: it is not repeated in the line under it
            assert "If there is a tie" not in source.first.inner_text()
    no_horizontal_scroll(page)
    context.close()
