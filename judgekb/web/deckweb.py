"""The deck-check page and its JSON twin: paste or upload a decklist, get a one-page sheet.

``/deckcheck`` (GET form, POST check) renders ``deckcheck.html``, which prints as a one-page
deck-check sheet; ``POST /api/deckcheck`` takes the decklist as the request body and returns
the same report ``judgekb deckcheck --json`` prints.  Requests are bounded by the app's
``MAX_CONTENT_LENGTH``, the parser's ``decklists.MAX_LINES`` and name length, a deadline
(``deckcheck.WEB_SECONDS``) and the scenario slots (429 when all are busy).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request

from judgekb.cards import deckcheck, decklists, restricted_lists
from judgekb.yamlio import DataError

deck_pages = Blueprint("deck", __name__)


# The deck check's messages name the command line's options; the page names its own fields instead.
FORM_WORDS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"without --edition, which detects it"), "with Edition “detect”, which detects it"),
    (re.compile(r"--edition ([12])"), lambda m: "Edition “" + ("1st" if m[1] == "1" else "2nd") + "”"),
    (re.compile(r"--as-of(?: VERSION)?"), "“FAQ as of (1st)”"),
    (re.compile(r"--list"), "“List (2nd)”"),
]


# ... and the API names its query parameters.
API_WORDS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"without --edition, which detects it"), "with edition=auto, which detects it"),
    (re.compile(r"--edition ([12])"), r"edition=\1"),
    (re.compile(r"--as-of VERSION"), "as_of=VERSION"),
    (re.compile(r"--as-of"), "as_of"),
    (re.compile(r"with --list"), "with list=NAME"),
    (re.compile(r"--list"), "list"),
]


def api_words(text: str) -> str:
    """A deck-check message as the API says it: "as_of must be a FAQ version", not "--as-of" (a flag it has not)."""
    for pattern, words in API_WORDS:
        text = pattern.sub(words, text)
    return text


@deck_pages.app_template_filter("form_words")
def form_words(text: str) -> str:
    """A deck-check message as the page says it: "choose a second-edition list with “List (2nd)”", not "--list"."""
    for pattern, words in FORM_WORDS:
        text = pattern.sub(words, text)
    return text


def _db() -> Any:
    return current_app.config["JUDGEKB"].db


def _options(values: Any) -> dict[str, Any]:
    """Edition, format, list and --as-of from a form or query string; bad values are a 400."""
    edition = values.get("edition", "") or ""
    if edition not in ("", "auto", "1", "2"):
        abort(400, description="edition must be auto, 1 or 2")
    fmt = values.get("format", "") or "joust"
    if fmt not in ("joust", "melee"):
        abort(400, description="format must be joust or melee")
    return {
        "edition": int(edition) if edition in ("1", "2") else None,
        "fmt": fmt,
        "list_name": (values.get("list") or "").strip() or None,
        "as_of": (values.get("as_of") or "").strip() or None,
    }


def _check(text: str, source: str, options: dict[str, Any]) -> deckcheck.Report:
    """Parse and check one list within the web's bounds: a deadline, and one of the few slots scenario runs share
    (429 when all are busy), so a burst of costly lists cannot take every worker from searches.

    Raises DataError when the list cannot be read or the deadline passes."""
    with current_app.config["JUDGEKB"].scenario_slots.take() as free:
        if not free:
            abort(429, description="the server is checking other decklists or running scenarios; try again in a moment")
        with deckcheck.bounded(source, deckcheck.WEB_SECONDS) as deadline:
            return deckcheck.check(_db(), decklists.parse(text, source), **options, deadline=deadline)


@deck_pages.route("/deckcheck", methods=["GET", "POST"])
def deckcheck_page() -> Any:
    """The form; after a POST the sheet, or (422) the reason the list cannot be read above the same
    form, with the pasted text and the options kept, so a judge fixes the line rather than starts again."""
    report, text, error = None, "", None
    options = _options(request.form if request.method == "POST" else request.args)
    if request.method == "POST":
        text, source = request.form.get("decklist", ""), "pasted decklist"
        try:
            upload = request.files.get("file")
            if upload and upload.filename:
                if text.strip():  # two lists: checking one and dropping the other unsaid would mislead
                    raise DataError(
                        f"both a file ({Path(upload.filename).name}) and pasted text were given: "
                        "clear the pasted text to check the file, or remove the file to check the paste"
                    )
                source = Path(upload.filename).name
                text = decklists.decode(upload.read(), source)
            report = _check(text, source, options)
        except DataError as exc:
            error = str(exc)
    lists = [rl.name for rl in reversed(restricted_lists.load(_db()))]
    page = render_template("deckcheck.html", report=report, text=text, options=options, lists=lists, error=error)
    return page, (422 if error else 200)


@deck_pages.post("/api/deckcheck")
def api_deckcheck() -> Any:
    from judgekb.web import webguard
    from judgekb.web.app import MAX_REQUEST_BYTES

    body = webguard.read_body(request.stream, MAX_REQUEST_BYTES)  # chunked or not: 413 over the cap
    try:  # (it was decoded with replacement characters: 'Dir\ufffdwolf Pup' was checked, not refused as the CLI does)
        report = _check(decklists.decode(body, "posted decklist"), "posted decklist", _options(request.args))
    except DataError as exc:
        abort(422, description=api_words(str(exc)))
    data = report.as_json()
    data["notes"] = [api_words(note) for note in data.get("notes") or []]
    for problem in data.get("problems") or []:
        problem["message"] = api_words(problem["message"])
    return jsonify(data), (422 if report.verdict == "cannot be checked" else 200)
