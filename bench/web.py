"""Web benchmark on loopback: requests/s and p50/p99 latency at 1 and 50 concurrent clients.

    python bench/web.py [--seconds 8] [--workers N]

Starts `judgekb serve` on a free loopback port and drives it with closed-loop clients (each
sends its next request when the last one is answered), for: search (varied evaluation-set
queries), clause pages (varied ids), scenario runs (POST of a library scenario), and the
baseline in the same run — the static stylesheet, i.e. the server's own floor.  Every request is
bounded in count and time and goes to 127.0.0.1 only.  Target: p99 < 50 ms for search and clause
pages at 50 clients.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb import store  # noqa: E402
from judgekb.corpus.sources import default_corpus  # noqa: E402
from judgekb.lookup import evaluation  # noqa: E402

MAX_REQUESTS = 200_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(prefix: str, workers: int | None) -> Iterator[tuple[int, Path]]:
    """A fresh database served by `judgekb serve` on a free loopback port, ready: yields (port, db)."""
    db_path = Path(tempfile.mkdtemp(prefix=prefix)) / "kb.sqlite"
    store.build(default_corpus(), db_path, imports=[])
    port = free_port()
    command = [sys.executable, "-m", "judgekb", "serve", "--port", str(port)] + (["--workers", str(workers)] if workers else [])
    server = subprocess.Popen(
        command, cwd=ROOT, env=dict(os.environ, JUDGEKB_DB=str(db_path)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(200):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/static/style.css")
                break
            except OSError:
                time.sleep(0.05)
        yield port, db_path
    finally:
        server.terminate()
        server.wait(timeout=10)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def load(port: int, requests: list[tuple[str, str, bytes | None]], clients: int, seconds: float) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client(offset: int) -> None:
        nonlocal errors
        i = offset
        mine = []
        while time.perf_counter() < stop and len(mine) < MAX_REQUESTS // clients:
            method, path, body = requests[i % len(requests)]
            i += 1
            start = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request(method, path, body=body, headers={"Content-Type": "text/plain"} if body else {})
                response = conn.getresponse()
                response.read()
                conn.close()
                ok = response.status < 400
            except OSError:
                ok = False
            mine.append((time.perf_counter() - start) * 1000)
            if not ok:
                with lock:
                    errors += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(n * 7,)) for n in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    return {
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 99),
        "n": len(latencies),
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per endpoint and concurrency level")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: 2 × cores + 1)")
    args = parser.parse_args()

    with served("judgekb-web-bench-", args.workers) as (port, db_path):
        items = evaluation.load(ROOT / "tests" / "eval" / "lookup.yaml")
        db = store.connect(db_path)
        ids = [r["id"] for r in db.query("select id from clauses where doc in ('agot1-faq', 'agot2-faq') order by seq")]
        scenario = (ROOT / "scenarios" / "001-darrell-brian-military-challenge.yaml").read_bytes()
        endpoints = {
            "baseline: static css": [("GET", "/static/style.css", None)],
            "search (api)": [("GET", "/api/search?" + urllib.parse.urlencode({"q": i.query, "edition": i.edition}), None) for i in items],
            "clause page": [("GET", "/c/" + urllib.parse.quote(i), None) for i in ids],
            "scenario run (api)": [("POST", "/api/run", scenario)],
        }
        workers = args.workers or 2 * (os.cpu_count() or 1) + 1
        print(
            f"judgekb serve (gunicorn, {workers} workers) on 127.0.0.1:{port}; {args.seconds:.0f} s per row; "
            f"{os.cpu_count()} cores shared by server and clients\n"
        )
        print(f"{'endpoint':22s} {'clients':>7s} {'req/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'errors':>7s}")
        for name, requests in endpoints.items():
            load(port, requests, 4, 1.0)  # warm every worker
            for clients in (1, 50):
                r = load(port, requests, clients, args.seconds)
                print(f"{name:22s} {clients:7d} {r['rps']:8.0f} {r['p50']:8.1f} {r['p99']:8.1f} {r['errors']:7d}")


if __name__ == "__main__":
    main()
