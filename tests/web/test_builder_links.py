"""The scenario builder's share links after a blind hostile-input review (r53): a link can only say what the form
shows, and a link the form cannot show is said to be damaged, over the empty form.  Chromium at phone width."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser_support import WIDTHS

# a builder state as "Copy share link" writes it: two second-edition players and a challenge
STATE: dict[str, Any] = {
    "edition": "2",
    "title": "T",
    "players": [
        {
            "name": name,
            "house": "",
            "plot": {"name": "", "income": "", "initiative": "", "claim": "", "reserve": ""},
            "first": first,
            "power": "",
            "gold": "",
            "zones": {"in_play": [], "hand": [], "deck": [], "discard": [], "dead": [], "shadows": []},
        }
        for name, first in (("Player A", True), ("Player B", False))
    ],
    "steps": [{"kind": "challenge", "attacker": "Player A", "type": "military", "against": "Player B", "attackers": [], "stealth": {}}],
}


CLAIM = {"kind": "claim", "claim": "military", "cards": [], "decline": [], "use": [], "intimidate": ""}  # "Challenge resolved"
REACTION = {"to": "win: Player A", "card": "", "effect": "power", "amount": 1, "target": ""}  # as "Add a reaction" writes it
KNELT_1E = {"name": "Guard", "cannot": ["be knelt"]}  # a second-edition `cannot` word the first edition does not apply


def token(state: Any) -> str:
    """The share link's fragment for ``state`` (the uncompressed form, "j.")."""
    return "#s=j." + base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


def tampered(change: Any) -> dict[str, Any]:
    state = copy.deepcopy(STATE)
    change(state)
    return state


def opened(browser: Any, server: str, state: Any) -> tuple[Any, Any, list[str], list[str]]:
    """The builder opened at a share link for ``state``; with the page's uncaught errors and the YAML it posted."""
    errors: list[str] = []
    posted: list[str] = []
    width, height = WIDTHS["phone"]
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: posted.append(r.post_data or "") if "/api/run" in r.url else None)
    page.goto(server + "/build" + token(state))
    return context, page, errors, posted


def gold(state: dict[str, Any], value: str) -> None:
    state["players"][0]["gold"] = value
    state["steps"] = [{"kind": "phase", "name": "dominance"}]


@pytest.mark.parametrize(
    "state",
    [
        # r53 M3: fields the form does not show, written into the YAML as lines of their own
        tampered(lambda s: s.__setitem__("edition", "2\nphase: taxation")),
        tampered(lambda s: gold(s, "5\n    power: 14\n    hand: [{name: X, type: event}]")),
        tampered(lambda s: s["players"][1].__setitem__("power", "3\n    power: 14")),
        tampered(lambda s: s["players"][0]["zones"]["in_play"].append({"name": "Guard", "power": 14})),  # no such card field
        tampered(lambda s: s["steps"][0].__setitem__("type", "power\n  - note: x")),
        # r53 L1: well-formed JSON of the wrong shape threw inside render() and drew an empty or half-drawn form
        tampered(lambda s: s["players"][0]["zones"].__setitem__("hand", "abc")),
        tampered(lambda s: s["players"][0].pop("plot")),
        tampered(lambda s: s["steps"].append(None)),
        tampered(lambda s: s["steps"][0].__setitem__("attackers", "abc")),
        tampered(lambda s: s["steps"][0].pop("attackers")),  # a shape no check names: the form fails to draw it
        # r70 H1/H2: a card's texts are the menu's only (a free text would be kept by the engine and applied as nothing)
        tampered(lambda s: s["players"][0]["zones"]["in_play"].append({"name": "Guard", "constant": ["cannot lose"]})),
        tampered(lambda s: s["players"][0]["zones"]["in_play"].append({"name": "Guard", "cannot": ["be invincible"]})),
        tampered(lambda s: (s.__setitem__("edition", "1"), s["players"][0]["zones"]["in_play"].append(KNELT_1E))),
        # r70 M2: a field added by hand at any level was dropped in silence, though the README calls such a link damaged
        tampered(lambda s: s.__setitem__("melee", True)),
        tampered(lambda s: s.__setitem__("phase", "lunch")),  # the starting phase: one of the edition's seven (r70 L3)
        tampered(lambda s: s["players"][0].__setitem__("title", "Master of Ships")),
        tampered(lambda s: s["players"][0]["plot"].__setitem__("gold", 9)),
        tampered(lambda s: s["players"][0]["zones"].__setitem__("hidden", [{"name": "Guard"}])),
        tampered(lambda s: s["steps"][0].__setitem__("assault", {"card": "Guard"})),
        tampered(lambda s: s["steps"].append(CLAIM | {"reactions": [REACTION | {"cost": "kneel"}]})),
        # r70 M1: a title only in a melee (three or more players), one of its edition's six
        tampered(lambda s: (s.__setitem__("edition", "1"), s["players"].append(s["players"][1] | {"name": "C", "first": False}),
                            s["players"][0].__setitem__("title", "Master of Ships"))),
    ],
    ids=["edition", "gold", "power", "card-field", "step-type", "zone-text", "no-plot", "null-step", "attackers-text", "no-attackers",
         "card-constant", "card-cannot", "card-cannot-1e", "top-melee", "top-phase", "player-title", "plot-gold", "zone-hidden",
         "step-assault", "reaction-cost", "title-1e"],
)
def test_a_tampered_or_misshapen_share_link_is_said_damaged_over_the_empty_form(server, browser, state):
    """r53 M3: a share link's ``edition: "2\\nphase: taxation"`` or Player A's ``gold: "5\\n    power: 14 …"`` was
    written into the YAML unquoted: the form showed a gold field and nothing else, and the ruling was "Player A wins
    the game".  r53 L1: four links of the wrong shape threw an uncaught error (``p.zones[zone].forEach is not a
    function``) and left an empty or half-drawn form with no word.  Each is now a damaged link: the message at the
    top, the empty form, nothing run."""
    context, page, errors, posted = opened(browser, server, state)
    message = page.locator("#b-link-error")
    message.wait_for()
    assert "This share link is damaged" in message.inner_text()
    expect(page.locator("#b-players fieldset.player")).to_have_count(2)  # the empty form: two players, no step
    expect(page.locator("#b-steps > *")).to_have_count(0)
    yaml_text = page.text_content("#b-yaml") or ""
    assert "phase: taxation" not in yaml_text and "power: 14" not in yaml_text, yaml_text
    page.wait_for_timeout(300)
    assert not errors, errors
    assert not posted, posted
    context.close()


def test_every_value_a_share_link_gives_is_written_quoted_or_as_a_number(server, browser):
    """r53 M3: ``power``/``gold`` went into the YAML as typed, unquoted; a number is written as a number, anything else
    quoted, so the check names what was typed and no value can add a line of its own."""
    state = tampered(lambda s: s["players"][0].update(power="3", gold="5 gold: 9"))
    context, page, errors, posted = opened(browser, server, state)
    page.wait_for_selector("#b-result .field-error, #b-result .ruling-lines li, .field-error")
    yaml_text = page.text_content("#b-yaml") or ""
    assert "    power: 3\n" in yaml_text and '    gold: "5 gold: 9"\n' in yaml_text, yaml_text
    assert "edition: 2\n" in yaml_text
    assert 'phase: "challenges"\n' in yaml_text  # a link made before the form had a starting phase: the default
    assert not page.locator("#b-link-error").count()  # a link the form can show is read, and run
    assert posted and '"5 gold: 9"' in posted[0]
    assert not errors, errors
    context.close()


def test_a_share_link_keeps_the_card_texts_the_form_offers(server, browser):
    """r70 H1/H2: a card's `constant` ("does not kneel when declared as …") and `cannot` ("be bypassed by stealth"),
    as the form's menus write them, are read from a share link and written into the YAML."""
    no_kneel = "does not kneel when declared as an attacker in a military challenge"
    jaime = {"name": "Jaime", "str": 3, "icons": ["military", "intrigue"], "constant": [no_kneel]}
    ranger = {"name": "Ranger", "str": 2, "icons": ["military"], "cannot": ["be bypassed by stealth", "be killed"]}
    state = tampered(lambda s: (s["players"][0]["zones"]["in_play"].append(jaime), s["players"][1]["zones"]["in_play"].append(ranger)))
    context, page, errors, posted = opened(browser, server, state)
    page.wait_for_selector("#b-result .ruling-lines li, .field-error")
    assert not page.locator("#b-link-error").count()
    yaml_text = page.text_content("#b-yaml") or ""
    assert 'constant: ["does not kneel when declared as an attacker in a military challenge"]' in yaml_text, yaml_text
    assert 'cannot: ["be bypassed by stealth", "be killed"]' in yaml_text, yaml_text
    expect(page.locator("#p0-in_play-0 .c-no-kneel")).to_have_value("an attacker")
    assert not errors, errors
    context.close()
