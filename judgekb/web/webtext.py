"""Text as the pages show it: emphasis and highlights rendered, never raw markup, always escaped first.

The stored texts stay verbatim; these filters only decide how they look.  Every function escapes
the whole text and then turns a small, fixed set of patterns back into tags, so nothing from a
document or a card database can inject markup.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

HIGHLIGHT = re.compile(r"\[((?:&#34;|&#39;|[“‘(])*)([^\[\]\s]+?)((?:&#34;|&#39;|[.,;:!?”’)])*)\]")  # quotes and stops stay unmarked
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPH = re.compile(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?![*\w])")
STRAY = re.compile(r"\*+(?=\S)|(?<=\S)\*+")
CARD_TAG = re.compile(r"&lt;(/?)(b|i|em|strong)&gt;")
SYMBOL = re.compile(r"\[([a-z]+)\]")
SYMBOLS = {
    "military": "Military",
    "intrigue": "Intrigue",
    "power": "Power",
    "baratheon": "Baratheon",
    "greyjoy": "Greyjoy",
    "lannister": "Lannister",
    "martell": "Martell",
    "stark": "Stark",
    "targaryen": "Targaryen",
    "thenightswatch": "Night's Watch",
    "tyrell": "Tyrell",
    "neutral": "Neutral",
}


def _emphasis(html: str) -> str:
    html = STRONG.sub(r"<strong>\1</strong>", html)
    return EMPH.sub(r"<em>\1</em>", html)


def rich(text: str | None) -> Markup:
    """Document text (Markdown emphasis in the 2nd-edition FAQ) with ``**bold**`` and ``*italic*`` rendered."""
    return Markup(_emphasis(str(escape(text or ""))))


def focus(text: str, lead: int = 10) -> str:
    """Start a snippet a few words before its first highlight, so three lines on a phone show the match."""
    words = text.split(" ")
    first = next((i for i, w in enumerate(words) if HIGHLIGHT.search(w)), 0)
    return " ".join(["…", *words[first - lead :]]) if first > lead + 2 else text


def snippet(text: str | None) -> Markup:
    """A search snippet: the words lookup marked ``[like this]`` become highlights, emphasis is rendered."""
    html = str(escape(focus(text or "")))
    html = HIGHLIGHT.sub(r"\1<mark>\2</mark>\3", html)
    return Markup(STRAY.sub("", _emphasis(html)))  # a window can cut an emphasis pair in half


def card_text(text: str | None) -> Markup:
    """Printed card text: the card databases' <b>/<i> tags and [icon] symbols, every other character escaped."""
    html = str(escape(text or ""))
    opened: list[str] = []

    def tag(match: re.Match[str]) -> str:
        name = "strong" if match[2] in ("b", "strong") else "em"
        if match[1]:
            if name not in opened:
                return ""
            opened.remove(name)
            return f"</{name}>"
        opened.append(name)
        return f"<{name}>"

    html = CARD_TAG.sub(tag, html)
    html += "".join(f"</{name}>" for name in reversed(opened))
    html = SYMBOL.sub(lambda m: f'<span class="sym sym-{m[1]}">{SYMBOLS[m[1]]}</span>' if m[1] in SYMBOLS else m[0], html)
    return Markup(html)


def plain_card_text(text: str | None) -> str:
    """Printed card text for the terminal: tags dropped, symbols as [Stark]."""
    text = re.sub(r"</?(?:b|i|em|strong)>", "", text or "")
    return SYMBOL.sub(lambda m: f"[{SYMBOLS[m[1]]}]" if m[1] in SYMBOLS else m[0], text)


def hit_source(hit: dict[str, Any]) -> str:
    """The citation under a search result; a Q&A's question is already its title, so it is not repeated."""
    citation = str(hit.get("citation") or "")
    heading = str(hit.get("heading") or "")
    if hit.get("kind") == "qa" and heading:
        for form in (f"“{heading}”", heading):
            if form in citation:
                return citation.replace(form, "Q&A", 1)
    return citation


def text_blocks(text: str | None, blocks: list[list[Any]] | None) -> Markup:
    """A clause's text set out as its page sets it out: paragraphs, and list items as bullets or
    numbers (``data["blocks"]``: where each begins in the one-line text). Words and order are the
    text's own; without blocks it is one paragraph."""
    text = text or ""
    if not blocks:
        return Markup(f"<p>{rich(text)}</p>")
    ends = [b[0] for b in blocks[1:]] + [len(text)]
    html, open_list = [], ""
    for block, end in zip(blocks, ends, strict=True):
        kind, part = block[1], rich(text[block[0] : end].strip())
        if open_list and kind != open_list:
            html.append(f"</{open_list}>")
            open_list = ""
        if kind in ("ul", "ol"):
            if not open_list:
                html.append(f"<{kind}>")
                open_list = kind
            html.append(f'<li value="{int(block[2])}">{part}</li>' if kind == "ol" and len(block) > 2 else f"<li>{part}</li>")
        else:
            html.append(f"<p>{part}</p>")
    if open_list:
        html.append(f"</{open_list}>")
    return Markup("".join(html))


EDITION_BADGE = {1: "1st ed.", 2: "2nd ed."}


def note_html(note: str) -> Markup:
    """A lookup's note, escaped; a pointer to a card's page links the card's name to that page, and the
    command a note gives for a card's page (judgekb card "X" --edition N) is a link to it on the web."""
    from flask import url_for

    from judgekb.lookup.notices import CARD_COMMAND, pointed_card

    def link(name: str, edition: int | str, label: str) -> str:
        href = url_for("pages.card_page", name=name, edition=edition)
        return f'<a class="card-link" href="{escape(href)}">{escape(label)}</a>'

    html, done = [], 0
    if pointed := pointed_card(note):  # "card text: X is a card; …": the name is the link
        start = note.index(pointed[0])
        html += [str(escape(note[:start])), link(*pointed, pointed[0])]
        done = start + len(pointed[0])
    for match in CARD_COMMAND.finditer(note, done):
        html += [str(escape(note[done : match.start()])), link(match["name"], match["edition"], match["name"])]
        done = match.end()
    return Markup("".join([*html, str(escape(note[done:]))]))


def register(app: Any) -> None:
    app.jinja_env.filters.update(
        rich=rich, text_blocks=text_blocks, snippet=snippet, card_text=card_text, hit_source=hit_source, note_html=note_html
    )
    app.jinja_env.globals["EDITION_BADGE"] = EDITION_BADGE
