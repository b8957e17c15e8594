"""The scenario builder after a blind judge review of table disputes (r70): the card texts the engine applies can be
entered, a share link holding a field the form has no place for is said to be damaged, and a late redraw keeps a run's
errors and refusals.  Chromium at phone width (390 px, touch)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.test_builder import add_card, add_step, lannister_against_stark_on_a_phone


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
