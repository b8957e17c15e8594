"""Challenges: declaring attackers and defenders, STR, winning, claim and the keywords."""

from __future__ import annotations

from typing import Any

from judgekb.engine.agot1 import RULES, rule, titles
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, Challenge, State
from judgekb.engine.core.steps import declared_once
from judgekb.engine.core.trace import Trace


@rule(
    "challenge.declare",
    ["agot1-rules/challenge-step-1-declare-attackers", "agot1-rules/phase-4-challenges"],
    "declare type, opponent and attackers; attackers must be standing and have the icon; one challenge of each type "
    "in a player's challenges phase",
)
def declare(state: State, trace: Trace, attacker: str, kind: str, against: str, attackers: list[str]) -> Challenge:
    player = state.players[attacker]
    if state.phase != "challenges":
        raise IllegalStep(
            "challenge.declare",
            f"challenges are declared only in the challenges phase (the game is in the {state.phase} phase)",
            cite=["agot1-rules/phase-4-challenges"],
        )
    if against == attacker or against not in state.players:
        raise IllegalStep("challenge.declare", f"{attacker} cannot challenge {against}", cite=["agot1-rules/phase-4-challenges"])
    if kind in player.challenges_this_round:
        raise IllegalStep(
            "challenge.declare",
            f"{attacker} has already initiated a {kind} challenge in this challenges phase (\"During a player's challenges "
            "phase, he may initiate one military, one intrigue, and one power challenge\")",
            cite=["agot1-rules/phase-4-challenges"],
        )
    if not attackers:
        raise IllegalStep(
            "challenge.declare",
            "at least one attacking character must be declared to initiate a challenge",
            cite=["agot1-rules/challenge-step-1-declare-attackers"],
        )
    titles.check_may_challenge(state, trace, attacker, against)
    declared_once(attackers, "an attacker", "challenge.declare", "agot1-rules/challenge-step-1-declare-attackers")
    end_challenge(state, trace, "a challenge completely resolves before the next is initiated", ["agot1-rules/phase-4-challenges"])
    for key in attackers:
        _check_participant(state, "challenge.declare", key, attacker, kind, "attack")
    for key in attackers:
        state.cards[key].kneeling = True
    player.challenges_this_round.append(kind)
    challenge = Challenge(type=kind, attacker=attacker, defender=against, attackers=list(attackers))
    state.challenge = challenge
    state.facts.pop("no_defenders_declared", None)
    state.facts.pop("defenders_declared", None)
    state.facts["challenge_step"] = trace.step  # (a defend step refused after it is said at resolve)
    article = "an" if kind[0] in "aeiou" else "a"
    trace.add(
        "challenge.declare",
        f"{attacker} initiates {article} {kind} challenge against {against}, kneeling {', '.join(attackers)} to attack",
        cite=["agot1-rules/challenge-step-1-declare-attackers"],
    )
    return challenge


def _check_participant(state: State, rule_id: str, key: str, player: str, kind: str, role: str) -> None:
    """A character declared to attack or defend: in play, the player's, standing, with the icon.

    Each refusal cites the declaring step's own clause (Step 1 for attackers, Step 2 for defenders)."""
    card = state.cards[key]
    cite = ["agot1-rules/challenge-step-1-declare-attackers" if role == "attack" else "agot1-rules/challenge-step-2-declare-defenders"]
    if card.zone != "in_play" or card.type != "character" or card.duplicate:
        raise IllegalStep(rule_id, f"{key} is not a character in play", cite=cite)
    if card.controller != player:
        raise IllegalStep(rule_id, f"{key} is controlled by {card.controller}, not {player}", cite=cite)
    if card.kneeling:
        raise IllegalStep(rule_id, f"{key} is kneeling: already kneeling characters may not be declared as {role}ers", cite=cite)
    if kind not in state.icons(card):
        raise IllegalStep(rule_id, f"{key} has no {kind} icon, so it cannot {role} in a {kind} challenge", cite=cite)


@rule(
    "keyword.stealth",
    ["agot1-rules/stealth", "agot1-faq/3.17", "agot1-faq/qa/cat-o-the-canals-stealth", "agot1-rules/supports"],
    "each attacker with Stealth may choose a character without Stealth on the defending side; it may not defend",
)
def stealth(state: State, trace: Trace, choices: dict[str, str]) -> None:
    challenge = state.challenge
    assert challenge is not None
    for attacker_key, target_key in choices.items():
        attacker, target = state.cards[attacker_key], state.cards[target_key]
        plain = ["agot1-rules/stealth"]
        if attacker_key not in challenge.attackers or "stealth" not in state.keywords(attacker):
            raise IllegalStep("keyword.stealth", f"{attacker_key} is not an attacking character with Stealth", cite=plain)
        if target.controller != challenge.defender or target.zone != "in_play":
            supporter = target.zone == "in_play" and target.controller != challenge.attacker and state.melee
            raise IllegalStep(
                "keyword.stealth",
                f"{target_key} is not a character on the defending side"
                + (f" (stealth is declared against the original target, {challenge.defender})" if supporter else ""),
                cite=plain + (["agot1-rules/supports"] if supporter else []),
            )
        if "stealth" in state.keywords(target):
            raise IllegalStep("keyword.stealth", f"{target_key} has Stealth itself, so it cannot be chosen", cite=plain)
        if target.immune & {"opponent's card effects", "card effects", "character abilities", "stealth"}:
            raise IllegalStep(  # the FAQ: stealth targets, and a card cannot be chosen as the target of what it is immune to
                "keyword.stealth",
                f"{target_key} is immune to the effect, so it cannot be chosen as the target of stealth",
                cite=["agot1-faq/3.17", "agot1-faq/qa/cat-o-the-canals-stealth"],
            )
        challenge.stealth[attacker_key] = target_key
        trace.add(
            "keyword.stealth",
            f"{attacker_key} (Stealth) bypasses {target_key}: it may not defend this challenge",
            cite=["agot1-rules/stealth"],
        )


@rule(
    "challenge.defend",
    ["agot1-rules/challenge-step-2-declare-defenders", "agot1-rules/stealth"],
    "the defending opponent may kneel standing characters with the icon, except those bypassed by stealth",
)
def defend(state: State, trace: Trace, player: str, defenders: list[str]) -> None:
    challenge = state.challenge
    if challenge is None or challenge.resolved:
        raise IllegalStep(
            "challenge.defend", "there is no challenge waiting for defenders", cite=["agot1-rules/challenge-step-2-declare-defenders"]
        )
    if player != challenge.defender:
        titles.check_may_support(state, trace, player, challenge)
    declared_once(defenders, "a defender", "challenge.defend", "agot1-rules/challenge-step-2-declare-defenders")
    for key in defenders:
        if key in challenge.stealth.values():
            raise IllegalStep(
                "keyword.stealth", f"{key} was bypassed by stealth and may not defend this challenge", cite=["agot1-rules/stealth"]
            )
        _check_participant(state, "challenge.defend", key, player, challenge.type, "defend")
    for key in defenders:
        state.cards[key].kneeling = True
    challenge.defenders = list(defenders)
    challenge.defending_player = player if defenders else None
    state.facts["defenders_declared"] = True
    if player == challenge.defender and not defenders:
        state.facts["no_defenders_declared"] = True
    if defenders:
        trace.add(
            "challenge.defend", f"{player} kneels {', '.join(defenders)} to defend", cite=["agot1-rules/challenge-step-2-declare-defenders"]
        )
    else:
        trace.add("challenge.defend", f"{player} declares no defenders", cite=["agot1-rules/challenge-step-2-declare-defenders"])


@rule(
    "keyword.intimidate",
    ["agot1-rules/intimidate"],
    "while an Intimidate character attacks, participating characters (on either side) with lower STR do not count their STR",
)
def intimidated(state: State, trace: Trace | None, challenge: Challenge) -> dict[str, str]:
    """The participating characters whose STR does not count, each with the Intimidate character it is lower than.

    The rulebook's text names no side: "characters with a lower STR than that character do not count their STR
    for that challenge", so attackers as well as defenders are measured against the strongest attacking
    Intimidate character (another Intimidate attacker with lower STR included)."""
    intimidators = [k for k in challenge.attackers if "intimidate" in state.keywords(state.cards[k])]
    if not intimidators:
        return {}
    strongest = max(intimidators, key=lambda k: state.strength(state.cards[k]))
    top = state.strength(state.cards[strongest])
    out = {}
    for key in challenge.attackers + challenge.defenders:
        value = state.strength(state.cards[key])
        if value < top:
            out[key] = strongest
            if trace:
                side = "attacking" if key in challenge.attackers else "defending"
                trace.add(
                    "keyword.intimidate",
                    f"{key} ({side}, STR {value}) has lower STR than {strongest}, an attacking Intimidate character "
                    f"(STR {top}), so {key}'s STR does not count for this challenge",
                    subject=key,
                )
    return out


def side_strength(state: State, trace: Trace | None, side: list[str], player: str | None, challenge: Challenge, left_out: set[str]) -> int:
    """A side's total STR: its characters' STR (less those Intimidate leaves out) plus a title's bonus."""
    total = sum(state.strength(state.cards[key]) for key in side if key not in left_out)
    if player and side:
        total += titles.title_strength(state, trace, player, challenge)
    return total


@rule(
    "challenge.removed",
    ["agot1-faq/qa/losing-icon-mid-challenge", "agot1-faq/3.30", "agot1-faq/3.33"],
    "a character that leaves play (losing-icon Q&A) or changes control (3.30) is removed from the challenge; "
    "it is not considered to have participated (3.33)",
)
def remove_from_challenge(state: State, trace: Trace, card: Card, why: str, control: bool = False) -> None:
    """``control``: removed because it changed control (FAQ 3.30); otherwise because it left play (the Q&A
    "If my character loses a military icon in the middle of a military challenge…": "an effect that removes the
    character from play")."""
    challenge = state.challenge
    if challenge is None or challenge.resolved or challenge.ended:
        return
    cause = "agot1-faq/3.30" if control else "agot1-faq/qa/losing-icon-mid-challenge"
    for side in (challenge.attackers, challenge.defenders):
        if card.key in side:
            side.remove(card.key)
            trace.add(
                "challenge.removed",
                f"{why}: {card.key} is removed from the challenge and is not considered to have participated",
                cite=[cause, "agot1-faq/3.33"],
            )
            if not challenge.attackers and not challenge.defenders:
                end_without_resolution(state, trace, control)


@rule(
    "challenge.no-participants",
    ["agot1-faq/3.35", "agot1-faq/3.30"],
    "if no characters participate, the challenge ends immediately without resolution",
)
def end_without_resolution(state: State, trace: Trace, control: bool = False) -> None:
    """FAQ 3.35 decides; 3.30 too when the last participant left by changing control ("If said character was
    the only character in the challenge, the challenge ends")."""
    challenge = state.challenge
    assert challenge is not None
    challenge.ended = True
    state.results.append(challenge.unresolved_result())
    trace.add(
        "challenge.no-participants",
        "no participating characters remain: the challenge ends immediately without resolution",
        cite=["agot1-faq/3.35"] + (["agot1-faq/3.30"] if control else []),
    )
    end_challenge(state, trace, "it ended without resolution", ["agot1-faq/3.35"] + (["agot1-faq/3.30"] if control else []))


@rule(
    "challenge.end",
    ["agot1-rules/phase-4-challenges", "agot1-faq/3.35", "agot1-faq/3.30", "agot1-faq/timing/chart-challenges-phase"],
    "a challenge is over once it has completely resolved, before the next one is initiated (Phase 4), when no "
    "character participates (3.35, 3.30), or when the challenges phase ends: its 'until the end of the challenge' "
    "effects expire",
)
def end_challenge(state: State, trace: Trace, why: str, cite: list[str]) -> None:
    """The challenge under way is over: its "until the end of the challenge" lasting effects expire (said only when
    there is one).  The first-edition documents name no "end of the challenge" step: Phase 4's "Each challenge must
    completely resolve before moving on to the next" ends it at the latest when the next is initiated, so responses
    to its resolution (steps after ``resolve``) are still within it."""
    from judgekb.engine.agot1.effects import expire

    challenge = state.challenge
    if challenge is None or not any(e.until == "challenge" for e in state.effects):
        return
    said = f"{challenge.attacker}'s {challenge.type} challenge against {challenge.defender}"
    trace.add("challenge.end", f"{said} is over ({why}): its 'until the end of the challenge' effects expire", cite=cite)
    expire(state, trace, "challenge")


@rule(
    "challenge.strength",
    ["agot1-rules/challenge-step-3-resolve"],
    "total each side's STR; the higher total wins; a side with less than 1 STR cannot win",
)
def totals(state: State, trace: Trace) -> tuple[int, int]:
    challenge = state.challenge
    assert challenge is not None
    left_out = intimidated(state, trace, challenge)
    attack = side_strength(state, trace, challenge.attackers, challenge.attacker, challenge, set(left_out))
    defence = side_strength(state, trace, challenge.defenders, challenge.defending_player, challenge, set(left_out))

    def part(key: str) -> str:
        value = state.strength(state.cards[key])
        why = f" — not counted: lower STR than {left_out[key]} (Intimidate)" if key in left_out else ""
        return f"{key} {value}{why}"

    def with_title(parts: str, player: str | None, side: list[str]) -> str:
        bonus = titles.title_strength(state, None, player, challenge) if player and side else 0
        return parts + (f", title +{bonus}" if bonus else "")

    parts_a = with_title(", ".join(part(k) for k in challenge.attackers) or "none", challenge.attacker, challenge.attackers)
    parts_d = with_title(", ".join(part(k) for k in challenge.defenders) or "none", challenge.defending_player, challenge.defenders)
    trace.add(
        "challenge.strength", f"attacking STR {attack} ({parts_a}); defending STR {defence} ({parts_d})", attack=attack, defence=defence
    )
    return attack, defence


@rule(
    "challenge.tie",
    ["agot1-faq/qa/challenge-tie", "agot1-rules/challenge-step-3-resolve"],
    "unless a card says otherwise, the attacker wins ties, as long as the attacker has at least 1 STR",
)
def _tie() -> None:
    """Recorded by resolve()."""


@rule("challenge.no-claim", ["agot1-rules/challenge-step-3-resolve"], "when the defender wins, nothing is claimed")
def _no_claim() -> None:
    """Recorded by resolve()."""


@rule(
    "challenge.unopposed",
    ["agot1-rules/unopposed-challenges"],
    "an attacker who wins against a total defending STR of 0 claims 1 bonus power",
)
def _unopposed() -> None:
    """Recorded by resolve()."""


@rule(
    "claim.military",
    ["agot1-rules/challenge-step-3-resolve", "agot1-rules/high-claim-military-challenges"],
    "military claim: the defender chooses and kills that many different characters, all at once",
)
def claim_military(state: State, trace: Trace, loser: str, claim: int, chosen: list[str] | None) -> None:
    from judgekb.engine.agot1 import leaving

    available = [c for c in state.in_play(loser, "character") if "be killed" not in state.cannots(c)]
    need = min(claim, len(available))
    # Step 3 decides the claim; "High-claim Military Challenges" only a claim of 2 or more ("different characters")
    cite = ["agot1-rules/challenge-step-3-resolve"] + (["agot1-rules/high-claim-military-challenges"] if claim >= 2 else [])
    if claim > len(available):  # no first-edition document says what a claim larger than the board does
        trace.add(
            "claim.short",
            f"claim {claim}, but {loser} has only {len(available)} character(s) that can be killed: the engine kills "
            f"{'all of them' if available else 'nothing'} — no document in the corpus states this rule "
            "(FAQ 3.44, Partial Fulfillment, covers cards in a hand, deck, discard or dead pile, not characters in play)",
        )
    if claim <= 0:  # Step 3: "a number of his characters in play equal to the claim value": 0 kills none
        trace.add("claim.military", f"military claim {claim}: the claim value is {claim}, so {loser} kills no character", cite=cite)
        why = f"the claim value is {claim}, so no character is killed"
        trace.unused("claim.military", "claim", chosen, why, "agot1-rules/challenge-step-3-resolve")
        return
    if need == 0:
        trace.add("claim.military", f"{loser} has no character that can be killed: the claim kills nothing", cite=cite)
        why = f"{loser} has no character that can be killed, so the claim kills nothing"
        trace.unused("claim.military", "claim", chosen, why, "agot1-rules/challenge-step-3-resolve")
        return
    if chosen is None and need == len(available):
        chosen = [c.key for c in available]
        trace.add(
            "claim.military", f"only {len(available)} character(s) can be killed, so {', '.join(chosen)}: no choice to make", cite=cite
        )
    if chosen is None:
        trace.add(
            "claim.military",
            f"a choice is needed: {loser} chooses {need} different character(s) to kill "
            f"(claim {claim}) from {', '.join(c.key for c in available)}",
            "choice-needed",
            cite=cite,
        )
        return
    if len(set(chosen)) != len(chosen):
        raise IllegalStep(
            "claim.military",
            "military claim must kill different characters, all at once",
            cite=["agot1-rules/high-claim-military-challenges"],
        )
    if len(chosen) != need:
        raise IllegalStep("claim.military", f"{loser} must choose exactly {need} character(s) to kill for claim {claim}", cite=cite)
    for key in chosen:
        card = state.cards[key]
        if card.controller != loser or card.zone != "in_play":
            raise IllegalStep(
                "claim.military", f"{key} is not a character {loser} controls in play", cite=["agot1-rules/challenge-step-3-resolve"]
            )
        leaving.check_cannot(state, card, "killed")
    text = f"military claim {claim}: {loser} kills {', '.join(chosen)}" + (" (different characters, all at once)" if claim >= 2 else "")
    trace.add("claim.military", text, cite=cite)
    saves = state.facts.get("pending_saves", set())
    for key in chosen:
        _offer_save(state, key)
        leaving.remove(state, trace, key, "kill", save=key in saves)


RULES.add(
    "claim.short",
    [],
    "a military or power claim larger than what the defender has (characters that can be killed, power on the House card): "
    "no first-edition document states it; the trace says so",
)


@rule(
    "claim.intrigue",
    ["agot1-rules/challenge-step-3-resolve", "agot1-faq/3.44"],
    "intrigue claim: the defender discards that many cards at random from hand (as many as there are)",
)
def claim_intrigue(state: State, trace: Trace, loser: str, claim: int, chosen: list[str] | None, field: str = "discard") -> None:
    """``field``: the resolve choice that names the discarded cards (``discard``, else ``claim``), for the trace."""
    hand = state.zone(loser, "hand")
    need = min(claim, len(hand))
    # FAQ 3.44 (Partial Fulfillment) decides only a claim larger than the hand
    cite = ["agot1-rules/challenge-step-3-resolve"] + (["agot1-faq/3.44"] if claim > len(hand) else [])
    if claim <= 0:  # Step 3: "a number of cards from his hand equal to the claim value": 0 discards none
        trace.add("claim.intrigue", f"intrigue claim {claim}: the claim value is {claim}, so {loser} discards no card", cite=cite)
        why = f"the claim value is {claim}, so no card is discarded"
        trace.unused("claim.intrigue", field, chosen, why, "agot1-rules/challenge-step-3-resolve")
        return
    if need == 0:
        trace.add("claim.intrigue", f"{loser} has no cards in hand: nothing is discarded", cite=cite)
        why = f"{loser} has no cards in hand, so nothing is discarded"
        trace.unused("claim.intrigue", field, chosen, why, "agot1-rules/challenge-step-3-resolve")
        return
    if chosen is None and len(hand) <= claim:
        chosen = [c.key for c in hand]
        trace.add(
            "claim.intrigue", f"{loser} has only {len(hand)} card(s) in hand: all are discarded, nothing random to decide", cite=cite
        )
    if chosen is None:
        trace.add(
            "claim.intrigue",
            f"{need} card(s) must be discarded at random from {loser}'s hand (state which in the scenario)",
            "choice-needed",
            cite=cite,
        )
        return
    if len(chosen) != need or any(state.cards[k] not in hand for k in chosen):
        raise IllegalStep("claim.intrigue", f"intrigue claim discards {need} card(s) from {loser}'s hand", cite=cite)
    for key in chosen:
        state.cards[key].zone = "discard"
    trace.add(
        "claim.intrigue",
        f"intrigue claim {claim}: {loser} discards {', '.join(chosen)} at random from hand"
        + (f" (only {len(hand)} in hand: the discard is performed to the greatest extent possible)" if claim > len(hand) else ""),
        cite=cite,
    )


@rule(
    "claim.power",
    ["agot1-rules/challenge-step-3-resolve"],
    "power claim: the defender moves that much power from his House card to the attacker's House card",
)
def claim_power(state: State, trace: Trace, loser: str, winner: str, claim: int, infamy: str | None) -> None:
    moved = min(claim, state.players[loser].power)
    if claim > 0 and moved == 0:
        # Step 3 decides it: the counters are taken "from his House card", never from his other cards
        elsewhere = [f"{c.key} {c.power}" for c in state.in_play(loser) if c.power]
        trace.add(
            "claim.power",
            f"power claim {claim}: {loser} has no power on his or her House card, and the claim takes power counters only "
            f"\"from his House card\"" + (f" (not the power on {', '.join(elsewhere)})" if elsewhere else "") + ": nothing moves",
        )
        return
    if moved < claim:  # no first-edition document says what a claim larger than the House's power does
        trace.add(
            "claim.short",
            f"claim {claim}, but {loser} has only {moved} power on the House card: the engine moves "
            f"{'that' if moved else 'nothing'} — no document in the corpus states this rule",
        )
    state.players[loser].power -= moved
    trace.add("claim.power", f"power claim {claim}: {loser} moves {moved} power from his or her House card to {winner}'s")
    give_power(state, trace, winner, moved, infamy, moving=True)


@rule("keyword.infamy", ["agot1-rules/infamy"], "power claimed or moved to your House may be placed on a card with Infamy instead")
def give_power(state: State, trace: Trace, player: str, amount: int, infamy: str | None, moving: bool = False) -> None:
    if amount <= 0:
        return
    if not moving:
        state.ledger(from_pool=amount)
    card = state.cards.get(infamy) if infamy else None
    if card is not None:
        state.facts["infamy_used"] = True
        if "infamy" not in state.keywords(card) or card.controller != player or card.zone != "in_play":
            # Infamy says "may": a card that cannot take the power is not used, never the whole step refused
            why = f"it is not a card with Infamy that {player} controls in play, so the {amount} power goes on {player}'s House card"
            trace.unused("keyword.infamy", "infamy", infamy, why, "agot1-rules/infamy")
            state.players[player].power += amount
            return
        card.power += amount
        trace.add("keyword.infamy", f"{player} places {amount} power on {infamy} (Infamy) instead of the House card")
    else:
        state.players[player].power += amount


@rule("keyword.renown", ["agot1-rules/renown"], "after a win, each participating Renown character of the winner claims 1 power")
def renown(state: State, trace: Trace, winner: str, side: list[str]) -> None:
    for key in side:
        card = state.cards[key]
        if "renown" in state.keywords(card) and card.controller == winner and card.zone == "in_play":
            card.power += 1
            state.ledger(from_pool=1)
            trace.add("keyword.renown", f"{key} (Renown) claims 1 power")


@rule(
    "keyword.deadly",
    ["agot1-rules/deadly", "agot1-faq/qa/deadly-timing", "agot1-faq/timing/chart-challenges-phase", "agot1-faq/4.3"],
    "if the attacking player controls the most participating Deadly characters, the defender kills a defending "
    "participating character that can be killed ('cannot' is an absolute, FAQ 4.3); deadly resolves after renown",
)
def deadly(state: State, trace: Trace, challenge: Challenge, chosen: str | None) -> None:
    from judgekb.engine.agot1 import leaving

    count = {
        side: sum("deadly" in state.keywords(state.cards[k]) for k in keys)
        for side, keys in (("attack", challenge.attackers), ("defence", challenge.defenders))
    }
    named = f"deadly: {chosen} named, but " if chosen else ""
    if count["attack"] == 0 or count["attack"] <= count["defence"]:
        if count["attack"] or chosen:
            trace.add(
                "keyword.deadly",
                f"{named}deadly count: attacker {count['attack']}, defender {count['defence']}; "
                "the attacker does not control the most participating Deadly characters, so nothing is killed",
                "not-applied" if chosen else "applied",
                cite=["agot1-rules/deadly"],
            )
        return
    remaining = [k for k in challenge.defenders if state.cards[k].zone == "in_play"]
    if not remaining:
        trace.add(
            "keyword.deadly",
            f"{named}the attacker controls the most Deadly characters, but no defending character remains to be killed",
            "not-applied" if chosen else "applied",
            cite=["agot1-rules/deadly"],
        )
        return
    # FAQ 4.3: "cannot" is absolute, so a defender that cannot be killed is no choice for the kill (as for claim)
    victims = [k for k in remaining if "be killed" not in state.cannots(state.cards[k])]
    if not victims:
        trace.add(
            "keyword.deadly",
            (f"deadly: {chosen} named, but it is not used: " if chosen else "deadly: ")
            + f"no defending character that can be killed remains ({', '.join(remaining)} cannot be killed, and 'cannot' "
            "is an absolute), so nothing is killed, though the attacker controls the most Deadly characters",
            "not-applied" if chosen else "applied",
            cite=["agot1-rules/deadly", "agot1-faq/4.3"],
        )
        return
    if chosen is None:
        trace.add(
            "keyword.deadly",
            f"deadly: a choice is needed — {challenge.defending_player} chooses a defending "
            f"participating character to kill from {', '.join(victims)}"
            + (f" ({', '.join(sorted(set(remaining) - set(victims)))} cannot be killed)" if len(victims) < len(remaining) else ""),
            "choice-needed",
            cite=["agot1-rules/deadly"] + (["agot1-faq/4.3"] if len(victims) < len(remaining) else []),
        )
        return
    if chosen in remaining and chosen not in victims:
        raise IllegalStep(
            "keyword.deadly",
            f"{chosen} cannot be killed: 'cannot' is an absolute, so it may not be chosen for the deadly kill "
            f"(choose from {', '.join(victims)})",
            cite=["agot1-faq/4.3"],
        )
    if chosen not in victims:
        raise IllegalStep("keyword.deadly", f"{chosen} is not a defending participating character", cite=["agot1-rules/deadly"])
    trace.add(
        "keyword.deadly",
        f"deadly count: attacker {count['attack']}, defender {count['defence']}; the defender kills {chosen} "
        "(the framework step enacts the kill, after renown is claimed)",
        cite=["agot1-rules/deadly", "agot1-faq/qa/deadly-timing"],
    )
    _offer_save(state, chosen)
    leaving.remove(state, trace, chosen, "kill", save=chosen in state.facts.get("pending_saves", set()), keyword="deadly")


def _stand_keyword(state: State, trace: Trace, player: str, chosen: list[str], keyword: str) -> None:
    """The keyword says "may stand any number of cards with the keyword that you control": a named card that has
    not the keyword, or is not the player's, is not stood, and the trace says so (the rest of the step goes on)."""
    rule_id = f"keyword.{keyword}"
    for key in chosen:
        card = state.cards[key]
        if keyword not in state.keywords(card) or card.controller != player or card.zone != "in_play":
            why = f"it is not a card with {keyword.title()} that {player} controls in play, so it is not stood"
            trace.unused(rule_id, keyword, key, why, f"agot1-rules/{keyword}")
            continue
        card.kneeling = False
        trace.add(rule_id, f"{player} stands {key} ({keyword.title()})", cite=[f"agot1-rules/{keyword}"])


@rule("keyword.vigilant", ["agot1-rules/vigilant"], "after winning as the attacker, stand Vigilant cards")
def vigilant(state: State, trace: Trace, player: str, chosen: list[str]) -> None:
    _stand_keyword(state, trace, player, chosen, "vigilant")


VENGEFUL_READING = ["agot1-rules/vengeful", "agot1-rules/challenge-step-2-declare-defenders", "agot1-rules/unopposed-challenges"]


@rule(
    "keyword.vengeful",
    VENGEFUL_READING,
    "after losing as the defender, stand Vengeful cards; a player who declared no defending character is not "
    "considered defending (Step 2), so Vengeful does not apply",
)
def vengeful(state: State, trace: Trace, player: str, chosen: list[str], challenge: Challenge) -> None:
    if challenge.defending_player is None:
        # the documents differ: Step 2 defines who is "considered defending"; "Unopposed Challenges" still calls
        # the challenged player "the defender" with "no defending characters". The defining sentence is followed.
        why = (
            f"{player} declared no defending character, and Step 2 says a player \"must declare at least 1 defending "
            f"character in order to be considered defending against a challenge\", so {player} did not lose "
            "\"as the defender\" (Vengeful: \"After you lose a challenge as the defender\"). The engine follows Step 2 "
            "here; \"Unopposed Challenges\" calls the challenged player \"the defender\" even with \"no defending "
            "characters\", so a head judge may read Vengeful otherwise"
        )
        trace.unused("keyword.vengeful", "vengeful", chosen, why, VENGEFUL_READING)
        return
    _stand_keyword(state, trace, player, chosen, "vengeful")


def resolve(state: State, trace: Trace, choices: dict[str, Any]) -> None:
    """Resolve the challenge in the framework order: winner, claim, unopposed, renown, deadly, then keywords."""
    from judgekb.engine.agot1 import victory

    challenge = state.challenge
    if challenge is None or challenge.resolved:
        raise IllegalStep("challenge.strength", "there is no challenge to resolve")
    if challenge.ended:
        raise IllegalStep("challenge.no-participants", "the challenge already ended without resolution", cite=["agot1-faq/3.35"])
    if not challenge.attackers and not challenge.defenders:
        end_without_resolution(state, trace)
        return
    if not state.facts.get("defenders_declared"):  # said, never silent (as edition 2 does)
        refused = state.refused_since_challenge("defend")
        redirected = " since the challenge was redirected" if challenge.redirected else ""
        why = f"the scenario gives no defend step before resolve{redirected}"
        if refused:
            why = f"the defend step, step {refused[-1]}, was refused"
        trace.add(
            "challenge.defend",
            f"{challenge.defender} declares no defenders: {why}, so none are declared "
            f"(declaring defenders is {challenge.defender}'s choice; add a defend step to state it)",
            cite=["agot1-rules/challenge-step-2-declare-defenders"],
        )
        state.facts["defenders_declared"] = True
        state.facts["no_defenders_declared"] = True
    attack, defence = totals(state, trace)
    defending = challenge.defending_player or challenge.defender
    if not challenge.attackers or attack < 1:
        winner = defending if challenge.defenders and defence >= 1 else None
    elif attack > defence:
        winner = challenge.attacker
    elif attack == defence:
        winner = challenge.attacker
        trace.add("challenge.tie", f"STR is tied at {attack}: the attacker wins ties (with at least 1 STR)")
    else:
        winner = defending if defence >= 1 else None
    if winner is None:
        trace.add("challenge.strength", "neither side has at least 1 STR: no one wins the challenge")
    loser = None if winner is None else (defending if winner == challenge.attacker else challenge.attacker)
    result = {
        "type": challenge.type,
        "attacker": challenge.attacker,
        "defender": challenge.defender,
        "winner": winner,
        "loser": loser,
        "attack": attack,
        "defence": defence,
        "unopposed": winner == challenge.attacker and defence == 0,
        "ended_without_resolution": False,
        "defending_player": defending,
    }
    state.results.append(result)
    challenge.resolved = True
    if winner:
        trace.add("challenge.strength", f"{winner} wins the {challenge.type} challenge ({attack} to {defence})")
    state.facts["infamy_used"] = False
    state.facts["saves_offered"] = set()
    if winner == challenge.attacker:
        claim = state.players[winner].plot.claim
        claim_target = titles.claim_target(state, trace, challenge)
        if challenge.type == "military":
            claim_military(state, trace, claim_target, claim, choices.get("claim"))
            why = "a military claim kills characters; it discards no cards from hand"
            trace.unused("claim.military", "discard", choices.get("discard"), why, "agot1-rules/challenge-step-3-resolve")
        elif challenge.type == "intrigue":
            field = "discard" if choices.get("discard") else "claim"
            claim_intrigue(state, trace, claim_target, claim, choices.get("discard") or choices.get("claim"), field)
            if choices.get("discard"):  # `claim` names the discarded cards only when `discard` does not
                why = "`discard` already names the cards the intrigue claim discards"
                trace.unused("claim.intrigue", "claim", choices.get("claim"), why, "agot1-rules/challenge-step-3-resolve")
        else:
            claim_power(state, trace, claim_target, winner, claim, choices.get("infamy"))
            for field in ("claim", "discard"):
                why = "a power claim moves power from the House card; it kills or discards no card"
                trace.unused("claim.power", field, choices.get(field), why, "agot1-rules/challenge-step-3-resolve")
        if _game_over(state, trace):  # (a power claim can reach 15: the unopposed bonus never comes)
            return
        if defence == 0:
            trace.add("challenge.unopposed", f"the defending STR was 0: {winner} claims 1 bonus power for an unopposed challenge")
            give_power(state, trace, winner, 1, choices.get("infamy"))
        else:
            trace.add("challenge.unopposed", f"the defending STR was {defence}, not 0: no bonus power for an unopposed challenge")
        if _game_over(state, trace):
            return
    elif winner:
        trace.add("challenge.no-claim", f"the defender, {winner}, won: no claim and no unopposed bonus")
    if winner != challenge.attacker:
        why = f"the defender, {winner}, won, so there is no claim" if winner else "no one won the challenge, so there is no claim"
        for field in ("claim", "discard"):
            trace.unused("challenge.no-claim", field, choices.get(field), why, "agot1-rules/challenge-step-3-resolve")
    if winner:
        give_power(state, trace, winner, titles.opposes(state, trace, winner, loser), choices.get("infamy"))
        titles.kingsguard_win(state, trace, winner, loser, challenge)
        if _game_over(state, trace):
            return
        renown(state, trace, winner, challenge.attackers if winner == challenge.attacker else challenge.defenders)
        if _game_over(state, trace):
            return
    deadly(state, trace, challenge, choices.get("deadly"))
    if winner == challenge.attacker and choices.get("vigilant"):
        vigilant(state, trace, winner, choices["vigilant"])
    elif choices.get("vigilant"):
        why = f"{challenge.attacker} did not win the challenge as the attacker"
        trace.unused("keyword.vigilant", "vigilant", choices.get("vigilant"), why, "agot1-rules/vigilant")
    if winner == challenge.attacker and choices.get("vengeful"):
        vengeful(state, trace, defending, choices["vengeful"], challenge)
    elif choices.get("vengeful"):
        why = f"{defending} did not lose the challenge as the defender"
        trace.unused("keyword.vengeful", "vengeful", choices.get("vengeful"), why, "agot1-rules/vengeful")
    if choices.get("infamy") and not state.facts.get("infamy_used"):
        why = "no power was claimed or moved to a House in this challenge"
        trace.unused("keyword.infamy", "infamy", choices.get("infamy"), why, "agot1-rules/infamy")
    unoffered = sorted(state.facts.get("pending_saves", set()) - state.facts.get("saves_offered", set()))
    if unoffered:
        why = "no such card was about to be killed by the claim or deadly"
        trace.unused("duplicate.save", "save", unoffered, why, "agot1-rules/duplicates")
    victory.check(state, trace)


def _game_over(state: State, trace: Trace) -> bool:
    """Rules of Play, Power and Victory: "The game is immediately over when one player has claimed 15 or more total
    power": a player who reaches 15 during the resolution ends it there; what would follow (renown, deadly…) never happens."""
    from judgekb.engine.agot1 import victory

    if not any(state.total_power(p) >= victory.VICTORY for p in state.player_order()):
        return False
    victory.check(state, trace)
    trace.add("victory", "the game is immediately over: the rest of the challenge's resolution does not happen")
    return True


def _offer_save(state: State, key: str) -> None:
    state.facts.setdefault("saves_offered", set()).add(key)
