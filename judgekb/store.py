"""The SQLite store: built from the corpus in one go, atomically, and rebuilt when it changes.

The database is judgekb's interface — open it with any SQLite tool (``sqlite3 var/judgekb.sqlite .tables``).
Its tables:

* ``documents``  one row per source document (manifest fields);
* ``clauses``    one row per citable clause, with its citation line and JSON ``data``;
* ``spans``      the source character ranges each clause is made of (provenance);
* ``meta``       the corpus fingerprint the database was built from, the schema, the build time and warnings;
* ``clauses_fts`` the FTS5 index over heading and text (porter stemming).

The authority graph (``_write_graph``; read by ``judgekb.authority``):

* ``links``      typed links between clauses, cards and absent documents (supersedes, restates, clarifies,
  cites…), each with its reason, the precedence rule it applies and JSON ``data``;
* ``governors``  each clause with each text that governs it and how (``superseded``, ``restates``), worked out once;
* ``precedence`` the rules of precedence between documents, each with its source clause and reason;
* ``refs``       the explicit references a clause makes ("see FAQ section 3.20") and the clause each names;
* ``cards``      the cards the corpus names (edition, title, loose key, spellings);
* ``card_printings`` each such card's printings (set, number, code) and the clauses naming that printing;
* ``absent_documents`` documents the texts cite that the corpus does not hold;
* ``renamed``    old clause ids and the ids they now have (``corpus/renamed.yaml``; only when it lists one).

The lookup's tables (``judgekb.lookup.tables``):

* ``vocab``, ``stems`` the corpus's words and stems, with how many clauses of each edition use them;
* ``glossary``   synonyms, player vocabulary and set abbreviations, as term and expansion;
* ``english``, ``english_capitalised`` frequent English words, and the everyday ones the texts write
  only capitalised (in a title);
* ``clause_words`` what ranking reads of each clause, worked out at build time;
* ``asked_1``, ``asked_2`` the players' questions of each edition, with their FTS5 indexes ``asked_1_fts``,
  ``asked_2_fts`` (the view ``asked`` is both);
* ``search_meta`` the index's facts (absent topics, event words, nicknames…) as JSON, and a snapshot of the
  index, as JSON and as ``marshal`` data for the Python that built it.

Card data imported by ``judgekb import-cards`` (these exist only after an import):

* ``imported_cards`` every card of an imported database, by edition: text, errata, stats, pack, source;
* ``restricted_lists``, ``restricted_list_cards``, ``restricted_list_pods`` the dated restricted and
  banned lists of a throneteki folder, the cards on each and its pods.

The other ``*_fts_*`` tables are SQLite's own storage for the FTS5 indexes.

Safety: a file is only ever replaced when it is missing, empty or recognisably a judgekb
database (``PRAGMA application_id`` in its header, or the ``meta`` table of older builds);
every write goes to a temporary copy that passes ``PRAGMA quick_check`` before it is renamed
into place, under a lock on the folder so concurrent first uses build once.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

if TYPE_CHECKING:  # sqlite-utils is imported where it is used: a lookup starts without it
    import sqlite_utils

from judgekb.corpus.sources import check_corpus, corpus_fingerprint, corpus_stamp, default_corpus
from judgekb.files import (
    default_mode,  # noqa: F401 - re-exported: the database's own files use it
    stamp_of,
)

SCHEMA_VERSION = "1"
APPLICATION_ID = 0x4A4B4231  # "JKB1", written in the SQLite header: how judgekb knows its own files
SQLITE_MAGIC = b"SQLite format 3\x00"
TEMP_PREFIX = ".judgekb-"
LOCK_SECONDS = 300.0
SIDE_FILES = ("-journal", "-wal", "-shm")
# A file written this recently may be written again within the same tick of a coarse file-system
# clock (FAT's 2 s, HFS+'s 1 s), leaving its stamp unchanged: its fingerprint is not remembered yet.
SETTLED_NS = 3_000_000_000
FINGERPRINT = re.compile(r"[0-9a-f]{64}")


class StoreError(Exception):
    """The database cannot be used or written; the message says what to do.  ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def default_db() -> Path:
    """``$JUDGEKB_DB`` or ``var/judgekb.sqlite`` beside the corpus."""
    env = os.environ.get("JUDGEKB_DB")
    return Path(env) if env else default_corpus().parent / "var" / "judgekb.sqlite"


def build(corpus: Path, db_path: Path, imports: list[Path] | None = None) -> dict[str, Any]:
    """Parse every document and write the database to a temporary file, then rename it.

    Any error leaves an existing database untouched; a file that is not a judgekb database is
    never replaced (StoreError).  Returns counts for the report.
    """
    check_corpus(corpus)
    target = _target(db_path)
    refuse_foreign(target)
    with build_lock(target):
        return _build(corpus, target, imports)


def _build(corpus: Path, db_path: Path, imports: list[Path] | None = None) -> dict[str, Any]:
    """``build`` with the folder lock held."""
    import sqlite_utils

    from judgekb.authority import citation as cite
    from judgekb.authority import links, versions
    from judgekb.cards import cardimport
    from judgekb.corpus.sources import load_documents, parse_document
    from judgekb.yamlio import DataError

    started = time.perf_counter()
    docs = load_documents(corpus)
    parsed = {doc.id: parse_document(doc, corpus) for doc in docs}
    all_ids = [c.id for clauses in parsed.values() for c in clauses]
    if len(all_ids) != len(set(all_ids)):
        dupes = sorted({i for i in all_ids if all_ids.count(i) > 1})
        raise DataError(f"duplicate clause ids across documents: {', '.join(dupes[:5])}")

    # versions first: it marks clause data (successor, previous, new_since) before rows are made
    version_links = versions.align([c for cs in parsed.values() for c in cs], {d.id: d for d in docs}, corpus)

    with _temporary(db_path) as tmp:
        db = sqlite_utils.Database(tmp)
        db.execute(f"pragma application_id = {APPLICATION_ID}")
        sets_file = corpus / "sets.yaml"
        doc_rows = {doc.id: asdict(doc) for doc in docs}
        db.table("documents").insert_all(doc_rows.values(), pk="id")
        clause_rows = []
        span_rows = []
        for doc in docs:
            cited: dict[str, list[tuple[dict[str, Any], Any]]] = {}
            for clause in parsed[doc.id]:
                row = clause.row()
                row["citation"] = cite.citation(row, doc_rows[doc.id], clause.data, sets_file)
                row["page"] = None if clause.page is None else str(clause.page)
                clause_rows.append(row)
                cited.setdefault(row["citation"], []).append((row, clause))
                span_rows += [{"clause": clause.id, "seq": n, "start": s.start, "end": s.end} for n, s in enumerate(clause.spans)]
            for same in (pairs for pairs in cited.values() if len(pairs) > 1):
                # a heading the document prints twice (the unofficial summary repeats "2. DRAW" in its second round
                # sequence): each citation names the line of the copy it comes from, so no two read alike; paragraphs
                # under one heading of a paged document (FAQ v5.5.1's "Restricted Lists", p. 6: its introduction and
                # its rules) are told apart by their order under it
                for n, (row, clause) in enumerate(same, 1):
                    shown = {"line_shown": True} if clause.data.get("line") else {"paragraph_shown": n}
                    row["citation"] = cite.citation(row, doc_rows[doc.id], {**clause.data, **shown}, sets_file)
        db.table("clauses").insert_all(
            clause_rows,
            pk="id",
            foreign_keys=[("doc", "documents", "id")],
            columns={"section": str, "page": str, "version": str},
        )
        db.table("spans").insert_all(span_rows, foreign_keys=[("clause", "clauses", "id")])
        db.table("clauses").create_index(["doc", "seq"])
        db.table("spans").create_index(["clause"])
        db.table("clauses").enable_fts(["heading", "text"], tokenize="porter", create_triggers=False)
        everything = [c for cs in parsed.values() for c in cs]
        graph = links.build(everything, {d.id: d for d in docs}, corpus)
        graph["links"] += version_links
        _write_graph(db, graph)
        from judgekb.authority.verify import load_renamed

        renamed = load_renamed(corpus)
        known = {row["id"] for row in clause_rows}
        for item in renamed:
            if item["new"] not in known:
                raise DataError(f"{corpus / 'renamed.yaml'}: '{item['old']}' is renamed to '{item['new']}', which is no clause")
            if item["old"] in known:
                raise DataError(f"{corpus / 'renamed.yaml'}: '{item['old']}' is still a clause id; a renamed id is never reused")
        db.table("renamed").insert_all(renamed, pk="old", columns={"old": str, "new": str, "reason": str})
        warnings = _write_search_tables(db, everything, clause_rows, graph, corpus)
        imported, skipped = 0, []
        for source in cardimport.remembered(db_path) if imports is None else imports:
            if not source.exists():  # (said, never silent: a judge would otherwise find the cards gone at the event)
                skipped.append(
                    f"{source}: the card data imported from here is gone (moved or deleted), so its cards are not in the "
                    "rebuilt database; run judgekb import-cards with its new place"
                )
                continue
            try:  # an import the user made earlier survives rebuilds
                imported += cardimport.import_path(db, source)[0]
            except DataError as exc:
                if imports is not None:
                    raise
                skipped.append(str(exc))  # a remembered import that went bad must not block the rebuild
        warnings += [f"a remembered card import was skipped: {problem}" for problem in skipped]  # (an automatic rebuild says them too)
        fingerprint = corpus_fingerprint(corpus)
        db.table("meta").insert_all(
            [
                {"key": "schema", "value": SCHEMA_VERSION},
                {"key": "fingerprint", "value": fingerprint},
                {"key": "corpus", "value": str(corpus)},
                {"key": "built", "value": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
                {"key": "warnings", "value": json.dumps(warnings, ensure_ascii=False)},
            ],
            pk="key",
        )
        db.conn.commit()
        db.close()
    counts: dict[str, dict[str, int]] = {}
    for row in clause_rows:
        counts.setdefault(row["doc"], {}).setdefault(row["kind"], 0)
        counts[row["doc"]][row["kind"]] += 1
    seconds = time.perf_counter() - started
    return {
        "clauses": len(clause_rows), "by_doc": counts, "imported": imported, "skipped": skipped, "warnings": warnings,
        "seconds": seconds,
    }  # fmt: skip


def _write_graph(db: sqlite_utils.Database, graph: dict[str, list[dict[str, Any]]]) -> None:
    """Links, cards, printings, explicit references, absent documents and precedence rules."""
    db.table("absent_documents").insert_all(graph["absent"], pk="id")
    cards = ({**c, "spellings": json.dumps(c.get("spellings") or [], ensure_ascii=False)} for c in graph["cards"])
    db.table("cards").insert_all(cards, pk="id")
    db.table("card_printings").insert_all(graph["printings"], foreign_keys=[("card", "cards", "id")])
    db.table("links").insert_all(
        ({**r, "data": json.dumps(r.get("data") or {}, ensure_ascii=False)} for r in graph["links"]),
        columns={"score": float, "rule": str, "version": str, "data": str},
    )
    db.table("refs").insert_all(graph["references"], columns={"page": str})
    db.table("precedence").insert_all(
        ({**r, **{k: json.dumps(r[k], ensure_ascii=False) for k in ("over", "under", "source")}} for r in graph["precedence"]),
        pk="id",
    )
    db.table("links").create_index(["src"])
    db.table("links").create_index(["dst"])
    db.table("cards").create_index(["key"])


def _write_search_tables(
    db: sqlite_utils.Database, clauses: list[Any], clause_rows: list[dict[str, Any]], graph: dict[str, list[dict[str, Any]]], corpus: Path
) -> list[str]:
    """What lookup needs precomputed: the corpus vocabulary and who governs whom (returns warnings)."""
    from judgekb.authority import graph as authority
    from judgekb.lookup import tables

    network = authority.from_rows(clause_rows, graph["cards"], graph["absent"], graph["links"])
    db.table("governors").insert_all(authority.all_governors(network), columns={"clause": str, "governor": str, "relation": str})
    return tables.build_tables(db, clause_rows, corpus)


def _uri(db_path: Path) -> str:
    """A read-only SQLite URI; the path is quoted so '?', '#' or '%' in a folder name stay part of it."""
    return f"file:{quote(os.fsencode(db_path))}?mode=ro"


def _target(db_path: Path) -> Path:
    """Where to write: a symbolic link is followed so the link itself survives a rebuild."""
    return Path(os.path.realpath(db_path)) if db_path.is_symlink() and db_path.exists() else db_path


Ownership = Literal["missing", "empty", "judgekb", "foreign"]


def ownership(db_path: Path) -> tuple[Ownership, str]:
    """Whether judgekb may replace ``db_path``, and if not, why (for the message)."""
    if not os.path.lexists(db_path):
        return "missing", ""
    if not db_path.exists():
        return "foreign", "it is a broken symbolic link"
    if not db_path.is_file():
        return "foreign", "it is not a regular file"
    try:
        with open(db_path, "rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        return "foreign", f"it cannot be read ({exc.strerror})"
    if not header:
        return "empty", ""
    if not header.startswith(SQLITE_MAGIC) or len(header) < 100:
        return "foreign", "it is not an SQLite database"
    if int.from_bytes(header[68:72], "big") == APPLICATION_ID:
        return "judgekb", ""
    try:  # databases built before the application id was written; immutable: a stale journal must not hide them
        conn = sqlite3.connect(_uri(db_path) + "&immutable=1", uri=True)
        try:
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
            keys = {r[0] for r in conn.execute("select key from meta")} if "meta" in tables else set()
        finally:
            conn.close()
    except sqlite3.Error:
        return "foreign", "it is an SQLite database judgekb cannot read"
    if {"clauses", "documents", "meta"} <= tables and {"schema", "fingerprint"} <= keys:
        return "judgekb", ""
    return "foreign", "it is an SQLite database that judgekb did not build"


def refuse_foreign(db_path: Path) -> None:
    """Raise StoreError (exit 2) unless ``db_path`` is missing, empty or a judgekb database."""
    kind, why = ownership(db_path)
    if kind == "foreign":
        raise StoreError(
            f"{db_path} is not a judgekb database ({why}); judgekb will not replace it. "
            "Choose another path with --db or $JUDGEKB_DB, or move the file away."
        )


@contextlib.contextmanager
def build_lock(db_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the database's folder: one writer at a time, temp files cleaned safely."""
    folder = db_path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise StoreError(f"cannot create the database folder {folder}: {exc.strerror}. Choose a writable place with --db.") from None
    try:
        waited = 0.0
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if waited > LOCK_SECONDS:
                    raise StoreError(f"another judgekb process has been writing in {folder} for over {LOCK_SECONDS:.0f}s", 1) from None
                time.sleep(0.05)
                waited += 0.05
        _clean_stale(folder)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def tidy(db_path: Path) -> None:
    """Clean temporary files of killed builds beside a database in use, if no writer holds the lock (never waits)."""
    folder = db_path.parent
    if not any(folder.glob(f"{TEMP_PREFIX}*.sqlite*")):
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _clean_stale(folder)
    except OSError:
        pass  # a writer is busy (its temp file is live) or the folder is read-only
    finally:
        os.close(fd)


def _clean_stale(folder: Path) -> None:
    """Remove temporary files left by killed builds (safe: every database writer holds the folder lock;
    the two stamps beside a database are written without it, and a stamp removed half-written is
    only not saved this time)."""
    for stale in folder.glob(f"{TEMP_PREFIX}*.sqlite*"):
        with contextlib.suppress(OSError):
            stale.unlink()




@contextlib.contextmanager
def _temporary(db_path: Path, copy_of: Path | None = None) -> Iterator[Path]:
    """A temporary database beside ``db_path``; renamed over it once it passes quick_check, else removed."""
    import tempfile  # here, not at the top: a search never writes, and the module costs a cold start ~4 ms

    try:
        handle, name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".sqlite", dir=db_path.parent)
    except OSError as exc:
        raise StoreError(f"cannot write in {db_path.parent}: {exc.strerror}. Choose a writable place with --db.") from None
    tmp = Path(name)
    try:
        os.fchmod(handle, default_mode())
        os.close(handle)
        if copy_of is not None:
            source = sqlite3.connect(_uri(copy_of), uri=True)
            dest = sqlite3.connect(tmp)
            try:
                source.backup(dest)
            finally:
                dest.close()
                source.close()
        yield tmp
        problem = quick_check(tmp)
        if problem:
            raise StoreError(f"the new database failed its check ({problem}); the old one was left in place", 1)
        with open(tmp, "rb+") as written:
            os.fsync(written.fileno())
        for side in SIDE_FILES:  # a journal beside the old file must never be replayed into the new one
            Path(f"{db_path}{side}").unlink(missing_ok=True)
        os.replace(tmp, db_path)
        with contextlib.suppress(OSError):
            folder = os.open(db_path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
    except OSError as exc:
        raise StoreError(f"cannot write {db_path}: {exc.strerror or exc}", 1) from None
    finally:
        tmp.unlink(missing_ok=True)
        Path(f"{tmp}-journal").unlink(missing_ok=True)


def quick_check(db_path: Path) -> str | None:
    """None when ``PRAGMA quick_check`` passes, else what it (or opening the file) reported."""
    try:
        conn = sqlite3.connect(_uri(db_path), uri=True)
        try:
            rows = [r[0] for r in conn.execute("pragma quick_check(5)")]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)
    return None if rows == ["ok"] else "; ".join(map(str, rows))


def _fingerprint_of(db_path: Path) -> str | None:
    try:
        conn = sqlite3.connect(_uri(db_path), uri=True)
        try:
            row = conn.execute("select value from meta where key = 'fingerprint'").fetchone()
            return row[0] if row else None
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def _stamp(db_path: Path) -> str:
    """What changes whenever anything writes the database file."""
    return stamp_of(db_path.stat())


def checked_quick_check(db_path: Path) -> str | None:
    """``quick_check``, skipped when the file has not been written since it last passed.

    A full check costs 15-20 ms, most of a cold command's budget; a database nothing has written
    since it passed cannot have been damaged by a killed writer.  The stamp of the last pass sits
    beside the database (``.checked``); a journal or write-ahead log beside it always forces a check.
    """
    sidecar = db_path.with_name(db_path.name + ".checked")
    busy = any(Path(f"{db_path}{suffix}").exists() for suffix in ("-journal", "-wal"))
    try:
        if not busy and sidecar.read_text(encoding="ascii") == _stamp(db_path):
            return None
    except (OSError, UnicodeDecodeError):
        pass
    problem = quick_check(db_path)
    if problem is None and not busy:
        try:  # best effort: a read-only folder just checks every time
            tmp = sidecar.with_name(f"{TEMP_PREFIX}{os.getpid()}.sqlite.checked")  # tidy() removes one a kill left
            tmp.write_text(_stamp(db_path), encoding="ascii")
            os.replace(tmp, sidecar)
        except OSError:
            pass
    return problem


def remembered_fingerprint(corpus: Path, db_path: Path) -> str:
    """``corpus_fingerprint``, remembered beside the database (``.fingerprint``) with the stamp of the
    files it hashed, and used while no file has been added, removed or written since: reading and
    hashing every corpus and code file cost each cold command about 9 ms of its 150.  Remembered only
    once every file has been still for SETTLED_NS (git's rule for its index), so that an edit made
    in the same clock tick as the hash cannot hide behind an unchanged stamp."""
    sidecar = db_path.with_name(db_path.name + ".fingerprint")
    stamp, newest = corpus_stamp(corpus)
    try:  # the fingerprint, a newline, the stamp
        fingerprint, _, remembered_stamp = sidecar.read_text(encoding="utf-8", errors="surrogateescape").partition("\n")
        if remembered_stamp == stamp and FINGERPRINT.fullmatch(fingerprint):
            return fingerprint
    except OSError:
        pass
    fingerprint = corpus_fingerprint(corpus)
    if time.time_ns() - newest < SETTLED_NS:
        return fingerprint
    try:  # best effort: a read-only folder just hashes every time
        tmp = sidecar.with_name(f"{TEMP_PREFIX}{os.getpid()}.sqlite.fingerprint")  # tidy() removes one a kill left
        tmp.write_text(f"{fingerprint}\n{stamp}", encoding="utf-8", errors="surrogateescape")
        os.replace(tmp, sidecar)
    except OSError:
        pass
    return fingerprint


def _current(corpus: Path, db_path: Path, fingerprint: str) -> bool:
    return ownership(db_path)[0] == "judgekb" and _fingerprint_of(db_path) == fingerprint and checked_quick_check(db_path) is None


def build_warnings(db_path: Path) -> list[str]:
    """What the last build warned about (players' questions skipped), kept in the database."""
    try:
        with contextlib.closing(sqlite3.connect(_uri(_target(db_path)), uri=True)) as conn:
            row = conn.execute("select value from meta where key = 'warnings'").fetchone()
    except sqlite3.Error:
        return []
    return json.loads(row[0]) if row else []


def ensure(corpus: Path, db_path: Path) -> bool:
    """Build the database if it is missing, stale or damaged; True if built.

    A damaged database (``PRAGMA quick_check`` fails, or a stale journal makes it unreadable) is
    rebuilt once; a file judgekb did not build is refused with StoreError.
    """
    check_corpus(corpus)
    target = _target(db_path)
    refuse_foreign(target)  # first: nothing is written beside a file judgekb refuses (a .fingerprint beside notes.txt)
    fingerprint = remembered_fingerprint(corpus, target)
    if _current(corpus, target, fingerprint):
        tidy(target)
        return False
    with build_lock(target):
        if _current(corpus, target, fingerprint):  # another process built it while we waited
            return False
        refuse_foreign(target)
        _build(corpus, target)
    problem = quick_check(target)
    if problem:
        raise StoreError(f"{target} was rebuilt but is still unreadable ({problem}); check the disk, or use another --db path", 1)
    return True


def rewrite(db_path: Path, change: Callable[[sqlite_utils.Database], Any]) -> Any:
    """Apply ``change`` to a copy of the database and rename the copy into place (atomic write)."""
    target = _target(db_path)
    refuse_foreign(target)
    import sqlite_utils

    with build_lock(target), _temporary(target, copy_of=target) as tmp:
        db = sqlite_utils.Database(tmp)
        try:
            result = change(db)
            db.conn.commit()
        finally:
            db.close()
    return result


def connect(db_path: Path, read_only: bool = True) -> sqlite_utils.Database:
    """Open the database (read-only by default) with rows as dicts."""
    import sqlite_utils

    conn = sqlite3.connect(_uri(db_path) if read_only else str(db_path), uri=read_only, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    if read_only:
        _READ_ONLY.add(db)
    return db


_READ_ONLY: weakref.WeakSet[Any] = weakref.WeakSet()


def unchanging(db: Any) -> bool:
    """Is this a read-only connection from ``connect``?  What it reads never changes while it is open: judgekb's
    writers (build, import-cards) write a new file and rename it over the old one, and the open connection goes
    on reading the file it opened.  So a fact worked out from it (the card titles' stamp) can be kept with it."""
    return db in _READ_ONLY


def clause(db: sqlite_utils.Database, clause_id: str) -> dict[str, Any] | None:
    """One clause row with its ``data`` decoded, or None."""
    rows = list(db.query("select * from clauses where id = ?", [clause_id]))
    if not rows:
        return None
    row = rows[0]
    row["data"] = json.loads(row["data"] or "{}")
    return row


def parts(db: sqlite_utils.Database | sqlite3.Connection, clause_id: str) -> list[dict[str, Any]]:
    """The clauses printed under this one, in the document's order: a phase's numbered steps, the
    sections of Shadows or an appendix. Their ids are one level below its own ("…/taxation-phase/7.1"),
    so "7. Taxation phase", a title with no text of its own, can show what happens in it."""
    prefix = clause_id + "/"
    rows = db.execute(  # ("/" + 1 is "0": the range of ids that start with the prefix, on the primary key)
        "select id, heading, citation from clauses where id >= ? and id < ? order by seq", [prefix, clause_id + "0"]
    ).fetchall()  # (a plain sqlite3 connection too: lookup's results name a phase's steps)
    return [{"id": i, "heading": h, "citation": c} for i, h, c in rows if "/" not in i[len(prefix) :]]


def part_of(db: sqlite_utils.Database, clause_id: str) -> dict[str, Any] | None:
    """The clause this one is printed under (``parts`` read upwards), or None."""
    parent = clause_id.rsplit("/", 1)[0]
    if "/" not in parent:  # "agot2-rr/claim": the document itself
        return None
    rows = list(db.query("select id, heading, citation from clauses where id = ?", [parent]))
    return rows[0] if rows else None


def document(db: sqlite_utils.Database, doc_id: str) -> dict[str, Any] | None:
    rows = list(db.query("select * from documents where id = ?", [doc_id]))
    return rows[0] if rows else None


def clause_ids(db: sqlite_utils.Database) -> list[str]:
    return [r["id"] for r in db.query("select id from clauses order by doc, seq")]


def clauses_writing(
    db: sqlite_utils.Database | sqlite3.Connection,
    phrase: str,
    editions: tuple[int, ...] = (1, 2),
    not_kinds: tuple[str, ...] = (),
    limit: int | None = None,
) -> list[tuple[str, int, str, str]]:
    """The clauses (id, edition, heading, text) of ``editions`` whose heading or text writes ``phrase``, its words in
    order as FTS5 matches a quoted phrase; none of ``not_kinds``.  What a lookup notice and a card page read of where
    the texts write a name ("Crown Regent"): one query for both."""
    editions_in, kinds_in = ", ".join("?" * len(editions)), ", ".join("?" * len(not_kinds))
    sql = (
        "select c.id, c.edition, c.heading, c.text from clauses_fts join clauses c on c.rowid = clauses_fts.rowid "
        f"where clauses_fts match ? and c.edition in ({editions_in}) and c.kind not in ({kinds_in})"
        + (f" limit {int(limit)}" if limit else "")
    )
    quoted = '"' + phrase.replace('"', '""') + '"'
    return [(str(i), int(e), h or "", t or "") for i, e, h, t in db.execute(sql, [quoted, *editions, *not_kinds]).fetchall()]


def clause_ids_starting(db: sqlite_utils.Database, prefix: str) -> Iterator[str]:
    """The clause ids that begin with ``prefix``, in order, as they are read (a range of the id's index, not a scan)."""
    return (r["id"] for r in db.query("select id from clauses where id >= ? and id < ? order by id", [prefix, prefix + "\U0010ffff"]))


def nearest_ids(db: sqlite_utils.Database, clause_id: str, limit: int = 5, max_chars: int = 80) -> list[str]:
    """The clause ids close to one that does not exist, closest first; only the first ``max_chars`` are
    compared (bounded time). An id of a known document is compared with that document's ids by what
    follows the document ("agot2-rr/stelth": stealth), and only ids of some likeness are offered:
    "agot2-rr/nonexistent" was offered may, set and str."""
    from rapidfuzz import fuzz, process

    typed = clause_id.strip()[:max_chars]
    ids = clause_ids(db)
    doc, _, rest = typed.partition("/")
    own = [i.removeprefix(f"{doc}/") for i in ids if i.startswith(f"{doc}/")]
    if own and rest:
        found = process.extract(rest, own, scorer=fuzz.ratio, score_cutoff=NEAR_ID_SHARE, limit=limit)
        return [f"{doc}/{tail}" for tail, _, _ in found]
    return [m[0] for m in process.extract(typed, ids, scorer=fuzz.WRatio, score_cutoff=NEAR_ID_WHOLE, limit=limit)] if typed else []


NEAR_ID_SHARE = 55  # (rapidfuzz ratio of what follows the document: "save-and-cancel" is 57 like "cancel")
NEAR_ID_WHOLE = 70  # (WRatio of a whole id typed without a known document: "rr/stealth" is 90 like "agot2-rr/stealth")
