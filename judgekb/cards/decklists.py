"""Decklists as players hand them in, read into plain entries with the line each came from.

Three shapes are read:

* ThronesDB's plain-text export: a title, the faction ("House Stark"), the agenda(s), a "Packs:"
  line, then sections ("Plot (7)", "Character (33):" ...) of ``3x Card Name (Pack)`` lines;
* ThronesDB's JSON (``faction_code``, ``agendas``, ``slots`` of card code → count);
* a plain list of ``count name`` lines (``3 Val``, ``3x Val``, ``Val x3``), the pack or set in
  parentheses when the player gives it ("Val (Return of the Others)", "Val (DotN F117)").

Parsing knows no cards: names are resolved against the imported card data by ``deckcheck``.
A line that cannot be read raises ``DataError`` as ``file:line: what: problem; got 'text'``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from judgekb.engine.guard import MAX_NAME_CHARS
from judgekb.files import NESTED, JSONError, read_input, read_json
from judgekb.yamlio import DataError

MAX_LINES = 2000  # also the most card codes a JSON list's slots may hold
MAX_BYTES = 256 * 1024  # a decklist file or stdin: the web's request cap (a real list is under 4 KB)
MAX_COUNT = 99
Shape = Literal["thronesdb-text", "thronesdb-json", "plain"]

COUNT_FIRST = re.compile(r"^(?P<count>\d{1,4})\s*[x×]?\s+(?P<rest>\S.*?)\s*$", re.IGNORECASE)
COUNT_LAST = re.compile(r"^(?P<rest>\S.*?)\s+[x×](?P<count>\d{1,4})\s*$", re.IGNORECASE)
# A count below zero ("-3x Val", "Val x-3") or of five digits or more: a card line with a count no deck has, not the
# deck's title (nor "no card lines found")
NEGATIVE_COUNT = re.compile(r"^[-−–]\d{1,4}\s*[x×]?\s+\S|\s[x×]\s*[-−–]\d{1,4}\s*$", re.IGNORECASE)
LONG_COUNT = re.compile(r"^\d{5,}\s*[x×]?\s+\S|\s[x×]\d{5,}\s*$", re.IGNORECASE)  # (five digits or more: no count)
PACK = re.compile(r"^(?P<name>.*?\S)\s*\((?P<pack>[^()]+)\)$")
SECTIONS = {  # header word -> the part of the deck it opens
    "agenda": "agenda", "agendas": "agenda", "plot": "plot", "plots": "plot", "plot deck": "plot",
    "attachment": "draw", "attachments": "draw", "character": "draw", "characters": "draw", "event": "draw",
    "events": "draw", "location": "draw", "locations": "draw", "draw deck": "draw", "deck": "draw", "house deck": "draw",
}  # fmt: skip
SECTION = re.compile(r"^(?P<word>[A-Za-z][A-Za-z ]*?)\s*(?:\((?P<n>\d+)(?: cards?)?\))?\s*:?\s*$")
LABELLED = re.compile(r"^(?P<label>faction|house|agendas?)\s*:\s*(?P<value>\S.*)$", re.IGNORECASE)
SKIP = re.compile(r"^(?:packs?\s*:|total\b|cards? up to\b|#|//|-{3,}|={3,})", re.IGNORECASE)


@dataclass(frozen=True)
class Entry:
    """One line of a decklist naming a card (or a bare name in the heading lines)."""

    count: int
    name: str  # as written, without the count and the pack
    line: int  # 1-based line number in the file
    text: str  # the whole line as written, for the judge's sheet
    pack: str | None = None  # pack or set as written in parentheses
    section: str | None = None  # the part of the deck its header opens: agenda, plot or draw
    code: str | None = None  # a card code (ThronesDB JSON)
    bare: bool = False  # a heading line without a count: the deck's title, faction or agenda


@dataclass
class Decklist:
    """A parsed decklist: card entries, bare heading names, and the faction if the file states it."""

    source: str
    shape: Shape
    entries: list[Entry] = field(default_factory=list)
    bare: list[Entry] = field(default_factory=list)
    faction_code: str | None = None  # ThronesDB JSON only; text lists name the faction in ``bare``
    agenda_codes: list[str] = field(default_factory=list)
    title: str | None = None
    heading_end: int = 0  # a ThronesDB text export: the "Packs:" line that ends its heading (title, faction, agendas)


def _bad(source: str, line: int, problem: str, text: str) -> DataError:
    if len(text) > 80:  # a long line is shown by its start: the message stays one line
        return DataError(f"{source}:{line}: {problem}; got {text[:80]!r}… ({len(text):,} characters)")
    return DataError(f"{source}:{line}: {problem}; got {text!r}")


def _name_checked(source: str, line: int, name: str, raw: str) -> str:
    """A card name within ``MAX_NAME_CHARS``: longer only costs fuzzy-matching time (a 100,000-character line took 15 s)."""
    if len(name) > MAX_NAME_CHARS:
        raise _bad(source, line, f"a card name has at most {MAX_NAME_CHARS} characters", raw.strip())
    return name


def _card_line(source: str, number: int, raw: str, text: str, section: str | None) -> Entry | None:
    match = COUNT_FIRST.match(text) or COUNT_LAST.match(text)
    if not match and (NEGATIVE_COUNT.search(text) or LONG_COUNT.search(text)):
        raise _bad(source, number, f"card count must be 1 to {MAX_COUNT}", raw)
    if not match:
        return None
    count = int(match["count"])
    if not 1 <= count <= MAX_COUNT:
        raise _bad(source, number, f"card count must be 1 to {MAX_COUNT}", raw)
    rest = match["rest"].strip()
    pack = None
    with_pack = PACK.match(rest)
    if with_pack:
        rest, pack = with_pack["name"].strip(), with_pack["pack"].strip()
    if not re.search(r"[A-Za-z]", rest):
        raise _bad(source, number, "no card name after the count", raw)
    return Entry(count, _name_checked(source, number, rest, raw), number, raw.strip(), pack, section)


def _heading_line(source: str, number: int, raw: str, stripped: str, section: str | None) -> Entry:
    """A line naming no count: the deck's title, its faction or an agenda ("Faction: House Stark", "Agenda: Fealty",
    a pack in parentheses); a labelled agenda is in the agenda section, any other line in ``section``."""
    labelled = LABELLED.match(stripped)
    if labelled:
        stripped = labelled["value"].strip()
        section = "agenda" if labelled["label"].lower().startswith("agenda") else section
    bare = PACK.match(stripped)
    name, pack = (bare["name"], bare["pack"]) if bare else (stripped, None)
    return Entry(1, _name_checked(source, number, name.strip(), raw), number, raw.strip(), pack, section, bare=True)


HEADING_MAX_LINES = 12  # an export's heading: its title, the faction, a few agendas and blank lines


def _export_heading_end(lines: list[str]) -> int:
    """The line of ThronesDB's "Packs: …" when it ends an export's heading (0 when the list has none): near the top, and
    before any section header — a "Packs:" line further down, or after "Plot (7)", heads nothing."""
    for number, raw in enumerate(lines[:HEADING_MAX_LINES], start=1):
        stripped = raw.strip()
        if re.match(r"^packs?\s*:", stripped, re.IGNORECASE):
            return number
        header = SECTION.match(stripped)
        if header and header["word"].strip().lower() in SECTIONS:
            return 0
    return 0


def parse_text(text: str, source: str) -> Decklist:
    """A ThronesDB text export or a plain ``count name`` list.  Raises DataError on a line it cannot read."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DataError(f"{source}: a decklist may have at most {MAX_LINES} lines; got {len(lines)}")
    deck = Decklist(source, "plain")
    section: str | None = None
    typed = False  # under a header that lists cards of one kind (plots, characters…), where no heading line stands
    # ThronesDB's export heads the list with the deck's title, the faction and the agendas, then "Packs: …": a line
    # above "Packs:" is a heading line even when it reads like a card line (a title such as "59 draw, 8 plots")
    packs_line = _export_heading_end(lines)
    deck.heading_end = packs_line
    for number, raw in enumerate(lines, start=1):
        stripped = re.sub(r"^[•*–-]\s+", "", raw.strip())
        if not stripped or SKIP.match(stripped):
            if stripped.lower().startswith("packs"):
                deck.shape = "thronesdb-text"
            continue
        if number < packs_line:  # the export's heading (title, faction, agendas): never a card line
            deck.bare.append(_heading_line(source, number, raw, stripped, None))
            continue
        header = SECTION.match(stripped)
        if header and header["word"].strip().lower() in SECTIONS:
            section = SECTIONS[header["word"].strip().lower()]
            typed = header["word"].strip().lower() not in ("deck", "draw deck", "house deck")
            if header["n"] is not None:
                deck.shape = "thronesdb-text"
            continue
        entry = _card_line(source, number, raw, stripped, section)
        if entry is not None:
            deck.entries.append(entry)
            continue
        if (deck.entries or typed) and section != "agenda":  # under "Plots" or "Characters": a count left out, not a title
            raise _bad(source, number, "not a card line: expected 'COUNT NAME' or 'COUNT NAME (PACK)'", raw)
        heading = _heading_line(source, number, raw, stripped, section)
        section = heading.section  # ("Agenda: X" opens the agendas)
        deck.bare.append(heading)
    if not deck.entries:
        raise DataError(f"{source}: no card lines found: expected lines such as '3x Card Name (Pack)' or '3 Card Name'")
    return deck


def _line_of(text: str, needle: str) -> int:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def parse_json(text: str, source: str) -> Decklist:
    """ThronesDB's JSON for a deck or decklist.  Raises DataError naming the field at fault."""
    try:  # (standard JSON only, text Unicode can hold: a lone surrogate was a traceback)
        data = read_json(text, source)
    except JSONError as exc:  # '{"a":' 5,000 times: a deck export is two levels deep
        if exc.problem != NESTED:
            raise
        raise DataError(f"{source}: not a deck export: {NESTED}") from None
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object (ThronesDB deck export)")
    slots = data.get("slots")
    if not isinstance(slots, dict) or not slots:
        raise DataError(f"{source}: field 'slots': expected an object of card code -> count (ThronesDB deck export)")
    deck = Decklist(source, "thronesdb-json", title=str(data.get("name") or "") or None)
    faction = data.get("faction_code")
    if faction is not None and not isinstance(faction, str):
        raise DataError(f"{source}: field 'faction_code': expected a faction code such as 'stark'")
    deck.faction_code = faction
    agendas = data.get("agendas") or ([data["agenda_code"]] if data.get("agenda_code") else [])
    if not isinstance(agendas, list):
        raise DataError(f"{source}: field 'agendas': expected a list of card codes")
    if len(agendas) > MAX_LINES:
        raise DataError(f"{source}: field 'agendas': a decklist may name at most {MAX_LINES} cards; got {len(agendas):,}")
    for agenda in agendas:
        code = agenda.get("code") if isinstance(agenda, dict) else agenda
        if not isinstance(code, str):
            raise DataError(f"{source}: field 'agendas': expected card codes; got {agenda!r}")
        deck.agenda_codes.append(code)
    if len(slots) > MAX_LINES:
        raise DataError(f"{source}: field 'slots': a decklist may name at most {MAX_LINES} cards; got {len(slots):,}")
    for code, count in slots.items():
        line = _line_of(text, f'"{code}"')
        if len(code) > MAX_NAME_CHARS:
            raise DataError(f"{source}:{line}: field 'slots': a card code has at most {MAX_NAME_CHARS} characters; got {len(code):,}")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
            raise DataError(f"{source}:{line}: field 'slots.{code}': count must be a whole number 1 to {MAX_COUNT}; got {count!r}")
        # the slot as written, never the whole line: a ThronesDB export is one line, and quoting it under each of
        # 2,000 problems turned a 255 KB post into a 508 MB answer (a hostile-input review)
        deck.entries.append(Entry(count, code, line, f'"{code}": {count}', code=code))
    return deck


def parse(text: str, source: str) -> Decklist:
    """Any of the three shapes; JSON when the text starts with ``{``."""
    if not text.strip():
        raise DataError(f"{source}: the decklist is empty")
    if text.lstrip().startswith("{"):
        return parse_json(text, source)
    return parse_text(text, source)


def read_source(path: str) -> tuple[str, str]:
    """(text, source name) of a decklist file (a regular file: never a FIFO or device), or of stdin for ``-``, at most
    ``MAX_BYTES``.  Raises DataError when unreadable or larger."""
    if path != "-":
        return decode(read_input(Path(path), MAX_BYTES), path), path
    try:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DataError(f"<stdin>: cannot read: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise DataError(f"<stdin>: larger than {MAX_BYTES // 1024} KB: a decklist is a few KB")
    return decode(data, "<stdin>"), "<stdin>"


def decode(data: bytes, source: str) -> str:
    """Bytes from a file or an upload as text.  Raises DataError when they are not UTF-8 text."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    if "\x00" in text:
        raise DataError(f"{source}: a binary file, not a decklist")
    return text
