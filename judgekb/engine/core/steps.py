"""Step arguments shared by both rulesets: names lists and effect durations."""

from __future__ import annotations

from typing import Any

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


def pairs(mapping: Any) -> list[tuple[Any, Any]]:
    """A loaded mapping's items without the ``__line__`` bookkeeping key."""
    return [(k, v) for k, v in (mapping or {}).items() if k != "__line__"]
