"""Write blind relevance-judgement sheets for the player evaluation set (pooled, TREC-style).

    python tools/relevance_pool.py OUTDIR [--depth 5] [--chunks 4] [--file tests/eval/players.yaml]
    python tools/relevance_pool.py OUTDIR --top-up [--record tests/eval/judgements.yaml]

The expected ids of tests/eval/players.yaml were attached by one writer looking for *an* answer;
several clauses often answer the same question equally (the FAQ entry and the rule it restates, the
glossary entry and the timing step).  To judge every clause that could be shown first, each query's
pool is the union of judgekb's top ``depth``, plain BM25's top ``depth`` and the ids already expected,
shuffled (seeded by the query) and with no mark of which system found what, so that a judge reads
each clause on its own merits.  The judge records, per query, every clause whose text alone decides
the question (tests/eval/judgements.yaml); tools/apply_judgements.py merges them into the set.

Both halves are pooled the same way: judging labels, unlike ranking, is not tuned on what it sees.

``--top-up`` pools only what no judge has seen: judgekb's top ``depth`` today, less every clause the
record (tests/eval/judgements.yaml) lists as pooled, answering, partial or expected before for that
query.  A lookup that has changed since the last round puts clauses first that no judge has read,
and an unjudged clause counts as a wrong answer: the bench would then measure the old pool, not the
lookup.  Only queries with an unjudged clause get a sheet entry (numbered as in a full pool), and
OUTDIR/pool.yaml records what each entry showed, for tools/apply_judgements.py --top-up.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402

from judgekb import store  # noqa: E402
from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.errors import DataError  # noqa: E402
from judgekb.files import write_text_atomic  # noqa: E402
from judgekb.lookup import evaluation, search  # noqa: E402

TEXT_LIMIT = 1500  # characters of a clause shown to the judge (long clauses end with "…")


def judged_ids(record: Path) -> dict[tuple[str, int], set[str]]:
    """Every clause some judge has read for each (query, edition) of the record of judgements."""
    try:
        entries = evaluation.load_judgements(record)
    except DataError as error:
        sys.exit(str(error))
    return {(e["q"], e["ed"]): {str(c) for f in evaluation.JUDGED_LISTS for c in e.get(f) or []} for e in entries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--file", type=Path, default=ROOT / "tests" / "eval" / "players.yaml")
    parser.add_argument("--top-up", action="store_true", help="pool only the clauses no judge has seen (see above)")
    parser.add_argument("--record", type=Path, default=ROOT / "tests" / "eval" / "judgements.yaml")
    args = parser.parse_args()
    if args.chunks < 1 or args.depth < 1:
        parser.error("--chunks and --depth must be at least 1")
    if any(args.outdir.glob("sheet-*.md")):
        parser.error(f"{args.outdir} already holds sheets: choose an empty folder (judgements may refer to them)")
    seen = judged_ids(args.record) if args.top_up else {}  # (a bad record is refused before the build)
    scratch = tempfile.TemporaryDirectory(prefix="judgekb-pool-")
    db_path = Path(scratch.name) / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    db = store.connect(db_path)
    rows = list(db.query("select c.id, c.edition, c.heading, c.text, d.title from clauses c join documents d on d.id = c.doc"))
    by_id = {r["id"]: r for r in rows}
    index = search.Index(db).warm()
    by_edition = {ed: [r for r in rows if r["edition"] == ed] for ed in (1, 2)}
    bm25 = {  # a top-up pools only judgekb's unread clauses: BM25's were read in the full rounds
        ed: BM25Okapi([evaluation.folded(f"{r['heading']} {r['text']}").split() for r in rs])
        for ed, rs in by_edition.items()
        if not args.top_up
    }
    items = [it for it in evaluation.load_players(args.file) if not it.absent]
    shown: dict[int, list[str]] = {}
    args.outdir.mkdir(parents=True, exist_ok=True)
    sheets: list[list[str]] = [[] for _ in range(args.chunks)]
    for number, item in enumerate(items):
        hits, _ = search.results(index, item.query, item.edition, None, args.depth)
        ours = set().union(*map(evaluation.hit_ids, hits))
        if args.top_up:
            judged = seen.get((item.query, item.edition), set()) | set(item.expect)
            pool = sorted({c for c in ours if c in by_id and c not in judged})
            if not pool:
                continue
            shown[number] = pool
        else:
            scores = bm25[item.edition].get_scores(evaluation.folded(item.query).split())
            ranked = sorted(range(len(scores)), key=lambda k: -scores[k])[: args.depth]
            theirs = [by_edition[item.edition][k]["id"] for k in ranked]
            pool = sorted({c for c in [*ours, *theirs, *item.expect] if c in by_id})
        random.Random(hashlib.sha1(item.query.encode()).hexdigest()).shuffle(pool)
        lines = [f"## Q{number:03d} (edition {item.edition}): {item.query}", ""]
        for cid in pool:
            r = by_id[cid]
            text = " ".join((r["text"] or "").split())
            if len(text) > TEXT_LIMIT:
                text = text[:TEXT_LIMIT] + "…"
            lines += [f"- `{cid}` — {r['title']}: **{r['heading']}**", f"  {text}", ""]
        sheets[number % args.chunks] += lines
    for k, lines in enumerate(sheets):
        (args.outdir / f"sheet-{k + 1}.md").write_text("\n".join(lines), encoding="utf-8")
    if args.top_up:
        write_text_atomic(args.outdir / "pool.yaml", yaml.safe_dump({n: ids for n, ids in shown.items()}, sort_keys=True))
        print(f"{len(shown)} of {len(items)} queries have clauses no judge has seen ({sum(map(len, shown.values()))} in all)")
    print(f"{len(shown) if args.top_up else len(items)} queries pooled into {args.chunks} sheets in {args.outdir}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
