"""Optional import of the public card databases: printed text, type, house, cost, STR, icons…

Two formats are read (see ``shared/cards/README.md``): the 1st-edition ``agot1.json`` (one
array of cards) and the 2nd-edition throneteki folder (``packs/*.json``).  Imported cards go
in ``imported_cards`` keyed by edition and normalised title, so a card page can show the
printed text beside the errata.  The corpus never depends on an import; the paths imported
are remembered beside the database and re-applied whenever the database is rebuilt.

Every field is checked for its type: a card database with a null name or a house given as a
string instead of a list is read correctly or refused naming the file, card and field.  The
import itself is written into a copy of the database that is renamed into place
(``store.rewrite``), so an interrupted import leaves the old database whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judgekb.cards.corpus_cards import normalise_name
from judgekb.engine.scenario import KEYWORDS2
from judgekb.files import read_json_file, write_text_atomic
from judgekb.yamlio import DataError

ICON_ORDER = ("military", "intrigue", "power")
AGOT1_STATS = ("crest", "income", "initiative", "claim", "influence")  # printed values kept for cards by name
# Bounds far above any printed card (the longest title has 34 characters, the longest text some 540): a
# value beyond them is a damaged or hostile file, not a card, and would be shown on every page that names it
MAX_NAME = 200
MAX_TEXT = 20_000
MAX_STAT_TEXT = 8  # a printed value that is not a number: "X", "-", "*"
CARD_TYPES = ("character", "location", "attachment", "event", "plot", "agenda", "title", "house")  # both editions' types
STAT_RANGE = (-99, 999)  # a printed number (an SQLite integer holds no more than 19 digits: 10**30 was a traceback)


def _first_line_keywords(text: str) -> list[str]:
    """2nd-edition keywords are the first line of the text when it is only keywords ("Insight. Renown.")."""
    first = (text or "").split("\n", 1)[0]
    words = [w.strip() for w in first.split(".") if w.strip()]
    known = set(KEYWORDS2)
    if words and all(w.lower().split(" (")[0].split(" ")[0] in known or w.lower().startswith("no attachments") for w in words):
        return words
    return []


def _where(path: Path, index: int, card: dict[str, Any]) -> str:
    name = card.get("name")
    return f"{path}: card #{index}" + (f" ({name})" if isinstance(name, str) else "")


def _name(path: Path, index: int, card: Any) -> str:
    if not isinstance(card, dict):
        raise DataError(f"{path}: card #{index} must be a JSON object, got {type(card).__name__}")
    name = card.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{_where(path, index, card)}: field 'name' must be non-empty text, got {json.dumps(name)[:40]}")
    if len(name) > MAX_NAME:
        raise DataError(f"{path}: card #{index}: field 'name' is {len(name):,} characters long; a card's title is at most {MAX_NAME}")
    return name


def _text(path: Path, index: int, card: dict[str, Any], field: str) -> str:
    """A text field; a whole number is written as text, null as empty."""
    value = card.get(field)
    if value is None:
        return ""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise DataError(f"{_where(path, index, card)}: field '{field}' is {len(value):,} characters long; at most {MAX_TEXT:,}")
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise DataError(f"{_where(path, index, card)}: field '{field}' must be text, got {json.dumps(value)[:40]}")


def _number(path: Path, index: int, card: dict[str, Any], field: str) -> str | None:
    """Cost or STR: a number, or text such as "X" or "-"; stored as text."""
    value = card.get(field)
    return None if value is None else _stat(f"{_where(path, index, card)}: field '{field}'", value)


def _stat(where: str, value: Any) -> Any:
    """A printed value (income, claim, deck limit…): a whole number, null, or short text ("X", "-")."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and STAT_RANGE[0] <= value <= STAT_RANGE[1]):
        return value
    if isinstance(value, str) and len(value) <= MAX_STAT_TEXT:
        return value
    raise DataError(
        f"{where} must be a whole number {STAT_RANGE[0]} to {STAT_RANGE[1]} or a printed value such as \"X\", got {json.dumps(value)[:40]}"
    )


def _stats(path: Path, index: int, card: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """These printed values of a card, each checked (``_stat``)."""
    return {f: _stat(f"{_where(path, index, card)}: field '{f}'", card.get(f)) for f in fields}


def _type(path: Path, index: int, card: dict[str, Any], field: str) -> str | None:
    """A card's type, one of CARD_TYPES in any case, or none ("Spaceship" was imported, and checked as a draw card)."""
    kind = _text(path, index, card, field) or None
    if kind is not None and kind.lower() not in CARD_TYPES:
        raise DataError(f"{_where(path, index, card)}: field '{field}' must be one of {', '.join(CARD_TYPES)}; got {kind[:40]!r}")
    return kind


def _json(path: Path, what: str) -> Any:
    """A card file's JSON (``files.read_json_file``: a regular file, standard JSON, text Unicode can hold)."""
    try:
        return read_json_file(path)
    except DataError as exc:
        raise DataError(f"{exc} ({what})") from None


def _unique_codes(rows: list[dict[str, Any]], places: list[tuple[Path, str]]) -> None:
    """A card's code is its identity (lists, printings and deck checks name cards by it): one card each.
    ``places``: each row's file and where in it (``_where``)."""
    seen: dict[str, tuple[Path, str]] = {}
    for row, (file, place) in zip(rows, places, strict=True):
        code = row["code"]
        if code and code in seen:
            first_file, first = seen[code]
            first = first.removeprefix(f"{file}: ") if first_file == file else first  # (the same file: named once)
            raise DataError(f"{place}: code {code!r} is already the code of {first}; each card needs its own")
        if code:
            seen[code] = (file, place)


def _words(path: Path, index: int, card: dict[str, Any], field: str) -> str:
    """A list of words (houses, traits, icons) joined with commas; a single string is one word, not letters."""
    value = card.get(field)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    raise DataError(f"{_where(path, index, card)}: field '{field}' must be a list of text, got {json.dumps(value)[:60]}")


def read_agot1(path: Path) -> list[dict[str, Any]]:
    data = _json(path, "not a readable JSON card database")
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON array of cards (the agot1.json format)")
    rows: list[dict[str, Any]] = []
    places: list[tuple[Path, str]] = []
    for index, card in enumerate(data):
        name = _name(path, index, card)
        stats = _stats(path, index, card, ("income", "initiative", "claim", "influence", "limit"))
        _words(path, index, card, "crest")  # (checked: a list of the crests' words, kept as it is)
        stats["crest"] = card.get("crest")
        places.append((path, _where(path, index, card)))
        rows.append(
            {
                "edition": 1,
                "key": normalise_name(name),
                "name": name,
                "code": _text(path, index, card, "id") or None,
                "set": _text(path, index, card, "set") or None,
                "number": _text(path, index, card, "number"),
                "type": _type(path, index, card, "card_type"),
                "house": _words(path, index, card, "house"),
                "cost": _number(path, index, card, "cost"),
                "strength": _number(path, index, card, "strength"),
                "icons": _words(path, index, card, "icons"),
                "traits": _words(path, index, card, "traits"),
                "keywords": "",
                "unique": bool(card.get("unique")),
                "text": _text(path, index, card, "rules_text"),
                "errata_text": json.dumps(card.get("erratas") or [], ensure_ascii=False),
                "cycle": str(card.get("id") or "").rsplit("_", 1)[0],  # "cad_76": the cycle the FAQ's "C&D F76" names
                "income": stats["income"],
                "initiative": stats["initiative"],
                "claim": stats["claim"],
                "reserve": None,
                "influence": stats["influence"],
                "stats": json.dumps({k: stats[k] for k in AGOT1_STATS if stats[k] not in (None, [])}),
                "pack": card.get("set"),
                "released": None,
                "loyal": False,
                "deck_limit": stats["limit"],
                "source": str(path),
            }
        )
    _unique_codes(rows, places)
    return rows


def _cycles(folder: Path) -> dict[str, str]:
    """Pack code -> cycle name ("NMG" -> "Westeros Cycle"): the FAQ cites chapter-pack cards by cycle."""
    try:  # (a nicety: without it, chapter-pack cards are named without their cycle)
        data = read_json_file(folder / "cycles.json") if (folder / "cycles.json").exists() else []
    except DataError:
        return {}
    cycles = data if isinstance(data, list) else []
    return {
        str(pack): str(c.get("name") or "")
        for c in cycles if isinstance(c, dict) and isinstance(c.get("packs"), list) for pack in c["packs"]
    }  # fmt: skip


def read_throneteki(folder: Path) -> list[dict[str, Any]]:
    packs = sorted((folder / "packs").glob("*.json"))
    if not packs:
        raise DataError(f"{folder}: no packs/*.json (the throneteki format)")
    cycles = _cycles(folder)
    rows: list[dict[str, Any]] = []
    places: list[tuple[Path, str]] = []
    for pack_path in packs:
        pack = _json(pack_path, "not readable JSON")
        if not isinstance(pack, dict) or not isinstance(pack.get("cards"), list):  # ("cards": null dropped a pack's 211 cards)
            raise DataError(f"{pack_path}: expected a JSON object with a 'cards' list (the throneteki pack format)")
        pack_name = pack.get("name") if isinstance(pack.get("name"), str) else None
        for index, card in enumerate(pack["cards"]):
            name = _name(pack_path, index, card)
            icons = card.get("icons") or {}
            if not isinstance(icons, dict):
                raise DataError(f"{_where(pack_path, index, card)}: field 'icons' must be an object such as {{\"military\": true}}")
            text = _text(pack_path, index, card, "text")
            code = _text(pack_path, index, card, "code").strip()
            if not code:  # the card's identity: lists, printings and deck checks name cards by code
                raise DataError(f"{_where(pack_path, index, card)}: field 'code' must be the card's code, such as \"01001\"; got none")
            plot = card.get("plotStats") if isinstance(card.get("plotStats"), dict) else {}
            place = _where(pack_path, index, card)
            plot = {f: _stat(f"{place}: field 'plotStats.{f}'", plot.get(f)) for f in ("income", "initiative", "claim", "reserve")}
            deck_limit = _stat(f"{place}: field 'deckLimit'", card.get("deckLimit"))
            places.append((pack_path, place))
            rows.append(
                {
                    "edition": 2,
                    "key": normalise_name(name),
                    "name": name,
                    "code": code or None,
                    "set": pack_name,
                    "number": code[-3:].lstrip("0"),
                    "type": _type(pack_path, index, card, "type"),
                    "house": _text(pack_path, index, card, "faction") or None,
                    "cost": _number(pack_path, index, card, "cost"),
                    "strength": _number(pack_path, index, card, "strength"),
                    "icons": ", ".join(i for i in ICON_ORDER if icons.get(i)),
                    "traits": _words(pack_path, index, card, "traits"),
                    "keywords": ", ".join(_first_line_keywords(text)),
                    "unique": bool(card.get("unique")),
                    "text": text,
                    "errata_text": json.dumps(card.get("errata") or [], ensure_ascii=False),
                    "cycle": cycles.get(str(pack.get("code") or ""), ""),
                    "income": plot.get("income"),
                    "initiative": plot.get("initiative"),
                    "claim": plot.get("claim"),
                    "reserve": plot.get("reserve"),
                    "influence": None,
                    "stats": json.dumps({k: card.get(k) for k in ("loyal", "plotStats", "deckLimit") if card.get(k) is not None}),
                    "pack": pack.get("code"),
                    "released": pack.get("releaseDate"),
                    "loyal": bool(card.get("loyal")),
                    "deck_limit": deck_limit,
                    "source": str(folder),
                }
            )
    _unique_codes(rows, places)
    return rows


def _is_database(folder: Path) -> bool:
    """A throneteki folder (packs/), or a folder with agot1.json."""
    return (folder / "packs").is_dir() or (folder / "agot1.json").is_file()


def sources(path: Path) -> list[Path]:
    """The card databases ``path`` holds: itself (agot1.json, a throneteki folder, a folder with
    agot1.json), else each such folder directly inside it, in name order (the public copies kept
    side by side, as ``../shared/cards`` keeps agot1/ and agot2-throneteki/: one command imports both)."""
    if path.is_dir() and not _is_database(path):
        inside = sorted(p for p in path.iterdir() if p.is_dir() and _is_database(p))
        if inside:
            return inside
    return [path]


def read(path: Path) -> list[dict[str, Any]]:
    """Rows from either format; the path decides which."""
    if path.is_dir():
        if (path / "packs").is_dir():
            return read_throneteki(path)
        if (path / "agot1.json").is_file():
            return read_agot1(path / "agot1.json")
        raise DataError(f"{path}: neither a throneteki folder (packs/) nor a folder with agot1.json, nor a folder holding them")
    if path.is_file():
        return read_agot1(path)
    if path.exists():
        raise DataError(f"{path}: not a regular file or folder (a FIFO or device)")
    raise DataError(f"{path}: no such file or folder")


def apply(db: Any, rows: list[dict[str, Any]]) -> int:
    """Replace the imported cards of the editions in ``rows``; returns how many were written."""
    if not rows:
        return 0
    editions = sorted({r["edition"] for r in rows})
    if db["imported_cards"].exists():
        db.execute(f"delete from imported_cards where edition in ({','.join('?' * len(editions))})", editions)
    columns: dict[str, type] = {
        "cost": str, "strength": str, "cycle": str, "income": str, "initiative": str, "claim": str, "reserve": str, "influence": str
    }
    columns |= {"released": str, "deck_limit": int}
    db["imported_cards"].insert_all(rows, columns=columns, alter=True)
    db["imported_cards"].create_index(["edition", "key"], if_not_exists=True)
    db.conn.commit()
    return len(rows)


def import_path(db: Any, path: Path) -> tuple[int, list[int], int]:
    """Import the cards at ``path`` and, for a throneteki folder, its dated restricted lists.

    Returns (cards, editions, lists).  Everything is read (and checked) before anything is written.
    """
    _, count, editions, lists = import_paths(db, [path])[0]
    return count, editions, lists


def import_paths(db: Any, paths: list[Path]) -> list[tuple[Path, int, list[int], int]]:
    """``import_path`` for several databases (``sources``): (path, cards, editions, lists) for each.
    All are read and checked before any is written, and two of one edition are refused (the second
    would replace the first)."""
    from judgekb.cards import restricted_lists

    read_all = []
    first_of: dict[int, Path] = {}
    for path in paths:
        rows = read(path)
        editions = sorted({r["edition"] for r in rows})
        for edition in editions:
            if edition in first_of:
                raise DataError(f"{path}: a second card database of edition {edition} (the first: {first_of[edition]}); import one of them")
            first_of[edition] = path
        list_file = restricted_lists.find_file(path)
        lists = restricted_lists.read(list_file) if list_file else []
        if not rows:  # ('[]': "imported 0 cards (edition )", and the file remembered for every build)
            raise DataError(f"{path}: holds no cards; nothing was imported")
        read_all.append((path, rows, editions, list_file, lists))
    done = []
    for path, rows, editions, list_file, lists in read_all:
        count = apply(db, rows)
        if list_file:
            restricted_lists.apply(db, lists, list_file)
        done.append((path, count, editions, len(lists)))
    return done


def registry(db_path: Path) -> Path:
    return db_path.with_name(db_path.stem + ".imports.json")


def remembered(db_path: Path) -> list[Path]:
    path = registry(db_path)
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecursionError, ValueError):
        return []
    return [Path(p) for p in data if isinstance(p, str)] if isinstance(data, list) else []


def remember(db_path: Path, source: Path) -> None:
    """Add ``source`` to the imports re-applied on rebuild (written to a temporary file, then renamed)."""
    paths = [p for p in remembered(db_path) if p.resolve() != source.resolve()] + [source.resolve()]
    write_text_atomic(registry(db_path), json.dumps([str(p) for p in paths], indent=1))
