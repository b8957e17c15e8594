"""The scenario builder after a blind judge review (r46): what a judge enters is kept, an incomplete step is
said, and the menus follow the rules.  Chromium at phone (390 px, touch) and desktop (1280 px) widths."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.test_builder import add_card, add_step, builder_at, lannister_against_stark_on_a_phone


def test_a_reload_or_back_keeps_the_board_without_a_share_link(carded_server, browser):
    """r46 #1: a reload, or Back after opening another page, emptied the form unless "Copy share link" was tapped."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    page.fill("#b-title", "Kept at the table")
    add_card(page, 0, "in_play", "The Tickler")
    add_card(page, 1, "in_play", "Winterfell Steward")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="The Tickler").locator("input").check()
    page.wait_for_timeout(600)  # (the last change's pause)
    assert page.evaluate("location.hash").startswith("#s=")  # (no wait_for_function: the page's CSP forbids eval)
    page.reload()
    expect(page.locator("#p1 [data-zone=in_play] li.card")).to_have_count(1)
    expect(page.locator("#b-title")).to_have_value("Kept at the table")
    expect(page.locator("#s0 label.check", has_text="The Tickler").locator("input")).to_be_checked()
    page.wait_for_selector("#b-result .ruling-lines li")  # the ruling is run again, as a share link runs it
    # a change, then another page and Back: the change is kept too
    add_card(page, 1, "in_play", "Sansa Stark")
    page.goto(carded_server + "/search")
    page.go_back()
    expect(page.locator("#p1 [data-zone=in_play] li.card")).to_have_count(2)
    context.close()
