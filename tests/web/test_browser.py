"""The web pages in a real browser: Debian's chromium driven by playwright, against `judgekb serve`.

Screenshots at phone (390 px) and desktop (1280 px) widths, and a printed ruling sheet, are saved
under test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest

from tests.browser_support import SHOTS, new_page, no_horizontal_scroll, open_card_page
from tests.conftest import ROOT

_no_horizontal_scroll = no_horizontal_scroll  # the name test_deckcheck_web imports from here


def _page(browser, size: str, bypass_csp: bool = True):
    """A page; the test's own probes (evaluate, wait_for_function) need the CSP bypassed."""
    context, page = new_page(browser, size, bypass_csp=bypass_csp)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError(f"unexpected dialog: {dialog.message}")))
    return context, page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_search_then_clause_then_copy_citation(server, browser, size):
    context, page = _page(browser, size)
    page.goto(server + "/")
    page.fill("#q", "moribound")  # typed, with the typo: results arrive as you type
    first = page.locator("#results li.hit a.citation").first
    first.wait_for(timeout=10_000)
    assert "Moribund" in first.inner_text()
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"search-{size}.png"), full_page=True)
    page.select_option("#edition", "2")
    page.wait_for_function(
        "document.querySelector('#results li.hit a.citation') === null || "
        "!document.querySelector('#results li.hit a.citation').textContent.includes('1.0')"
    )
    page.select_option("#edition", "1")
    page.fill("#q", "who wins a tie in a challenge")
    page.wait_for_function("(document.querySelector('#results li.hit a.citation')||{}).textContent?.includes('tie between')")
    page.locator("#results li.hit a.citation").first.click()
    page.wait_for_url("**/c/agot1-faq/qa/challenge-tie")
    citation = page.inner_text("#citation")
    assert citation.startswith("AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) FAQ:")
    page.click("#copy")
    page.wait_for_function("document.getElementById('copied').textContent === 'Copied: citation'")
    assert page.evaluate("navigator.clipboard.readText()") == citation
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"clause-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_card_page(server, browser, size):
    context, page = _page(browser, size)
    open_card_page(page, server, "Val", "1")
    body = page.inner_text("main")
    assert "Card clarifications (rule on how the printed text works; the printed text stands)" in body and "draw cap" in body
    assert "Joust restricted list" in body and "Melee restricted list" in body
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"card-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_scenario_run_and_print_sheet(server, browser, size):
    context, page = _page(browser, size)
    page.goto(server + "/scenario")
    text = (ROOT / "scenarios" / "009-stealth-bypassed-defender-is-illegal.yaml").read_text(encoding="utf-8")
    page.fill("#scenario", text)
    page.click("#run")
    page.wait_for_selector("#ruling")
    ruling = page.inner_text("#ruling")
    assert "bypassed by stealth and may not defend" in ruling and "All expectations hold" in ruling
    cite = page.locator("#ruling .trace .refused details.cite").first
    assert "Rules of Play" in cite.locator("summary").inner_text()  # the citation line, not a bare id
    link = cite.locator("a")
    assert link.get_attribute("href").startswith("/c/agot1-rules/")
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"scenario-{size}.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('header.site')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('form.scenario')).display") == "none"
    assert page.is_visible("#ruling .cited")
    assert page.is_visible("#ruling .board") and "Starting board" in page.inner_text("#ruling")  # the sheet shows the board
    if size == "desktop":
        page.pdf(path=str(SHOTS / "ruling-sheet.pdf"))
        page.screenshot(path=str(SHOTS / "ruling-sheet-print.png"), full_page=True)
    page.emulate_media(media="screen")
    cite.locator("summary").click()  # the clause text is one tap away
    assert cite.locator("p.text").inner_text().strip()
    link.click()
    page.wait_for_selector("#citation")
    context.close()


def test_script_in_a_query_shows_as_text(server, browser):
    context, page = _page(browser, "desktop")
    page.goto(server + "/?q=" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert page.input_value("#q") == "<script>alert(1)</script>"
    page.fill("#q", "<img src=x onerror=alert(1)> stealth")
    page.wait_for_selector("#results li.hit")
    assert page.evaluate("document.querySelectorAll('#results img').length") == 0
    context.close()


def test_search_as_you_type_works_under_the_real_content_security_policy(server, browser):
    context, page = _page(browser, "desktop", bypass_csp=False)
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(server + "/")
    page.fill("#q", "vigilent")
    page.wait_for_selector("#results li.hit a.citation", timeout=10_000)
    assert "Vigilant" in page.locator("#results li.hit a.citation").first.inner_text()
    page.locator("#results li.hit a.citation").first.click()
    page.wait_for_selector("#citation")
    page.click("#copy")
    page.wait_for_selector("#copied:has-text('Copied')")
    assert not [e for e in errors if "Content Security Policy" in e], errors
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_superseded_v23_clause_shows_its_version_trail(server, browser, size):
    context, page = _page(browser, size)
    page.goto(server + "/c/agot2-faq/2.6")  # a v2.3 permalink keeps working
    trail = page.inner_text("section.versions")
    assert "Versions of this entry" in trail and "superseded" in trail and "in force" in trail
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"versions-{size}.png"), full_page=True)
    page.locator("section.versions a[href='/c/agot2-faq41/2.6']").click()
    page.wait_for_url("**/c/agot2-faq41/2.6")
    assert page.inner_text("#citation").endswith("(no page numbers: the corpus's copy of this document is a web page)")
    assert "This text governs" in page.inner_text("main")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_clause_notes_and_pinned_permalink(server, browser, size):
    """Glyph notes, an undetermined page and a permalink pinned to a changed text, as a judge sees them."""
    context, page = _page(browser, size)
    page.goto(server + "/c/agot1-faq/errata/doran-martell-pots-f3")
    assert "lost $ challenge" in page.inner_text("#text")
    assert "“$” in this text is the Power challenge icon" in page.inner_text("#notes")
    page.click("#permalink")
    page.wait_for_url("**/c/agot1-faq/errata/doran-martell-pots-f3?sha256=*")
    assert page.locator("#pinned-changed").count() == 0
    page.goto(server + "/c/agot1-faq/front/contents")
    assert page.inner_text("#citation").endswith("page not determined (one of pp. 1-2)")
    page.goto(server + "/c/agot1-faq/3.12?sha256=00000000")
    assert page.is_visible("#pinned-changed")
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"clause-notes-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_clause_page_sets_out_paragraphs_and_list_items(server, browser, size):
    """The Tournament Regulations' bulleted exception and the FAQ's numbered steps show as a list, each
    item on its own line below the sentence that introduces it, and the words are the text's own."""
    context, page = _page(browser, size)
    page.goto(server + "/c/agot2-tr/legal-products")
    item = page.locator("#text ul > li").first
    assert item.inner_text() == "Tokens that do not obscure card information"
    intro = page.locator("#text > p").first.bounding_box()
    assert item.bounding_box()["y"] >= intro["y"] + intro["height"]
    page.goto(server + "/c/agot2-faq41/2.6")
    steps = page.locator("#text ol > li")
    assert steps.count() == 7 and steps.nth(2).inner_text().startswith("The STR-reduction effect resolves")
    assert page.locator("p.numbered").count() == 0  # the list draws the numbers: no second copy of them
    # a FAQ v4.1 answer of four paragraphs, one per case, is four paragraphs after its question
    page.goto(server + "/c/agot2-faq41/qa/tycho-nestoris")
    answer = page.locator("#text > p")
    assert page.inner_text(".question-line").startswith("Q: How does Tycho Nestoris (Dance of Shadows, 37) work")
    assert answer.count() == 4 and answer.nth(0).inner_text().startswith("A: If a player controls Tycho Nestoris")
    assert answer.nth(3).inner_text() == "Tycho does not prevent a player from winning if that player's opponent concedes the game."
    page.click("#copy-text")  # copied: the citation, the question, then each paragraph on its own line
    page.wait_for_function("document.getElementById('copied').textContent === 'Copied: citation and text'")
    copied = page.evaluate("navigator.clipboard.readText()").splitlines()
    assert len(copied) == 6 and copied[1].startswith("How does Tycho") and copied[2].startswith("If a player controls Tycho")
    # Setup's step 8 lists its restrictions: drawn inside that step, not as a list beside the steps
    page.goto(server + "/c/agot2-rr/setup")
    step8 = page.locator("#text ol > li").nth(7)
    restriction = page.locator("#text li", has_text="No more than 8 total cost worth of cards may be placed.")
    assert restriction.bounding_box()["x"] > step8.bounding_box()["x"] + 10
    page.screenshot(path=str(SHOTS / f"clause-nested-list-{size}.png"), full_page=True)
    # a table is a table: a judge reads "17-24 players: 4 Swiss rounds, top 4" across one row
    page.goto(server + "/c/agot2-tr/basic-structure")
    rows = page.locator("#text table tr")
    assert rows.count() == 9 and rows.nth(0).locator("th").all_inner_texts()[1] == "Number of Swiss Rounds"
    assert rows.nth(3).locator("td").all_inner_texts() == ["17-24", "4", "Top 4"]
    cells = [rows.nth(3).locator("td").nth(i).bounding_box() for i in range(3)]
    assert cells[0]["y"] == cells[1]["y"] == cells[2]["y"] and cells[0]["x"] < cells[1]["x"] < cells[2]["x"]
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"clause-table-{size}.png"), full_page=True)
    # copied, the text keeps the rows and the numbers it refers to ("after Step 3"), each on its own line
    page.click("#copy-text")
    page.wait_for_function("document.getElementById('copied').textContent === 'Copied: citation and text'")
    assert "\n  17-24 | 4 | Top 4\n" in page.evaluate("navigator.clipboard.readText()")
    page.goto(server + "/c/agot2-faq41/2.6")
    page.click("#copy-text")
    page.wait_for_function("document.getElementById('copied').textContent === 'Copied: citation and text'")
    copied = page.evaluate("navigator.clipboard.readText()").splitlines()
    assert copied[0] == page.inner_text("#citation")
    assert "  3. The STR-reduction effect resolves, reducing the character's STR to 0." in copied
    assert copied[-1] == "Note that at any point after Step 3, the character's STR is 0."
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"clause-list-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_phase_page_lists_its_steps_and_a_step_links_back(server, browser, size):
    """"4. Challenges phase" has no text of its own: its page lists the steps printed under it, in the
    Rules Reference's order, each a link a thumb can hit, and a step's page links back to its phase."""
    context, page = _page(browser, size)
    page.goto(server + "/c/agot2-rr/appendix-i/challenges-phase")
    steps = page.locator("#parts li a")
    assert steps.count() == 10
    assert steps.nth(0).inner_text() == "4.1 Challenges phase begins"
    assert steps.nth(2).inner_text() == "4.2.1 Defending player declares defenders"
    assert steps.nth(9).inner_text() == "4.4 Challenges phase ends"
    assert all(steps.nth(i).bounding_box()["height"] >= 44 for i in range(10))
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"clause-phase-steps-{size}.png"), full_page=True)
    steps.nth(2).click()
    page.wait_for_url("**/c/agot2-rr/appendix-i/challenges-phase/4.2.1")
    assert page.inner_text("#part-of") == "Part of 4. Challenges phase"
    assert page.locator("#part-of a").bounding_box()["height"] >= 44  # the way back up, on a phone too
    page.click("#part-of a")
    page.wait_for_url("**/c/agot2-rr/appendix-i/challenges-phase")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_title_only_hit_shows_its_steps_in_the_results(server, browser, size):
    """"7. Taxation phase" found by a search shows the steps printed under it, as links, both in the
    page the server sends and in the results that arrive as the judge types."""
    context, page = _page(browser, size)
    steps = ["7.1 Taxation phase begins", "7.2 Return unspent gold", "7.3 Check reserve",
             "7.4 Return melee title cards (melee format only)", "7.5 Taxation phase ends"]  # fmt: skip
    page.goto(server + "/?q=taxation+phase&edition=2&limit=10")
    hit = page.locator("#results li.hit", has=page.locator("a.citation", has_text="7. Taxation phase"))
    assert hit.locator(".parts a").all_inner_texts() == steps
    page.fill("#q", "taxation phase")  # typed: the live results list them too
    page.wait_for_function("document.querySelectorAll('#results li.hit .parts a').length === 5")
    links = page.locator("#results li.hit .parts a")
    assert links.all_inner_texts() == steps
    assert all(links.nth(i).bounding_box()["height"] >= 44 for i in range(5))
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"search-phase-steps-{size}.png"), full_page=True)
    links.nth(2).click()
    page.wait_for_url("**/c/agot2-rr/appendix-i/taxation-phase/7.3")
    context.close()
