"""The JSON objects judgekb serves — built once here so the CLI's --json and the web API match."""

from __future__ import annotations

from typing import Any

from judgekb import store
from judgekb.authority import graph as authority
from judgekb.authority import versions
from judgekb.corpus.model import opening

CLAUSE_KEYS = ("id", "doc", "edition", "kind", "section", "heading", "page", "version", "citation", "text")


def node_label(db: Any, node: str) -> str:
    """What to call a link target: a clause's citation, a card's name, an absent document's title."""
    if node.startswith("card:"):
        rows = list(db.query("select name from cards where id = ?", [node]))
        return f"card: {rows[0]['name']}" if rows else node
    if node.startswith("absent:"):
        rows = list(db.query("select title from absent_documents where id = ?", [node]))
        return rows[0]["title"] if rows else node
    row = store.clause(db, node)
    return row["citation"] if row else node


def copy_text(row: dict[str, Any]) -> str:
    """A clause's text as a copy button gives it: paragraphs and list items on lines of their own, as the
    page sets them out (a Q&A of v4.1 as "Q: …" and "A: …"), without Markdown markers. The governing
    text's copy on a superseded page gave the same clause run together, its steps' numbers lost."""
    from judgekb.corpus.layout import plain_text
    from judgekb.web.webtext import unmarked

    data = row.get("data") or {}
    if row.get("kind") == "qa" and not data.get("question"):
        return unmarked(f"Q: {row['heading']}\nA: {row['text']}")
    return unmarked(plain_text(row["text"], data["blocks"]) if data.get("blocks") else row["text"])


def clause_object(db: Any, graph: Any, row: dict[str, Any], gov: Any = None) -> dict[str, Any]:
    """`judgekb show --json`: the clause, its document's authority, its links and what governs it."""
    doc = store.document(db, row["doc"])
    assert doc is not None, row["doc"]  # (clauses.doc is a foreign key of documents)
    out: dict[str, Any] = {k: row.get(k) for k in CLAUSE_KEYS}
    out["data"] = row.get("data") or {}
    found = authority.governing(graph, row["id"], gov)
    from judgekb.authority.verify import checksum, permalink
    from judgekb.corpus.glyphs import citation_notes, reader_notes

    out |= {
        "notes": reader_notes(out["data"]),  # glyphs explained, misprints, undetermined pages
        "citation_notes": citation_notes(out["data"]),  # copied with the citation: a misprint it quotes
        "permalink": permalink(row["id"]),
        "sha256": checksum(row["text"]),
        "authority": doc["authority"],
        "document": doc["title"],
        "links": authority.links_of(graph, row["id"]),
        "parts": store.parts(db, row["id"]),  # a phase's steps, in order
        "part_of": store.part_of(db, row["id"]),
        "governed_by": sorted({r["id"] for r in found if r["id"] != row["id"]}) or None,
        "versions": versions.trail(db, row["id"]),
        "struck": struck_passages(db, graph, row),
        "copy_text": copy_text(row),
    }
    return out


STRUCK_NEXT_WORDS = 8  # the served words a struck passage stood before, to find its place


def struck_passages(db: Any, graph: Any, row: dict[str, Any]) -> list[dict[str, Any]]:
    """Passages the document strikes through (never served as its text), each with the words it stood
    before and the clauses that overrule it: a judge sees what was struck, where, and by what."""
    data = row.get("data") or {}
    texts: list[str] = data.get("struck") or []
    places: list[int] = data.get("struck_at") or []
    overruling = authority.overruled(graph, row["id"])
    out = []
    for i, text in enumerate(texts):
        at = places[i] if i < len(places) else len(row["text"])
        by = [
            {"id": o["id"], "citation": node_label(db, o["id"]), "reason": o["reason"], "rule": o["rule"]}
            for o in overruling
            if text.startswith(o["struck"])
        ]
        out.append({"text": text, "before": opening(row["text"][at:].strip(), STRUCK_NEXT_WORDS), "overruled_by": by})
    return out


def governing_object(db: Any, graph: Any, row: dict[str, Any], gov: Any = None) -> dict[str, Any]:
    """`judgekb governing --json`: the governing texts with their chains, and what this text supersedes."""
    out: dict[str, Any] = {
        "id": row["id"],
        "citation": row["citation"],
        "governing": [],
        "supersedes": [i for i in authority.links_of(graph, row["id"]) if i["type"] == "supersedes" and i["direction"] == "out"],
        # the cards it rules on without replacing their text (a card clarification: errata-effects.yaml)
        "clarifies": [
            i
            for i in authority.links_of(graph, row["id"])
            if i["type"] == "clarifies" and i["direction"] == "out" and i["id"].startswith("card:")
        ],
        # struck passages another text overrules: not part of the text served, which still governs
        "overruled": [p for p in struck_passages(db, graph, row) if p["overruled_by"]],
        # rulings on how this text reads (an FAQ entry on a Rules Reference rule): read with it, they replace nothing
        "clarified_by": [
            {**i, "citation": node_label(db, i["id"])}
            for i in authority.links_of(graph, row["id"])
            if i["type"] == "clarifies" and i["direction"] == "in"
        ],
    }
    for result in authority.governing(graph, row["id"], gov):
        target = None if result["id"].startswith(("card:", "absent:")) else store.clause(db, result["id"])
        out["governing"].append(
            {
                "id": result["id"],
                "citation": target["citation"] if target else node_label(db, result["id"]),
                "text": target["text"] if target else None,
                "copy_text": copy_text(target) if target else None,
                "chain": result["chain"],
            }
        )
    out |= superseded_extent(out["governing"], row["id"])
    return out


def superseded_extent(governing: list[dict[str, Any]], clause_id: str) -> dict[str, Any]:
    """How much of a clause the texts superseding it replace: ``superseded`` is "whole", "part" (every
    link superseding it names the paragraph it replaces: the rulebook's Duplicates, two of five
    paragraphs) or None; ``replaced`` lists those paragraphs with the text replacing each."""
    direct = [(g, g["chain"][0]) for g in governing if g["chain"] and g["chain"][0]["type"] == "supersedes"]
    if not direct or any(step["from"] != clause_id for _, step in direct):
        whole = any(step["type"] == "supersedes" for g in governing for step in g["chain"])
        return {"superseded": "whole" if whole else None, "replaced": []}
    paragraphs = [((step.get("data") or {}).get("paragraph"), g) for g, step in direct]
    if not all(paragraph for paragraph, _ in paragraphs):
        return {"superseded": "whole", "replaced": []}
    replaced = [{"paragraph": paragraph, "id": g["id"], "citation": g["citation"]} for paragraph, g in paragraphs]
    return {"superseded": "part", "replaced": replaced}


def trail_line(trail: list[dict[str, Any]], current: str) -> str:
    """``v2.3 agot2-faq/2.6 (this text, superseded) → v4.1 agot2-faq41/2.6 (same words; in force)``."""
    parts = []
    for item in trail:
        notes = [item["relation"] + (" words" if item["relation"] == "same" else "")] if item["relation"] else []
        if item["relation"] == "removed":
            parts.append(f"removed in v{item['version']} (see {item['id']})")
            continue
        if item["id"] == current:
            notes.append("this text")
        notes.append("in force" if item["in_force"] else "superseded")
        parts.append(f"v{item['version']} {item['id']} ({'; '.join(notes)})")
    return " → ".join(parts)
