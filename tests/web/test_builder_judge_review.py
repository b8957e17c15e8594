"""The scenario builder after a blind judge review (r46): what a judge enters is kept, an incomplete step is
said, and the menus follow the rules.  Chromium at phone (390 px, touch) and desktop (1280 px) widths."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser_support import SHOTS, no_horizontal_scroll
from tests.web.test_builder import add_card, add_step, builder_at, lannister_against_stark_on_a_phone, tickler_attacks_then_the_result


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


def test_a_step_with_no_card_is_said_beside_it_and_not_run_as_an_empty_effect(carded_server, browser):
    """r46 #2: "Card killed" with no card chosen, and a step whose card was then removed from the board, were run as
    ``effect: {}`` and skipped without a word: a judge read a ruling where the kill never happened."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "The Tickler")
    add_card(page, 1, "in_play", "Winterfell Steward")
    add_card(page, 1, "in_play", "Sansa Stark")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="The Tickler").locator("input").check()
    add_step(page, "kill")  # no card chosen
    add_step(page, "remove")
    page.locator("#s2 label", has_text="Card").locator("select").select_option("Sansa Stark")
    page.locator("#p1 li.card", has_text="Sansa Stark").locator("button", has_text="remove").click()  # its card leaves the board
    expect(page.locator("#s1 .step-missing")).to_be_visible()
    expect(page.locator("#s2 .step-missing")).to_be_visible()
    assert "effect: {}" not in page.text_content("#b-yaml") and "no card chosen" in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#s1 .field-error")).to_contain_text("choose the card")
    expect(page.locator("#s2 .field-error")).to_contain_text("choose the card")
    expect(page.locator("#b-status")).to_contain_text("Not run")
    assert page.locator("#b-result .ruling-lines li").count() == 0
    page.locator("#s1 label", has_text="Card").locator("select").select_option("Winterfell Steward")
    page.locator("#s2 button", has_text="remove").last.click()
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines li").first).to_be_visible()
    assert page.locator(".field-error").count() == 0
    context.close()


def test_the_form_says_what_a_deck_listed_means(carded_server, browser):
    """r46 #3: a deck listed with only its top card is the whole deck (docs/scenarios.md), so pillage eliminated the
    player: nothing on the form said so."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    page.locator("#p1 details.zones > summary").click()
    note = page.locator("#p1 [data-zone=deck] .deck-note")
    expect(note).to_contain_text("whole deck")
    expect(note).to_contain_text("Leave the deck empty")
    add_card(page, 1, "deck", "Winterfell Steward")
    expect(note).to_contain_text("Player B\u2019s deck holds only this card")
    expect(note).to_contain_text("eliminated")
    page.locator("#p1 [data-zone=deck]").screenshot(path=str(SHOTS / "builder-deck-note-phone.png"))
    # r70 L3: a deck-out dispute.  Every board began in the challenges phase, so "Phase begins: draw" first ended the
    # challenges phase there ("no end_phase step ends the challenges phase: it ends now"), dominance, standing,
    # taxation and plot skipped without a word.  The form's starting phase is the scenario's `phase` (docs/scenarios.md)
    phase = page.locator("#b-phase")
    assert phase.locator("option").all_inner_texts() == [
        "plot", "draw", "marshaling", "challenges (default)", "dominance", "standing", "taxation"]  # (RR Appendix I's phases)
    expect(phase).to_have_value("challenges")
    assert 'phase: "challenges"\n' in (page.text_content("#b-yaml") or "")
    phase.select_option("plot")
    add_step(page, "phase")
    page.locator("#s0 select").first.select_option("draw")
    assert 'phase: "plot"\n' in (page.text_content("#b-yaml") or "")
    page.click("#b-run")
    page.wait_for_selector("#b-result .trace")
    trace = page.inner_text("#b-result .trace")
    assert "the plot phase ends" in trace and "challenges phase" not in trace, trace
    # RR Appendix I 2.2: "each player draws 2 cards"; RR Winning the Game: a player with no cards left in the draw deck
    # is eliminated.  Player B's deck holds one card; Player A's is left out (unknown): A draws nothing, is not out
    assert "Player B draws 1 card(s)" in trace and "Player B is eliminated" in page.inner_text("#b-result"), trace
    context.close()


def test_first_edition_deadly_kill_is_chosen_in_the_resolve_step(carded_server, browser):
    """r46 #4: a first-edition 'Challenge resolved' step had no menu for the Deadly kill (nor vigilant, vengeful,
    infamy), though the format has ``deadly: card``; the ruling asked for a choice the form could not give."""
    context, page = builder_at(browser, carded_server, "phone")
    page.select_option("#b-edition", "1")
    page.locator("#p0 .p-house").select_option("Lannister")
    page.locator("#p1 .p-house").select_option("Baratheon")
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    add_card(page, 1, "in_play", "Stannis Baratheon")
    add_card(page, 1, "in_play", "Brienne of Tarth")
    for card, code in (("p0-in_play-0", "core_37"), ("p1-in_play-0", "core_72"), ("p1-in_play-1", "core_76")):
        printing = page.locator(f"#{card} select.card-printing")
        if printing.count():
            printing.select_option(code)
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "defend")
    page.locator("#s1 label.check", has_text="Stannis Baratheon").locator("input").check()
    page.locator("#s1 label.check", has_text="Brienne of Tarth").locator("input").check()
    add_step(page, "claim")
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("\u201cDeadly kills\u201d menu")
    deadly = page.locator("#s2 select.s-deadly")
    assert deadly.locator("option").all_inner_texts()[1:] == ["Stannis Baratheon (Player B)", "Brienne of Tarth (Player B)"]
    deadly.select_option("Brienne of Tarth")
    assert 'deadly: "Brienne of Tarth"' in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).not_to_contain_text("choice is needed")
    expect(page.locator("#b-result .trace")).to_contain_text("the defender kills Brienne of Tarth")
    context.close()


def pick_printing(page, card: str, code: str) -> None:
    """The printing ``code`` for the card at element id ``card`` (a menu shown only when its printings differ)."""
    printing = page.locator(f"#{card} select.card-printing")
    if printing.count():
        printing.select_option(code)


def test_intimidate_may_kneel_a_character_ambushed_during_the_challenge(carded_server, browser):
    """r46 #5: the 'Intimidate kneels' menu left out The Hound, ambushed into play after no defenders were declared;
    RR Intimidate: the character knelt need not be participating."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Ser Gregor Clegane")
    pick_printing(page, "p0-in_play-0", "14027")
    add_card(page, 1, "in_play", "Sansa Stark")
    page.locator("#p1 .p-gold").fill("5")
    page.locator("#p1 details.zones summary").click()
    add_card(page, 1, "hand", "The Hound")
    pick_printing(page, "p1-hand-0", "02009")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Gregor Clegane").locator("input").check()
    add_step(page, "defend")
    add_step(page, "enter")
    page.locator("#s2 label", has_text="Player").locator("select").select_option("Player B")
    page.locator("#s2 label", has_text="Card").locator("select").select_option("The Hound")
    add_step(page, "claim")
    page.locator("#s3 label.check", has_text="Sansa Stark").locator("input").check()
    page.locator("#s3 label", has_text="Intimidate kneels").locator("select").select_option("The Hound")
    page.click("#b-run")
    expect(page.locator("#b-result .happened")).to_contain_text("The Hound")
    expect(page.locator("#b-result .trace")).to_contain_text("kneels The Hound")
    context.close()


def test_choices_the_rules_forbid_are_left_out_or_marked_and_a_refusal_is_shown_beside_its_step(carded_server, browser):
    """r46 #7: the stealth menu offered Varys (who has stealth), the defenders offered the stealth target, a knelt or
    icon-less character was offered as an attacker, and an engine refusal was only in the ruling, never beside the step."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    for name in ("Arya Stark", "Summer", "Robb Stark"):
        add_card(page, 0, "in_play", name)
    page.locator("#p0-in_play-2 details summary").click()
    page.locator("#p0-in_play-2").get_by_role("checkbox", name="knelt", exact=True).check()
    add_card(page, 1, "in_play", "Varys")
    add_card(page, 1, "in_play", "Winterfell Steward")
    add_step(page, "challenge")
    page.locator("#s0 label", has_text="Type").locator("select").select_option("power")
    page.locator("#s0 label.check", has_text="Arya Stark").locator("input").check()
    expect(page.locator("#s0 label.check", has_text="Summer")).to_contain_text("no power icon: cannot attack")
    expect(page.locator("#s0 label.check", has_text="Robb Stark")).to_contain_text("knelt on the board")
    stealth = page.locator("#s0 select.s-stealth")
    assert stealth.locator("option").all_inner_texts() == ["— no one —", "Winterfell Steward"]  # not Varys (RR Stealth)
    stealth.select_option("Winterfell Steward")
    add_step(page, "defend")
    steward = page.locator("#s1 label.check", has_text="Winterfell Steward")
    expect(steward).to_contain_text("bypassed by stealth")
    expect(steward.locator("input")).to_be_disabled()
    page.locator("#s0 label.check", has_text="Robb Stark").locator("input").check()  # chosen anyway: the engine refuses
    page.click("#b-run")
    expect(page.locator("#s0 .refusal").first).to_contain_text("Refused: illegal: Robb Stark is kneeling")
    no_horizontal_scroll(page)  # (the marks and the refusal wrap at 390 px)
    page.screenshot(path=str(SHOTS / "builder-forbidden-marked-phone.png"), full_page=True)
    context.close()


def test_a_plot_takes_its_printed_title(carded_server, browser):
    """r46 #10: a plot typed 'a noble cause' was named so in the ruling and on the printed sheet."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    plot = page.locator("#p0-plot label", has_text="Plot").locator("input")
    plot.fill("a noble cause")
    page.wait_for_selector("#b-card-names option[value='A Noble Cause']", state="attached")  # the suggestion came first
    plot.press("Tab")
    expect(plot).to_have_value("A Noble Cause")
    assert 'plot: {name: "A Noble Cause"}' in page.text_content("#b-yaml")
    context.close()


def test_an_edition_switch_says_what_it_changed_and_can_be_undone(carded_server, browser):
    """r46 #9: switching the edition after building reset the factions and re-read every card as the other edition's
    card of the same name, without a word."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Robb Stark")
    page.select_option("#b-edition", "1")
    note = page.locator("#b-edition-note")
    expect(note).to_contain_text("Switched to the 1st edition")
    expect(note).to_contain_text("Player A\u2019s faction (lannister) is cleared")
    expect(note).to_contain_text("1st-edition cards of the same names")
    note.locator("button", has_text="Undo").click()
    expect(page.locator("#b-edition")).to_have_value("2")
    expect(page.locator("#p0 .p-house")).to_have_value("lannister")
    expect(note).to_have_count(0)
    context.close()


def test_phone_tap_targets_of_the_trace_search_and_clause_page(carded_server, browser):
    """r46 #11: on a phone the trace's "open …" links were 16 px tall, search-result titles and the clause page's
    JSON and permalink links 19 px, and the claim step's insight checkbox sat alone with its label wrapped below."""
    context, page = tickler_attacks_then_the_result(browser, carded_server)
    label = page.locator("#s1 label.check", has_text="insight draws")
    box, text = label.locator("input").bounding_box(), label.locator("span").bounding_box()
    assert text["x"] > box["x"] + box["width"] and text["y"] < box["y"] + box["height"], (box, text)  # beside it
    label.screenshot(path=str(SHOTS / "builder-insight-label-phone.png"))
    page.click("#b-run")
    summaries = page.locator("#b-result details.cite summary")
    summaries.first.wait_for()
    heights = [summaries.nth(i).bounding_box()["height"] for i in range(summaries.count())]
    assert min(heights) >= 44, heights  # r70 L1: a two-line citation's toggle was 43.2 px tall (min-height 32px)
    summaries.first.click()
    opened = page.locator("#b-result details.cite[open] > a").first
    assert opened.bounding_box()["height"] >= 44
    page.goto(carded_server + "/?q=intimidate+kneel&edition=2")
    titles = page.locator("#results li.hit a.citation")
    titles.first.wait_for()
    # on a touch screen the whole result opens it (its title link's ::after covers the result): a tap on the snippet
    # lands on the title link, so the target is the result's height, not the title's 19 px
    for i in range(3):
        hit = page.locator("#results li.hit").nth(i)
        snippet = hit.locator(".snippet, .source").first.bounding_box()
        x, y = snippet["x"] + snippet["width"] / 2, snippet["y"] + snippet["height"] / 2
        assert page.evaluate(f"document.elementFromPoint({x}, {y}).closest('a.citation') !== null"), i
        assert hit.bounding_box()["height"] >= 44
    page.screenshot(path=str(SHOTS / "search-titles-phone.png"))
    titles.first.click()
    page.wait_for_selector("#permalink")
    for link in ("a.api-link", "#permalink"):
        assert page.locator(link).bounding_box()["height"] >= 44, link
    page.locator(".ids").screenshot(path=str(SHOTS / "clause-ids-phone.png"))
    context.close()
