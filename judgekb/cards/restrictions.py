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
Words join into one trait only where they spell a known multi-word trait (``MULTI_WORD_TRAITS``): "Lord Lady
character only." is not read as the trait "Lord Lady"; it is said unchecked.

This module reads text only (no board, no engine): the card layer (``cardfill``) and the scenario loader use it to
say whether a restriction is read; ``judgekb.engine.agot2.attachment_restrictions`` checks a host against what it reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

TYPES = ("character", "location")
SHORT = {"location", "opponent's character", "own character"}

# The multi-word traits of the second-edition card data (/work/shared/cards/agot2-throneteki, every card's
# "traits"), lower case: only these join two or more capitalised words into one trait.
MULTI_WORD_TRAITS = frozenset(
    t.lower()
    for t in (
        "Drowned God", "Free Cities", "House Arryn", "House Bolton", "House Botley", "House Clegane",
        "House Connington", "House Dayne", "House Farwynd", "House Florent", "House Frey", "House Glover",
        "House Goodbrother", "House Harlaw", "House Hightower", "House Hornwood", "House Karstark", "House Manderly",
        "House Manwoody", "House Mormont", "House Qorgyle", "House Redwyne", "House Reed", "House Santagar",
        "House Tarly", "House Tully", "House Uller", "House Umber", "House Yronwood", "Iron Islands",
        "King's Landing", "Old Gods", "Pit Fighter", "Rainbow Guard", "Sand Snake", "Small Council", "The Citadel",
        "The North", "The Reach", "The Riverlands", "The Seven", "The Westerlands", "Valyrian Steel",
        "Wandering Crow",
    )
)


def _starts_trait(words: str) -> bool:
    """Whether ``words`` (lower case) are a known multi-word trait or its first words."""
    return any(t == words or t.startswith(words + " ") for t in MULTI_WORD_TRAITS)


def is_printed_form(text: str) -> bool:
    """Whether ``text`` is written as a printed restriction, a sentence ending "only." (read or not)."""
    return re.sub(r"<[^>]+>", "", str(text)).strip().rstrip(". ").lower().endswith(" only")


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


@cache  # read again after every step and effect for each attachment in play (callers only read the result)
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
    if not is_printed_form(raw):
        return None
    sentence = raw.rstrip(". ")
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
                joined = f"{last.value} {word}"
                if not _starts_trait(joined.lower()):
                    return None  # two traits side by side ("Lord Lady"): not a form the engine reads
                groups[-1][-1] = Test("trait", joined, last.negated)
                continue
            test, trait_open = Test("trait", word), True
        else:
            trait_open = test.kind == "trait"
        if joining:
            groups[-1].append(test)
        else:
            groups.append([test])
        joining = False
    if joining or not all(_complete(t) for g in groups for t in g):
        return None
    return groups


def _complete(test: Test) -> bool:
    """A trait of several words is complete only when it spells a known trait ("House" alone of "House Dayne"
    is not)."""
    return test.kind != "trait" or " " not in test.value or test.value.lower() in MULTI_WORD_TRAITS


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


