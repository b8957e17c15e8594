"""The web page after an event-day review on a phone (r81), in Debian's chromium at phone (390 px) and desktop
(1280 px) widths: whole search snippets, the card page's status and text labelled truthfully, the builder's
printed sheet, Back and the search history, the Changes page, clause links, the offline banner."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser_support import SHOTS, new_page, no_horizontal_scroll, search_drawn

PRECEDENCE = "which takes precedence faq or rules reference"


def _page(browser, size: str):
    """A page at ``size``; the test's own probes (evaluate) need the page's CSP bypassed."""
    return new_page(browser, size, bypass_csp=True)


def _clipped(page, selector: str) -> list[str]:
    """The texts of the elements matching ``selector`` that hide some of their words (clamped or cut off)."""
    return page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)",
        selector,
    )


# ---------------------------------------------------------------------------- M1: snippets whole, long notes on demand


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_snippet_is_shown_whole_and_a_long_note_opens_on_demand(server, browser, size):
    """r81 M1: on a phone the snippets were clamped to three lines, cutting FAQ v4.1's "If the text of this document
    directly…" before "takes precedence", while the erratum's "Corrects a text not in the corpus" note below was shown
    whole, about ten lines.  Typed (the page's script draws the results) and loaded (the server draws them) alike."""
    context, page = _page(browser, size)
    for drawn in ("typed", "loaded"):
        search_drawn(page, server, PRECEDENCE, drawn)
        page.wait_for_selector("#results li.hit:has-text('Rulings and Clarifications')", timeout=10_000)
        faq = page.locator("#results li.hit", has_text="Rulings and Clarifications").first.locator("p.snippet")
        assert "the text of this document takes precedence." in faq.inner_text()
        assert _clipped(page, "#results p.snippet") == [], drawn
        # (the erratum of the printed Rules Reference, with its note, comes up for its golden rules)
        if drawn == "loaded":
            page.goto(server + "/?edition=2&q=golden+rules")
        else:
            page.fill("#q", "golden rules")
        page.wait_for_selector("#results details.amends", timeout=10_000)
        assert _clipped(page, "#results p.snippet") == [], drawn
        note = page.locator("#results details.amends").first
        assert not note.evaluate("e => e.open") and note.bounding_box()["height"] < 60, drawn
        assert "Corrects a text not in the corpus" in note.locator("summary").inner_text()
        note.locator("summary").click()
        assert "Compare initiative" in note.inner_text()
        no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"r81-snippet-whole-{size}.png"))
    context.close()


# ---------------------------------------------------------------------------- M2: FAQ v2.3's lists are not a status in force


@pytest.fixture(scope="module")
def lists_server(imported_db_path):
    """`judgekb serve` on the database with both card databases and the dated restricted lists imported."""
    from tests.browser_support import serving

    with serving(imported_db_path, timeout=180) as base:
        yield base


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replaced_faq_lists_are_closed_and_said_not_in_force(lists_server, browser, size):
    """r81 M2: Balon Greyjoy's page said "Kings of the Isles 1: joust restricted" (Standard v2.1), then straight below,
    as bold boxed badges, "Joust: not restricted", "Melee: not restricted", "Not banned": FAQ v2.3's lists of 2019,
    with one grey caption line to say so.  They are now closed under the list in force, tagged "Not in force", and
    greyed when opened."""
    context, page = _page(browser, size)
    page.goto(lists_server + "/card?name=balon+greyjoy&edition=2")
    box = page.locator(".status-box")
    old = box.locator("details#historic-lists")
    assert box.locator("#lists").bounding_box()["y"] < old.bounding_box()["y"]  # under the list in force
    assert not old.evaluate("e => e.open") and not box.locator(".status-line").is_visible()
    summary = old.locator("summary").inner_text()
    assert summary.startswith("Not in force") and "FAQ v2.3 (2019-09-20)" in summary, summary
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"r81-card-faq-lists-closed-{size}.png"))
    old.locator("summary").click()
    assert box.locator(".status-line").is_visible() and "Joust: not restricted" in box.locator(".status-line").inner_text()
    weights = box.locator(".status-line .status-item").evaluate_all("els => els.map(e => +getComputedStyle(e).fontWeight)")
    assert weights and max(weights) < 600, weights  # not drawn as the bold status in force
    assert page.locator("#lists strong", has_text="Kings of the Isles 1").evaluate("e => +getComputedStyle(e).fontWeight") >= 600
    no_horizontal_scroll(page)
    context.close()


# ---------------------------------------------------------------------------- M3: printed text, or text with errata


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_cards_text_with_errata_is_labelled_and_the_printed_words_follow(lists_server, browser, size):
    """r81 M3: "Printed text" showed the errata's wording; the printed original the card data records was nowhere."""
    context, page = _page(browser, size)
    page.goto(lists_server + "/card?name=balon+greyjoy&edition=2")
    section = page.locator("section.printed.with-errata")
    assert section.locator("h2").inner_text().startswith("Text with errata")
    assert "if that card is still in play" in section.locator("p.card-text").first.inner_text()
    source = section.locator(".errata-source").inner_text()
    assert "errata by Fantasy Flight Games, version 2.0" in source and "FAQ v4.1" in source
    assert section.locator("h3.printed-original").inner_text().startswith("As printed")
    assert "At the end of the phase shuffle it" in section.locator("p.printed-original").inner_text()
    assert page.locator("section.printed h2", has_text="Printed text").count() >= 1  # Core Set 68: no errata recorded
    no_horizontal_scroll(page)
    section.screenshot(path=str(SHOTS / f"r81-card-text-with-errata-{size}.png"))
    context.close()


# ---------------------------------------------------------------------------- M4: the builder's sheet quotes the clauses


_CITED = "els => els.map(e => [e.tagName, e.textContent.trim()])"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_builders_printed_ruling_quotes_each_cited_clause_as_the_scenario_page_does(carded_server, browser, size):
    """r81 M4: the builder's printed ruling gave only the shortened citation titles (the text and the full citation
    line sit in closed <details>, hidden in print), where the /scenario page's sheet ends with "Cited clauses": each
    clause's full citation and text.  The builder's sheet now ends with that same block, for the same scenario."""
    from tests.web.test_builder import build_military_challenge, builder_at

    context, page = builder_at(browser, carded_server, size)
    build_military_challenge(page, "2")
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    assert not page.is_visible("#b-result dl.cited")  # on screen each step's citation opens its text
    page.emulate_media(media="print")
    head = page.locator("#b-result h2", has_text="Cited clauses")
    assert head.is_visible() and head.bounding_box()["y"] > page.locator("#b-result ol.trace").bounding_box()["y"]
    built = page.locator("#b-result dl.cited > *").evaluate_all(_CITED)
    terms = [text for tag, text in built if tag == "DT"]
    assert len(terms) >= 3 and all(text for tag, text in built), built
    assert any("(no page numbers: the corpus's copy of this document is a web page)" in t for t in terms), terms  # whole
    assert page.locator("#b-result dl.cited dt a").first.get_attribute("href").startswith("/c/agot2-")
    page.screenshot(path=str(SHOTS / f"r81-builder-print-{size}.png"), full_page=True)
    yaml_text = page.text_content("#b-yaml")
    page.emulate_media(media="screen")
    # the same scenario pasted on the scenario page: the same block, clause for clause
    page.goto(carded_server + "/scenario")
    page.fill("#scenario", yaml_text)
    page.click("#run")
    page.wait_for_selector("#ruling")
    assert page.locator("#ruling dl.cited > *").evaluate_all(_CITED) == built
    context.close()


# ---------------------------------------------------------------------------- M5: Back to a list of results


def _restored(page, before: float) -> bool:
    """Is the page back within 2 px of ``before``?  The position is put back once the results are drawn: waited for
    (up to 10 s), not slept on (a 300 ms pause was too short with both cores busy under `pytest -n 2`: the page was
    still at the top, as it was before the fix)."""
    restored = f"Math.abs(scrollY - {before}) <= 2"
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(restored, timeout=10_000)
    return bool(page.evaluate(restored))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_back_to_a_list_of_results_keeps_where_the_judge_had_scrolled(server, browser, size):
    """r81 M5: scrolled to the seventh result of "stealth bypass", opened it and pressed Back: the list was at the top
    (the search box's autofocus scrolled to it), typed or loaded alike; a judge comparing results scrolled down again."""
    context, page = _page(browser, size)
    page.goto(server + "/?edition=2")
    page.click("#q")
    page.keyboard.type("stealth bypass", delay=30)
    page.wait_for_function("document.querySelectorAll('#results li.hit').length >= 8")
    page.wait_for_timeout(300)
    for drawn in ("typed", "loaded"):
        if drawn == "loaded":
            page.goto(server + "/?q=stealth+bypass&edition=2")
        seventh = page.locator("#results li.hit").nth(6).locator("a.citation")
        seventh.scroll_into_view_if_needed()
        page.wait_for_timeout(300)  # (the pause after scrolling, which keeps the position)
        before = page.evaluate("scrollY")
        assert before > 300, before
        href = seventh.get_attribute("href")
        seventh.click()
        page.wait_for_url("**" + href)
        page.go_back()
        page.wait_for_selector("#results li.hit")
        assert _restored(page, before), (drawn, before, page.evaluate("scrollY"))
        assert page.is_visible(f"#results a.citation[href='{href}']")
    page.goto(server + "/")  # the empty page still puts the cursor in the search box
    assert page.evaluate("document.activeElement.id") == "q"
    context.close()


def test_back_to_results_drawn_from_the_offline_copy_keeps_the_position(db_path, browser):
    """r81 M5, offline on the laptop: the saved search page draws its results after it loads (the query is only in
    the address), so the browser's own restoring found a short page; the position kept in the history entry is used."""
    from tests.browser_support import serving

    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow", bypass_csp=True)
    page = context.new_page()
    with serving(db_path, timeout=180) as base:  # loopback: a secure context, where the service worker installs
        page.goto(base + "/")
        page.wait_for_selector("html[data-offline-ready='1']", timeout=180_000)
        context.set_offline(True)
        page.goto(base + "/?q=stealth+bypass&edition=2")
        page.wait_for_function("document.querySelectorAll('#results li.hit').length >= 6")
        sixth = page.locator("#results li.hit").nth(5).locator("a.citation")
        sixth.scroll_into_view_if_needed()
        page.wait_for_timeout(400)
        before = page.evaluate("scrollY")
        href = sixth.get_attribute("href")
        sixth.click()
        page.wait_for_url("**" + href)
        page.go_back()
        page.wait_for_function("document.querySelectorAll('#results li.hit').length >= 6")
        assert before > 300 and _restored(page, before), (before, page.evaluate("scrollY"))
    context.close()


# ---------------------------------------------------------------------------- L4: Back after refining a search


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_back_after_refining_a_search_returns_to_the_search_before(server, browser, size):
    """r81 L4: typing replaced the history entry, so after opening "stealth bypass" (from a QR code or a link) and
    refining it to "stealth bypass knelt", Back left judgekb.  A search that opened the page, was sent, or has stood a
    moment is kept; the query typed after it is a new entry, and the letters typed on the way are not."""
    context, page = _page(browser, size)
    page.goto(server + "/?q=stealth+bypass&edition=2")
    first = page.locator("#results li.hit a.citation").first.inner_text()
    length = page.evaluate("history.length")
    page.click("#q")
    page.keyboard.press("End")
    page.keyboard.type(" knelt", delay=30)
    page.wait_for_function("location.search.includes('knelt') && document.querySelector('#results li.hit')")
    assert page.evaluate("history.length") == length + 1  # one entry for the refinement, not one per letter
    page.go_back()
    page.wait_for_function("!location.search.includes('knelt')")
    assert page.input_value("#q") == "stealth bypass" and page.input_value("#edition") == "2"
    page.wait_for_function("(document.querySelector('#results li.hit a.citation')||{}).textContent === " + repr(first))
    page.go_forward()
    page.wait_for_function("location.search.includes('knelt')")
    assert page.input_value("#q") == "stealth bypass knelt"
    # from the empty page: a search that has stood is kept; one sent with Enter too
    page.goto(server + "/?edition=2")
    page.fill("#q", "stealth")
    page.wait_for_selector("#results li.hit")
    page.wait_for_timeout(1800)  # (it has stood)
    page.fill("#q", "stealth bypass")
    page.wait_for_function("location.search.includes('bypass')")
    page.fill("#q", "claim")
    page.press("#q", "Enter")
    page.wait_for_function("location.search.includes('claim')")
    page.fill("#q", "claim military")
    page.wait_for_function("location.search.includes('military')")
    page.go_back()
    page.wait_for_function("location.search.includes('claim') && !location.search.includes('military')")
    assert page.input_value("#q") == "claim"
    page.go_back()
    page.wait_for_function("location.search.includes('stealth') && !location.search.includes('bypass')")
    assert page.input_value("#q") == "stealth"
    page.wait_for_selector("#results li.hit")
    context.close()


# ---------------------------------------------------------------------------- M6: the Changes page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_changes_version_list_follows_the_document_picked(server, browser, size):
    """r81 M6: picking "AGoT 2.0 FAQ v4.1" left the first edition's v1.0 … v5.5.1 in the version list, and sending
    the form with no version showed the form again, silently."""
    context, page = _page(browser, size)
    page.goto(server + "/changes")
    page.select_option("#doc", "agot2-faq41")
    versions = page.eval_on_selector_all("#since option", "els => els.map(e => e.value)")
    assert versions == ["", "v1.0", "v1.4", "v2.0", "v2.1", "v2.2", "v2.3", "v4.1"], versions
    page.click("#changes-form button")  # no version chosen
    page.wait_for_selector("#since-missing")
    assert "Choose a version" in page.inner_text("#since-missing") and page.input_value("#doc") == "agot2-faq41"
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"r81-changes-no-version-{size}.png"))
    page.select_option("#since", "v2.3")
    page.click("#changes-form button")
    page.wait_for_selector("ul.changes li")
    assert "entries introduced after v2.3" in page.inner_text("h1")
    page.select_option("#doc", "agot2-rr")  # no versions: the list is empty and the page says why
    assert page.eval_on_selector_all("#since option", "els => els.map(e => e.value)") == [""]
    assert page.is_visible("#no-versions") and "AGoT 2.0 Rules Reference" in page.inner_text("#no-versions")
    page.select_option("#doc", "agot1-faq")
    assert page.eval_on_selector_all("#since option", "els => els.length") == 27 and not page.is_visible("#no-versions")
    context.close()


# ---------------------------------------------------------------------------- M7: clause links said by direction


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_clause_pages_links_read_in_words_not_arrows(server, browser, size):
    """r81 M7: "← supersedes" read backwards on the Rules Reference's Target."""
    context, page = _page(browser, size)
    page.goto(server + "/c/agot2-rr/target")
    first = page.locator("section.links li").first
    assert first.locator(".tag").inner_text() == "superseded in part by"
    assert first.locator("a").inner_text().startswith("AGoT 2.0 FAQ v4.1 (2024-01-22) §3.3")
    assert "←" not in page.inner_text("section.links") and "→" not in page.inner_text("section.links")
    no_horizontal_scroll(page)
    page.locator("section.links").screenshot(path=str(SHOTS / f"r81-clause-links-{size}.png"))
    context.close()


# ---------------------------------------------------------------------------- L1: the status note opens the card


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_list_status_note_opens_the_cards_page(lists_server, browser, size):
    """r81 L1: the card-status note under a typed search was plain grey text."""
    context, page = _page(browser, size)
    page.goto(lists_server + "/?edition=2")
    page.fill("#q", "is balon greyjoy restricted")
    link = page.locator("#notes p.note a.card-link", has_text="Balon Greyjoy").first
    link.wait_for(timeout=10_000)
    assert "joust restricted - Standard v2.1" in link.locator("xpath=..").inner_text()
    no_horizontal_scroll(page)
    link.click()
    page.wait_for_selector("article.card h1")
    assert page.inner_text("article.card h1").startswith("Balon Greyjoy") and page.is_visible("#lists")
    context.close()


# ---------------------------------------------------------------------------- L2: an icon in brackets, quoted as written


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_typed_search_quotes_an_icon_as_the_text_writes_it(server, browser, size):
    """r81 L2: "military [(military)] challenge" where the Rules Reference reads "military ([military]) challenge"."""
    context, page = _page(browser, size)
    page.goto(server + "/?edition=2")
    page.fill("#q", "military claim defending player choose")
    snippet = page.locator("#results li.hit", has_text="Military Claim").first.locator("p.snippet")
    snippet.wait_for(timeout=10_000)
    assert "loses a military ([military]) challenge" in snippet.inner_text(), snippet.inner_text()
    assert "[military]" in snippet.locator("mark").all_inner_texts()
    context.close()


# ---------------------------------------------------------------------------- L5: /builder and other guesses


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_builder_typed_by_hand_opens_the_builder(server, browser, size):
    """r81 L5: /builder gave a 404 pointing only to the search."""
    context, page = _page(browser, size)
    page.goto(server + "/builder")
    page.wait_for_selector("#builder #b-edition")
    assert page.url == server + "/build"
    response = page.goto(server + "/no-such-page")
    assert response.status == 404
    links = page.locator("#main-pages a")
    assert links.count() == 6 and "Build a scenario" in links.all_inner_texts()[2]
    heights = links.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert min(heights) >= 44, heights  # tap targets
    no_horizontal_scroll(page)
    context.close()


# ---------------------------------------------------------------------------- L6: the offline banner on a phone


@pytest.fixture(scope="module")
def venue_browser(browser):
    """Chromium that resolves judge.test to loopback: a plain-HTTP address that is not this machine's, as a venue's
    (launched by the module's playwright: a second sync_playwright in one module is refused)."""
    from tests.browser_support import ARGS, CHROMIUM

    venue = browser.browser_type.launch(executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP judge.test 127.0.0.1"])
    yield venue
    venue.close()


def test_the_offline_banner_on_a_phone_is_short_with_its_details_on_demand(server, venue_browser):
    """r81 L6: at the venue's plain-HTTP address, the network gone, "Offline — searching the index this open page
    fetched: …" took nine lines of a 390 px screen, and the first result began some 40 % of the way down."""
    context, page = new_page(venue_browser, "phone", bypass_csp=True, has_touch=True, is_mobile=True)
    port = server.rsplit(":", 1)[1]
    page.goto(f"http://judge.test:{port}/?edition=2")
    page.wait_for_selector("body[data-index-ready='1']")
    context.set_offline(True)
    page.fill("#q", "who wins a tie in a challenge")
    page.wait_for_selector("#results li.hit")
    mode = page.locator("#search-mode")
    said = mode.inner_text()
    assert said.startswith("Offline — searching the index this open page fetched") and "keep this page open" in said
    assert "tap its title for its full text" in said
    more = mode.locator("details")
    assert not more.evaluate("e => e.open")
    box = mode.bounding_box()
    assert box["height"] <= 130, box  # four lines and the details' line (it was nine lines)
    assert page.locator("#results li.hit").first.bounding_box()["y"] < 844 * 0.4, page.locator("#results li.hit").first.bounding_box()
    page.screenshot(path=str(SHOTS / "r81-offline-banner-phone.png"))
    more.locator("summary").click()
    opened = more.inner_text()
    assert "reloading or closing it loses the search" in opened and "knows no synonyms or abbreviations" in opened
    no_horizontal_scroll(page)
    context.close()


# ---------------------------------------------------------------------------- r79 L3: a flattened PDF's icon explained


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_snippet_showing_a_flattened_pdf_icon_says_what_it_is(server, browser, size):
    """Blind review r79 L3: "… | cards can also be placed into Shadows during [setup,] …" showed first edition's
    Shadows crest unexplained, though the clause page says what "|" is.  The hit says it under its snippet, drawn as
    typed and as loaded; a hit whose snippet shows no such icon says nothing."""
    context, page = _page(browser, size)
    query = "how much gold do i get for setup"
    page.goto(server + "/?edition=1")
    page.fill("#q", query)
    shadows = "#results li.hit:has-text('Playing a card into Shadows')"
    page.wait_for_selector(shadows, timeout=10_000)
    for drawn in ("typed", "loaded"):
        if drawn == "loaded":
            page.goto(server + "/?edition=1&q=" + query.replace(" ", "+"))
            page.wait_for_selector(shadows)
        hit = page.locator(shadows).first
        assert "|" in hit.locator("p.snippet").inner_text(), drawn
        assert hit.locator("p.glyph-note").inner_text() == "Note: “|” in this text is the Shadows crest (the flattened PDF's icon).", drawn
        assert page.locator("#results li.hit p.glyph-note").count() == 1, drawn
        no_horizontal_scroll(page)
    context.close()
