"""The authority graph: which text governs, what it replaced, and why — over networkx.

Nodes are clause ids, cards (``card:1:val``) and absent documents (``absent:rules-reference``).
Edges are the ``links`` table.  A clause is *governed by* another when that other supersedes
it, or when it (unofficial) restates that other (official); governance follows those edges
to the texts nothing replaces.  A link that overrules only a passage the clause itself strikes
through (``data.struck``: the Rules Reference's "Overruled by FAQ (3.2)") leaves the clause
governing: what it serves is still in force, and :func:`overruled` lists the struck passages.
Functions take the graph as their first argument.
"""

from __future__ import annotations

import json
import re
from typing import Any

import networkx as nx

GOVERNANCE = {"supersedes": "reverse", "restates": "forward"}


def load(db: Any) -> nx.MultiDiGraph:
    """The whole link graph from the database."""
    return from_rows(
        db.query("select id, doc, kind, heading from clauses"),
        db.query("select id, name, edition from cards"),
        db.query("select id, title from absent_documents"),
        db.query("select * from links"),
    )


def from_rows(clauses: Any, cards: Any, absent: Any, links: Any) -> nx.MultiDiGraph:
    """The link graph from rows (as stored, or as the build is about to store them)."""
    graph: nx.MultiDiGraph = nx.MultiDiGraph()
    for row in clauses:
        graph.add_node(row["id"], node="clause", doc=row["doc"], kind=row["kind"], heading=row["heading"])
    for row in cards:
        graph.add_node(row["id"], node="card", heading=row["name"], edition=row["edition"])
    for row in absent:
        graph.add_node(row["id"], node="absent", heading=row["title"])
    for row in links:
        data = row.get("data") or {}
        data = json.loads(data) if isinstance(data, str) else data
        graph.add_edge(
            row["src"],
            row["dst"],
            type=row["type"],
            reason=row["reason"],
            rule=row.get("rule"),
            version=row.get("version"),
            score=row.get("score"),
            data=data,
        )
    return graph


def all_governors(graph: nx.MultiDiGraph) -> list[dict[str, str]]:
    """For every clause that something else governs: its governors and how (superseded / restates)."""
    gov = governance(graph)
    rows = []
    for node, attrs in gov.nodes(data=True):
        if attrs.get("node") != "clause" or gov.out_degree(node) == 0:
            continue
        for result in governing(graph, node, gov):
            if result["id"] != node and gov.nodes[result["id"]].get("node") == "clause":
                first = result["chain"][0]["type"]
                rows.append({"clause": node, "governor": result["id"], "relation": "superseded" if first == "supersedes" else "restates"})
    return rows


def governance(graph: nx.MultiDiGraph) -> nx.DiGraph:
    """Edges ``x → y`` meaning "y governs x" (y supersedes x, or x restates y)."""
    out: nx.DiGraph = nx.DiGraph()
    out.add_nodes_from(graph.nodes(data=True))
    for src, dst, attrs in graph.edges(data=True):
        direction = GOVERNANCE.get(attrs["type"])
        if (attrs.get("data") or {}).get("struck"):
            continue  # it overrules a passage the text already strikes and never serves: the text served still governs
        if direction == "reverse":
            out.add_edge(dst, src, **attrs)
        elif direction == "forward":
            out.add_edge(src, dst, **attrs)
    return out


def governing(graph: nx.MultiDiGraph, node: str, gov: nx.DiGraph | None = None) -> list[dict[str, Any]]:
    """The texts that govern ``node``, each with the chain of links that leads to it.

    Returns ``[{"id": node, "chain": []}]`` when nothing replaces the node itself.
    """
    gov = governance(graph) if gov is None else gov
    if node not in gov or gov.out_degree(node) == 0:
        return [{"id": node, "chain": []}]
    results = []
    for target in nx.descendants(gov, node):
        if gov.out_degree(target) != 0:
            continue
        for path in nx.all_simple_paths(gov, node, target):
            chain = [{"from": a, "to": b, **_public(gov.edges[a, b])} for a, b in zip(path, path[1:], strict=False)]
            results.append({"id": target, "chain": chain})
    # the nearest first; of those, the closest restatement first (a merged web paragraph restates one entry
    # word for word and another in part: the page names the one it copies first)
    results.sort(key=lambda r: (len(r["chain"]), -(r["chain"][0].get("score") or 0), r["id"]))
    return results


def governed_by(graph: nx.MultiDiGraph, node: str) -> list[str] | None:
    """Ids of the texts that govern ``node``, or None when it governs itself."""
    found = governing(graph, node)
    ids = sorted({r["id"] for r in found if r["id"] != node})
    return ids or None


def overruled(graph: nx.MultiDiGraph, node: str) -> list[dict[str, Any]]:
    """The links that overrule a passage ``node`` strikes through: ``{id, struck, reason, rule}``."""
    if node not in graph:
        return []
    return [
        {"id": src, "struck": attrs["data"]["struck"], "reason": attrs["reason"], "rule": attrs.get("rule")}
        for src, _, attrs in graph.in_edges(node, data=True)
        if attrs["type"] == "supersedes" and (attrs.get("data") or {}).get("struck")
    ]


def supersession_cycles(graph: nx.MultiDiGraph) -> list[list[str]]:
    """Cycles in the governance relation (there must be none)."""
    return list(nx.simple_cycles(governance(graph)))


SYMMETRIC = frozenset({"same-topic"})  # link types with no direction, stored once each way


def links_of(graph: nx.MultiDiGraph, node: str) -> list[dict[str, Any]]:
    """Links in and out of a node: ``{type, direction, id, reason}`` (plus score/version); a link with
    no direction (same-topic) once, as "out"."""
    rows: list[dict[str, Any]] = []
    if node not in graph:
        return rows
    for _, dst, attrs in graph.out_edges(node, data=True):
        rows.append({"type": attrs["type"], "direction": "out", "id": dst, **_public(attrs, keep_type=False)})
    both_ways = {r["id"] for r in rows if r["type"] in SYMMETRIC}
    for src, _, attrs in graph.in_edges(node, data=True):
        if attrs["type"] in SYMMETRIC and src in both_ways:
            continue  # (stored both ways, listed once)
        rows.append({"type": attrs["type"], "direction": "in", "id": src, **_public(attrs, keep_type=False)})
    order = {"supersedes": 0, "restates": 1, "clarifies": 2, "cites": 3, "same-topic": 4, "mentions": 5}
    rows.sort(key=lambda r: (order.get(r["type"], 9), r["direction"], r["id"]))
    return rows


def _public(attrs: dict[str, Any], keep_type: bool = True) -> dict[str, Any]:
    out = {"reason": attrs.get("reason")}
    if keep_type:
        out["type"] = attrs.get("type")
    for key in ("score", "version", "rule"):
        if attrs.get(key) is not None:
            out[key] = attrs[key]
    if attrs.get("data"):
        out["data"] = attrs["data"]
    return out


VERSION = re.compile(r"[vV]?[0-9]{1,6}(?:\.[0-9]{1,6}){0,3}")  # ASCII digits only: "²" or "٥" are not versions


def is_version(text: str) -> bool:
    """``v5.4`` or ``5.4`` (up to four numbers of up to six digits): what ``changes --since`` accepts.

    ``v.5.4``, ``5..4``, ``5.4.`` and superscript or other non-ASCII digits are refused.
    """
    return VERSION.fullmatch(text) is not None


def version_key(version: str) -> tuple[int, ...]:
    """``"5.01"`` → (5, 1); versions compare number by number (a part that is not ASCII digits counts 0)."""
    parts = []
    for part in str(version).lstrip("vV").split("."):
        parts.append(int(part) if part.isascii() and part.isdigit() and len(part) <= 18 else 0)
    return tuple(parts)


def document_versions(db: Any, doc_id: str) -> list[str]:
    """The versions ``changes`` can report for a document, earliest first: its entries' version tags, its change
    log's versions, and the versions of a pair of documents one of which supersedes the other."""
    found = {r["version"] for r in db.query("select distinct version from clauses where doc = ? and version is not null", [doc_id])}
    for r in db.query("select data from clauses where doc = ? and data like '%changelog%'", [doc_id]):
        log = json.loads(r["data"] or "{}").get("changelog") or {}
        if log.get("version"):
            found.add(str(log["version"]))
    docs = {r["id"]: r for r in db.query("select id, version, supersedes from documents")}
    for later in docs.values():
        earlier = later.get("supersedes")
        if earlier in docs and doc_id in (earlier, later["id"]):
            found |= {docs[earlier]["version"], later["version"]}
    return sorted((v for v in found if is_version(str(v))), key=version_key)


def no_versions(db: Any, doc_id: str) -> str | None:
    """Why ``changes`` has nothing to compare in a document without versions, naming those that have some; None when
    it has versions.  `judgekb changes` and /api/changes both refuse with it: an empty list read as "nothing changed"."""
    if document_versions(db, doc_id):
        return None
    versioned = [d["id"] for d in db.query("select id from documents order by id") if document_versions(db, d["id"])]
    return (
        f"{doc_id} has no versions to compare (its entries carry no version tags, and no other version of it is in the corpus);"
        f" documents with versions: {', '.join(versioned)}"
    )


def changes(db: Any, doc_id: str, since: str) -> list[dict[str, Any]]:
    """Clauses of a document introduced after version ``since`` (from their version tags), then
    what a later version of the document changed after ``since``: new, reworded and removed
    entries (``change`` says which; see :mod:`judgekb.authority.versions`)."""
    from judgekb.authority import versions

    floor = version_key(since)
    rows = [
        r
        for r in db.query(
            "select id, kind, heading, version, citation from clauses where doc = ? and version is not null order by seq", [doc_id]
        )
        if version_key(r["version"]) > floor
    ]
    # an entry whose printed tag is older than the change log that lists it as new (FAQ v5.5.1's "New Card
    # Errata: Fleeing to the Wall …", printed "(v5.5)"): listed at the change log's version, saying both
    listed = {r["id"] for r in rows}
    for r in db.query("select id, kind, heading, version, citation, data from clauses where doc = ? and data like '%changelog%'", [doc_id]):
        log = json.loads(r.pop("data") or "{}").get("changelog") or {}
        if log.get("version") and version_key(log["version"]) > floor and r["id"] not in listed:
            printed = f"printed (v{r['version']}); " if r.get("version") else ""
            rows.append({**r, "version": log["version"], "change": "listed in the change log", "reason": f"{printed}{log.get('says', '')}"})
    rows.sort(key=lambda r: version_key(r["version"]))
    # an entry tagged with the version that also made it new says so once (FAQ v4.1's Silver Steed: "(v4.1)", new
    # since v2.3); an entry tagged with an earlier version keeps its own row and is listed again at the later
    # version's change (FAQ v2.3's "Removed (v2.3): Dorne" is v2.3's list change; v4.1 then removed the lists)
    diff = {(r["id"], r["version"]): r for r in versions.changes(db, doc_id, since, version_key)}
    rows = [diff.pop((r["id"], r["version"]), r) for r in rows]
    return rows + list(diff.values())
