"""Remove from corpus/player-questions/ every question that reads as an evaluation query (same words).

    python tools/drop_evaluation_questions.py

Players' questions are written from each clause outward, without the evaluation sets; a common
phrasing ("how does stealth work") can still coincide with an evaluation query, and an exact match
would measure memory, not lookup.  tests/lookup/test_search.py fails while any remains; this removes them,
line by line, so each file keeps its layout (a clause left with none keeps an empty list).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judgekb.files import write_text_atomic  # noqa: E402
from judgekb.lookup import evaluation  # noqa: E402
from judgekb.lookup.words import joined_words  # noqa: E402

EVAL = ROOT / "tests" / "eval"
ITEM = re.compile(r"^\s*-\s+(.*)$")


def evaluation_queries() -> set[str]:
    queries = {joined_words(i.query) for i in evaluation.load(EVAL / "lookup.yaml")}
    for name in ("players.yaml", "judge-review.yaml"):
        queries |= {joined_words(i.query) for i in evaluation.load_players(EVAL / name)}
    return queries


def main() -> None:
    queries = evaluation_queries()
    removed = 0
    for path in sorted((ROOT / "corpus" / "player-questions").glob("*.yaml")):
        before = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        kept = []
        for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
            match = ITEM.match(line)
            value = yaml.safe_load(match.group(1)) if match else None
            if isinstance(value, str) and joined_words(value) in queries:
                removed += 1
                continue
            kept.append(line)
        text = "".join(kept)
        for clause_id, questions in (yaml.safe_load(text) or {}).items():
            if questions is None:  # every question of this clause went
                text = re.sub(rf"^{re.escape(clause_id)}:\s*$", f"{clause_id}: []", text, flags=re.MULTILINE)
        if set(yaml.safe_load(text) or {}) != set(before):
            sys.exit(f"{path}: removing questions would lose a clause; nothing written")
        write_text_atomic(path, text)
    print(f"removed {removed} questions equal to evaluation queries")


if __name__ == "__main__":
    main()
