"""``judgekb export-site DIR``: the web pages as static files that open from a folder, a USB stick or any
static host — no Python, no server, no network.

On a static host served over https (or localhost) the copy also installs a service worker
(``sw.js``) that saves every file on the device, so phones keep it without the network.

Every page is rendered by the same Flask app and templates the server uses, then its links are
rewritten to relative file paths (``c/agot1-faq/3.30.html``, ``card/1/val.html``), so the copy reads
exactly like the live site.  Search runs in the browser over ``search-index.js`` (a script, not a
JSON fetch, because browsers refuse fetches from file:// pages).  The copy is written to a
temporary folder beside DIR and renamed into place; an existing folder is replaced only when it
is an earlier export that holds no file judgekb did not write.  The temporary folder of a killed run
is removed by the next run for the same DIR (its ``RUN_FILE`` names the target and a process that
has ended).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from judgekb.corpus.parsers.linemap import slug
from judgekb.files import umask
from judgekb.web import offline
from judgekb.yamlio import DataError

MARKER = ".judgekb-export"
RUN_FILE = ".judgekb-export-run"  # in a temporary folder while a run writes it: which run, so a later one may remove it
STATIC_FILES = ("style.css", "app.js", "icon.svg")
LINK = re.compile(r'(href|src|action)="(/[^"]*)"')


class Site:
    """Where each server URL lives in the exported folder."""

    def __init__(self, db: Any) -> None:
        self.cards: dict[tuple[str, int], str] = {}
        taken: set[str] = set()
        for name, edition in offline.card_names(db):
            base = f"card/{edition}/{slug(name) or 'card'}"
            path, n = f"{base}.html", 2
            while path in taken:
                path, n = f"{base}-{n}.html", n + 1
            taken.add(path)
            self.cards[(name, edition)] = path
        self.by_name: dict[str, list[tuple[int, str]]] = {}
        for (name, edition), path in self.cards.items():
            self.by_name.setdefault(name.casefold(), []).append((edition, path))
        self.docs = [r["id"] for r in db.query("select id from documents order by id")]
        from judgekb.authority.graph import document_versions

        self.versions = {d: document_versions(db, d) for d in self.docs}  # as the changes page offers them

    def file_for(self, url: str) -> str | None:
        """The exported file for a server URL (relative to the site root), or None when it has none."""
        parts = urlsplit(html.unescape(url))
        path, query = parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}
        if path == "/":
            return "index.html" + (f"?{parts.query}" if parts.query else "")
        if path.startswith("/c/"):
            return f"c/{path[3:]}.html"
        if path.startswith("/static/"):
            return path[1:]
        if path == "/card":
            name = query.get("name")
            if not name:
                return "cards.html"
            found = self.by_name.get(name.casefold(), [])
            edition = query.get("edition")
            for ed, file in found:
                if edition in (None, "all") or str(ed) == edition:
                    return file
            return "cards.html"
        if path == "/changes":
            doc, since = query.get("doc"), query.get("since")
            if doc in self.docs and since:
                return f"changes/{doc}/{since}.html"
            return f"changes/{doc}.html" if doc in self.docs else "changes.html"
        if path in ("/scenario", "/deckcheck", "/build"):
            return "needs-server.html"
        return None


def _relative(page_file: str) -> str:
    return "../" * page_file.count("/")


def rewrite(page: str, page_file: str, site: Site) -> str:
    """Server links -> relative file links; the page switched to the exported (static) mode."""
    root = _relative(page_file)
    page = re.sub(r'<link rel="manifest"[^>]*>\n?', "", page)
    page = re.sub(r' · <a class="api-link"[^>]*>JSON</a>', "", page)
    page = page.replace('data-mode="server" data-root="/"', f'data-mode="static" data-root="{root}"', 1)
    if 'id="search-form"' in page or 'id="card-form"' in page:  # only pages that search carry the index
        index = f'<script src="{root}search-index.js" defer></script>\n'
        page = page.replace('<script src="/static/app.js"', index + '<script src="/static/app.js"', 1)

    def link(match: re.Match[str]) -> str:
        target = site.file_for(match[2])
        return f'{match[1]}="{root}{html.escape(target, quote=True)}"' if target else f'{match[1]}="#"'

    return LINK.sub(link, page)


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise DataError(f"{out}: exists and is not a folder; choose another DIR")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise DataError(f"{out}: folder is not empty and is not an earlier judgekb export; nothing was written (choose a new DIR)")
    if (out / MARKER).is_file():  # an earlier export is replaced whole: never with a file the user put there
        try:
            listed = set(json.loads((out / "offline-files.json").read_text(encoding="utf-8"))["files"])
        except (OSError, ValueError, KeyError, TypeError):
            raise DataError(
                f"{out}: an earlier judgekb export whose file list (offline-files.json) is missing or damaged, so the files "
                "judgekb did not write cannot be told apart; nothing was written (choose a new DIR)"
            ) from None
        ours = listed | {"sw.js", "offline-files.json", MARKER, RUN_FILE}  # (RUN_FILE: a run killed just after its rename)
        extra = sorted(str(f.relative_to(out)) for f in out.rglob("*") if f.is_file() and str(f.relative_to(out)) not in ours)
        if extra:
            raise DataError(
                f"{out}: an earlier judgekb export that now also holds files judgekb did not write ({', '.join(extra[:5])}"
                f"{'…' if len(extra) > 5 else ''}); replacing it would delete them, so nothing was written (move them out, "
                "or choose a new DIR)"
            )


def _run_mark(out: Path) -> str:
    """What RUN_FILE holds: the target, this machine and this process (a folder on a stick may be another machine's)."""
    import socket

    return f"judgekb export-site\n{out}\n{socket.gethostname()}\n{os.getpid()}\n"


def _remove_leftovers(out: Path) -> None:
    """Remove the temporary folders of killed runs for ``out`` (about 15 MB each; they were never removed): only a real
    folder of its name, owned by this user, whose RUN_FILE names this target and a process of this machine that has
    ended.  Anything else is left as it is: another run's folder in progress, or a folder judgekb cannot prove it made."""
    try:
        candidates = [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
    except OSError:
        return
    for folder in candidates:
        try:
            info = folder.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            said = (folder / RUN_FILE).read_text(encoding="utf-8") if (folder / RUN_FILE).is_file() else ""
        except (OSError, UnicodeDecodeError):
            continue
        lines, expected = said.split("\n"), _run_mark(out).split("\n")
        if len(lines) != len(expected) or lines[:3] != expected[:3] or not (lines[3].isascii() and lines[3].isdigit()):
            continue
        if int(lines[3]) == os.getpid() or _alive(int(lines[3])):
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's process: alive)
        return True
    return True


def export(db_path: Path, corpus: Path, out: Path) -> dict[str, Any]:
    """Write the static site to ``out``; returns counts, bytes and seconds for the report."""
    from judgekb.web.app import create_app

    started = time.perf_counter()
    out = out.resolve()
    _check_target(out)
    app = create_app(db_path, corpus)
    client = app.test_client()
    db = app.config["JUDGEKB"].db
    site = Site(db)
    try:  # (a read-only stick or folder: a traceback before)
        out.parent.mkdir(parents=True, exist_ok=True)
        _remove_leftovers(out)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        (tmp / RUN_FILE).write_text(_run_mark(out), encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot write in {out.parent}: {exc.strerror or exc}. Choose a writable folder") from None
    # (mkdtemp makes it private: the copy is for others to open, so it gets a folder's usual mode under the umask)
    os.chmod(tmp, 0o777 & ~umask())
    pages = 0
    try:

        def write(file: str, text: str) -> None:
            target = tmp / file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

        def render(url: str, file: str) -> None:
            nonlocal pages
            response = client.get(url)
            if response.status_code != 200:
                raise DataError(f"export: {url} answered {response.status_code}")
            write(file, rewrite(response.get_data(as_text=True), file, site))
            pages += 1

        render("/", "index.html")
        render("/card", "cards.html")
        render("/changes", "changes.html")
        with app.test_request_context():
            from flask import url_for

            for row in db.query("select id from clauses order by doc, seq"):
                render(url_for("pages.clause_page", clause_id=row["id"]), f"c/{row['id']}.html")
            for (name, edition), file in site.cards.items():
                render(url_for("pages.card_page", name=name, edition=edition), file)
            for doc in site.docs:
                render(url_for("pages.changes_page", doc=doc), f"changes/{doc}.html")
                for version in site.versions[doc]:
                    render(url_for("pages.changes_page", doc=doc, since=f"v{version}"), f"changes/{doc}/v{version}.html")
            message = (
                "Scenarios, the scenario builder and deck checks run in judgekb itself, which this copy does not carry: use judgekb serve, "
                "or judgekb run FILE / judgekb deckcheck FILE on the laptop."
            )
            note = app.jinja_env.get_template("error.html").render(status=200, message=message, near=[])
        write("needs-server.html", rewrite(note, "needs-server.html", site))
        index = offline.search_index(db)
        index["cards"] = [[name, edition, site.cards[(name, edition)]] for name, edition in offline.card_names(db)]
        write("search-index.js", "window.JUDGEKB_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n")
        static = Path(app.static_folder or "")
        (tmp / "static").mkdir(exist_ok=True)
        for name in STATIC_FILES:
            shutil.copyfile(static / name, tmp / "static" / name)
        shutil.copyfile(static / "sw-export.js", tmp / "sw.js")  # at the root, so its scope is the whole copy
        kept = [f for f in tmp.rglob("*") if f.is_file() and f.relative_to(tmp) != Path(RUN_FILE)]
        files = sorted(str(f.relative_to(tmp)) for f in kept if f.name != "sw.js")
        (tmp / "offline-files.json").write_text(json.dumps({"version": index["version"], "files": files}), encoding="utf-8")
        (tmp / MARKER).write_text(f"judgekb export of {db_path}\nversion {index['version']}\n", encoding="utf-8")
        kept = [f for f in tmp.rglob("*") if f.is_file() and f.relative_to(tmp) != Path(RUN_FILE)]
        size = sum(f.stat().st_size for f in kept)
        file_count = len(kept)
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            (out / RUN_FILE).write_text(_run_mark(out), encoding="utf-8")  # (the old copy, set aside, is this run's too)
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out)
        (out / RUN_FILE).unlink()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"pages": pages, "files": file_count, "bytes": size, "seconds": time.perf_counter() - started, "path": str(out)}
