"""Clauses of the ThronesDB HTML pages: the 2nd-edition Rules Reference, FAQ v4.1, Tournament Regulations.

The pages are HTML with Twig template tags.  A real HTML parser (``html.parser``) reads them
after every Twig tag (``{{ … }}``, ``{% … %}``, ``{# … #}``) has been blanked out with spaces
of the same length, so offsets stay those of the unchanged source and the text a Twig tag
wraps (a card name inside a link) stays text.  The walk turns the page into a flat list of
headings and *runs*: a run is the inline content of one block (a paragraph, list item, table
cell, heading) between block boundaries, and is one span of the source.  Its served text is
:func:`inline_text` of that span — markup removed, character references decoded, whitespace
normalised — so every sentence can be checked against the bytes it came from.

Change marks are data, never served text: text inside ``<s>`` (struck out in the latest
version) is left out of the clause and kept in ``data["struck"]`` (with where it stood in the served
text, ``data["struck_at"]``, so a page can show it, struck, in its place); text inside an element of
class ``new`` is served and listed in ``data["new_text"]``.  The one exception is the
document's own legend in its front matter ("marked in red (strikethrough for removals)"),
which is ordinary text.

Each document's headings are turned into clause ids by a small function below, following the
id scheme agreed for the second edition (``agot2-rr/claim``,
``agot2-rr/appendix-i/challenges-phase/4.2.2``, ``agot2-faq41/2.6``, ``agot2-tr/deck-lists``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from judgekb.corpus.model import Clause, Document, opening
from judgekb.corpus.spans import Span, normalise
from judgekb.yamlio import DataError

TWIG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
CARD_CODE = re.compile(r"card_code:\s*[\"'](\d+)[\"']")
FRAGMENT = re.compile(r"path\(\s*'(\w+)'\s*,\s*\{\s*_f\w*:\s*'([^']+)'")
BLOCK = {
    "address", "article", "blockquote", "body", "br", "dd", "div", "dl", "dt", "footer", "h1", "h2", "h3",
    "h4", "h5", "h6", "header", "hr", "html", "img", "li", "main", "ol", "p", "pre", "section", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "style", "script", "head", "title",
}  # fmt: skip
VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}
HIDDEN = {"style", "script", "title"}
STRUCK = {"s", "strike", "del"}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}


def blank_twig(source: str) -> str:
    """The source with each Twig tag replaced by spaces of the same length (offsets unchanged)."""
    return TWIG.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def inline_text(raw: str) -> str:
    """The text of a stretch of HTML: Twig and markup removed, references decoded, whitespace normalised.

    This is how a span of an HTML source becomes served text (and how the provenance tests
    check it does).
    """
    parser = _Text()
    parser.feed(blank_twig(raw))
    parser.close()
    return normalise(unescape("".join(parser.parts)))


@dataclass
class Token:
    kind: str  # "start", "end" or "text"
    tag: str
    start: int
    end: int
    attrs: dict[str, str] = field(default_factory=dict)


class _Tokens(HTMLParser):
    """Tag tokens with their source offsets; text is whatever lies between them."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.tokens: list[Token] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        text = self.get_starttag_text() or ""
        self.tokens.append(Token("start", tag, start, start + len(text), {k: v or "" for k, v in attrs}))
        if tag in VOID:
            self.tokens.append(Token("end", tag, start + len(text), start + len(text)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        text = self.get_starttag_text() or ""
        self.tokens.append(Token("start", tag, start, start + len(text), {k: v or "" for k, v in attrs}))
        self.tokens.append(Token("end", tag, start + len(text), start + len(text)))

    def handle_endtag(self, tag: str) -> None:
        start = self._offset()
        self.tokens.append(Token("end", tag, start, self.source.index(">", start) + 1))

    def _skip(self, opener: str, closer: str) -> None:
        start = self._offset()
        self.tokens.append(Token("skip", opener, start, self.source.index(closer, start) + len(closer)))

    def handle_comment(self, data: str) -> None:
        self._skip("<!--", "-->")

    def handle_decl(self, decl: str) -> None:
        self._skip("<!", ">")

    def handle_pi(self, data: str) -> None:
        self._skip("<?", ">")


def tokens(source: str) -> list[Token]:
    """Tags (with offsets into ``source``) and the text stretches between them, in order."""
    blanked = blank_twig(source)
    parser = _Tokens(blanked)
    parser.feed(blanked)
    parser.close()
    out: list[Token] = []
    cursor = 0
    for tok in sorted(parser.tokens, key=lambda t: (t.start, t.end)):
        if tok.start > cursor:
            out.append(Token("text", "", cursor, tok.start))
        out.append(tok)
        cursor = max(cursor, tok.end)
    if cursor < len(source):
        out.append(Token("text", "", cursor, len(source)))
    return out


@dataclass
class Icon:
    """An icon the page draws (``<span class="icon icon-thenightswatch"></span>``): a picture with no text."""

    name: str  # the class after "icon-": "thenightswatch", "military"
    offset: int  # where its tag starts in the source
    row: str = ""  # in a table cell with nothing else: the text of its row's first cell ("Military")
    column: str = ""  # ...and its column's heading cell ("Graphic Icon")


@dataclass
class Run:
    """The inline content of one block: one source span and its text."""

    span: Span
    text: str
    new: list[str] = field(default_factory=list)  # the text of its stretches inside an element of class "new"
    struck: bool = False  # inside <s>
    block: int = 0  # which block-level element (counted in document order) it belongs to
    block_tag: str = ""
    block_attrs: dict[str, str] = field(default_factory=dict)
    links: list[dict[str, str]] = field(default_factory=list)
    anchor: str = ""  # the id of the heading this run is the text of
    item: int = 0  # its number in an <ol> (the browser prints it; the source does not)
    listed: str = ""  # "ul" or "ol" when it is (in) a list item: the page sets it apart, the joined text cannot
    depth: int = 0  # how many lists hold that item (2: a list inside a list item, as Setup's step 8)
    cell: tuple[str, int, int] | None = None  # ("th" | "td", row, column) when it is (in) a table cell
    icons: list[Icon] = field(default_factory=list)  # icons drawn in it (or in an empty cell just before it)


@dataclass
class Heading:
    level: int
    id: str
    runs: list[Run]

    @property
    def text(self) -> str:
        return normalise(" ".join(r.text for r in self.runs))  # headings are one run each


def _stretches(marked: list[Token], pieces: list[Token]) -> list[tuple[Token, Token]]:
    """Contiguous stretches of ``pieces`` that are all in ``marked``, as (first, last) pairs."""
    out: list[tuple[Token, Token]] = []
    ids = {id(t) for t in marked}
    start: Token | None = None
    prev: Token | None = None
    for piece in pieces:
        if id(piece) in ids:
            start = start or piece
            prev = piece
        elif start is not None and prev is not None:
            out.append((start, prev))
            start = None
    if start is not None and prev is not None:
        out.append((start, prev))
    return out


def join(source: str, spans: list[Span]) -> str:
    """The served text of ``spans``: each span's :func:`inline_text`, separated by a space unless
    only inline tags (no whitespace, no block boundary) lie between two spans — a word split by
    a change mark stays one word."""
    parts: list[str] = []
    for i, span in enumerate(spans):
        text = inline_text(source[span.start : span.end])
        if i and parts and _glued(source[spans[i - 1].end : span.start]):
            parts[-1] += text
        else:
            parts.append(text)
    return normalise(" ".join(parts))


def _glued(gap: str) -> bool:
    tags = re.findall(r"<\s*/?\s*([a-zA-Z0-9]+)[^>]*>", gap)
    return bool(re.fullmatch(r"(?:<[^>]*>)*", gap)) and not any(t.lower() in BLOCK for t in tags)


def walk(source: str) -> list[Heading | Run]:
    """Headings and runs in document order (hidden elements such as ``<style>`` skipped)."""
    items: list[Heading | Run] = []
    stack: list[Token] = []  # open elements
    pieces: list[Token] = []  # text tokens of the run being collected
    links: list[dict[str, str]] = []
    heading: Heading | None = None
    block_count = 0
    block: Token | None = None

    def flags() -> tuple[bool, bool, bool]:
        new = any("new" in t.attrs.get("class", "").split() for t in stack)
        struck = any(t.tag in STRUCK for t in stack)
        hidden = any(t.tag in HIDDEN for t in stack)
        return new, struck, hidden

    new_pieces: list[Token] = []
    icons: list[Icon] = []  # icons not yet given to a run: an icon alone in a cell goes with the next run

    def close_run() -> None:
        nonlocal pieces, links, new_pieces, icons
        texts = [p for p in pieces if blank_twig(source[p.start : p.end]).strip()]
        if texts:
            first, last = texts[0], texts[-1]
            raw_start = first.start + len(source[first.start : first.end]) - len(source[first.start : first.end].lstrip())
            raw_end = last.start + len(source[last.start : last.end].rstrip())
            span = Span(raw_start, raw_end)
            text = inline_text(source[span.start : span.end])
            if text:
                new = [inline_text(source[a.start : b.end]) for a, b in _stretches(new_pieces, pieces)]
                struck = bool(texts[0].attrs.get("struck"))
                tag, attrs = (block.tag, dict(block.attrs)) if block else ("", {})
                run = Run(span, text, [n for n in new if n], struck, block_count, tag, attrs, links)
                li = next((t for t in reversed(stack) if t.tag == "li"), None)
                if li is not None and li.attrs.get("__n"):
                    run.item = int(li.attrs["__n"])
                if li is not None:
                    run.listed = li.attrs.get("__list", "")
                    run.depth = int(li.attrs.get("__depth", "1"))
                cell = next((t for t in reversed(stack) if t.tag in ("td", "th")), None)
                if cell is not None and cell.attrs.get("__column"):
                    run.cell = (cell.tag, int(cell.attrs["__row"]), int(cell.attrs["__column"]))
                run.icons, icons = icons, []
                if heading is not None:
                    run.anchor = heading.id
                    heading.runs.append(run)
                else:
                    items.append(run)
        pieces, links, new_pieces = [], [], []

    def cell_text(row: int, column: int) -> str:
        """The text of a cell already read in the table being read (its last such cell)."""
        for item in reversed(items):
            if isinstance(item, Heading):
                break
            if item.cell and item.cell[1:] == (row, column):
                return item.text
        return ""

    for tok in tokens(source):
        if tok.kind == "text":
            raw = source[tok.start : tok.end]
            if not raw.strip() or not blank_twig(raw).strip():
                if pieces:
                    pieces.append(tok)
                continue
            new, struck, hidden = flags()
            if hidden:
                continue
            tok.attrs = {"struck": "1"} if struck else {}
            pieces.append(tok)
            if new:
                new_pieces.append(tok)
            continue
        if tok.kind == "skip":
            close_run()
            continue
        if tok.tag in BLOCK or tok.tag in STRUCK:
            close_run()
        if tok.kind == "start":
            if tok.tag == "a":
                href = source[tok.start : tok.end]
                link: dict[str, str] = {}
                if m := CARD_CODE.search(href):
                    link["card_code"] = m.group(1)
                elif m := FRAGMENT.search(href):
                    link["page"], link["fragment"] = m.group(1), m.group(2)
                elif tok.attrs.get("href", "").startswith("#"):
                    link["fragment"] = tok.attrs["href"][1:]
                elif tok.attrs.get("href", "").strip():
                    link["url"] = tok.attrs["href"].strip()
                if link:
                    links.append(link)
            if tok.tag == "span" and "icon" in tok.attrs.get("class", "").split():
                icon = [c.removeprefix("icon-") for c in tok.attrs["class"].split() if c.startswith("icon-")]
                links += [{"icon": i} for i in icon]
                cell = next((t for t in reversed(stack) if t.tag in ("td", "th")), None)
                alone = cell is not None and not pieces and cell.attrs.get("__column")
                for name in icon:
                    found = Icon(name, tok.start)
                    if alone and cell is not None:  # a chart's picture column: say which row and column
                        row, column = int(cell.attrs["__row"]), int(cell.attrs["__column"])
                        found.row, found.column = cell_text(row, 1), cell_text(1, column)
                    icons.append(found)
            if tok.tag == "li":
                parent = next((t for t in reversed(stack) if t.tag in ("ol", "ul")), None)
                if parent is not None:
                    tok.attrs["__list"] = parent.tag
                    tok.attrs["__depth"] = str(sum(t.tag in ("ol", "ul") for t in stack))
                if parent is not None and parent.tag == "ol":
                    parent.attrs["__count"] = str(int(parent.attrs.get("__count", "0")) + 1)
                    tok.attrs["__n"] = parent.attrs["__count"]
            if tok.tag in ("tr", "td", "th"):  # a cell's row in its table and column in its row, from 1
                parent = next((t for t in reversed(stack) if t.tag == ("table" if tok.tag == "tr" else "tr")), None)
                if parent is not None:
                    parent.attrs["__count"] = str(int(parent.attrs.get("__count", "0")) + 1)
                    tok.attrs["__row" if tok.tag == "tr" else "__column"] = parent.attrs["__count"]
                    if tok.tag != "tr":
                        tok.attrs["__row"] = parent.attrs.get("__row", "0")
            if tok.tag in HEADINGS:
                heading = Heading(HEADINGS[tok.tag], tok.attrs.get("id", "").rstrip('"'), [])
            if tok.tag in BLOCK and tok.tag not in VOID:
                block_count += 1
                block = tok
            if tok.tag not in VOID:
                stack.append(tok)
        elif tok.kind == "end":
            for i in range(len(stack) - 1, -1, -1):
                if stack[i].tag == tok.tag:
                    del stack[i:]
                    break
            if tok.tag in HEADINGS and heading is not None:
                items.append(heading)
                heading = None
            if tok.tag in BLOCK:
                block = next((t for t in reversed(stack) if t.tag in BLOCK), None)
    close_run()
    if icons:
        raise DataError(f"an icon at offset {icons[0].offset} is followed by no text: nothing to place it in")
    return items


def icon_places(source: str, runs: list[Run]) -> list[dict[str, Any]]:
    """Where each icon drawn in a clause's runs stands in its joined text (``at``), with the words on
    either side or, for an icon alone in a chart's cell, its row and column: the text cannot carry
    the picture, so a note must say where it was."""
    places: list[dict[str, Any]] = []
    text = join(source, [r.span for r in runs])
    for i, run in enumerate(runs):
        for icon in run.icons:
            spans = [r.span for r in runs[:i]]
            if icon.offset > run.span.start:
                spans.append(Span(run.span.start, icon.offset))
            before = join(source, spans)
            at = len(before)
            place: dict[str, Any] = {"icon": icon.name, "at": at}
            if icon.row or icon.column:
                place |= {"row": icon.row, "column": icon.column}
            else:
                place |= {"before": _words(text[:at], ICON_WORDS, last=True), "after": _words(text[at:], ICON_WORDS)}
            places.append(place)
    return places


ICON_WORDS = 6  # the words quoted on each side of an icon in a note


def _words(text: str, count: int, last: bool = False) -> str:
    parts = text.split()
    if last:
        return ("…" if len(parts) > count else "") + " ".join(parts[-count:])
    return " ".join(parts[:count]) + ("…" if len(parts) > count else "")


def _blocks(source: str, runs: list[Run], text: str) -> list[list[Any]]:
    """Where each paragraph, list item and table cell of a clause begins in its joined text, as
    [offset, "p"], [offset, "ul"], [offset, "ol", number], [offset, "ul" | "ol", number, depth] (a list
    inside a list item) or [offset, "th" | "td", row, column], so a
    page can set them apart again (the text itself is one line: whitespace normalised, as citations
    and checksums read it; judgekb.corpus.layout cuts it back).  Empty for a clause of one block, or
    when the joined blocks do not give back the text exactly."""
    starts = [i for i, r in enumerate(runs) if i == 0 or r.block != runs[i - 1].block]
    if len(starts) < 2:
        return []
    blocks: list[list[Any]] = []
    for i in starts:
        before = join(source, [r.span for r in runs[:i]])
        at = len(before) + 1 if before else 0
        run = runs[i]
        if run.cell:
            blocks.append([at, *run.cell])
        elif run.listed and run.depth > 1:  # an item of a list inside a list item: [offset, kind, number, depth]
            blocks.append([at, run.listed, run.item, run.depth])
        else:
            blocks.append([at, "ol", run.item] if run.listed == "ol" and run.item else [at, run.listed or "p"])
    ends = [b[0] for b in blocks[1:]] + [len(text)]
    if " ".join(text[b[0] : end].strip() for b, end in zip(blocks, ends, strict=True)) != text:
        return []
    return blocks


STARTS_WORDS = 6  # a numbered item is told by its first words


def slug(text: str) -> str:
    """Lowercase, each run of non-alphanumeric characters -> '-', no leading or trailing '-'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass
class Unit:
    """A clause being assembled by a document's structure function."""

    key: str
    kind: str
    heading: str
    head: list[Run] = field(default_factory=list)
    body: list[Run] = field(default_factory=list)
    section: str | None = None
    version: str | None = None
    legend: bool = False  # front matter: change marks are the legend, kept as text
    data: dict[str, object] = field(default_factory=dict)


Structure = Callable[[Document, list[Heading | Run]], list[Unit]]


# ---------------------------------------------------------------- Rules Reference

PHASE = re.compile(r"^(\d+)\.\s*(.+)$")
STEP = re.compile(r"^(\d+(?:\.\d+)+)\.?\s+(.+)$")


def rules_reference(doc: Document, items: list[Heading | Run]) -> list[Unit]:
    units: list[Unit] = []
    part = "front"  # front, glossary, appendix-i
    entry: Unit | None = None  # the glossary entry an <h4> belongs to
    phase: str | None = None
    current: Unit | None = None
    for item in items:
        if isinstance(item, Run):
            if current is None:
                raise DataError(f"{doc.file}: text before any heading: {item.text[:60]!r}")
            current.body.append(item)
            continue
        text = item.text
        if item.level == 1:
            part = {"Glossary": "glossary", "Appendix_I": "appendix-i"}.get(item.id, part if item.id else part)
            if item.id.startswith("Appendix_II"):
                part = "appendix-ii"
            key = slug(item.id) if item.id else slug(text)
            current = Unit(key, "preamble", text, [*item.runs], legend=part == "front", data={"part": part})
            entry, phase = None, None
        elif part in ("front", "glossary") and item.level in (2, 3):
            kind = "rules" if item.level == 3 or item.id == "The_Golden_Rules" else "preamble"
            current = Unit(slug(item.id or text), kind, text, [*item.runs], data={"part": part})
            entry = current if item.level == 3 else None
        elif part in ("front", "glossary") and item.level == 4:
            if entry is None:
                raise DataError(f"{doc.file}: <h4> {text!r} outside a glossary entry")
            data: dict[str, object] = {"part": part, "entry": f"{doc.id}/{entry.key}", "entry_heading": entry.heading}
            current = Unit(f"{entry.key}/{slug(text)}", "rules", text, [*item.runs], data=data)
        elif part == "appendix-i" and item.level == 2:
            kind = "preamble" if item.id == "Framework_Event_Details" else "timing"
            current = Unit(f"appendix-i/{slug(item.id or text)}", kind, text, [*item.runs], data={"part": part})
            phase = None
        elif part == "appendix-i" and item.level == 3:
            m = PHASE.match(text)
            if not m:
                raise DataError(f"{doc.file}: Appendix I phase heading without its number: {text!r}")
            phase = slug(m.group(2))
            current = Unit(f"appendix-i/{phase}", "timing", text, [], section=m.group(1), data={"part": part, "phase": phase})
            current.body = [*item.runs]  # the phase heading is its own text: the steps are separate clauses
            current.data["head_is_body"] = True
        elif part == "appendix-i" and item.level == 4:
            if phase is None:
                raise DataError(f"{doc.file}: framework step {text!r} outside a phase")
            m = STEP.match(text)
            if m:
                key, section = f"appendix-i/{phase}/{m.group(1)}", m.group(1)
            else:
                words = re.sub(re.escape(phase.replace("-", " ")), " ", text.lower().replace("-", " "), count=1)
                key, section = f"appendix-i/{phase}/{slug(words)}", None
            current = Unit(key, "timing", text, [*item.runs], section=section, data={"part": part, "phase": phase})
        elif part == "appendix-ii":
            current = Unit(f"appendix-ii/{slug(text)}", "rules", text, [*item.runs], data={"part": part})
        else:
            raise DataError(f"{doc.file}: unexpected <h{item.level}> {text!r} in {part}")
        units.append(current)
    return units


# ---------------------------------------------------------------- FAQ

ERRATA = re.compile(r"^\(v(\d+(?:\.\d+)*)\)\s*(.+)$")
CARD = re.compile(r"^(?P<name>.+?)\s*\((?P<set>[^()]+?),\s*(?P<number>\d+)\)$")
NUMBERED = re.compile(r"^\((\d+\.\d+)\)\s*(.+)$")


def faq(doc: Document, items: list[Heading | Run]) -> list[Unit]:
    units: list[Unit] = []
    part = "front"
    group = ""  # the h3 inside a part
    current: Unit | None = None
    last_block = -1
    for item in items:
        if isinstance(item, Heading):
            text = item.text
            if item.level == 1:
                current = Unit("front/title", "preamble", text, [*item.runs], legend=True)
            elif item.level == 2:
                part, group = slug(text), ""
                current = Unit(f"{part}/introduction", "preamble", text, [*item.runs])
            elif item.level == 3 and part == "notes-and-errata":
                group, current = slug(text), None
                continue
            elif item.level == 3 and part == "definitions-and-terms":
                current = Unit(f"definitions/{slug(text)}", "definition", text, [*item.runs])
            elif item.level == 3 and part == "quick-reference":
                current = Unit(f"timing/{slug(item.id)}", "timing", text, [*item.runs])
            elif item.level == 3 and part == "rulings-and-clarifications":
                group = slug(re.sub(r"^\d+\.\s*", "", text))
                kind = {"card-legality": "section", "frequently-asked-questions": "preamble"}.get(group)
                if kind is None:
                    current = None  # "1. Game Play": a group of numbered sections, no text of its own
                    continue
                current = Unit(f"{group}/introduction", kind, text, [*item.runs])
            elif item.level == 4 and (m := NUMBERED.match(text)):
                current = Unit(m.group(1), "section", m.group(2), [*item.runs], section=m.group(1))
            elif item.level == 4 and group == "frequently-asked-questions":
                current = Unit(f"qa/{slug(text)}", "qa", text, [*item.runs])
            else:
                raise DataError(f"{doc.file}: unexpected <h{item.level}> {text!r} under '{part}'")
            units.append(current)
            continue
        if part == "notes-and-errata" and group in ("rulebook-errata", "card-errata"):
            if item.block != last_block and (m := ERRATA.match(item.text)):
                version, rest = m.group(1), m.group(2)
                if group == "rulebook-errata":
                    current = Unit(f"errata/{slug(rest)}", "rulebook-errata", rest, [item], version=version)
                else:
                    card = CARD.match(rest)
                    if not card:
                        raise DataError(f"{doc.file}: errata heading without a card reference: {item.text!r}")
                    data: dict[str, object] = {"card": card["name"], "set": card["set"], "number": card["number"]}
                    codes = [lk["card_code"] for lk in item.links if "card_code" in lk]
                    if codes:
                        data["card_code"] = codes[0]
                    key = f"errata/{slug(card['name'])}-{slug(card['set'])}-{card['number']}"
                    current = Unit(key, "errata", card["name"], [item], version=version, data=data)
                if "new" in item.block_attrs.get("class", "").split():
                    current.data["new_in"] = doc.version
                units.append(current)
                last_block = item.block
                continue
        if current is None:
            raise DataError(f"{doc.file}: text outside any clause: {item.text[:60]!r}")
        if current.kind == "qa" and not current.body:
            current.data["question"] = item.text
        current.body.append(item)
        last_block = item.block
    return units


# ---------------------------------------------------------------- Tournament Regulations


def regulations(doc: Document, items: list[Heading | Run]) -> list[Unit]:
    units: list[Unit] = []
    current: Unit | None = None
    chapter = ""
    for item in items:
        if isinstance(item, Run):
            if current is None:
                raise DataError(f"{doc.file}: text before any heading: {item.text[:60]!r}")
            current.body.append(item)
            continue
        if not units and item.level == 1:
            current = Unit(slug(item.text), "preamble", item.text, [*item.runs], legend=True)
        elif current is not None and current.legend and not item.id and not current.body:
            current.head += item.runs  # the version line under the title
            current.data["subtitle"] = item.text
            continue
        else:
            if item.level == 1:
                chapter = item.text
            current = Unit(slug(item.text), "regulation", item.text, [*item.runs], data={"chapter": chapter})
        units.append(current)
    return units


STRUCTURES: dict[str, Structure] = {"rules-reference": rules_reference, "faq": faq, "regulations": regulations}


def parse(doc: Document, source: str, map_path: Path | None = None, structure: str = "") -> list[Clause]:
    """Cut an HTML page into clauses with the structure function its manifest names."""
    if structure not in STRUCTURES:
        raise DataError(f"{doc.file}: the html parser needs a structure, one of {', '.join(STRUCTURES)}; got {structure!r}")
    items = walk(source)
    # passages the site added (a cheatsheet notice, a PDF link): not the document's text, never served
    used = {text: 0 for text in doc.chrome}
    kept: list[Heading | Run] = []
    for item in items:
        chrome = isinstance(item, Run) and next((t for t in doc.chrome if item.text.startswith(t)), None)
        if chrome:
            used[chrome] += 1
        else:
            kept.append(item)
    for text, count in used.items():
        if count != 1:
            raise DataError(f"{doc.file}: the manifest's chrome entry {text!r} starts {count} passages; it must start exactly one")
    units = STRUCTURES[structure](doc, kept)
    out: list[Clause] = []
    seen: set[str] = set()
    for unit in units:
        body = list(unit.body)
        struck = [r.text for r in body if r.struck and not unit.legend]
        served = [r for r in body if unit.legend or not r.struck]
        if not served:
            if unit.kind == "preamble" or unit.data.get("part") == "appendix-i":
                continue  # a heading with nothing of its own (a group of entries, or a chart of images)
            raise DataError(f"{doc.file}: clause '{unit.key}' ({unit.heading}) has no text")
        cid = f"{doc.id}/{unit.key}"
        if cid in seen:
            raise DataError(f"{doc.file}: two clauses would both be '{cid}'")
        seen.add(cid)
        data = dict(unit.data)
        head_is_body = bool(data.pop("head_is_body", False))
        if struck:
            data["struck"] = struck
            # where each struck passage stood in the served text: what a page that shows it must say
            data["struck_at"] = [
                len(join(source, [r.span for r in body[:i] if unit.legend or not r.struck]))
                for i, r in enumerate(body)
                if r.struck and not unit.legend
            ]
        new_text = [t for r in served for t in r.new] if not unit.legend else []
        if new_text:
            data["new_text"] = new_text
        links = [lk for r in unit.head + served for lk in r.links]
        if links:
            data["links"] = links
        icons = icon_places(source, served)
        if icons:
            data["icons"] = icons  # pictures the text cannot carry: corpus/icons.yaml says what each is
        numbered = [{"n": r.item, "starts": opening(r.text, STARTS_WORDS)} for r in served if r.item]
        if numbered:
            data["numbered_items"] = numbered  # an <ol>'s numbers, which the text ("after Step 3") may refer to
        text = join(source, [r.span for r in served])
        blocks = _blocks(source, served, text)
        if blocks:
            data["blocks"] = blocks
        anchor = next((r.anchor for r in unit.head + body if r.anchor), "")
        if anchor:
            data["anchor"] = anchor
        head = [] if head_is_body else unit.head
        if head:
            data["head_spans"] = len(head)
        out.append(
            Clause(
                id=cid,
                doc=doc.id,
                edition=doc.edition,
                kind=unit.kind,
                heading=unit.heading,
                text=text,
                spans=[r.span for r in head + served],
                section=unit.section,
                version=unit.version,
                data=data,
            )
        )
    return out
