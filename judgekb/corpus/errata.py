"""What each card errata entry does to its card: replaces the printed text, or clarifies it.

The 1st-edition FAQ's "Card Clarification and Errata" section holds both: entries that give the
card new wording ("Should read: …", "should be unique") and entries that only rule how the printed
card works ("A player who has reached his or her draw cap may not trigger Val's "reveal and draw"
effect.").  ``corpus/errata-effects.yaml`` classifies every errata clause, quoting the words that
show which; the classification is attached to the clause (``data["errata_effect"]``) when the
corpus is parsed, and decides its citation ("Card errata" or "Card clarification"), its link to the
card (``supersedes`` or ``clarifies``) and the card page's section.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from judgekb.corpus.model import Clause
from judgekb.yamlio import DataError, check_fields, load, where

Effect = Literal["replaces", "clarifies"]
EFFECTS: tuple[Effect, ...] = ("replaces", "clarifies")
FILE = "errata-effects.yaml"


def load_effects(corpus: Path) -> dict[str, dict[str, Any]]:
    """The classification of each errata clause, by clause id (with its line, for messages)."""
    path = corpus / FILE
    if not path.is_file():
        return {}
    data = load(path)
    check_fields(path, data, {"errata"}, set(), "errata effects file")
    out: dict[str, dict[str, Any]] = {}
    for item in data["errata"]:
        check_fields(path, item, {"clause", "effect", "says", "reason"}, set(), "errata effect")
        if item["effect"] not in EFFECTS:
            raise DataError(f"{where(path, item)}: field 'effect' must be one of {', '.join(EFFECTS)}; got {item['effect']!r}")
        if item["clause"] in out:
            raise DataError(f"{where(path, item)}: {item['clause']} is classified twice")
        out[str(item["clause"])] = item
    return out


def annotate(doc_id: str, clauses: list[Clause], corpus: Path) -> None:
    """Attach to each errata clause of a document what it does to its card; every one must be classified."""
    effects = load_effects(corpus)
    if not effects:
        return
    path = corpus / FILE
    ids = {c.id for c in clauses}
    for clause in clauses:
        if clause.kind != "errata":
            continue
        item = effects.get(clause.id)
        if item is None:
            raise DataError(f"{path}: {clause.id} is not classified (effect: replaces or clarifies)")
        if str(item["says"]) not in clause.text:
            raise DataError(f"{where(path, item)}: field 'says' is not in {clause.id}: {item['says']!r}")
        clause.data["errata_effect"] = {"effect": item["effect"], "reason": " ".join(str(item["reason"]).split())}
    for clause_id, item in effects.items():
        if clause_id.startswith(f"{doc_id}/") and clause_id not in ids:
            raise DataError(f"{where(path, item)}: no clause '{clause_id}'")


def effect(data: dict[str, Any]) -> Effect:
    """What an errata clause does to its card (an unclassified one is read as replacing, as errata do)."""
    found = (data.get("errata_effect") or {}).get("effect")
    return "clarifies" if found == "clarifies" else "replaces"
