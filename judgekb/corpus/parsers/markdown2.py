"""Clauses of the 2nd-edition FAQ (Markdown): structure read from its headings.

The 2nd-edition FAQ is clean Markdown, so no hand map is needed: ``#``/``##`` headings
open parts of the document, ``###`` headings open clauses (errata, definitions, numbered
rulings, quick-reference sequences), restricted-list entries are one line each under a
faction heading, and each FAQ question is an italic line followed by its answer.  Text
in bold is what is new in version 2.3; entries that are wholly bold record that version.
Clause text is served without the Markdown emphasis marks (a judge reads words, not
asterisks); the spans still point at the marked-up source, and the bold phrases are kept
in the clause's data (``bold``, and ``new_in`` for entries wholly in bold).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from judgekb.corpus.model import Clause, Document
from judgekb.corpus.parsers.linemap import slug
from judgekb.corpus.spans import Span, normalise
from judgekb.yamlio import DataError

HEADING = re.compile(r"^(#{1,3}) (.*)$")
VERSION = re.compile(r"^\(v(\d+(?:\.\d+)*)\)\s*")
SECTION = re.compile(r"^\((\d+\.\d+)\)\s*")
CARD_REF = re.compile(r"^(?P<name>.+?) \(\*(?P<set>[^*]+)\*, (?P<number>\d+)\)$")
QUESTION = re.compile(r"^\*[^*].*\*$")
RULE = re.compile(r"^-{3,}$")
# Rules stated in a part's introduction become their own clauses, so a search finds them and a
# ruling can cite them: (part, how the paragraph begins) -> (clause key, printed heading it is under).
INTRODUCTION_RULES = {
    ("notes-and-errata", "Errata overrides the originally printed information"): (
        "notes-and-errata/errata-overrides-the-printing",
        "Notes and Errata",
    ),
}
RULE_PARTS = ("joust-restricted-list", "melee-restricted-list")  # introductions that are wholly a rule


@dataclass
class _Open:
    """A clause being collected: its heading spans, body spans and fields."""

    kind: str
    key: str
    heading: str
    head: list[Span]
    body: list[Span] = field(default_factory=list)
    section: str | None = None
    version: str | None = None
    data: dict[str, object] = field(default_factory=dict)


def _plain(text: str) -> str:
    return text.replace("*", "").strip()


BOLD = re.compile(r"\*\*(.+?)\*\*")
ITALIC = re.compile(r"\*(.+?)\*")


def plain_text(text: str) -> str:
    """Markdown emphasis removed: ``**Great Hall** (*Guarding the Realm*, 38)`` → ``Great Hall (Guarding the Realm, 38)``."""
    return ITALIC.sub(r"\1", BOLD.sub(r"\1", text))


def join(source: str, spans: list[Span]) -> str:
    """Clause text of Markdown spans: each span's emphasis removed, then joined as usual."""
    return normalise(" ".join(plain_text(s.text(source)) for s in spans))


def bold_phrases(source: str, spans: list[Span]) -> list[str]:
    """What the source sets in bold (in v2.3: what is new in that version, and card text in bold)."""
    return [plain_text(m.group(1)) for s in spans for m in BOLD.finditer(s.text(source))]


def _card(text: str) -> dict[str, object]:
    m = CARD_REF.match(_plain_ref(text))
    if not m:
        return {}
    return {"card": _plain(m["name"]), "set": m["set"].strip(), "number": m["number"]}


def _plain_ref(text: str) -> str:
    """Card reference with bold markers removed but the set's italics kept."""
    return text.replace("**", "").strip()


def parse(doc: Document, source: str, map_path: Path | None = None) -> list[Clause]:
    """Parse the 2nd-edition FAQ into clauses; unknown structure is a build error."""
    lines = source.split("\n")
    starts = [0]
    for m in re.finditer("\n", source):
        starts.append(m.end())

    def line_span(n: int, skip: int = 0) -> Span:
        raw = lines[n]
        begin = len(raw) - len(raw.lstrip()) + skip
        return Span(starts[n] + begin, starts[n] + len(raw.rstrip()))

    clauses: list[_Open] = []
    current: _Open | None = None
    part = "front"  # the current ## (or #) heading, as a slug
    faction = None
    front_has_text = False
    for n, raw in enumerate(lines):
        text = raw.strip()
        if not text or RULE.match(text):
            continue
        h = HEADING.match(text)
        if part == "front" and not (h and len(h.group(1)) == 1 and front_has_text):
            # The title block and its opening paragraphs, up to the first heading after text.
            if current is None:
                current = _Open("preamble", "front/title", "Notes, Errata, and Frequently Asked Questions", [])
                clauses.append(current)
            current.body.append(line_span(n))
            front_has_text = front_has_text or not h
            continue
        if h and len(h.group(1)) <= 2:
            title = h.group(2).strip()
            part = slug(re.sub(r"^\d+\.\s*", "", title))
            faction = None
            kind = "section" if part in RULE_PARTS else "preamble"
            current = _Open(kind, f"{part}/introduction", title.title(), [line_span(n, len(h.group(1)) + 1)])
            current.data["group"] = True
            clauses.append(current)
            continue
        if h:  # ###
            title = h.group(2).strip()
            span = line_span(n, 4)
            if part in ("joust-restricted-list", "melee-restricted-list"):
                faction = title.rstrip(":")
                current = None
                continue
            current = _Open("section", "", _plain(title), [span])
            version = VERSION.match(title)
            if version:
                current.version = version.group(1)
                rest = title[version.end() :]
                if part == "rulebook-errata":
                    current.kind, current.heading = "rulebook-errata", rest
                    current.key = f"errata/{slug(rest)}"
                else:
                    card = _card(rest)
                    if not card:
                        raise DataError(f"{doc.file}:{n + 1}: errata heading without a card reference: {title!r}")
                    current.kind, current.heading, current.data = "errata", str(card["card"]), card
                    current.key = f"errata/{slug(str(card['card']))}-{slug(str(card['set']))}-{card['number']}"
            elif section := SECTION.match(title):
                current.section = section.group(1)
                current.heading = title[section.end() :]
                current.key = current.section
            elif part == "definitions-and-terms":
                current.kind, current.key = "definition", f"definitions/{slug(title)}"
            elif part == "quick-reference":
                current.kind, current.key = "timing", f"timing/{slug(title)}"
            else:
                raise DataError(f"{doc.file}:{n + 1}: unexpected heading {title!r} under '{part}'")
            clauses.append(current)
            continue
        if part in ("joust-restricted-list", "melee-restricted-list") and (faction or text.startswith("**Removed")):
            fmt = part.split("-")[0]
            card = _card(text.replace("Removed (v2.3): ", ""))
            if not card:
                raise DataError(f"{doc.file}:{n + 1}: restricted-list line without a card reference: {text!r}")
            removed = text.startswith("**Removed")
            entry = _Open(
                "list-change" if removed else "restricted",
                f"{'list-changes' if removed else 'restricted'}/{fmt}/{slug(str(card['card']))}-{slug(str(card['set']))}-{card['number']}",
                str(card["card"]),
                [],
                [line_span(n)],
            )
            entry.data = card | ({"list": fmt} if removed else {"format": fmt, "faction": faction})
            entry.heading = f"{'Removed from the ' if removed else ''}{fmt.title()} Restricted List: {card['card']}"
            if text.startswith("**"):
                entry.version = "2.3"
            clauses.append(entry)
            current = None
            continue
        if part == "frequently-asked-questions" and QUESTION.match(text):
            question = _plain(text)
            taken = {c.key for c in clauses}
            words = 9
            while f"qa/{slug(' '.join(question.split()[:words]))}" in taken and words < len(question.split()):
                words += 1
            current = _Open("qa", f"qa/{slug(' '.join(question.split()[:words]))}", question, [line_span(n)])
            clauses.append(current)
            continue
        rule = next((v for (p, begins), v in INTRODUCTION_RULES.items() if p == part and text.startswith(begins)), None)
        if rule:
            current = _Open("section", rule[0], rule[1], [])
            clauses.append(current)
        if current is None:
            raise DataError(f"{doc.file}:{n + 1}: text outside any clause: {text[:60]!r}")
        current.body.append(line_span(n))

    out: list[Clause] = []
    seen: set[str] = set()
    for item in clauses:
        if not item.body:
            if item.data.get("group"):
                continue  # a part heading followed directly by its first clause
            raise DataError(f"{doc.file}: clause '{item.key}' ({item.heading}) has no text")
        cid = f"{doc.id}/{item.key}"
        if cid in seen:
            raise DataError(f"{doc.file}: two clauses would both be '{cid}'")
        seen.add(cid)
        data = {k: v for k, v in item.data.items() if k != "group"}
        bold = bold_phrases(source, item.body)
        if bold:
            data["bold"] = bold
            if item.version == "2.3" and item.kind in ("restricted", "list-change"):
                data["new_in"] = "2.3"  # the whole entry is in bold
        out.append(
            Clause(
                id=cid,
                doc=doc.id,
                edition=doc.edition,
                kind=item.kind,
                heading=item.heading,
                text=join(source, item.body),
                spans=item.head + item.body,
                section=item.section,
                version=item.version,
                data=data | ({"head_spans": len(item.head)} if item.head else {}),
            )
        )
    return out
