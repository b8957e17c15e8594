"""What a card cannot do or have done to it (second edition): "cannot" restrictions, immunity, card constants the
engine applies ("does not kneel", "cannot be bypassed by stealth") and those it does not, and the errata a card's
wording rests on."""

from __future__ import annotations

import re
from typing import Any

from judgekb.engine.agot2 import RULES, rule
from judgekb.engine.core.registry import IllegalStep
from judgekb.engine.core.state import Card, State
from judgekb.engine.core.trace import Trace

# ------------------------------------------------------------------ cannot, immunity


@rule(
    "cannot",
    ["agot2-faq41/2.1", "agot2-rr/cannot", "agot2-faq41/definitions/choose"],
    "a card that cannot be X-ed cannot be chosen to be X-ed and ignores non-targeting X effects",
)
def cannot(state: State, trace: Trace, card: Card, past: str, chosen: bool) -> bool:
    """True if the card may be X-ed; a chosen card is refused, a non-chosen one ignores the effect."""
    if can_be(state, card, past):
        return True
    if chosen:
        raise IllegalStep("cannot", f"{card.key} cannot be {past}, so it cannot be chosen to be {past}", cite=["agot2-faq41/2.1"])
    trace.add(
        "cannot",
        f"{card.key} cannot be {past}: it ignores this effect, which does not choose it (without the word 'choose' it is not targeting)",
        "not-applied",
        cite=["agot2-faq41/2.1", "agot2-faq41/definitions/choose"],
        tag="cannot",
        subject=card.key,
    )
    return False


def can_be(state: State, card: Card, past: str) -> bool:
    """May this card be chosen to be X-ed ("killed", "knelt")? Not when it, or a lasting effect on it, says it
    cannot be (FAQ 2.1: it cannot be chosen to be X-ed); ``cannot`` says so in the trace where one is chosen."""
    return f"be {past}" not in state.cannots(card) and f"cannot be {past}" not in constants(state, card)


def why_cannot(state: State, card: Card, past: str) -> str:
    """Where a card's 'cannot be X-ed' comes from, as the trace says it."""
    lasting = [e for e in state.effects if e.target == card.key and e.kind == "cannot" and e.value == f"be {past}"]
    sources = [e.source or "an effect" for e in lasting]
    if sources:
        return f"a lasting effect from {', '.join(dict.fromkeys(sources))} says it cannot be {past}"
    if f"be {past}" in card.cannot:
        return f"its own text says it cannot be {past}"
    return f"a constant ability says it cannot be {past}"


ERRATA = {  # card title -> its errata in FAQ v4.1 (the text in force for that card)
    "Ser Horas Redwyne": "agot2-faq41/errata/ser-horas-redwyne-westeros-63",
    "Driftwood Cudgel": "agot2-faq41/errata/driftwood-cudgel-flight-of-crows-112",
    "To Go Forward You Must Go Back": "agot2-faq41/errata/to-go-forward-you-must-go-back-flight-of-crows-114",
    "Old Wyk": "agot2-faq41/errata/old-wyk-lions-of-casterly-rock-28",
    "Balon Greyjoy": "agot2-faq41/errata/balon-greyjoy-kings-of-the-isles-1",
    "Esgred": "agot2-faq41/errata/esgred-war-of-the-five-kings-111",
    "Kingsgrave": "agot2-faq41/errata/kingsgrave-fury-of-the-storm-30",
    "Dothraki Steed": "agot2-faq41/errata/dothraki-steed-fury-of-the-storm-36",
    "The Silver Steed": "agot2-faq41/errata/the-silver-steed-the-king-s-peace-54",
    "The Many-Faced God": "agot2-faq41/errata/the-many-faced-god-hear-my-words-52",
}
RULES.add("errata", sorted(ERRATA.values()), "a card with errata is played with its errata text")


def cite_errata(state: State, trace: Trace, source: str) -> None:
    """Once per step and card: the ability comes from a card whose text in force is its FAQ errata."""
    title = state.cards[source].name if source in state.cards else source
    clause = ERRATA.get(title)
    if clause and not any(e.step == trace.step and e.rule == "errata" and e.subject == title for e in trace.entries):
        trace.add("errata", f"{title}'s text in force is its FAQ v4.1 errata", cite=[clause], tag="errata", subject=title)


def constants(state: State, card: Card) -> set[str]:
    """The constant abilities the engine knows on a card, unless its text box is blank."""
    return set() if state.blanked(card) else {c.lower() for c in card.constant}


# The constant abilities the engine applies, as the words it looks for in a card's `constant` (docs/scenarios.md lists
# them): any other text is kept but does nothing, and the ruling says so (a hostile-input review: "you cannot wn the
# game" was silently ignored and the ruling flipped)
APPLIED_CONSTANTS = (
    "opponents cannot trigger",
    "you cannot win the game",
    "cannot be killed",
    "cannot be knelt",
    "cannot be sacrificed",
    "cannot be discarded",
    "cannot be returned",
    "str cannot be reduced by card effects",
    "its gold may be spent as if in your gold pool",
    "cannot play copies of events",
    "marshal facedown cards attached to this card",
    "more card in the draw phase",
)


# The constant abilities the engine applies only as a whole sentence about the card itself ("Hero does not kneel when
# declared as an attacker in a [military] challenge."): a printed condition the engine cannot check ("against an
# opponent whose reserve value is higher than yours", "Attached character ...") leaves the text unapplied, and said
# so, rather than applied unconditionally (review r51, finding 5)
NO_KNEEL = re.compile(
    r"(?:(?P<subject>.+?) )?does not kneel when declared as (?P<role>an attacker or defender|an attacker|a defender)"
    r"(?: in (?:a |an )?\[?(?P<kind>military|intrigue|power)\]? challenges?)?\.?"
)
NOT_BYPASSED = re.compile(r"(?:(?P<subject>.+?) )?cannot be bypassed by stealth\.?")
SELF_SUBJECTS = ("this character", "this card")


def _about_itself(card: Card, match: re.Match[str] | None) -> bool:
    """A constant's sentence matched and its subject, if any, is the card itself (its title or key, or 'this card')."""
    if match is None:
        return False
    subject = match.group("subject")
    return subject is None or subject in (card.name.lower(), card.key.lower(), *SELF_SUBJECTS)


def does_not_kneel(state: State, card: Card, role: str, kind: str) -> str | None:
    """What the card's constant 'does not kneel when declared as an attacker/a defender [in a TYPE challenge]' says, when
    it applies to this declaration (``role``: "attack" or "defend"), or None; a blank text box has none."""
    for text in sorted(constants(state, card)):
        match = NO_KNEEL.fullmatch(text)
        if not _about_itself(card, match) or match is None:
            continue
        roles, printed = match.group("role"), match.group("kind")
        if ("attacker" if role == "attack" else "defender") in roles and printed in (None, kind):
            article = "an" if kind[0] in "aeiou" else "a"
            return f"does not kneel when declared as {roles}" + (f" in {article} {kind} challenge" if printed else "")
    return None


def not_bypassed(state: State, card: Card) -> bool:
    """Does the card say 'cannot be bypassed by stealth' (its `cannot` list, a lasting effect or its own constant)?"""
    own = any(_about_itself(card, NOT_BYPASSED.fullmatch(t)) for t in constants(state, card))
    return own or not can_be(state, card, "bypassed by stealth")


def unapplied_constants(state: State) -> list[tuple[str, str]]:
    """(card, text) for each constant a scenario gives that none of APPLIED_CONSTANTS' words are in, and that is not
    one of the whole sentences about the card itself the engine applies (NO_KNEEL, NOT_BYPASSED)."""
    return [
        (card.key, text)
        for card in state.cards.values()
        for text in sorted(card.constant)
        if not any(words in text.lower() for words in APPLIED_CONSTANTS)
        and not any(_about_itself(card, pattern.fullmatch(text.lower())) for pattern in (NO_KNEEL, NOT_BYPASSED))
    ]


SOURCE_WORDS = {
    "event": "events",
    "character": "character abilities",
    "location": "location abilities",
    "attachment": "attachment abilities",
    "plot": "plots",
    "agenda": "agendas",
}


def immunity(state: State, card: Card, source_type: str) -> str | None:
    """The immunity, as the card names it ("character abilities", "card effects"), that shields the card
    from effects of this source type, else None."""
    words = SOURCE_WORDS.get(source_type, source_type)
    immune = set(card.immune) | {k.removeprefix("immune to ").strip() for k in state.keywords(card) if k.startswith("immune to ")}
    shields = (words, "card effects", "opponent's card effects" if source_type != "framework" else "")
    return next((shield for shield in shields if shield in immune), None)


@rule(
    "immune",
    ["agot2-rr/immune", "agot2-faq41/2.2"],
    "a card immune to a source ignores its effects; a delayed effect counts as an effect of the card that created it",
)
def check_immune(state: State, trace: Trace, card: Card, source_type: str | None, delayed: bool = False, chosen: bool = True) -> bool:
    """True if the effect reaches the card.  A chosen immune card is refused; otherwise the card ignores the effect."""
    if not source_type or not (words := immunity(state, card, source_type)):
        return True
    cite = ["agot2-rr/immune", "agot2-faq41/2.2"] if delayed else ["agot2-rr/immune"]
    if chosen:
        raise IllegalStep("immune", f"{card.key} is immune to {words}: it cannot be chosen or affected", cite=cite)
    trace.add(
        "immune",
        f"{card.key} is immune to {words}"
        + (" — a delayed effect counts as an effect of the card that created it" if delayed else "")
        + ": it ignores the effect",
        "not-applied",
        cite=cite,
        tag="immune",
        subject=card.key,
    )
    return False


# ------------------------------------------------------------------ leaving play and saves


RULES.add(
    "save.duplicate",
    ["agot2-rr/duplicates", "agot2-rr/save", "agot2-faq41/qa/catelyn-stark"],
    "a duplicate may be discarded to save the unique card it is on",
)
RULES.add(
    "save.terminal",
    ["agot2-rr/save", "agot2-faq41/3.1"],
    "a save must be able to cure an ongoing terminal condition, else it cannot be initiated",
)
RULES.add("save.sacrifice", ["agot2-rr/sacrifice"], "a sacrificed card cannot be saved")
RULES.add("save.cost", ["agot2-faq41/3.2", "agot2-rr/sacrifice"], "a card leaving play as a cost cannot be saved")
RULES.add(
    "save.cannot",
    ["agot2-rr/save", "agot2-rr/cannot"],
    "a card that 'cannot be saved' cannot be saved: by the removing ability's own text (RR Save) or by a restriction on "
    "the card (RR Cannot: absolute)",
)


RULES.add(
    "save.not-canceled",
    ["agot2-rr/duplicates"],
    "a duplicate's save cannot be canceled: a cancel named against it is not initiated, and the save goes on",
)
RULES.add(
    "save.canceled",
    ["agot2-rr/cancel"],
    "a canceled save does not initiate: it saves nothing, and a saving event is still played",
)


def save_canceled(state: State, trace: Trace, spec: dict[str, Any], card: Card, by: str) -> bool:
    """Whether the save ``spec`` offers is canceled (its ``canceled_by``), so it does not save ``card``.

    A duplicate's save is "(Cannot be canceled.)" (RR Duplicates): the cancel is refused and not played (its card stays
    where it is, no cost is paid), and the save goes on (review r80 M4).  Any other save is canceled (RR Cancel:
    "prevent the effect from initiating"); a canceling event in hand is played, as for any canceled effect."""
    from judgekb.engine.agot2.cards import play_canceler

    canceler = str(spec.get("canceled_by") or "")
    if not canceler:
        return False
    if by == "duplicate":
        held = state.cards.get(canceler)
        kept = f" ({canceler} stays in {held.owner}'s {held.zone}, and no cost is paid)" if held is not None else ""
        trace.add(
            "save.not-canceled",
            f"{canceler} cannot cancel the duplicate's save of {card.key}: the interrupt a duplicate grants is \"(Cannot be "
            f"canceled.)\", so {canceler} is not played against it{kept}",
            "refused",
            tag="save",
            subject=card.key,
        )
        return False
    play_canceler(state, trace, canceler, by)
    trace.add(
        "save.canceled",
        f"{by}'s save of {card.key} is canceled by {canceler}: it does not initiate, so it does not save {card.key}",
        tag="save",
        subject=card.key,
    )
    saving = state.cards.get(by)  # RR Cancel: a canceled event "is still considered to have been played"
    if saving is not None and saving.type == "event" and saving.zone == "hand":
        saving.zone, saving.order = "discard", state.next_seq()
    return True


RULES.add("prized", ["agot2-rr/prized"], "when a prized (X) card leaves play, each opponent of its controller gains X power")
