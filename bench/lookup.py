"""Lookup benchmark: judgekb against plain BM25 and a substring scan, measured in the same run.

    python bench/lookup.py [--repeat N]

Prints top-1 / top-5 on tests/eval/lookup.yaml and the median and p99 latency per query on a
warm process for each method, then the cold wall time of `judgekb search` as a command and of
a full `judgekb build`.  Targets: warm p99 < 10 ms, cold search < 0.5 s, build < 5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rank_bm25 import BM25Okapi  # noqa: E402

from judgekb import evaluation, search, store  # noqa: E402
from judgekb.sources import default_corpus  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(items, lookup, repeat: int):
    latencies, results = [], {}
    for _ in range(repeat):
        for item in items:
            start = time.perf_counter()
            results[item] = lookup(item)
            latencies.append((time.perf_counter() - start) * 1000)
    return latencies, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="passes over the evaluation set (latency samples)")
    args = parser.parse_args()

    corpus = default_corpus()
    workdir = Path(tempfile.mkdtemp(prefix="judgekb-bench-"))
    db_path = workdir / "kb.sqlite"
    store.build(corpus, db_path, imports=[])
    db = store.connect(db_path)
    items = evaluation.load(ROOT / "tests" / "eval" / "lookup.yaml")
    rows = list(db.query("select id, edition, kind, heading, text from clauses order by doc, seq"))

    index = search.Index(db)
    methods = {"judgekb": lambda it: search.results(index, it.query, it.edition, None, 5)[0]}

    tokenized = [evaluation.folded(f"{r['heading']} {r['text']}").split() for r in rows]
    by_edition = {ed: [i for i, r in enumerate(rows) if r["edition"] == ed] for ed in (1, 2)}
    bm25 = {ed: BM25Okapi([tokenized[i] for i in ids]) for ed, ids in by_edition.items()}

    def plain_bm25(item):
        ids = by_edition[item.edition]
        scores = bm25[item.edition].get_scores(evaluation.folded(item.query).split())
        best = sorted(range(len(ids)), key=lambda k: -scores[k])[:5]
        return [rows[ids[k]] for k in best]

    folded_texts = [evaluation.folded(f"{r['heading']} {r['text']}") for r in rows]

    def substring(item):
        query = evaluation.folded(item.query)
        words = query.split()
        scored = []
        for i in by_edition[item.edition]:
            text = folded_texts[i]
            scored.append((query in text, sum(w in text for w in words), -i))
        scored.sort(reverse=True)
        return [rows[-s[2]] for s in scored[:5]]

    methods["plain BM25 (rank-bm25)"] = plain_bm25
    methods["substring scan"] = substring

    print(f"evaluation set: {len(items)} queries (tests/eval/lookup.yaml); latency over {args.repeat} passes, warm\n")
    print(f"{'method':26s} {'top-1':>7s} {'top-5':>7s} {'median ms':>10s} {'p99 ms':>8s}")
    baseline_p99 = None
    for name, lookup in methods.items():
        lookup(items[0])  # warm up
        latencies, results = timed(items, lookup, args.repeat)
        quality = evaluation.score(items, lambda it, r=results: r[it])
        p99 = percentile(latencies, 99)
        baseline_p99 = baseline_p99 or p99
        print(f"{name:26s} {quality['top1']:7.1%} {quality['top5']:7.1%} {statistics.median(latencies):10.2f} {p99:8.2f}")

    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    cold = []
    for query in ("moribound", "who wins a tie in a challenge", "Val"):
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "judgekb", "search", query, "--edition", "1"], env=env, capture_output=True, check=True, cwd=ROOT
            )
            cold.append(time.perf_counter() - start)
    python_start = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        python_start.append(time.perf_counter() - start)
    print(
        f"\ncold `python -m judgekb search`: median {statistics.median(cold):.3f} s, max {max(cold):.3f} s "
        f"(bare python start-up in the same run: {statistics.median(python_start):.3f} s)"
    )
    builds = []
    for _ in range(3):
        target = workdir / f"build-{len(builds)}.sqlite"
        start = time.perf_counter()
        store.build(corpus, target, imports=[])
        builds.append(time.perf_counter() - start)
    print(f"full build: median {statistics.median(builds):.2f} s over {len(builds)} builds")


if __name__ == "__main__":
    main()
