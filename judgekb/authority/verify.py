"""Stale citations caught: lock the clauses a saved ruling cites, verify them after an update.

A ruling read out at an event rests on exact texts.  ``judgekb lock`` records, for every
clause a scenario's trace (or a saved ``run --json`` ruling, or a list of ids) cites, the
citation line, the text and its sha256, and what governed the clause at the time.
``judgekb verify`` compares a lock with the knowledge base as it is now — after a new FAQ
version was added or a map was repaired — and names every citation whose text changed
(old and new text), whose id vanished, whose citation line changed (a corrected page) or
that something new now supersedes.  Lock files are JSON, written to a temporary file and
renamed; a file that is not a judgekb lock is never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgekb.errors import terminal_safe
from judgekb.files import JSONError, read_input, read_json, refuse_special, write_text_atomic
from judgekb.yamlio import DataError

LOCK_FORMAT = "judgekb-lock/1"
MAX_JSON_BYTES = 64 << 20  # a lock or a saved ruling: `run scenarios/ --json` for the 64 library scenarios is 5 MB
STALE = ("changed", "gone", "superseded", "moved")  # a renamed id with the same text still holds


def checksum(text: str) -> str:
    """sha256 of a clause text as served (the stable identity of what a judge reads out)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def permalink(clause_id: str) -> str:
    """The clause's permanent address on the web app; ids never change when a later version
    supersedes a clause (the old document stays in the corpus), so the link keeps working."""
    return f"/c/{clause_id}"


def load_renamed(corpus: Path) -> list[dict[str, str]]:
    """``corpus/renamed.yaml``: old clause ids and the ids they became (for permalinks and locks)."""
    from judgekb.yamlio import check_fields, load, where

    path = corpus / "renamed.yaml"
    if not path.is_file():
        return []
    data = load(path)
    check_fields(path, data, {"renamed"}, set(), "renamed-id file")
    rows = []
    for item in data["renamed"] or []:
        check_fields(path, item, {"old", "new", "reason"}, set(), "renamed id")
        if item["old"] == item["new"]:
            raise DataError(f"{where(path, item)}: 'old' and 'new' are the same id")
        rows.append({"old": str(item["old"]), "new": str(item["new"]), "reason": " ".join(str(item["reason"]).split())})
    return rows


def renamed_to(db: Any, clause_id: str) -> str | None:
    """The id a renamed clause has now (following chains of renames), or None."""
    if "renamed" not in db.table_names():
        return None
    seen = {clause_id}
    current = clause_id
    while True:
        rows = list(db.query("select new from renamed where old = ?", [current]))
        if not rows or rows[0]["new"] in seen:
            return None if current == clause_id else current
        current = rows[0]["new"]
        seen.add(current)


def cited_ids(value: Any) -> list[str]:
    """Every clause id under a ``clauses`` key anywhere in a ruling's JSON, in order, once."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                if key == "clauses" and isinstance(item, list):
                    found.extend(str(i) for i in item if isinstance(i, str))
                else:
                    walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(value)
    return list(dict.fromkeys(found))


def entry(db: Any, graph: Any, clause_id: str) -> dict[str, Any]:
    """What the lock records for one clause as the knowledge base has it now."""
    from judgekb import store
    from judgekb.authority import graph as authority

    row = store.clause(db, clause_id)
    if row is None:
        raise DataError(f"no clause '{clause_id}' to lock")
    return {
        "id": clause_id,
        "citation": row["citation"],
        "heading": row["heading"],
        "text": row["text"],
        "sha256": checksum(row["text"]),
        "governed_by": authority.governed_by(graph, clause_id) or [],
        "permalink": permalink(clause_id),
    }


def make_lock(db: Any, clause_ids: list[str], source: str) -> dict[str, Any]:
    from judgekb.authority import graph as authority

    graph = authority.load(db)
    missing = [i for i in clause_ids if not list(db.query("select 1 from clauses where id = ?", [i]))]
    if missing:
        raise DataError(f"{source}: cites clause ids the knowledge base does not have: {', '.join(missing)}")
    meta = {r["key"]: r["value"] for r in db.query("select key, value from meta")}
    return {
        "format": LOCK_FORMAT,
        "source": source,
        "locked": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "corpus": meta.get("fingerprint"),
        "citations": [entry(db, graph, i) for i in clause_ids],
    }


MAX_ID_CHARS = 200  # a clause id (the longest is under 90 characters)


def read_lock(path: Path) -> dict[str, Any]:
    """A lock file, validated; a clear message for anything else."""
    raw = read_input(path, MAX_JSON_BYTES)  # a regular file, bounded: a FIFO or /dev/zero hung `verify`
    try:  # (standard JSON, text Unicode can hold)
        data = read_json(raw.decode("utf-8"), str(path))
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a judgekb lock file ({exc})") from None
    except JSONError as exc:
        raise DataError(f"{path}: not a judgekb lock file ({exc.reason})") from None
    if not isinstance(data, dict) or data.get("format") != LOCK_FORMAT:
        raise DataError(f"{path}: not a judgekb lock file (no \"format\": \"{LOCK_FORMAT}\")")
    citations = data.get("citations")
    if not isinstance(citations, list):
        raise DataError(f"{path}: field 'citations' must be a list")
    for n, item in enumerate(citations):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("id", "text", "sha256", "citation")):
            raise DataError(f"{path}: citation {n + 1} needs the string fields id, citation, text and sha256")
        governed = item.get("governed_by") or []
        if not isinstance(governed, list) or not all(isinstance(g, str) for g in governed):
            raise DataError(f"{path}: citation {n + 1}: field 'governed_by' must be a list of clause ids")
        if any(len(i) > MAX_ID_CHARS for i in [item["id"], *governed]):  # (a 100,000-character id took 13 s to look up)
            raise DataError(f"{path}: citation {n + 1}: a clause id has at most {MAX_ID_CHARS} characters")
    return data


def write_lock(path: Path, lock: dict[str, Any]) -> None:
    """Write atomically; refuse to replace a file that is not itself a judgekb lock (nor a FIFO or device)."""
    refuse_special(path)
    if path.exists():
        try:
            read_lock(path)
        except DataError:
            raise DataError(f"{path}: exists and is not a judgekb lock file; not overwriting it") from None
    if not path.parent.is_dir():  # (a mistyped folder is said, not made)
        raise DataError(f"{path}: the folder {path.parent} does not exist")
    try:
        write_text_atomic(path, json.dumps(lock, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:  # a read-only stick or folder: a traceback before
        raise DataError(f"{path}: cannot write in {path.parent}: {exc.strerror or exc}. Choose a writable place with -o") from None


@dataclass
class Finding:
    """One citation of a lock, checked: ``status`` is current, changed, gone, moved or superseded."""

    id: str
    status: str
    old: dict[str, Any]
    new: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        out = {"id": self.id, "status": self.status, "old_citation": self.old["citation"], "old_text": self.old["text"]}
        if self.new:
            out |= {"new_citation": self.new["citation"], "new_text": self.new["text"], "new_sha256": self.new["sha256"]}
        return out | ({"notes": self.notes} if self.notes else {})


def verify(db: Any, lock: dict[str, Any]) -> list[Finding]:
    """Compare every locked citation with the knowledge base as it is now."""
    from rapidfuzz import fuzz, process

    from judgekb import store
    from judgekb.authority import graph as authority

    graph = authority.load(db)
    ids = None
    findings = []
    for old in lock["citations"]:
        renamed = renamed_to(db, old["id"]) if store.clause(db, old["id"]) is None else None
        if renamed and store.clause(db, renamed) is not None:
            now = entry(db, graph, renamed)
            status = "current" if now["sha256"] == old["sha256"] else "changed"
            findings.append(Finding(old["id"], "renamed" if status == "current" else "changed", old, now, [f"the id is now {renamed}"]))
            continue
        if store.clause(db, old["id"]) is None:
            ids = ids if ids is not None else store.clause_ids(db)
            same = [r["id"] for r in db.query("select id from clauses where text = ?", [old["text"]])]
            near = [i for i in ids if i.startswith(old["id"] + "-")]
            near += [m[0] for m in process.extract(old["id"], ids, scorer=fuzz.WRatio, limit=3) if m[0] not in near]
            notes = [f"the same text is now {', '.join(same)}"] if same else []
            findings.append(Finding(old["id"], "gone", old, notes=notes + [f"nearest ids now: {', '.join(near[:3])}"]))
            continue
        new = entry(db, graph, old["id"])
        if new["sha256"] != old["sha256"]:
            findings.append(Finding(old["id"], "changed", old, new))
        elif sorted(new["governed_by"]) != sorted(old.get("governed_by") or []):
            added = sorted(set(new["governed_by"]) - set(old.get("governed_by") or []))
            notes = [f"now governed by {g}: {(store.clause(db, g) or {}).get('citation', g)}" for g in added]
            findings.append(Finding(old["id"], "superseded", old, new, notes))
        elif new["citation"] != old["citation"]:
            findings.append(Finding(old["id"], "moved", old, new, ["the text is the same; the citation line changed"]))
        else:
            findings.append(Finding(old["id"], "current", old, new))
    return findings


def report(findings: list[Finding], name: str) -> list[str]:
    """The lines ``judgekb verify`` prints for one lock file."""
    labels = {
        "changed": "TEXT CHANGED",
        "gone": "ID VANISHED",
        "superseded": "SUPERSEDED",
        "moved": "CITATION CHANGED",
        "renamed": "ID RENAMED",
    }
    lines = []
    for f in findings:
        if f.status == "current":
            continue
        lines.append(f"{labels[f.status]} {f.id}  ({name})")
        lines.append(f"  was: {f.old['citation']}")
        if f.status in ("changed", "gone"):
            lines.append(f"       {f.old['text']}")
        if f.new and f.status not in ("superseded",):
            lines.append(f"  now: {f.new['citation']}")
            if f.status == "changed":
                lines.append(f"       {f.new['text']}")
        lines += [f"  {note}" for note in f.notes]
    current = sum(f.status not in STALE for f in findings)
    lines.append(f"{name}: {current} of {len(findings)} citations current, {len(findings) - current} stale")
    return lines


# ------------------------------------------------------------------ command line (registered in cli.py)

import click  # noqa: E402  (kept beside the commands it serves)


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"judgekb: {terminal_safe(message)}", err=True)
    raise SystemExit(code)


def _ids_from_file(obj: Any, path: Path) -> list[str]:
    """Clause ids a scenario (run now, within the limits `judgekb run` has) or a saved ``run --json`` ruling cites."""
    if path.suffix in (".yaml", ".yml"):
        from judgekb.engine import guard
        from judgekb.engine.core import runner

        try:
            _, view = guard.run(path, guard.read_file(path, guard.CLI), runner.load_titles(obj.corpus), guard.CLI)
        except guard.ScenarioError as exc:
            raise DataError(str(exc)) from None
        return cited_ids(view)
    if path.suffix == ".json":
        raw = read_input(path, MAX_JSON_BYTES)
        try:
            return cited_ids(read_json(raw.decode("utf-8"), str(path)))
        except UnicodeDecodeError as exc:
            raise DataError(f"{path}: not a saved ruling ({exc})") from None
        except JSONError as exc:
            raise DataError(f"{path}: not a saved ruling ({exc.reason})") from None
        except RecursionError:  # (in cited_ids' walk of what the parser returned)
            raise DataError(f"{path}: not a saved ruling (the JSON is nested too deeply)") from None
    raise DataError(f"{path}: give a scenario (.yaml) or a saved ruling from `judgekb run --json` (.json)")


@click.command(name="lock")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--id", "ids", multiple=True, help="Also lock this clause id (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Lock file to write (default: FILE.lock.json).")
@click.pass_obj
def lock_command(obj: Any, files: tuple[Path, ...], ids: tuple[str, ...], output: Path | None) -> None:
    """Record the checksum of every clause a scenario or saved ruling cites, for `judgekb verify`."""
    if not files and not ids:
        _fail("give a scenario file, a saved ruling (.json) or --id CLAUSE_ID")
    if output is None:
        if len(files) != 1:
            _fail("with several files, or only --id, name the lock file with -o FILE")
        output = files[0].with_name(files[0].name + ".lock.json")
    db = obj.db()
    cited: list[str] = []
    try:
        for path in files:
            if not path.exists():
                raise DataError(f"{path}: no such file")
            if not path.is_file():
                raise DataError(f"{path}: not a regular file (a FIFO, device or folder)")
            cited += _ids_from_file(obj, path)
        cited = list(dict.fromkeys(cited + [i.strip() for i in ids]))
        if not cited:
            raise DataError(f"{', '.join(map(str, files))}: cites no clauses")
        lock = make_lock(db, cited, ", ".join(str(p) for p in files) or "--id")
        write_lock(output, lock)
    except DataError as exc:
        _fail(str(exc))
    click.echo(f"locked {len(cited)} citations in {output}")


@click.command(name="verify")
@click.argument("locks", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.pass_obj
def verify_command(obj: Any, locks: tuple[Path, ...], as_json: bool) -> None:
    """Report every locked citation whose text changed, whose id vanished, whose citation
    changed or that is now superseded.  Exit 0 all current, 1 something is stale, 2 bad input."""
    db = obj.db()
    results: dict[str, list[Finding]] = {}
    try:
        for path in locks:
            beside = path.with_name(path.name + ".lock.json")  # `verify scenario.yaml` finds its lock
            if path.suffix in (".yaml", ".yml") and beside.is_file():
                path = beside
            results[str(path)] = verify(db, read_lock(path))
    except DataError as exc:
        _fail(str(exc))
    if as_json:
        click.echo(json.dumps({k: [f.as_json() for f in v] for k, v in results.items()}, ensure_ascii=False, indent=2))
    else:
        for name, findings in results.items():
            for line in report(findings, name):
                click.echo(terminal_safe(line))
    if any(f.status in STALE for fs in results.values() for f in fs):
        raise SystemExit(1)
