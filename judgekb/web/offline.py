"""What a phone keeps for when the network drops: the search index and every clause and card page.

The service worker (``static/sw.js``) saves the search index and one bundle holding every clause
page and card page; ``exportsite`` writes the same pages and index as static files.  Offline
search is a plain word match in the browser (``static/app.js``): no glossary, only near-spelling
corrections and a simpler ranking than the server's lookup, and the page says so whenever it is
used (``bench/offline.py`` measures the difference).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_from_directory, url_for

from judgekb.lookup.search import REMOVED_ENTRIES, REMOVED_STANDING_KIND
from judgekb.lookup.words import QUESTION_ONLY

offline = Blueprint("offline", __name__)

# (/offline/page: what the service worker shows for a page not saved, such as /deckcheck, when the network is gone)
SHELL = ("/", "/card", "/changes", "/offline/page", "/static/style.css", "/static/app.js", "/static/icon.svg", "/manifest.webmanifest")


def version(db: Any) -> str:
    """Changes whenever the database is rebuilt or cards are imported, so phones refresh their copy."""
    meta = {r["key"]: r["value"] for r in db.query("select key, value from meta")}
    imported = next(db.query("select count(*) as n from imported_cards"))["n"] if db["imported_cards"].exists() else 0
    return f"{meta.get('fingerprint', '')[:16]}-{meta.get('built', '')}-{imported}"


def card_names(db: Any) -> list[tuple[str, int]]:
    """Every card title a card page exists for: those the corpus names, then imported ones."""
    names = {(r["name"], r["edition"]) for r in db.query("select name, edition from cards")}
    keys = {(r["key"], r["edition"]) for r in db.query("select key, edition from cards")}
    if db["imported_cards"].exists():
        for row in db.query("select distinct name, key, edition from imported_cards"):
            if (row["key"], row["edition"]) not in keys:
                names.add((row["name"], row["edition"]))
                keys.add((row["key"], row["edition"]))
    return sorted(names, key=lambda n: (n[1], n[0].casefold()))


def search_index(db: Any) -> dict[str, Any]:
    """Clauses (id, edition, kind, heading, citation, text, governors, unofficial, stands_removed) and card titles, compactly.

    ``governors`` lists ``[id, relation, sentence]`` in the order the server's search breaks ties between
    them (``search.Index`` reads them by id); ``sentence`` is the opening of the sentence that restates the
    governor, where one sentence does (``links.restatements``).  ``stands_removed`` marks an entry a later
    version removed that is a section (v2.3's list introductions, ``search.REMOVED_STANDING_KIND``): as on the server, it stands on
    its own, marked not in force, when it answers a word its successor does not."""
    removed = {r["dst"] for r in db.query(REMOVED_ENTRIES)}
    sentences = {
        (r["src"], r["dst"]): json.loads(r["data"] or "{}").get("sentence") or ""
        for r in db.query("select src, dst, data from links where type = 'restates'")
    }
    governors: dict[str, list[list[str]]] = {}
    for row in db.query("select clause, governor, relation from governors order by clause, governor"):
        sentence = sentences.get((row["clause"], row["governor"]), "") if row["relation"] == "restates" else ""
        governors.setdefault(row["clause"], []).append([row["governor"], row["relation"], sentence])
    clauses = [
        [r["id"], r["edition"], r["kind"], r["heading"], r["citation"], r["text"], governors.get(r["id"], []),
         int(str(r["doc_kind"]).startswith("unofficial")), int(r["id"] in removed and r["kind"] == REMOVED_STANDING_KIND)]
        for r in db.query(
            "select c.id, c.edition, c.kind, c.heading, c.citation, c.text, d.kind as doc_kind"
            " from clauses c join documents d on d.id = c.doc order by c.doc, c.seq"
        )
    ]  # fmt: skip
    return {
        "version": version(db), "clauses": clauses, "cards": [[n, e] for n, e in card_names(db)],
        "question_only": sorted(QUESTION_ONLY),  # a query of these alone asks nothing yet (as the server says)
    }  # fmt: skip


def page_urls(db: Any) -> list[str]:
    """The URL of every clause page and card page (as the pages link them)."""
    urls = [url_for("pages.clause_page", clause_id=r["id"]) for r in db.query("select id from clauses order by doc, seq")]
    urls += [url_for("pages.card_page", name=name, edition=edition) for name, edition in card_names(db)]
    return urls


def _db() -> Any:
    return current_app.config["JUDGEKB"].db


def _cached(key: str, make: Any) -> Any:
    return current_app.config["JUDGEKB"].cached(("offline", key), make)


def _json_response(body: bytes) -> Response:
    """Gzipped JSON (the body is stored compressed) for every browser; plain for a client that cannot take it."""
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        return Response(gzip.decompress(body), mimetype="application/json", headers={"Cache-Control": "no-cache"})
    headers = {"Content-Encoding": "gzip", "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    return Response(body, mimetype="application/json", headers=headers)


@offline.get("/offline/index.json")
def index_json() -> Any:
    def make() -> bytes:
        text = json.dumps(search_index(_db()), ensure_ascii=False, separators=(",", ":"))
        return gzip.compress(text.encode("utf-8"), compresslevel=6)

    return _json_response(_cached("index", make))


@offline.get("/offline/urls.json")
def urls_json() -> Any:
    _ensure_rendering(current_app._get_current_object())  # type: ignore[attr-defined]  # the bundle is asked for next
    db = _db()
    pages = _cached("urls", lambda: page_urls(db))
    shell = list(SHELL)
    if (current_app.config["JUDGEKB"].corpus.parent / "docs" / "scenarios.md").is_file():
        shell.append("/docs/scenarios")  # static text, kept with the shell (offline it blamed the server: r54 M2)
    return jsonify({"version": _cached("version", lambda: version(db)), "shell": shell, "pages": pages, "bundle": "/offline/bundle.json"})


def bundle(app: Any, db: Any) -> bytes:
    """Every clause and card page in one gzipped JSON document: one download per phone, not thousands of requests.

    Rendered through the app itself, so the saved pages are exactly the served ones.
    """
    client = app.test_client()
    pages = {}
    for url in page_urls(db):
        response = client.get(url)
        if response.status_code == 200:
            pages[url] = response.get_data(as_text=True)
    body = json.dumps({"version": version(db), "pages": pages}, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(body.encode("utf-8"), compresslevel=6)


# how long a request for the bundle waits for a render under way before a 503 (Retry-After): the service worker
# retries every 5 s, so a sync worker is never held long (a hostile-input review: five phones asking during a
# 5-14 s render held five workers, and a judge's search waited 4 s)
BUNDLE_WAIT_SECONDS = 2.0
STALE_LOCK_SECONDS = 600
_renderers: list[subprocess.Popen[bytes]] = []
_loaded: dict[str, bytes] = {}


def bundle_path(db_path: Path, version_text: str) -> Path:
    """Where the rendered bundle of one database version is kept: beside the database, else in the temp folder."""
    name = f"{db_path.stem}.offline-{re.sub(r'[^A-Za-z0-9]+', '-', version_text).strip('-')}.json.gz"
    folder = db_path.parent if os.access(db_path.parent, os.W_OK) else Path(tempfile.gettempdir()) / "judgekb-offline"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


RENDER_NICE = 10  # how far the renderer steps back (os.nice): the server's own requests come first


def lower_priority() -> int:
    """Lower this (renderer) process's priority by ``JUDGEKB_RENDER_NICE`` (0-19; default RENDER_NICE) and return
    the step taken.  The test suite sets 0: with both cores busy under ``pytest -n 2``, a renderer ten steps
    down got almost no time and each test that saves the offline copy waited 40 s for it.  A value that is not
    a whole number from 0 to 19 is said on stderr (the server's log), naming the variable, and the default used."""
    raw = os.environ.get("JUDGEKB_RENDER_NICE", "").strip()
    step = RENDER_NICE
    if raw:
        if raw.isdigit() and 0 <= int(raw) <= 19:
            step = int(raw)
        else:
            said = f"judgekb: JUDGEKB_RENDER_NICE={raw!r} is not a whole number from 0 to 19; the offline renderer uses {RENDER_NICE}"
            print(said, file=sys.stderr)
    try:
        os.nice(step)
    except OSError:
        return 0
    return step


def render_to_file(db_path: Path, corpus: Path, out: Path) -> None:
    """Render the bundle in this (separate, low-priority) process and write it with a temp file and a rename."""
    from judgekb.web.app import create_app

    lower_priority()
    lock = out.with_name(out.name + ".lock")
    try:
        app = create_app(db_path, corpus)
        with app.test_request_context():
            body = bundle(app, app.config["JUDGEKB"].db)
        tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
        tmp.write_bytes(body)
        os.replace(tmp, out)
        stem = out.name.split(".offline-")[0]
        for old in out.parent.glob(f"{stem}.offline-*.json.gz"):  # bundles of earlier database versions
            if old != out:
                old.unlink(missing_ok=True)
    finally:
        lock.unlink(missing_ok=True)


def _ensure_rendering(app: Any) -> Path:
    """Start rendering the bundle once, in a separate low-priority process, unless it exists or is being made.

    It starts when the first phone asks for the offline copy (``/offline/urls.json``), so a server
    nobody installs the copy from never spends the time; a separate process keeps the rendering
    off the workers' own time, and a lock file makes one renderer serve every worker.
    """
    resources = app.config["JUDGEKB"]
    path = bundle_path(resources.db_path, resources.cached(("offline", "version"), lambda: version(resources.db)))
    for done in [p for p in _renderers if p.poll() is not None]:
        _renderers.remove(done)
    if path.exists():
        return path
    lock = path.with_name(path.name + ".lock")
    try:
        if lock.exists() and time.time() - lock.stat().st_mtime > STALE_LOCK_SECONDS:
            lock.unlink(missing_ok=True)  # a renderer that died without cleaning up
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return path  # another worker is rendering it
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    code = "import sys; from pathlib import Path; from judgekb.web.offline import render_to_file; render_to_file(*map(Path, sys.argv[1:]))"
    _renderers.append(
        subprocess.Popen(
            [sys.executable, "-c", code, str(resources.db_path), str(resources.corpus), str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            cwd=str(Path(__file__).resolve().parents[2]),
        )
    )
    return path


@offline.get("/offline/bundle.json")
def bundle_json() -> Any:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    path = _ensure_rendering(app)
    deadline = time.monotonic() + app.config.get("JUDGEKB_BUNDLE_WAIT", BUNDLE_WAIT_SECONDS)
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.25)
    if not path.exists():
        return Response("the offline copy is still being prepared; try again shortly", status=503, headers={"Retry-After": "5"})
    key = str(path)
    if key not in _loaded:
        _loaded.clear()
        _loaded[key] = path.read_bytes()
    return _json_response(_loaded[key])


@offline.get("/offline/page")
def offline_page() -> Any:
    """The page the service worker answers with, offline, for a page this device has not saved: the site's
    menu and a way back to what works offline (it answered with a line of plain text, no way back)."""
    return render_template("offline.html")


@offline.get("/sw.js")
def service_worker() -> Any:
    """Served from the root so its scope covers every page."""
    response = send_from_directory(current_app.static_folder or "", "sw.js", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@offline.get("/manifest.webmanifest")
def manifest() -> Any:
    body = {
        "name": "judgekb — AGoT rules for judges",
        "short_name": "judgekb",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": "#7a1f1f",
        "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    return Response(json.dumps(body), mimetype="application/manifest+json")
