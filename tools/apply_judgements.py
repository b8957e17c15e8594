"""Merge blind relevance judgements (tools/relevance_pool.py) into the player evaluation set.

    python tools/apply_judgements.py JUDGED.yaml [JUDGED.yaml ...] [--file tests/eval/players.yaml] [--record tests/eval/judgements.yaml]

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
from judgekb.files import write_text_atomic  # noqa: E402

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
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="judgekb-judged-")  # removed when the script ends
    db_path = Path(scratch.name) / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    db = store.connect(db_path)
    known = {r["id"]: r["edition"] for r in db.query("select id, edition from clauses")}
    successor = {r["clause"]: r["governor"] for r in db.query("select clause, governor from governors where relation = 'superseded'")}

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
        bad = [a for a in answers if known.get(a) != item["ed"]]
        if bad:  # a judge's slip: another edition's clause never answers (the judges were told so)
            print(f"{item['q']!r}: dropped judged ids not among edition {item['ed']}'s clauses: {bad}")
        answers = list(dict.fromkeys(a for a in answers if a not in bad))
        in_force = [a for a in answers if item["ed"] != 2 or a.split("/")[0] in IN_FORCE]
        record_answers = answers
        if not in_force:  # only a superseded text answers: the key names the entry in force that replaced it
            in_force = [successor[a] for a in answers if successor.get(a, "").split("/")[0] in IN_FORCE]
        answers = list(dict.fromkeys(in_force)) or answers  # second edition is answered from the texts in force
        record.append({"q": item["q"], "ed": item["ed"], "answers": record_answers, "partial": entry.get("partial") or [],
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
    previous = yaml.safe_load(args.record.read_text(encoding="utf-8")) if args.record.is_file() else []
    merged = {(r["q"], r["ed"]): r for r in [*(previous or []), *record]}
    write_text_atomic(
        args.record,
        "# Blind pooled relevance judgements (tools/relevance_pool.py → judges → tools/apply_judgements.py).\n"
        "# answers: every pooled clause whose text alone decides the query; partial: holds part of it;\n"
        "# before: the expected ids the set had before judgement.\n"
        + yaml.safe_dump(list(merged.values()), allow_unicode=True, sort_keys=False, width=120),
    )
    print(f"{len(record)} judged items: {changed} changed, {kept} kept (no judged answer), {dropped_ids} old ids not judged answers")


if __name__ == "__main__":
    main()
