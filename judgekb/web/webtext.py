"""Text as the pages show it: emphasis and highlights rendered, never raw markup, always escaped first.

The stored texts stay verbatim; these filters only decide how they look.  Every function escapes
the whole text and then turns a small, fixed set of patterns back into tags, so nothing from a
document or a card database can inject markup.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from judgekb.lookup.search import marked_parts, marked_tokens, whole_word

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


def unmarked(text: str) -> str:
    """Document text without its Markdown emphasis markers (``**Response:**`` as "Response:"): what a copy
    carries, as the page shows it bold, never the asterisks."""
    return EMPH.sub(r"\1", STRONG.sub(r"\1", text))


def _marked(token: str) -> str:
    """A token lookup marked, highlighted without its quotes and stops."""
    lead, word, tail = marked_parts(token)
    return f"{escape(lead)}<mark>{escape(word)}</mark>{escape(tail)}"


def snippet(text: str | None, source: str | None = None) -> Markup:
    """A search snippet, whole (lookup cut it: whole sentences, or a window of one long one): the words lookup marked
    ``[like this]`` become highlights, emphasis is rendered.  (It was clamped to three lines on a phone and cut
    to start ten words before its first highlight, and the words that answered were hidden: review r81, M1.)

    ``source``, the text the snippet was cut from, tells a marked token from one the text writes in brackets: a
    marked "([military])" read as the highlight "[military]" between a stray bracket and parenthesis, "[(military)]"
    (review r81, L2).  Without it, or when the snippet is not cut from it, the brackets are read as marks."""
    shown = (text or "").split(" ")
    marks = marked_tokens(shown, source) if source else None
    if marks is None:
        html = HIGHLIGHT.sub(lambda m: "{}<mark>{}</mark>{}".format(*whole_word(m[1], m[2], m[3])), str(escape(text or "")))
    else:
        html = " ".join(_marked(t[1:-1]) if marked else str(escape(t)) for t, marked in zip(shown, marks, strict=True))
    return Markup(STRAY.sub("", _emphasis(html)))  # a window can cut an emphasis pair in half


def card_text(text: str | None, marked: list[list[int]] | None = None) -> Markup:
    """Printed card text: the card databases' <b>/<i> tags and [icon] symbols, every other character escaped.
    ``marked``: [start, end] spans of the text an erratum gave (``cardpage.wording``), each set in <ins>."""
    if marked:
        text, pieces, done = text or "", [], 0
        for start, end in marked:
            if start < done:
                continue
            pieces += [str(card_text(text[done:start])), f'<ins class="errata-words">{card_text(text[start:end])}</ins>']
            done = end
        return Markup("".join(pieces) + str(card_text(text[done:])))
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
    """The citation under a search result; a Q&A's question is already its title, so it is not repeated.
    An entry named otherwise (FAQ v4.1's "Wolves of the North") keeps its name: the title does not say it."""
    citation = str(hit.get("citation") or "")
    heading = str(hit.get("heading") or "")
    if hit.get("kind") == "qa" and heading and hit.get("question") in (None, "", heading):
        for form in (f"“{heading}”", heading):
            if form in citation:
                return citation.replace(form, "Q&A", 1)
    return citation


def text_blocks(text: str | None, blocks: list[list[Any]] | None) -> Markup:
    """A clause's text set out as its page sets it out: paragraphs, list items as bullets or numbers,
    and tables as tables (``data["blocks"]``, cut by :func:`judgekb.corpus.layout.pieces`). Words and
    order are the text's own; without blocks it is one paragraph."""
    from judgekb.corpus.layout import grouped, pieces, table_rows

    text = text or ""
    if not blocks:
        return Markup(f"<p>{rich(text)}</p>")
    html = []
    for group, parts in grouped(pieces(text, blocks)):
        if group == "p":
            html.append(f"<p>{rich(parts[0].text)}</p>")
        elif group == "table":
            rows = "".join(
                "<tr>" + "".join(f"<{c.kind}>{rich(c.text)}</{c.kind}>" if c else "<td></td>" for c in row) + "</tr>"
                for row in table_rows(parts)
            )
            html.append(f'<div class="table-wrap"><table>{rows}</table></div>')
        else:
            items = "".join(f'<li value="{p.number}">{rich(p.text)}</li>' if p.number else f"<li>{rich(p.text)}</li>" for p in parts)
            nested = ' class="nested"' if parts[0].depth > 1 else ""  # (inside the item before it on the page)
            html.append(f"<{group}{nested}>{items}</{group}>")
    return Markup("".join(html))


def answer_blocks(text: str | None, blocks: list[list[Any]] | None, question: str) -> Markup:
    """A FAQ v4.1 Q&A's answer (its text after the question it opens with) set out by its blocks, "A:"
    leading: Tycho Nestoris's answer is four paragraphs, one per case (no winner, time, melee,
    concession), which ran together. One paragraph when the question does not end a block."""
    text, blocks = text or "", blocks or []
    mark = '<span class="qa-mark">A:</span> '
    start = next((i for i, b in enumerate(blocks) if b[0] >= len(question)), None)
    if not start or text[len(question) : blocks[start][0]].strip():
        return Markup(f"<p>{mark}{rich(text[len(question) :].strip())}</p>")
    base = blocks[start][0]
    html = str(text_blocks(text[base:], [[b[0] - base, *b[1:]] for b in blocks[start:]]))
    return Markup(html.replace("<p>", f"<p>{mark}", 1) if html.startswith("<p>") else f"<p>{mark}</p>{html}")


# A link on a clause page said for its direction, this text first: "← supersedes" read as "this text supersedes" the
# FAQ entry that in fact supersedes it, and no legend said what the arrows meant (review r81, M7)
LINK_SAID = {
    "supersedes": ("supersedes", "superseded by"),
    "clarifies": ("clarifies", "clarified by"),
    "cites": ("cites", "cited by"),
    "mentions": ("mentions", "mentioned by"),
    "restates": ("restates", "restated by"),
    "same-topic": ("same topic as", "same topic as"),
}


def link_said(item: dict[str, Any]) -> str:
    """A clause page's link, as "this text <relation> that one": "supersedes" / "superseded by", "cites" / "cited by"…
    A link that replaces only a passage (a struck bullet, a paragraph) says "superseded in part by"."""
    out, into = LINK_SAID.get(str(item.get("type")), (str(item.get("type")), f"{item.get('type')} (from it)"))
    if item.get("direction") == "out":
        return out
    data = item.get("data") or {}
    if item.get("type") == "supersedes" and (data.get("struck") or data.get("paragraph")):
        return "superseded in part by"
    return into


EDITION_BADGE = {1: "1st ed.", 2: "2nd ed."}


# What a note tells a terminal user to type, said for the web page, where a judge on a phone types no
# commands: the card-page command is a link, the import command is the server's operator's job.
IMPORT_COMMAND = re.compile(r"run `judgekb import-cards PATH` with a card database, then `judgekb card NAME`")
IMPORT_SAID = "whoever runs this server can import one (judgekb import-cards); each card then has its page under Cards"
NO_TITLE_COMMAND = re.compile(r"the Cards page, or judgekb card NAME(?: --edition (?P<edition>[12]))?")
TITLE_LIST = re.compile(r'card titles with (?:a word near )?"[^"]+"(?: \(imported card database\))?: ')
# (a list in parentheses, "check the spelling (card titles with a word near …)", ends at its bracket)
TITLE_LIST_END = re.compile(r"\)?\. Closest clauses below\.|: name one for its card page|\)?\.?$")
EDITION_SAID = {1: "first edition", 2: "second edition"}
# A card's status note (the lookup's, for a card the query names): its title opens the card's page, with the errata and
# each printing's history (review r81, L1: a judge typed the name again under Cards).  Second edition, under the list
# in force (restricted_lists.CardStatusNotes.note: "Name (Set N): status; Name (Set M): status - List, issuer, date");
# first edition, on the FAQ's lists (notices.first_edition_status: "first edition, lists of …: Name (PRINTING) is …").
DATED_LIST = r" - [^;]+, [^;]+, \d{4}-\d{2}-\d{2}$"
SECOND_STATUS = re.compile(r"^(?:second edition: )?(?P<name>[^;:()]+?) \([^()]+\): .+" + DATED_LIST)
FIRST_STATUS = re.compile(
    r"^first edition, lists of [^:]+: (?P<name>[^;:()]+?)"
    r"(?: \([^()]+\) is (?:joust |melee )?(?:restricted|banned)| \([^()]+\) was removed| is on none of them)"
)


def note_parts(note: str) -> list[dict[str, str]]:
    """A lookup's note as the web page shows it: pieces of text, each with an ``href`` when it is a link.

    The note's words stay as lookup says them, except what it tells a terminal user to type: a
    card-page command (``judgekb card "X" --edition N``) becomes a link to that page, the pointer's
    "(the Cards page, or judgekb card ...)" names the edition instead (both editions' pointers for one
    name would read alike), ``judgekb card NAME`` is the Cards page, the card titles a note lists are
    links, and the import command says who can run it."""
    from flask import url_for

    from judgekb.lookup.notices import CARD_COMMAND, pointed_card

    parts: list[dict[str, str]] = []

    def text(piece: str) -> None:
        if piece:
            parts.append({"text": piece})

    def card(name: str, edition: int | str | None, label: str) -> None:
        parts.append({"text": label, "href": url_for("pages.card_page", name=name, edition=edition)})

    for edition, status in ((2, SECOND_STATUS.match(note)), (1, FIRST_STATUS.match(note))):
        if status:  # a card's list status: its title links its page
            text(note[: status.start("name")])
            card(status["name"], edition, status["name"])
            text(note[status.end("name") :])
            return parts
    if pointed := pointed_card(note):  # "card text: X is a card; … (the Cards page, or judgekb card "X" --edition N)"
        name, edition = pointed
        start = note.index(name)
        text(note[:start])
        card(name, edition, name)
        rest = note[start + len(name) :]
        text(rest[: rest.rindex(" (")] + f" ({EDITION_SAID[edition]})")
        return parts
    done = 0
    spans: list[tuple[int, int, Any]] = []
    for match in CARD_COMMAND.finditer(note):
        spans.append((match.start(), match.end(), lambda m=match: card(m["name"], m["edition"], m["name"])))
    for match in IMPORT_COMMAND.finditer(note):
        spans.append((match.start(), match.end(), lambda: text(IMPORT_SAID)))
    for match in NO_TITLE_COMMAND.finditer(note):
        href = url_for("pages.card_page", edition=match["edition"]) if match["edition"] else url_for("pages.card_page")
        spans.append((match.start(), match.end(), lambda h=href: parts.append({"text": "the Cards page", "href": h})))
    lists = list(TITLE_LIST.finditer(note))
    # (a note names the edition searched in its Cards-page command, when one was chosen)
    chosen = NO_TITLE_COMMAND.search(note)
    searched = chosen["edition"] if chosen and chosen["edition"] else None
    for i, match in enumerate(lists):
        following = lists[i + 1] if i + 1 < len(lists) else None
        list_end = TITLE_LIST_END.search(note, match.end())
        stop = list_end.start() if list_end else len(note)
        if following:  # several words' titles: 'card titles with "a": X; card titles with "b": Y'
            stop = min(stop, following.start() - len("; "))
        names = note[match.end() : stop].split("; ")

        def titles(names: list[str] = names, edition: str | None = searched) -> None:
            for i, name in enumerate(names):
                text("; " if i else "")
                card(name, edition, name)

        spans.append((match.end(), stop, titles))
    for start, end, render in sorted(spans, key=lambda span: span[0]):
        if start < done:
            continue  # (spans never overlap in lookup's notes; a stray one is shown as said)
        text(note[done:start])
        render()
        done = end
    text(note[done:])
    return parts


def note_html(note: str) -> Markup:
    """A lookup's note, escaped, as :func:`note_parts` shows it on the page."""
    return Markup(
        "".join(
            f'<a class="card-link" href="{escape(p["href"])}">{escape(p["text"])}</a>' if "href" in p else str(escape(p["text"]))
            for p in note_parts(note)
        )
    )


def register(app: Any) -> None:
    from judgekb.corpus.layout import plain_text
    from judgekb.lookup.search import folded_said

    app.jinja_env.filters.update(
        rich=rich, text_blocks=text_blocks, snippet=snippet, card_text=card_text, hit_source=hit_source, note_html=note_html,
        folded_said=folded_said, plain_text=plain_text, answer_blocks=answer_blocks, link_said=link_said,
    )  # fmt: skip
    app.jinja_env.globals["EDITION_BADGE"] = EDITION_BADGE
