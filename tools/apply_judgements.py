"""Merge blind relevance judgements (tools/relevance_pool.py) into the player evaluation set.

    python tools/apply_judgements.py JUDGED.yaml [JUDGED.yaml ...] [--file tests/eval/players.yaml] [--record tests/eval/judgements.yaml]
    python tools/apply_judgements.py --top-up OUTDIR/pool.yaml JUDGED.yaml [...]

Second-edition answers are kept to the documents in force (Rules Reference, FAQ v4.1, Tournament
Regulations) whenever one of them answers; the record keeps every judged answer.

A judged file is a YAML list with one entry per query of a sheet, in any order:

    - {n: 12, q: "the query as in the sheet's heading", answers: [best first, ...], partial: [...],
       found: [...], note: "why, in a few words"}

``n`` is the number after Q in the sheet's heading (``## Q012 (edition 2): ...``), ``q`` the query
(checked against item ``n`` of --file, so judgements of another set are refused), ``answers`` every
pooled clause whose text alone decides the query, ``found`` answering clauses the judge found
outside the pool, ``partial`` clauses that hold part of the answer (recorded, not counted).  An item's ``expect`` becomes the
judged answers; an item the judge found no answer for keeps its old ``expect`` and is reported.
Ids are checked against a freshly built database; the set and the record of judgements are
written atomically (temporary file, then rename).

With ``--top-up POOL`` (the pool.yaml of ``relevance_pool.py --top-up``) the sheets showed only clauses
no judge had read: their answers join the answers judged before (an item's ``expect`` becomes all its
judged answers, so an item that had none gives up the writer's closest clauses once one is found), and
the record keeps every round's answers, partials and pooled clauses.  A judged id that the sheet did not
show is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb import store  # noqa: E402
from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.errors import DataError  # noqa: E402
from judgekb.files import write_text_atomic  # noqa: E402
from judgekb.lookup import evaluation  # noqa: E402

# Second edition's documents in force: a superseded FAQ entry folds under its successor, and a web
# copy is unofficial, so the answer key names the text a judge reads out.
IN_FORCE = {"agot2-rr", "agot2-faq41", "agot2-tr"}


def flow(item: dict[str, Any]) -> str:
    """One item as a single YAML flow mapping line, the way the set is written by hand."""

    parts = [f"q: {json.dumps(item['q'], ensure_ascii=False)}", f"ed: {item['ed']}", f"expect: [{', '.join(item['expect'])}]"]
    if item.get("tags"):
        parts.append(f"tags: [{', '.join(item['tags'])}]")
    return "- {" + ", ".join(parts) + "}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("judged", type=Path, nargs="+")
    parser.add_argument("--file", type=Path, default=ROOT / "tests" / "eval" / "players.yaml")
    parser.add_argument("--record", type=Path, default=ROOT / "tests" / "eval" / "judgements.yaml")
    parser.add_argument("--top-up", type=Path, metavar="POOL", help="merge a top-up round (see above): its pool.yaml")
    args = parser.parse_args()
    shown: dict[int, list[str]] = {}
    if args.top_up:
        try:
            shown = {int(n): [str(c) for c in ids] for n, ids in (yaml.safe_load(args.top_up.read_text(encoding="utf-8")) or {}).items()}
        except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, TypeError, AttributeError) as error:
            sys.exit(f"{args.top_up}: cannot read the top-up pool (a mapping of Q number to the ids shown): {error}")

    judged: dict[int, dict[str, Any]] = {}  # by pool number: the same words may be asked in both editions
    for path in args.judged:
        try:
            entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            sys.exit(f"{path}: cannot read judgements: {error}")
        if not isinstance(entries, list):
            sys.exit(f"{path}: expected a YAML list of judged entries (see this script's docstring)")
        for number, entry in enumerate(entries, 1):
            if not isinstance(entry, dict) or not isinstance(entry.get("n"), int) or "q" not in entry:
                sys.exit(f"{path}: entry {number}: needs n (the sheet's Q number) and q (the query)")
            for field in ("answers", "found", "partial"):
                if not isinstance(entry.get(field) or [], list):
                    sys.exit(f"{path}: entry {number} (Q{entry['n']}): {field} must be a list of clause ids")
            judged[entry["n"]] = entry
    for number, entry in judged.items() if args.top_up else ():  # a slip is refused before the database is built
        said = [str(a) for a in [*(entry.get("answers") or []), *(entry.get("partial") or [])]]
        if unshown := [a for a in said if a not in shown.get(number, [])]:
            sys.exit(f"judgement {number} ({entry['q']!r}) names ids its sheet did not show: {unshown}; nothing written")
    try:  # the record of earlier rounds, checked before the build: merged into, and a top-up adds to it
        previous = evaluation.load_judgements(args.record) if args.record.is_file() else []
    except DataError as error:
        sys.exit(str(error))
    earlier = {(r["q"], r["ed"]): r for r in previous}
    scratch = tempfile.TemporaryDirectory(prefix="judgekb-judged-")  # removed when the script ends
    db_path = Path(scratch.name) / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    db = store.connect(db_path)
    known = {r["id"]: r["edition"] for r in db.query("select id, edition from clauses")}
    successor = {r["clause"]: r["governor"] for r in db.query("select clause, governor from governors where relation = 'superseded'")}

    text = args.file.read_text(encoding="utf-8")
    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("#"))
    items = yaml.safe_load(text)
    changed = kept = dropped_ids = 0
    record = []
    pooled = [i for i in items if not any(str(e).startswith("absent:") for e in i["expect"])]  # as relevance_pool numbers them
    for number, item in enumerate(pooled):
        entry = judged.get(number)
        if entry is None:
            continue
        if str(entry["q"]).strip() != str(item["q"]).strip():
            sys.exit(f"judgement {number} is for {entry['q']!r}, but pool item {number} is {item['q']!r}: a different set?")
        answers = [str(a) for a in [*(entry.get("answers") or []), *(entry.get("found") or [])]]
        partial = [str(a) for a in entry.get("partial") or []]
        bad = [a for a in answers if known.get(a) != item["ed"]]
        if bad:  # a judge's slip: another edition's clause never answers (the judges were told so)
            print(f"{item['q']!r}: dropped judged ids not among edition {item['ed']}'s clauses: {bad}")
        answers = list(dict.fromkeys(a for a in answers if a not in bad))
        before = earlier.get((item["q"], item["ed"]))
        if args.top_up:
            if before is None:
                sys.exit(f"judgement {number} ({item['q']!r}): a top-up needs an earlier round's record of it; nothing written")
            answers = list(dict.fromkeys([*before["answers"], *answers]))
            partial = list(dict.fromkeys([*before.get("partial", []), *partial]))
        in_force = [a for a in answers if item["ed"] != 2 or a.split("/")[0] in IN_FORCE]
        record_answers = answers
        if not in_force:  # only a superseded text answers: the key names the entry in force that replaced it
            in_force = [successor[a] for a in answers if successor.get(a, "").split("/")[0] in IN_FORCE]
        answers = list(dict.fromkeys(in_force)) or answers  # second edition is answered from the texts in force
        if args.top_up:  # (an item with no earlier record was refused above)
            note = "; ".join(n for n in (before.get("note", ""), f"top-up: {entry.get('note', '')}") if n)
            seen = sorted({*before.get("pooled", []), *shown.get(number, [])})
            record.append({**before, "answers": record_answers, "partial": partial, "note": note, "pooled": seen})
        else:
            record.append({"q": item["q"], "ed": item["ed"], "answers": record_answers, "partial": partial,
                           "note": entry.get("note", ""), "before": list(item["expect"])})  # fmt: skip
        if not answers:
            kept += 1
            print(f"no judged answer, old expect kept: {item['q']!r}")
            continue
        dropped_ids += len(set(item["expect"]) - set(answers))
        if answers != list(item["expect"]):
            changed += 1
        item["expect"] = answers
    out = header + "\n" + "\n".join(flow(i) for i in items) + "\n"
    if yaml.safe_load(out) != items:
        sys.exit("internal error: the rewritten set does not read back as the same items; nothing written")
    write_text_atomic(args.file, out)
    merged = {(r["q"], r["ed"]): r for r in [*previous, *record]}
    write_text_atomic(
        args.record,
        "# Blind pooled relevance judgements (tools/relevance_pool.py → judges → tools/apply_judgements.py).\n"
        "# answers: every pooled clause whose text alone decides the query; partial: holds part of it;\n"
        "# before: the expected ids the set had before judgement; pooled: every clause shown to the judges for the query\n"
        "# (for the first two rounds, reconstructed by rerunning tools/relevance_pool.py's pooling at the commits the\n"
        "# rounds ran on, f8286f6^ for the first 351 items and 26b46aa^ for the rest: 568 of the 570 entries' judged ids\n"
        "# lie inside it, the other two judged a clause found outside the pool); later rounds (--top-up) add what they showed.\n"
        + yaml.safe_dump(list(merged.values()), allow_unicode=True, sort_keys=False, width=120),
    )
    print(f"{len(record)} judged items: {changed} changed, {kept} kept (no judged answer), {dropped_ids} old ids not judged answers")


if __name__ == "__main__":
    main()
