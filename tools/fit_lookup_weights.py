"""Fit judgekb.lookup.search.WEIGHTS: a pairwise linear model (L2 logistic loss) on the lookup's own signals.

    python tools/fit_lookup_weights.py [--epochs 3000]

Trained on the DEV half of tests/eval/players.yaml, the heading-built regression set
(tests/eval/lookup.yaml) and the judge's review set (tests/eval/judge-review.yaml) — never on the
frozen test half, whose items this script does not read past the split.  For every query, each
expected clause among the scored candidates is paired with every other candidate scored above
the lowest expected one; the weights that order those pairs best (with an L2 pull towards the
current weights, its strength chosen by two-fold cross-validation) are printed as a WEIGHTS literal.
Paste them only when they beat the current weights on the dev half (``bench/lookup.py --dev-only``):
the pairwise loss is not top-1, and a fit can score below the weights it started from.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb import store  # noqa: E402
from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.lookup import evaluation, search  # noqa: E402


def training_items() -> list[tuple[str, int, tuple[str, ...] | str]]:
    eval_dir = ROOT / "tests" / "eval"
    items = [(i.query, i.edition, i.expect) for i in evaluation.load_players(eval_dir / "players.yaml") if i.half == "dev"]
    review = eval_dir / "judge-review.yaml"
    if review.is_file():
        items += [(i.query, i.edition, i.expect) for i in evaluation.load_players(review)]
    items = [(q, e, x) for q, e, x in items if not any(a.startswith("absent:") for a in x)]
    # the heading-built set names a phrase the answer contains, not an id
    return items + [(i.query, i.edition, i.expect) for i in evaluation.load(eval_dir / "lookup.yaml")]


def collect(index: search.Index, items: list, names: list[str]) -> list[tuple[dict[str, np.ndarray], tuple[str, ...]]]:
    """Each query's scored candidates as feature vectors, with its expected ids."""
    out = []
    for query, edition, expect in items:
        explain: dict[str, dict[str, float]] = {}
        index.ranked(query, edition, None, 10, explain)
        if isinstance(expect, str):
            marks = ",".join("?" * len(explain))
            rows = index.rows(f"select id, heading, text from clauses where id in ({marks})", list(explain))
            expect = tuple(c for c, h, t in rows if evaluation.folded(expect) in evaluation.folded(f"{h} {t}"))
        if any(c in explain for c in expect):
            out.append(({c: np.array([f.get(n, 0.0) for n in names]) for c, f in explain.items()}, expect))
    return out


def pairs_of(queries: list, w0: np.ndarray) -> np.ndarray:
    """(best expected - rival) feature differences for the rivals near or above the expected clause."""
    pairs = []
    for vec, expect in queries:
        good = [c for c in expect if c in vec]
        current = {c: float(v @ w0) for c, v in vec.items()}
        best = max(good, key=lambda g: current[g])
        pairs += [vec[best] - vec[r] for r in vec if r not in expect and current[r] >= current[best] - 0.5]
    return np.array(pairs)


def fit(x: np.ndarray, w0: np.ndarray, l2: float, epochs: int) -> np.ndarray:
    """Gradient descent on the mean logistic loss of the pairs plus ``l2`` times the squared distance to ``w0``."""
    w = w0.copy()
    for _ in range(epochs):
        margin = np.clip(x @ w, -30, 30)
        grad = -(x * (1 / (1 + np.exp(margin)))[:, None]).mean(axis=0) + 2 * l2 * (w - w0)
        w -= 0.5 * grad
    return w


def top1(queries: list, w: np.ndarray) -> float:
    """Share of queries whose best-scored candidate is expected (folding aside)."""
    return sum(max(vec, key=lambda c: float(vec[c] @ w)) in expect for vec, expect in queries) / max(1, len(queries))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=3000)
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory(prefix="judgekb-fit-")  # removed when the script ends
    db_path = Path(scratch.name) / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    index = search.Index.open(db_path).warm()
    names = list(search.WEIGHTS)
    w0 = np.array([search.WEIGHTS[n] for n in names])
    queries = collect(index, training_items(), names)
    # the L2 strength is chosen by two-fold cross-validation inside the training items
    folds = [queries[0::2], queries[1::2]]
    best_l2, best_cv = 0.0, -1.0
    for l2 in (0.3, 0.1, 0.03, 0.01, 0.003, 0.001):
        cv = sum(top1(folds[1 - k], fit(pairs_of(folds[k], w0), w0, l2, args.epochs)) for k in (0, 1)) / 2
        print(f"l2 {l2:<6} cross-validated top-1 {cv:.1%}")
        if cv > best_cv:
            best_l2, best_cv = l2, cv
    w = fit(pairs_of(queries, w0), w0, best_l2, args.epochs)
    print(f"{len(queries)} queries: top-1 (before folding) {top1(queries, w0):.1%} with the current weights, "
          f"{top1(queries, w):.1%} fitted (l2 {best_l2})")
    print("WEIGHTS = {")
    print("    " + ", ".join(f'"{n}": {v:.3f}' for n, v in zip(names, w, strict=True)) + ",")
    print("}")


if __name__ == "__main__":
    main()
