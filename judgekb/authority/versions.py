"""Versions of one document: each entry of an earlier version linked to its successor in the later one.

A manifest's ``supersedes`` names the earlier version of the same document (the 2nd-edition
FAQ v4.1 supersedes v2.3 entry by entry).  Each earlier clause is matched to the later clause
that carries the same entry — same id within the document (printed section number, card
errata, definition), else same heading, else the most similar text (rapidfuzz) of the same
kind — and the pair is classified:

* ``same``      the same words, once typography (Markdown emphasis and list markers, curly
                quotes, spacing, punctuation) is set aside;
* ``reworded``  the later text differs (the similarity score is kept);
* ``removed``   nothing in the later version carries it (the restricted lists left the FAQ).

A later entry that carries several earlier ones (``moved`` in ``corpus/versions.yaml``) is compared with
them together, in their earlier order.

Each pair becomes a ``supersedes`` link (later → earlier) under the precedence rule
``later-version-over-earlier``; a removed entry is superseded by the later clause that says
where its content went, named in ``corpus/versions.yaml``.
Later clauses with no predecessor are marked ``new_since`` the earlier version.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from judgekb.corpus.model import Clause, Document
from judgekb.yamlio import DataError, check_fields, load, where

RULE = "later-version-over-earlier"
MATCH_MIN = 70  # text similarity needed to pair entries whose ids and headings differ
SAME_KINDS = {"qa": {"qa"}, "timing": {"timing"}, "section": {"section"}, "definition": {"definition"}}
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-", "…": "..."})


# "- ♦ ", "- 1) ", "1. " opening a list item (Markdown prints them; an HTML <ol> does not)
LIST_MARKER = re.compile(r"(?:(?<=\s)|^)(?:-\s+(?:♦|•|\d+\))?|♦|•)(?=\s+[A-Z\"“'])|(?:(?<=[.:]\s)|^)\d+\.(?=\s+[A-Z\"“'])")


def words(text: str) -> list[str]:
    """The words of a text as compared across versions: Markdown emphasis and list markers, typographic
    quotes, spacing and punctuation set aside (a page's <ol> prints no numbers, a Markdown list does)."""
    text = LIST_MARKER.sub(" ", text.translate(_QUOTES).replace("*", ""))
    return re.findall(r"[a-z0-9']+", text.casefold())


def comparable(text: str) -> str:
    return " ".join(words(text))


def shown_words(text: str) -> list[tuple[str, int, list[str]]]:
    """The compared words of a text, each with the index of the printed word it comes from, and the printed
    words (Markdown emphasis and list markers set aside): a change is shown in the document's own words,
    capitals and punctuation, not as the lower-cased words compared ("r'bllor" → "r'hllor" read as R'hllor)."""
    printed = LIST_MARKER.sub(" ", text.replace("*", "")).split()
    return [(w, i, printed) for i, chunk in enumerate(printed) for w in words(chunk)]


def differences(old: str, new: str, most: int = 3) -> list[str]:
    """Up to ``most`` word-level changes between two texts, readable and in the texts' printed words:
    “old words” → “new words”, added …, removed …."""
    a_words, b_words = shown_words(old), shown_words(new)

    def printed(tokens: list[tuple[str, int, list[str]]], i: int, j: int) -> str:
        if i >= j:
            return ""
        shown = " ".join(tokens[i][2][tokens[i][1] : tokens[j - 1][1] + 1])
        return shown[:57] + "…" if len(shown) > 60 else shown

    out = []
    matcher = difflib.SequenceMatcher(a=[w for w, _, _ in a_words], b=[w for w, _, _ in b_words], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        a, b = printed(a_words, i1, i2), printed(b_words, j1, j2)
        if op == "replace":
            out.append(f"“{a}” → “{b}”")
        elif op == "delete":
            out.append(f"removed “{a}”")
        elif op == "insert":
            out.append(f"added “{b}”")
    return out[:most] + ([f"and {len(out) - most} more"] if len(out) > most else [])


def _key(clause: Clause) -> str:
    return clause.id.split("/", 1)[1]


def _compared_text(clause: Clause) -> str:
    """A Q&A whose question is not in its text (the question is its heading) is compared with it."""
    asked = clause.kind == "qa" and not clause.data.get("question")
    return f"{clause.heading} {clause.text}" if asked else clause.text


def _comparable_text(clause: Clause) -> str:
    return comparable(_compared_text(clause))


def load_removals(path: Path, known: set[str]) -> list[dict[str, Any]]:
    """Where removed entries went: ``{doc, kinds, to, reason}`` rows from ``corpus/versions.yaml``."""
    if not path.is_file():
        return []
    data = load(path)
    check_fields(path, data, {"removed"}, {"moved"}, "versions file")
    rows = []
    for item in data["removed"] or []:
        check_fields(path, item, {"doc", "to", "reason"}, {"kinds", "ids"}, "removal")
        if item["to"] not in known:
            raise DataError(f"{where(path, item)}: field 'to' names no clause: {item['to']}")
        rows.append({"kinds": item.get("kinds") or [], "ids": item.get("ids") or [], **{k: item[k] for k in ("doc", "to", "reason")}})
    return rows


def load_moves(path: Path, known: set[str]) -> dict[str, dict[str, str]]:
    """Entries whose text the later version carries inside another entry: ``{from: {to, reason}}``."""
    if not path.is_file():
        return {}
    moves = {}
    for item in load(path).get("moved") or []:
        check_fields(path, item, {"from", "to", "reason"}, set(), "move")
        for key in ("from", "to"):
            if item[key] not in known:
                raise DataError(f"{where(path, item)}: field '{key}' names no clause: {item[key]}")
        moves[item["from"]] = {"to": item["to"], "reason": " ".join(str(item["reason"]).split())}
    return moves


def align(clauses: list[Clause], docs: dict[str, Document], corpus: Path) -> list[dict[str, Any]]:
    """Link every clause of each superseded version to its successor; mark clause data on both sides.

    Returns the ``supersedes`` link rows.  Earlier clauses gain ``data["successor"]`` (id and
    relation); later clauses gain ``data["previous"]`` or ``data["new_since"]``.
    """
    from judgekb.authority.links import link

    by_doc: dict[str, list[Clause]] = {}
    for clause in clauses:
        by_doc.setdefault(clause.doc, []).append(clause)
    removals = load_removals(corpus / "versions.yaml", {c.id for c in clauses})
    moves = load_moves(corpus / "versions.yaml", {c.id for c in clauses})
    by_id = {c.id: c for c in clauses}
    rows: list[dict[str, Any]] = []
    for later_doc in docs.values():
        if not later_doc.supersedes:
            continue
        earlier_doc = docs[later_doc.supersedes]
        later = by_doc.get(later_doc.id, [])
        earlier = by_doc.get(earlier_doc.id, [])
        by_key = {_key(c): c for c in later}
        by_heading: dict[tuple[str, str], Clause] = {}
        for c in later:
            by_heading.setdefault((c.kind, comparable(c.heading)), c)
        taken: set[str] = set()
        pairs: list[tuple[Clause, Clause | None, str]] = []
        unmatched: list[Clause] = []
        for old in earlier:  # first pass: a recorded move, the same id, then the same heading
            if old.id in moves:  # the later entry also has its own predecessor, so it is not "taken"
                pairs.append((old, by_id[moves[old.id]["to"]], moves[old.id]["reason"]))
                continue
            new = by_key.get(_key(old))
            how = "the same entry id"
            if new is None or new.id in taken:
                new, how = by_heading.get((old.kind, comparable(old.heading))), "the same heading"
            if new is None or new.id in taken:
                unmatched.append(old)
                continue
            taken.add(new.id)
            pairs.append((old, new, how))
        for old in unmatched:  # second pass: the most similar remaining text of a comparable kind
            kinds = SAME_KINDS.get(old.kind, {old.kind})
            candidates = [c for c in later if c.id not in taken and c.kind in kinds]
            scored = sorted(((fuzz.token_set_ratio(_comparable_text(old), _comparable_text(c)), c.id, c) for c in candidates), reverse=True)
            if scored and scored[0][0] >= MATCH_MIN:
                taken.add(scored[0][2].id)
                pairs.append((old, scored[0][2], f"the most similar text, {scored[0][0]:.1f}/100"))
            else:
                pairs.append((old, None, ""))
        v_old, v_new = earlier_doc.version, later_doc.version
        # a later entry that carries several earlier ones (its own predecessor and a rule moved into it) is compared
        # with them together, in the earlier order: v4.1's Notes and Errata introduction prints v2.3's two paragraphs
        carried: dict[str, list[Clause]] = {}
        for old, new, _ in pairs:
            if new is not None:
                carried.setdefault(new.id, []).append(old)
        for olds in carried.values():
            olds.sort(key=lambda c: c.seq)
        for old, new, how in pairs:
            if new is None:
                removal = next((r for r in removals if r["doc"] == old.doc and (old.kind in r["kinds"] or old.id in r["ids"])), None)
                if removal is None:
                    raise DataError(
                        f"{corpus / 'versions.yaml'}: v{v_new} of {later_doc.id} has no successor for '{old.id}' "
                        "and no 'removed' entry says where it went"
                    )
                old.data["successor"] = {"id": removal["to"], "relation": "removed", "version": v_new}
                reason = f"removed in v{v_new}: {' '.join(str(removal['reason']).split())}"
                rows.append(link(removal["to"], old.id, "supersedes", reason, rule=RULE, version=v_new, data={"relation": "removed"}))
                continue
            together = [c for c in carried[new.id] if c is not old]
            earlier_text = " ".join(_compared_text(c) for c in carried[new.id])
            a, b = comparable(earlier_text), _comparable_text(new)
            score = fuzz.ratio(a, b)
            relation = "same" if a == b else "reworded"
            changed = differences(earlier_text, _compared_text(new))
            if together:
                how += f"; it carries {', '.join(c.id for c in together)} in the same entry, compared with this one together"
            old.data["successor"] = {"id": new.id, "relation": relation, "version": v_new}
            if old.id not in moves:  # a moved rule is carried inside an entry that keeps its own predecessor
                new.data["previous"] = {"id": old.id, "relation": relation, "version": v_old, "score": round(score, 1), "changes": changed}
            if relation == "same":
                reason = f"v{v_new} carries this entry with the same words (matched by {how})"
            else:
                reason = f"v{v_new} rewords this entry (matched by {how}; word similarity {score:.1f}/100): {'; '.join(changed)}"
            rows.append(
                link(new.id, old.id, "supersedes", reason, rule=RULE, version=v_new, score=round(score, 1), data={"relation": relation})
            )
        for new in later:
            if new.id not in taken:
                new.data["new_since"] = v_old
    return rows


def changes(db: Any, doc_id: str, since: str, key: Any) -> list[dict[str, Any]]:
    """What later versions of ``doc_id`` (or ``doc_id`` itself, against its predecessor) changed after ``since``.

    Rows: ``id, kind, heading, version, citation, change, previous, reason``; ``change`` is
    ``new``, ``reworded`` or ``removed`` (unchanged entries are not listed).
    """
    import json

    floor = key(since)
    docs = {r["id"]: r for r in db.query("select id, version, supersedes from documents")}
    pairs = []  # (earlier doc, later doc) whose differences count
    for later in docs.values():
        earlier = later.get("supersedes")
        if not earlier or earlier not in docs:
            continue
        if doc_id in (earlier, later["id"]) and key(later["version"]) > floor and key(docs[earlier]["version"]) >= floor:
            pairs.append((earlier, later["id"]))
    rows: list[dict[str, Any]] = []
    for earlier, later in pairs:
        version = docs[later]["version"]
        for row in db.query("select id, kind, heading, citation, data from clauses where doc = ? order by seq", [later]):
            data = json.loads(row.pop("data") or "{}")
            previous = data.get("previous") or {}
            if data.get("new_since"):
                rows.append({**row, "version": version, "change": "new", "previous": None, "reason": f"not in v{data['new_since']}"})
            elif previous.get("relation") == "reworded":
                # named by its version (the page links the earlier text), not by an id a judge cannot read out
                reason = f"reworded from v{previous['version']}: {'; '.join(previous.get('changes') or [])}"
                rows.append({**row, "version": version, "change": "reworded", "previous": previous["id"], "reason": reason})
        for row in db.query("select id, kind, heading, citation, data from clauses where doc = ? order by seq", [earlier]):
            data = json.loads(row.pop("data") or "{}")
            successor = data.get("successor") or {}
            if successor.get("relation") == "removed":
                reason = f"removed in v{version}; see {successor['id']}"
                rows.append({**row, "version": version, "change": "removed", "previous": None, "reason": reason})
    return rows


def trail(db: Any, clause_id: str) -> list[dict[str, Any]]:
    """The entry's versions, earliest first: ``{id, version, relation, citation, in_force}``.

    ``relation`` says how each version relates to the one before it (``same``, ``reworded``,
    ``removed``); a single-version entry has a trail of one.
    """
    import json

    def fetch(cid: str) -> dict[str, Any] | None:
        rows = list(
            db.query("select c.id, c.citation, c.data, d.version from clauses c join documents d on d.id = c.doc where c.id = ?", [cid])
        )
        if not rows:
            return None
        row = rows[0]
        row["data"] = json.loads(row["data"] or "{}")
        return row

    start = fetch(clause_id)
    if start is None:
        return []
    chain = [start]
    while (previous := (chain[0]["data"].get("previous") or {}).get("id")) and len(chain) < 20:
        row = fetch(previous)
        if row is None:
            break
        chain.insert(0, row)
    while (successor := chain[-1]["data"].get("successor")) and len(chain) < 20:
        row = fetch(successor["id"])
        if row is None:
            break
        if successor["relation"] == "removed":
            chain.append({**row, "removed": True, "relation": "removed"})
            break
        chain.append(row)
    out = []
    for i, row in enumerate(chain):
        if row.get("removed"):
            relation = "removed"
        elif i:
            relation = (row["data"].get("previous") or {}).get("relation", "")
        else:
            relation = ""
        out.append({"id": row["id"], "version": row["version"], "relation": relation, "citation": row["citation"]})
    removed = out[-1]["relation"] == "removed"
    for i, item in enumerate(out):
        item["in_force"] = i == len(out) - 1 and not removed
    return out
