"""What a judge needs beside the verbatim text: icon glyphs explained, misprints noted.

The flattened 1st-edition FAQ shows game icons as stray characters ("the claim of a lost $
challenge", "unique _ Warship").  The text is served as printed; ``corpus/glyphs.yaml`` says,
with evidence, what each glyph stands for, and ``corpus/misprints.yaml`` notes printings that
are evidently wrong.  Both are attached to the clauses they concern (``data["glyphs"]``,
``data["misprints"]``) when the corpus is parsed.  The second-edition web pages draw icons as
pictures with no text at all: their parser records where each stands (``data["icons"]``) and
``corpus/icons.yaml`` says what each is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from judgekb.corpus.model import Clause
from judgekb.corpus.spans import normalise
from judgekb.yamlio import DataError, check_fields, load, where


def load_glyphs(corpus: Path) -> dict[str, list[dict[str, Any]]]:
    """Glyph entries by document id, each with its compiled ``pattern``."""
    path = corpus / "glyphs.yaml"
    if not path.is_file():
        return {}
    data = load(path)
    check_fields(path, data, {"document", "glyphs"}, set(), "glyph file")
    entries = []
    for item in data["glyphs"]:
        check_fields(path, item, {"glyph", "means", "pattern", "evidence"}, {"literal"}, "glyph")
        try:
            pattern = re.compile(str(item["pattern"]))
        except re.error as exc:
            raise DataError(f"{where(path, item)}: field 'pattern' is not a regular expression: {exc}") from None
        entries.append({**item, "compiled": pattern})
    return {str(data["document"]): entries}


def load_icons(corpus: Path) -> dict[str, dict[str, Any]]:
    """What each icon class a web page draws is (``corpus/icons.yaml``), by class."""
    path = corpus / "icons.yaml"
    if not path.is_file():
        return {}
    data = load(path)
    check_fields(path, data, {"html"}, {"lost"}, "icon file")
    out: dict[str, dict[str, Any]] = {}
    for item in data["html"]:
        check_fields(path, item, {"class", "means", "evidence"}, set(), "icon")
        out[str(item["class"])] = {"means": str(item["means"]), "evidence": " ".join(str(item["evidence"]).split())}
    return out


LOST_ICON = re.compile(r"(?<=\S)  (?=\S)")  # two spaces between words: where the extraction dropped an icon


def load_lost_icons(corpus: Path) -> tuple[str, list[dict[str, Any]]]:
    """The document whose extraction lost icons and each icon lost (``corpus/icons.yaml``, ``lost``)."""
    path = corpus / "icons.yaml"
    if not path.is_file():
        return "", []
    lost = load(path).get("lost")
    if not lost:
        return "", []
    check_fields(path, lost, {"document", "icons"}, set(), "lost icons")
    for item in lost["icons"]:
        check_fields(path, item, {"clause", "printed", "means", "evidence"}, set(), "lost icon")
        if "  " not in str(item["printed"]):
            raise DataError(f"{where(path, item)}: field 'printed' must hold the double space where the icon stood")
    return str(lost["document"]), list(lost["icons"])


def annotate_lost_icons(doc_id: str, clauses: list[Clause], source: str, corpus: Path) -> None:
    """Note each icon lost from a clause's text: every double space between words in its source spans must
    be listed, and every listed one found (``data["lost_icons"]``: where it stood, and what it was)."""
    document, entries = load_lost_icons(corpus)
    if document != doc_id:
        return
    path = corpus / "icons.yaml"
    used: set[int] = set()
    for clause in clauses:
        places = []
        searched = 0  # where in the served text the next lost icon's words are looked for
        for span in clause.spans:
            raw = source[span.start : span.end]
            for m in LOST_ICON.finditer(raw):
                found = [
                    i
                    for i, e in enumerate(entries)
                    if e["clause"] == clause.id and raw.startswith(e["printed"], m.start() - e["printed"].index("  "))
                ]
                if not found:
                    around = normalise(raw[max(0, m.start() - 30) : m.end() + 20])
                    raise DataError(f"{path}: no 'lost' entry for the double space in {clause.id} (…{around}…): an icon lost there?")
                used.update(found)
                entry = entries[found[0]]
                # the served text has the words without the double space (and without the source's markup)
                words, before = normalise(entry["printed"]), normalise(entry["printed"].split("  ")[0])
                if clause.text.find(words, searched) < 0:
                    raise DataError(f"{where(path, entry)}: '{words}' is not in the served text of {clause.id}")
                at = clause.text.find(words, searched) + len(before)
                searched = at
                places.append(
                    {
                        "at": at,
                        "means": entry["means"],
                        "evidence": " ".join(str(entry["evidence"]).split()),
                        "before": _last_words(clause.text[:at]),
                        "after": _first_words(clause.text[at:]),
                    }
                )
        if places:
            clause.data["lost_icons"] = places
    for i, entry in enumerate(entries):
        if i not in used:
            raise DataError(f"{where(path, entry)}: '{entry['printed']}' is not a double space in {entry['clause']}")


NOTE_WORDS = 6  # the words a note quotes on each side of where an icon stood


def _last_words(text: str) -> str:
    parts = text.split()
    return ("…" if len(parts) > NOTE_WORDS else "") + " ".join(parts[-NOTE_WORDS:])


def _first_words(text: str) -> str:
    parts = text.split()
    return " ".join(parts[:NOTE_WORDS]) + ("…" if len(parts) > NOTE_WORDS else "")


def load_misprints(corpus: Path) -> dict[str, list[dict[str, Any]]]:
    path = corpus / "misprints.yaml"
    if not path.is_file():
        return {}
    data = load(path)
    check_fields(path, data, {"misprints"}, set(), "misprint file")
    out: dict[str, list[dict[str, Any]]] = {}
    for item in data["misprints"]:
        check_fields(path, item, {"clause", "printed", "note"}, {"number"}, "misprint")
        out.setdefault(str(item["clause"]), []).append(item)
    return out


def annotate(doc_id: str, clauses: list[Clause], corpus: Path) -> None:
    """Attach glyph meanings and misprint notes to the clauses of one document."""
    glyphs = load_glyphs(corpus).get(doc_id, [])
    misprints = load_misprints(corpus)
    icons = load_icons(corpus) if any(c.data.get("icons") for c in clauses) else {}
    for clause in clauses:
        for place in clause.data.get("icons") or []:
            if place["icon"] not in icons:
                raise DataError(f"corpus/icons.yaml: no entry for the icon 'icon-{place['icon']}' drawn in {clause.id}")
            place |= icons[place["icon"]]
        found = []
        for g in glyphs:
            if g["compiled"].search(clause.text) or g["compiled"].search(clause.heading):
                found.append({"glyph": g["glyph"], "means": g["means"], "evidence": " ".join(g["evidence"])})
        if found:
            clause.data["glyphs"] = found
        notes = misprints.get(clause.id)
        if notes:
            for note in notes:
                if note["printed"] not in clause.text and note["printed"] not in clause.heading:
                    raise DataError(f"corpus/misprints.yaml:{note['__line__']}: '{note['printed']}' is not printed in {clause.id}")
            clause.data["misprints"] = [{"printed": n["printed"], "note": " ".join(str(n["note"]).split())} for n in notes]
            for note in notes:
                if "number" not in note:
                    continue
                if "number" not in clause.data:
                    line = f"corpus/misprints.yaml:{note['__line__']}"
                    raise DataError(f"{line}: {clause.id} names no card printing to read as {note['number']}")
                # the printing the entry means: what a card's status, its page and a deck check go by (the
                # text stays as printed, its note beside it)
                clause.data["printed_number"], clause.data["number"] = clause.data["number"], str(note["number"])
    ids = {c.id for c in clauses}
    for clause_id, notes in misprints.items():
        if clause_id.startswith(f"{doc_id}/") and clause_id not in ids:
            raise DataError(f"corpus/misprints.yaml:{notes[0]['__line__']}: no clause '{clause_id}'")


def citation_notes(data: dict[str, Any]) -> list[str]:
    """The notes that go with a clause's citation wherever it is read out or copied: its misprints (the
    citation quotes a misprinted entry as printed, "“(F76) THE ART OF SEDUCTION” [sic]")."""
    return [f"Printed “{m['printed']}”: {m['note']}" for m in data.get("misprints") or []]


def glyph_note(glyph: dict[str, Any]) -> str:
    """What a flattened PDF's icon in a clause's text stands for, as a reader is told: "“|” in this text is the Shadows crest"."""
    return f"“{glyph['glyph']}” in this text is {glyph['means']} (the flattened PDF's icon)."


def reader_notes(data: dict[str, Any]) -> list[str]:
    """Plain-language notes shown under a clause: glyphs, misprints, undetermined pages, boundaries."""
    notes = [glyph_note(g) for g in data.get("glyphs") or []]
    notes += [icon_note(place) for place in data.get("icons") or []]
    notes += [lost_icon_note(place) for place in data.get("lost_icons") or []]
    notes += citation_notes(data)
    if data.get("page_unknown"):
        notes.append(f"Page not determined: {data['page_unknown']}")
    if data.get("boundary"):
        notes.append(f"Where this entry begins: {data['boundary']}")
    if data.get("version_from"):
        notes.append(f"Version from the {data['version_from']}")
    if data.get("changelog"):
        notes.append(f"Printed with an earlier version tag, but new in v{data['changelog']['version']} by the {data['changelog']['says']}")
    return notes


def icon_note(place: dict[str, Any]) -> str:
    """Where a picture the text cannot carry stands, and what it is (``data["icons"]``)."""
    if place.get("row") or place.get("column"):
        where_ = f"in the chart's row “{place.get('row', '')}”, column “{place.get('column', '')}”"
    else:
        where_ = f"between “{place['before']}” and “{place['after']}”"
    return f"An icon the text cannot show: the page draws {place['means']} {where_}."


def lost_icon_note(place: dict[str, Any]) -> str:
    """An icon the text extraction dropped (``data["lost_icons"]``): where, and what it was if known."""
    where_ = f"between “{place['before']}” and “{place['after']}”"
    if not place.get("means"):
        return f"An icon was lost here when this text was extracted, {where_}; the corpus does not say which icon."
    return f"An icon was lost here when this text was extracted: {place['means']} stood {where_}."
