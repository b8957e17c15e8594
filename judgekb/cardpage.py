"""A card's page: what every clause of the corpus says about one card, for ``judgekb card``."""

from __future__ import annotations

import json
from typing import Any

from rapidfuzz import fuzz, process

from judgekb import restricted_lists
from judgekb.cards import normalise_name

FORMATS = ("joust", "melee")
ORDINAL = {1: "1st", 2: "2nd"}


def _cards(db: Any, edition: int | None) -> list[dict[str, Any]]:
    sql = "select * from cards" + (" where edition = ?" if edition else "")
    rows = list(db.query(sql, [edition] if edition else []))
    for row in rows:
        row["spellings"] = json.loads(row.get("spellings") or "[]")
    return rows


def _imported(db: Any, edition: int, key: str) -> list[dict[str, Any]]:
    if not db["imported_cards"].exists():
        return []
    return list(db.query("select * from imported_cards where edition = ? and key = ? order by code", [edition, key]))


def _match(db: Any, name: str, edition: int | None) -> list[dict[str, Any]]:
    key = normalise_name(name)
    cards = _cards(db, edition)
    exact = [c for c in cards if c["key"] == key or key in {normalise_name(s) for s in c["spellings"]}]
    if exact:
        return exact
    found = []
    for ed in [edition] if edition else [1, 2]:
        pool = [c for c in cards if c["edition"] == ed]
        best = process.extractOne(name, [c["name"] for c in pool], scorer=fuzz.WRatio, score_cutoff=80)
        if best:
            found.append(pool[best[2]])
    return found


def suggestions(db: Any, name: str, edition: int | None) -> list[str]:
    cards = _cards(db, edition)
    return [m[0] for m in process.extract(name, [c["name"] for c in cards], scorer=fuzz.WRatio, limit=5)]


def page(db: Any, card: dict[str, Any]) -> dict[str, Any]:
    rows = list(
        db.query(
            "select c.id, c.kind, c.heading, c.text, c.citation, c.version, c.data, c.doc, l.reason "
            "from links l join clauses c on c.id = l.src where l.dst = ? and l.type = 'mentions' order by c.doc, c.seq",
            [card["id"]],
        )
    )
    for row in rows:
        row["data"] = json.loads(row["data"] or "{}")

    def entry(row: dict[str, Any]) -> dict[str, Any]:
        out = {"id": row["id"], "citation": row["citation"], "text": row["text"]}
        if row["kind"] == "qa":
            question = row["data"].get("question")  # FAQ v4.1: the heading is a title, the text opens with the question
            out["question"] = question or row["heading"]
            if question and row["text"].startswith(question):
                out["text"] = row["text"][len(question) :].strip()
        if row["version"]:
            out["version"] = row["version"]
        successor = row["data"].get("successor") or {}
        if successor.get("relation") == "removed":
            out["withdrawn"] = {"version": successor["version"], "see": successor["id"]}
        return out

    # An entry a later FAQ version carries on is shown once, as the later text; a list entry
    # the later version dropped (the 2nd-edition FAQ v4.1 prints no restricted lists) stays
    # listed but no longer gives the card a status.
    withdrawn = {r["id"] for r in rows if (r["data"].get("successor") or {}).get("relation") == "removed"}
    rows = [r for r in rows if r["id"] in withdrawn or not r["data"].get("successor")]
    restricted = {fmt: [entry(r) for r in rows if r["kind"] == "restricted" and r["data"].get("format") == fmt] for fmt in FORMATS}
    changes = [entry(r) | {"list": r["data"].get("list")} for r in rows if r["kind"] == "list-change"]
    banned = [entry(r) for r in rows if r["kind"] == "banned"]
    status = {}
    for fmt in FORMATS:
        current = [e for e in restricted[fmt] if e["id"] not in withdrawn]
        status[fmt] = "restricted" if current else "not restricted"
        if restricted[fmt] and not current:
            status[fmt] = "not on a list in the FAQ in force (restricted in an earlier version, whose lists it no longer carries)"
    status["banned"] = "banned" if banned else "not banned"
    printings = [f"{p['set']} {p['number']}" for p in db.query("select * from card_printings where card = ?", [card["id"]])]
    printed = _imported(db, card["edition"], card["key"])
    return {
        "id": card["id"],
        "name": card["name"],
        "edition": card["edition"],
        "spellings": card["spellings"],
        "printings": printings,
        "status": status,
        "errata": [entry(r) for r in rows if r["kind"] == "errata"],
        "restricted": restricted,
        "list_changes": changes,
        "banned": banned,
        "faq": [entry(r) for r in rows if r["kind"] == "qa"],
        "rules": [entry(r) for r in rows if r["kind"] not in ("errata", "restricted", "list-change", "banned", "qa")],
        "printed": printed,
        "lists": restricted_lists.card_section(db, [(i["code"], f"{i['set']} {i['number']}") for i in printed])
        if card["edition"] == 2
        else None,
    }


def find(db: Any, name: str, edition: int | None) -> list[dict[str, Any]]:
    """Pages for the cards the corpus names; failing that, imported cards the corpus never mentions."""
    found = [page(db, card) for card in _match(db, name, edition)]
    if found or not db["imported_cards"].exists():
        return found
    for ed in [edition] if edition else [1, 2]:
        pool = list(db.query("select distinct name, key from imported_cards where edition = ?", [ed]))
        best = process.extractOne(name, [r["name"] for r in pool], scorer=fuzz.WRatio, score_cutoff=86)
        if best:
            row = pool[best[2]]
            card = {"id": f"card:{ed}:imported", "name": row["name"], "edition": ed, "key": row["key"], "spellings": []}
            found.append(page(db, card))
    return found


def render(p: dict[str, Any]) -> str:
    lines = [f"{p['name']} — {ORDINAL[p['edition']]} edition  [{p['id']}]"]
    if p["spellings"]:
        lines.append(f"Also printed as: {', '.join(p['spellings'])}")
    if p["printings"]:
        lines.append(f"Cited printings: {', '.join(p['printings'])}")
    lines.append(f"Status in the FAQ: joust {p['status']['joust']}, melee {p['status']['melee']}, {p['status']['banned']}")
    if not (p["errata"] or p["faq"] or p["rules"] or any(p["restricted"].values()) or p["list_changes"]):
        lines.append("The corpus says nothing else about this card (no errata, FAQ answer or rule names it).")
    for item in p["printed"]:
        lines.append(f"\nPrinted ({item['set']} {item['number']}, imported from {item['source']}):")
        stats = [f"{k} {item[k]}" for k in ("type", "house", "cost", "strength", "icons", "traits", "keywords") if item.get(k)]
        lines.append("  " + "; ".join(stats))
        lines.append(f"  {item['text']}")

    def section(title: str, entries: list[dict[str, Any]]) -> None:
        if not entries:
            return
        lines.append(f"\n{title}:")
        for e in entries:
            lines.append(f"  {e['citation']}  [{e['id']}]")
            if e.get("question"):
                lines.append(f"    Q: {e['question']}")
                lines.append(f"    A: {e['text']}")
            else:
                lines.append(f"    {e['text']}")
            if e.get("withdrawn"):
                gone = e["withdrawn"]
                lines.append(f"    (not in force: v{gone['version']} of the FAQ no longer carries it; see {gone['see']})")

    if p.get("lists"):
        lines.extend(render_lists(p["lists"]))
    section("Errata (governs the printed text)", p["errata"])
    section("Joust restricted list", p["restricted"]["joust"])
    section("Melee restricted list", p["restricted"]["melee"])
    section("List changes", p["list_changes"])
    section("Banned list", p["banned"])
    section("FAQ answers", p["faq"])
    section("Other clauses that mention it", p["rules"])
    return "\n".join(lines) + "\n"


def render_lists(lists: dict[str, Any]) -> list[str]:
    """The dated restricted/banned lists' section: the list in force, then each printing's history."""
    out = [f"\nRestricted and banned lists (imported card data; in force: {lists['in_force']['citation']}):"]
    for item in lists["printings"]:
        out.append(f"  {item['printing']}: {'; '.join(item['in_force'])}")
        for run in item["history"]:
            span = run["from"] if run["from"] == run["to"] else f"{run['from']} to {run['to']}"
            dates = run["from_date"] if run["from"] == run["to"] else f"{run['from_date']} to {run['to_date']}"
            out.append(f"    {span} ({run['issuer']}, {dates}): {'; '.join(run['status'])}")
    return out
