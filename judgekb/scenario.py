"""The scenario format: a board, the steps taken, and what a judge expects (YAML).

    title: Darrell's military challenge (rules example)
    edition: 1
    players:
      - name: Darrell
        house: Lannister
        plot: {income: 4, initiative: 1, claim: 1}
        first: true
        in_play:
          - {name: Raff the Sweetling, str: 2, icons: [military, intrigue]}
    steps:
      - challenge: {attacker: Darrell, type: military, against: Brian, attackers: [Raff the Sweetling]}
      - defend: {defenders: [Grey Wind]}
      - resolve: {claim: [Sansa Stark]}
    expect:
      challenge_winner: Darrell
      zones: {Sansa Stark: dead}

Every mapping is checked: an unknown field or card name is reported with file, line and field.
The full reference is in docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from judgekb.engine.state import CARD_TYPES, CHALLENGE_TYPES, KEYWORDS, Card, Player, Plot, State
from judgekb.yamlio import DataError, check_fields, load, loads, where

PLAYER_FIELDS = {"name", "house", "plot", "gold", "power", "title", "first", "in_play", "hand", "deck", "discard", "dead", "shadows"}
CARD_FIELDS = {
    "name",
    "id",
    "type",
    "str",
    "icons",
    "traits",
    "crests",
    "keywords",
    "unique",
    "cost",
    "house",
    "kneeling",
    "power",
    "attachments",
    "duplicates",
    "restriction",
    "income",
    "influence",
    "initiative",
    "immune",
    "owner",
    "controller",
    "gold",
}
ICON_ALIASES = {"mil": "military", "int": "intrigue", "pow": "power", "military": "military", "intrigue": "intrigue", "power": "power"}
STEP_VERBS = {
    "phase",
    "marshal",
    "put_into_play",
    "draw",
    "challenge",
    "redirect",
    "defend",
    "effect",
    "resolve",
    "end_phase",
    "end_round",
    "note",
}
EXPECT_FIELDS = {
    "challenge_winner",
    "challenges",
    "zones",
    "power",
    "house_power",
    "card_power",
    "gold",
    "strength",
    "kneeling",
    "controller",
    "game_winner",
    "refused",
    "initiative",
    "first_player",
    "dominance",
    "participating",
    "choices_needed",
    "at_command",
    "attached_to",
    "total_strength",
}


class Scenario:
    """A loaded scenario: its initial state, its steps (with source lines) and expectations."""

    def __init__(self, path: Path, title: str, state: State, steps: list[dict[str, Any]], expect: dict[str, Any]):
        self.path = path
        self.title = title
        self.state = state
        self.steps = steps
        self.expect = expect
        self.card_notes: list[Any] = []


def _card(path: Path, spec: Any, owner: str, zone: str, cards: dict[str, Card], controller: str | None = None) -> Card:
    if isinstance(spec, str):
        spec = {"name": spec, "__line__": None}
    check_fields(path, spec, {"name"}, CARD_FIELDS, "card")
    at = where(path, spec)
    key = str(spec.get("id") or spec["name"])
    if key in cards:
        raise DataError(f"{at}: card '{key}' appears twice; give the second copy an 'id' such as '{key}#2'")
    kind = spec.get("type", "character")
    if kind not in CARD_TYPES:
        raise DataError(f"{at}: field 'type' must be one of {', '.join(CARD_TYPES)}; got {kind!r}")
    icons = set()
    for icon in spec.get("icons") or []:
        if str(icon).lower() not in ICON_ALIASES:
            raise DataError(f"{at}: field 'icons' has unknown icon {icon!r} (military, intrigue, power)")
        icons.add(ICON_ALIASES[str(icon).lower()])
    keywords = {str(k).lower() for k in spec.get("keywords") or []}
    unknown = sorted(keywords - set(KEYWORDS))
    if unknown:
        raise DataError(f"{at}: field 'keywords' has unknown keyword {unknown[0]!r} (known: {', '.join(KEYWORDS)})")
    for field_name in ("str", "cost", "power", "income", "influence", "initiative", "gold"):
        if field_name in spec and not isinstance(spec[field_name], int):
            raise DataError(f"{at}: field '{field_name}' must be a whole number; got {spec[field_name]!r}")
    real_owner = str(spec.get("owner") or owner)
    # top-level cards are controlled by the player whose zone lists them; attachments by whoever
    # played them (their owner) unless the scenario says otherwise
    controlled_by = str(spec.get("controller") or controller or real_owner)
    card = Card(
        key=key,
        name=str(spec["name"]),
        type=kind,
        owner=real_owner,
        controller=controlled_by,
        zone=zone,
        strength=int(spec.get("str", 0)),
        icons=icons,
        traits=[str(t) for t in spec.get("traits") or []],
        crests=[str(c) for c in spec.get("crests") or []],
        keywords=keywords,
        immune={str(i).lower() for i in spec.get("immune") or []},
        unique=bool(spec.get("unique", False)),
        cost=int(spec.get("cost", 0)),
        house=str(spec.get("house", "neutral")),
        kneeling=bool(spec.get("kneeling", False)),
        power=int(spec.get("power", 0)),
        restriction=spec.get("restriction"),
        income=int(spec.get("income", 0)),
        influence=int(spec.get("influence", 0)),
        initiative=int(spec.get("initiative", 0)),
        gold_tokens=int(spec.get("gold", 0)),
    )
    cards[key] = card
    for attachment in spec.get("attachments") or []:
        child = _card(path, attachment, owner, zone, cards)
        if child.type != "attachment":
            raise DataError(f"{where(path, attachment)}: attachments must have type: attachment")
        child.attached_to = card.key
    for index, duplicate in enumerate(spec.get("duplicates") or [], 2):
        dup_spec = (
            {"name": card.name, "id": f"{card.key} (duplicate {index - 1})", "unique": True, "__line__": spec.get("__line__")}
            if duplicate in (True, card.name)
            else duplicate
        )
        child = _card(path, dup_spec, owner, zone, cards)
        child.duplicate, child.attached_to, child.type = True, card.key, card.type
    return card


def load_scenario(path: Path, text: str | None = None, prepare: Callable[[Any, Path], list[Any]] | None = None) -> Scenario:
    """Read and validate a scenario (a file, or ``text`` named ``path``); problems name file, line and field.

    ``prepare`` may complete the loaded mapping before it is checked (cards by name from an
    imported card database: ``cardfill.preparer``); what it returns is kept as ``card_notes``.
    """
    data = load(path) if text is None else loads(text, path)
    notes = prepare(data, path) if prepare else []
    if not isinstance(data, dict):
        raise DataError(f"{path}: a scenario is a mapping with players and steps")
    optional = {"title", "edition", "expect", "melee", "phase", "round", "notes", "card_data"}
    check_fields(path, data, {"players", "steps"}, optional, "scenario")
    if data.get("card_data", "none") != "none":
        raise DataError(f"{where(path, data)}: field 'card_data' can only be 'none' (placeholder cards: no card database values)")
    if data.get("edition", 1) != 1:
        raise DataError(f"{where(path, data)}: field 'edition': only edition 1 scenarios can be run so far")
    if not isinstance(data["players"], list) or len(data["players"]) < 2:
        raise DataError(f"{where(path, data)}: field 'players' must list at least two players")
    players: dict[str, Player] = {}
    cards: dict[str, Card] = {}
    first = None
    for spec in data["players"]:
        check_fields(path, spec, {"name", "house"}, PLAYER_FIELDS, "player")
        name = str(spec["name"])
        if name in players:
            raise DataError(f"{where(path, spec)}: player '{name}' appears twice")
        plot_spec = spec.get("plot") or {}
        if plot_spec:
            check_fields(path, plot_spec, set(), {"name", "income", "initiative", "claim"}, "plot")
        plot = Plot(
            str(plot_spec.get("name", "plot")),
            int(plot_spec.get("income", 0)),
            int(plot_spec.get("initiative", 0)),
            int(plot_spec.get("claim", 1)),
        )
        players[name] = Player(name, str(spec["house"]), plot, int(spec.get("gold", 0)), int(spec.get("power", 0)), spec.get("title"))
        if spec.get("first"):
            first = name
    for spec in data["players"]:
        name = str(spec["name"])
        for zone in ("in_play", "hand", "deck", "discard", "dead", "shadows"):
            for card_spec in spec.get(zone) or []:
                card = _card(path, card_spec, name, zone, cards, controller=name)
                if card.owner not in players:
                    raise DataError(f"{where(path, card_spec)}: field 'owner': unknown player '{card.owner}'")
    for card in cards.values():
        if card.owner not in players or card.controller not in players:
            raise DataError(f"{path}: card '{card.key}' names an unknown owner or controller")
    for card in cards.values():  # attachments and duplicates sit in their host's zone
        if card.attached_to:
            card.zone = cards[card.attached_to].zone
    state = State(
        players=players,
        cards=cards,
        first_player=first or next(iter(players)),
        phase=str(data.get("phase", "challenges")),
        round=int(data.get("round", 1)),
        melee=bool(data.get("melee", len(players) > 2)),
    )
    steps = data["steps"] or []
    if not isinstance(steps, list):
        raise DataError(f"{where(path, data)}: field 'steps' must be a list")
    for step in steps:
        if not isinstance(step, dict):
            raise DataError(f"{path}: each step is a mapping such as 'challenge: {{...}}'; got {step!r}")
        verbs = set(step) - {"__line__"}
        if len(verbs) != 1 or not verbs <= STEP_VERBS:
            bad = sorted(verbs - STEP_VERBS) or sorted(verbs)
            raise DataError(f"{where(path, step)}: unknown step '{bad[0] if bad else ''}' (steps: {', '.join(sorted(STEP_VERBS))})")
    _check_names(path, steps, state)
    expect = data.get("expect") or {}
    check_fields(path, expect, set(), EXPECT_FIELDS, "expect") if expect else None
    _check_names(path, [expect], state)
    scenario = Scenario(path, str(data.get("title") or path.stem), state, steps, expect)
    scenario.card_notes = notes
    return scenario


NAME_KEYS = {
    "attackers",
    "defenders",
    "claim",
    "discard",
    "deadly",
    "vigilant",
    "vengeful",
    "target",
    "card",
    "onto",
    "kill",
    "kneel",
    "stand",
    "take_control",
    "return_to_hand",
    "return_to_deck",
    "save",
    "zones",
    "strength",
    "kneeling",
    "controller",
    "card_power",
    "participating",
    "attached_to",
    "infamy",
    "stealth",
}
PLAYER_KEYS = {
    "player",
    "attacker",
    "against",
    "to",
    "challenge_winner",
    "game_winner",
    "initiative",
    "first_player",
    "dominance",
    "power",
    "house_power",
    "gold",
    "at_command",
    "first",
    "winner",
    "random_winner",
    "chooses",
}


def _check_names(path: Path, items: list[Any], state: State) -> None:
    """Every card and player a step or expectation names must exist (file:line and field on error)."""

    def visit(node: Any, key: str | None, line_of: Any) -> None:
        if isinstance(node, dict):
            here = node if "__line__" in node else line_of
            for k, v in node.items():
                if k == "__line__":
                    continue
                if (
                    k in NAME_KEYS
                    and isinstance(v, dict)
                    and k in ("zones", "strength", "kneeling", "controller", "card_power", "participating", "attached_to", "stealth")
                ):
                    for name in v:
                        if name != "__line__":
                            check_card(name, k, here)
                    if k == "stealth":
                        for name in v.values():
                            if isinstance(name, str):
                                check_card(name, k, here)
                    if k in ("controller", "attached_to"):
                        for name, value in v.items():
                            if name != "__line__" and k == "attached_to" and value is not None:
                                check_card(value, k, here)
                    continue
                if k in PLAYER_KEYS and isinstance(v, dict):
                    for name in v:
                        if name != "__line__":
                            check_player(name, k, here)
                    continue
                visit(v, k, here)
        elif isinstance(node, list):
            for item in node:
                visit(item, key, line_of)
        elif isinstance(node, str) and key in NAME_KEYS:
            check_card(node, key, line_of)
        elif isinstance(node, str) and key in PLAYER_KEYS and node not in ("none", "nobody"):
            check_player(node, key, line_of)

    def check_card(name: str, key: str, line_of: Any) -> None:
        if name not in state.cards:
            raise DataError(f"{where(path, line_of)}: field '{key}': unknown card '{name}'")

    def check_player(name: str, key: str, line_of: Any) -> None:
        if name not in state.players:
            raise DataError(f"{where(path, line_of)}: field '{key}': unknown player '{name}'")

    for item in items:
        visit(item, None, item)


def challenge_type(value: Any, path: Path, line_of: Any) -> str:
    text = ICON_ALIASES.get(str(value).lower())
    if text not in CHALLENGE_TYPES:
        raise DataError(f"{where(path, line_of)}: field 'type' must be military, intrigue or power; got {value!r}")
    return text
