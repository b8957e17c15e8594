"""Optional import of the public card databases: printed text, type, house, cost, STR, icons…

Two formats are read (see ``shared/cards/README.md``): the 1st-edition ``agot1.json`` (one
array of cards) and the 2nd-edition throneteki folder (``packs/*.json``).  Imported cards go
in ``imported_cards`` keyed by edition and normalised title, so a card page can show the
printed text beside the errata.  The corpus never depends on an import; the paths imported
are remembered beside the database and re-applied whenever the database is rebuilt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judgekb.cards import normalise_name
from judgekb.yamlio import DataError

ICON_ORDER = ("military", "intrigue", "power")
AGOT1_STATS = ("crest", "income", "initiative", "claim", "influence")  # printed values kept for cards by name


def _first_line_keywords(text: str) -> list[str]:
    """2nd-edition keywords are the first line of the text when it is only keywords ("Insight. Renown.")."""
    first = (text or "").split("\n", 1)[0]
    words = [w.strip() for w in first.split(".") if w.strip()]
    known = {
        "insight",
        "intimidate",
        "pillage",
        "renown",
        "stealth",
        "limited",
        "terminal",
        "ambush",
        "shadow",
        "bestow",
        "assault",
        "no attachments",
        "prized",
    }
    if words and all(w.lower().split(" (")[0].split(" ")[0] in known or w.lower().startswith("no attachments") for w in words):
        return words
    return []


def read_agot1(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not a readable JSON card database: {exc}") from None
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON array of cards (the agot1.json format)")
    rows = []
    for index, card in enumerate(data):
        if not isinstance(card, dict) or "name" not in card:
            raise DataError(f"{path}: card #{index} has no 'name'")
        text = card.get("rules_text") or ""
        rows.append(
            {
                "edition": 1,
                "key": normalise_name(card["name"]),
                "name": card["name"],
                "code": card.get("id"),
                "set": card.get("set"),
                "number": str(card.get("number") or ""),
                "type": card.get("card_type"),
                "house": ", ".join(card.get("house") or []),
                "cost": card.get("cost"),
                "strength": card.get("strength"),
                "icons": ", ".join(card.get("icons") or []),
                "traits": ", ".join(card.get("traits") or []),
                "keywords": "",
                "unique": bool(card.get("unique")),
                "text": text,
                "errata_text": json.dumps(card.get("erratas") or [], ensure_ascii=False),
                "stats": json.dumps({k: card.get(k) for k in AGOT1_STATS if card.get(k) not in (None, [])}),
                "pack": card.get("set"),
                "released": None,
                "loyal": False,
                "deck_limit": card.get("limit"),
                "source": str(path),
            }
        )
    return rows


def read_throneteki(folder: Path) -> list[dict[str, Any]]:
    packs = sorted((folder / "packs").glob("*.json"))
    if not packs:
        raise DataError(f"{folder}: no packs/*.json (the throneteki format)")
    rows = []
    for pack_path in packs:
        try:
            pack = json.loads(pack_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(f"{pack_path}: not readable JSON: {exc}") from None
        for index, card in enumerate(pack.get("cards") or []):
            if not isinstance(card, dict) or "name" not in card:
                raise DataError(f"{pack_path}: card #{index} has no 'name'")
            icons = card.get("icons") or {}
            text = card.get("text") or ""
            rows.append(
                {
                    "edition": 2,
                    "key": normalise_name(card["name"]),
                    "name": card["name"],
                    "code": card.get("code"),
                    "set": pack.get("name"),
                    "number": str(card.get("code", ""))[-3:].lstrip("0"),
                    "type": card.get("type"),
                    "house": card.get("faction"),
                    "cost": card.get("cost"),
                    "strength": card.get("strength"),
                    "icons": ", ".join(i for i in ICON_ORDER if icons.get(i)),
                    "traits": ", ".join(card.get("traits") or []),
                    "keywords": ", ".join(_first_line_keywords(text)),
                    "unique": bool(card.get("unique")),
                    "text": text,
                    "errata_text": json.dumps(card.get("errata") or [], ensure_ascii=False),
                    "stats": json.dumps({k: card.get(k) for k in ("loyal", "plotStats", "deckLimit") if card.get(k) is not None}),
                    "pack": pack.get("code"),
                    "released": pack.get("releaseDate"),
                    "loyal": bool(card.get("loyal")),
                    "deck_limit": card.get("deckLimit"),
                    "source": str(folder),
                }
            )
    return rows


def read(path: Path) -> list[dict[str, Any]]:
    """Rows from either format; the path decides which."""
    if path.is_dir():
        if (path / "packs").is_dir():
            return read_throneteki(path)
        if (path / "agot1.json").is_file():
            return read_agot1(path / "agot1.json")
        raise DataError(f"{path}: neither a throneteki folder (packs/) nor a folder with agot1.json")
    if path.is_file():
        return read_agot1(path)
    raise DataError(f"{path}: no such file or folder")


def apply(db: Any, rows: list[dict[str, Any]]) -> int:
    """Replace the imported cards of the editions in ``rows``; returns how many were written."""
    if not rows:
        return 0
    editions = sorted({r["edition"] for r in rows})
    if db["imported_cards"].exists():
        db.execute(f"delete from imported_cards where edition in ({','.join('?' * len(editions))})", editions)
    db["imported_cards"].insert_all(rows, columns={"cost": str, "strength": str, "released": str, "deck_limit": int}, alter=True)
    db["imported_cards"].create_index(["edition", "key"], if_not_exists=True)
    db.conn.commit()
    return len(rows)


def import_path(db: Any, path: Path) -> tuple[int, list[int], int]:
    """Import the cards at ``path`` and, for a throneteki folder, its dated restricted lists.

    Returns (cards, editions, lists).  Everything is read (and checked) before anything is written.
    """
    from judgekb import restricted_lists

    rows = read(path)
    list_file = restricted_lists.find_file(path)
    lists = restricted_lists.read(list_file) if list_file else []
    count = apply(db, rows)
    if list_file:
        restricted_lists.apply(db, lists, list_file)
    return count, sorted({r["edition"] for r in rows}), len(lists)


def registry(db_path: Path) -> Path:
    return db_path.with_name(db_path.stem + ".imports.json")


def remembered(db_path: Path) -> list[Path]:
    path = registry(db_path)
    if not path.is_file():
        return []
    try:
        return [Path(p) for p in json.loads(path.read_text(encoding="utf-8"))]
    except (OSError, json.JSONDecodeError):
        return []


def remember(db_path: Path, source: Path) -> None:
    paths = [p for p in remembered(db_path) if p.resolve() != source.resolve()] + [source.resolve()]
    registry(db_path).write_text(json.dumps([str(p) for p in paths], indent=1), encoding="utf-8")
