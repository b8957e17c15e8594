"""Multiplayer titles: supports, opposes (once per round), the STR titles and the two redirects."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot1 import rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Challenge, State
from judgekb.engine.core.trace import Trace


def _title(state: State, player: str | None) -> dict[str, Any]:
    if player is None:
        return {}
    name = state.players[player].title
    return state.title_data.get(name or "", {})


@rule(
    "title.supports",
    ["agot1-rules/supports", "agot1-faq/qa/supporting-player-is-defending-player"],
    "you cannot challenge the player you support; you may defend for them when they declare no defenders, "
    "becoming winner or loser while they keep the claim",
)
def check_may_challenge(state: State, trace: Trace, attacker: str, against: str) -> None:
    supported = _title(state, attacker).get("supports")
    if supported and state.players[against].title == supported:
        raise IllegalStep(
            "title.supports",
            f"{attacker}'s {state.players[attacker].title} supports {supported}: {attacker} cannot initiate challenges against {against}",
        )


def check_may_support(state: State, trace: Trace, player: str, challenge: Challenge) -> None:
    target_title = state.players[challenge.defender].title
    if not target_title or _title(state, player).get("supports") != target_title:
        raise IllegalStep(
            "title.supports",
            f"{player} does not hold a title that supports {challenge.defender}'s, so cannot declare defenders in this challenge",
        )
    if challenge.defenders or not state.facts.get("no_defenders_declared"):
        raise IllegalStep(
            "title.supports", f"{player} may only defend for {challenge.defender} after {challenge.defender} declares no defenders"
        )
    trace.add(
        "title.supports",
        f"{challenge.defender} declared no defenders; {player}'s "
        f"{state.players[player].title} supports {target_title}, so {player} may defend. {player} is the winner "
        f"or loser of the challenge, but {challenge.defender} remains responsible for claim",
    )


@rule(
    "title.strength",
    ["agot1-rules/crown-regent", "agot1-rules/lord-commander-of-the-kingsguard", "agot1-rules/master-of-whispers"],
    "Crown Regent (power), Lord Commander (military) and Master of Whispers (intrigue) add 3 STR to a side with a participating character",
)
def title_strength(state: State, trace: Trace | None, player: str, challenge: Challenge) -> int:
    data = _title(state, player)
    if data.get("str_bonus") == challenge.type:
        if trace:
            trace.add(
                "title.strength",
                f"{player}'s {state.players[player].title} adds 3 STR to {player}'s side in "
                f"this {challenge.type} challenge (title data: corpus/titles.yaml)",
                cite=[data["clause"]] if data.get("clause") else None,
            )
        return 3
    return 0


@rule(
    "title.opposes",
    ["agot1-rules/opposes"],
    "winning a challenge against the holder of a title yours opposes claims 1 power, at most once per round",
)
def opposes(state: State, trace: Trace, winner: str, loser: str | None) -> int:
    """The power the winner claims through an opposed title (0 or 1): the caller places it as claimed power
    is placed (on the House card, or on a card with Infamy: "When you claim power ...")."""
    if loser is None:
        return 0
    opposed = _title(state, winner).get("opposes") or []
    player = state.players[winner]
    if state.players[loser].title in opposed:
        if player.opposes_claimed_this_round:
            trace.add("title.opposes", f"{winner} already claimed power through an opposed title this round: no more")
            return 0
        player.opposes_claimed_this_round = True
        trace.add("title.opposes", f"{winner}'s {player.title} opposes {state.players[loser].title}: {winner} claims 1 power")
        return 1
    return 0


@rule(
    "title.redirect",
    [
        "agot1-rules/crown-regent",
        "agot1-rules/lord-commander-of-the-kingsguard",
        "agot1-faq/errata/lord-commander-of-the-kingsguard-titles",
    ],
    "Crown Regent redirects a challenge once a round to another legal target; the Lord Commander redirects an "
    "undefended challenge against itself",
)
def redirect(state: State, trace: Trace, player: str, to: str | None) -> None:
    challenge = state.challenge
    if challenge is None or challenge.resolved:
        raise IllegalStep("title.redirect", "there is no challenge to redirect")
    data = _title(state, player)
    holder = state.players[player]
    if not data.get("redirect"):
        raise IllegalStep("title.redirect", f"{player}'s title has no redirect ability")
    if holder.redirect_used_this_round:
        raise IllegalStep("title.redirect", f"{player} has already redirected a challenge this round")
    if data["redirect"] == "undefended-to-self":
        if challenge.defenders or not state.facts.get("no_defenders_declared"):
            raise IllegalStep("title.redirect", "the Lord Commander redirects only a challenge whose target declares no defenders")
        if player in (challenge.attacker, challenge.defender):
            raise IllegalStep("title.redirect", f"{player} is not a legal target for this challenge")
        new_target = player
    else:
        legal = [
            p
            for p in state.players
            if p not in (challenge.attacker, challenge.defender)
            and not (_title(state, challenge.attacker).get("supports") == state.players[p].title)
        ]
        if not legal:
            trace.add(
                "title.redirect",
                "there is no other legal target: the attack goes through against the original target",
                cite=[data["clause"]],
            )
            holder.redirect_used_this_round = True
            return
        new_target = to or ""
        if new_target not in legal:
            raise IllegalStep("title.redirect", f"{challenge.attacker} must choose a new legal target among {', '.join(legal)}")
    holder.redirect_used_this_round = True
    state.facts.pop("no_defenders_declared", None)
    state.facts.pop("defenders_declared", None)  # the new target has declared nothing yet
    challenge.redirected = True
    challenge.kingsguard = player if data["redirect"] == "undefended-to-self" else None
    old = challenge.defender
    challenge.defender = new_target
    challenge.stealth = {}
    trace.add(
        "title.redirect",
        f"{player} uses the {holder.title} to redirect the challenge from {old} to {new_target}; the attackers now attack {new_target}",
        cite=[data["clause"]] + (["agot1-faq/errata/lord-commander-of-the-kingsguard-titles"] if challenge.kingsguard else []),
    )


def claim_target(state: State, trace: Trace, challenge: Challenge) -> str:
    """Who satisfies claim: always the (possibly redirected) target, even when another player defended."""
    return challenge.defender


def kingsguard_win(state: State, trace: Trace, winner: str, loser: str | None, challenge: Challenge) -> None:
    if challenge.kingsguard == winner and loser:
        moved = min(1, state.players[loser].power)
        state.players[loser].power -= moved
        state.players[winner].power += moved
        trace.add(
            "title.redirect",
            f"{winner} won the redirected challenge: {moved} power moves from {loser}'s House to {winner}'s",
            cite=["agot1-rules/lord-commander-of-the-kingsguard"],
        )


@rule(
    "title.select",
    ["agot1-rules/plot-step-2-select-titles"],
    "in the plot phase, from the first player clockwise, each player chooses one of the remaining titles for the round",
)
def select(state: State, trace: Trace, chosen: dict[str, str]) -> None:
    """The plot phase's Step 2: each player's title for the round, in the order the scenario gives them."""
    taken: dict[str, str] = {}
    for player, title in chosen.items():
        if title in taken:
            raise IllegalStep(
                "title.select", f"{taken[title]} has already chosen the {title}: {player} chooses one of the remaining titles"
            )
        taken[title] = player
    for player, title in chosen.items():
        state.players[player].title = title
        trace.add("title.select", f"{player} chooses the {title} for the rest of the round")
