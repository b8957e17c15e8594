"""The long fuzz run, before a release: the properties of tests/test_fuzz.py with many more inputs.

    python bench/fuzz.py --count 2000          # inputs per property (CI runs 250)
    python bench/fuzz.py --count 500 -k web    # only the web properties

Prints, per target (CLI command, scenario loader, YAML, web route), how many inputs were tried
and how many failed, then the engine crash sites that guard's last boundary caught: mutated
scenarios the format check let through and the engine could not run.  They were reported to
the user as a clear per-file error (exit 1, HTTP 422), not a traceback, but each is a place
where scenario validation should refuse the input first.  Exit status 1 if any input failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="inputs per property (default 1000)")
    parser.add_argument("-k", dest="select", default=None, help="pytest -k expression to pick properties")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "fuzz.json"
        env = dict(os.environ, JUDGEKB_FUZZ_EXAMPLES=str(args.count), JUDGEKB_FUZZ_REPORT=str(report))
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fuzz.py"]
        if args.select:
            command += ["-k", args.select]
        started = time.perf_counter()
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else {"tried": {}, "failed": {}, "engine_crashes": []}
    tried, failed = data["tried"], data["failed"]
    print(f"fuzz: {args.count} inputs per property, {seconds:.0f}s")
    print(f"{'target':<24}{'tried':>8}{'failed':>8}")
    for target in sorted(tried):
        print(f"{target:<24}{tried[target]:>8}{failed.get(target, 0):>8}")
    print(f"{'total':<24}{sum(tried.values()):>8}{sum(failed.values()):>8}")
    crashes = data["engine_crashes"]
    print(f"\nengine crash sites caught by the last boundary: {sum(n for _, n in crashes)} inputs, {len(crashes)} sites")
    for site, count in crashes:
        print(f"  {count:>5}  {site}")
    if result.returncode != 0:
        print("\npytest reported failures (hypothesis shows the smallest failing input):")
        print(result.stdout[-6000:])
    return 1 if result.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
