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


def add_step(page: Page, kind: str) -> None:
    """A step of this kind added below the others, as the step menu and its button add it."""
    page.select_option("#b-step-kind", kind)
    page.click("#b-add-step")


def take_control(page: Page, step: int, card: str, player: str, until: str) -> None:
    """A 'control' step added as step ``step`` (0-based): ``player`` takes control of ``card`` until ``until``."""
    add_step(page, "control")
    page.locator(f"#s{step} label", has_text="Card").locator("select").select_option(card)
    page.locator(f"#s{step} label", has_text="Taken by").locator("select").select_option(player)
    page.locator(f"#s{step} label", has_text="Until").locator("select").select_option(until)


def build_military_challenge(page: Page, edition: str) -> None:
    board = BOARDS[edition]
    page.select_option("#b-edition", edition)
    page.fill("#b-title", "Unopposed military challenge")
    page.locator("#p0 .p-house").select_option(board["factions"][0])
    page.locator("#p1 .p-house").select_option(board["factions"][1])
    add_card(page, 0, "in_play", board["attacker"])
    for victim in board["victims"]:
        add_card(page, 1, "in_play", victim)
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text=board["attacker"]).locator("input").check()
    add_step(page, "defend")  # Player B declares no defenders
    add_step(page, "claim")
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
    assert first_cite.locator(".text").inner_text().strip()
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
    console: list[str] = []  # (r70 L2: each refused run logged "Failed to load resource: … 422")
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    page.goto(carded_server + "/build")
    add_card(page, 0, "in_play", "Jon Aryn")  # a typo: not in the card database
    page.click("#b-run")
    page.wait_for_selector(".field-error")
    error = page.locator("#p0-in_play-0 .field-error")
    assert "Jon Arryn" in error.inner_text()  # the nearest name, beside the card that caused it
    assert page.locator("#p0 [data-zone=in_play] li.card").count() == 1
    # a review: the nearest name came only after Run; it is offered as soon as the card is added, one tap away
    page.locator("#p0-in_play-0 .near button", has_text="Jon Arryn").click()
    expect(page.locator("#p0-in_play-0 strong")).to_have_text("Jon Arryn")
    # and a number typed too large is refused naming what was typed, not the float it parses to ("1e+23")
    page.locator("#p0 .p-power").fill("99999999999999999999999")
    page.locator("#p0 .p-power").press("Tab")
    page.click("#b-run")
    page.wait_for_selector(".field-error")
    assert "from 0 to 999; got 99999999999999999999999" in page.inner_text(".field-error")
    assert not console, console  # two runs the server refused, and the page looks no more broken than it is
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_damaged_share_link_says_so_at_the_top(carded_server, browser, size):
    """A blind review: on a phone, /build#s=z.AAAA looked like an empty builder; "This share link is damaged" sat
    some 2,000 px down, under the form.  It is said at the top, in view, above the form."""
    for token in ("z.notavalidlink", "z.AAAA"):
        context, page = builder_at(browser, carded_server, size, "#s=" + token)
        error = page.locator(".field-error")
        error.wait_for()
        assert "damaged" in error.inner_text()
        box, height = error.bounding_box(), WIDTHS[size][1]
        assert 0 <= box["y"] and box["y"] + box["height"] <= height, box  # seen without scrolling
        assert box["y"] < page.locator("#builder").bounding_box()["y"]
        no_horizontal_scroll(page)
        page.screenshot(path=str(SHOTS / f"builder-damaged-link-{size}.png"))
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_judge_s_first_taps_build_what_they_mean(carded_server, browser, size):
    """A blind judge's review of /build on a phone: tapping Add after typing a name did nothing and lost the name;
    a challenge with no "claim choices" step was never resolved ("Nothing changed on the board"); a second copy of
    a unique character became a second character; a removed card stayed named in a step; a note vanished from
    the trace; keyword choices could not be given.  Each is what a judge would expect now."""
    context, page = builder_at(browser, carded_server, size)
    page.select_option("#b-edition", "2")
    page.locator("#p0 .p-house").select_option("stark")
    page.locator("#p1 .p-house").select_option("lannister")

    def tap_add(player: int, name: str) -> None:  # typed, then the Add button tapped (not the keyboard's Enter)
        field = page.locator(f"#p{player} [data-zone=in_play] .add-card")
        field.fill(name)
        button = page.locator(f"#p{player} [data-zone=in_play] button", has_text="Add")
        button.tap() if size == "phone" else button.click()

    tap_add(0, "Robb Stark")
    page.wait_for_selector("#p0 [data-zone=in_play] li.card >> text=Robb Stark")
    tap_add(1, "Ser Jaime Lannister")
    page.wait_for_selector("#p1 [data-zone=in_play] li.card >> text=Ser Jaime Lannister")
    tap_add(1, "Ser Jaime Lannister")  # a unique card's second copy: its duplicate (RR Duplicates)
    expect(page.locator("#p1 [data-zone=in_play] li.card")).to_have_count(1)
    expect(page.locator("#p1 .dupes")).to_have_text(re.compile("with 1 duplicate"))
    tap_add(1, "Lannisport Merchant")
    page.wait_for_selector("#p1 [data-zone=in_play] li.card >> text=Lannisport Merchant")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Robb Stark").locator("input").check()
    add_step(page, "note")
    page.locator("#s1 input").fill("the defender thinks about it")
    page.locator("#s1 input").press("Tab")
    add_step(page, "defend")
    page.locator("#s2 label.check", has_text="Lannisport Merchant").locator("input").check()
    page.locator("#p1 li.card", has_text="Lannisport Merchant").locator("button", has_text="remove").click()  # it leaves the steps too
    assert "Lannisport Merchant" not in page.text_content("#b-yaml")
    yaml_text = page.text_content("#b-yaml")
    assert "duplicates: [true]" in yaml_text and "resolve: {}  # added" in yaml_text  # no resolve step given: one is added
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    ruling = page.inner_text("#b-result")
    assert "Player A wins" in ruling and "unopposed" in ruling
    assert "step 2 — note: the defender thinks about it" in ruling  # the judge's note keeps its place
    # the claim kills Jaime, whose duplicate is not used unless the defender says so: a choice is asked, in the builder's words
    add_step(page, "claim")
    resolve = page.locator("#s3")
    assert "kill" in resolve.inner_text() and "Robb Stark" not in resolve.locator(".checks").first.inner_text()  # the loser's cards only
    resolve.locator("label.check", has_text="renown").locator("input").check()
    assert "decline: [\"renown\"]" in page.text_content("#b-yaml") and "# added" not in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result")).to_contain_text("does not use renown")  # (the first run's ruling is replaced)
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"builder-first-taps-{size}.png"), full_page=True)
    context.close()


def builder_at(browser, server: str, size: str, fragment: str = ""):
    """A fresh context (a touch phone, or a desktop) with the builder open (at a share link's ``fragment``)."""
    width, height = WIDTHS[size]
    touch = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block", **touch)
    page = context.new_page()
    page.goto(server + "/build" + fragment)
    return context, page


def lannister_against_stark_on_a_phone(browser, server: str):
    """A phone (touch, 390 px) on /build, second edition, Player A Lannister against Player B Stark."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server + "/build")
    page.select_option("#b-edition", "2")
    page.locator("#p0 .p-house").select_option("lannister")
    page.locator("#p1 .p-house").select_option("stark")
    return context, page


def test_the_builder_enters_stealth_a_duplicate_s_save_and_keyword_order_and_numbers_steps_as_the_form(carded_server, browser):
    """A second phone review could not enter a stealth target, a save by a duplicate or the keyword order (every
    challenge with two keyword types asked for an order it could not give), saw locations offered as defenders,
    and read step numbers that counted the resolution the builder adds.  The RR's Stealth: a character chosen by
    stealth cannot be declared as a defender; Duplicates: a duplicate is discarded to save its card."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Tyrion Lannister")
    add_card(page, 1, "in_play", "Catelyn Stark")
    add_card(page, 1, "in_play", "Winterfell")
    add_step(page, "challenge")
    page.locator("#s0 select").nth(1).select_option("intrigue")
    page.locator("#s0 label.check", has_text="Tyrion Lannister").locator("input").check()
    page.locator("#s0 label", has_text="(stealth) bypasses").locator("select").select_option("Catelyn Stark")
    add_step(page, "defend")
    defenders = page.locator("#s1 label.check").all_inner_texts()
    assert any("Catelyn Stark" in d for d in defenders) and not any("Winterfell" in d for d in defenders)  # a location never defends
    # (r46: the engine refused her as a defender, 'step 2 refused'; the form now does not let her be ticked)
    catelyn = page.locator("#s1 label.check", has_text="Catelyn Stark")
    expect(catelyn).to_contain_text("bypassed by stealth: cannot defend")
    expect(catelyn.locator("input")).to_be_disabled()
    assert 'stealth: {"Tyrion Lannister": "Catelyn Stark"}' in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result")).to_contain_text("the resolution added after step 2")  # not "step 3", which the form lacks
    # military now (The Tickler attacks), Catelyn's second copy her duplicate, and the claim saved by it
    add_card(page, 0, "in_play", "The Tickler")
    add_card(page, 1, "in_play", "Catelyn Stark")
    expect(page.locator("#p1 .dupes")).to_have_text(re.compile("with 1 duplicate"))
    page.locator("#s0 select").nth(1).select_option("military")
    page.locator("#s0 label.check", has_text="Tyrion Lannister").locator("input").uncheck()
    page.locator("#s0 label.check", has_text="The Tickler").locator("input").check()
    assert "stealth:" not in page.text_content("#b-yaml")  # the stealth choice left with its attacker
    add_step(page, "claim")
    page.locator("#s2 .checks", has=page.locator("label", has_text="Catelyn Stark")).first.locator("input").check()
    page.locator("#s2 [aria-label='saved by a duplicate'] label.check", has_text="Catelyn Stark").locator("input").check()
    page.locator("#s2 label", has_text="Keyword processed first").locator("select").select_option("renown")
    yaml_text = page.text_content("#b-yaml")
    assert 'claim: ["Catelyn Stark"]' in yaml_text and 'save: ["Catelyn Stark"]' in yaml_text and 'keyword_order: ["renown"]' in yaml_text
    page.click("#b-run")
    expect(page.locator("#b-result")).to_contain_text("saved")
    assert "Catelyn Stark: in play" not in page.inner_text("#b-result .happened")  # she stays; her duplicate goes
    context.close()


def tickler_attacks_then_the_result(browser, server: str):
    """The phone builder with The Tickler (Player A) declared attacking Winterfell Steward's player, then a result step."""
    context, page = lannister_against_stark_on_a_phone(browser, server)
    add_card(page, 0, "in_play", "The Tickler")
    add_card(page, 1, "in_play", "Winterfell Steward")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="The Tickler").locator("input").check()
    add_step(page, "claim")
    return context, page


def test_a_reaction_to_winning_is_entered_and_resolves_before_claim(carded_server, browser):
    """A second phone review could not enter a reaction after winning (its Note changed nothing).  RR 4.2.2's timing
    note: reactions to winning may be initiated after the winner is determined, before the claim is applied."""
    context, page = tickler_attacks_then_the_result(browser, carded_server)
    page.locator("#s1 button", has_text="Add a reaction").tap()
    reaction = page.locator("#s1 .reactions .row").first
    reaction.locator("label", has=page.locator("span.lbl", has_text=re.compile("^Card$"))).locator("select").select_option("The Tickler")
    reaction.locator("label", has_text="Amount").locator("input").fill("2")
    reaction.locator("label", has_text="Amount").locator("input").press("Tab")
    written = (
        'reactions: [{to: "win: Player A", player: "Player A", card: "The Tickler", '
        'effect: {source: "The Tickler", power: {"Player A": 2}}}]'
    )
    assert written in page.text_content("#b-yaml")
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    trace = page.inner_text("#b-result ol.trace")
    assert trace.index("The Tickler (reaction)") < trace.index("C — military claim")  # after D, before C
    # what changed says where the power is (a review read a renown gain as faction power)
    assert "Player A: power 0 → 3 (+3 on the faction card)" in page.inner_text("#b-result ul.happened")
    no_horizontal_scroll(page)
    context.close()


def test_switching_edition_and_back_keeps_the_board_runnable(carded_server, browser):
    """A second phone review: after switching to first edition and back, Run failed on a printing code of the other
    edition; with the printings dropped on the switch, the cards' printings are chosen again from this edition's data."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Robb Stark")  # three printings that differ
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Robb Stark").locator("input").check()
    page.select_option("#b-edition", "1")
    page.select_option("#b-edition", "2")
    expect(page.locator("#p0 .card-printing")).to_have_count(1)  # the printing menu is back, a printing chosen
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("Player A wins")
    assert page.locator(".field-error").count() == 0
    context.close()


def test_a_late_reply_for_the_other_edition_is_not_taken_as_this_editions_cards(carded_server, browser):
    """The flake behind the test above, made certain: on venue wifi the first-edition card data asked for on the
    switch can arrive after the judge has switched back, before the second edition's.  It was cached as
    second-edition cards, a first-edition printing of Robb Stark was chosen, and Run was refused on it."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Robb Stark")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Robb Stark").locator("input").check()
    held: dict[str, list] = {"1": [], "2": []}
    page.route(re.compile(r".*/api/cards\?edition=[12]&.*"), lambda route: held[route.request.url.split("edition=")[1][0]].append(route))

    def wait_for(edition: str) -> None:
        for _ in range(50):
            if held[edition]:
                return
            page.wait_for_timeout(100)
        raise AssertionError(f"the switch did not ask for edition {edition}'s cards")

    page.select_option("#b-edition", "1")
    wait_for("1")
    page.select_option("#b-edition", "2")
    wait_for("2")
    for edition in ("1", "2"):  # the first-edition answer arrives late, before the second edition's
        for route in held[edition]:
            route.continue_()
        page.wait_for_timeout(400)
    page.unroute(re.compile(r".*/api/cards\?edition=[12]&.*"))
    expect(page.locator("#p0 .card-printing")).to_have_count(1)
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("Player A wins")
    assert page.locator(".field-error").count() == 0
    context.close()


def test_a_character_removed_from_the_challenge_no_longer_counts(carded_server, browser):
    """A review could not say a character was removed from the challenge (the engine can).  RR 4.2.2: a side with no
    participating characters when STR is compared does not win; removed, the attacker no longer participates."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "The Tickler")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="The Tickler").locator("input").check()
    add_step(page, "remove")
    page.locator("#s1 select").select_option("The Tickler")
    assert "effect: {remove_from_challenge: [\"The Tickler\"]}" in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("no one wins")
    assert "The Tickler is removed from the challenge" in page.inner_text("#b-result ol.trace")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_typing_in_one_field_then_tapping_the_next_keeps_the_next_focused(carded_server, browser, size):
    """A judge types the plot's name, then taps the card-name field (or a player's name, then the plot): the first
    field's change re-renders the form, and the tapped field was replaced under the finger, so what was typed
    next went nowhere.  The tapped field keeps the focus and takes the typing."""
    context, page = builder_at(browser, carded_server, size)

    def tap(selector: str) -> None:
        field = page.locator(selector).first
        field.tap() if size == "phone" else field.click()

    tap("#p0-plot input")
    page.keyboard.type("A Noble Cause")
    tap("#p0 [data-zone=in_play] .add-card")
    page.keyboard.type("Robb Stark")
    expect(page.locator("#p0 [data-zone=in_play] .add-card")).to_have_value("Robb Stark")
    page.keyboard.press("Enter")
    page.wait_for_selector("#p0 [data-zone=in_play] li.card >> text=Robb Stark")
    tap("#p1 .p-name")
    page.keyboard.press("End")
    page.keyboard.type(" (Ben)")
    tap("#p1-plot input")
    page.keyboard.type("Confiscation")
    expect(page.locator("#p1 .p-name")).to_have_value("Player B (Ben)")
    expect(page.locator("#p1-plot input").first).to_have_value("Confiscation")
    assert "A Noble Cause" in page.locator("#b-yaml").text_content()
    context.close()



@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_value_typed_then_the_next_field_or_fold_tapped_keeps_both(carded_server, browser, size):
    """Review 21: on a card's "values (override the printing)", typing STR then tapping Keywords re-rendered the form
    and folded the values away: the Keywords field lost the focus and what was typed next went nowhere.  Typing the
    power on the faction card then tapping "Hand, deck, discard and dead pile" left it folded (the tap landed on the
    form the re-render had just replaced)."""
    context, page = builder_at(browser, carded_server, size)

    def tap(locator) -> None:
        locator.tap() if size == "phone" else locator.click()

    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    card = page.locator("#p0-in_play-0")
    tap(card.locator("summary"))
    tap(card.locator("label", has_text="STR").locator("input"))
    page.keyboard.type("7")
    tap(card.locator("label", has_text="Keywords").locator("input"))
    page.keyboard.type("renown")
    expect(page.locator("#p0-in_play-0 details")).to_have_attribute("open", "")
    expect(page.locator("#b-yaml")).to_contain_text('str: 7, keywords: ["renown"]')
    tap(page.locator("#p1 .p-power"))
    page.keyboard.type("2")
    tap(page.locator("#p1 details.zones summary"))
    expect(page.locator("#p1 details.zones")).to_have_attribute("open", "")
    expect(page.locator("#p1 [data-zone=hand] .add-card")).to_be_visible()
    assert "power: 2" in page.text_content("#b-yaml")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_fold_pressed_and_held_after_a_value_typed_still_opens(carded_server, browser, size):
    """A fresh clone's run: typing the power then tapping "Hand, deck, discard and dead pile" left it folded.  The tap
    on the power field had set a timer to redraw the form 120 ms after its release; pressed within that time and held,
    the next tap was under a form the timer redrew, so its click was lost.  A press is now its own: only its release
    (or its click) redraws the form, and card data that arrives during a press waits for it as well."""
    context, page = builder_at(browser, carded_server, size)
    summary = page.locator("#p1 details.zones summary")
    summary.scroll_into_view_if_needed()
    power = page.locator("#p1 .p-power").bounding_box()
    fold = summary.bounding_box()
    assert power and fold
    page.mouse.click(power["x"] + power["width"] / 2, power["y"] + power["height"] / 2)
    page.keyboard.type("2")
    page.mouse.move(fold["x"] + 20, fold["y"] + fold["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(400)  # the old release timer (120 ms) fires while the button is held
    page.mouse.up()
    expect(page.locator("#p1 details.zones")).to_have_attribute("open", "")
    assert "power: 2" in page.text_content("#b-yaml")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_card_data_arriving_while_a_fold_is_pressed_does_not_lose_the_tap(carded_server, browser, size):
    """The card data for a card typed in (its printed values) comes back from the server when it comes: on venue
    wifi, while the judge's finger is on the next fold.  Drawing the form then replaced the fold under the finger
    and the tap was lost; the new values are drawn once the press is over."""
    context, page = builder_at(browser, carded_server, size)
    held: list = []
    page.route(lambda url: "/api/cards" in url and "Noble" in url, lambda route: held.append(route))
    page.locator("#p0-plot input").first.fill("A Noble Cause")
    page.locator("#p0-plot input").first.press("Tab")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the builder did not ask for the plot's card data"
    summary = page.locator("#p1 details.zones summary")
    summary.scroll_into_view_if_needed()
    fold = summary.bounding_box()
    assert fold
    page.mouse.move(fold["x"] + 20, fold["y"] + fold["height"] / 2)
    page.mouse.down()
    for route in held:
        route.continue_()
    page.wait_for_timeout(600)  # the data is back from the local server by now
    assert page.locator("#p0 .plot-note").count() == 0, "the form was drawn under the held press"
    page.mouse.up()
    expect(page.locator("#p1 details.zones")).to_have_attribute("open", "")
    expect(page.locator("#p0 .plot-note")).to_contain_text("Printed: income")  # drawn once the press is over
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_phase_step_states_the_first_player_the_tie_break_and_the_reserve_discards(carded_server, browser, size):
    """Review 21: a plot phase with initiative tied ruled "Player B chooses which player is the first player (state
    first_player)" and a taxation phase over reserve "chooses 2 to discard (state 'discard')", and the builder had no
    field for either choice.  RR Initiative: the winner "chooses which player is the 'first player'"; RR 7.3: a player
    over reserve "chooses and discards cards from his or her hand"."""
    context, page = builder_at(browser, carded_server, size)
    page.locator("#p0 .p-power").fill("3")
    page.locator("#p1 .p-power").fill("1")  # initiative tied at 0: Player B, with less power, wins it
    page.locator("#p1 details.zones summary").click()
    for name in ("Winterfell Steward", "Eddard Stark", "Robb Stark"):
        add_card(page, 1, "hand", name)
    page.locator("#p1-plot label", has_text="Reserve").locator("input").fill("2")
    add_step(page, "phase")
    page.locator("#s0 select").first.select_option("plot")
    page.locator("#s0 .s-first-player").select_option("Player A")
    add_step(page, "phase")
    page.locator("#s1 select").first.select_option("taxation")
    page.locator("#s1 label.check", has_text="Robb Stark").locator("input").check()
    yaml_text = page.text_content("#b-yaml")
    assert 'phase: {name: "plot", first_player: "Player A"}' in yaml_text
    assert 'phase: {name: "taxation", discard: {"Player B": ["Robb Stark"]}}' in yaml_text
    page.click("#b-run")
    page.wait_for_selector("#b-result .trace")
    trace = page.inner_text("#b-result .trace")
    assert "Player B wins initiative" in trace and "Player B chooses Player A to be the first player" in trace
    assert "reserve 2: discards Robb Stark" in trace and "state " not in trace  # no choice left unstated
    no_horizontal_scroll(page)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_plot_named_shows_its_printed_values_and_a_mistyped_one_is_said(carded_server, browser, size):
    """Review 21: a plot typed 'Sneak Atack' ran with no word that no plot has that title (a blank plot's values, claim
    1, where Sneak Attack's claim is 2), and a plot typed right showed none of the values it brings; the plot fields
    stayed blank either way.  A card name that is not in the data is offered its nearest titles; now a plot's too."""
    context, page = builder_at(browser, carded_server, size)
    plot = page.locator("#p0-plot label", has_text="Plot").locator("input")
    plot.fill("Sneak Atack")
    plot.press("Tab")
    note = page.locator("#p0 .plot-note")
    expect(note).to_contain_text("Not a plot in the card database")
    note.locator("button", has_text="Sneak Attack").click()
    expect(note).to_have_text(re.compile(r"Printed: income \d+ · initiative \d+ · claim 2 · reserve \d+"))
    assert 'plot: {name: "Sneak Attack"}' in page.text_content("#b-yaml")
    page.locator("#p1-plot label", has_text="Plot").locator("input").fill("Robb Stark")
    page.locator("#p1-plot label", has_text="Plot").locator("input").press("Tab")
    expect(page.locator("#p1 .plot-note")).to_have_text("Robb Stark is not a plot card (it is a character).")
    no_horizontal_scroll(page)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_attachment_is_put_on_the_card_it_is_attached_to(carded_server, browser, size):
    """Review 21: an attachment added in play could not be attached to anything ('Longclaw' was written as a card of
    its own and run as in play on no card, and a kill of its character left it there).  RR Attachment Cards: "If a
    card to which an attachment is attached leaves play, return the attachment to its owner's hand.\""""
    context, page = builder_at(browser, carded_server, size)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    add_card(page, 1, "in_play", "Jon Snow")
    add_card(page, 1, "in_play", "Longclaw")
    longclaw = page.locator("#p1 li.card", has_text="Longclaw")
    expect(longclaw.locator(".attach-note")).to_contain_text("Choose the card it is attached to")
    longclaw.locator("label", has_text="Attached to").locator("select").select_option("Jon Snow")
    expect(page.locator("#p1 li.card", has_text="Jon Snow").locator(".attached")).to_have_text(re.compile("with Longclaw attached"))
    assert 'attachments: [{name: "Longclaw"}]' in page.text_content("#b-yaml")
    add_step(page, "challenge")
    expect(page.locator("#s0 label.check")).to_have_count(1)  # Jaime attacks; no attachment is offered
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "claim")
    assert "Longclaw" not in page.locator("#s1 [aria-label='claim choices']").inner_text()  # claim kills characters
    page.locator("#s1 label.check", has_text="Jon Snow").locator("input").check()
    page.click("#b-run")
    expect(page.locator("#b-result .trace")).to_contain_text("Longclaw returns to its owner Player B's hand")
    no_horizontal_scroll(page)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_change_of_control_is_a_step(carded_server, browser, size):
    """Review 21: no step could say that a player took control of a card (Ward, Take the Black…), though the scenario
    format has one.  RR Ownership and Control: "If a participating character changes control during the resolution
    of a challenge, it is immediately removed from the challenge.\""""
    context, page = builder_at(browser, carded_server, size)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    add_card(page, 1, "in_play", "Eddard Stark")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "defend")
    page.locator("#s1 label.check", has_text="Eddard Stark").locator("input").check()
    take_control(page, 2, "Eddard Stark", "Player A", "end of phase")
    assert 'effect: {take_control: "Eddard Stark", player: "Player A", until: "end of phase"}' in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("Player A wins (5–0), unopposed")
    expect(page.locator("#b-result .trace")).to_contain_text("Eddard Stark is removed from the challenge")
    no_horizontal_scroll(page)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ambush_and_shadows_are_steps_and_gold_is_given(carded_server, browser, size):
    """Review 21: the builder had no gold pool, no shadows area and no step for ambush or for bringing a card out of
    shadows, so a judge could not ask whether a player can ambush with the gold left.  RR Ambush: "pay gold equal
    to the (X) value of a card with ambush to put that card into play from his or her hand"; RR Shadows: a card is
    brought out of shadows by paying its shadow (X) cost.  A share link reruns the same ambush."""
    context, page = builder_at(browser, carded_server, size)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    page.locator("#p1 .p-gold").fill("4")
    page.locator("#p1 details.zones summary").click()
    add_card(page, 1, "hand", "Areo Hotah")  # Core Set: ambush (5)
    add_card(page, 1, "shadows", "Varys")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "enter")
    page.locator("#s1 label", has_text="Player").locator("select").select_option("Player B")
    page.locator("#s1 label", has_text="Card").locator("select").select_option("Areo Hotah")
    expect(page.locator("#s1")).to_contain_text("Ambush (5): Player B pays 5 gold.")
    assert 'put_into_play: {player: "Player B", card: "Areo Hotah", from: "hand", ambush: 5}' in page.text_content("#b-yaml")
    assert "    gold: 4" in page.text_content("#b-yaml") and "    shadows:" in page.text_content("#b-yaml")
    page.click("#b-run")
    expect(page.locator("#b-result .ruling-lines")).to_contain_text("step 2 refused")
    page.locator("#p1 .p-gold").fill("5")
    page.locator("#p1 .p-gold").press("Tab")
    page.click("#b-run")
    expect(page.locator("#b-result .trace")).to_contain_text("Player B puts Areo Hotah into play with ambush (5)")
    no_horizontal_scroll(page)
    page.click("#b-share")
    expect(page.locator("#b-link")).to_have_value(re.compile(r"#s="))
    link = page.input_value("#b-link")
    trace = page.inner_text("#b-result .trace")
    context.close()
    width, height = WIDTHS[size]
    fresh = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    other = fresh.new_page()
    other.goto(link)
    expect(other.locator("#b-result .trace")).to_contain_text("with ambush (5)")
    assert other.inner_text("#b-result .trace") == trace
    fresh.close()


def test_a_choice_the_ruling_asks_for_names_the_builder_field_not_the_yaml_key(carded_server, browser):
    """Review 21: the ruling asked a judge on the builder to "(state first_player)" and "(state 'discard')", the
    scenario file's words; where the form has the field, the ruling now names it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(carded_server + "/build")
    page.locator("#p1 details.zones summary").click()
    for name in ("Winterfell Steward", "Eddard Stark"):
        add_card(page, 1, "hand", name)
    page.locator("#p1-plot label", has_text="Reserve").locator("input").fill("1")
    page.locator("#p1 .p-power").fill("1")  # initiative tied at 0; Player A, with less power, wins it
    add_step(page, "phase")
    page.locator("#s0 select").first.select_option("plot")
    add_step(page, "phase")
    page.locator("#s1 select").first.select_option("taxation")
    page.click("#b-run")
    page.wait_for_selector("#b-result .trace")
    result = page.inner_text("#b-result")
    assert "choose it in the plot step's \u201cFirst player\u201d menu" in result
    assert "tick them under the taxation step" in result
    assert "(state first_player)" not in result and "(state 'discard')" not in result
    context.close()


def test_the_ambush_and_shadows_step_is_not_offered_in_the_first_edition(carded_server, browser):
    """Ambush and shadows are second-edition keywords: the first edition's step menu does not offer them."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    page = context.new_page()
    page.goto(carded_server + "/build")
    assert page.locator("#b-step-kind option[value=enter]").is_enabled()
    page.select_option("#b-edition", "1")
    assert page.locator("#b-step-kind option[value=enter]").is_disabled()
    assert "Shadows" not in page.locator("#p0").inner_text()
    context.close()


def test_a_character_ambushed_in_a_step_can_then_defend(carded_server, browser):
    """Review 21: a character put into play by an earlier step (ambush) was not offered as a defender, nor for claim:
    the checklists listed only the starting board.  RR Ambush puts the card into play from hand."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(carded_server + "/build")
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    page.locator("#p1 .p-gold").fill("5")
    page.locator("#p1 details.zones summary").click()
    add_card(page, 1, "hand", "Areo Hotah")
    add_step(page, "challenge")
    page.locator("#s0 label.check", has_text="Ser Jaime Lannister").locator("input").check()
    add_step(page, "enter")
    page.locator("#s1 label", has_text="Player").locator("select").select_option("Player B")
    page.locator("#s1 label", has_text="Card").locator("select").select_option("Areo Hotah")
    add_step(page, "defend")
    page.locator("#s2 label.check", has_text="Areo Hotah").locator("input").check()
    add_step(page, "claim")
    expect(page.locator("#s3 [aria-label='claim choices'] label.check", has_text="Areo Hotah")).to_have_count(1)
    page.click("#b-run")
    expect(page.locator("#b-result .trace")).to_contain_text("Player B kneels Areo Hotah to defend")
    no_horizontal_scroll(page)
    context.close()


def test_a_character_taken_over_by_an_earlier_step_is_its_new_controller_s(carded_server, browser):
    """The builder listed a character under the player whose board it started on even after a step took control of
    it: Player A could not attack with Eddard Stark after taking him, and he was offered as Player B's claim.  RR
    Ownership and Control: the controller of a card is the player who uses it; control ends with its effect."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    add_card(page, 1, "in_play", "Eddard Stark")
    add_card(page, 1, "in_play", "Catelyn Stark")
    take_control(page, 0, "Eddard Stark", "Player A", "end of phase")
    add_step(page, "challenge")
    attackers = page.locator("#s1 .checks").first
    expect(attackers).to_contain_text("Eddard Stark")  # Player A's now
    attackers.locator("label.check", has_text="Eddard Stark").locator("input").check()
    add_step(page, "defend")
    add_step(page, "claim")
    claim = page.locator("#s3").get_by_role("group", name="claim choices")
    expect(claim).to_contain_text("Catelyn Stark")
    expect(claim).not_to_contain_text("Eddard Stark")  # not Player B's to choose for claim
    add_step(page, "end_phase")
    add_step(page, "challenge")
    expect(page.locator("#s5 .checks").first).not_to_contain_text("Eddard Stark")  # control ended with the phase
    context.close()


def test_control_until_the_end_of_the_challenge_ends_with_the_next_challenge(carded_server, browser):
    """Review 28: the builder ended an 'end of challenge' control only at a claim step, while the engine ends the open
    challenge when the next one is declared: the card stayed offered as the taker's in the next challenge."""
    context, page = lannister_against_stark_on_a_phone(browser, carded_server)
    add_card(page, 0, "in_play", "Ser Jaime Lannister")
    add_card(page, 1, "in_play", "Eddard Stark")
    take_control(page, 0, "Eddard Stark", "Player A", "end of challenge")
    add_step(page, "challenge")
    expect(page.locator("#s1 .checks").first).to_contain_text("Eddard Stark")  # Player A's for this challenge
    add_step(page, "challenge")
    expect(page.locator("#s2 .checks").first).not_to_contain_text("Eddard Stark")  # that challenge ended: back to B
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_name_typed_with_a_phone_s_apostrophe_or_none_is_the_card(carded_server, browser, size):
    """A blind review: "Jaqen H’ghar" (the curly apostrophe a phone keyboard types) or "Jaqen Hghar", then Add, said
    "not in the card database ... Did you mean: Jaqen H'ghar", while search and deck check take both.  Both are
    Jaqen H'ghar now, with its printed values; so is a plot typed "Varys Riddle" (the run reads the title as printed)."""
    context, page = builder_at(browser, carded_server, size)
    for player, typed in ((0, "Jaqen H’ghar"), (1, "Jaqen Hghar")):
        field = page.locator(f"#p{player} [data-zone=in_play] .add-card")
        field.fill(typed)
        button = page.locator(f"#p{player} [data-zone=in_play] button", has_text="Add")
        button.tap() if size == "phone" else button.click()
        card = page.locator(f"#p{player}-in_play-0")
        expect(card.locator("strong")).to_have_text(re.compile(r"^Jaqen H'ghar( \(Player B\))?$"))  # (each player's copy named apart)
        assert "not in the card database" not in card.inner_text() and "STR" in card.inner_text()
    plot = page.locator("#p0-plot input").first
    plot.fill("Varys Riddle")
    plot.press("Tab")
    expect(page.locator("#p0 .plot-note")).to_contain_text("Printed: income")
    expect(page.locator("#p0-plot input").first).to_have_value("Varys's Riddle")
    assert page.text_content("#b-yaml").count("Jaqen H'ghar") >= 2
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    assert page.locator(".field-error").count() == 0
    no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"builder-apostrophes-{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_printed_ruling_shows_the_judge_s_title_and_judge_and_time_lines(carded_server, browser, size):
    """A blind review: built with the title "Table 4: military claim vs Jaime", run and printed, the sheet had no title
    (the form is hidden in print) but the builder's introduction ("Pick the edition, add players…"), and none of the
    deck-check sheet's Judge and Time lines.  Printed now: the title, then Judge and Time, then the ruling."""
    context, page = builder_at(browser, carded_server, size)
    build_military_challenge(page, "2")
    page.fill("#b-title", "Table 4: military claim vs Jaime")
    page.click("#b-run")
    page.wait_for_selector("#b-result .ruling-lines li")
    assert not page.is_visible("#b-result .ruling-head")  # on screen the form says the title
    page.fill("#b-title", "Table 4: military claim vs Jaime (round 2)")  # retitled after the run: the sheet follows
    page.emulate_media(media="print")
    head = page.locator("#b-result .ruling-head")
    assert head.locator("h1").inner_text() == "Table 4: military claim vs Jaime (round 2)"
    signoff = head.locator(".signoff").inner_text()
    assert "Judge: ____" in signoff and "Time: ____" in signoff and "2nd edition" in signoff
    assert head.bounding_box()["y"] < page.locator("#b-result .ruling-lines").bounding_box()["y"]
    printed = page.inner_text("main")
    assert "Pick the edition" not in printed and "Build a scenario" not in printed
    assert printed.lstrip().startswith("Table 4: military claim vs Jaime (round 2)")
    page.screenshot(path=str(SHOTS / f"builder-print-{size}.png"), full_page=True)
    if size == "desktop":
        page.pdf(path=str(SHOTS / "builder-ruling-sheet.pdf"))
    page.emulate_media(media="screen")
    context.close()
