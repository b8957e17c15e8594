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

from judgekb.cards import cardfill
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
    like = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = list(
        db.query(
            "select * from imported_cards where edition = ? and (key like ? escape '\\' or key like ? escape '\\') "
            "order by key like ? escape '\\' desc, length(key), key, code like 'core%' desc, code like '01%' desc, "
            "code like '00%', code limit 200",  # (a core printing first, a draft set's last)
            [int(edition), like + "%", "% " + like + "%", like + "%"],
        )
    )
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        entry = out.setdefault(row["key"], {"name": row["name"], "printings": []})
        if len(entry["printings"]) < 6:
            entry["printings"].append(
                {"code": row["code"], "set": row["set"], "number": row["number"], "values": cardfill.printing_values(row)}
            )
        if len(out) > MAX_SUGGESTIONS:
            out.pop(row["key"])
            break
    return jsonify(list(out.values()))
