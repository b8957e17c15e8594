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

Every field and step argument is checked for type and range against a schema (``STEPS``,
``EFFECT``, ``EXPECT``): a wrong type, an unknown field, card or player is reported with file,
line and field.  The full reference is in docs/scenarios.md.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judgekb.cards import restrictions
from judgekb.engine.core.state import CARD_TYPES, CHALLENGE_TYPES, KEYWORDS, Card, Player, Plot, State, TitleTerms
from judgekb.engine.core.steps import names as step_names
from judgekb.yamlio import DataError, check_fields, got, load, loads, read_data, where

KEYWORDS2 = (
    "stealth",
    "renown",
    "insight",
    "intimidate",
    "pillage",
    "limited",
    "no attachments",
    "assault",
    "prized",
    "terminal",
    "ambush",
    "bestow",
    "shadow",
)
VALUED = ("ambush", "bestow", "shadow", "prized")
# what a second-edition card can be immune to (engine/agot2/constants.check_immune: the effect's source, or every card
# effect, or an opponent's): an effect's `gain: "immune to events"` grants it as the card's `immune` field does
IMMUNE_TO2 = (
    "events",
    "character abilities",
    "location abilities",
    "attachment abilities",
    "plots",
    "agendas",
    "card effects",
    "opponent's card effects",
)
# The 'cannot' restrictions each engine applies (a card's `cannot`, an effect's `cannot`): any other is refused at load,
# since it would be stored and said to apply while nothing consults it (review r51: 'cannot: gain power' was traced as
# applying, then renown gave the card power; 'cannot: be dancing' was accepted)
CANNOT1 = ("be killed", "be discarded", "be returned to hand", "be returned to deck", "be saved", "be controlled", "change control")
CANNOT2 = (
    "be killed",
    "be discarded",
    "be sacrificed",
    "be returned to hand",
    "be returned to deck",
    "be knelt",
    "be stood",
    "be saved",
    "gain power",
    "be bypassed by stealth",
)
# an effect's only, edition 2: a player's (FAQ v4.1 No Surprises Q&A), and The Iron Throne's naming a card
CANNOT2_EFFECT = ("bring cards out of shadows", "be marshaled, played, or put into play")


def cannot_words(value: str) -> str:
    """A 'cannot' restriction as the engine stores it: lower case, one space, 'be ' before a bare past participle."""
    words = " ".join(value.lower().split())
    return words if words.startswith("be ") or words in ("gain power", "change control") or "out of shadows" in words else f"be {words}"


def cannot_problem(value: Any, edition: int, effect: bool) -> str | None:
    """Why ``value`` is no 'cannot' restriction the edition's engine applies, or None when it is one."""
    if not isinstance(value, str) or not value.strip():
        return f"must be text; got {value!r}"
    known = (CANNOT2 + (CANNOT2_EFFECT if effect else ())) if edition == 2 else CANNOT1
    words = cannot_words(value)
    if words in known or (edition == 2 and effect and "out of shadows" in words):
        return None
    return f"{value!r} is not a restriction the edition {edition} engine applies (it applies: {', '.join(known)})"


HOUSES = ("Baratheon", "Greyjoy", "Lannister", "Martell", "Stark", "Targaryen")  # 1st ed.: the six Great Houses
FACTIONS = ("baratheon", "greyjoy", "lannister", "martell", "thenightswatch", "stark", "targaryen", "tyrell", "neutral")
PHASES = ("setup", "plot", "draw", "marshalling", "marshaling", "challenges", "dominance", "standing", "taxation")


def phase_said2(phase: str) -> str:
    """A phase as the second-edition Rules Reference spells it: the board keeps first edition's "marshalling"."""
    return "marshaling" if phase == "marshalling" else phase
ICON_ALIASES = {"mil": "military", "int": "intrigue", "pow": "power", "military": "military", "intrigue": "intrigue", "power": "power"}
TERMINAL = re.compile(r"^(killed|discarded|kill|discard) if (its )?str (is )?0$", re.IGNORECASE)
UNTILS = (
    "end of phase",
    "end of the phase",
    "phase",
    "end of round",
    "end of the round",
    "round",
    "challenge",
    "end of challenge",
    "end of the challenge",
    "permanent",
)
ZONE_NAMES = (
    "in_play",
    "play",
    "in play",
    "hand",
    "deck",
    "discard",
    "dead",
    "duplicate",
    "shadows",
    "used",
    "removed",
    "revealed",  # edition 2: a player's revealed plot (in play: `in_play` matches it too)
    "plot_deck",  # edition 2: a plot not yet revealed
    "plot deck",
)

PLAYER_FIELDS = {
    "name",
    "house",
    "faction",
    "agenda",
    "plot",
    "plot_deck",
    "used_plots",
    "gold",
    "power",
    "title",
    "first",
    "in_play",
    "hand",
    "deck",
    "discard",
    "dead",
    "shadows",
    "faction_kneeling",
}
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
    "faction",
    "kneeling",
    "power",
    "attachments",
    "duplicates",
    "restriction",
    "income",
    "influence",
    "initiative",
    "claim",
    "reserve",
    "immune",
    "cannot",
    "constant",
    "loyal",
    "facedown",
    "owner",
    "controller",
    "gold",
    "limit_copies",
}
PLOT_FIELDS = {"name", "id", "type", "constant", "income", "initiative", "claim", "reserve", "traits", "when_revealed"}

# ------------------------------------------------------------------ schema of steps and expectations
# A field type is one of: "text", "int", "count" (whole number >= 0), "bool", "card" (a card of the
# scenario), "title" (a card of the scenario or any other title), "cards", "player", "players",
# "any"; ("enum", choices); ("map", schema) a nested mapping; ("list", schema) a list of mappings;
# ("cardmap", type) / ("playermap", type) mappings from card / player to a value; ("textlist",).

COST: dict[str, Any] = {
    "kneel": "cards",
    "stand": "cards",
    "sacrifice": "cards",
    "kill": "cards",
    "discard": "cards",
    "return_to_hand": "cards",
    "gold": "count",
    "power": ("cardmap", "count"),
    "player": "player",
    "spend_from": "card",
    "kneel_faction_card": "bool",  # "Kneel your faction card": the paying player's
}
EFFECT: dict[str, Any] = {
    "source": "title",
    "source_type": ("enum", ("event", "character", "location", "attachment", "plot", "agenda", "title", "framework")),
    "controller": "player",
    "target": "cards",
    "choose": "bool",
    "all": "bool",
    "str": "int",
    "gain": "gained",  # a keyword, 'trait: NAME' or (edition 2) 'immune to X'
    "lose": "lost",  # a keyword, 'trait: NAME', 'all keywords' or 'all traits'

    "gain_icon": ("enum", tuple(ICON_ALIASES)),
    "lose_icon": ("enum", tuple(ICON_ALIASES)),
    "until": "until",
    "terminal": "terminal",
    "take_control": "cards",
    "player": "player",
    "kneel": "cards",
    "stand": "cards",
    "kill": "cards",
    "discard": "cards",
    "sacrifice": "cards",
    "return_to_hand": "cards",
    "return_to_deck": "cards",
    "position": ("enum", ("top", "bottom")),
    "discard_from_hand": "cards",
    "discard_from_deck": "count",
    "cannot_be_saved": "bool",
    "gold": ("playermap", "int"),
    "power": ("playermap", "int"),
    "move_power": ("map", {"from": "owner", "to": "owner", "count": "count"}),
    "cannot": "cannot",  # a restriction the edition's engine applies (cannot_problem)
    "save": "cards",
    "saves": ("list", {"card": "card", "by": "title", "effect": ("map", "EFFECT"), "canceled_by": "title"}),
    "order": ("textlist",),
    "forced_order": ("textlist",),  # the first player's order of forced abilities to one condition, by card (RR Forced ...)
    "canceled_by": "title",
    "infamy": "card",
    "victory_choice": "player",
    "interrupts": ("list", "REACT"),
    "reactions": ("list", "REACT"),
    "cost": ("map", COST),
    "blank": "bool",
    "put_into_play": "cards",
    "onto": "card",  # the card an attachment put into play attaches to (RR Attachment Cards)
    "from": ("enum", ("hand", "discard", "dead", "shadows", "deck")),
    "kneeling": "bool",
    "kneel_faction_card": "player",
    "stand_faction_card": "player",
    "participating": ("enum", ("attacker", "defender")),
    "if_won_by": "count",
    "contribute": "player",
    "participate": "player",
    "remove_from_challenge": "cards",
    "reveal_plot": ("playermap", "card"),
    "note": "text",
    "place_in_dead_pile": "cards",
    "if_attacking_alone": "card",
    "claim": "int",
    "set_str": "count",
    "draw": "count",
    "each_player": "bool",  # with draw or discard_from_deck: "each player draws 2 cards", one effect on every player at once
    "additional_challenge": ("enum", tuple(ICON_ALIASES)),
    "instead": "bool",
    "base_gold": "count",
    "priority": ("textlist",),
    "referential": "cards",
    "rest": ("enum", ("kill", "discard", "sacrifice", "return_to_hand", "kneel")),
    # "reduce the cost of the next character you marshal this phase by 3" (The Kingsroad)
    "reduce_cost": (
        "map",
        {"by": "count", "next": ("enum", ("character", "location", "attachment", "event", "card")), "as": ("enum", ("marshal", "play"))},
    ),
}
EFFECT["otherwise"] = ("map", EFFECT)
EFFECT["at_end_of"] = ("map", {"period": ("enum", ("phase", "challenge", "round")), "effect": ("map", EFFECT)})
TRIGGERS = (
    "action",
    "reaction",
    "interrupt",
    "forced reaction",
    "forced interrupt",
    "when revealed",
    "dominance action",
    "challenges action",
    "marshaling action",
)
# The events a second-edition `reaction` step may answer (`to: "VERB: SUBJECT"`): each is recorded by the engine as it
# occurs, so a reaction to one that did not occur is refused (RR Reactions, Triggering Condition); any other verb is
# refused at load, since the engine could not tell whether it occurred.
REACTION_VERBS2 = (
    "kill",
    "discard",
    "sacrifice",
    "return to hand",
    "return to deck",
    "leave play",
    "marshal",
    "put into play",
    "enter play",
    "kneel",
    "stand",
    "strength",
    "play",
    "declare challenge",
    "win",
    "lose",
    "claim",
    "renown",
    "insight",
    "intimidate",
    "pillage",
    "win dominance",
    "end of phase",
    "end of challenge",
    "end of round",
)
# RR Actions: "Some Action abilities have a phase name as a qualifier to the word 'Action.'" -> the phase it names
PHASE_ACTIONS = {"dominance action": "dominance", "challenges action": "challenges", "marshaling action": "marshalling"}
ACTION_TRIGGERS = ("action", *PHASE_ACTIONS)
LIMIT = ("map", {"times": "count", "per": ("enum", ("phase", "challenge", "round", "game"))})  # RR Limits and Maxima
REACT: dict[str, Any] = {
    "setup": "bool",
    "limit": LIMIT,
    "max": LIMIT,
    "to": "text",
    "player": "player",
    "card": "title",
    "trigger": ("enum", TRIGGERS),
    "cost": ("map", COST),
    "effect": ("map", EFFECT),
}
SCHEMAS = {"EFFECT": EFFECT, "REACT": REACT}
EFFECT["saves"] = ("list", {"card": "card", "by": "title", "effect": ("map", EFFECT), "canceled_by": "title"})
ABILITY = {
    "player": "player",
    "card": "title",
    "trigger": ("enum", TRIGGERS),
    "cost": ("map", COST),
    "effect": ("map", EFFECT),
    "then": ("map", EFFECT),
    "reactions": ("list", REACT),
    "interrupts": ("list", REACT),
    "forced_order": ("textlist",),
    "canceled_by": "title",
    "saves": ("list", {"card": "card", "by": "title", "effect": ("map", EFFECT), "canceled_by": "title"}),
    "setup": "bool",
    "limit": LIMIT,
    "max": LIMIT,
}
RESOLVE_KEYWORDS2 = ("insight", "intimidate", "pillage", "renown")  # the challenge resolution keywords (RR 4.2.5)
RESOLVE_BOTH = {
    "claim": "cards",
    "discard": "cards",
    "save": "cards",
    "victory_choice": "player",
    "interrupts": ("list", "REACT"),
    "reactions": ("list", "REACT"),
}
RESOLVE1 = {**RESOLVE_BOTH, "deadly": "card", "vigilant": "cards", "vengeful": "cards", "infamy": "card"}
RESOLVE2 = {
    **RESOLVE_BOTH,
    "keyword_order": ("enumlist", RESOLVE_KEYWORDS2),
    "pillage_order": "cards",
    "intimidate": "card",
    "chooses": "player",
    "decline": ("enumlist", RESOLVE_KEYWORDS2),  # keywords that say "may": the winner does not use them (RR Abilities)
    "use": ("enumlist", RESOLVE_KEYWORDS2),  # ... or does, where the engine would otherwise ask (insight's last card)
    "forced_order": ("textlist",),
}
RESOLVE = {**RESOLVE1, **RESOLVE2}  # (the fields of either edition: an edition's scenario is checked against its own)
PHASE_STEP = {
    "name": ("enum", PHASES),
    "first_player": "player",
    "random_winner": "player",
    "titles": ("playermap", "text"),
    "income_cap": "count",
    "extra_gold": "count",
    "infamy": ("playermap", "card"),
    "victory_choice": "player",
    "reveal": ("playermap", "title"),
    "discard": ("playermap", "cards"),
}
END = {"interrupts": ("list", REACT), "reactions": ("list", REACT), "forced_order": ("textlist",)}
# Fields of steps both editions take that only the second-edition rules read (bestow, gold on a card,
# marshaling into shadows): refused in a first-edition scenario, not silently ignored.
EDITION2_FIELDS = {
    "marshal": {"bestow", "spend_from", "into"},
    "put_into_play": {"bestow"},
    "redirect": {"stealth", "assault"},
    "effect": {"reduce_cost", "kneel_faction_card", "stand_faction_card", "forced_order", "saves"},
    "end_phase": {"forced_order"},
    "end_round": {"forced_order"},
}
# Fields of 'marshal' that marshaling a card into shadows (into: shadows) does not read.
MARSHAL_NOT_INTO_SHADOWS = ("onto", "as_duplicate", "bestow", "from")
STEPS: dict[str, tuple[set[str], dict[str, Any], int]] = {
    # verb: (required arguments, schema, editions: 1, 2 or 3 for both)
    "phase": ({"name"}, PHASE_STEP, 3),
    "marshal": (
        {"player", "card"},
        {
            "player": "player",
            "card": "card",
            "onto": "card",
            "as_duplicate": "bool",
            "bestow": "count",
            "spend_from": "card",
            "from": ("enum", ("hand", "attached")),
            "into": ("enum", ("shadows",)),
        },
        3,
    ),
    "put_into_play": (
        {"player", "card"},
        {
            "player": "player",
            "card": "card",
            "onto": "card",
            "from": ("enum", ("hand", "discard", "dead", "shadows", "deck")),
            "ambush": "count",
            "bestow": "count",
        },
        3,
    ),
    "draw": ({"player"}, {"player": "player", "count": "count"}, 3),
    "challenge": (
        {"attacker", "type", "against"},
        {
            "attacker": "player",
            "type": ("enum", tuple(ICON_ALIASES)),
            "against": "player",
            "attackers": "cards",
            "stealth": ("cardmap", "card"),
            "assault": ("cardmap", "card"),
        },
        3,
    ),
    "redirect": (
        {"player"},
        {"player": "player", "to": "player", "stealth": ("cardmap", "card"), "assault": ("cardmap", "card")},
        3,
    ),
    "defend": (set(), {"player": "player", "defenders": "cards"}, 3),
    "resolve": (set(), RESOLVE, 3),
    "effect": (set(), EFFECT, 3),
    "end_phase": (set(), END, 3),
    "end_round": (set(), END, 3),
    "end_challenge": (set(), END, 2),
    "ability": ({"player", "card"}, ABILITY, 2),
    # (an event with a reaction or interrupt is played as a `reaction` or `interrupt` step: its `to` is checked there)
    "play_event": (
        {"player", "card"},
        {**ABILITY, "card": "card", "from": ("enum", ("hand", "discard", "shadows")), "trigger": ("enum", ACTION_TRIGGERS)},
        2,
    ),
    "interrupt": ({"player", "card", "to"}, {**REACT, "to": "interrupt event", "then": ("map", EFFECT)}, 2),
    "reaction": ({"player", "card", "to"}, {**REACT, "to": "reaction event", "then": ("map", EFFECT)}, 2),
    "bring_out_of_shadows": ({"player", "card"}, {"player": "player", "card": "card", "onto": "card", "shadow": "count"}, 2),
    "concede": ({"player"}, {"player": "player"}, 2),
    "loop": ({"times", "steps"}, {"times": "count", "steps": "any", "player": "player"}, 2),
    "setup": (set(), {"place": ("playermap", "cards"), "attach": ("cardmap", "card"), "shadows": ("playermap", "cards")}, 2),
    "note": (set(), {}, 3),
}
STEP_VERBS = set(STEPS)
RESULT = {
    "type": ("enum", CHALLENGE_TYPES),
    "winner": "player?",
    "loser": "player?",
    "attacker": "player",
    "defender": "player",
    "defending_player": "player?",
    "attack": "count",
    "defence": "count",
    "unopposed": "bool",
    "ended_without_resolution": "bool",
    "ended_without_winner": "bool",
    "claim": ("enum", ("applied", "none")),
}
EXPECT: dict[str, Any] = {
    "challenge_winner": "player?",
    "challenges": ("list", RESULT),
    "zones": ("cardmap", ("enum", ZONE_NAMES)),
    "power": ("playermap", "count"),
    "house_power": ("playermap", "count"),
    "faction_power": ("playermap", "count"),
    "card_power": ("cardmap", "count"),
    "gold": ("playermap", "count"),
    "strength": ("cardmap", "count"),
    "kneeling": ("cardmap", "bool"),
    "faction_kneeling": ("playermap", "bool"),
    "controller": ("cardmap", "player"),
    "attached_to": ("cardmap", "card?"),
    "game_winner": "player?",
    "winner": "player?",
    "refused": ("intlist",),
    "refused_cites": ("intmap", ("textlist",)),
    "choices_needed": ("intlist",),
    "initiative": "player?",
    "first_player": "player?",
    "dominance": "player?",
    "participating": ("cardmap", "bool"),
    "at_command": ("playermap", "count"),
    "total_strength": ("map", {"attack": "count", "defence": "count"}),
    "deck_position": ("cardmap", "position"),
    "deck_order": ("playermap", "cards"),
    "hand_size": ("playermap", "count"),
    "deck_size": ("playermap", "count"),
    "traits": ("cardmap", ("textlist",)),
    "title": ("playermap", "text"),
    "trace_order": ("textlist",),
    "cites": ("list", {"step": "count", "tag": "text", "clauses": ("textlist",)}),
    "not_cited": ("textlist",),
}
EXPECT_FIELDS = set(EXPECT)
WHOLE_LISTS = frozenset({"not_cited"})  # a list even of one (a bare string was taken as one clause id; docs: a list)
ED2_ONLY_EXPECT = {
    "faction_kneeling",
    "traits",
    "title",
    "faction_power",
    "winner",
    "deck_position",
    "deck_order",
    "hand_size",
    "deck_size",
    "trace_order",
}
REQUIRED = {"cites": {"step", "clauses"}, "limit": {"times", "per"}, "max": {"times", "per"}, "reduce_cost": {"by", "next"}}


class Scenario:
    """A loaded scenario: its initial state, its steps (with source lines) and expectations."""

    def __init__(self, path: Path, title: str, state: State, steps: list[dict[str, Any]], expect: dict[str, Any], edition: int = 1):
        self.path = path
        self.title = title
        self.state = state
        self.steps = steps
        self.expect = expect
        self.edition = edition
        self.card_notes: list[Any] = []


MAX_LOOP = 100  # a loop is shown once and run a stated number of times (FAQ 1.1): more adds nothing but run time
MAX_VALUE = 999  # no printed value or count at a table comes near it: a larger number is a slip of the keyboard


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _too_large(value: Any) -> bool:
    return _whole(value) and abs(value) > MAX_VALUE


def _text_list(path: Path, spec: dict[str, Any], key: str) -> list[str]:
    value = spec.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):  # (1000000 among a card's traits was taken)
        raise DataError(f"{where(path, spec, key)}: field '{key}' must be a list of words; got {value!r}")
    return list(value)


def _cannot_list(path: Path, spec: dict[str, Any], edition: int) -> list[str]:
    """A card's `cannot` list: each a restriction the edition's engine applies (``cannot_problem``)."""
    values = _text_list(path, spec, "cannot")
    for value in values:
        problem = cannot_problem(value, edition, effect=False)
        if problem:
            raise DataError(f"{where(path, spec, 'cannot')}: field 'cannot': {problem}")
    return values


def _keywords(path: Path, spec: dict[str, Any], edition: int) -> tuple[set[str], dict[str, int]]:
    """Keywords, with the X of ``ambush (X)``, ``bestow (X)``, ``shadow (X)`` kept apart.  A card with several
    instances of one of them ("ambush (5)", "ambush (3)"; RR Ambush, Shadows: its controller chooses which is
    used) keeps each X as ``"<keyword> <X>"`` beside the lowest, which a step that chooses none uses."""
    known = KEYWORDS2 if edition == 2 else KEYWORDS
    words: set[str] = set()
    values: dict[str, int] = {}
    for raw in _text_list(path, spec, "keywords"):
        word = raw.strip().lower().rstrip(".")
        match = re.fullmatch(r"([a-z ]+?)\s*\((\d+)\)", word)
        if match:
            word, number = match.group(1), int(match.group(2))
            values[word] = min(values.get(word, number), number)
            values[f"{word} {number}"] = number
        if word not in known:
            raise DataError(f"{where(path, spec, 'keywords')}: field 'keywords' has unknown keyword {raw!r} (known: {', '.join(known)})")
        words.add(word)
    return words, values


def _houses(path: Path, spec: dict[str, Any], edition: int, several: bool) -> tuple[str, ...]:
    """A first-edition House as the rules name it ('stark' is Stark; neutral is 'neutral'), or a multi-house card's
    Houses (a list).  A name that is no House is refused, the nearest named: taken as written it would silently
    count as another House and cost a gold penalty (Rules of Play, Phase 3)."""
    if edition != 1 or spec.get("house") is None:
        return ()
    given = spec["house"]
    names = given if several and isinstance(given, list) and given else [given]
    known = {h.casefold(): h for h in (*HOUSES, "neutral")}
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            what = "a House, or a list of Houses for a multi-house card" if several else "a House"
            raise DataError(f"{where(path, spec, 'house')}: field 'house' must be {what}; got {given!r}")
        house = known.get(" ".join(name.split()).casefold().removeprefix("house "))
        if house is None:
            from rapidfuzz import fuzz, process

            near = process.extractOne(name.casefold(), list(known), scorer=fuzz.WRatio, score_cutoff=70)
            hint = f"; did you mean '{known[near[0]]}'?" if near else ""
            raise DataError(
                f"{where(path, spec, 'house')}: field 'house': '{name}' is not a House ({', '.join(HOUSES)} or neutral){hint}"
            )
        out.append(house)
    if len(out) > 1 and "neutral" in out:
        raise DataError(f"{where(path, spec, 'house')}: field 'house': a multi-house card lists Houses, not neutral; got {given!r}")
    return tuple(dict.fromkeys(out))


# The out-of-play areas whose cards carry no tokens (RR Leaves Play, Rules of Play: a card's tokens return when it
# leaves play); a card in shadows may (RR Shadows: "Some effects may place one or more tokens on a card in shadows")
OUT_OF_PLAY_ZONES = frozenset({"hand", "deck", "discard", "dead"})


def _card(
    path: Path,
    spec: Any,
    owner: str,
    zone: str,
    cards: dict[str, Card],
    edition: int,
    controller: str | None = None,
    players: tuple[str, ...] = (),
) -> Card:
    """One card of a player's zone (with its attachments and duplicates); ``players``: the names an owner or a
    controller may give."""
    if isinstance(spec, str):
        spec = {"name": spec, "__line__": None}
    check_fields(path, spec, {"name"}, CARD_FIELDS, "card")
    at = where(path, spec)
    if spec["name"] is None:
        raise DataError(f"{at}: field 'name' of a card must be given; got nothing")
    houses = _houses(path, spec, edition, several=True)
    for field_name in ("name", "id", "house", "faction", "restriction", "owner", "controller"):
        if field_name == "house" and edition == 1:
            continue  # (read by _houses: one House, or a multi-house card's list)
        if field_name in spec and spec[field_name] is not None and not isinstance(spec[field_name], str):
            raise DataError(f"{where(path, spec, field_name)}: field '{field_name}' must be text; {got(spec, field_name)}")
    key = str(spec.get("id") or spec["name"])
    if not key.strip():
        raise DataError(f"{where(path, spec, 'name')}: field 'name' must not be empty")
    if key in cards:
        raise DataError(f"{at}: card '{key}' appears twice; give the second copy an 'id' such as '{key}#2'")
    kind = spec.get("type", "character")
    if kind not in CARD_TYPES:
        raise DataError(f"{where(path, spec, 'type')}: field 'type' must be one of {', '.join(CARD_TYPES)}; got {kind!r}")
    icons = set()
    for icon in _text_list(path, spec, "icons"):
        if str(icon).lower() not in ICON_ALIASES:
            raise DataError(f"{where(path, spec, 'icons')}: field 'icons' has unknown icon {icon!r} (military, intrigue, power)")
        icons.add(ICON_ALIASES[str(icon).lower()])
    keywords, values = _keywords(path, spec, edition)
    if edition == 2 and spec.get("restriction") is not None:
        _check_restriction(where(path, spec, "restriction"), str(spec["restriction"]), kind)
    if spec.get("limit_copies") is not None:  # "Limit X copies per [card]" (RR Limits and Maxima): attachments
        limit = spec["limit_copies"]
        if edition != 2 or kind != "attachment" or not _whole(limit) or not 1 <= limit <= MAX_VALUE:
            raise DataError(
                f"{where(path, spec, 'limit_copies')}: field 'limit_copies' is a second-edition attachment's \"Limit X copies "
                f"per character\": a whole number from 1; got {limit!r}" + ("" if kind == "attachment" else f" on a {kind}")
            )
        values["limit copies"] = int(limit)
    if edition == 2 and spec.get("cost") in ("-", "X", "x"):  # no printed cost ("-"), or a cost of X defined by the card
        values["no printed cost" if spec["cost"] == "-" else "cost is X"] = 1
        spec = {k: v for k, v in spec.items() if k != "cost"}
    for field_name in ("str", "cost", "power", "income", "influence", "initiative", "gold", "claim", "reserve"):
        if field_name in spec and not _whole(spec[field_name]):
            raise DataError(f"{where(path, spec, field_name)}: field '{field_name}' must be a whole number; got {spec[field_name]!r}")
        if field_name in spec and _too_large(spec[field_name]):
            raise DataError(f"{where(path, spec, field_name)}: field '{field_name}' must be at most {MAX_VALUE}; got {spec[field_name]!r}")
    for field_name in ("str", "cost", "power", "gold", "claim"):  # (a card's reserve is a modifier: The Frostfangs' -1)
        if field_name in spec and spec[field_name] < 0:
            raise DataError(f"{where(path, spec, field_name)}: field '{field_name}' must be 0 or more; got {spec[field_name]!r}")
    for field_name in ("power", "gold"):  # (review 30: 3 power on a card in hand came into play with it)
        if spec.get(field_name) and zone in OUT_OF_PLAY_ZONES:
            raise DataError(
                f"{where(path, spec, field_name)}: a card in the {zone} carries no tokens (field '{field_name}'): the tokens on a "
                "card go back to the treasury when it leaves play"
            )
    for field_name in ("unique", "kneeling", "loyal", "facedown"):
        if field_name in spec and not isinstance(spec[field_name], bool):
            raise DataError(f"{where(path, spec, field_name)}: field '{field_name}' must be true or false; got {spec[field_name]!r}")
    faction = str(spec.get("faction", "neutral")).lower()
    if edition == 2 and faction not in FACTIONS:
        at_faction = where(path, spec, "faction")
        raise DataError(f"{at_faction}: field 'faction' must be one of {', '.join(FACTIONS)}; got {spec.get('faction')!r}")
    real_owner = str(spec.get("owner") or owner)
    # top-level cards are controlled by the player whose zone lists them; attachments by whoever
    # played them (their owner) unless the scenario says otherwise
    controlled_by = str(spec.get("controller") or controller or real_owner)
    for field_name, player in (("owner", real_owner), ("controller", controlled_by)):
        if players and player not in players:  # (it was said without a line or a field, after every card was read)
            at_player = where(path, spec, field_name if field_name in spec else None)
            raise DataError(f"{at_player}: field '{field_name}': unknown player {player!r} (players: {', '.join(players)})")
    card = Card(
        key=key,
        name=str(spec["name"]),
        type=kind,
        owner=real_owner,
        controller=controlled_by,
        zone=zone,
        strength=int(spec.get("str", 0)),
        icons=icons,
        traits=_text_list(path, spec, "traits"),
        crests=_text_list(path, spec, "crests"),
        keywords=keywords,
        immune={i.lower() for i in _text_list(path, spec, "immune")},
        cannot={cannot_words(c) for c in _cannot_list(path, spec, edition)},
        unique=bool(spec.get("unique", False)),
        cost=int(spec.get("cost", 0)),
        house=houses[0] if houses else str(spec.get("house", "neutral")),
        houses=houses if len(houses) > 1 else (),
        kneeling=bool(spec.get("kneeling", False)),
        power=int(spec.get("power", 0)),
        restriction=spec.get("restriction"),
        income=int(spec.get("income", 0)),
        influence=int(spec.get("influence", 0)),
        initiative=int(spec.get("initiative", 0)),
        reserve=int(spec.get("reserve", 0)),
        gold_tokens=int(spec.get("gold", 0)),
        order=len(cards),
        faction=faction,
        loyal=bool(spec.get("loyal", False)),
        constant={c.lower() for c in _text_list(path, spec, "constant")},
        values=values,
        facedown=bool(spec.get("facedown", False)),
    )
    cards[key] = card
    for attachment in _list_of(path, spec, "attachments"):
        child = _card(path, attachment, owner, zone, cards, edition, players=players)
        if child.type != "attachment":
            raise DataError(f"{where(path, attachment if isinstance(attachment, dict) else spec)}: attachments must have type: attachment")
        child.attached_to = card.key
    for index, duplicate in enumerate(_list_of(path, spec, "duplicates"), 2):
        dup_spec = (
            {"name": card.name, "id": f"{card.key} (duplicate {index - 1})", "unique": True, "__line__": spec.get("__line__")}
            if duplicate is True or duplicate == card.name
            else duplicate
        )
        child = _card(path, dup_spec, owner, zone, cards, edition, players=players)
        child.duplicate, child.attached_to, child.type = True, card.key, card.type
    return card


def _check_restriction(at: str, text: str, kind: str) -> None:
    """An attachment's restriction: a short form, or a printed sentence ending 'only.' (one the engine cannot read is
    said unchecked in the trace); anything else is a slip."""
    if kind != "attachment":
        raise DataError(f"{at}: field 'restriction' belongs to attachments; this card is a {kind}")
    if restrictions.parse(text) is None and not restrictions.is_printed_form(text):
        raise DataError(
            f"{at}: field 'restriction' must be trait:TRAIT, location, \"own character\", \"opponent's character\" or a "
            f"printed restriction such as \"Lord or Lady character only.\"; got {text!r}"
        )


def _list_of(path: Path, spec: dict[str, Any], key: str) -> list[Any]:
    value = spec.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise DataError(f"{where(path, spec, key)}: field '{key}' must be a list; got {value!r}")
    for item in value:
        if not isinstance(item, (dict, str)) and not (key == "duplicates" and item is True):
            raise DataError(
                f"{where(path, spec, key)}: field '{key}' lists {item!r}: each entry is a name or a mapping with 'name'"
            )
    return value


def _plot(path: Path, spec: Any, what: str = "plot") -> Plot:
    if isinstance(spec, str):
        spec = {"name": spec}
    check_fields(path, spec, set(), PLOT_FIELDS, what)
    for key in ("name", "id"):  # ([None] was taken, and the ruling named the plot "[None]")
        if key in spec and (not isinstance(spec[key], str) or not spec[key].strip()):
            raise DataError(f"{where(path, spec, key)}: {what} field '{key}' must be text (the plot's title); {got(spec, key)}")
    for key in ("income", "initiative", "claim", "reserve"):
        if key in spec and (not _whole(spec[key]) or spec[key] < 0 or _too_large(spec[key])):
            raise DataError(
                f"{where(path, spec, key)}: {what} field '{key}' must be a whole number from 0 to {MAX_VALUE}; got {spec[key]!r}"
            )
    return Plot(
        str(spec.get("id") or spec.get("name", "plot")),
        int(spec.get("income", 0)),
        int(spec.get("initiative", 0)),
        int(spec.get("claim", 1)),
        int(spec.get("reserve", 6)),
        _text_list(path, spec, "traits"),
        _when_revealed(path, spec, what),
    )


def _when_revealed(path: Path, spec: dict[str, Any], what: str) -> str:
    text = spec.get("when_revealed")
    if text is not None and not isinstance(text, str):
        raise DataError(f"{where(path, spec, 'when_revealed')}: {what} field 'when_revealed' must be text; got {text!r}")
    return (text or "").strip()


TITLE_FIELDS = {"name", "supports", "rivals"}


_JOUST_TITLES = {  # why a title in a two-player game is refused, by edition
    1: "titles are not used in a two-player game (Rules of Play, Two Players: \"played in the same manner as the four "
    "player game, but without the use of the titles\"); this scenario is a joust (two players, or melee: false)",
    2: "title cards are used only in the melee game (RR Title Cards); this scenario is a joust (two players, or melee: false)",
}
TITLE_FILES = {1: "titles.yaml", 2: "titles2.yaml"}  # corpus files: the melee titles of each edition, as facts


@functools.cache
def recorded_titles(edition: int) -> tuple[str, ...]:
    """The edition's six title cards, as recorded in the corpus (a typo in a player's title is caught against them)."""
    from judgekb.corpus.sources import default_corpus

    path = default_corpus() / TITLE_FILES[edition]
    titles = read_data(path).get("titles") if path.is_file() else {}
    return tuple(titles) if isinstance(titles, dict) else ()


def _title_named(path: Path, at: Any, key: str, name: str, edition: int, own_allowed: bool, recorded: tuple[str, ...]) -> str:
    """A title as recorded ('crown regent' is the Crown Regent).  A name that is none of them is refused in first
    edition (its six titles are all there is), and in second edition when it reads as a typo of one (a title of the
    scenario's own, given as a mapping, is kept): taken as written it would silently have no effect."""
    folded = {re.sub(r"^the\s+", "", t.casefold()): t for t in recorded}
    plain = re.sub(r"^the\s+", "", " ".join(name.split()).casefold())
    if not recorded or name in recorded:
        return name
    if plain in folded:
        return folded[plain]
    from rapidfuzz import fuzz, process

    near = process.extractOne(plain, list(folded), scorer=fuzz.WRatio, score_cutoff=80)
    if edition == 2 and (own_allowed or near is None):
        return name
    said = f"; did you mean '{folded[near[0]]}'?" if near else f" (titles: {', '.join(recorded)})"
    own = " (a title of the scenario's own: give it as a mapping with name, supports and rivals)" if edition == 2 else ""
    raise DataError(f"{where(path, at, key)}: field '{key}': '{name}' is not one of the six titles{said}{own}")


_ONE_BEARER = {  # why two players cannot bear one title, by edition
    1: "each player chooses one of the remaining titles (Rules of Play, Step 2: Select Titles)",
    2: "a player takes a title from the title pool, and the remaining titles are passed on (RR Appendix I 1.4; RR Title "
    "Cards: \"While a player bears a title, it is in play under his or her control\")",
}


def _title_terms(path: Path, spec: dict[str, Any]) -> tuple[str | None, TitleTerms | None]:
    """A second-edition player's title: a name (the printed card's relationships), or ``{name, supports, rivals}``
    (relationships the scenario gives, each replacing the printed one)."""
    given = spec.get("title")
    if not isinstance(given, dict):
        return given, None
    check_fields(path, given, {"name"}, TITLE_FIELDS, "title")
    if not isinstance(given["name"], str):
        raise DataError(f"{where(path, given, 'name')}: field 'name' must be text; {got(given, 'name')}")
    supports = given.get("supports")
    if supports is not None and not isinstance(supports, str):
        raise DataError(f"{where(path, given, 'supports')}: field 'supports' must be a title or null; got {supports!r}")
    rivals = given.get("rivals")
    if rivals is not None and (not isinstance(rivals, list) or not all(isinstance(r, str) for r in rivals)):
        raise DataError(f"{where(path, given, 'rivals')}: field 'rivals' must be a list of titles; got {rivals!r}")
    return given["name"], TitleTerms(supports, "supports" in given, list(rivals) if rivals is not None else None)


def load_scenario(
    path: Path, text: str | None = None, prepare: Callable[[Any, Path], list[Any]] | None = None, titles: dict[int, Any] | None = None
) -> Scenario:
    """Read and validate a scenario (a file, or ``text`` named ``path``); problems name file, line and field.

    ``prepare`` may complete the loaded mapping before it is checked (cards by name from an
    imported card database: ``cardfill.preparer``); what it returns is kept as ``card_notes``.
    """
    data = load(path) if text is None else loads(text, path)
    notes = prepare(data, path) if prepare else []
    if not isinstance(data, dict):
        raise DataError(f"{path}: a scenario is a mapping with players and steps")

    def top(field: str) -> str:
        """``file:line`` of a top-level field: its own line."""
        return where(path, data, field)

    optional = {"title", "edition", "expect", "melee", "phase", "round", "notes", "first_player", "card_data", "victory_choice"}
    unknown = sorted(set(data) - {"__line__", "players", "steps"} - optional)
    if unknown:
        raise DataError(f"{top(str(unknown[0]))}: scenario has unknown field '{unknown[0]}'")
    check_fields(path, data, {"players", "steps"}, optional, "scenario")
    if data.get("card_data", "none") != "none":
        raise DataError(f"{top('card_data')}: field 'card_data' can only be 'none' (placeholder cards: no card database values)")
    edition = data.get("edition", 1)
    if edition not in (1, 2) or isinstance(edition, bool):
        raise DataError(f"{top('edition')}: field 'edition' must be 1 or 2; got {edition!r}")
    for key in ("title", "notes"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise DataError(f"{top(key)}: field '{key}' must be text; {got(data, key)}")
    if "melee" in data and not isinstance(data["melee"], bool):
        raise DataError(f"{top('melee')}: field 'melee' must be true or false; got {data['melee']!r}")
    if "round" in data and (not _whole(data["round"]) or data["round"] < 1):
        raise DataError(f"{top('round')}: field 'round' must be a whole number, 1 or more; got {data['round']!r}")
    phase = str(data.get("phase", "challenges"))
    if phase not in PHASES:
        raise DataError(f"{top('phase')}: field 'phase' must be one of {', '.join(PHASES)}; got {data.get('phase')!r}")
    if not isinstance(data["players"], list) or len(data["players"]) < 2:
        raise DataError(f"{top('players')}: field 'players' must list at least two players")
    players: dict[str, Player] = {}
    cards: dict[str, Card] = {}
    first = None
    needs = "faction" if edition == 2 else "house"
    melee = bool(data.get("melee", len(data["players"]) > 2))  # (three or more players: a melee game, unless said)
    # the titles the engine will apply (the corpus in use, as the runner loads it), else this checkout's corpus
    recorded = tuple(titles.get(edition) or {}) if titles is not None else recorded_titles(edition)
    borne: dict[str, str] = {}  # title -> the player bearing it (each title is one card: one bearer)
    for number, spec in enumerate(data["players"], 1):
        if not isinstance(spec, dict):
            raise DataError(f"{top('players')}: field 'players': player {number} must be a mapping with name and {needs}; got {spec!r}")
        check_fields(path, spec, {"name", needs}, PLAYER_FIELDS, "player")
        if not isinstance(spec["name"], str) or not spec["name"].strip():
            raise DataError(f"{where(path, spec, 'name')}: field 'name' of a player must be text; {got(spec, 'name')}")
        for key in ("name", "house", "faction", "title"):
            if key == "title" and edition == 2 and isinstance(spec.get(key), dict):
                continue  # a title with the relationships the scenario gives (_title_terms)
            if spec.get(key) is not None and not isinstance(spec[key], str):
                raise DataError(f"{where(path, spec, key)}: field '{key}' must be text; {got(spec, key)}")
        for key in ("gold", "power"):
            if key in spec and (not _whole(spec[key]) or spec[key] < 0 or _too_large(spec[key])):
                raise DataError(f"{where(path, spec, key)}: field '{key}' must be a whole number from 0 to {MAX_VALUE}; got {spec[key]!r}")
        for key in ("first", "faction_kneeling"):
            if key in spec and not isinstance(spec[key], bool):
                raise DataError(f"{where(path, spec, key)}: field '{key}' must be true or false; got {spec[key]!r}")
        if spec.get("faction_kneeling") and edition != 2:
            raise DataError(
                f"{where(path, spec, 'faction_kneeling')}: field 'faction_kneeling' is second edition's (a kneeling faction card)"
            )
        name = str(spec["name"])
        if spec.get("title") is not None and not melee:
            raise DataError(f"{where(path, spec, 'title')}: field 'title': {_JOUST_TITLES[edition]}")
        if name in players:
            raise DataError(f"{where(path, spec)}: player '{name}' appears twice")
        faction = str(spec.get("faction", spec.get("house", "neutral")))
        if edition == 2 and faction.lower() not in FACTIONS:
            at_faction = where(path, spec, "faction" if "faction" in spec else "house")
            raise DataError(f"{at_faction}: field 'faction' must be one of {', '.join(FACTIONS)}; got {faction!r}")
        if spec.get("plot") is not None and not isinstance(spec["plot"], (dict, str)):
            raise DataError(f"{where(path, spec, 'plot')}: field 'plot' must be a plot's name or a mapping; got {spec['plot']!r}")
        plot = _plot(path, spec["plot"]) if spec.get("plot") else Plot()
        title, terms = _title_terms(path, spec) if edition == 2 else (spec.get("title"), None)
        if title is not None:
            at_title = where(path, spec, "title")
            if " ".join(title.split()).casefold() == "none":  # (review r53: taken as a title called "none")
                raise DataError(
                    f"{at_title}: field 'title': 'none' is not a title; a player who bears no title has no 'title' field "
                    "('title: {PLAYER: none}' is how an expectation says it)"
                )
            title = _title_named(path, spec, "title", title, edition, terms is not None, recorded)
            if title in borne:  # (review r53: two players bore the Crown Regent and both got its bonus)
                raise DataError(
                    f"{at_title}: field 'title': {name} cannot bear the {title}: {borne[title]} already bears it; {_ONE_BEARER[edition]}"
                )
            borne[title] = name
        house = (_houses(path, spec, edition, several=False) or (str(spec.get("house", faction)),))[0]
        player = Player(name, house, plot, int(spec.get("gold", 0)), int(spec.get("power", 0)), title)
        player.title_terms = terms
        player.faction_kneeling = bool(spec.get("faction_kneeling", False))
        player.faction = faction.lower()
        agendas = spec.get("agenda")
        for agenda in agendas if isinstance(agendas, list) else ([agendas] if agendas else []):
            title = agenda.get("name") if isinstance(agenda, dict) else agenda
            if not isinstance(title, str):
                raise DataError(f"{where(path, spec, 'agenda')}: field 'agenda' must name agenda cards; got {agenda!r}")
            player.agendas.append(title)
        players[name] = player
        if spec.get("first"):
            if first:
                raise DataError(f"{where(path, spec, 'first')}: field 'first': {first} is already the first player")
            first = name
    if data.get("first_player") is not None:
        if data["first_player"] not in players:
            raise DataError(f"{top('first_player')}: field 'first_player': unknown player {data['first_player']!r}")
        first = data["first_player"]
    if data.get("victory_choice") is not None:
        # the first player's choice when every player is out before the first step (all decks given as 'deck: []')
        if edition != 2:
            raise DataError(f"{top('victory_choice')}: field 'victory_choice' at the top of a scenario is for edition 2 only")
        if data["victory_choice"] not in players:
            raise DataError(f"{top('victory_choice')}: field 'victory_choice': unknown player {data['victory_choice']!r}")
    for spec in data["players"]:
        name = str(spec["name"])
        for zone in ("in_play", "hand", "deck", "discard", "dead", "shadows"):
            for card_spec in _list_of(path, spec, zone):
                if isinstance(card_spec, str):  # (a bare name has no line of its own: the zone's)
                    card_spec = {"name": card_spec, "__line__": getattr(spec, "key_lines", {}).get(zone) or spec.get("__line__")}
                card = _card(path, card_spec, name, zone, cards, edition, controller=name, players=tuple(players))
                if zone == "in_play" and card.type == "attachment":  # (review 21: taken as in play on no card, no word)
                    at = where(path, card_spec) if isinstance(card_spec, dict) else where(path, spec, zone)
                    raise DataError(
                        f"{at}: attachment '{card.key}' is in play attached to nothing: list it under the card it is attached "
                        "to, in that card's 'attachments' (an attachment cannot enter play without an eligible card to attach to)"
                    )
                if card.owner not in players:
                    raise DataError(f"{where(path, card_spec)}: field 'owner': unknown player '{card.owner}'")
        revealed = [spec["plot"]] if edition == 2 and isinstance(spec.get("plot"), dict) and spec["plot"].get("name") else []
        for zone, field_name, specs in (
            ("revealed", "plot", revealed),
            ("plot", "plot_deck", _list_of(path, spec, "plot_deck")),
            ("used", "used_plots", _list_of(path, spec, "used_plots")),
        ):
            for plot_spec in specs:
                plot = _plot(path, plot_spec, field_name)
                if zone == "revealed" and plot.name in cards and not plot_spec.get("id"):
                    plot.name = f"{plot.name} ({name})"  # two players reveal plots of the same title
                if plot.name in cards:
                    raise DataError(f"{where(path, plot_spec)}: card '{plot.name}' appears twice; give the second copy an 'id'")
                constant = set(_text_list(path, plot_spec, "constant")) if isinstance(plot_spec, dict) else set()
                cards[plot.name] = Card(
                    plot.name, plot.name, "plot", name, name, zone, order=len(cards), plot=plot, constant={c.lower() for c in constant}
                )
                if zone == "revealed":
                    players[name].plot = plot
        agendas = spec.get("agenda") if edition == 2 else None
        for agenda in agendas if isinstance(agendas, list) else ([agendas] if agendas else []):
            if isinstance(agenda, dict):
                check_fields(path, agenda, {"name"}, {"name", "id", "type", "traits"}, "agenda")
                key = str(agenda.get("id") or agenda["name"])
                if key in cards:
                    continue  # a second copy by title is reported as an illegal deck (FAQ 3.5), not as bad input
                cards[key] = Card(
                    key,
                    str(agenda["name"]),
                    "agenda",
                    name,
                    name,
                    "agenda",
                    order=len(cards),
                    traits=_text_list(path, agenda, "traits"),
                )
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
        phase="marshalling" if phase == "marshaling" else phase,
        round=int(data.get("round", 1)),
        melee=melee,
    )
    state.facts["first_player_stated"] = first is not None
    if data.get("victory_choice") is not None:
        state.facts["setup_victory_choice"] = str(data["victory_choice"])
    # a draw deck the scenario gives (``deck: []`` included) is the whole deck; one left out is unknown, never read as
    # empty (a judge leaves it out as irrelevant), so it eliminates no one (docs/scenarios.md)
    state.facts["decks_stated"] = [str(spec["name"]) for spec in data["players"] if spec.get("deck") is not None]
    # a player given no plot plays a blank one: the engine's values, which no rule sets (the ruling says so)
    state.facts["plots_assumed"] = [str(spec["name"]) for spec in data["players"] if not spec.get("plot") and not spec.get("plot_deck")]
    # a scenario giving no phase begins in the challenges phase: the engine's default, which no rule sets (review r78
    # M1: the ruling says so, and a phase step that ends it says the phase was assumed, not the judge's)
    state.facts["phase_assumed"] = "phase" not in data
    steps = data["steps"] if data["steps"] is not None else []
    if not isinstance(steps, list):
        raise DataError(f"{top('steps')}: field 'steps' must be a list")
    checker = _Checker(path, state, edition)
    checker.titles = recorded
    _check_steps(path, steps, edition, checker, at=top("steps"))
    expect = data.get("expect") or {}
    if expect:
        if not isinstance(expect, dict):
            raise DataError(f"{top('expect')}: field 'expect' must be a mapping")
        fields = EXPECT_FIELDS if edition == 2 else EXPECT_FIELDS - ED2_ONLY_EXPECT
        check_fields(path, expect, set(), fields, "expect")
        checker.mapping(expect, EXPECT, set(), "expect", expect)
        _check_step_numbers(path, expect, len(steps))
    scenario = Scenario(path, str(data.get("title") or path.stem), state, steps, expect, edition)
    scenario.card_notes = notes
    return scenario


def _check_steps_named(path: Path, at: Any, field: str, numbers: list[Any], count: int, lowest: int = 1) -> None:
    for number in numbers:
        if _whole(number) and not lowest <= int(number) <= count:
            raise DataError(f"{where(path, at, field)}: field '{field}' names step {number}; the scenario has {count} step(s)")


def _check_step_numbers(path: Path, expect: dict[str, Any], count: int) -> None:
    """An expectation about a step the scenario does not have could never hold: say so with its line."""
    for field in ("refused", "choices_needed"):
        _check_steps_named(path, expect, field, list(expect.get(field) or []), count)
    keys = [int(k) if isinstance(k, str) and k.isdigit() else k for k in (expect.get("refused_cites") or {}) if k != "__line__"]
    _check_steps_named(path, expect, "refused_cites", keys, count)
    for entry in expect.get("cites") or []:  # (step 0: what the board itself rules before the first step)
        _check_steps_named(path, entry, "step", [entry.get("step")], count, lowest=0)


def _check_steps(path: Path, steps: list[Any], edition: int, checker: _Checker, depth: int = 0, at: str = "") -> None:
    """Each step is one known verb of the scenario's edition with arguments of the right types (a loop's steps too).
    ``at``: where the list of steps starts, for a step that is not even a mapping (it has no line of its own)."""
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict):
            raise DataError(f"{at or path}: step {number}: each step is a mapping such as 'challenge: {{...}}'; got {step!r}")
        verbs = set(step) - {"__line__"}
        if len(verbs) != 1 or not verbs <= STEP_VERBS:
            bad = sorted(verbs - STEP_VERBS) or sorted(verbs)
            raise DataError(f"{where(path, step)}: unknown step '{bad[0] if bad else ''}' (steps: {', '.join(sorted(STEP_VERBS))})")
        verb = next(iter(verbs))
        required, schema, editions = STEPS[verb]
        if not editions & edition:
            raise DataError(f"{where(path, step)}: step '{verb}' exists only in edition {3 - edition} scenarios")
        args = step[verb]
        if verb == "note":  # free text for the reader ({name: Z} was taken)
            if not isinstance(args, str):
                raise DataError(f"{where(path, step, 'note')}: field 'note' must be text; got {args!r}")
            continue
        if verb == "phase" and isinstance(args, str):
            args = {"name": args}
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise DataError(f"{where(path, step)}: step '{verb}' takes a mapping of arguments; got {args!r}")
        if verb == "resolve":
            schema = RESOLVE1 if edition == 1 else RESOLVE2
            other = sorted(set(args) & (set(RESOLVE) - set(schema)))
            if other:
                raise DataError(
                    f"{where(path, args if '__line__' in args else step)}: field '{other[0]}' of 'resolve' exists only in edition "
                    f"{3 - edition} scenarios (fields: {', '.join(sorted(schema))})"
                )
        only2 = sorted(set(args) & EDITION2_FIELDS.get(verb, set())) if edition == 1 else []
        if only2:  # (the first-edition rules read none of them: a field taken and ignored would mislead)
            raise DataError(f"{where(path, args, only2[0])}: field '{only2[0]}' of '{verb}' exists only in edition 2 scenarios")
        if verb == "loop" and _whole(args.get("times")) and not 0 <= args["times"] <= MAX_LOOP:  # one limit, one message
            raise DataError(f"{where(path, step)}: field 'times' must be a whole number from 0 to {MAX_LOOP}; got {args['times']!r}")
        checker.mapping(args, schema, required, verb, step)
        if verb == "effect" and edition == 1 and args.get("take_control") and not args.get("player"):
            raise DataError(f"{where(path, args, 'take_control')}: field 'take_control': say which player takes control ('player')")
        if verb == "phase" and isinstance(args.get("titles"), dict):
            _check_titles_chosen(path, args, edition, checker.state, checker.titles)
        unread = [f for f in MARSHAL_NOT_INTO_SHADOWS if f in args and (f != "from" or args[f] != "hand")]
        if verb == "marshal" and args.get("into") == "shadows" and unread:  # (taken and ignored, it would mislead)
            raise DataError(
                f"{where(path, args, unread[0])}: field '{unread[0]}' of 'marshal' cannot go with 'into: shadows': the card goes "
                "facedown from hand into its owner's shadows area, attached to nothing and bestowing nothing"
            )
        if verb == "loop":
            if depth or not isinstance(args.get("steps"), list) or not args["steps"]:
                raise DataError(f"{where(path, step)}: field 'steps': a loop repeats a non-empty list of steps (loops do not nest)")
            _check_steps(path, args["steps"], edition, checker, depth + 1, at=f"{where(path, args, 'steps')} (in the loop)")


def _check_titles_chosen(path: Path, args: dict[str, Any], edition: int, state: State, recorded: tuple[str, ...]) -> None:
    """The plot phase's title choices: a melee game's only, each one of the edition's titles (as recorded)."""
    if not state.melee:
        raise DataError(f"{where(path, args, 'titles')}: field 'titles': {_JOUST_TITLES[edition]}")
    for player, title in list(args["titles"].items()):
        if player != "__line__":
            args["titles"][player] = _title_named(path, args, "titles", str(title), edition, False, recorded)


class _Checker:
    """Check a mapping against a schema; every problem names file, line and field."""

    def __init__(self, path: Path, state: State, edition: int = 1) -> None:
        self.path = path
        self.state = state
        self.edition = edition
        self.titles: tuple[str, ...] = ()  # the edition's recorded title names (a typo is refused, the nearest named)

    def title_end(self, value: str, key: str, line_of: Any) -> bool:
        """Whether a move_power end names a melee title (``title: NAME``, or a bare title name that is no card or player):
        a title is in play under its bearer's control (FAQ v4.1 A Cask of Ale Q&A).  A title in a joust is refused."""
        head, _, rest = value.partition(":")
        explicit = head.strip().lower() == "title"
        name = rest.strip() if explicit else value.strip()
        if not explicit and (value in self.state.cards or value in self.state.players):
            return False
        fold = name.casefold().removeprefix("the ").strip()
        known = {t.casefold().removeprefix("the ").strip() for t in recorded_titles(2)}
        known |= {p.title.casefold().removeprefix("the ").strip() for p in self.state.players.values() if p.title}
        if fold not in known:
            if explicit:
                six = ", ".join(recorded_titles(2))
                self.fail(line_of, key, f"'{name}' is not one of the six titles ({six}) nor a title a player bears")
            return False
        if not self.state.melee:
            self.fail(line_of, key, f"'{name}' is a melee title: {_JOUST_TITLES[2]}")
        return True

    def gained(self, value: Any, key: str, line_of: Any) -> None:
        """An effect's gain/lose: a keyword the edition knows, 'all keywords' (lose), and in edition 2 a trait, 'all
        traits' (lose) or an immunity (gain); anything else would be traced as gained and grant nothing."""
        if not isinstance(value, str) or not value.strip():
            self.fail(line_of, key, f"must be text; got {value!r}")
        word = value.strip().lower()
        two = self.edition == 2
        known = KEYWORDS2 if two else KEYWORDS
        alls = ("all keywords", "all traits") if two else ("all keywords",)
        if word in known or (key == "lose" and word in alls) or (two and word.startswith("trait:") and word[6:].strip()):
            return
        if two and key == "gain" and word.startswith("immune to ") and word[10:].strip() in IMMUNE_TO2:
            return
        if word in alls:
            self.fail(line_of, key, f"'{word}' can only be lost ('lose: {word}'); got {value!r}")
        if two and word.startswith("immune"):
            self.fail(
                line_of,
                key,
                f"{value!r} is not a keyword: a card gains immunity with 'gain: \"immune to X\"' (X one of "
                f"{', '.join(IMMUNE_TO2)}), as a card's own 'immune' field gives it",
            )
        forms = (["'trait: NAME'"] if two else []) + (list(alls) if key == "lose" else (["'immune to X'"] if two else []))
        self.fail(line_of, key, f"unknown keyword {value!r} (known: {', '.join(known)}; also {', '.join(forms)})")

    def fail(self, line_of: Any, key: str, problem: str) -> None:
        raise DataError(f"{where(self.path, line_of, key)}: field '{key}': {problem}")

    def mapping(self, item: Any, schema: Any, required: set[str], what: str, line_of: Any) -> None:
        if isinstance(schema, str):
            schema = SCHEMAS[schema]
        if not isinstance(item, dict):
            self.fail(line_of, what, f"must be a mapping; got {item!r}")
        here = item if "__line__" in item else line_of
        checked = item if here is item else {**item, "__line__": here.get("__line__") if isinstance(here, dict) else None}
        check_fields(self.path, checked, required, set(schema), what)
        for key, value in item.items():
            if key != "__line__":
                self.value(value, schema[key], key, here)
        if "onto" in item:
            self.onto(item, here)
        self.kneel_and_stand(item, schema, here)
        if self.edition == 2 and schema is EFFECT and "return_to_hand" in item and "from" in item:
            self.return_from(item, here)
        if item.get("each_player"):
            self.each_player(item, here)
        if self.edition == 1 and schema.get("cannot") == "cannot" and "cannot" in item and not item.get("target"):
            # (review r65 L4: with 'player' and no target it left no trace line and restricted nothing)
            said = f"needs 'target', the card(s) it restricts: edition 1 applies it to cards only; got {item['cannot']!r}"
            self.fail(here, "cannot", said)

    def kneel_and_stand(self, item: dict[str, Any], schema: dict[str, Any], line_of: Any) -> None:
        """One effect (or cost) that both kneels and stands the same card is refused: its parts resolve together (an
        effect "resolves simultaneously upon all affected entities", 2nd ed. RR Priority of Simultaneous Resolution;
        costs "must be paid simultaneously", RR Costs), and a mapping's fields have no order, so neither "kneels then
        stands" nor "stands then kneels" is written; run, it traced the card as kneeling and standing in one step."""
        for kneel, stand in (("kneel", "stand"), ("kneel_faction_card", "stand_faction_card")):
            if kneel not in item or stand not in item or kneel not in schema or stand not in schema:
                continue
            both = [n for n in step_names(item[kneel]) if n in step_names(item[stand])]
            if both:
                what = "faction card" if kneel == "kneel_faction_card" else "card"
                self.fail(
                    line_of,
                    stand,
                    f"{both[0]!r} is both knelt ('{kneel}') and stood ('{stand}') by this one {what} effect: give the kneel and the "
                    "stand as two steps (in edition 2, the later one may be the ability's 'then'), in the order the card's "
                    "text gives",
                )

    def return_from(self, item: dict[str, Any], line_of: Any) -> None:
        """With 'return_to_hand', 'from' names the out-of-play area the card's text names ("from your discard pile"):
        discard or dead (2nd ed. RR Abilities: an ability interacts only with cards in play "unless the ability text
        specifically refers to an out of play area").  Beside 'put_into_play' it would name the area of both moves."""
        if "put_into_play" in item:
            said = "would name where both 'put_into_play' and 'return_to_hand' take their cards from: give them as two effects"
            self.fail(line_of, "from", f"{said} (the later one may be the ability's 'then')")
        if str(item["from"]).lower() not in ("discard", "dead"):
            said = "with 'return_to_hand' it names the out-of-play area the card's text names, discard or dead (its owner's "
            self.fail(line_of, "from", f"{said}discard pile or dead pile); got {item['from']!r}")

    def each_player(self, item: dict[str, Any], line_of: Any) -> None:
        """'each_player' makes a draw or a deck discard one effect on every player; with neither it would be
        ignored, and beside 'player' it would contradict it, so both are refused."""
        if "draw" not in item and "discard_from_deck" not in item:
            self.fail(line_of, "each_player", "applies to 'draw' or 'discard_from_deck' ('each player draws 2 cards'); neither is given")
        if "player" in item:
            said = f"every player is affected, so 'player: {item['player']}' contradicts it: give one or the other"
            self.fail(line_of, "each_player", said)

    def onto(self, item: dict[str, Any], line_of: Any) -> None:
        """'onto' names the card an attachment enters play attached to, or the copy a duplicate goes under; with
        no attachment or duplicate entering it would be taken and ignored (or attach a character), so it is refused."""
        entering = item.get("card", item.get("put_into_play"))
        names = [entering] if isinstance(entering, str) else entering if isinstance(entering, list) else []
        cards = [self.state.cards[n] for n in names if n in self.state.cards]
        host = self.state.cards.get(item["onto"])
        if not cards or host is None or item.get("as_duplicate"):
            return
        if not any(c.type == "attachment" or c.name == host.name for c in cards):
            entered = cards[0]
            self.fail(
                line_of,
                "onto",
                f"'{entered.key}' is a{'n' if entered.type[:1] in 'aeiou' else ''} {entered.type}: only an attachment enters play "
                f"onto a card (or a duplicate under a copy of the same title); '{host.key}' is not a copy of it",
            )

    def value(self, value: Any, kind: Any, key: str, line_of: Any) -> None:  # noqa: C901 - one branch per field type
        state = self.state
        if isinstance(kind, tuple):
            head = kind[0]
            if head == "enum":
                if not isinstance(value, str) or value.lower() not in kind[1]:
                    self.fail(line_of, key, f"must be one of {', '.join(kind[1])}; got {value!r}")
            elif head == "map":
                self.mapping(value, kind[1], REQUIRED.get(key, set()), key, line_of)
            elif head == "list":
                if not isinstance(value, list):
                    self.fail(line_of, key, f"must be a list; got {value!r}")
                for item in value:
                    if key == "saves" and isinstance(item, str):
                        self.value(item, "card", key, line_of)
                        continue
                    self.mapping(item, kind[1], REQUIRED.get(key, set()), key, line_of)
            elif head in ("cardmap", "playermap", "intmap"):
                if not isinstance(value, dict):
                    self.fail(line_of, key, f"must be a mapping; got {value!r}")
                here = value if "__line__" in value else line_of
                for name, inner in value.items():
                    if name == "__line__":
                        continue
                    if head == "cardmap":
                        self.value(name, "card", key, here)
                    elif head == "playermap":
                        self.value(name, "player", key, here)
                    elif not _whole(name) and not (isinstance(name, str) and name.isdigit()):
                        self.fail(here, key, f"keys must be step numbers; got {name!r}")
                    self.value(inner, kind[1], key, here)
            elif head == "enumlist":
                items = [value] if isinstance(value, str) else value
                if not isinstance(items, list) or not all(isinstance(v, str) and v.lower() in kind[1] for v in items):
                    self.fail(line_of, key, f"must be a list of {', '.join(kind[1])}; got {value!r}")
                if len({v.lower() for v in items}) != len(items):  # a keyword type is processed once (RR 4.2.5)
                    self.fail(line_of, key, f"names a word twice; got {value!r}")
            elif head == "textlist":
                items = [value] if isinstance(value, str) and key not in WHOLE_LISTS else value
                if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                    self.fail(line_of, key, f"must be a list of text; got {value!r}")
                if key == "not_cited" and not all(v.strip() for v in items):  # (it matched no clause: never failed)
                    self.fail(
                        line_of,
                        key,
                        "an empty entry matches no clause; give a clause id (agot2-rr/stealth), a document id (agot2-rr: "
                        f"all its clauses) or a prefix ending in '/'; got {value!r}",
                    )
            elif head == "intlist":
                if not isinstance(value, list) or not all(_whole(v) and v >= 0 for v in value):
                    self.fail(line_of, key, f"must be a list of step numbers; got {value!r}")
            return
        if kind == "any":
            return
        if kind in ("gained", "lost"):
            self.gained(value, key, line_of)
            return
        if kind == "cannot":
            problem = cannot_problem(value, self.edition, effect=True)
            if problem:
                self.fail(line_of, key, problem)
            return
        if kind.endswith("?"):
            if value is None or value in ("none", "nobody"):
                return
            kind = kind[:-1]
        if kind == "text" or kind == "title":
            if not isinstance(value, str) or not value.strip():
                self.fail(line_of, key, f"must be text; got {value!r}")
        elif kind == "int":
            if not _whole(value) or _too_large(value):
                self.fail(line_of, key, f"must be a whole number from -{MAX_VALUE} to {MAX_VALUE}; got {value!r}")
        elif kind == "count":
            if not _whole(value) or value < 0 or _too_large(value):
                self.fail(line_of, key, f"must be a whole number from 0 to {MAX_VALUE}; got {value!r}")
        elif kind == "bool":
            if not isinstance(value, bool):
                self.fail(line_of, key, f"must be true or false; got {value!r}")
        elif kind == "card":
            if not isinstance(value, str) or value not in state.cards:
                self.fail(line_of, key, f"unknown card '{value}'")
        elif kind == "cards":
            for name in [value] if isinstance(value, str) else (value if isinstance(value, list) else [value]):
                self.value(name, "card", key, line_of)
        elif kind == "player":
            if isinstance(value, (list, dict)):  # (review 32: '[Lars, Sara]' was called an unknown player)
                self.fail(line_of, key, f"must be one player's name, not a {type(value).__name__}; got {value!r}")
            if not isinstance(value, str) or value not in state.players:
                self.fail(line_of, key, f"unknown player '{value}'")
        elif kind == "owner":  # a card or a player (whose faction card is meant); in edition 2 also a melee title
            if isinstance(value, str) and self.edition == 2 and key in ("from", "to") and self.title_end(value, key, line_of):
                return
            if not isinstance(value, str) or (value not in state.cards and value not in state.players):
                self.fail(line_of, key, f"unknown card or player '{value}'")
        elif kind == "until":
            text = str(value).lower()
            if not (
                text in UNTILS or (text.startswith("while in play:") and text.split(":", 1)[1].strip() in {k.lower() for k in state.cards})
            ):
                self.fail(line_of, key, f"must be one of {', '.join(UNTILS)} or 'while in play: CARD'; got {value!r}")
        elif kind in ("reaction event", "interrupt event"):
            verb = str(value).partition(":")[0].strip().lower()
            if not isinstance(value, str) or verb not in REACTION_VERBS2:
                tells = "it occurred" if kind == "reaction event" else "the next step is about to bring it about"
                self.fail(
                    line_of,
                    key,
                    f"must name an event as 'VERB: SUBJECT' with a verb the engine records (so that it can tell whether "
                    f"{tells}): {', '.join(REACTION_VERBS2)}; got {value!r}",
                )
        elif kind == "terminal":
            if not isinstance(value, str) or not TERMINAL.match(value.strip()):
                self.fail(line_of, key, f"must read 'killed if STR 0' or 'discarded if STR 0'; got {value!r}")
        elif kind == "position":
            if not (value in ("top", "bottom", "not in deck") or (_whole(value) and value >= 1)):
                self.fail(line_of, key, f"must be top, bottom or a position from the top (1 or more); got {value!r}")


def challenge_type(value: Any, path: Path, line_of: Any) -> str:
    text = ICON_ALIASES.get(str(value).lower())
    if text not in CHALLENGE_TYPES:
        raise DataError(f"{where(path, line_of)}: field 'type' must be military, intrigue or power; got {value!r}")
    return text
