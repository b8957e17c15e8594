"""Citation lines: what a judge reads out — document, version, date, section, page."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

# a web page (ThronesDB's copies of the second-edition documents): the document's own pages, which its text
# may cite ("on page 11"), are not in the copy, and no page number is ever guessed
NO_PAGES = " (no page numbers: the corpus's copy of this document is a web page)"
# a paged document whose copy in the corpus has lost its page numbers (a text extraction, a Markdown copy)
LOST_PAGES = " (page not known: the corpus's copy of this document has no page numbers)"
LIST_NAMES = {"joust": "Joust Restricted List", "melee": "Melee Restricted List", "banned": "Banned List"}


@cache
def _set_abbreviations(path: Path) -> dict[str, str]:
    from judgekb import yamlio

    data = yamlio.read_data(path)
    return {entry["slug"]: entry["abbr"] for entry in data.get("edition1", [])}


def card_reference(data: dict[str, Any], sets_file: Path | None = None) -> str:
    """``Val (DotN F117)`` for the 1st edition's set slugs, ``Dorne (Sands of Dorne, 17)`` otherwise.

    A misprinted printing (``printed_number``: the joust list's "(F76) THE ART OF SEDUCTION", a printing
    that does not exist) is quoted as the document prints it, marked [sic]: joining the set judgekb
    assigned to the misprinted number would read out "LotR F76" as if the page said so.  The misprint's
    note, which says the printing meant, goes with the citation (``judgekb cite``, the copy buttons).
    """
    if data.get("printed_number"):
        printed = [m["printed"] for m in data.get("misprints") or [] if str(data["printed_number"]) in m["printed"]]
        if printed:
            return f"“{printed[0]}” [sic]"
    number = data.get("number")
    cards = data.get("cards") or ([[data["card"], number]] if data.get("card") else [])
    if not cards:
        return ""
    set_name = str(data.get("set") or "")
    abbreviations = _set_abbreviations(sets_file) if sets_file and sets_file.is_file() else {}
    if set_name in abbreviations:
        abbr = abbreviations[set_name]
        numbers = " & ".join(str(n) for _, n in cards if n)
        names = " / ".join(dict.fromkeys(str(c) for c, _ in cards))
        return f"{names} ({abbr} {numbers})" if numbers else f"{names} ({abbr})"
    name, number = cards[0]
    return f"{name} ({set_name}, {number})" if number else str(name)


def quoted(heading: str) -> str:
    """“Heading”, unless the heading prints its own, balanced, quotation marks (never ““Participating Characters””).

    A heading cut off inside a quotation (a web paragraph's 'Lady Sansa's Rose reads "…') is wrapped all the same,
    so no opening mark is left dangling (review r66 L3).
    """
    balanced = heading.count('"') % 2 == 0 and heading.count("“") == heading.count("”") and "„" not in heading
    if balanced and any(mark in heading for mark in "“”\""):
        return heading
    return f"“{heading}”"


def label(row: dict[str, Any], data: dict[str, Any], sets_file: Path | None = None) -> str:
    """The part of the citation that names the clause inside its document."""
    kind, heading = row["kind"], row["heading"]
    version = f" (v{row['version']})" if row.get("version") else ""
    part = data.get("part")
    if part == "glossary" and data.get("entry"):
        return f"Glossary: “{data['entry_heading']}”, “{heading}”" if data.get("entry_heading") else f"Glossary: “{heading}”"
    if part == "glossary" and kind == "rules":
        return f"Glossary: “{heading}”"
    if part == "appendix-i":
        return f"Appendix I: “{heading}”"
    if part == "appendix-ii":
        return f"Appendix II: “{heading}”"
    if kind == "regulation":
        return f"“{heading}”" + (f" ({data['chapter']})" if data.get("chapter") and data["chapter"] != heading else "")
    if row.get("section"):
        return f"§{row['section']} {heading}"
    card = card_reference(data, sets_file)
    if kind == "errata":  # the 1st-edition section is "Card Clarification and Errata": an entry is one or the other
        said = "Card clarification" if (data.get("errata_effect") or {}).get("effect") == "clarifies" else "Card errata"
        return f"{said}: {card or heading}{version}"
    if kind == "rulebook-errata":
        return f"Rulebook errata: {heading}{version}"
    if kind == "qa":
        return f"FAQ: {quoted(heading)}"
    if kind == "restricted":
        return f"{LIST_NAMES[data.get('format', 'joust')]}: {card or heading}{version}"  # (a misprint as printed)
    if kind == "list-change":
        listed = LIST_NAMES.get(data.get("list", ""), "list")
        return f"Removed from the {listed}: {card or heading}{version}"
    if kind == "definition":
        return f"Definition: {heading}"
    if kind == "timing":
        return f"Timing structure: {heading}"
    if kind == "web":
        return f"paragraph at line {data.get('line')}: {quoted(heading)}"
    if data.get("line_shown"):  # the document prints this heading more than once
        return f"{quoted(heading)} at line {data['line']}"
    if data.get("paragraph_shown"):  # one of several paragraphs under a heading, on one page
        return f"{quoted(heading)}, paragraph {data['paragraph_shown']}"
    return quoted(heading)


def document_part(doc: dict[str, Any]) -> str:
    """``AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17)``: short title, version and date where known."""
    version = str(doc.get("version") or "")
    text = doc["short"]
    if version[:1].isdigit():
        text += f" v{version}"
        if doc.get("date"):
            text += f" ({doc['date']})"
    elif version and version != "unversioned":
        text += f" ({version})"
    return text


def citation(row: dict[str, Any], doc: dict[str, Any], data: dict[str, Any], sets_file: Path | None = None) -> str:
    """The full citation line for a clause row and its document row.

    A page the evidence cannot determine is said to be undetermined, with the pages it
    could be on — never guessed (``data["page_unknown"]`` is set by the page evidence).
    """
    page = row.get("page")
    where = ""
    if page not in (None, ""):
        where = f", pp. {page}" if "-" in str(page) else f", p. {page}"
        if data.get("page_inferred"):  # (a page printed without its number: the first edition FAQ's flowcharts)
            where += f" (page number inferred: {data['page_inferred']})"
    elif data.get("page_unknown"):
        where = f", page not determined ({str(data['page_unknown']).split(':')[0]})"
    elif doc.get("pages") == "none":
        where = NO_PAGES
    elif doc.get("pages") == "lost":
        where = LOST_PAGES
    return f"{document_part(doc)} {label(row, data, sets_file)}{where}"
