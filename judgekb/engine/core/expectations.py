"""Expectation checks: what a judge expects, compared with the final board and the trace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judgekb.engine.core.state import State
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import Scenario

Reader = Callable[[State, str], Any]

# expectations of the form {name: value}: what to read off the final board for each name
PER_NAME: dict[str, Reader] = {
    "power": lambda state, player: state.total_power(player),
    "house_power": lambda state, player: state.players[player].power,
    "faction_power": lambda state, player: state.players[player].power,
    "card_power": lambda state, card: state.cards[card].power,
    "gold": lambda state, player: state.players[player].gold,
    "strength": lambda state, card: state.strength(state.cards[card]),
    "kneeling": lambda state, card: state.cards[card].kneeling,
    "faction_kneeling": lambda state, player: state.players[player].faction_kneeling,
    "controller": lambda state, card: state.cards[card].controller,
    "attached_to": lambda state, card: state.cards[card].attached_to,
    "hand_size": lambda state, player: len(state.zone(player, "hand")),
    "deck_size": lambda state, player: len(state.deck(player)),
    "traits": lambda state, card: sorted(state.traits(state.cards[card])),
    "title": lambda state, player: state.players[player].title or "none",  # the melee title he or she bears
}
ZONE_WORDS = {
    "play": "in_play",
    "in play": "in_play",
    "used pile": "used",
    "dead pile": "dead",
    "discard pile": "discard",
    "plot_deck": "plot",  # edition 2: the state's zone for a plot not yet revealed
    "plot deck": "plot",
}


def _pairs(mapping: Any) -> list[tuple[Any, Any]]:
    return [(k, v) for k, v in (mapping or {}).items() if k != "__line__"]


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def check(scenario: Scenario, state: State, trace: Trace, readers: dict[str, Reader]) -> list[dict[str, Any]]:
    """One record per expectation: what was expected, what the board or trace shows, and whether they agree."""
    expect = scenario.expect
    out: list[dict[str, Any]] = []

    def record(what: str, expected: Any, actual: Any) -> None:
        out.append({"expect": what, "expected": expected, "actual": actual, "passed": expected == actual})

    last = state.results[-1] if state.results else {}
    if "challenge_winner" in expect:
        record("challenge_winner", expect["challenge_winner"], last.get("winner") or "none")
    for index, wanted in enumerate(expect.get("challenges") or []):
        got = state.results[index] if index < len(state.results) else {}
        for key, value in _pairs(wanted):
            record(f"challenges[{index + 1}].{key}", value, got.get(key) if got.get(key) is not None else "none")
    for key, zone in _pairs(expect.get("zones")):
        card = state.cards[key]
        actual = "duplicate" if card.duplicate else card.zone
        wanted = ZONE_WORDS.get(zone, zone)
        if wanted == "in_play" and actual == "revealed":  # 2nd ed. RR Plot Card: "A player's revealed plot card is considered in play"
            actual = "in_play"
        record(f"zones.{key}", wanted, actual)
    for key, read in {**PER_NAME, **readers}.items():
        for name, value in _pairs(expect.get(key)):
            record(f"{key}.{name}", sorted(value) if key == "traits" else value, read(state, name))
    for card, where in _pairs(expect.get("deck_position")):
        position = state.deck_position(card)
        size = len(state.deck(state.cards[card].owner))
        words = {"top": position == 1, "bottom": position == size}
        record(f"deck_position.{card}", where, where if words.get(where) else position)
    for player, cards in _pairs(expect.get("deck_order")):
        wanted = _list(cards)
        record(f"deck_order.{player}", wanted, [c.key for c in state.deck(player)][: len(wanted)])
    for key in ("game_winner", "winner"):
        if key in expect:
            record(key, expect[key], state.winner or "none")
    if "refused" in expect:
        # steps refused, and steps with a choice refused while the rest went ahead (a save of a card that cannot be
        # saved): the same steps the ruling's summary lists as refused
        refused = sorted({e.step for e in trace.entries if e.outcome == "refused"})
        record("refused", sorted(expect["refused"] or []), refused)
    for step, clauses in _pairs(expect.get("refused_cites")):
        cited = sorted({c for e in trace.entries if e.step == int(step) and e.outcome == "refused" for c in e.clauses})
        wanted = sorted(_list(clauses))
        record(f"refused_cites.{step}", wanted, [c for c in wanted if c in cited] if set(wanted) <= set(cited) else cited)
    if "choices_needed" in expect:
        needed = sorted({e.step for e in trace.entries if e.outcome == "choice-needed"})
        record("choices_needed", sorted(expect["choices_needed"] or []), needed)
    for key in ("initiative", "dominance"):
        if key in expect:
            record(key, expect[key], state.facts.get(key, "none"))
    if "first_player" in expect:  # chosen in a plot phase during the run, else as the scenario states it (first: true)
        stated = state.first_player if state.facts.get("first_player_stated") else "none"
        record("first_player", expect["first_player"], state.facts.get("first_player", stated))
    for key, value in _pairs(expect.get("participating")):
        challenge = state.challenge
        participates = bool(challenge and (key in challenge.attackers or key in challenge.defenders))
        record(f"participating.{key}", value, participates)
    for side, value in _pairs(expect.get("total_strength")):
        record(f"total_strength.{side}", value, last.get("attack" if side == "attack" else "defence"))
    if "trace_order" in expect:
        wanted = [str(w) for w in _list(expect["trace_order"])]
        record("trace_order", wanted, _in_order(trace, wanted))
    for index, item in enumerate(expect.get("cites") or [], 1):
        entries = [e for e in trace.entries if e.step == int(item["step"]) and (not item.get("tag") or e.tag == item["tag"])]
        cited_here = {c for e in entries for c in e.clauses}
        wanted = sorted(_list(item.get("clauses")))
        record(
            f"cites[{index}] step {item['step']}" + (f" {item['tag']}" if item.get("tag") else ""),
            wanted,
            sorted(cited_here & set(wanted)) if set(wanted) <= cited_here else sorted(cited_here),
        )
    if "not_cited" in expect:
        banned = [str(b) for b in _list(expect["not_cited"])]
        found = sorted({c for e in trace.entries for c in e.clauses if any(covers(c, b) for b in banned)})
        record("not_cited", [], found)
    return out


def covers(clause: str, entry: str) -> bool:
    """Whether a ``not_cited`` entry covers ``clause``: the clause id itself, a prefix ending in '/' or '-'
    (``agot2-rr/``, ``agot1-``), or a document id, which has no '/' (``agot2-rr``: every clause of that document;
    it was matched as a clause id no clause has, so it could never fail)."""
    if entry.endswith(("/", "-")):
        return clause.startswith(entry)
    if "/" not in entry:
        return clause.startswith(entry + "/")
    return clause == entry


def _in_order(trace: Trace, wanted: list[str]) -> list[str]:
    """The longest prefix of ``wanted`` found in the trace in that order (equal to ``wanted`` when all are)."""
    found: list[str] = []
    position = 0
    entries = trace.entries
    for item in wanted:
        tag, _, subject = (part.strip() for part in item.partition(":"))
        while position < len(entries):
            entry = entries[position]
            position += 1
            if entry.tag == tag and (not subject or entry.subject == subject):
                found.append(item)
                break
        else:
            found.append(f"(not found after the previous: {item})")
            break
    return found
