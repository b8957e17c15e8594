"""The scenario builder after a blind judge review of table disputes (r70): the card texts the engine applies can be
entered, a share link holding a field the form has no place for is said to be damaged, and a late redraw keeps a run's
errors and refusals.  Chromium at phone width (390 px, touch)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from tests.browser_support import WIDTHS
from tests.web.test_builder import add_card, add_step, lannister_against_stark_on_a_phone
from tests.web.test_builder_links import tampered, token


def open_values(page, card_box: str) -> None:
    details = page.locator(f"{card_box} details").first
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()


def test_a_card_that_does_not_kneel_when_declared_as_an_attacker_attacks_twice(carded_server, browser):
    """r70 H1: Ser Jaime Lannister (Core 87): "Ser Jaime Lannister does not kneel when declared as an attacker in a
    [military] challenge".  The form had no way to give it: he was knelt attacking in [military] and his [intrigue]
    attack was refused ("a character must be standing to be declared as an attacker", RR 4.2).  The card's text, from
    a menu, is written as its `constant` and he attacks again."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    printing = page.locator("#p0-in_play-0 .card-printing")
    if printing.count():
        printing.select_option("01087")
    add_card(page, 1, "in_play", "Winterfell Steward")
    open_values(page, "#p0-in_play-0")
    page.locator("#p0-in_play-0 .c-no-kneel").select_option("an attacker")
    page.locator("#p0-in_play-0 .c-no-kneel-in").select_option("military")
    yaml_text = page.text_content("#b-yaml") or ""
    assert 'constant: ["does not kneel when declared as an attacker in a military challenge"]' in yaml_text, yaml_text
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "challenge")
    page.locator("#s1 label", has_text="Type").locator("select").select_option("intrigue")
    page.locator("#s1 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    ruling = page.inner_text("#b-result .ruling-lines")
    assert "refused" not in ruling, ruling
    assert "intrigue challenge by Player A" in ruling, ruling
    expect(page.locator("#b-result .trace")).to_contain_text("does not kneel")
    context.close()


def test_a_character_that_cannot_be_bypassed_by_stealth_is_not_offered_as_a_stealth_target(carded_server, browser):
    """r70 H2: Benjen Stark (Core 122): "Each Ranger character you control cannot be bypassed by stealth".  The form
    offered Ser Waymar Royce (Ranger) as Syrio Forel's stealth target, then disabled him as a defender, and the ruling
    was "unopposed".  FAQ v4.1 (2.1): "that card cannot be chosen to be {variable}ed by a card ability or game effect".
    Ticked "cannot be bypassed by stealth", he is written with `cannot`, is not offered to stealth, and may defend."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Syrio Forel")
    add_card(page, 1, "in_play", "Ser Waymar Royce")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Syrio Forel").locator("input").check()
    stealth = page.locator("#s0 .s-stealth")
    expect(stealth.locator("option", has_text="Ser Waymar Royce")).to_have_count(1)  # (before: stealth may choose him)
    open_values(page, "#p1-in_play-0")
    page.locator("#p1-in_play-0 label.check", has_text="cannot be bypassed by stealth").locator("input").check()
    assert 'cannot: ["be bypassed by stealth"]' in (page.text_content("#b-yaml") or "")
    expect(page.locator("#s0 .s-stealth option", has_text="Ser Waymar Royce")).to_have_count(0)
    add_step(page, "defend")
    defender = page.locator("#s1 label.check", has_text="Ser Waymar Royce").locator("input")
    expect(defender).to_be_enabled()
    context.close()


def test_a_late_redraw_keeps_an_opened_link_s_error_and_refusals(carded_server, browser):
    """r70 M3: opened share links were redrawn when their card look-ups came back after the run, and the redraw took
    the run's notes with it: gold "five" ended with no ruling and no error (2 of 6 loads), and "Refused: …" beside a
    step went (D6, kneeling a kneeling character: 3 of 6).  Here the look-ups are held back until after the run, as
    a slow venue network does, every time; the notes stay."""

    def steward(s: dict[str, Any], **more: Any) -> None:
        s["players"][1]["zones"]["in_play"].append({"name": "Winterfell Steward", **more})

    def gold_five(s: dict[str, Any]) -> None:
        steward(s)
        s["players"][0]["gold"] = "five"
        s["steps"] = [{"kind": "phase", "name": "dominance"}]

    def kneel_knelt(s: dict[str, Any]) -> None:
        steward(s, kneeling=True)
        s["steps"] = [{"kind": "kneel", "target": "Winterfell Steward"}]

    for change, place, said in ((gold_five, "#p0 .field-error", "five"), (kneel_knelt, "#s0 .refusal", "Refused")):
        for _ in range(2):
            width, height = WIDTHS["phone"]
            viewport = {"width": width, "height": height}
            context = browser.new_context(viewport=viewport, service_workers="block", has_touch=True, is_mobile=True)
            page = context.new_page()
            errors: list[Any] = []
            page.on("pageerror", lambda e, seen=errors: seen.append(e))
            page.route("**/api/cards*", lambda route: (time.sleep(1.0), route.continue_()))
            page.goto(carded_server + "/build" + token(tampered(change)))
            expect(page.locator(place)).to_contain_text(said)
            page.wait_for_timeout(2500)  # the held look-ups come back and the form is drawn again
            expect(page.locator(place)).to_contain_text(said, timeout=100)
            assert not errors, errors
            context.close()


def test_a_melee_board_gives_each_player_a_title(carded_server, browser):
    """r70 M1: with three players the form had no title menu, the YAML no `title:`, and the ruling said nothing of
    titles, so the Master of Ships dispute (Ser Waymar Royce, 3 STR, attacking Benjen Stark, 4 STR, in [military])
    came out "Player B wins".  RR Melee Game: "Melee games use the title cards"; RR Title Cards: "The Master of Ships
    contributes 1 additional STR" — 4 to 4, and a tie is won by the attacking player."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    expect(page.locator(".p-title")).to_have_count(0)  # two players: a joust, no titles
    page.click("#b-add-player")
    expect(page.locator("#p2 .title-note")).to_be_visible()
    for player, title in ((0, "Master of Ships"), (1, "Master of Coin"), (2, "Master of Laws")):
        page.locator(f"#p{player} .p-title").select_option(title)
    expect(page.locator(".title-note")).to_have_count(0)
    add_card(page, 0, "in_play", "Ser Waymar Royce")
    add_card(page, 1, "in_play", "Benjen Stark")
    printing = page.locator("#p1-in_play-0 .card-printing")
    if printing.count():
        printing.select_option("01122")
    yaml_text = page.text_content("#b-yaml") or ""
    assert '    title: "Master of Ships"\n' in yaml_text and '    title: "Master of Laws"\n' in yaml_text, yaml_text
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Waymar Royce").locator("input").check()
    add_step(page, "defend")
    page.locator("#s1 label.check", has_text="Benjen Stark").locator("input").check()
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    ruling = page.inner_text("#b-result .ruling-lines")
    assert "Player A wins (4\u20134)" in ruling, ruling
    page.locator("#p2 button", has_text="Remove player").click()  # back to two players: the titles go
    assert "    title:" not in (page.text_content("#b-yaml") or "")
    context.close()
