"""Challenges (second edition): declaring, defending, and applying the result in D.U.C.K. order —
Determine the result, Unopposed, Claim, Keywords (FAQ v4.1 Quick Reference)."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot2 import RULES, rule, titles
from judgekb.engine.agot2.constants import can_be, does_not_kneel, immunity, not_bypassed
from judgekb.engine.agot2.leaving import ZONE_SAID, leave_play
from judgekb.engine.agot2.victory import check_elimination, check_victory, deck_counts, gain_power, moved_not_gained
from judgekb.engine.agot2.windows import Context, interrupts, queue_reactions, replacement, run_reactions
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Challenge, Lasting, State
from judgekb.engine.core.steps import declared_once, named_twice, names
from judgekb.engine.core.trace import Trace
from judgekb.engine.scenario import phase_said2

DECLARE = "agot2-rr/appendix-i/challenges-phase/4.2"
DEFEND = "agot2-rr/appendix-i/challenges-phase/4.2.1"
COMPARE = "agot2-rr/appendix-i/challenges-phase/4.2.2"
BONUS = "agot2-rr/appendix-i/challenges-phase/4.2.3"
CLAIM = "agot2-rr/appendix-i/challenges-phase/4.2.4"
KEYWORDS = "agot2-rr/appendix-i/challenges-phase/4.2.5"
ENDS = "agot2-rr/appendix-i/challenges-phase/4.2.6"
DUCK = "agot2-faq41/timing/duck"
RR_ORDER = ("insight", "intimidate", "pillage", "renown")  # as the Rules Reference lists them (4.2.5)


def _kneel_declared(state: State, keys: list[str], role: str, kind: str) -> tuple[list[str], dict[str, str]]:
    """Kneel the characters declared as attackers or defenders (``role``: "attack", "defend"), all at once, and return
    those knelt, and those whose own text says they do not kneel when so declared (with that text): those are declared
    standing (RR The Golden Rules: the card's text takes precedence); one that cannot be knelt ignores this game rule,
    which chooses no one (FAQ 2.1), and stays standing."""
    own = {key: text for key in keys if (text := does_not_kneel(state, state.cards[key], role, kind))}
    knelt = [key for key in keys if key not in own and can_be(state, state.cards[key], "knelt")]
    for key in knelt:
        state.cards[key].kneeling = True
    return knelt, own


NO_KNEEL = RULES.add(
    "challenge.no-kneel",
    [DECLARE, DEFEND, "agot2-rr/the-golden-rules"],
    "a character whose text says it does not kneel when declared as an attacker or defender is declared standing",
)


def _declared_standing(trace: Trace, own: dict[str, str], role: str, clause: str) -> None:
    """Say which declared characters were not knelt because their own text says so (``_kneel_declared``)."""
    for key, text in own.items():
        trace.add(
            NO_KNEEL,
            f"{key} {role}s without kneeling: its text says it {text}, and where a card's text contradicts the Rules "
            f"Reference (which kneels {role}ers as they are declared) the card's text takes precedence",
            cite=[clause, "agot2-rr/the-golden-rules"],
            tag="does not kneel",
            subject=key,
        )


def _stays_standing(trace: Trace, standing: list[str], role: str, rule_id: str, clause: str) -> None:
    """Say which declared characters stayed standing because they cannot be knelt (``_kneel_declared``)."""
    if standing:
        trace.add(
            rule_id,
            f"{', '.join(standing)} cannot be knelt, so {'it' if len(standing) == 1 else 'they'} {role}"
            f"{'s' if len(standing) == 1 else ''} and stay{'s' if len(standing) == 1 else ''} standing: the game kneels "
            f"{role}ers as they are declared, an effect that targets no one, and a card that cannot be knelt ignores it",
            cite=[clause, "agot2-faq41/2.1"],
            tag="cannot",
            subject=standing[0],
        )


def _participant(state: State, key: str, player: str, kind: str, role: str, rule_id: str, clause: str) -> None:
    card = state.cards[key]
    if card.zone != "in_play" or card.type != "character" or card.duplicate or card.attached_to:
        raise IllegalStep(rule_id, f"{key} is not a character in play", cite=[clause])
    if card.controller != player:
        raise IllegalStep(rule_id, f"{key} is controlled by {card.controller}, not {player}", cite=[clause])
    if card.kneeling:
        raise IllegalStep(rule_id, f"{key} is kneeling: a character must be standing to be declared as {role}", cite=[clause])
    if kind not in state.icons(card):
        raise IllegalStep(
            rule_id,
            f"{key} has no {kind} icon, so it cannot be declared as {role} in {'an' if kind[0] in 'aeiou' else 'a'} {kind} challenge",
            cite=[clause, "agot2-rr/challenge-icons"],
        )


@rule(
    "challenge.declare",
    [DECLARE, "agot2-rr/challenge-icons", "agot2-rr/attacker", "agot2-rr/winning-the-game", "agot2-faq41/2.1"],
    "the active player announces type, opponent (one still in the game) and attackers (standing, with the icon); one challenge "
    "of each type per phase",
)
def declare(
    state: State,
    trace: Trace,
    ctx: Context,
    attacker: str,
    kind: str,
    against: str,
    attackers: list[str],
    stealth: dict[str, str],
    assault: dict[str, str] | None = None,
) -> None:
    if state.phase != "challenges":
        raise IllegalStep(
            "challenge.declare",
            f"challenges are initiated only in the challenges phase (the game is in the {phase_said2(state.phase)} phase)",
            cite=[DECLARE],
        )
    if state.challenge and not state.challenge.ended:
        end_challenge(state, trace, ctx, quiet=True)
    player = state.players[attacker]
    if against == attacker:
        raise IllegalStep("challenge.declare", f"{attacker} cannot initiate a challenge against himself or herself", cite=[DECLARE])
    for who in (attacker, against):
        if who in state.facts.get("eliminated", []):
            raise IllegalStep(
                "challenge.declare",
                f"{who} has been eliminated from the game: "
                + ("he or she initiates no challenge" if who == attacker else "no challenge can be initiated against him or her"),
                cite=["agot2-rr/winning-the-game"],
            )
    titles.check_may_challenge(state, attacker, against)  # RR Supports (melee)
    extra = state.facts.setdefault("additional_challenges", {}).setdefault(attacker, {})
    if kind in player.challenges_this_round and extra.get(kind, 0) <= 0:
        if not titles.additional_challenge(state, trace, attacker, kind, against):  # the Hand of the King (melee)
            raise IllegalStep(
                "challenge.declare", f"{attacker} has already initiated a {kind} challenge this phase (one of each type)", cite=[DECLARE]
            )
    elif kind in player.challenges_this_round:
        extra[kind] -= 1
        trace.add(
            "challenge.additional",
            f"{attacker} initiates an additional {kind} challenge this phase, as a card ability allows",
            tag="additional challenge",
            subject=attacker,
        )
    if not attackers:
        raise IllegalStep(
            "challenge.declare", "at least one character must be declared as an attacker to initiate a challenge", cite=[DECLARE]
        )
    declared_once(attackers, "an attacker", "challenge.declare", DECLARE)
    for key in attackers:
        _participant(state, key, attacker, kind, "an attacker", "challenge.declare", DECLARE)
    knelt, own = _kneel_declared(state, attackers, "attack", kind)
    player.challenges_this_round.append(kind)
    player.challenge_opponents.append((kind, against))
    state.challenge = Challenge(type=kind, attacker=attacker, defender=against, attackers=list(attackers))
    state.facts["challenge_step"] = trace.step
    state.begin_period("challenge")
    article = "an" if kind[0] in "aeiou" else "a"
    trace.add(
        "challenge.declare",
        f"{attacker} initiates {article} {kind} challenge against {against}, kneeling {', '.join(knelt) or 'no one'} to attack",
        cite=[DECLARE],
        tag="declare challenge",
        subject=attacker,
    )
    _declared_standing(trace, own, "attack", DECLARE)
    _stays_standing(trace, [k for k in attackers if k not in knelt and k not in own], "attack", "challenge.declare", DECLARE)
    if stealth:
        declare_stealth(state, trace, stealth)
    if assault:
        declare_assault(state, trace, assault)
    queue_reactions(ctx, f"declare challenge: {attacker}")


@rule(
    "keyword.stealth",
    [
        "agot2-rr/stealth",
        DECLARE,
        "agot2-faq41/qa/wolves-of-the-north",
        titles.REDIRECT,
        "agot2-rr/keywords",
        "agot2-rr/immune",
        "agot2-faq41/2.1",
    ],
    "each attacker with stealth may choose a character without stealth of the defending player (not one that cannot be "
    "bypassed by stealth); it cannot defend",
)
def declare_stealth(state: State, trace: Trace, choices: dict[str, str], redirected: bool = False) -> None:
    challenge = state.challenge
    assert challenge is not None
    targets = list(choices.values())
    for attacker_key, target_key in choices.items():
        attacker, target = state.cards[attacker_key], state.cards[target_key]
        if attacker_key not in challenge.attackers or "stealth" not in state.keywords(attacker):
            raise IllegalStep("keyword.stealth", f"{attacker_key} is not an attacking character with stealth", cite=["agot2-rr/stealth"])
        if target.controller != challenge.defender or target.zone != "in_play" or target.type != "character":
            raise IllegalStep(
                "keyword.stealth",
                f"{target_key} is not a character controlled by the defending player, {challenge.defender}",
                cite=["agot2-rr/stealth"],
            )
        if "stealth" in state.keywords(target):
            raise IllegalStep(
                "keyword.stealth",
                f"{target_key} has stealth itself: stealth chooses a character without stealth",
                cite=["agot2-rr/stealth"],
            )
        if not_bypassed(state, target):  # FAQ 2.1: a card that "cannot be {variable}ed" cannot be chosen to be
            raise IllegalStep(
                "keyword.stealth",
                f"{target_key} cannot be bypassed by stealth, so {attacker_key}'s stealth cannot choose it: each character "
                "stealth chooses is bypassed by stealth, and a card that cannot be bypassed cannot be chosen to be bypassed",
                cite=["agot2-rr/stealth", "agot2-faq41/2.1"],
            )
        if shield := immunity(state, target, attacker.type):  # a keyword is a card ability: the stealth card's
            raise IllegalStep(
                "keyword.stealth",
                f"{target_key} is immune to {shield}: stealth is a keyword, a card ability of {attacker_key}, so it cannot "
                f"choose {target_key}",
                cite=["agot2-rr/stealth", "agot2-rr/keywords", "agot2-rr/immune"],
            )
        challenge.stealth[attacker_key] = target_key
        shared = targets.count(target_key) > 1
        when = "chosen anew as the challenge is redirected" if redirected else "chosen as the challenge is declared"
        trace.add(
            "keyword.stealth",
            f"{attacker_key} (stealth) bypasses {target_key}, {when}: it cannot be declared as a defender"
            + (" (each stealth target is declared independently, so several attackers may choose the same one)" if shared else ""),
            cite=["agot2-rr/stealth"]
            + (["agot2-faq41/qa/wolves-of-the-north"] if shared else [])
            + ([titles.REDIRECT] if redirected else [] if shared else [DECLARE]),
            tag="stealth",
            subject=target_key,
        )


@rule(
    "keyword.assault",
    ["agot2-rr/assault"],
    "an attacker with assault may target a location of lower printed cost; it is blank for the challenge and knelt if the attacker wins",
)
def declare_assault(state: State, trace: Trace, choices: dict[str, str], redirected: bool = False) -> None:
    challenge = state.challenge
    assert challenge is not None
    if len(set(choices.values())) > 1:
        raise IllegalStep("keyword.assault", "only one location may be targeted using assault in each challenge", cite=["agot2-rr/assault"])
    for attacker_key, target_key in choices.items():
        attacker, target = state.cards[attacker_key], state.cards[target_key]
        if attacker_key not in challenge.attackers or "assault" not in state.keywords(attacker):
            raise IllegalStep("keyword.assault", f"{attacker_key} is not an attacking character with assault", cite=["agot2-rr/assault"])
        if target.type != "location" or target.zone != "in_play" or target.controller != challenge.defender:
            raise IllegalStep(
                "keyword.assault",
                f"{target_key} is not a location controlled by the defending player, {challenge.defender}",
                cite=["agot2-rr/assault"],
            )
        if target.cost >= attacker.cost:
            raise IllegalStep(
                "keyword.assault",
                f"{target_key} (cost {target.cost}) does not have a lower printed cost than {attacker_key} (cost {attacker.cost})",
                cite=["agot2-rr/assault"],
            )
        state.effects.append(Lasting(target_key, "blank", "except traits", "challenge", attacker_key))
        state.facts["assault"] = target_key
        when = " (a new target, chosen as the challenge is redirected)" if redirected else ""
        trace.add(
            "keyword.assault",
            f"{attacker_key} (assault) targets {target_key}{when}: until the end of the challenge its printed text box is blank "
            "(except traits)",
            tag="assault",
            subject=target_key,
        )


def assault_kneel(state: State, trace: Trace, challenge: Challenge, result: dict[str, Any]) -> None:
    target = state.facts.get("assault")
    if not target or result["winner"] != challenge.attacker or state.cards[target].zone != "in_play":
        return
    with_assault = [k for k in challenge.attackers if "assault" in state.keywords(state.cards[k])]
    if not with_assault:
        trace.add(
            "keyword.assault",
            f"no attacking character has assault now: {target} is not knelt",
            "not-applied",
            tag="assault",
            subject=target,
        )
        return
    state.cards[target].kneeling = True
    trace.add(
        "keyword.assault",
        f"{challenge.attacker} won with an attacking character with assault ({', '.join(with_assault)}): {target}, "
        f"targeted by assault, kneels",
        tag="assault",
        subject=target,
    )


@rule(
    "challenge.defend",
    [DEFEND, "agot2-rr/defender", "agot2-rr/challenge-icons", "agot2-faq41/2.1"],
    "the defending player may kneel standing characters with the icon, except those bypassed by stealth",
)
def defend(state: State, trace: Trace, ctx: Context, player: str, defenders: list[str]) -> None:
    challenge = state.challenge
    if challenge is None or challenge.resolved or challenge.ended:
        raise IllegalStep("challenge.defend", "there is no challenge waiting for defenders", cite=[DEFEND])
    if challenge.defending_player is not None or state.facts.get("defenders_declared"):
        raise IllegalStep("challenge.defend", "defenders have already been declared for this challenge", cite=[DEFEND])
    if player != challenge.defender:
        raise IllegalStep(
            "challenge.defend", f"only the defending player, {challenge.defender}, declares defenders", cite=[DEFEND, "agot2-rr/defender"]
        )
    declared_once(defenders, "a defender", "challenge.defend", DEFEND)
    for key in defenders:
        if key in challenge.stealth.values():
            raise IllegalStep(
                "challenge.defend", f"{key} was chosen as a stealth target and is not eligible to be declared as a defender", cite=[DEFEND]
            )
        _participant(state, key, player, challenge.type, "a defender", "challenge.defend", DEFEND)
    knelt, own = _kneel_declared(state, defenders, "defend", challenge.type)
    challenge.defenders = list(defenders)
    challenge.defending_player = player
    state.facts["defenders_declared"] = True
    if not defenders:
        text = f"{player} declares no defenders"
    elif knelt == list(defenders):
        text = f"{player} kneels {', '.join(knelt)} to defend"
    else:  # (review r67, L3: "Ben kneels no one to defend" read as no defence, with Ben Knight defending)
        plural = "s" if len(defenders) > 1 else ""
        text = f"{player} declares {', '.join(defenders)} as defender{plural}" + (f", kneeling {', '.join(knelt)}" if knelt else "")
    trace.add("challenge.defend", text, cite=[DEFEND], tag="declare defenders", subject=player)
    _declared_standing(trace, own, "defend", DEFEND)
    _stays_standing(trace, [k for k in defenders if k not in knelt and k not in own], "defend", "challenge.defend", DEFEND)


def contributes_to(challenge: Challenge, key: str) -> str | None:
    """The side a character's STR counts for by a card ability (the most recent effect prevails), if any."""
    stack = challenge.contributions.get(key) or []
    return stack[-1][0] if stack else None


@rule(
    "challenge.removed",
    ["agot2-rr/participating", "agot2-rr/ownership-and-control", "agot2-faq41/2.10"],
    "a character that leaves play or changes control is removed from the challenge; an explicit removal keeps a contribution",
)
def remove_from_challenge(state: State, trace: Trace, card: Card, why: str, explicit: bool = False) -> None:
    """Leaving play or changing control removes a character from the challenge; an ability that explicitly
    removes it ends only its participation, not a STR contribution made by another ability (FAQ 2.10).  This holds
    after the result is determined too (a reaction to winning kills an attacker): a character participates "through the
    resolution of the challenge" (RR Participating), up to 4.2.6, and renown, claim and the other keywords look only
    at the characters still participating (review r51, 6)."""
    challenge = state.challenge
    if challenge is None or challenge.ended:
        return
    for side in (challenge.attackers, challenge.defenders):
        if card.key in side:
            side.remove(card.key)
            stack = [c for c in challenge.contributions.get(card.key, []) if not c[1]] if explicit else []
            challenge.contributions[card.key] = stack
            kept = contributes_to(challenge, card.key)
            trace.add(
                "challenge.removed",
                f"{why}: {card.key} is removed from the challenge and no longer participates"
                + (f"; it still contributes its STR to {kept}'s side by another ability, now the most recent one" if kept else ""),
                cite=["agot2-rr/participating", "agot2-faq41/2.10"]
                if explicit
                else (["agot2-rr/ownership-and-control"] if "control" in why else ["agot2-rr/participating"]),
                tag="removed",
                subject=card.key,
            )


@rule(
    "challenge.contribute",
    ["agot2-faq41/2.10", "agot2-rr/participating"],
    "a character contributes its STR to one side only, the most recent effect prevailing; participating is one way to contribute",
)
def contribute(state: State, trace: Trace, card: Card, player: str, participate: bool) -> None:
    challenge = state.challenge
    if challenge is None or challenge.ended:
        raise IllegalStep("challenge.contribute", "there is no challenge to contribute STR to", cite=["agot2-faq41/2.10"])
    before = contributes_to(challenge, card.key) or _side_of(challenge, card.key)
    if participate:
        join(state, trace, card, "attacker" if player == challenge.attacker else "defender")
    challenge.contributions.setdefault(card.key, []).append((player, participate))
    trace.add(
        "challenge.contribute",
        f"{card.key} contributes its STR to {player}'s side"
        + (" by participating" if participate else " (without participating)")
        + (f"; the most recent effect prevails over the one for {before}" if before and before != player else ""),
        cite=["agot2-faq41/2.10"],
        tag="contribute",
        subject=card.key,
    )


def _side_of(challenge: Challenge, key: str) -> str | None:
    if key in challenge.attackers:
        return challenge.attacker
    if key in challenge.defenders:
        return challenge.defender
    return None


def join(state: State, trace: Trace, card: Card, side: str) -> None:
    """A character put into play (or moved) as participating on a side."""
    challenge = state.challenge
    if challenge is None or challenge.ended:
        raise IllegalStep(
            "challenge.contribute", f"there is no challenge for {card.key} to participate in", cite=["agot2-rr/participating"]
        )
    for keys in (challenge.attackers, challenge.defenders):
        if card.key in keys:
            keys.remove(card.key)
    (challenge.attackers if side == "attacker" else challenge.defenders).append(card.key)
    trace.add(
        "challenge.contribute",
        f"{card.key} is participating as {'an attacker' if side == 'attacker' else 'a defender'}",
        cite=["agot2-rr/participating"],
        tag="participating",
        subject=card.key,
    )


def side_strength(state: State, challenge: Challenge, player: str, keys: list[str]) -> tuple[int, str]:
    """STR of a side: participants whose STR is not sent elsewhere, plus characters contributing to it, each once (FAQ 2.10)."""
    counted = [k for k in keys if (contributes_to(challenge, k) or player) == player]
    counted += [k for k in challenge.contributions if contributes_to(challenge, k) == player and k not in counted]
    parts = [(k, state.strength(state.cards[k])) for k in counted if state.cards[k].zone == "in_play"]
    text = ", ".join(f"{k} {v}" + ("" if k in keys else " contributed by a card ability") for k, v in parts)
    return sum(v for _, v in parts), text or "no participating characters"


@rule(
    "duck.determine",
    [COMPARE, "agot2-rr/winning-a-challenge", DUCK, "agot2-faq41/2.10"],
    "compare STR: the higher total wins, ties go to the attacker; a winner needs 1 STR and a participating character",
)
def determine(state: State, trace: Trace, challenge: Challenge) -> dict[str, Any]:
    attack, a_parts = side_strength(state, challenge, challenge.attacker, challenge.attackers)
    defence, d_parts = side_strength(state, challenge, challenge.defender, challenge.defenders)
    defending = challenge.defender
    for who, keys in ((challenge.attacker, challenge.attackers), (defending, challenge.defenders)):
        bonus = titles.challenge_bonus(state, trace, challenge, who, keys)  # RR Title Cards (melee)
        if bonus and who == challenge.attacker:
            attack, a_parts = attack + bonus, f"{a_parts}, {state.players[who].title} +{bonus}"
        elif bonus:
            defence, d_parts = defence + bonus, f"{d_parts}, {state.players[who].title} +{bonus}"
    trace.add(
        "duck.determine",
        f"D — determine the result: attacking STR {attack} ({a_parts}); defending STR {defence} ({d_parts})",
        cite=[COMPARE, "agot2-rr/winning-a-challenge", DUCK] + (["agot2-faq41/2.10"] if any(challenge.contributions.values()) else []),
        tag="determine result",
        attack=attack,
        defence=defence,
    )
    winner: str | None
    if attack >= defence:
        winner, total, side = challenge.attacker, attack, challenge.attackers
    else:
        winner, total, side = defending, defence, challenge.defenders
    tie = attack == defence
    if total < 1 or not side:
        why = "has no participating characters" if not side else f"has {total} STR, not 1 or more"
        trace.add(
            "duck.determine",
            f"the side that would win {why}: neither player wins (or loses) the challenge",
            cite=[COMPARE, "agot2-rr/winning-a-challenge"],
            tag="no winner",
        )
        winner = None
    else:
        trace.add(
            "duck.determine",
            f"{winner} wins the {challenge.type} challenge ({attack} to {defence})"
            + (" — a tie is won by the attacking player" if tie else ""),
            cite=[COMPARE, "agot2-rr/winning-a-challenge"],
            tag="winner",
            subject=winner,
        )
    loser = None if winner is None else (defending if winner == challenge.attacker else challenge.attacker)
    return {
        "type": challenge.type,
        "attacker": challenge.attacker,
        "defender": challenge.defender,
        "defending_player": defending,
        "winner": winner,
        "loser": loser,
        "attack": attack,
        "defence": defence,
        "unopposed": winner == challenge.attacker and defence == 0,
        "ended_without_resolution": False,
        "ended_without_winner": winner is None,
        "claim": "none",
    }


@rule(
    "duck.unopposed",
    [BONUS, "agot2-rr/unopposed", DUCK],
    "an attacker who wins with 0 defending STR gains 1 power for his or her faction card",
)
def unopposed(state: State, trace: Trace, result: dict[str, Any]) -> None:
    if result["winner"] is None:
        return
    if result["winner"] != result["attacker"]:  # said, so a defender asking "why no unopposed power?" gets a line (r80 L3)
        trace.add(
            "duck.unopposed",
            f"U — {result['winner']} won as the defending player: no unopposed bonus, which only a player who wins an "
            "unopposed challenge as the attacker gains",
            "not-applied",
            cite=["agot2-rr/unopposed"],
            tag="unopposed",
            subject=result["winner"],
        )
        return
    if result["defence"] == 0:
        gain_power(
            state,
            trace,
            result["winner"],
            1,
            "U — the defending side counted 0 STR: the challenge is unopposed",
            rule_id="duck.unopposed",
            cite=[BONUS, "agot2-rr/unopposed"],
            tag="unopposed",
            check=False,  # the step's bonuses are gained together: _unopposed checks victory after all of them
        )
    else:
        trace.add(
            "duck.unopposed",
            f"U — the defending side counted {result['defence']} STR: not unopposed, no bonus power",
            "not-applied",
            cite=["agot2-rr/unopposed"],
            tag="unopposed",
        )


@rule(
    "claim.military",
    ["agot2-rr/military-claim", CLAIM, "agot2-faq41/2.1", "agot2-rr/save"],
    "military claim: the defending player chooses and kills as many different characters he or she controls",
)
def claim_military(state: State, trace: Trace, ctx: Context, loser: str, claim: int, chosen: list[str] | None) -> None:
    mine = [c for c in state.in_play(loser, "character")]
    able = [c for c in mine if can_be(state, c, "killed")]
    shielded = [c.key for c in mine if c not in able]
    need = min(claim, len(able))
    note = f" ({', '.join(shielded)} cannot be killed, so cannot be chosen)" if shielded else ""
    if need == 0:
        trace.add(
            "claim.military",
            f"C — military claim {claim}: {loser} controls no character that can be killed, so nothing is killed{note}",
            cite=["agot2-rr/military-claim"] + (["agot2-faq41/2.1"] if shielded else []),
            tag="claim",
            subject=loser,
        )
        return
    if chosen is None:
        if need == len(able):
            chosen = [c.key for c in able]
            trace.add(
                "claim.military",
                f"C — military claim {claim}: only {len(able)} character(s) can be chosen{note}, so {', '.join(chosen)} must "
                f"be killed (no choice to make)",
                cite=["agot2-rr/military-claim"] + (["agot2-faq41/2.1"] if shielded else []),
                tag="claim",
                subject=loser,
            )
        else:
            trace.add(
                "claim.military",
                f"C — a choice is needed: {loser} chooses {need} different character(s) to kill (claim {claim}) from "
                f"{', '.join(c.key for c in able)}{note}",
                "choice-needed",
                cite=["agot2-rr/military-claim"],
                tag="choice",
                subject=loser,
            )
            return
    else:
        for key in chosen:
            card = state.cards[key]
            if card.controller != loser or card.zone != "in_play" or card.type != "character":
                raise IllegalStep("claim.military", f"{key} is not a character {loser} controls", cite=["agot2-rr/military-claim"])
            if card not in able:
                raise IllegalStep(
                    "claim.military", f"{key} cannot be killed, so it cannot be chosen for military claim", cite=["agot2-faq41/2.1"]
                )
        twice = named_twice(chosen)
        if twice:
            raise IllegalStep(
                "claim.military",
                f"{twice} is named more than once: {loser} must choose {need} different character(s) for claim {claim}",
                cite=["agot2-rr/military-claim"],
            )
        if len(chosen) != need:
            raise IllegalStep(
                "claim.military",
                f"{loser} must choose exactly {need} different character(s) for claim {claim}; {len(chosen)} named",
                cite=["agot2-rr/military-claim"],
            )
        short = f"; only {len(able)} could be chosen" if claim > len(able) else ""
        trace.add(
            "claim.military",
            f"C — military claim {claim}: {loser} chooses {', '.join(chosen)} to be killed{short}{note}",
            cite=["agot2-rr/military-claim"] + (["agot2-faq41/2.1"] if shielded else []),
            tag="claim",
            subject=loser,
        )
    for key in chosen:
        leave_play(state, trace, ctx, key, "kill", chosen=True)


@rule(
    "claim.intrigue",
    ["agot2-rr/intrigue-claim", CLAIM],
    "intrigue claim: the defending player discards that many cards from hand at random",
)
def claim_intrigue(state: State, trace: Trace, loser: str, claim: int, chosen: list[str] | None) -> None:
    hand = state.zone(loser, "hand")
    if not hand:
        trace.add(
            "claim.intrigue",
            f"C — intrigue claim {claim}: {loser} has no cards in hand, nothing is discarded",
            cite=["agot2-rr/intrigue-claim"],
            tag="claim",
            subject=loser,
        )
        return
    if chosen is None:
        if len(hand) <= claim:
            chosen = [c.key for c in hand]
            trace.add(
                "claim.intrigue",
                f"C — intrigue claim {claim}: {loser} has only {len(hand)} card(s) in hand, so all are discarded (nothing "
                f"random to decide)",
                cite=["agot2-rr/intrigue-claim"],
                tag="claim",
                subject=loser,
            )
        else:
            trace.add(
                "claim.intrigue",
                f"C — {claim} card(s) are discarded at random from {loser}'s {len(hand)}-card hand: state which in 'discard'",
                "choice-needed",
                cite=["agot2-rr/intrigue-claim"],
                tag="choice",
                subject=loser,
            )
            return
    else:
        if len(chosen) != min(claim, len(hand)) or any(state.cards[k] not in hand for k in chosen):
            # (a blind review: the refusal named neither the card nor why, nor why 1 card of a claim of 2)
            wrong = [k for k in chosen if state.cards[k] not in hand]
            where = "; ".join(
                f"{k} is not in {loser}'s hand (it is in the {ZONE_SAID.get(state.cards[k].zone, state.cards[k].zone)}"
                + (": a card in shadows is neither in play nor in hand)" if state.cards[k].zone == "shadows" else ")")
                for k in wrong
            )
            count = f"{loser} has only {len(hand)} card(s) in hand" if len(hand) < claim else f"the claim is {claim}"
            raise IllegalStep(
                "claim.intrigue",
                f"intrigue claim discards {min(claim, len(hand))} card(s) at random from {loser}'s hand ({count}); "
                + (where if wrong else f"{len(chosen)} named"),
                cite=["agot2-rr/intrigue-claim"],
            )
        twice = named_twice(chosen)
        if twice:  # a card leaves the hand once: naming it twice would count one discard as two (review r80 H3)
            raise IllegalStep(
                "claim.intrigue",
                f"{twice} is named more than once: intrigue claim {claim} discards {len(chosen)} different card(s) "
                f"at random from {loser}'s hand",
                cite=["agot2-rr/intrigue-claim"],
            )
        trace.add(
            "claim.intrigue",
            f"C — intrigue claim {claim}: {', '.join(chosen)} discarded at random from {loser}'s hand",
            cite=["agot2-rr/intrigue-claim"],
            tag="claim",
            subject=loser,
        )
    for key in chosen:
        card = state.cards[key]
        card.zone, card.order = "discard", card.order


@rule(
    "claim.power",
    ["agot2-rr/power-claim", CLAIM, "agot2-rr/moving-power"],
    "power claim: the defending player moves that much power from his or her faction card to the attacker's",
)
def claim_power(state: State, trace: Trace, loser: str, winner: str, claim: int) -> None:
    moved = min(claim, state.players[loser].power)
    state.players[loser].power -= moved
    state.players[winner].power += moved
    trace.add(
        "claim.power",
        f"C — power claim {claim}: {loser} moves {moved} power from his or her faction card to {winner}'s"
        + (f" (only {moved} there)" if moved < claim else ""),
        cite=["agot2-rr/power-claim"],
        tag="claim",
        subject=loser,
    )
    if moved:
        moved_not_gained(state, trace, None, winner)
    check_victory(state, trace)


RULES.add(
    "duck.delayed",
    ["agot2-rr/delayed-effects"],
    "a delayed effect resolves right after its future condition occurs, before reactions",
)
RULES.add(
    "challenge.additional", [DECLARE], "a card ability may allow an additional challenge of a type beyond the one the framework permits"
)
RULES.add("claim.none", [CLAIM], "if the defending player wins, no claim result occurs")
RULES.add(
    "keywords.order",
    [KEYWORDS, "agot2-faq41/qa/resolving-keywords", "agot2-faq41/qa/processing-keywords"],
    "the first player orders keyword types; the controller orders instances within a type; each type is processed once",
)


@rule("keyword.renown", ["agot2-rr/renown"], "each participating renown character of the winner gains 1 power")
def renown(state: State, trace: Trace, ctx: Context, winner: str, keys: list[str]) -> None:
    for key in keys:
        gain_power(state, trace, winner, 1, f"{key} (renown)", card=state.cards[key], rule_id="keyword.renown", tag="renown")
        queue_reactions(ctx, f"renown: {key}")


@rule(
    "keyword.insight",
    ["agot2-rr/insight", "agot2-rr/drawing-cards", "agot2-rr/abilities", "agot2-rr/winning-the-game"],
    "for each participating insight character, the winner may draw 1 card",
)
def insight(state: State, trace: Trace, ctx: Context, winner: str, keys: list[str], decided: bool = False) -> None:
    """``decided``: the scenario says the winner uses insight (it named no decline), even when drawing empties the deck."""
    for key in keys:
        before = deck_counts(state)
        top = state.deck(winner)[:1]
        if len(state.deck(winner)) == 1 and not decided:
            trace.add(
                "keyword.insight",
                f"{key} (insight): a choice is needed — drawing would take the last card of {winner}'s deck, and a player "
                f"whose draw deck is empty is eliminated; insight is optional, so the winner chooses (in a scenario: "
                f"use: [insight] draws it, decline: [insight] does not; in the builder, the 'Challenge resolved' step)",
                "choice-needed",
                cite=["agot2-rr/insight", "agot2-rr/abilities", "agot2-rr/winning-the-game"],
                tag="choice",
                subject=key,
            )
            return
        for card in top:
            card.zone, card.order = "hand", card.order
        trace.add(
            "keyword.insight",
            f"{key} (insight): {winner} draws {top[0].key} from the top of the deck"
            if top
            else f"{key} (insight): {winner}'s deck has no cards in this scenario, so nothing is drawn",
            cite=["agot2-rr/insight", "agot2-rr/drawing-cards"],
            tag="insight",
            subject=key,
        )
        check_elimination(state, trace, before)
        queue_reactions(ctx, f"insight: {key}")


@rule(
    "keyword.intimidate",
    ["agot2-rr/intimidate", "agot2-rr/target", "agot2-faq41/2.1", "agot2-rr/keywords", "agot2-rr/immune"],
    "the attacking winner may kneel a loser's character with STR no higher than the margin; one instance only",
)
def intimidate(state: State, trace: Trace, ctx: Context, result: dict[str, Any], keys: list[str], chosen: str | None) -> None:
    margin = result["attack"] - result["defence"]
    standing = [c for c in state.in_play(result["loser"], "character") if not c.kneeling and state.strength(c) <= margin]
    # a keyword is a card ability (of the intimidating character's type): a card immune to it cannot be chosen
    immune = {c.key: shield for c in standing if (shield := immunity(state, c, state.cards[keys[0]].type))}
    able = [c for c in standing if can_be(state, c, "knelt") and c.key not in immune]  # FAQ 2.1: nor one that cannot be knelt
    shielded = [c.key for c in standing if c not in able and c.key not in immune]
    note = f" ({', '.join(shielded)} cannot be knelt, so cannot be chosen)" if shielded else ""
    note += "".join(f" ({key} is immune to {shield}: intimidate is a keyword, a card ability)" for key, shield in immune.items())
    immune_cite = ["agot2-rr/keywords", "agot2-rr/immune"] if immune else []

    def ask(what: str, tail: str) -> None:
        trace.add(
            "keyword.intimidate",
            f"intimidate: {what} is needed — {result['winner']} may choose one of {', '.join(c.key for c in able)} "
            f"(STR {margin} or less) to kneel{note}{tail}",
            "choice-needed",
            cite=["agot2-rr/intimidate"] + (["agot2-faq41/2.1"] if shielded else []) + immune_cite,
            tag="choice",
            subject=keys[0],
        )

    if chosen is not None and chosen not in state.cards:
        raise IllegalStep("keyword.intimidate", f"{chosen} is not a card in this scenario", cite=["agot2-rr/intimidate"])
    if len(keys) > 1:
        trace.add(
            "keyword.intimidate",
            f"{len(keys)} intimidate instances: no more than one can resolve in a challenge",
            "not-applied",
            cite=["agot2-rr/intimidate"],
            tag="intimidate",
        )
    if chosen is not None and state.cards[chosen] not in able:
        card = state.cards[chosen]
        why, cite = "it cannot be knelt (FAQ 2.1)", ["agot2-rr/intimidate", "agot2-faq41/2.1"]
        if card.key in immune:
            why = f"it is immune to {immune[card.key]}, and intimidate is a keyword, a card ability"
            cite = ["agot2-rr/intimidate", *immune_cite]
        if card.zone != "in_play" or card.controller != result["loser"] or card.type != "character":
            why, cite = f"it is not a character {result['loser']} controls in play", ["agot2-rr/intimidate"]
        elif card.kneeling:
            why, cite = "it is already kneeling", ["agot2-rr/intimidate", "agot2-rr/target"]
        elif state.strength(card) > margin:
            why, cite = f"its STR is {state.strength(card)}, more than the {margin} the challenge was won by", ["agot2-rr/intimidate"]
        # the choice is refused, not the challenge's resolution: who won, claim and the other keywords stand (review 21)
        trace.add(
            "keyword.intimidate",
            f"{chosen} cannot be chosen for intimidate: {why}",
            "refused",
            cite=cite,
            tag="intimidate",
            subject=chosen,
        )
        if able:
            ask("a legal choice", ", or none")
            return
        chosen = None
    if not able:
        trace.add(
            "keyword.intimidate",
            f"intimidate: {result['loser']} controls no standing character with STR {margin} or less that can be knelt, so "
            f"nothing is knelt{note}",
            "not-applied",
            cite=["agot2-rr/intimidate", "agot2-rr/target"] + (["agot2-faq41/2.1"] if shielded else []) + immune_cite,
            tag="intimidate",
            subject=keys[0],
        )
        return
    if chosen is None:
        if len(able) > 1:
            ask("a choice", "")
            return
        chosen = able[0].key
        trace.add(
            "keyword.intimidate",
            f"intimidate: {chosen} is the only standing character with STR {margin} or less that can be knelt{note}, so it is "
            f"the one {result['winner']} may kneel (intimidate is optional: decline: [intimidate] if it is not used)",
            cite=["agot2-rr/intimidate"] + (["agot2-faq41/2.1"] if shielded else []) + immune_cite,
            tag="intimidate",
            subject=chosen,
        )
    else:
        trace.add(
            "keyword.intimidate",
            f"{keys[0]} (intimidate): {result['winner']} kneels {chosen} (STR {state.strength(state.cards[chosen])}, the "
            f"challenge was won by {margin})",
            cite=["agot2-rr/intimidate"],
            tag="intimidate",
            subject=chosen,
        )
    state.cards[chosen].kneeling = True
    queue_reactions(ctx, f"intimidate: {chosen}")


@rule(
    "keyword.pillage",
    ["agot2-rr/pillage", "agot2-faq41/qa/resolving-keywords"],
    "for each participating pillage character, the winner discards the top card of the loser's deck",
)
def pillage(state: State, trace: Trace, ctx: Context, result: dict[str, Any], keys: list[str], order: list[str] | None) -> None:
    chooser = state.facts.get("keyword_chooser")
    if chooser and chooser != result["winner"] and len(keys) > 1:
        raise IllegalStep(
            "keyword.pillage",
            f"{chooser} does not choose the order of the pillage instances: {result['winner']}, their controller, does (the "
            f"first player orders only keyword types)",
            cite=["agot2-faq41/qa/resolving-keywords"],
        )
    if order:
        keys = [k for k in order if k in keys] + [k for k in keys if k not in order]
    if len(keys) > 1:
        trace.add(
            "keyword.pillage",
            f"{result['winner']}, who controls the pillage characters, chooses the order they resolve in: {', '.join(keys)}",
            cite=["agot2-faq41/qa/resolving-keywords"],
            tag="pillage order",
            subject=result["winner"],
        )
    for key in keys:
        interrupts(state, trace, ctx, f"pillage: {key}")
        before = len(state.deck(result["loser"]))
        if replacement(state, trace, ctx, f"pillage: {key}"):
            discarded = max(0, before - len(state.deck(result["loser"])))
            state.facts.setdefault("replaced", {})[f"pillage: {key}"] = discarded
            queue_reactions(ctx, f"pillage: {key}", times=discarded)  # each card counts as discarded using pillage
            continue
        decks_before = deck_counts(state)
        top = state.deck(result["loser"])[:1]
        for card in top:
            card.zone, card.order = "discard", card.order
        trace.add(
            "keyword.pillage",
            f"{key} (pillage): the top card of {result['loser']}'s deck, {top[0].key}, is discarded"
            if top
            else f"{key} (pillage): {result['loser']}'s deck has no cards in this scenario, so no card is discarded",
            cite=["agot2-rr/pillage"] + (["agot2-faq41/qa/resolving-keywords"] if len(keys) > 1 else []),
            tag="pillage",
            subject=key,
        )
        check_elimination(state, trace, decks_before)
        queue_reactions(ctx, f"pillage: {key}")


@rule(
    "keyword.declined",
    ["agot2-rr/abilities", "agot2-rr/insight", "agot2-rr/intimidate", "agot2-rr/pillage", "agot2-rr/renown"],
    "a keyword whose description says 'may' is optional: its controller may decline it",
)
def decline_keyword(state: State, trace: Trace, winner: str, word: str, keys: list[str]) -> None:
    trace.add(
        "keyword.declined",
        f"{winner} does not use {word} ({', '.join(keys)}): {word} says 'may', so using it is optional",
        "not-applied",
        cite=["agot2-rr/abilities", f"agot2-rr/{word}"],
        tag="not used",
        subject=winner,
    )


def keywords(state: State, trace: Trace, ctx: Context, challenge: Challenge, result: dict[str, Any], choices: dict[str, Any]) -> None:
    """K — process challenge resolution keywords by type, in the first player's order; a type is
    processed once, so an instance gained after its type was processed does not resolve."""
    winner = result["winner"]
    side = challenge.attackers if winner == challenge.attacker else challenge.defenders

    def present(word: str) -> list[str]:
        keys = [
            k
            for k in side
            if state.cards[k].zone == "in_play" and state.cards[k].controller == winner and word in state.keywords(state.cards[k])
        ]
        return keys if word != "intimidate" or winner == challenge.attacker else []

    order = [str(w).lower() for w in choices.get("keyword_order") or []]
    types = [w for w in RR_ORDER if present(w)]
    if len(types) > 1 and not order:
        trace.add(
            "keywords.order",
            f"K — {', '.join(types)} are to be processed: the first player, {state.first_player}, chooses the order of the "
            f"types (in a scenario: keyword_order; in the builder: the keyword processed first); shown in the Rules Reference's order",
            "choice-needed",
            cite=[KEYWORDS],
            tag="choice",
            subject=state.first_player,
        )
    elif len(types) > 1:
        trace.add(
            "keywords.order",
            f"K — the first player, {state.first_player}, processes the keyword types in this order: {', '.join(order)}",
            cite=[KEYWORDS],
            tag="keyword order",
            subject=state.first_player,
        )
    sequence = list(dict.fromkeys([w for w in order if w in RR_ORDER] + list(RR_ORDER)))  # each type once
    at_start = {w: present(w) for w in RR_ORDER}
    declined = {str(w).lower() for w in choices.get("decline") or []}
    used = {str(w).lower() for w in choices.get("use") or []}
    for word in sequence:
        keys = present(word)
        if not keys:
            continue
        if word in declined:
            decline_keyword(state, trace, winner, word, keys)
            continue
        state.facts.setdefault("processed_keys", {})[word] = list(keys)
        for key in keys:
            if key not in at_start[word]:
                trace.add(
                    "keywords.order",
                    f"{key} gained {word} while keywords were being processed, before {word} was processed: that instance resolves",
                    cite=["agot2-faq41/qa/processing-keywords"],
                    tag="gained in time",
                    subject=key,
                )
        if word == "renown":
            renown(state, trace, ctx, winner, keys)
        elif word == "insight":
            insight(state, trace, ctx, winner, keys, decided="insight" in used)
        elif word == "intimidate":
            intimidate(state, trace, ctx, result, keys, choices.get("intimidate"))
        else:
            pillage(state, trace, ctx, result, keys, list(choices.get("pillage_order") or []))
        run_reactions(state, trace, ctx)  # a keyword gained now still resolves if its type is not yet processed
        if state.winner:
            return
    named = choices.get("intimidate")
    if named and "intimidate" not in state.facts.get("processed_keys", {}) and "intimidate" not in declined:
        why = "no intimidate resolves: " + (
            f"{winner} won as the defending player, and intimidate resolves only for a player who wins as the attacking player"
            if winner != challenge.attacker
            else f"{winner} has no participating character with intimidate"
        )
        trace.unused("keyword.intimidate", "intimidate", named, why, "agot2-rr/intimidate")
    for word, keys in state.facts.get("processed_keys", {}).items():
        for key in present(word):
            if key not in keys:
                trace.add(
                    "keywords.order",
                    f"{key} has {word} now, but {word} was already processed in this challenge: it does not resolve",
                    "not-applied",
                    cite=["agot2-faq41/qa/processing-keywords"],
                    tag="not resolved",
                    subject=key,
                )


@rule(
    "claim.value",
    ["agot2-rr/claim", "agot2-faq41/2.5"],
    "the claim value is the one on the attacker's revealed plot, with every active claim modifier",
)
def claim_value(state: State, trace: Trace, player: str) -> int:
    base = state.players[player].plot.claim
    modifiers = [e for e in state.effects if e.target == player and e.kind == "claim"]
    if not modifiers:
        return base
    total = max(0, base + sum(int(e.value) for e in modifiers))
    revealed_at = state.facts.get("plot_seq", {}).get(player, 0)
    carried = [e for e in modifiers if e.seq < revealed_at]
    trace.add(
        "claim.value",
        f"claim value: {base} on {state.players[player].plot.name} "
        + " ".join(f"{int(e.value):+d} ({e.source or 'an effect'})" for e in modifiers)
        + f" = {total}"
        + ("; the modifier applies to whichever plot is now the revealed plot, including one revealed after it began" if carried else ""),
        cite=["agot2-rr/claim"] + (["agot2-faq41/2.5"] if carried else []),  # RR Claim: "(which incorporates all relevant claim modifiers)"
        tag="claim value",
        subject=player,
    )
    return total


def _determine(state: State, trace: Trace, ctx: Context, challenge: Challenge, result: dict[str, Any], choices: dict[str, Any]) -> None:
    """D: the result is determined; what waits for it (delayed effects, assault's kneel) happens, then reactions to
    winning or losing (RR 4.2.2's timing note), all before U."""
    waiting = [d for d in state.delayed if d.period == "result"]
    state.delayed = [d for d in state.delayed if d.period != "result"]
    for delayed in waiting:
        trace.add(
            "duck.delayed",
            f"the result is known: the delayed effect from {delayed.source or 'a card'} resolves now, before reactions "
            f"to winning or losing",
            tag="delayed resolves",
            subject=delayed.source,
        )
        if ctx.apply_effect:
            ctx.apply_effect(state, trace, ctx, {**delayed.effect, "_delayed": True})
    assault_kneel(state, trace, challenge, result)  # RR Assault: immediately after the winner is determined
    if result["winner"]:
        win_lose_reactions(state, trace, ctx, result)


@rule(
    "duck.reactions",
    [COMPARE, "agot2-rr/appendix-i/reactions-and-interrupts"],
    "reactions to winning or losing a challenge are initiated after step 4.2.2, before the unopposed bonus, claim and keywords",
)
def win_lose_reactions(state: State, trace: Trace, ctx: Context, result: dict[str, Any]) -> None:
    waiting = len(ctx.pending_reactions)
    queue_reactions(ctx, f"win: {result['winner']}")
    if result["loser"]:
        queue_reactions(ctx, f"lose: {result['loser']}")
    if len(ctx.pending_reactions) > waiting:  # (not for reactions queued earlier, to assault or a delayed effect)
        trace.add(
            "duck.reactions",
            f"{result['winner']} won and {result['loser'] or 'no one'} lost: reactions to winning or losing the challenge are "
            "initiated now, after 4.2.2 and before the unopposed bonus, claim and keywords",
            cite=[COMPARE, "agot2-rr/appendix-i/reactions-and-interrupts"],
            tag="reaction window",
        )
        run_reactions(state, trace, ctx)


def _unopposed(state: State, trace: Trace, ctx: Context, challenge: Challenge, result: dict[str, Any], choices: dict[str, Any]) -> None:
    """U (framework step 4.2.3: challenge bonuses): the unopposed bonus and, in melee, the rivals bonus."""
    unopposed(state, trace, result)
    titles.rivals_bonus(state, trace, result)
    check_victory(state, trace)  # "All challenge bonuses a player receives for this step are gained simultaneously."


RULES.add(
    "claim.unused",
    [CLAIM, "agot2-rr/power-claim", "agot2-rr/military-claim", "agot2-rr/intrigue-claim"],
    "a claim choice that cannot apply (cards named for a power claim, characters for an intrigue claim, or for a challenge with "
    "no claim) is said and not used",
)


def _claim(state: State, trace: Trace, ctx: Context, challenge: Challenge, result: dict[str, Any], choices: dict[str, Any]) -> None:
    """C (framework step 4.2.4): the attacker's claim against the defending player, or why there is none."""
    if result["winner"] == challenge.attacker and challenge.type == "power":
        why = "a power claim moves power from the faction card and chooses no card"
        for field in ("claim", "discard"):
            trace.unused("claim.unused", field, choices.get(field), why, "agot2-rr/power-claim")
    elif result["winner"] == challenge.attacker and challenge.type == "military":
        why = "a military claim kills characters the defending player chooses"
        trace.unused("claim.unused", "discard", choices.get("discard"), why, "agot2-rr/military-claim")
    elif result["winner"] == challenge.attacker and challenge.type == "intrigue":
        # the discards may be named under claim too; cards that are not in the hand (review 31: the characters a
        # military claim would kill) are said unused, not read as the cards to discard
        in_hand = {c.key for c in state.zone(challenge.defender, "hand")}
        named = choices.get("claim")
        if named and (choices.get("discard") is not None or not set(names(named)) <= in_hand):
            why = f"an intrigue claim discards cards at random from {challenge.defender}'s hand: name them under discard"
            trace.unused("claim.unused", "claim", named, why, "agot2-rr/intrigue-claim")
            choices = {**choices, "claim": None}
    elif result["winner"] != challenge.attacker:
        why = "the defending player won, so no claim result occurs" if result["winner"] else "no one won, so no claim result occurs"
        for field in ("claim", "discard"):
            trace.unused("claim.unused", field, choices.get(field), why, CLAIM)
    if result["winner"] == challenge.attacker:
        claim = claim_value(state, trace, challenge.attacker) + titles.claim_raise(state, trace, challenge)
        titles.claim_not_modeled(state, trace, challenge)
        result["claim"] = "applied"
        if claim <= 0:
            trace.add(
                "claim.value",
                f"C — {challenge.attacker}'s claim value is 0: {challenge.type} claim "
                + {"military": "kills no character", "intrigue": "discards no card", "power": "moves no power"}[challenge.type],
                "not-applied",
                cite=["agot2-rr/claim"],
                tag="no claim",
                subject=challenge.defender,
            )
        elif challenge.type == "military":
            claim_military(state, trace, ctx, challenge.defender, claim, choices.get("claim"))
        elif challenge.type == "intrigue":
            claim_intrigue(state, trace, challenge.defender, claim, choices.get("discard") or choices.get("claim"))
        else:
            claim_power(state, trace, challenge.defender, challenge.attacker, claim)
        queue_reactions(ctx, f"claim: {challenge.defender}")
    elif result["winner"]:
        trace.add(
            "claim.none",
            f"C — the defending player, {result['winner']}, won: no claim result occurs",
            "not-applied",
            tag="no claim",
            subject=result["winner"],
        )
    else:
        trace.add("claim.none", "C — no one won: no claim result occurs", "not-applied", tag="no claim")


def _keywords(state: State, trace: Trace, ctx: Context, challenge: Challenge, result: dict[str, Any], choices: dict[str, Any]) -> None:
    """K (framework step 4.2.5): challenge resolution keywords, if someone won."""
    if result["winner"]:
        keywords(state, trace, ctx, challenge, result, choices)


# The Quick Reference's challenge application sequence (FAQ v4.1, D.U.C.K.), as data: the order is the rule.
DUCK_STEPS = (("D", _determine), ("U", _unopposed), ("C", _claim), ("K", _keywords))


def resolve(state: State, trace: Trace, ctx: Context, choices: dict[str, Any]) -> None:
    """Apply the challenge result: each step of ``DUCK_STEPS`` in order, stopping if the game ends."""
    challenge = state.challenge
    if challenge is None or challenge.resolved or challenge.ended:
        raise IllegalStep("duck.determine", "there is no challenge to resolve", cite=[COMPARE])
    if not state.facts.get("defenders_declared"):
        refused = state.refused_since_challenge("defend")
        trace.add(
            "challenge.defend",
            f"{challenge.defender} declares no defenders ("
            + (f"the defend step, step {refused[-1]}, was refused" if refused else "no defend step was given")
            + ")",
            cite=[DEFEND],
            tag="declare defenders",
            subject=challenge.defender,
        )
        state.facts["defenders_declared"] = True
    state.facts["keyword_chooser"] = choices.get("chooses")
    state.facts["processed_keys"] = {}
    result = determine(state, trace, challenge)
    state.results.append(result)
    challenge.resolved = True
    for number, (letter, step) in enumerate(DUCK_STEPS):
        step(state, trace, ctx, challenge, result, choices)
        if state.winner:
            _cut_off(state, trace, choices, [later for later, _ in DUCK_STEPS[number + 1 :]], letter)
            return
    check_victory(state, trace)


# the resolve choices each later D.U.C.K. step would use
DUCK_CHOICES = {
    "C": ("claim", "discard", "save"),
    "K": ("keyword_order", "pillage_order", "intimidate", "decline", "use", "chooses"),
}
RULES.add(
    "duck.game-over",
    ["agot2-rr/winning-the-game"],
    "a choice for a step of the challenge's resolution that the end of the game cut off is not used",
)


def _cut_off(state: State, trace: Trace, choices: dict[str, Any], letters: list[str], letter: str) -> None:
    """The game ended during step ``letter`` of the resolution: each choice named for a later step is said unused
    (RR Winning the Game: "The game ends immediately"), never silently dropped (review r67, L2)."""
    said = {
        "D": "4.2.2 (D: determine the result)",
        "U": "4.2.3 (U: the unopposed and rivals bonuses)",
        "C": "4.2.4 (C: claim)",
        "K": "4.2.5 (K: keywords)",
    }
    for later in letters:
        for field in DUCK_CHOICES.get(later, ()):
            trace.unused(
                "duck.game-over",
                field,
                choices.get(field),
                f"{state.winner} won the game in {said[letter]}, and the game ends immediately: {said[later]} is not resolved",
                "agot2-rr/winning-the-game",
            )


@rule(
    "challenge.end",
    [ENDS, "agot2-faq41/timing/end-of-phase"],
    "the challenge ends: characters stop participating; 'until the end of the challenge' effects expire, then 'at the end of "
    "the challenge' effects resolve",
)
def end_challenge(state: State, trace: Trace, ctx: Context, quiet: bool = False) -> None:
    from judgekb.engine.agot2.phases import end_period

    challenge = state.challenge
    if challenge is None or challenge.ended:
        if quiet:
            return
        raise IllegalStep("challenge.end", "there is no challenge under way", cite=[ENDS])
    challenge.ended = True
    state.facts.pop("defenders_declared", None)
    state.facts.pop("assault", None)
    if not challenge.resolved:
        state.results.append(challenge.unresolved_result())
    trace.add("challenge.end", "the challenge ends: its characters are no longer participating", cite=[ENDS], tag="challenge ends")
    end_period(state, trace, ctx, "challenge")
    state.challenge = None

