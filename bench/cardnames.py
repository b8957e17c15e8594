"""Card-name benchmark: how fast and how safely `judgekb card NAME` picks a page, beside a baseline, in one run.

    python bench/cardnames.py --cards ../shared/cards [--baseline DIR] [--names 500] [--passes 2]

Builds a database from the corpus with both card databases in DIR imported (the event setting)
and draws names the way they are typed at a table (seeded, from the imported titles): the exact
title; the title typed loosely (lower case, no apostrophes, quotes, punctuation or leading
article); one typo; two typos; the first half of its words; the title and one more word; and
nonsense.  For this checkout and, with ``--baseline DIR`` (a directory holding an older
``judgekb`` package, e.g. ``git archive main judgekb | tar -x -C /tmp/base``), for that code,
run in its own process over the same database and names, it prints:

- time per name of what `judgekb card` and `/card` do to choose what to show and build the page
  (``cardpage.lookup``; code without it: ``cardpage.find``, then ``cardpage.suggestions`` when
  nothing opened): the first call (cold: the new code indexes the titles then), median and p99;
- per kind of name: the right card opened, a WRONG card opened, or nothing opened (and then
  whether the right title is first / among the first five offered).

Target: no wrong card opened for any kind; p99 well under the 100 ms a phone user notices.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KINDS = {  # kind: share of the names
    "exact title": 0.20,
    "typed loosely": 0.20,
    "one typo": 0.20,
    "two typos": 0.12,
    "first words": 0.12,
    "title + a word": 0.08,
    "nonsense": 0.08,
}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _typo(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text))
    op, letter = rng.choice("dist"), rng.choice(string.ascii_lowercase)
    if op == "d":
        return text[:at] + text[at + 1 :]
    if op == "i":
        return text[:at] + letter + text[at:]
    if op == "s":
        return text[:at] + letter + text[at + 1 :]
    return text[:at] + text[at + 1 : at + 2] + text[at] + text[at + 2 :]


def draw_names(db_path: Path, count: int, seed: int) -> list[dict[str, Any]]:
    """The typed names, each with the title it means (None for nonsense), its edition and its kind."""
    sys.path.insert(0, str(ROOT))
    from judgekb import store
    from judgekb.cards.cardnames import loose_key

    db = store.connect(db_path)
    titles = sorted({(r["name"], r["edition"]) for r in db.query("select distinct name, edition from imported_cards")})
    known = {(loose_key(n), e) for n, e in titles}
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for kind, share in KINDS.items():
        made, tries = 0, 0
        while made < round(share * count):
            tries += 1
            if tries > 100 * count:
                raise SystemExit(f"could not draw {kind!r} names from the imported titles")
            name, edition = rng.choice(titles)
            words = name.split()
            if kind == "exact title":
                typed = name
            elif kind == "typed loosely":
                typed = loose_key(name)
            elif kind == "one typo":
                typed = _typo(rng, name)
            elif kind == "two typos":
                typed = _typo(rng, _typo(rng, name))
            elif kind == "first words":
                if len(words) < 2:
                    continue
                typed = " ".join(words[: max(1, len(words) // 2)])
            elif kind == "title + a word":
                typed = f"{name} {rng.choice(['card', 'errata', 'restricted', 'ruling', 'faq'])}"
            else:
                typed = "".join(rng.choice(string.ascii_lowercase + "  ") for _ in range(rng.randint(4, 16))).strip() or "zz"
                name = None
            if kind not in ("exact title", "typed loosely") and (loose_key(typed), edition) in known:
                continue  # the typed text is itself a title: not a test of near matching
            out.append({"typed": typed, "edition": edition, "means": name, "kind": kind})
            made += 1
    return out


def measure(db_path: Path, names: list[dict[str, Any]], passes: int) -> dict[str, Any]:
    """Run the look-ups with whichever ``judgekb`` is first on sys.path (this checkout or the baseline)."""
    from judgekb import store
    from judgekb.cards import cardpage

    db = store.connect(db_path)
    started = time.perf_counter()
    cardpage.find(db, names[0]["typed"], names[0]["edition"])
    cold = (time.perf_counter() - started) * 1000
    times: list[float] = []
    outcomes: list[dict[str, Any]] = []
    for run in range(passes):
        for item in names:
            started = time.perf_counter()
            if hasattr(cardpage, "lookup"):  # one call gives the pages or the offer
                found = cardpage.lookup(db, item["typed"], item["edition"])
                pages, offered = found.pages, found.near
            else:
                pages = cardpage.find(db, item["typed"], item["edition"])
                offered = [] if pages else cardpage.suggestions(db, item["typed"], item["edition"])
            times.append((time.perf_counter() - started) * 1000)
            if run == 0:
                outcomes.append({"opened": [p["name"] for p in pages], "offered": offered[:5]})
    return {"cold_ms": cold, "times": times, "outcomes": outcomes, "code": str(Path(cardpage.__file__).parent.parent)}


def tally(names: list[dict[str, Any]], outcomes: list[dict[str, Any]]) -> dict[str, Counter]:
    sys.path.insert(0, str(ROOT))
    from judgekb.cards.cardnames import loose_key

    out: dict[str, Counter] = {kind: Counter() for kind in KINDS}
    for item, seen in zip(names, outcomes, strict=True):
        means = loose_key(item["means"]) if item["means"] else None
        opened = [loose_key(n) for n in seen["opened"]]
        offered = [loose_key(n) for n in seen["offered"]]
        if opened:
            out[item["kind"]]["right" if means and set(opened) == {means} else "WRONG"] += 1
        elif means is None:
            out[item["kind"]]["right"] += 1  # nonsense: nothing opened is right
        else:
            out[item["kind"]]["none"] += 1
            out[item["kind"]]["offered first"] += bool(offered) and offered[0] == means
            out[item["kind"]]["offered top 5"] += means in offered
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=Path, required=True, metavar="DIR", help="the card databases (../shared/cards)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="a directory holding an older judgekb package")
    parser.add_argument("--names", type=int, default=500)
    parser.add_argument("--passes", type=int, default=2, help="timed passes over the names")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--worker", nargs=2, metavar=("DB", "NAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:  # inside the baseline's process: measure and hand back JSON
        names = json.loads(Path(args.worker[1]).read_text(encoding="utf-8"))
        print(json.dumps(measure(Path(args.worker[0]), names, args.passes)))
        return
    sys.path.insert(0, str(ROOT))
    from judgekb import store
    from judgekb.cards import cardimport
    from judgekb.corpus.sources import default_corpus

    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "judgekb.sqlite"
        store.build(default_corpus(), db_path)
        db = store.connect(db_path, read_only=False)
        cardimport.apply(db, cardimport.read(args.cards / "agot1" / "agot1.json") + cardimport.read(args.cards / "agot2-throneteki"))
        db.conn.close()
        names = draw_names(db_path, args.names, args.seed)
        names_file = Path(tmp) / "names.json"
        names_file.write_text(json.dumps(names), encoding="utf-8")
        runs: dict[str, dict[str, Any]] = {}
        for label, code in (("baseline", args.baseline), ("this checkout", ROOT)):
            if code is None:
                continue
            env = dict(os.environ, PYTHONPATH=str(code.resolve()))
            command = [sys.executable, str(Path(__file__).resolve()), "--cards", str(args.cards), "--passes", str(args.passes)]
            done = subprocess.run([*command, "--worker", str(db_path), str(names_file)], capture_output=True, text=True, env=env, cwd=tmp)
            if done.returncode:
                sys.exit(f"{label} ({code}) failed:\n{done.stderr}")
            runs[label] = json.loads(done.stdout)
    labels = list(runs)
    print(f"{len(names)} typed names (seed {args.seed}), {args.passes} timed passes; both editions' card databases imported")
    for label in labels:
        print(f"  {label}: {runs[label]['code']}")
    width = 22
    print(f"\n{'':34s}" + "".join(f"{label:>{width}s}" for label in labels))
    rows = [
        ("first call, cold (ms)", lambda r: f"{r['cold_ms']:.1f}"),
        ("per name, median (ms)", lambda r: f"{statistics.median(r['times']):.2f}"),
        ("per name, p99 (ms)", lambda r: f"{percentile(r['times'], 99):.2f}"),
        ("per name, max (ms)", lambda r: f"{max(r['times']):.2f}"),
    ]
    for title, cell in rows:
        print(f"{title:34s}" + "".join(f"{cell(runs[label]):>{width}s}" for label in labels))
    if len(labels) == 2:
        base, new = (runs[label]["times"] for label in labels)
        print(f"{'median ratio (this / baseline)':34s}{statistics.median(new) / statistics.median(base):>{width * 2}.2f}")
    print("\nOutcome per kind of name: right / WRONG card opened / nothing opened (right title offered first, in top 5)")
    print(f"{'kind':18s}{'n':>5s}" + "".join(f"{label:>36s}" for label in labels))
    tallies = {label: tally(names, runs[label]["outcomes"]) for label in labels}
    for kind in KINDS:
        n = sum(1 for item in names if item["kind"] == kind)
        cells = []
        for label in labels:
            t = tallies[label][kind]
            cells.append(f"{t['right']} / {t['WRONG']} / {t['none']} ({t['offered first']}, {t['offered top 5']})")
        print(f"{kind:18s}{n:5d}" + "".join(f"{c:>36s}" for c in cells))
    for label in labels:
        wrong = sum(t["WRONG"] for t in tallies[label].values())
        print(f"{label}: {wrong} wrong card pages opened out of {len(names)}")


if __name__ == "__main__":
    main()
