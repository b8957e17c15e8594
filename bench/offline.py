"""Offline search benchmark: the in-browser word match (static/app.js) against the server's lookup.

    python bench/offline.py

Runs tests/eval/lookup.yaml through both, in the same run: the server's lookup in Python, the
offline search inside Debian's chromium (playwright) over the same search index a phone saves.
Prints top-1 / top-5 for each, and the offline search's median and p99 time per query at a
390 px phone viewport.  The gap is what the page's "searching offline" note warns about.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from judgekb import store  # noqa: E402
from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.lookup import evaluation, search  # noqa: E402
from judgekb.web import offline  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="judgekb-offline-bench-"))
    db_path = workdir / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    db = store.connect(db_path)
    items = evaluation.load(ROOT / "tests" / "eval" / "lookup.yaml")
    index = search.Index(db)
    server = evaluation.score(items, lambda item: search.results(index, item.query, item.edition, None, 5)[0])
    data = offline.search_index(db)
    by_id = {c[0]: {"heading": c[3], "text": c[5]} for c in data["clauses"]}
    app_js = (ROOT / "judgekb" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_content('<!doctype html><html><body data-mode="static" data-root=""></body></html>')
        page.add_script_tag(content="window.JUDGEKB_INDEX = " + json.dumps(data, ensure_ascii=False) + ";")
        page.add_script_tag(content=app_js)
        started = time.perf_counter()
        page.evaluate("window.judgekbOffline.index().then(() => true)")
        prepare = time.perf_counter() - started
        runs = page.evaluate(
            """items => window.judgekbOffline.index().then(data => items.map(([q, ed]) => {
                 const t = performance.now();
                 const hits = window.judgekbOffline.search(data, q, ed, 5);
                 return {ms: performance.now() - t, ids: hits.map(h => h.id)};
               }))""",
            [[item.query, item.edition] for item in items],
        )
        browser.close()
    results = {item: [by_id[i] | {"id": i} for i in run["ids"]] for item, run in zip(items, runs, strict=True)}
    local = evaluation.score(items, lambda item: results[item])
    times = [run["ms"] for run in runs]
    print(f"{len(items)} judge queries (tests/eval/lookup.yaml), {len(data['clauses'])} clauses")
    print(f"{'method':<34}{'top-1':>8}{'top-5':>8}")
    print(f"{'server lookup (baseline)':<34}{server['top1']:>8.1%}{server['top5']:>8.1%}")
    print(f"{'offline word match (in chromium)':<34}{local['top1']:>8.1%}{local['top5']:>8.1%}")
    print(f"offline search per query: median {statistics.median(times):.1f} ms, p99 {percentile(times, 99):.1f} ms; "
          f"loading the index into the page {prepare * 1000:.0f} ms")
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
