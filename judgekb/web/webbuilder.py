"""The scenario builder page: a board and steps put together from menus, no YAML typed.

The page is static HTML plus ``static/builder.js``; the script writes the scenario YAML itself
(shown beside the form, downloadable) and posts it to ``/api/run``, the same endpoint a pasted
scenario uses, so the builder can never rule differently from the command line.  A share link
encodes the builder's state in the URL fragment: nothing is stored on the server.  The only
server help it needs is card-name suggestions from the imported card databases.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request

from judgekb.cards import cardfill, cardnames
from judgekb.cards.corpus_cards import normalise_name

builder = Blueprint("builder", __name__)
MAX_SUGGESTIONS = 12
MAX_PREFIX = 80


def _db() -> Any:
    return current_app.config["JUDGEKB"].db


@builder.get("/build")
def build_page() -> Any:
    db = _db()
    imported = {}
    if "imported_cards" in db.table_names():
        imported = {row["edition"]: row["n"] for row in db.query("select edition, count(*) as n from imported_cards group by edition")}
    return render_template("builder.html", imported=imported)


def _nearest(db: Any, edition: int, key: str) -> list[str]:
    """Up to five titles of the edition near a typed name (rapidfuzz's WRatio, as ``cardfill.CardBook.nearest``, but
    only those scoring 70 or more: offered as you type, a far-off title is noise; a run's error still lists five)."""
    from rapidfuzz import fuzz, process

    def read() -> dict[str, str]:
        return {r["key"]: r["name"] for r in db.query("select distinct key, name from imported_cards where edition = ?", [edition])}

    titles = current_app.config["JUDGEKB"].cached(("card-titles", edition), read)
    return [titles[k] for k, score, _ in process.extract(key, list(titles), scorer=fuzz.WRatio, limit=5) if score >= 70]


def _title_keys(db: Any, edition: int) -> list[tuple[str, tuple[str, ...]]]:
    """The edition's imported titles: each key with the loose keys a judge may type it by (``cardnames.title_keys``)."""

    def read() -> list[tuple[str, tuple[str, ...]]]:
        rows = db.query("select distinct key, name from imported_cards where edition = ? order by key", [edition])
        return [(r["key"], tuple(sorted(cardnames.title_keys(r["name"])))) for r in rows]

    return current_app.config["JUDGEKB"].cached(("card-title-keys", edition), read)


def _matching_keys(db: Any, edition: int, typed: str) -> list[str]:
    """The keys of the titles a typed name starts (or a later word of them starts), read as ``/card`` reads a
    name: "Jaqen Hghar", "Jaqen H’ghar" and "tyrions ch" find their titles, as search and deck check do.
    Titles whose key starts with the name come first, then those a loose key starts, then the rest; shorter first."""
    key, loose = normalise_name(typed), cardnames.loose_key(typed)
    ranked = []
    for title, looses in _title_keys(db, edition):
        if title.startswith(key):
            rank = 0
        elif loose and any(k.startswith(loose) for k in looses):
            rank = 1
        elif f" {key}" in title or (loose and any(f" {loose}" in k for k in looses)):
            rank = 2
        else:
            continue
        ranked.append((rank, len(title), title))
    if not ranked and (read := cardnames.nicknamed(db, typed)):  # "ned stark": the players' name for Eddard Stark
        return _matching_keys(db, edition, read)
    return [title for *_, title in sorted(ranked)[:MAX_SUGGESTIONS]]


@builder.get("/api/cards")
def api_cards() -> Any:
    """Card names starting with (or containing) what was typed, with their printed values for the builder."""
    prefix = request.args.get("prefix", "")[:MAX_PREFIX]
    edition = request.args.get("edition", "")
    if edition not in ("1", "2"):
        return jsonify({"error": "edition must be 1 or 2", "status": 400}), 400
    db = _db()
    key = normalise_name(prefix)
    if not key or "imported_cards" not in db.table_names():
        return jsonify([])
    if request.args.get("near"):  # a name the data does not have: the titles nearest it, as a run's error names them
        return jsonify(_nearest(db, int(edition), key))
    keys = _matching_keys(db, int(edition), prefix)
    rows = db.query(
        f"select * from imported_cards where edition = ? and key in ({', '.join('?' * len(keys))}) "
        f"order by {cardnames.PRINTING_ORDER}",
        [int(edition), *keys],
    )
    out: dict[str, dict[str, Any]] = {k: {"name": "", "printings": []} for k in keys}  # in the order ranked
    for row in rows:
        entry = out[row["key"]]
        entry["name"] = row["name"]
        if len(entry["printings"]) < 6:
            entry["printings"].append(
                {"code": row["code"], "set": row["set"], "number": row["number"], "values": cardfill.printing_values(row)}
            )
    return jsonify([entry for entry in out.values() if entry["printings"]])
