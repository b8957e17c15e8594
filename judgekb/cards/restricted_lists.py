"""The dated second-edition restricted and banned lists, imported with the throneteki card data.

``restricted-list.json`` (beside ``packs/`` in a throneteki folder) holds one entry per list the
organised-play team (earlier FFG, the Conclave, the Design Team, the G.O.T.) published: name,
issuer, version, date, card pool (``cardSet``), and per format (joust, melee) the restricted
cards, the pods and the banned cards, plus a top-level ``bannedCards`` (printings the list's card
pool excludes: originals replaced by redesigns, or redesigns under an "original" list).

Tables (written by ``apply``, replaced on every import):

* ``restricted_lists``         code, name, issuer, version, date, card_set, url_joust, url_melee, seq, source;
* ``restricted_list_cards``    list, format (``joust``/``melee``, or ``all`` for ``bannedCards``), status
                               (``restricted``/``banned``), card (a card code);
* ``restricted_list_pods``     list, format, pod (its number on the list, from 1), restricted (the card
                               whose presence forbids the others, or null: then at most one of ``cards``),
                               cards (JSON list of codes).

A list is cited by its name, issuer and date (``citation``); none of this text is rules text.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekb.files import read_json_file
from judgekb.yamlio import DataError

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # the lists are ordered and compared by their dates as text


def _real_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True

FILE_NAME = "restricted-list.json"
FORMATS = ("joust", "melee")


@dataclass(frozen=True)
class Pod:
    """Cards that cannot share a deck: with ``restricted`` set, none of ``cards`` beside it; else at most one."""

    number: int
    cards: tuple[str, ...]
    restricted: str | None = None


@dataclass
class FormatList:
    """One format's part of a list."""

    restricted: list[str] = field(default_factory=list)
    banned: list[str] = field(default_factory=list)
    pods: list[Pod] = field(default_factory=list)
    url: str | None = None


@dataclass
class RestrictedList:
    """One dated list as published."""

    code: str
    name: str
    issuer: str
    version: str
    date: str  # ISO date the list took effect
    card_set: str  # the card pool: original, redesign, redesign2
    formats: dict[str, FormatList]
    banned_cards: list[str]  # top-level bannedCards: excluded from every format
    seq: int = 0  # position in the file (oldest first)

    def citation(self, fmt: str | None = None, part: str | None = None) -> str:
        """``Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01), joust restricted list``."""
        tail = " ".join(p for p in (fmt, part) if p)
        return f"{self.name} ({self.issuer}, {self.date})" + (f", {tail}" if tail else "")


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(f"{where}: expected a list of card codes")
    return list(value)


def read(path: Path) -> list[RestrictedList]:
    """Every list in ``restricted-list.json``.  Raises DataError naming the entry and field at fault."""
    try:
        data = read_json_file(path)  # (a regular file, standard JSON, text Unicode can hold)
    except DataError as exc:
        raise DataError(f"{exc} (not a readable JSON restricted list)") from None
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON array of lists")
    out: list[RestrictedList] = []
    seen: dict[tuple[str, str], int] = {}  # (field, value) -> the list number that has it
    for seq, entry in enumerate(data):
        where = f"{path}: list #{seq + 1}"
        if not isinstance(entry, dict):
            raise DataError(f"{where}: expected an object")
        for key in ("code", "name", "date", "formats"):
            if key not in entry:
                raise DataError(f"{where}: missing field '{key}'")
        for key in ("code", "name"):
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise DataError(f"{where}: field '{key}' must be non-empty text; got {json.dumps(entry[key])[:40]}")
        where = f"{path}: list '{entry['name']}'"
        for key in ("code", "name"):  # (a list is chosen by its name: 'deckcheck --list "Standard v2.1"')
            first = seen.setdefault((key, entry[key]), seq + 1)
            if first != seq + 1:
                said = f"field '{key}' {entry[key]!r} is already list #{first}'s"
                raise DataError(f"{path}: list #{seq + 1}: {said}; each list needs its own")
        if not isinstance(entry["date"], str) or not ISO_DATE.fullmatch(entry["date"]) or not _real_date(entry["date"]):
            raise DataError(f"{where}: field 'date' must be a date such as \"2024-01-22\"; got {json.dumps(entry['date'])[:40]}")
        formats: dict[str, FormatList] = {}
        if not isinstance(entry["formats"], list):
            raise DataError(f"{where}: field 'formats' must be a list")
        for fmt in entry["formats"]:
            if not isinstance(fmt, dict) or fmt.get("name") not in FORMATS:
                raise DataError(f"{where}: field 'formats': each needs a name, one of {', '.join(FORMATS)}")
            here = f"{where}, format {fmt['name']}"
            pods = []
            for number, pod in enumerate(fmt.get("pods") or [], start=1):
                if not isinstance(pod, dict):
                    raise DataError(f"{here}: pod #{number} is not an object")
                restricted = pod.get("restricted")
                if restricted is not None and not isinstance(restricted, str):
                    raise DataError(f"{here}: pod #{number}: field 'restricted' must be a card code")
                pods.append(Pod(number, tuple(_strings(pod.get("cards"), f"{here}: pod #{number}: field 'cards'")), restricted))
            formats[fmt["name"]] = FormatList(
                restricted=_strings(fmt.get("restricted") or [], f"{here}: field 'restricted'"),
                banned=_strings(fmt.get("banned") or [], f"{here}: field 'banned'"),
                pods=pods,
                url=fmt.get("url"),
            )
        out.append(
            RestrictedList(
                code=str(entry["code"]),
                name=str(entry["name"]).replace("  ", " "),
                issuer=str(entry.get("issuer") or "unknown issuer"),
                version=str(entry.get("version") or ""),
                date=str(entry["date"]),
                card_set=str(entry.get("cardSet") or ""),
                formats=formats,
                banned_cards=_strings(entry.get("bannedCards") or [], f"{where}: field 'bannedCards'"),
                seq=seq,
            )
        )
    return out


def find_file(path: Path) -> Path | None:
    """The restricted-list file of a throneteki folder being imported, if it has one: anything of that name, so that
    ``read`` refuses a folder or a FIFO by name (it was skipped without a word, and no dated lists imported)."""
    candidate = path / FILE_NAME if path.is_dir() else None
    return candidate if candidate and os.path.lexists(candidate) else None


def apply(db: Any, lists: list[RestrictedList], source: Path) -> int:
    """Replace the stored lists with ``lists`` (one transaction); returns how many were written."""
    with db.conn:
        for table in ("restricted_lists", "restricted_list_cards", "restricted_list_pods"):
            if db[table].exists():
                db.execute(f"delete from {table}")
        db["restricted_lists"].insert_all(
            (
                {
                    "code": rl.code,
                    "name": rl.name,
                    "issuer": rl.issuer,
                    "version": rl.version,
                    "date": rl.date,
                    "card_set": rl.card_set,
                    "url_joust": rl.formats.get("joust", FormatList()).url,
                    "url_melee": rl.formats.get("melee", FormatList()).url,
                    "seq": rl.seq,
                    "source": str(source),
                }
                for rl in lists
            ),
            pk="code",
            columns={"url_joust": str, "url_melee": str},
        )
        cards = [{"list": rl.code, "format": "all", "status": "banned", "card": code} for rl in lists for code in rl.banned_cards]
        for rl in lists:
            for name, fmt in rl.formats.items():
                cards += [{"list": rl.code, "format": name, "status": "restricted", "card": c} for c in fmt.restricted]
                cards += [{"list": rl.code, "format": name, "status": "banned", "card": c} for c in fmt.banned]
        db["restricted_list_cards"].insert_all(cards, columns={"list": str, "format": str, "status": str, "card": str})
        pods = [
            {"list": rl.code, "format": name, "pod": pod.number, "restricted": pod.restricted, "cards": json.dumps(list(pod.cards))}
            for rl in lists
            for name, fmt in rl.formats.items()
            for pod in fmt.pods
        ]
        db["restricted_list_pods"].insert_all(pods, columns={"list": str, "format": str, "pod": int, "restricted": str, "cards": str})
        db["restricted_list_cards"].create_index(["card"], if_not_exists=True)
    return len(lists)


NAMES_SQL = 'select code, name, "set" from imported_cards where edition = 2'


def _kept(db: Any, name: str, make: Any) -> Any:
    """A memo kept on the database object, dropped as soon as its connection writes: every card page asks for the lists."""
    entry = db.__dict__.setdefault("_judgekb_kept", {})
    if entry.get("changes") != db.conn.total_changes:
        entry.clear()
        entry["changes"] = db.conn.total_changes
    if name not in entry:
        entry[name] = make()
    return entry[name]


def load(db: Any) -> list[RestrictedList]:
    """The stored lists, oldest first (empty when no throneteki data was imported)."""
    return list(_kept(db, "lists", lambda: _load(db)))


def _load(db: Any) -> list[RestrictedList]:
    if not db["restricted_lists"].exists():
        return []
    lists = {}
    for row in db.query("select * from restricted_lists order by seq"):
        formats = {f: FormatList(url=row[f"url_{f}"]) for f in FORMATS}
        lists[row["code"]] = RestrictedList(
            row["code"], row["name"], row["issuer"], row["version"], row["date"], row["card_set"], formats, [], row["seq"]
        )
    for row in db.query("select * from restricted_list_cards order by rowid"):
        rl = lists[row["list"]]
        if row["format"] == "all":
            rl.banned_cards.append(row["card"])
        else:
            getattr(rl.formats[row["format"]], row["status"]).append(row["card"])
    for row in db.query("select * from restricted_list_pods order by rowid"):
        lists[row["list"]].formats[row["format"]].pods.append(Pod(row["pod"], tuple(json.loads(row["cards"])), row["restricted"]))
    return list(lists.values())


def newest(lists: list[RestrictedList]) -> RestrictedList | None:
    """The list in force by default: the latest date (the file's order breaks ties)."""
    return max(lists, key=lambda rl: (rl.date, rl.seq), default=None)


def by_name(lists: list[RestrictedList], name: str) -> RestrictedList | None:
    """A list by its name or code, ignoring case and spacing ("standard v1.16", "gotstandard1.16")."""
    key = " ".join(name.split()).casefold()
    for rl in lists:
        if key in (rl.name.casefold(), rl.code.casefold()):
            return rl
    return None


def _statuses(rl: RestrictedList, code: str, names: dict[str, str]) -> list[str]:
    """What one list says about one printing, in words: "joust restricted", "melee pod #3 (with X)"."""
    out = ["banned: outside this list's card pool (a printing the list bans)"] if code in rl.banned_cards else []
    for fmt_name, fmt in rl.formats.items():
        if code in fmt.restricted:
            out.append(f"{fmt_name} restricted")
        if code in fmt.banned:
            out.append(f"{fmt_name} banned")
        for pod in fmt.pods:
            members = [*pod.cards, *([pod.restricted] if pod.restricted else [])]
            if code in members:
                others = ", ".join(names.get(c, c) for c in members if c != code)
                out.append(f"{fmt_name} pod #{pod.number} (not with {others})")
    return out


def _fold(status: list[str]) -> list[str]:
    return [re.sub(r"pod #\d+", "pod", s) for s in status]


def card_section(db: Any, printings: list[tuple[str, str]]) -> dict[str, Any] | None:
    """The list in force and the history of each printing ``(code, label)``, for card pages.

    History is folded into runs of consecutive lists that said the same thing.  None when no
    list was imported.
    """
    lists = load(db)
    current = newest(lists)
    if current is None:
        return None
    codes = {code for code, _ in printings}
    names = (
        _kept(db, "names", lambda: {r["code"]: f"{r['name']} ({r['set']})" for r in db.query(NAMES_SQL)})
        if codes
        else {}
    )
    out: dict[str, Any] = {"in_force": {"list": current.name, "citation": current.citation()}, "printings": []}
    for code, label in printings:
        if code.startswith("00"):
            continue  # draft sets and alternate art: not on the joust/melee lists
        runs: list[dict[str, Any]] = []
        for rl in lists:
            status = _statuses(rl, code, names)
            if runs and _fold(runs[-1]["status"]) == _fold(status):  # a pod renumbered is the same verdict
                runs[-1].update(to=rl.name, to_date=rl.date, status=status)
                if rl.issuer not in runs[-1]["issuer"]:
                    runs[-1]["issuer"] += f"; {rl.issuer}"
            else:
                runs.append(
                    {"from": rl.name, "from_date": rl.date, "to": rl.name, "to_date": rl.date, "issuer": rl.issuer, "status": status}
                )
        history = [r for r in runs if r["status"]]
        out["printings"].append(
            {"code": code, "printing": label, "in_force": _statuses(current, code, names) or ["legal, not restricted"], "history": history}
        )
    return out


# ---------------------------------------------------------------------------- search notes

TITLE_WORD = re.compile(r"[0-9a-z]+(?:'[a-z]+)?")


class CardStatusNotes:
    """For second-edition lookups: the status, under the list in force, of each card a query names.

    Reads the imported tables over a plain sqlite3 connection (lookup starts without sqlite-utils),
    and only the titles that begin with one of the query's words (an index range on the stored
    title key), so a one-off command-line lookup stays fast.  A one-word title that is also an
    everyday or rules word ("Taxation", "Summer", "Left") names the card only when it is the whole
    query, so "taxation phase" is not read as the card Taxation.
    """

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._loaded = False
        self.current: RestrictedList | None = None
        self.titles: dict[str, list[tuple[tuple[str, ...], list[tuple[str, str]]]]] = {}  # first word -> (title words, printings)
        self.names: dict[str, str] = {}  # code -> "Name (Set)", for pod partners

    def _load(self) -> None:
        self._loaded = True
        rows = self.conn.execute("select name from sqlite_master where name in ('restricted_lists', 'imported_cards')").fetchall()
        if len(rows) < 2:
            return
        newest_row = self.conn.execute(
            "select code, name, issuer, version, date, card_set, seq from restricted_lists order by date desc, seq desc limit 1"
        ).fetchone()
        if newest_row is None:
            return
        code, name, issuer, version, date, card_set, seq = newest_row
        formats = {f: FormatList() for f in FORMATS}
        current = RestrictedList(code, name, issuer, version, date, card_set, formats, [], seq)
        for fmt, status, card in self.conn.execute(
            "select format, status, card from restricted_list_cards where list = ? order by rowid", [code]
        ):
            if fmt == "all":
                current.banned_cards.append(card)
            elif fmt in formats:
                getattr(formats[fmt], status).append(card)
        for fmt, pod, restricted, cards in self.conn.execute(
            "select format, pod, restricted, cards from restricted_list_pods where list = ? order by rowid", [code]
        ):
            if fmt in formats:
                formats[fmt].pods.append(Pod(pod, tuple(json.loads(cards)), restricted))
        self.current = current
        members = {c for f in formats.values() for pod in f.pods for c in (*pod.cards, *([pod.restricted] if pod.restricted else []))}
        members |= {c for f in formats.values() for c in (*f.restricted, *f.banned)}  # (for ``contents``)
        if members:
            marks = ",".join("?" * len(members))
            for card_code, card_name, card_set in self.conn.execute(
                f'select code, name, "set" from imported_cards where edition = 2 and code in ({marks})', sorted(members)
            ):
                self.names[card_code] = f"{card_name} ({card_set})"

    def _titles(self, word: str) -> list[tuple[tuple[str, ...], list[tuple[str, str]]]]:
        """The titles whose first word is ``word``, longest first, each with its printings (cached)."""
        if word not in self.titles:
            by_title: dict[tuple[str, ...], list[tuple[str, str]]] = {}
            for card_code, card_name, card_set, number in self.conn.execute(
                'select code, name, "set", number from imported_cards where edition = 2 and key >= ? and key < ? order by code',
                [word, word + "~"],
            ):
                words = tuple(TITLE_WORD.findall(card_name.lower().replace("’", "'")))
                if words and words[0] == word and not card_code.startswith("00"):  # 00: draft sets, alternate art
                    by_title.setdefault(words, []).append((card_code, f"{card_name} ({card_set} {number})"))
            self.titles[word] = sorted(by_title.items(), key=lambda e: -len(e[0]))  # "Robb Stark" inside "Robb Stark's Fury"...
        return self.titles[word]

    def notes(self, words: list[str], common: Any) -> list[str]:
        """One note per card named in ``words`` (the query's words, lower-cased); ``common(word)`` says
        whether a word is an everyday or rules word (then a one-word title must be the whole query)."""
        if not self._loaded:
            self._load()
        if self.current is None:
            return []
        out, taken = [], [False] * len(words)
        for start, word in enumerate(words):
            for title, printings in self._titles(word):
                end = start + len(title)
                if tuple(words[start:end]) != title or any(taken[start:end]):
                    continue
                if len(title) == 1 and len(words) > 1 and common(word):
                    continue
                for i in range(start, end):
                    taken[i] = True
                out.append(self.note(printings))
                break
        return out

    def notes_for_titles(self, titles: list[str]) -> list[str]:
        """One note per card title (named otherwise than word for word: "euron" for Euron Crow's Eye,
        "hand's judgment" for The Hand's Judgment)."""
        if not self._loaded:
            self._load()
        if self.current is None:
            return []
        out = []
        for name in titles:
            words = tuple(TITLE_WORD.findall(name.lower().replace("’", "'")))
            printings = next((p for title, p in self._titles(words[0]) if title == words), None) if words else None
            if printings:
                out.append(self.note(printings))
        return out

    def contents(self, formats: tuple[str, ...], restricted: bool = True, banned: bool = True) -> list[str]:
        """What the list in force holds in these formats, by name and set: its restricted cards and pods,
        its banned cards, or both ("what's on the joust restricted list" asks for the list, not one card),
        one part a note, so that each reads as its own paragraph on the search page."""
        if not self._loaded:
            self._load()
        if self.current is None:
            return []

        def named(codes: Any) -> str:
            return ", ".join(self.names.get(c, c) for c in codes)

        parts = []
        for fmt in formats:
            part = self.current.formats.get(fmt)
            if part is None:
                continue
            if restricted:
                parts.append(f"{fmt} restricted ({len(part.restricted)}): {named(part.restricted) or 'none'}")
                pods = [
                    f"#{pod.number} {self.names.get(pod.restricted, pod.restricted)} with none of {named(pod.cards)}" if pod.restricted
                    else f"#{pod.number} at most one of {named(pod.cards)}"
                    for pod in part.pods
                ]  # fmt: skip
                if pods:
                    parts.append(f"{fmt} pods ({len(pods)}): {'; '.join(pods)}")
            if banned:
                parts.append(f"{fmt} banned ({len(part.banned)}): {named(part.banned) or 'none'}")
        return parts

    @staticmethod
    def marker(rl: RestrictedList) -> str:
        return f" - {rl.name}, {rl.issuer}, {rl.date}"

    def note(self, printings: list[tuple[str, str]]) -> str:
        """``Robb Stark (Core Set 146): joust restricted, melee restricted - Standard v2.1, issuer, date``
        (an ASCII dash: notes travel in the JSON API's header, which is Latin-1)."""
        assert self.current is not None
        rl = self.current
        parts = [f"{label}: {', '.join(_statuses(rl, code, self.names)) or 'legal, not restricted'}" for code, label in printings]
        return "; ".join(parts) + self.marker(rl)
