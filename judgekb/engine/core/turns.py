"""Players taking turns in player order within a phase (the marshaling phase's active player), for both editions."""

from __future__ import annotations


def turns_until(order: list[str], taken: list[str], player: str | None) -> list[str] | None:
    """The players whose turns begin now, in ``order``, so that ``player`` is the active player (None: every player
    left takes a turn, the phase ends); ``[]`` when ``player`` is already active; None when ``player`` has had a turn
    and another player is active now (only the active player acts)."""
    if player is not None and player in taken:
        return [] if player == taken[-1] else None
    coming: list[str] = []
    for name in order:
        if name not in taken:
            coming.append(name)
        if name == player:
            break
    return coming
