"""Compare the cited pages of one document's clauses between a git revision and the work tree.

    python tools/compare_pages.py main agot1-faq

Builds both knowledge bases in a temporary folder (the revision from `git archive`, so no
checkout is touched) and prints every clause whose page changed, then the counts.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pages(root: Path, db: Path, doc: str) -> dict[str, str | None]:
    code = (
        "import sys, sqlite3; from pathlib import Path; from judgekb import store;"
        "store.build(Path(sys.argv[1]), Path(sys.argv[2]));"
        "c = sqlite3.connect(sys.argv[2]);"
        "[print(f'{i}\\t{p}') for i, p in c.execute('select id, page from clauses where doc = ? order by seq', [sys.argv[3]])]"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(root / "corpus"), str(db), doc], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    return {line.split("\t")[0]: line.split("\t")[1] for line in out.splitlines()}


def within(inner: str, outer: str) -> bool:
    low, _, high = outer.partition("-")
    first, _, last = inner.partition("-")
    return int(low) <= int(first) and int(last or first) <= int(high or low)


def main(revision: str, doc: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        old_root = Path(tmp) / "old"
        archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(old_root, filter="data")
        before = pages(old_root, Path(tmp) / "old.sqlite", doc)
        after = pages(ROOT, Path(tmp) / "new.sqlite", doc)
    changed = [i for i in after if i in before and before[i] != after[i]]
    for clause_id in changed:
        print(f"{clause_id}\t{before[clause_id]} -> {after[clause_id]}")
    only_range = [i for i in changed if "-" in before[i] and after[i] != "None" and within(after[i], before[i])]
    print(f"\n{len(changed)} of {len(after)} {doc} clauses cite a different page "
          f"({len(only_range)} of them narrowed from a page range; {sum(after[i] == 'None' for i in changed)} now 'not determined'); "
          f"{len(set(after) - set(before))} clauses are new, {len(set(before) - set(after))} gone")


if __name__ == "__main__":
    main(*(sys.argv[1:3] if len(sys.argv) > 2 else ["main", "agot1-faq"]))
