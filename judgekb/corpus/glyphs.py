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
    check_fields(path, data, {"html"}, set(), "icon file")
    out: dict[str, dict[str, Any]] = {}
    for item in data["html"]:
        check_fields(path, item, {"class", "means", "evidence"}, set(), "icon")
        out[str(item["class"])] = {"means": str(item["means"]), "evidence": " ".join(str(item["evidence"]).split())}
    return out


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


def reader_notes(data: dict[str, Any]) -> list[str]:
    """Plain-language notes shown under a clause: glyphs, misprints, undetermined pages, boundaries."""
    notes = [f"“{g['glyph']}” in this text is {g['means']} (the flattened PDF's icon)." for g in data.get("glyphs") or []]
    notes += [icon_note(place) for place in data.get("icons") or []]
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
