"""Can large scenarios starve searches?  Search latency under a mix with the largest legal scenarios.

    python bench/starvation.py [--seconds 8] [--clients 20] [--workers N]

Starts `judgekb serve` on a loopback port and drives it with closed-loop clients.  Baseline
(same run): searches only.  Mixed: 5 % of requests POST the largest scenario the web accepts
(400 steps, 400 cards; it runs into the 2 s deadline), 95 % search.  A third row sends "billion laughs" YAML instead.  Prints, for searches,
p50/p99 and the share over 2 s, and for scenarios how many were run (200/422) or turned away
(429, every scenario slot busy).  Issue 11 measured 45 % of searches over 2 s before the cap.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from web import percentile, served  # noqa: E402

from judgekb.lookup import evaluation  # noqa: E402


def largest_scenario() -> bytes:
    """400 cards and 400 steps: the most the web accepts."""
    cards_a = ", ".join(f"{{name: A{n}, str: 1, icons: [military]}}" for n in range(199))
    cards_b = ", ".join(f"{{name: B{n}, str: 1, icons: [military]}}" for n in range(200))
    text = (
        "title: largest legal scenario\nplayers:\n"
        f"  - {{name: A, house: Stark, in_play: [{{name: X, str: 1, icons: [military]}}, {cards_a}]}}\n"
        f"  - {{name: B, house: Lannister, in_play: [{cards_b}]}}\nsteps:\n"
        + "".join("  - effect: {target: X, str: 1, until: end of phase}\n" for _ in range(400))
    )
    return text.encode("utf-8")


def billion_laughs() -> bytes:
    """Under 1 KB of YAML aliases that expand to 9**9 values (refused while parsing)."""
    lines = ["title: laughs", "notes:", '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"  {n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi", strict=True)]
    lines += ["players:", "  - {name: A, house: Stark}", "  - {name: B, house: Lannister}", "steps: [{note: *i}]", ""]
    return "\n".join(lines).encode("utf-8")


def drive(port: int, searches: list[str], scenario: bytes | None, clients: int, seconds: float) -> tuple[list[float], Counter[int]]:
    """Search latencies (ms) and scenario status counts; every 20th request is the scenario when given."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client(offset: int) -> None:
        i = offset
        while time.perf_counter() < stop:
            i += 1
            heavy = scenario is not None and i % 20 == 0
            start = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                if heavy:
                    conn.request("POST", "/api/run", body=scenario, headers={"Content-Type": "text/plain"})
                else:
                    conn.request("GET", searches[i % len(searches)])
                response = conn.getresponse()
                response.read()
                conn.close()
                status = response.status
            except OSError:
                status = 0
            took = (time.perf_counter() - start) * 1000
            with lock:
                if heavy:
                    statuses[status] += 1
                else:
                    latencies.append(took)

    threads = [threading.Thread(target=client, args=(n * 7,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    with served("judgekb-starvation-", args.workers) as (port, _db):
        items = evaluation.load(ROOT / "tests" / "eval" / "lookup.yaml")
        searches = ["/api/search?" + urllib.parse.urlencode({"q": i.query, "edition": i.edition}) for i in items]
        drive(port, searches, None, 4, 1.0)  # warm every worker
        workers = args.workers or 2 * (os.cpu_count() or 1) + 1
        print(f"judgekb serve ({workers} workers), {args.clients} clients, {args.seconds:.0f} s per row, {os.cpu_count()} cores\n")
        print(f"{'row':28s} {'searches':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'>2 s':>7s}  scenarios (status: count)")
        rows = (
            ("baseline: searches only", None),
            ("mixed: 5 % largest scenario", largest_scenario()),
            ("mixed: 5 % billion laughs", billion_laughs()),
        )
        for name, scenario in rows:
            latencies, statuses = drive(port, searches, scenario, args.clients, args.seconds)
            slow = sum(1 for x in latencies if x > 2000) / max(1, len(latencies))
            shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) or "-"
            print(
                f"{name:28s} {len(latencies):8d} {statistics.median(latencies):8.1f} {percentile(latencies, 99):8.1f} {slow:7.1%}  {shown}"
            )


if __name__ == "__main__":
    main()
