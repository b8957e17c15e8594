"""The SQLite store: built from the corpus in one go, atomically, and rebuilt when it changes.

The database is judgekb's interface — open it with any SQLite tool:

* ``documents``  one row per source document (manifest fields);
* ``clauses``    one row per citable clause, with its citation line and JSON ``data``;
* ``spans``      the source character ranges each clause is made of (provenance);
* ``meta``       the corpus fingerprint the database was built from;
* ``clauses_fts`` the FTS5 index over heading and text (porter stemming).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sqlite-utils is imported where it is used: a lookup starts without it
    import sqlite_utils

from judgekb.sources import corpus_fingerprint, default_corpus

SCHEMA_VERSION = "1"


def default_db() -> Path:
    """``$JUDGEKB_DB`` or ``var/judgekb.sqlite`` beside the corpus."""
    env = os.environ.get("JUDGEKB_DB")
    return Path(env) if env else default_corpus().parent / "var" / "judgekb.sqlite"


def build(corpus: Path, db_path: Path, imports: list[Path] | None = None) -> dict[str, Any]:
    """Parse every document and write the database to a temporary file, then rename it.

    Any error leaves an existing database untouched.  Returns counts for the report.
    """
    import sqlite_utils

    from judgekb import cardimport, links, versions
    from judgekb import citation as cite
    from judgekb.sources import load_documents, parse_document
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

    db_path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_name = tempfile.mkstemp(prefix=".judgekb-", suffix=".sqlite", dir=db_path.parent)
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        db = sqlite_utils.Database(tmp)
        sets_file = corpus / "sets.yaml"
        doc_rows = {doc.id: asdict(doc) for doc in docs}
        db["documents"].insert_all(doc_rows.values(), pk="id")
        clause_rows = []
        span_rows = []
        for doc in docs:
            for clause in parsed[doc.id]:
                row = clause.row()
                row["citation"] = cite.citation(row, doc_rows[doc.id], clause.data, sets_file)
                row["page"] = None if clause.page is None else str(clause.page)
                clause_rows.append(row)
                span_rows += [{"clause": clause.id, "seq": n, "start": s.start, "end": s.end} for n, s in enumerate(clause.spans)]
        db["clauses"].insert_all(
            clause_rows,
            pk="id",
            foreign_keys=[("doc", "documents", "id")],
            columns={"section": str, "page": str, "version": str},
        )
        db["spans"].insert_all(span_rows, foreign_keys=[("clause", "clauses", "id")])
        db["clauses"].create_index(["doc", "seq"])
        db["spans"].create_index(["clause"])
        db["clauses"].enable_fts(["heading", "text"], tokenize="porter", create_triggers=False)
        everything = [c for cs in parsed.values() for c in cs]
        graph = links.build(everything, {d.id: d for d in docs}, corpus)
        graph["links"] += version_links
        _write_graph(db, graph)
        from judgekb.verify import load_renamed

        renamed = load_renamed(corpus)
        known = {row["id"] for row in clause_rows}
        for item in renamed:
            if item["new"] not in known:
                raise DataError(f"{corpus / 'renamed.yaml'}: '{item['old']}' is renamed to '{item['new']}', which is no clause")
            if item["old"] in known:
                raise DataError(f"{corpus / 'renamed.yaml'}: '{item['old']}' is still a clause id; a renamed id is never reused")
        db["renamed"].insert_all(renamed, pk="old", columns={"old": str, "new": str, "reason": str})
        _write_search_tables(db, everything, clause_rows, graph, corpus)
        imported = 0
        for source in cardimport.remembered(db_path) if imports is None else imports:
            if source.exists():  # an import the user made earlier survives rebuilds
                imported += cardimport.import_path(db, source)[0]
        fingerprint = corpus_fingerprint(corpus)
        db["meta"].insert_all(
            [
                {"key": "schema", "value": SCHEMA_VERSION},
                {"key": "fingerprint", "value": fingerprint},
                {"key": "corpus", "value": str(corpus)},
                {"key": "built", "value": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
            ],
            pk="key",
        )
        db.conn.commit()
        db.close()
        os.replace(tmp, db_path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    counts: dict[str, dict[str, int]] = {}
    for row in clause_rows:
        counts.setdefault(row["doc"], {}).setdefault(row["kind"], 0)
        counts[row["doc"]][row["kind"]] += 1
    return {"clauses": len(clause_rows), "by_doc": counts, "imported": imported, "seconds": time.perf_counter() - started}


def _write_graph(db: sqlite_utils.Database, graph: dict[str, list[dict[str, Any]]]) -> None:
    """Links, cards, printings, explicit references, absent documents and precedence rules."""
    db["absent_documents"].insert_all(graph["absent"], pk="id")
    db["cards"].insert_all(({**c, "spellings": json.dumps(c.get("spellings") or [], ensure_ascii=False)} for c in graph["cards"]), pk="id")
    db["card_printings"].insert_all(graph["printings"], foreign_keys=[("card", "cards", "id")])
    db["links"].insert_all(
        ({**r, "data": json.dumps(r.get("data") or {}, ensure_ascii=False)} for r in graph["links"]),
        columns={"score": float, "rule": str, "version": str, "data": str},
    )
    db["refs"].insert_all(graph["references"], columns={"page": str})
    db["precedence"].insert_all(
        ({**r, **{k: json.dumps(r[k], ensure_ascii=False) for k in ("over", "under", "source")}} for r in graph["precedence"]),
        pk="id",
    )
    db["links"].create_index(["src"])
    db["links"].create_index(["dst"])
    db["cards"].create_index(["key"])


def _write_search_tables(
    db: sqlite_utils.Database, clauses: list[Any], clause_rows: list[dict[str, Any]], graph: dict[str, list[dict[str, Any]]], corpus: Path
) -> None:
    """What lookup needs precomputed: the corpus vocabulary and who governs whom."""
    from judgekb import authority, search

    network = authority.from_rows(clause_rows, graph["cards"], graph["absent"], graph["links"])
    db["governors"].insert_all(authority.all_governors(network), columns={"clause": str, "governor": str, "relation": str})
    search.build_tables(db, clause_rows, corpus)


def _fingerprint_of(db_path: Path) -> str | None:
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            row = conn.execute("select value from meta where key = 'fingerprint'").fetchone()
            return row[0] if row else None
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def ensure(corpus: Path, db_path: Path) -> bool:
    """Build the database if it is missing or was built from a different corpus; True if built."""
    if db_path.is_file() and _fingerprint_of(db_path) == corpus_fingerprint(corpus):
        return False
    build(corpus, db_path)
    return True


def connect(db_path: Path, read_only: bool = True) -> sqlite_utils.Database:
    """Open the database (read-only by default) with rows as dicts."""
    import sqlite_utils

    uri = f"file:{db_path}?mode=ro" if read_only else str(db_path)
    conn = sqlite3.connect(uri, uri=read_only, check_same_thread=False)
    return sqlite_utils.Database(conn)


def clause(db: sqlite_utils.Database, clause_id: str) -> dict[str, Any] | None:
    """One clause row with its ``data`` decoded, or None."""
    rows = list(db.query("select * from clauses where id = ?", [clause_id]))
    if not rows:
        return None
    row = rows[0]
    row["data"] = json.loads(row["data"] or "{}")
    return row


def document(db: sqlite_utils.Database, doc_id: str) -> dict[str, Any] | None:
    rows = list(db.query("select * from documents where id = ?", [doc_id]))
    return rows[0] if rows else None


def clause_ids(db: sqlite_utils.Database) -> list[str]:
    return [r["id"] for r in db.query("select id from clauses order by doc, seq")]
