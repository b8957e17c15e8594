"""Shared fixtures: the real corpus built once per test session into a temporary database."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgekb import store
from judgekb.corpus.sources import default_corpus

ROOT = Path(__file__).resolve().parent.parent
SHARED_CARDS = ROOT.parent / "shared" / "cards"
CORPUS = default_corpus()
# the offline copy's renderer (a `judgekb serve` child) runs at the servers' own priority here: with both cores busy
# under `pytest -n 2`, ten steps down it got almost no time and each test saving the offline copy waited 40 s
os.environ.setdefault("JUDGEKB_RENDER_NICE", "0")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The session's build of the shipped corpus (nothing imported): its path and store.build's report."""
    path = tmp_path_factory.mktemp("kb") / "judgekb.sqlite"
    report = store.build(CORPUS, path)
    return path, report


@pytest.fixture(scope="session")
def db_path(built: tuple[Path, dict]) -> Path:
    return built[0]


@pytest.fixture(scope="session")
def build_report(built: tuple[Path, dict]) -> dict:
    """What store.build reported for the session's database (counts, warnings, imports)."""
    return built[1]


@pytest.fixture(scope="session")
def db(db_path: Path):
    return store.connect(db_path)


@pytest.fixture(scope="session")
def clauses(db) -> list[dict]:
    rows = list(db.query("select * from clauses order by doc, seq"))
    for row in rows:
        row["data"] = json.loads(row["data"])
    return rows


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the corpus for tests that break it on purpose."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


@pytest.fixture
def db_copy(db_path: Path, tmp_path: Path) -> Path:
    """``tmp_path / "kb.sqlite"``: a private copy of the session's database, for tests that write to it
    but are not about the first build.  With ``corpus_copy`` it is current as it is: the fingerprint
    hashes the corpus files' contents and their names inside the corpus, not where the corpus lies, so
    the first command does not build (a change to the copied corpus still rebuilds it)."""
    target = tmp_path / "kb.sqlite"
    shutil.copyfile(db_path, target)
    return target


def run_cli(
    *args: str, db: Path | None = None, corpus: Path | None = None, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """Run ``python -m judgekb`` as a judge would, capturing output (``stdin``: what is typed or piped in)."""
    env = dict(os.environ)
    if db is not None:
        env["JUDGEKB_DB"] = str(db)
    if corpus is not None:
        env["JUDGEKB_CORPUS"] = str(corpus)
    return subprocess.run(
        [sys.executable, "-m", "judgekb", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout, input=stdin
    )


@pytest.fixture(scope="session")
def imported_db_path(built: tuple[Path, dict], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's database with both public card databases and the dated restricted lists imported,
    as ``judgekb import-cards`` and a build with imports do it (cardimport.import_path per source: the
    cards, and a throneteki folder's lists); the first edition is given as its folder.  Shared
    read-only by the modules that read card data and lists (deck checks, the event lookup, the list
    notes); row for row the database store.build(CORPUS, imports=[both]) writes, less the build time
    (checked with sqlite's iterdump when three module builds were merged into this fixture)."""
    from judgekb.cards import cardimport

    assert SHARED_CARDS.is_dir(), "../shared/cards is beside the repository in CI"
    path = tmp_path_factory.mktemp("imported") / "kb.sqlite"
    shutil.copyfile(built[0], path)  # (built, not db_path: test_deckcheck_web's db_path is this fixture)
    db = store.connect(path, read_only=False)
    for source in (SHARED_CARDS / "agot1", SHARED_CARDS / "agot2-throneteki"):
        cardimport.import_path(db, source)
    db.conn.close()
    return path


@pytest.fixture(scope="session")
def carded_db_path(db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's knowledge base with both public card databases imported."""
    path = tmp_path_factory.mktemp("carded") / "judgekb.sqlite"
    shutil.copy(db_path, path)
    db = store.connect(path, read_only=False)
    from judgekb.cards import cardimport

    cardimport.apply(db, cardimport.read(SHARED_CARDS / "agot1" / "agot1.json"))
    cardimport.apply(db, cardimport.read(SHARED_CARDS / "agot2-throneteki"))
    db.conn.close()
    return path


# Browser tests (tests/browser_support.py): one chromium per test module that asks (a session-wide
# sync playwright would leave an asyncio loop running under every later test), and one `judgekb serve`
# per database for the whole session: the servers are read-only and each test opens its own browser
# context, so no test sees another's cookies, storage or service worker.
@pytest.fixture(scope="module")
def browser():
    from tests.browser_support import launched

    with launched() as browser:
        yield browser


@pytest.fixture(scope="session")
def server(db_path: Path):
    """`judgekb serve` on the session's database (no card data); yields its base URL."""
    from tests.browser_support import serving

    with serving(db_path) as base:
        yield base


@pytest.fixture(scope="session")
def carded_server(carded_db_path: Path):
    """`judgekb serve` on the database with both card databases imported."""
    from tests.browser_support import serving

    with serving(carded_db_path) as base:
        yield base
