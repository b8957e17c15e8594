"""corpus/titles2.yaml records the six second-edition melee titles from the printed title cards: every fact in
it is checked here against the card data (../shared/cards/agot2-throneteki), which the project never commits."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tests.conftest import ROOT, SHARED_CARDS

DATA = yaml.safe_load((ROOT / "corpus" / "titles2.yaml").read_text(encoding="utf-8"))["titles"]
PACKS = SHARED_CARDS / "agot2-throneteki" / "packs"
ICONS = {"military", "intrigue", "power"}


def _printed_titles() -> dict[str, dict]:
    """The Core Set's title cards by name, with their pack code."""
    found = {}
    for path in sorted(PACKS.glob("*.json")):
        pack = json.loads(path.read_text(encoding="utf-8"))
        for card in pack["cards"]:
            if card.get("type") == "title" and pack["code"] == "Core":
                found[card["name"]] = {**card, "pack": pack["code"]}
    return found


@pytest.fixture(scope="module")
def printed() -> dict[str, dict]:
    assert PACKS.is_dir(), "../shared/cards is beside the repository in CI"
    return _printed_titles()


def _line(text: str, label: str) -> list[str]:
    """The names a 'Supported by' / 'Supports:' / 'Rivals:' line lists ([] for 'None')."""
    match = re.search(rf"^{label}:?\s*(.*?)\.?$", text, re.MULTILINE)
    assert match, f"no '{label}' line in {text!r}"
    names = [n.strip() for n in match.group(1).split(",")]
    return [] if names == ["None"] else names


def test_the_six_melee_titles_of_the_core_set_are_recorded(printed):
    assert sorted(DATA) == sorted(printed) and len(DATA) == 6


@pytest.mark.parametrize("name", sorted(DATA))
def test_relationships_are_the_printed_ones(printed, name):
    card, fact = printed[name], DATA[name]
    assert fact["card"] == f"Core {int(card['code'][2:])}"
    assert _line(card["text"], "Supported by") == ([fact["supported_by"]] if fact["supported_by"] else [])
    assert _line(card["text"], "Supports") == ([fact["supports"]] if fact["supports"] else [])
    assert sorted(_line(card["text"], "Rivals")) == sorted(fact["rivals"])


def test_supports_and_supported_by_describe_one_cycle():
    supported = {name: fact["supports"] for name, fact in DATA.items() if fact["supports"]}
    assert all(DATA[target]["supported_by"] == name for name, target in supported.items())


@pytest.mark.parametrize("name", sorted(DATA))
def test_str_bonus_is_the_printed_icon_line(printed, name):
    text, bonus = printed[name]["text"], DATA[name]["str_bonus"]
    lines = re.findall(r"^\+(\d) STR (?:\[(\w+)\]|for Dominance)$", text, re.MULTILINE)
    assert {(icon or "dominance"): int(n) for n, icon in lines} == bonus


@pytest.mark.parametrize("name", sorted(DATA))
def test_abilities_are_the_printed_ones(printed, name):
    text, ability = printed[name]["text"], DATA[name]["ability"]
    found: dict = {}
    if m := re.search(r"You may redirect (\d) challenge this round\.", text):
        found["redirect"] = int(m.group(1))
    if m := re.search(r"^\+(\d) Income\.$", text, re.MULTILINE):
        found["income"] = int(m.group(1))
    if m := re.search(r"^\+(\d) Reserve\.$", text, re.MULTILINE):
        found["reserve"] = int(m.group(1))
    if m := re.search(r"Increase the number of cards you draw in the draw phase by (\d)\.", text):
        found["draw_phase_draw"] = int(m.group(1))
    extra = r"You may initiate an additional \[(\w+)\] challenge during the challenges phase, against a different opponent\."
    if m := re.search(extra, text):
        found["additional_challenge"] = m.group(1)
    raise_ = r"Raise the claim value on your revealed plot card by (\d) during \[(\w+)\] challenges in which you are attacking a rival\."
    if m := re.search(raise_, text):
        found["claim_raise"] = {"type": m.group(2), "by": int(m.group(1))}
    if m := re.search(r"You may resolve your \[(\w+)\] claim against any number of opponents of your choice\.", text):
        found["claim_any_opponents"] = m.group(1)
    assert found == ability
    assert all(v in ICONS for k, v in found.items() if k in ("additional_challenge", "claim_any_opponents"))
