"""Attachment restrictions (second edition), checked against the board: whether a host meets what the
restriction reads (``judgekb.cards.restrictions.parse``).

RR "Attachment Cards": "An attachment can only attach to a character, unless otherwise specified by the
attachment's text."  RR "Play Restrictions and Permissions": "these play restrictions must be observed."
"""

from __future__ import annotations

from judgekb.cards.restrictions import Alternative, Test, parse
from judgekb.engine.core.state import Card, State

__all__ = ["Alternative", "Test", "parse", "unmet"]


def _passes(state: State, test: Test, host: Card, player: str, printed: bool) -> bool:
    if test.kind == "trait":
        traits = host.traits if printed else state.traits(host)
        result = test.value.lower() in {t.lower() for t in traits}
    elif test.kind == "faction":
        result = host.faction == test.value
    elif test.kind == "unique":
        result = host.unique
    elif test.kind == "limited":
        result = "limited" in (host.keywords if printed else state.keywords(host))
    elif test.kind == "loyal":
        result = host.loyal
    elif test.kind == "controller":
        result = (host.controller == player) == (test.value == "you")
    elif test.kind == "owner":
        result = host.owner == player
    else:
        if test.kind == "cost" and host.values.get("no printed cost"):
            return False  # no printed cost: a null value meets no comparison
        number, bound = host.cost if test.kind == "cost" else host.strength, int(test.value[2:])
        result = number <= bound if test.value[0] == "<" else number >= bound
    return result != test.negated


def unmet(state: State, alternatives: list[Alternative], host: Card, player: str, printed: bool = False) -> str | None:
    """Why ``host`` meets none of the alternatives (for the attaching ``player``), or None when one is met.
    ``printed``: traits and keywords as printed (setup, where no ability is active)."""
    if not alternatives:
        return None if host.type == "character" else f"{host.key} is a {host.type}, not a character"
    reasons = []
    for alternative in alternatives:
        if host.type != alternative.type:
            reasons.append(f"{host.key} is a {host.type}, not a {alternative.type}")
            continue
        failed = [g for g in alternative.groups if not any(_passes(state, t, host, player, printed) for t in g)]
        if not failed:
            return None
        reasons.append(f"{host.key} " + "; and it ".join(_failure(g, player) for g in failed))
    return "; and ".join(dict.fromkeys(reasons))


def _failure(group: list[Test], player: str) -> str:
    """What a card fails in one group: 'has no Lord or Lady trait', 'is not [stark]', 'is not controlled by Anna'."""
    if all(t.kind == "trait" and not t.negated for t in group):
        return f"has no {' or '.join(t.value for t in group)} trait"
    if len(group) == 1 and group[0].negated:
        return f"is {group[0].words(player).removeprefix('non-')}"
    return "is not " + " or ".join(t.words(player) for t in group)
