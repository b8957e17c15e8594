"""The web page after blind review r88 (/work/reviews/r88.md), in Debian's chromium: what its findings asked of the
search page's own script."""

from __future__ import annotations

import pytest

from tests.browser_support import new_page, search_drawn


@pytest.mark.parametrize("drawn", ["typed", "loaded"])
def test_a_highlight_keeps_a_word_with_a_parenthesis_whole(server, browser, drawn):
    """r88 L10: "effect(s)" was marked "effect(s" with its closing parenthesis outside the mark.  Typed (the page's
    script draws the results) and loaded (the server draws them) alike."""
    query = "can a duplicate save my character from a kill effect"
    context, page = new_page(browser, "desktop")
    search_drawn(page, server, query, drawn)
    page.wait_for_selector("#results li.hit:has-text('subsequent removal')", timeout=10_000)
    marks = page.locator("#results li.hit", has_text="subsequent removal").first.locator("p.snippet mark").all_inner_texts()
    assert "effect(s)" in marks and "effect(s" not in marks, marks
    context.close()
