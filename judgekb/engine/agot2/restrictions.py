"""Attachment restrictions (second edition): the scenario's short forms and the printed "... only." sentences.

RR "Attachment Cards": "An attachment can only attach to a character, unless otherwise specified by the
attachment's text."  RR "Play Restrictions and Permissions": "these play restrictions must be observed."

A restriction is read into alternatives (any one may be met); each alternative is a card type and groups of
tests that must all pass, each group met by any one of its tests ("Lord or Lady", "[thenightswatch] or
Wildling").  Short forms: ``trait:Lord``, ``location``, ``opponent's character``, ``own character``.
Printed forms, as the card prints them without markup: ``Lord or Lady character only.``, ``Location only.``,
``Opponent's character only.``, ``Unique [stark] character only.``, ``Non-limited location you control only.``,
``[thenightswatch] character with printed cost 5 or higher only.``, ``Unique character or House Dayne
character only.``  A sentence ending "only." that does not read this way is not checked (the trace says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from judgekb.engine.core.state import Card, State

TYPES = ("character", "location")
SHORT = {"location", "opponent's character", "own character"}


@dataclass(frozen=True)
class Test:
    kind: str  # trait, faction, unique, limited, loyal, controller, owner, cost, str
    value: str = ""  # the trait or faction; "you"/"opponent"; for cost/str "<=N" or ">=N"
    negated: bool = False

    def words(self, player: str = "you") -> str:
        if self.kind in ("cost", "str"):
            label = "cost" if self.kind == "cost" else "STR"
            plain = f"printed {label} {self.value[2:]} or {'lower' if self.value.startswith('<') else 'higher'}"
        else:
            plain = {
                "trait": self.value,
                "faction": f"[{self.value}]",
                "unique": "unique",
                "limited": "limited",
                "loyal": "loyal",
                "controller": f"controlled by {player}" if self.value == "you" else f"controlled by an opponent of {player}",
                "owner": f"owned by {player}",
            }[self.kind]
        return f"non-{plain}" if self.negated else plain


@dataclass
class Alternative:
    type: str
    groups: list[list[Test]] = field(default_factory=list)


def parse(text: str | None) -> list[Alternative] | None:
    """The restriction's alternatives; [] for none (the default: a character); None when it cannot be read."""
    if text is None or not str(text).strip():
        return []
    raw = re.sub(r"<[^>]+>", "", str(text)).strip()
    low = raw.lower()
    if low.startswith("trait:"):
        trait = raw.split(":", 1)[1].strip()
        return [Alternative("character", [[Test("trait", trait)]])] if trait else None
    if low in SHORT:
        if low == "location":
            return [Alternative("location")]
        return [Alternative("character", [[Test("controller", "opponent" if low.startswith("opponent") else "you")]])]
    sentence = raw.rstrip(". ")
    if not sentence.lower().endswith(" only"):
        return None
    body = sentence[: -len(" only")].strip()
    body = re.sub(r"(\d+) or (lower|higher)\b", r"\1 or_\2", body)  # a bound, not an alternative
    body = re.sub(r",\s*(or\s+)?", " or ", body)  # "Bastard, Lord, or Lady"
    pieces = re.split(r"\s+or\s+", body)
    alternatives: list[Alternative] = []
    pending: list[str] = []
    for piece in pieces:
        pending.append(piece)
        if any(w.lower() in TYPES for w in piece.split()):
            alternative = _alternative(" or ".join(pending))
            if alternative is None:
                return None
            alternatives.append(alternative)
            pending = []
    return alternatives if alternatives and not pending else None


def _alternative(text: str) -> Alternative | None:
    words = text.split()
    at = next((i for i, w in enumerate(words) if w.lower() in TYPES), None)
    if at is None:
        return None
    groups = _before(words[:at])
    after = _after(words[at + 1 :])
    if groups is None or after is None:
        return None
    return Alternative(words[at].lower(), groups + [[t] for t in after])


def _before(words: list[str]) -> list[list[Test]] | None:
    groups: list[list[Test]] = []
    joining = False  # the previous word was "or": the next test joins the last group
    trait_open = False  # the last test is a trait still taking words ("House Dayne")
    for word in words:
        low = word.lower()
        if low == "or":
            if not groups or joining:
                return None
            joining, trait_open = True, False
            continue
        test = _test(word)
        if test is None:
            if not (word[:1].isupper() and re.fullmatch(r"[A-Za-z][A-Za-z'-]*", word)):
                return None
            if trait_open and not joining:
                last = groups[-1][-1]
                groups[-1][-1] = Test("trait", f"{last.value} {word}", last.negated)
                continue
            test, trait_open = Test("trait", word), True
        else:
            trait_open = test.kind == "trait"
        if joining:
            groups[-1].append(test)
        else:
            groups.append([test])
        joining = False
    return None if joining else groups


def _test(word: str) -> Test | None:
    low = word.lower()
    simple = {
        "unique": Test("unique"),
        "non-unique": Test("unique", negated=True),
        "non-limited": Test("limited", negated=True),
        "non-loyal": Test("loyal", negated=True),
        "opponent's": Test("controller", "opponent"),
    }
    if low in simple:
        return simple[low]
    match = re.fullmatch(r"(non-)?\[(\w+)\]", low)
    if match:
        return Test("faction", match.group(2), bool(match.group(1)))
    match = re.fullmatch(r"non-([A-Za-z][A-Za-z'-]*)", word, re.IGNORECASE)
    if match:
        return Test("trait", match.group(1), True)
    return None


def _after(words: list[str]) -> list[Test] | None:
    tests: list[Test] = []
    text = " ".join(words).lower()
    while text:
        match = re.match(r"you (control|own)\s*", text)
        if match:
            tests.append(Test("controller" if match.group(1) == "control" else "owner", "you"))
            text = text[match.end() :]
            continue
        match = re.match(r"with printed (cost|str) (\d+) or_(lower|higher)\s*", text)
        if match:
            tests.append(Test(match.group(1), ("<=" if match.group(3) == "lower" else ">=") + match.group(2)))
            text = text[match.end() :]
            continue
        return None
    return tests


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
