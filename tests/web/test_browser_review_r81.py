"""The web page after an event-day review on a phone (r81), in Debian's chromium at phone (390 px) and desktop
(1280 px) widths: whole search snippets, the card page's status and text labelled truthfully, the builder's
printed sheet, Back and the search history, the Changes page, clause links, the offline banner."""

from __future__ import annotations

import pytest

from tests.browser_support import SHOTS, new_page, no_horizontal_scroll

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
    page.goto(server + "/?edition=2")
    page.fill("#q", PRECEDENCE)
    page.wait_for_selector("#results li.hit:has-text('Rulings and Clarifications')", timeout=10_000)
    for drawn in ("typed", "loaded"):
        if drawn == "loaded":
            page.goto(server + "/?edition=2&q=" + PRECEDENCE.replace(" ", "+"))
            page.wait_for_selector("#results li.hit:has-text('Rulings and Clarifications')")
        faq = page.locator("#results li.hit", has_text="Rulings and Clarifications").first.locator("p.snippet")
        assert "the text of this document takes precedence." in faq.inner_text()
        assert _clipped(page, "#results p.snippet") == [], drawn
        note = page.locator("#results details.amends").first
        assert not note.evaluate("e => e.open") and note.bounding_box()["height"] < 60, drawn
        assert "Corrects a text not in the corpus" in note.locator("summary").inner_text()
        note.locator("summary").click()
        assert "Compare initiative" in note.inner_text()
        no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"r81-snippet-whole-{size}.png"))
    context.close()
