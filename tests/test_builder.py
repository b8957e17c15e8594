"""The scenario builder in a real browser: a military challenge built from nothing with named cards,
run, shared as a link, and reopened in a fresh page with the same ruling (phone and desktop)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser_support import SHOTS, WIDTHS, no_horizontal_scroll

# Two boards a judge might type at a table, one per edition: an unopposed military challenge where
# the losing player has two characters and chooses which one claim kills.
BOARDS = {
    "2": {
        "factions": ("lannister", "stark"),
        "attacker": "The Tickler",
        "victims": ("Winterfell Steward", "Sansa Stark"),
        "kill": "Winterfell Steward",
    },
    "1": {"factions": ("Lannister", "Stark"), "attacker": "Raff the Sweetling", "victims": ("Bran Stark", "Old Nan"), "kill": "Old Nan"},
}


def add_card(page: Page, player: int, zone: str, name: str) -> None:
    field = page.locator(f"#p{player} [data-zone={zone}] .add-card")
    field.fill(name)
    field.press("Enter")
    page.wait_for_selector(f"#p{player} [data-zone={zone}] li.card >> text={name}")


def build_military_challenge(page: Page, edition: str) -> None:
    board = BOARDS[edition]
    page.select_option("#b-edition", edition)
    page.fill("#b-title", "Unopposed military challenge")
    page.locator("#p0 .p-house").select_option(board["factions"][0])
    page.locator("#p1 .p-house").select_option(board["factions"][1])
    add_card(page, 0, "in_play", board["attacker"])
    for victim in board["victims"]:
        add_card(page, 1, "in_play", victim)
    page.select_option("#b-step-kind", "challenge")
    page.click("#b-add-step")
    page.locator("#s0 label.check", has_text=board["attacker"]).locator("input").check()
    page.select_option("#b-step-kind", "defend")
    page.click("#b-add-step")  # Player B declares no defenders
    page.select_option("#b-step-kind", "claim")
    page.click("#b-add-step")
    page.locator("#s2 label.check", has_text=board["kill"]).locator("input").check()


@pytest.mark.parametrize("size,edition", [("phone", "2"), ("desktop", "2"), ("desktop", "1")])
def test_build_run_share_and_reopen(carded_server, browser, size, edition):
    width, height = WIDTHS[size]
    # (the offline copy is tested on its own: here its service worker would save 4,600 pages in each context,
    # which on a busy two-core machine starved the page under test past its 30 s wait)
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(carded_server + "/build")
    build_military_challenge(page, edition)
    yaml_text = page.text_content("#b-yaml")
    assert f"edition: {edition}" in yaml_text and BOARDS[edition]["attacker"] in yaml_text
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    ruling = page.inner_text("#b-result")
    board = BOARDS[edition]
    assert "Player A wins" in ruling and "unopposed" in ruling
    assert board["kill"] in ruling  # the claim's kill is in the trace
    assert page.locator("#b-result details.cite").count() > 0  # every step's citation, text one tap away
    first_cite = page.locator("#b-result details.cite").first
    first_cite.locator("summary").click()
    assert first_cite.locator("p.text").inner_text().strip()
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"builder-ed{edition}-{size}.png"), full_page=True)

    page.click("#b-share")
    expect(page.locator("#b-link")).to_have_value(re.compile(r"#s="))
    link = page.input_value("#b-link")
    assert link.startswith(carded_server + "/build#s=")
    lines = page.inner_text("#b-result .ruling-lines")
    context.close()  # another judge's phone: the first one's page is gone
    fresh = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    other = fresh.new_page()
    other.goto(link)
    other.wait_for_selector("#b-result .ruling-lines li")
    assert other.inner_text("#b-result .ruling-lines") == lines
    assert other.text_content("#b-yaml") == yaml_text  # the same board and steps were rebuilt
    fresh.close()


def test_an_error_is_shown_beside_the_step_it_concerns_and_nothing_typed_is_lost(carded_server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.goto(carded_server + "/build")
    add_card(page, 0, "in_play", "Jon Aryn")  # a typo: not in the card database
    page.click("#b-run")
    page.wait_for_selector(".field-error")
    error = page.locator("#p0-in_play-0 .field-error")
    assert "Jon Arryn" in error.inner_text()  # the nearest name, beside the card that caused it
    assert page.locator("#p0 [data-zone=in_play] li.card").count() == 1
    context.close()


def test_a_damaged_share_link_says_so(carded_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(carded_server + "/build#s=z.notavalidlink")
    page.wait_for_selector(".field-error")
    assert "damaged" in page.inner_text(".field-error")
    context.close()
