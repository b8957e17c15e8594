"""Melee titles (second edition): selection (1.4) and return (7.4), supports, the rivals bonus (4.2.3), the title
STR bonuses, Crown Regent's redirect, and the printed abilities the engine applies.

The Rules Reference says how a title works (agot2-rr/title-cards, supports, rivals, redirect); which title supports or
rivals which, and each card's printed ability, are printed on the title cards only: they are recorded as facts in
corpus/titles2.yaml (``state.title_data``), or given by the scenario (``Player.title_terms``).  Every trace entry
names where its fact comes from and cites the Rules Reference clause that applies it.
"""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot2 import RULES, rule
from judgekb.engine.agot2.victory import gain_power, remaining, total_power
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Challenge, State
from judgekb.engine.core.trace import Trace

TITLE_CARDS = "agot2-rr/title-cards"
SUPPORTS = "agot2-rr/supports"
RIVALS = "agot2-rr/rivals"
REDIRECT = "agot2-rr/redirect"
ASSAULT = "agot2-rr/assault"
MELEE = "agot2-rr/melee-game"
SELECT = "agot2-rr/appendix-i/plot-phase/1.4"
RETURN = "agot2-rr/appendix-i/taxation-phase/7.4"
BONUS = "agot2-rr/appendix-i/challenges-phase/4.2.3"
DECLARE = "agot2-rr/appendix-i/challenges-phase/4.2"
DATA_FILE = "corpus/titles2.yaml"
LEAVES_PLAY = "agot2-rr/leaves-play"
CASK_OF_ALE = "agot2-faq41/qa/a-cask-of-ale"


# ------------------------------------------------------------------ facts: the printed card, or the scenario's words


def printed(state: State, player: str) -> dict[str, Any]:
    """The facts printed on the player's title card (corpus/titles2.yaml), or {} (no title, or one not recorded)."""
    return state.title_data.get(state.players[player].title or "", {})


def _printed_source(state: State, player: str) -> str:
    """Where a fact of the player's title comes from, as a trace entry says it (the printed card, as recorded)."""
    title = state.players[player].title
    if title not in state.title_data:  # (a title the scenario names that is not one of the six: nothing is recorded)
        return f"the {title} title card is not recorded in {DATA_FILE}, so none is taken"
    return f"printed on the {title} title card, recorded in {DATA_FILE}"


def supports_of(state: State, player: str) -> tuple[str | None, str]:
    """The title the player's title supports, and where that fact comes from."""
    terms = state.players[player].title_terms
    if terms is not None and terms.supports_given:
        return terms.supports, "as the scenario gives it"
    return printed(state, player).get("supports"), _printed_source(state, player)


def rivals_of(state: State, player: str) -> tuple[list[str], str]:
    """The titles the player's title lists as rivals, and where that fact comes from."""
    terms = state.players[player].title_terms
    if terms is not None and terms.rivals is not None:
        return terms.rivals, "as the scenario gives it"
    return list(printed(state, player).get("rivals") or []), _printed_source(state, player)


def ability(state: State, player: str, name: str) -> Any:
    """One printed ability of the player's title (corpus/titles2.yaml ``ability``), or None."""
    return (printed(state, player).get("ability") or {}).get(name)


RULES.add("title.bears", [TITLE_CARDS], "a title is in play under its bearer's control while he or she bears it")


def describe(state: State, trace: Trace) -> None:
    """At set-up: each title the scenario gives, and where its relationships come from."""
    for name, player in state.players.items():
        if not player.title:
            continue
        supports, s_from = supports_of(state, name)
        rivals, r_from = rivals_of(state, name)
        known = player.title in state.title_data
        bonuses = (printed(state, name).get("str_bonus") or {}).items()
        bonus = ", ".join(f"+{n} STR " + ("for dominance" if k == "dominance" else f"[{k}]") for k, n in bonuses)
        relations = f"supports {supports or 'no title'}; rivals {', '.join(rivals) or 'none'}"
        if s_from == r_from:
            facts = relations + (f"; {bonus}" if bonus else "") + f" ({s_from})"
        else:
            facts = f"supports {supports or 'no title'} ({s_from}); rivals {', '.join(rivals) or 'none'} ({r_from})"
            facts += f"; {bonus} ({_printed_source(state, name)})" if bonus else ""
        if not known:
            facts += (
                f"; {player.title} is not one of the six recorded titles ({DATA_FILE}): it has no STR bonus or ability "
                "here, only the relationships the scenario gives"
            )
        trace.add(
            "title.bears",
            f"{name} bears the {player.title}, in play under {name}'s control for the round: {facts}",
            tag="title",
            subject=name,
        )


# ------------------------------------------------------------------ 1.4 select titles, 7.4 return them


@rule(
    "title.select",
    [SELECT, MELEE, "agot2-rr/winning-the-game"],
    "in a melee game each player, the first player first and then in player order, selects a title from the title pool; "
    "in a joust the step is skipped",
)
def select(state: State, trace: Trace, chosen: dict[str, str], first_chosen: bool = True) -> None:
    """Framework step 1.4, after initiative and the first player (1.3); ``first_chosen`` is False when 1.3 waits on a
    choice, so this round's first player, who selects first, is not known."""
    if not state.melee:
        trace.unused("title.select", "titles", list(chosen.values()), "in a joust game, step 1.4 is skipped", SELECT)
        return
    eliminated = state.facts.get("eliminated", [])
    order = remaining(state, in_order=True)
    taken: dict[str, str] = {}
    for player, title in chosen.items():
        if player in eliminated:
            raise IllegalStep(
                "title.select", f"{player} has been eliminated from the game and selects no title", cite=["agot2-rr/winning-the-game"]
            )
        if title not in state.title_data:
            raise IllegalStep(
                "title.select",
                f"{title!r} is not one of the six titles of the title pool ({', '.join(sorted(state.title_data))})",
                cite=[SELECT],
            )
        if title in taken:
            raise IllegalStep(
                "title.select",
                f"{taken[title]} and {player} cannot both select the {title}: each player takes one title from the pool, and "
                "the remaining titles are passed on",
                cite=[SELECT],
            )
        taken[title] = player
    pool = 6 if len(order) >= 6 else (4 if len(order) == 3 else 5)
    tokens_leave(state, trace, "back in the title pool before 1.4")
    for p in state.players.values():  # every title selected last round is back in the pool (7.4) before selection
        p.title, p.title_terms = None, None
        p.redirect_used_this_round = False
        p.rival_bonuses_this_round = []
    for player in order:
        if player in chosen:
            state.players[player].title = chosen[player]
    selected = [f"{p} {chosen[p]}" for p in order if p in chosen]
    first = f"the first player, {order[0]}," if first_chosen else "the first player (not yet chosen: 1.3 waits on a choice)"
    trace.add(
        "title.select",
        f"1.4 — titles are selected from a pool of {pool} (of the six, "
        + ("none removed: six or more players" if pool == 6 else f"{6 - pool} removed at random")
        + f"), {first} first and then in player order; they enter play simultaneously: "
        + (", ".join(selected) if selected else "no selection stated"),
        cite=[SELECT, MELEE],
        tag="title",
    )
    missing = [p for p in order[:6] if p not in chosen]
    if missing:
        trace.add(
            "title.select",
            f"{', '.join(missing)} must select a title (state titles: {{player: title}} on the plot phase step): not assumed",
            "choice-needed",
            cite=[SELECT],
            tag="choice",
        )
    for player in order[6:]:
        if player not in chosen:
            trace.add(
                "title.select",
                f"{player} would select from an empty title pool and plays the round without a title",
                cite=[SELECT],
                tag="title",
                subject=player,
            )


@rule(
    "title.return",
    [RETURN, TITLE_CARDS, LEAVES_PLAY],
    "in the taxation phase each player returns his or her title to the title pool; the tokens on a title leaving play "
    "return to the treasury",
)
def return_titles(state: State, trace: Trace) -> None:
    """Framework step 7.4 (melee only): all titles leave play simultaneously."""
    if not state.melee:
        return
    held = [f"{n} the {p.title}" for n, p in state.players.items() if p.title]
    trace.add(
        "title.return",
        "7.4 — each player returns his or her title to the title pool; all titles leave play simultaneously"
        + (f" ({', '.join(held)})" if held else " (no player bears a title)"),
        cite=[RETURN],
        tag="title",
    )
    tokens_leave(state, trace, "7.4")
    for p in state.players.values():
        p.title, p.title_terms = None, None


def tokens_leave(state: State, trace: Trace, when: str) -> None:
    """RR Leaves Play: "All tokens on the card are returned to the treasury" -- the power on each title leaving play."""
    for name, p in state.players.items():
        if not p.title_power:
            continue
        state.ledger(to_pool=p.title_power)
        trace.add(
            "title.return",
            f"the {p.title_power} power on {name}'s {p.title} returns to the treasury as the title leaves play ({when}); "
            f"{name}'s total: {total_power(state, name) - p.title_power}",
            cite=[LEAVES_PLAY, RETURN],
            tag="tokens",
            subject=name,
        )
        p.title_power = 0


# ------------------------------------------------------------------ power on a title (A Cask of Ale Q&A)


class TitlePower:
    """A player's title as a holder of power tokens (``move_power``): the title card is in play under its bearer's
    control (FAQ v4.1 A Cask of Ale Q&A), so the power on it counts toward the bearer's 15 (RR Winning the Game)."""

    def __init__(self, state: State, bearer: str) -> None:
        self.player = state.players[bearer]
        self.bearer = bearer

    @property
    def power(self) -> int:
        return self.player.title_power

    @power.setter
    def power(self, value: int) -> None:
        self.player.title_power = value


def title_named(name: str) -> str | None:
    """The title a ``move_power`` end names as ``title: NAME`` (None for anything else)."""
    head, _, rest = name.partition(":")
    return rest.strip() if head.strip().lower() == "title" and rest.strip() else None


RULES.add("power.onto-title", [CASK_OF_ALE, TITLE_CARDS], "a melee title is in play under its bearer's control: power can be on it")


def title_holder(state: State, name: str) -> TitlePower:
    """The title ``name`` (``title: NAME`` or a bare title name) as a power holder; refused when no player bears it."""
    title = title_named(name) or name
    folded = title.casefold().removeprefix("the ").strip()
    bearer = next((n for n, p in state.players.items() if p.title and p.title.casefold().removeprefix("the ").strip() == folded), None)
    if bearer is None:
        raise IllegalStep(
            "power.onto-title",
            f"no player bears the {title} now: a title is in play only while a player bears it (between 1.4 and 7.4), so "
            "no power can be on it",
            cite=[TITLE_CARDS],
        )
    return TitlePower(state, bearer)


# ------------------------------------------------------------------ supports


@rule("title.supports", [SUPPORTS], "the bearer of a title cannot initiate a challenge against the bearer of the title it supports")
def check_may_challenge(state: State, attacker: str, against: str) -> None:
    """Raises IllegalStep when the attacker's title supports the title the opponent bears."""
    supported, source = supports_of(state, attacker)
    if supported and state.players[against].title == supported:
        raise IllegalStep(
            "title.supports",
            f"{attacker}'s {state.players[attacker].title} supports the {supported} ({source}), and {against} bears the "
            f"{supported}: {attacker} cannot initiate a challenge against {against}",
            cite=[SUPPORTS],
        )


# ------------------------------------------------------------------ STR bonuses (RR Title Cards)


@rule(
    "title.strength",
    [TITLE_CARDS],
    "Crown Regent +2 STR for dominance; Hand of the King, Master of Ships and Master of Whispers +1 STR to their bearer's "
    "total in [power], [military], [intrigue] challenges in which the bearer controls a participating character",
)
def challenge_bonus(state: State, trace: Trace, challenge: Challenge, player: str, keys: list[str]) -> int:
    """The title STR bonus to ``player``'s total in this challenge (``keys``: that side's participants)."""
    title = state.players[player].title
    bonus = int((printed(state, player).get("str_bonus") or {}).get(challenge.type, 0))
    if not bonus:
        return 0
    own = [k for k in keys if state.cards[k].zone == "in_play" and state.cards[k].controller == player]
    if not own:
        trace.add(
            "title.strength",
            f"{player}'s {title} gives no STR in this {challenge.type} challenge: {player} controls no participating character",
            "not-applied",
            cite=[TITLE_CARDS],
            tag="title strength",
            subject=player,
        )
        return 0
    trace.add(
        "title.strength",
        f"{player}'s {title} contributes {bonus} additional STR to {player}'s total in this {challenge.type} challenge "
        f"({player} controls participating {', '.join(own)}; the +{bonus} STR [{challenge.type}] is {_printed_source(state, player)})",
        cite=[TITLE_CARDS],
        tag="title strength",
        subject=player,
    )
    return bonus


def dominance_bonus(state: State, trace: Trace, player: str) -> int:
    """The Crown Regent's 2 additional STR to its bearer's total for dominance."""
    bonus = int((printed(state, player).get("str_bonus") or {}).get("dominance", 0))
    if bonus:
        trace.add(
            "title.strength",
            f"{player}'s {state.players[player].title} contributes {bonus} additional STR to {player}'s total for dominance",
            cite=[TITLE_CARDS],
            tag="title strength",
            subject=player,
        )
    return bonus


# ------------------------------------------------------------------ rivals bonus (4.2.3)


@rule(
    "title.rivals",
    [BONUS, RIVALS],
    "winning a challenge against an opponent bearing a rival title gains 1 power, at most once per rival opponent each round",
)
def rivals_bonus(state: State, trace: Trace, result: dict[str, Any]) -> None:
    """The rivals bonus of step 4.2.3 (the caller checks victory once every bonus of the step is gained)."""
    winner, opponent = result.get("winner"), result.get("loser")
    if not state.melee or not winner or not opponent:
        return
    title = state.players[opponent].title
    rivals, source = rivals_of(state, winner)
    if not title or title not in rivals:
        return
    mine = state.players[winner].title
    as_defender = (
        " (the Rules Reference gives the rivals bonus to the challenge winner; unlike the unopposed bonus, not only to the attacker)"
        if winner != result["attacker"]
        else ""
    )
    if opponent in state.players[winner].rival_bonuses_this_round:
        trace.add(
            "title.rivals",
            f"{winner} won against {opponent}, who bears the {title}, a rival of the {mine} ({source}), but {winner} already "
            f"gained a rivals bonus against {opponent} this round: a maximum of 1 per rival opponent each round",
            "not-applied",
            cite=[RIVALS, BONUS],
            tag="rivals bonus",
            subject=winner,
        )
        return
    state.players[winner].rival_bonuses_this_round.append(opponent)
    gain_power(
        state,
        trace,
        winner,
        1,
        f"rivals bonus — {winner} won the challenge against {opponent}, who bears the {title}, listed as a rival on "
        f"{winner}'s {mine} ({source}){as_defender}",
        rule_id="title.rivals",
        cite=[BONUS, RIVALS],
        tag="rivals bonus",
        check=False,
    )


# ------------------------------------------------------------------ Crown Regent: redirect


@rule(
    "title.redirect",
    [REDIRECT, TITLE_CARDS, "agot2-rr/winning-the-game", ASSAULT],
    "the Crown Regent redirects one challenge a round, after it is initiated and before reactions to it; the attacker "
    "chooses a new opponent, not the original one; the assault target first chosen is no longer targeted",
)
def redirect(state: State, trace: Trace, player: str, to: str | None) -> bool:
    """Redirect the challenge under way; False when the attacker's choice of a new opponent is not stated.

    Raises IllegalStep when the player's title cannot redirect, or this challenge cannot be redirected now or to ``to``."""
    challenge = state.challenge
    if challenge is None or challenge.ended or challenge.resolved:
        raise IllegalStep("title.redirect", "there is no challenge under way to redirect", cite=[REDIRECT])
    holder = state.players[player]
    times = ability(state, player, "redirect")
    if not times:
        raise IllegalStep(
            "title.redirect",
            f"{player} bears {('the ' + holder.title) if holder.title else 'no title'}: only the Crown Regent title card can be "
            "used to redirect a challenge",
            cite=[REDIRECT],
        )
    if holder.redirect_used_this_round:
        raise IllegalStep(
            "title.redirect",
            f"{player} has already redirected a challenge this round: the Crown Regent redirects a single challenge each round",
            cite=[REDIRECT],
        )
    if state.facts.get("defenders_declared") or challenge.defending_player is not None:
        raise IllegalStep(
            "title.redirect",
            "defenders have been declared: a redirect is used after a challenge is initiated, before any reactions to its initiation",
            cite=[REDIRECT],
        )
    if to is None:
        trace.add(
            "title.redirect",
            f"{player} redirects the challenge: {challenge.attacker}, who initiated it, must immediately choose a new opponent "
            "(state 'to'): not assumed",
            "choice-needed",
            cite=[REDIRECT],
            tag="choice",
            subject=challenge.attacker,
        )
        return False
    original = challenge.initiated_against or challenge.defender
    if to in (challenge.attacker, original):
        why = (
            f"{to} initiated the challenge and is not an opponent"
            if to == challenge.attacker
            else f"a redirected challenge may not be resolved against the opponent it was initiated against, {original}"
        )
        raise IllegalStep("title.redirect", why, cite=[REDIRECT])
    if to in state.facts.get("eliminated", []):
        raise IllegalStep("title.redirect", f"{to} has been eliminated from the game", cite=["agot2-rr/winning-the-game"])
    holder.redirect_used_this_round = True
    challenge.initiated_against = original
    challenge.defender = to
    challenge.redirected = True
    dropped = sorted(challenge.stealth.values())
    challenge.stealth = {}
    trace.add(
        "title.redirect",
        f"{player} uses the Crown Regent to redirect the challenge ('redirect {times} challenge this round': "
        f"{_printed_source(state, player)}): {challenge.attacker} chooses {to}; the challenge is still considered initiated against "
        f"{original}, resolves against {to}, and keeps its type ({challenge.type}) and attackers"
        + (f"; {', '.join(dropped)}, the stealth target(s) first chosen, are not bypassed" if dropped else ""),
        cite=[REDIRECT],
        tag="redirect",
        subject=to,
    )
    _drop_assault_target(state, trace)
    supported, source = supports_of(state, challenge.attacker)
    if supported and state.players[to].title == supported:
        trace.add(
            "title.redirect",
            f"{challenge.attacker}'s {state.players[challenge.attacker].title} supports the {supported} ({source}), which {to} "
            f"bears: that prevents initiating a challenge against {to}, not a redirected challenge resolving against {to}",
            cite=[REDIRECT],
            tag="redirect",
            subject=to,
        )
    return True


def _drop_assault_target(state: State, trace: Trace) -> None:
    """RR Assault: "If a challenge is redirected using the Crown Regent melee title, the attacking player may choose a
    new target for assault. The previously chosen target is not considered to have been targeted by assault and
    remains unaffected."  Its blank (a lasting effect of the assault declaration) ends, and it will not be knelt."""
    target = state.facts.pop("assault", None)
    if not target:
        return
    blank = next(
        (e for e in state.effects if e.target == target and e.kind == "blank" and e.value == "except traits" and e.until == "challenge"),
        None,
    )
    if blank is not None:
        state.effects.remove(blank)
    trace.add(
        "title.redirect",
        f"{target}, the assault target first chosen, is not considered to have been targeted by assault and remains "
        "unaffected: its printed text box is no longer treated as blank, and it is not knelt if the attacker wins",
        cite=[ASSAULT],
        tag="assault",
        subject=target,
    )


# ------------------------------------------------------------------ printed abilities the engine applies


@rule(
    "title.challenge",
    [DECLARE, TITLE_CARDS],
    "the Hand of the King may initiate an additional [power] challenge in the challenges phase, against a different opponent",
)
def additional_challenge(state: State, trace: Trace, attacker: str, kind: str, against: str) -> bool:
    """Whether the attacker's title lets him or her initiate this challenge beyond one of its type (and say so).

    Raises IllegalStep when the title's additional challenge would be against the same opponent."""
    player = state.players[attacker]
    if ability(state, attacker, "additional_challenge") != kind or player.title_challenge_used:
        return False
    before = [o for t, o in player.challenge_opponents if t == kind]
    if against in before:
        raise IllegalStep(
            "title.challenge",
            f"{attacker} has initiated a {kind} challenge against {against} this phase; the {player.title}'s additional "
            f"{kind} challenge ({_printed_source(state, attacker)}) must be against a different opponent",
            cite=[TITLE_CARDS],
        )
    player.title_challenge_used = True
    trace.add(
        "title.challenge",
        f"{attacker} initiates an additional {kind} challenge, against {against}, a different opponent from the first "
        f"({', '.join(before)}): the {player.title}'s ability, {_printed_source(state, attacker)}; the game permits one challenge of "
        "each type, and a title's textual abilities add to it",
        cite=[DECLARE, TITLE_CARDS],
        tag="additional challenge",
        subject=attacker,
    )
    return True


@rule(
    "title.income",
    ["agot2-rr/income", "agot2-rr/plot-value-modifiers", TITLE_CARDS],
    "the Master of Coin's printed +2 Income is a gold modifier its bearer controls",
)
def income(state: State, player: str) -> tuple[int, str]:
    """The gold modifier of the player's title, and the words for the income line."""
    amount = int(ability(state, player, "income") or 0)
    title = state.players[player].title
    words = f"the {title}'s {amount:+d} Income ({_printed_source(state, player)}; a title in play under {player}'s control)"
    return amount, words if amount else ""


@rule(
    "title.reserve",
    ["agot2-rr/reserve-value", "agot2-rr/plot-value-modifiers", TITLE_CARDS],
    "the Master of Laws' printed +1 Reserve is a reserve modifier its bearer controls",
)
def reserve(state: State, trace: Trace, player: str) -> int:
    """The reserve modifier of the player's title (and say so)."""
    amount = int(ability(state, player, "reserve") or 0)
    if amount:
        trace.add(
            "title.reserve",
            f"{player}'s reserve value incorporates the {amount:+d} Reserve of the {state.players[player].title} "
            f"({_printed_source(state, player)}), a title in play under {player}'s control",
            cite=["agot2-rr/reserve-value", "agot2-rr/plot-value-modifiers", TITLE_CARDS],
            tag="reserve",
            subject=player,
        )
    return amount


@rule(
    "title.draw",
    ["agot2-rr/appendix-i/draw-phase/2.2", TITLE_CARDS],
    "the Master of Laws draws 1 more card in the draw phase's framework draw",
)
def draw_bonus(state: State, trace: Trace, player: str) -> int:
    extra = int(ability(state, player, "draw_phase_draw") or 0)
    if extra:
        trace.add(
            "title.draw",
            f"{player} draws {extra} more card in the draw phase: the ability of the {state.players[player].title}, "
            f"{_printed_source(state, player)}, increases the 2 cards of step 2.2",
            cite=["agot2-rr/appendix-i/draw-phase/2.2", TITLE_CARDS],
            tag="draw bonus",
            subject=player,
        )
    return extra


@rule(
    "title.claim",
    ["agot2-rr/claim", TITLE_CARDS],
    "the Master of Ships raises its bearer's claim by 1 in [military] challenges in which he or she attacks a rival",
)
def claim_raise(state: State, trace: Trace, challenge: Challenge) -> int:
    raise_ = ability(state, challenge.attacker, "claim_raise") or {}
    if raise_.get("type") != challenge.type:
        return 0
    rivals, source = rivals_of(state, challenge.attacker)
    title = state.players[challenge.defender].title
    if not title or title not in rivals:
        return 0
    by = int(raise_.get("by", 0))
    trace.add(
        "title.claim",
        f"{challenge.attacker}'s {state.players[challenge.attacker].title} raises the claim value on {challenge.attacker}'s "
        f"revealed plot by {by}: a {challenge.type} challenge in which {challenge.attacker} attacks {challenge.defender}, who "
        f"bears the {title}, a rival (the ability is {_printed_source(state, challenge.attacker)}"
        + ("" if source == _printed_source(state, challenge.attacker) else f"; the rivals {source}")
        + ")",
        cite=["agot2-rr/claim", TITLE_CARDS],
        tag="claim value",
        subject=challenge.attacker,
    )
    return by


RULES.add("title.not-modeled", [TITLE_CARDS], "a title's printed ability the engine does not apply is said, not ignored")


def claim_not_modeled(state: State, trace: Trace, challenge: Challenge) -> None:
    """The Master of Whispers' claim against any number of opponents: said, not applied."""
    kind = ability(state, challenge.attacker, "claim_any_opponents")
    if kind == challenge.type:
        trace.add(
            "title.not-modeled",
            f"{challenge.attacker}'s {state.players[challenge.attacker].title} lets {challenge.attacker} resolve the {kind} "
            f"claim against any number of opponents of his or her choice ({_printed_source(state, challenge.attacker)}): the engine "
            f"does not apply this; the claim is resolved against {challenge.defender} only (give any other opponent's "
            "discards as effect steps)",
            "not-applied",
            cite=[TITLE_CARDS],
            tag="not modeled",
            subject=challenge.attacker,
        )
