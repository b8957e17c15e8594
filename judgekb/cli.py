"""The ``judgekb`` command line.  Heavy imports stay inside commands so a lookup starts fast.

Exit status: 0 success, 2 bad input (unknown id, malformed corpus file), 1 anything else.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import sys
import textwrap
from pathlib import Path
from typing import Any, NoReturn

import click
from click.core import ParameterSource

from judgekb.errors import terminal_safe

EXIT_BAD_INPUT = 2
MAX_SUGGEST_CHARS = 80  # nearest-id suggestions compare at most this much of what was typed


class Context:
    """Where the corpus and database are; the database is built on first use."""

    def __init__(self, corpus: Path, db: Path) -> None:
        self.corpus = corpus
        self.db_path = db

    def ensure(self) -> Path:
        """The database path, built first if it is missing or stale."""
        from judgekb import store
        from judgekb.errors import DataError

        try:
            if store.ensure(self.corpus, self.db_path):
                click.echo(f"built {self.db_path} from {self.corpus}", err=True)
                for warning in store.build_warnings(self.db_path):
                    click.echo(f"judgekb: warning: {warning}", err=True)
                cache_bytecode()
        except DataError as exc:
            fail(f"cannot build the knowledge base: {exc}")
        return self.db_path

    def db(self) -> Any:
        from judgekb import store

        return store.connect(self.ensure())


def cache_bytecode(package: Path = Path(__file__).parent) -> bool:
    """Compile judgekb's modules to bytecode beside them, as pip does for a package it installs.

    An editable install (the README's) leaves that to the first import, which writes nothing when
    PYTHONDONTWRITEBYTECODE is set, as it is on the project's machine: every cold command then
    compiled the package again, over 100 ms of a 200 ms search.  Called after each build, which any
    change to the code brings about; a folder that cannot be written is left as it is (False).
    """
    import compileall

    return bool(compileall.compile_dir(package, quiet=2))


def quoted(value: str, width: int = MAX_SUGGEST_CHARS) -> str:
    """What the user typed, quoted for a message: its start only when it is long (a 10 KB argument was repeated whole)."""
    return repr(value) if len(value) <= width else f"{value[:width]!r}… ({len(value):,} characters)"


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(f"judgekb: {terminal_safe(message)}", err=True)
    sys.exit(code)


def _not_text(value: str) -> bool:
    """True for an argument that was not valid UTF-8 (Python keeps such bytes as lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class Text(click.ParamType):
    """An id, name, document or version: text that must be valid UTF-8 (a search query and paths need not be)."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, str) and _not_text(value):
            shown = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            self.fail(f"'{shown[:80]}' is not valid UTF-8 text", param, ctx)
        return value


TEXT = Text()


# Commands whose module is imported only when the command runs (click's lazy-group pattern): the
# stale-citation checks read YAML, which a plain lookup should not pay for at start-up.
LAZY_COMMANDS = {"lock": ("judgekb.authority.verify", "lock_command"), "verify": ("judgekb.authority.verify", "verify_command")}


class Commands(click.Group):
    """The command group, plus what every command shares: store problems become messages, not tracebacks."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            import importlib

            module, name = LAZY_COMMANDS[cmd_name]
            command: click.Command = getattr(importlib.import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        # sqlite-utils imports numpy when it is installed (~0.1 s) only to convert numpy values on
        # insert; the command line never passes any, so keep a lookup's start-up fast.
        sys.modules.setdefault("numpy", None)  # type: ignore[arg-type]
        from judgekb.store import StoreError

        try:
            return super().invoke(ctx)
        except StoreError as exc:
            fail(str(exc), exc.code)
        except sqlite3.DatabaseError as exc:  # damage quick_check did not see when the file was opened
            obj = ctx.obj
            where = obj.db_path if obj else "the database"
            fail(f"the database {where} could not be read ({exc}); if it is damaged, `judgekb build` rebuilds it", 1)
        except OSError as exc:
            if exc.errno not in WRITE_ERRORS:
                raise
            output_failed(exc)


WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}  # a full disk or /dev/full, a quota, a failing device


def output_failed(exc: OSError) -> NoReturn:
    """Output that could not be written (``search claim > /dev/full``): one line on stderr, exit 1, and no second
    error when the interpreter flushes stdout at exit (it is pointed at the null device first)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    fail(f"cannot write {exc.filename or 'the output'}: {exc.strerror}", 1)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--corpus",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="JUDGEKB_CORPUS",
    default=None,
    help="Corpus folder (default: corpus/ of this checkout).",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="JUDGEKB_DB",
    default=None,
    help="SQLite database (default: var/judgekb.sqlite).",
)
@click.pass_context
def main(ctx: click.Context, corpus: Path | None, db: Path | None) -> None:
    """judgekb: rules-judge knowledge base for A Game of Thrones: The Card Game (1st and 2nd edition)."""
    from judgekb.corpus.sources import check_corpus, default_corpus
    from judgekb.errors import DataError
    from judgekb.store import default_db

    folder = corpus or default_corpus()
    try:
        check_corpus(folder)
    except DataError as exc:
        fail(str(exc))
    ctx.obj = Context(folder, db or default_db())


@main.command()
@click.pass_obj
def build(obj: Context) -> None:
    """Parse corpus/ into the SQLite database (atomically: temporary file, then rename)."""
    from judgekb import store
    from judgekb.yamlio import DataError

    try:
        report = store.build(obj.corpus, obj.db_path)
    except DataError as exc:
        fail(f"build failed, database left as it was:\n{exc}")
    for warning in report.get("warnings", []):  # (skipped card imports among them)
        click.echo(f"judgekb: warning: {warning}", err=True)
    cache_bytecode()
    click.echo(f"built {obj.db_path}: {report['clauses']} clauses in {report['seconds']:.2f}s")
    for doc, kinds in report["by_doc"].items():
        parts = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        click.echo(f"  {doc}: {sum(kinds.values())} ({parts})")


def _lookup(obj: Context, clause_id: str) -> tuple[Any, dict[str, Any]]:
    from judgekb import store

    if not clause_id.strip():
        fail("give a clause id, e.g. agot2-rr/winning-a-challenge (find one with: judgekb search WORDS)")
    db = obj.db()
    row = store.clause(db, clause_id.strip())
    from judgekb.authority.verify import renamed_to  # a renamed id keeps working

    if row is None and (new_id := renamed_to(db, clause_id.strip())):
        click.echo(f"judgekb: '{clause_id}' is now '{new_id}'", err=True)
        row = store.clause(db, new_id)
    if row is None:
        shown = clause_id if len(clause_id) <= MAX_SUGGEST_CHARS else clause_id[:MAX_SUGGEST_CHARS] + "…"
        near = store.nearest_ids(db, clause_id)
        fail(
            f"no clause '{shown}'. Nearest ids:\n  " + "\n  ".join(near) if near
            else f"no clause '{shown}', and no id is near it: find the clause with judgekb search WORDS"
        )  # fmt: skip
    return db, row


def clause_text(row: dict[str, Any]) -> str:
    """A clause's text as ``show`` and ``governing`` print it: as a copy button gives it (a Q&A as "Q: …" and
    "A: …", paragraphs and list items on lines of their own with the numbers the page draws, no Markdown
    markers), then the numbers of an HTML list the text does not lay out."""
    from judgekb.web import views

    text = views.copy_text(row)
    if row["data"].get("numbered_items") and not row["data"].get("blocks"):  # an HTML <ol>: the page draws these numbers
        text += "\nNumbered on the page: " + " · ".join(f"{i['n']}. {i['starts']}" for i in row["data"]["numbered_items"])
    return text


@main.command()
@click.argument("clause_id", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@click.pass_obj
def show(obj: Context, clause_id: str, as_json: bool) -> None:
    """Print a clause: citation line, text and its document's authority."""
    from judgekb.authority import graph as authority
    from judgekb.web import views

    db, row = _lookup(obj, clause_id)
    info = views.clause_object(db, authority.load(db), row)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
        return
    click.echo(row["citation"])
    click.echo()
    click.echo(clause_text(row))
    for passage in info["struck"]:  # the document's own words, struck through: never its text, shown marked
        state = "overruled, not in force" if passage["overruled_by"] else "not in force"
        click.echo(f"Struck through on the page ({state}), before “{passage['before']}”:")
        click.echo(f"  [struck] {passage['text']}")
        for by in passage["overruled_by"]:
            click.echo(f"  Overruled by {by['citation']}  [{by['id']}]")
    if info["parts"]:
        click.echo("In this section:")
        for part in info["parts"]:
            click.echo(f"  {part['heading']}  [{part['id']}]")
    if info["part_of"]:
        click.echo(f"Part of: {info['part_of']['heading']}  [{info['part_of']['id']}]")
    click.echo()
    from judgekb.corpus.glyphs import reader_notes  # glyphs explained, misprints noted

    for note in reader_notes(row["data"]):
        click.echo(f"Note: {note}")
    click.echo(f"Authority: {info['document']} — {info['authority']}")
    if len(info["versions"]) > 1:
        click.echo("Versions: " + views.trail_line(info["versions"], row["id"]))
    elif row["data"].get("new_since"):
        click.echo(f"Versions: new since v{row['data']['new_since']} (no earlier version of this entry)")
    if info["governed_by"]:
        click.echo(f"Governed by: {', '.join(info['governed_by'])}  (judgekb governing {row['id']})")
    if info["links"]:
        click.echo("Links:")
        for item in info["links"]:
            arrow = "→" if item["direction"] == "out" else "←"
            click.echo(f"  {arrow} {item['type']} {item['id']} — {item['reason']}")


@main.command()
@click.argument("clause_id", type=TEXT)
@click.pass_obj
def cite(obj: Context, clause_id: str) -> None:
    """Print the citation line, ready to read out (and the note on a misprint it quotes, which goes with it)."""
    from judgekb.corpus.glyphs import citation_notes

    _, row = _lookup(obj, clause_id)
    click.echo(row["citation"])
    for note in citation_notes(row["data"]):
        click.echo(f"Note: {note}")


@main.command(name="list")
@click.argument("doc_id", type=TEXT)
@click.option("--kind", type=TEXT, help="Only clauses of this kind.")
@click.pass_obj
def list_clauses(obj: Context, doc_id: str, kind: str | None) -> None:
    """List a document's clause ids and headings, in document order."""
    from judgekb import store

    db = obj.db()
    if store.document(db, doc_id) is None:
        docs = [r["id"] for r in db.query("select id from documents order by id")]
        fail(f"no document {quoted(doc_id)}. Documents: {', '.join(docs)}")
    if kind is not None:
        from judgekb.corpus.model import KINDS

        if kind not in KINDS:  # (an unknown kind listed nothing, exit 0, as if the document had none; search refuses it)
            fail(f"unknown --kind '{kind}'; kinds are: {', '.join(KINDS)}")
    sql = "select id, kind, heading from clauses where doc = ?" + (" and kind = ?" if kind else "") + " order by seq"
    for row in db.query(sql, [doc_id, kind] if kind else [doc_id]):
        click.echo(f"{row['id']}\t{row['kind']}\t{row['heading']}")


@main.command()
@click.pass_obj
def stats(obj: Context) -> None:
    """Clause counts per document and kind, and the players' questions indexed."""
    from judgekb import store

    db = obj.db()
    for doc in db.query("select id, title from documents order by id"):
        rows = list(db.query("select kind, count(*) n from clauses where doc = ? group by kind order by kind", [doc["id"]]))
        total = sum(r["n"] for r in rows)
        click.echo(f"{doc['id']}: {total} clauses — " + ", ".join(f"{r['kind']} {r['n']}" for r in rows))
    asked = next(db.query("select count(*) n, count(distinct id) c from asked"), None) if "asked" in db.view_names() else None
    if asked:
        click.echo(f"players' questions: {asked['n']} over {asked['c']} clauses")
    for warning in store.build_warnings(obj.db_path):
        click.echo(f"judgekb: warning from the last build: {warning}", err=True)


@main.command()
@click.argument("clause_id", type=TEXT)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@click.pass_obj
def governing(obj: Context, clause_id: str, as_json: bool) -> None:
    """The text that governs a clause, the chain it supersedes, and the reason for each link."""
    from judgekb import store
    from judgekb.authority import graph as authority
    from judgekb.web import views

    db, row = _lookup(obj, clause_id)
    info = views.governing_object(db, authority.load(db), row)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
        return
    click.echo(f"{row['citation']}  [{row['id']}]")
    if [g["id"] for g in info["governing"]] == [row["id"]] and info["overruled"]:
        click.echo("This text governs: nothing in the corpus replaces the text it serves.")
    elif [g["id"] for g in info["governing"]] == [row["id"]]:
        click.echo("This text governs: nothing in the corpus replaces it.")
    elif info["superseded"] == "part":  # as the clause page's banner says it
        click.echo(f"Partly superseded: {len(info['replaced'])} of its paragraphs are replaced; the rest of this text governs.")
        click.echo("The paragraphs replaced, and by what:")
        for item in info["replaced"]:
            click.echo(f"  · the paragraph beginning “{item['paragraph']}” — by {item['citation']}  [{item['id']}]")
        click.echo("\nGoverned by (those paragraphs):")
    else:
        click.echo("Governed by:")
    if [g["id"] for g in info["governing"]] != [row["id"]]:
        for number, result in enumerate(info["governing"], 1):
            click.echo(f"\n{number}. {result['citation']}  [{result['id']}]")
            target = store.clause(db, result["id"]) if result["text"] else None
            if target:  # laid out as `show` prints it: "after Step 3" needs the steps' numbers
                click.echo(textwrap.indent(clause_text(target), "   "))
            for step in result["chain"]:
                verb = "is superseded by" if step["type"] == "supersedes" else "restates"
                click.echo(f"   · {step['from']} {verb} {step['to']}: {step['reason']}")
                if step.get("rule"):
                    rule = list(db.query("select reason from precedence where id = ?", [step["rule"]]))
                    if rule:
                        click.echo(f"     precedence ({step['rule']}): {rule[0]['reason']}")
                paragraph = (step.get("data") or {}).get("paragraph")
                if paragraph:
                    click.echo(f"     replaced paragraph begins: “{paragraph}”")
    if info["clarifies"]:
        click.echo("\nThis text clarifies (a ruling on how the printed card works; the printed text stands):")
        for item in info["clarifies"]:
            click.echo(f"  · {views.node_label(db, item['id'])}  [{item['id']}] — {item['reason']}")
    if info["clarified_by"]:
        click.echo("\nRead with (rulings on how this text reads; they replace none of it):")
        for item in info["clarified_by"]:
            click.echo(f"  · {item['citation']}  [{item['id']}] — {item['reason']}")
    for passage in info["overruled"]:
        click.echo(f"\nOverruled: a passage the page strikes through (not part of the text served), before “{passage['before']}”:")
        click.echo(f"   [struck] {passage['text']}")
        for by in passage["overruled_by"]:
            click.echo(f"   · overruled by {by['citation']}  [{by['id']}]: {by['reason']}")
            if by.get("rule"):
                rule = list(db.query("select reason from precedence where id = ?", [by["rule"]]))
                if rule:
                    click.echo(f"     precedence ({by['rule']}): {rule[0]['reason']}")
    if info["supersedes"]:
        click.echo("\nThis text supersedes:")
        for item in info["supersedes"]:
            struck = (item.get("data") or {}).get("struck")
            part = f" (only the passage it strikes through: “{struck}…”)" if struck else ""
            click.echo(f"  · {views.node_label(db, item['id'])}  [{item['id']}]{part} — {item['reason']}")


@main.command()
@click.argument("doc_id", type=TEXT)
@click.option("--since", type=TEXT, required=True, help="A version such as v5.4: list what was introduced after it.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def changes(obj: Context, doc_id: str, since: str, as_json: bool) -> None:
    """Entries of a document introduced after a version (version tags), and what later versions changed."""
    from judgekb import store
    from judgekb.authority import graph as authority

    db = obj.db()
    if store.document(db, doc_id) is None:
        fail(f"no document {quoted(doc_id)}")
    if not authority.is_version(since):
        fail(f"--since takes a version such as v5.4, not {quoted(since)}")
    # (a version past the last, or a document without versions, said "no entries ... after v99", exit 0: a typo
    # such as v55 for v5.5 read as "nothing changed")
    unversioned = authority.no_versions(db, doc_id)
    if unversioned:
        fail(unversioned)
    known = authority.document_versions(db, doc_id)
    if authority.version_key(since) > authority.version_key(known[-1]):
        fail(f"--since {quoted(since)} is past {doc_id}'s last version: its versions run from v{known[0]} to v{known[-1]}")
    rows = authority.changes(db, doc_id, since)
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    if not rows:
        click.echo(f"No entries of {doc_id} carry a version after {since}.")
    for item in rows:
        said, reason = item.get("change"), item.get("reason") or ""
        # the change first, as scripts split it ("reworded: from v2.3: …"; it said "reworded: reworded from …")
        change = f"\t{said}: {reason.removeprefix(said).lstrip() if reason.startswith(said) else reason}" if said else ""
        if item.get("previous"):
            change += f" (the earlier text: {item['previous']})"
        click.echo(f"v{item['version']}\t{item['kind']}\t{item['id']}\t{item['heading']}{change}")


@main.command()
@click.argument("name", type=TEXT)
@click.option("--edition", type=click.Choice(["1", "2"]), help="Only this edition's card.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def card(obj: Context, name: str, edition: str | None, as_json: bool) -> None:
    """Everything the corpus says about a card: errata, restricted/banned status, FAQ answers, rules."""
    from judgekb.cards import cardpage

    if not name.strip():
        fail("give a card name, e.g. judgekb card \"Val\" --edition 1")
    from judgekb.engine.guard import MAX_NAME_CHARS

    if len(name) > MAX_NAME_CHARS:
        fail(f"a card name has at most {MAX_NAME_CHARS} characters (got {len(name):,})")
    db = obj.db()
    found = cardpage.lookup(db, name, int(edition) if edition else None)
    pages = found.pages
    if not pages:
        fail(cardpage.not_found(name, found))
    if as_json:
        for page in pages:
            if page.get("shown_for"):  # the JSON carries it too; a reader of the terminal must not miss it
                click.echo(cardpage.shown_for_line(page), err=True)
        click.echo(json.dumps(pages if not edition else pages[0], ensure_ascii=False, indent=2))
        return
    for page in pages:
        click.echo(cardpage.render(page))


@main.command(name="import-cards")
@click.argument("path", type=click.Path(path_type=Path))
@click.pass_obj
def import_cards(obj: Context, path: Path) -> None:
    """Import a public card database (agot1.json, or a throneteki folder) to show printed text;
    a folder holding both (agot1/ and agot2-throneteki/) imports each."""
    from judgekb import store
    from judgekb.cards import cardimport
    from judgekb.yamlio import DataError

    obj.db()  # build first, so the import lands in a database built from this corpus
    try:  # read and checked first, then written into a copy renamed into place: a killed import changes nothing
        done = store.rewrite(obj.db_path, lambda db: cardimport.import_paths(db, cardimport.sources(path)))
    except DataError as exc:
        fail(str(exc))
    for source, count, editions, lists in done:
        cardimport.remember(obj.db_path, source)
        click.echo(f"imported {count} cards (edition {', '.join(map(str, editions))}) from {source}")
        if lists:
            click.echo(f"imported {lists} dated restricted/banned lists from {source / 'restricted-list.json'}")


EXIT_NOT_LEGAL = 3


@main.command()
# (a folder too: read_source refuses it, and with --json as JSON; click's usage error was never JSON)
@click.argument("path", type=click.Path(allow_dash=True, path_type=Path))
@click.option("--edition", type=click.Choice(["1", "2"]), help="The deck's edition (default: detected from its card names).")
@click.option("--format", "fmt", type=click.Choice(["joust", "melee"]), default="joust", show_default=True)
@click.option("--list", "list_name", help='2nd edition: the dated list to check against (default: the newest), e.g. "Standard v1.16".')
@click.option("--as-of", help="1st edition: the FAQ lists as they stood at this version, e.g. v5.4 (default: v5.5.1).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_obj
def deckcheck(obj: Context, path: Path, edition: str | None, fmt: str, list_name: str | None, as_of: str | None, as_json: bool) -> None:
    """Check a decklist (FILE, or - for stdin): legal or not under the list in force, every problem cited.

    Exit status: 0 legal, 3 not legal, 2 bad input (unreadable list, unknown or ambiguous card names).

    \b
        judgekb deckcheck my-deck.txt --format melee
        judgekb deckcheck old-deck.txt --edition 1 --as-of v5.4
    """
    from judgekb.cards import deckcheck as checker
    from judgekb.cards import decklists
    from judgekb.yamlio import DataError

    db = obj.db()
    try:
        text, source = decklists.read_source(str(path))
        with checker.bounded(source, checker.CLI_SECONDS) as deadline:
            report = checker.check(db, decklists.parse(text, source), int(edition) if edition else None, fmt, list_name, as_of, deadline)
    except DataError as exc:
        if as_json:  # a script reading stdout gets JSON too: the verdict and why (the message also goes to stderr)
            click.echo(json.dumps({"verdict": "cannot be checked", "error": str(exc)}, ensure_ascii=False, indent=2))
        fail(str(exc))
    click.echo(json.dumps(report.as_json(), ensure_ascii=False, indent=2) if as_json else terminal_safe(checker.render(report)), nl=as_json)
    if report.verdict == "cannot be checked":
        fail("\njudgekb: ".join(checker.unreadable_lines(report)))
    sys.exit(0 if report.verdict == "legal" else EXIT_NOT_LEGAL)


FOLDED_SHOWN = 5  # folded entries printed under a hit (a withdrawn list can fold dozens)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1)
@click.option("--edition", type=click.Choice(["1", "2"]), help="Only this edition's texts.")
@click.option("--kind", "kinds", multiple=True, help="Only clauses of this kind (repeatable): section, errata, qa, …")
@click.option("--limit", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON list other tools read.")
@click.pass_obj
def search(obj: Context, query: tuple[str, ...], edition: str | None, kinds: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Look up the ruling for a few words, a card name or a plain question (typos are fine).

    Exit status 2 for an empty query; a query with no words prints no results (status 0).
    """
    import re

    from judgekb.lookup import search as lookup

    # (a README review: "--db PATH" after the command, or a misspelt "--edtion 2", became query words and the
    # search ran anyway; words a query may start with a dash, "-1 STR", never two dashes and letters)
    flag = next((w for w in query if re.fullmatch(r"--[A-Za-z][\w-]*(=.*)?", w)), None)
    if flag:
        name = flag.split("=", 1)[0]
        where = " (it goes before the command: judgekb --db PATH search …)" if name in ("--db", "--corpus") else ""
        fail(f"unknown option {quoted(name)} for search{where}; its options are --edition, --kind, --limit, --json")
    if kinds:
        from judgekb.corpus.model import KINDS

        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            fail(f"unknown --kind '{unknown[0]}'; kinds are: {', '.join(KINDS)}")
    index = lookup.Index.open(obj.ensure())  # plain sqlite3: a lookup starts fast
    try:
        hits, notes = lookup.results(index, " ".join(query), int(edition) if edition else None, list(kinds) or None, limit)
    except lookup.QueryError as exc:
        fail(str(exc))
    for note in notes:
        click.echo(f"judgekb: {note}", err=True)
    if as_json:
        click.echo(json.dumps(hits, ensure_ascii=False, indent=2))
        return
    if not hits:
        click.echo("No results.")
        return
    for number, hit in enumerate(hits, 1):
        click.echo(f"{number}. {hit['citation']}  [{hit['id']}]")
        if hit["kind"] == "qa":
            click.echo(f"   Q: {hit.get('question') or hit['heading']}")
        if hit.get("unofficial"):
            click.echo("   (unofficial text: it answers what the official clauses here do not; check before citing)")
        if hit.get("superseded_by"):  # the text in force by its citation, to read out, and its id
            now = f"{hit.get('superseded_by_citation') or ''}  [{hit['superseded_by']}]".strip()
            click.echo(f"   (not in force: a later version no longer carries it; see {now})")
        if hit.get("amends"):  # an erratum of a document the corpus does not hold: what it corrects
            click.echo(f"   (corrects a text not in the corpus: {hit['amends']})")
        click.echo(f"   {lookup.terminal_snippet(hit['snippet'], hit.get('text'))}")  # matches «marked»: [brackets] are icons
        for note in hit.get("glyph_notes") or []:
            click.echo(f"   (Note: {note})")
        if hit.get("parts"):  # a title with no text of its own: the steps printed under it
            click.echo("   In this section: " + " · ".join(part["heading"] for part in hit["parts"]))
        for folded in hit["folded"][:FOLDED_SHOWN]:
            sentence = f", the sentence “{folded['sentence']}”" if folded.get("sentence") else ""
            click.echo(f"   ({lookup.folded_said(folded['relation'])}: {folded['citation']}{sentence}  [{folded['id']}])")
        if len(hit["folded"]) > FOLDED_SHOWN:
            click.echo(f"   (and {len(hit['folded']) - FOLDED_SHOWN} more folded under it: --json lists them all)")
        click.echo()


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the rulings as JSON (a file that cannot be run appears as {path, error}).")
@click.option("--trace/--no-trace", "show_trace", default=None, help="Print every trace step (default: for one file).")
@click.option("--cite", is_flag=True, help="Print each trace step's citation lines (document, version, section, page), not only ids.")
@click.option("--no-limits", is_flag=True, help="Lift the per-file limits (256 KB, 400 steps, 400 cards, 10 s) for a trusted file.")
@click.pass_obj
def run(obj: Context, paths: tuple[Path, ...], as_json: bool, show_trace: bool | None, cite: bool, no_limits: bool) -> None:
    """Run scenario files (or folders of them): the ruling, a cited trace, and the expectations checked.

    Every file is reported, and a folder run ends with its summary line (on stderr with --json).
    Exit status: 0 all expectations passed, 1 an expectation failed or the engine could not run a
    file, 2 a scenario file is malformed (either wins over 1).
    """
    from judgekb.cards import cardfill
    from judgekb.engine import guard
    from judgekb.engine.core import runner
    from judgekb.errors import DataError

    files: list[Path] = []
    problems: list[guard.ScenarioError] = []
    results: list[dict[str, Any]] = []

    def report(path: Path, problem: guard.ScenarioError) -> None:
        problems.append(problem)
        click.echo(f"ERROR {terminal_safe(str(problem))}", err=True)  # (a NUL or ESC the file holds, quoted: as escapes)
        results.append({"path": str(path), "error": str(problem), "malformed": problem.malformed})

    for path in paths:
        if path.is_dir():
            found = sorted(path.rglob("*.yaml"))  # and subfolders: scenarios/agot2/
            files += found
            if not found:
                report(path, guard.ScenarioError(f"{path}: no scenario files (*.yaml) in this folder"))
        elif path.exists():
            files.append(path)  # guard.read_file refuses FIFOs and devices with a message
        else:
            report(path, guard.ScenarioError(f"{path}: no such file or folder"))
    total = len(files) + len(problems)
    limits = guard.UNLIMITED if no_limits else guard.CLI
    try:
        titles = runner.load_titles(obj.corpus)
    except DataError as exc:
        fail(str(exc))
    show = show_trace if show_trace is not None else len(files) == 1
    db = obj.db()
    prepare = cardfill.preparer(db, obj.corpus)
    failed = 0
    for file in files:
        try:
            ruling, view = guard.run(file, guard.read_file(file, limits), titles, limits, db, prepare)
        except guard.ScenarioError as exc:
            report(file, exc)
            continue
        failed += not ruling.passed
        if as_json:
            results.append(view)
        else:
            _print_ruling(ruling, view, show or cite, cite)
    bad = sum(p.malformed for p in problems)
    broken = len(problems) - bad
    summary = f"{total - failed - len(problems)} passed, {failed} failed" + (f", {bad} malformed" if bad else "")
    summary += f", {broken} could not be run" if broken else ""
    if as_json:
        click.echo(json.dumps(results if total > 1 else (results[0] if results else None), ensure_ascii=False, indent=2))
        if total > 1:
            click.echo(summary, err=True)
    elif total > 1:
        click.echo(f"\n{summary}")
    if bad:
        sys.exit(EXIT_BAD_INPUT)
    if failed or broken:
        sys.exit(1)


def _print_ruling(ruling: Any, view: dict[str, Any], show_trace: bool, cite: bool) -> None:
    from judgekb.engine import rulingview

    mark = "PASS" if ruling.passed else "FAIL"
    # every line may quote the file (a title, a note, a name): its control characters are shown as escapes, as in
    # every other message (a NUL was printed raw, and an OSC sequence in a note set the terminal's title)
    click.echo(terminal_safe(f"{mark} {ruling.scenario.path} — {ruling.scenario.title}"))
    if show_trace or not ruling.passed:
        for line in rulingview.ruling_text(view, cite):
            click.echo(terminal_safe(line))
        if ruling.checks:
            click.echo("  Expectations:")
        for check in ruling.checks:
            sign = "✓" if check["passed"] else "✗"
            detail = "" if check["passed"] else f" (got {check['actual']!r})"
            click.echo(terminal_safe(f"    {sign} {check['expect']}: {check['expected']!r}{detail}"))


@main.command(name="export-site")
@click.argument("directory", type=click.Path(path_type=Path))
@click.pass_obj
def export_site(obj: Context, directory: Path) -> None:
    """Write the web pages as a static site that opens from files (no Python, no server, no network)."""
    from judgekb.web import exportsite
    from judgekb.yamlio import DataError

    obj.db()
    try:
        report = exportsite.export(obj.db_path, obj.corpus, directory)
    except DataError as exc:
        fail(str(exc))
    mb = report["bytes"] / 1e6
    click.echo(f"exported {report['pages']} pages ({report['files']} files, {mb:.1f} MB) to {report['path']} in {report['seconds']:.1f} s")
    click.echo(f"open {Path(report['path']) / 'index.html'} in a browser, or copy the folder to any static host")


def _warm_worker(worker: Any) -> None:
    """gunicorn's post_worker_init: the worker's lookup index, built before it takes a request."""
    worker.wsgi.config["JUDGEKB"].warm_lookup()
    worker.log.info("judgekb: lookup index ready in worker %s", worker.pid)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Worker processes (default: 2 × cores + 1).")
@click.option("--lan", is_flag=True, help="Serve phones on the local network (binds 0.0.0.0; prints the address and a QR code).")
@click.pass_obj
def serve(obj: Context, host: str, port: int, workers: int | None, lan: bool) -> None:
    """Serve the web app with gunicorn (a production WSGI server), the database opened read-only."""
    if lan and host != "0.0.0.0" and click.get_current_context().get_parameter_source("host") is ParameterSource.COMMANDLINE:
        # (it bound 0.0.0.0 anyway: a judge who asked for this laptop only was open to the venue's network)
        fail(f"--lan serves every network of this laptop (0.0.0.0), not --host {host}: give one of them")
    host = "0.0.0.0" if lan else host
    _check_address(host, port)  # (before the build and the announcement: a busy port is said at once)
    if lan:
        from judgekb.web import lan as venue

        click.echo(venue.announcement(port, venue.lan_address()))

    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

    from judgekb.errors import DataError
    from judgekb.web.app import create_app, scenario_slot_count

    try:
        scenario_slot_count()  # (before the build: a bad value is said at once)
    except DataError as exc:
        fail(str(exc))
    obj.db()  # build or refresh the database once, before the workers start
    try:
        app = create_app(obj.db_path, obj.corpus)
    except DataError as exc:  # (a corpus data file the app reads at start, such as the titles)
        fail(str(exc))

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers or (2 * (os.cpu_count() or 1) + 1))
            self.cfg.set("worker_class", "judgekb.web.serveworker.Worker")  # sync, with the site's page for an address too long
            self.cfg.set("timeout", 30)
            self.cfg.set("limit_request_line", 8190)
            self.cfg.set("accesslog", "-")
            # each worker loads its lookup index (words, vocabularies, FTS5 matches: under a second)
            # before it takes a request, so no judge's first search waits for it
            self.cfg.set("post_worker_init", _warm_worker)
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 25.1+: one socket in ~/.gunicorn that
                self.cfg.set("control_socket_disable", True)  # every server on the machine took over and removed

        def load(self) -> Any:
            return app

    click.echo(f"judgekb serving http://{host}:{port}/ (database {obj.db_path}, read-only)", err=True)
    Server().run()


def _check_address(host: str, port: int) -> None:
    """Refuse a port another program holds, or a host this machine is not, in one line: gunicorn tried five
    times a second apart, printing two ERROR lines each time, before it gave up."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        fail(f"--host {host}: not an address of this machine ({exc})")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as gunicorn binds: a port just closed is free)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                fail(f"port {port} on {host} is in use (another judgekb serve, or another program): choose another with --port")
            if exc.errno == errno.EADDRNOTAVAIL:
                fail(f"--host {host}: not an address of this machine")
            if exc.errno == errno.EACCES:
                fail(f"port {port} on {host} needs administrator rights (ports below 1024): choose one from 1024 up with --port")
            fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")


def command_line() -> None:
    """The console script and ``python -m judgekb``: the command line in a process that ends with it.

    Everything the command built is frozen out of the interpreter's last garbage collection
    (``gc.freeze``): the process is about to exit, and tearing those objects down took a cold search
    about a tenth of its time.  Every file a command writes is closed, and its temporary file removed,
    by the code that opened it, so no finaliser is skipped that matters.  Tests call ``main``, and
    their process keeps collecting.
    """
    import gc

    try:
        main()
    finally:
        gc.freeze()

