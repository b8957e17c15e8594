"""Step arguments shared by both rulesets: names lists, effect durations, characters declared once."""

from __future__ import annotations

from typing import Any

from judgekb.engine.core.registry import IllegalStep

UNTIL = {
    "end of phase": "phase",
    "phase": "phase",
    "end of the phase": "phase",
    "end of round": "round",
    "round": "round",
    "end of the round": "round",
    "challenge": "challenge",
    "end of challenge": "challenge",
    "end of the challenge": "challenge",
    "permanent": "permanent",
    None: "permanent",
}


def names(value: Any) -> list[str]:
    """A card or player name, or a list of them, as a list."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in value if v != "__line__"]


def named_twice(keys: list[str]) -> str:
    """The cards a choice names more than once, as a judge reads them ("C1, C2"), or "": a card leaves a hand or is
    killed once, so naming it twice would count one card as two (claim, the reserve discard: review r80 H3)."""
    return ", ".join(sorted({k for k in keys if keys.count(k) > 1}))


def pairs(mapping: Any) -> list[tuple[Any, Any]]:
    """A loaded mapping's items without the ``__line__`` bookkeeping key."""
    return [(k, v) for k, v in (mapping or {}).items() if k != "__line__"]


def declared_once(keys: list[str], role: str, rule_id: str, clause: str) -> None:
    """A character is declared once as an attacker or a defender: named twice, its STR was counted twice (review 32
    in second edition; a hostile-input review found first edition still did it, and the ruling reversed)."""
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise IllegalStep(rule_id, f"{', '.join(twice)} is named twice as {role}: a character is declared once", cite=[clause])
