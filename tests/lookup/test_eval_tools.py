"""The evaluation's judging tools: a top-up round pools only what no judge has read, and merging it
adds its answers to the earlier rounds' without losing them (tools/relevance_pool.py --top-up,
tools/apply_judgements.py --top-up)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from judgekb.lookup import search

ROOT = Path(__file__).resolve().parents[2]
# queries of this test's own (never evaluation items), one per edition
QUERIES = [("does renown give power when my guy defends", 2), ("how many plots do i reveal each round", 1)]


def tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def write_set(folder: Path, expects: list[list[str]], records: list[dict]) -> tuple[Path, Path]:
    players = folder / "players.yaml"
    lines = [f'- {{q: "{q}", ed: {ed}, expect: [{", ".join(x)}]}}\n' for (q, ed), x in zip(QUERIES, expects, strict=True)]
    players.write_text("# test set\n\n" + "".join(lines), encoding="utf-8")
    record = folder / "judgements.yaml"
    record.write_text(yaml.safe_dump(records, sort_keys=False), encoding="utf-8")
    return players, record


def test_top_up_pools_only_unread_clauses(tmp_path: Path, db) -> None:
    index = search.Index(db).warm()
    # what a judge is shown: the lookup's top 5 and the clauses folded under them
    tops = [
        [h["id"] for h in hits] + [f["id"] for h in hits for f in h.get("folded", [])]
        for hits in (search.results(index, q, ed, None, 5)[0] for q, ed in QUERIES)
    ]
    # the first query's judges read every clause the lookup now shows; the second's read one of them
    records = [
        {"q": QUERIES[0][0], "ed": 2, "answers": [tops[0][0]], "partial": [], "note": "", "before": [], "pooled": tops[0]},
        {"q": QUERIES[1][0], "ed": 1, "answers": [], "partial": [], "note": "", "before": [], "pooled": [tops[1][1]]},
    ]
    players, record = write_set(tmp_path, [[tops[0][0]], [tops[1][0]]], records)
    out = tmp_path / "sheets"
    done = tool("tools/relevance_pool.py", str(out), "--top-up", "--chunks", "1", "--file", str(players), "--record", str(record))
    assert done.returncode == 0, done.stderr
    shown = yaml.safe_load((out / "pool.yaml").read_text(encoding="utf-8"))
    # read before: the pooled clause and the expected one; nothing of the first query is new
    assert set(shown) == {1}
    assert tops[1][1] not in shown[1] and tops[1][0] not in shown[1]
    assert set(shown[1]) <= set(tops[1]) and shown[1]
    sheet = (out / "sheet-1.md").read_text(encoding="utf-8")
    assert QUERIES[1][0] in sheet and QUERIES[0][0] not in sheet


def test_top_up_adds_answers_and_refuses_unshown_ids(tmp_path: Path) -> None:
    old, new, unshown = "agot2-rr/renown", "agot2-rr/appendix-i/challenges-phase/4.2.3", "agot2-rr/power"
    records = [
        {"q": QUERIES[0][0], "ed": 2, "answers": [old], "partial": [], "note": "renown entry", "before": [old], "pooled": [old]},
        {"q": QUERIES[1][0], "ed": 1, "answers": [], "partial": [], "note": "", "before": [], "pooled": []},
    ]
    players, record = write_set(tmp_path, [[old], ["agot1-rules/round-sequence"]], records)
    pool = tmp_path / "pool.yaml"
    pool.write_text(yaml.safe_dump({0: [new, unshown.replace("power", "power-claim")]}), encoding="utf-8")
    judged = tmp_path / "judged.yaml"
    args = ["tools/apply_judgements.py", str(judged), "--top-up", str(pool), "--file", str(players), "--record", str(record)]

    # an id the sheet never showed is a slip: refused, and neither file is touched
    judged.write_text(yaml.safe_dump([{"n": 0, "q": QUERIES[0][0], "answers": [new, unshown], "partial": []}]), encoding="utf-8")
    before = players.read_bytes(), record.read_bytes()
    refused = tool(*args)
    assert refused.returncode != 0 and unshown in refused.stderr + refused.stdout
    assert (players.read_bytes(), record.read_bytes()) == before

    entry = {"n": 0, "q": QUERIES[0][0], "answers": [new], "partial": [], "note": "step 4.2.3"}
    judged.write_text(yaml.safe_dump([entry]), encoding="utf-8")
    done = tool(*args)
    assert done.returncode == 0, done.stderr
    items = yaml.safe_load(players.read_text(encoding="utf-8"))
    assert items[0]["expect"] == [old, new]  # the earlier answer stays, the new one joins it
    assert items[1]["expect"] == ["agot1-rules/round-sequence"]  # not in the round: untouched
    (entry, _) = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert entry["answers"] == [old, new] and entry["before"] == [old]
    assert set(entry["pooled"]) == {old, new, "agot2-rr/power-claim"}
    assert "renown entry" in entry["note"] and "step 4.2.3" in entry["note"]


def test_a_bad_record_is_refused_by_name_before_anything_is_built_or_written(tmp_path: Path) -> None:
    players, record = write_set(tmp_path, [["agot2-rr/renown"], ["agot1-rules/round-sequence"]], [{"answers": ["agot2-rr/renown"]}])
    out = tmp_path / "sheets"
    pooled = tool("tools/relevance_pool.py", str(out), "--top-up", "--file", str(players), "--record", str(record))
    assert pooled.returncode != 0 and "Traceback" not in pooled.stderr
    assert f"{record}: entry 1: needs q" in pooled.stderr and not out.exists()
    pool, judged = tmp_path / "pool.yaml", tmp_path / "judged.yaml"
    pool.write_text(yaml.safe_dump({0: ["agot2-rr/power"]}), encoding="utf-8")
    judged.write_text(yaml.safe_dump([{"n": 0, "q": QUERIES[0][0], "answers": ["agot2-rr/power"]}]), encoding="utf-8")
    before = players.read_bytes(), record.read_bytes()
    applied = tool("tools/apply_judgements.py", str(judged), "--top-up", str(pool), "--file", str(players), "--record", str(record))
    assert applied.returncode != 0 and "Traceback" not in applied.stderr and str(record) in applied.stderr
    assert (players.read_bytes(), record.read_bytes()) == before
