"""Stale citations caught: lock what a ruling cites, update the corpus, verify names every change."""

from __future__ import annotations

import hashlib
import json
import re

from tests.conftest import ROOT, run_cli

SCENARIO = ROOT / "scenarios" / "001-darrell-brian-military-challenge.yaml"
LOCKED = ["agot2-faq/2.6", "agot1-faq/3.32", "agot1-faq/3.29", "agot1-faq/1.1", "agot2-rr/target"]


def _update_corpus(corpus):
    """What a new FAQ version or a repaired map does: one text reworded, one id renamed."""
    source = corpus / "sources" / "003_a924874d5eff62db.txt"
    text = source.read_text(encoding="utf-8")
    old, new = "The most common of these is the “terminal burn” effect", "The best known of these is the “terminal burn” effect"
    assert text.count(old) == 1
    source.write_text(text.replace(old, new), encoding="utf-8")
    manifest = corpus / "manifests" / "agot2-faq.yaml"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    manifest.write_text(re.sub(r"sha256: \w+", f"sha256: {digest}", manifest.read_text(encoding="utf-8")), encoding="utf-8")
    links = corpus / "links.yaml"  # a new FAQ entry now overrules a Rules Reference entry
    links.write_text(
        links.read_text(encoding="utf-8").replace(
            "supersedes:\n",
            "supersedes:\n- {from: agot2-faq41/3.3, to: agot2-rr/target, rule: faq-over-rules-reference-2, reason: the FAQ overrules it}\n",
            1,
        ),
        encoding="utf-8",
    )
    faq_map = corpus / "maps" / "agot1-faq.yaml"
    faq_map.write_text(faq_map.read_text(encoding="utf-8").replace("{id: '3.32',", "{id: '3.32-dead-and-discard',"), encoding="utf-8")


def test_verify_names_changed_and_vanished_citations_after_a_corpus_update(corpus_copy, db_copy, tmp_path):
    db = db_copy  # current for corpus_copy until _update_corpus, which rebuilds it
    lock = tmp_path / "ruling.lock.json"
    args = [a for i in LOCKED for a in ("--id", i)]
    made = run_cli("lock", *args, "-o", str(lock), db=db, corpus=corpus_copy)
    assert made.returncode == 0, made.stderr
    saved = json.loads(lock.read_text(encoding="utf-8"))
    assert [c["id"] for c in saved["citations"]] == LOCKED
    assert all(len(c["sha256"]) == 64 and c["permalink"] == f"/c/{c['id']}" for c in saved["citations"])
    fresh = run_cli("verify", str(lock), db=db, corpus=corpus_copy)
    assert fresh.returncode == 0 and "5 of 5 citations current" in fresh.stdout

    _update_corpus(corpus_copy)
    stale = run_cli("verify", str(lock), db=db, corpus=corpus_copy)
    assert stale.returncode == 1, stale.stderr
    out = stale.stdout
    assert "TEXT CHANGED agot2-faq/2.6" in out
    assert "The most common of these is the “terminal burn” effect" in out  # the old text …
    assert "The best known of these is the “terminal burn” effect" in out  # … and the new
    assert "ID VANISHED agot1-faq/3.32" in out and "agot1-faq/3.32-dead-and-discard" in out  # nearest id offered
    assert "agot1-faq/3.29" not in out and "agot1-faq/1.1 " not in out  # unchanged citations are not reported
    assert "SUPERSEDED agot2-rr/target" in out and "now governed by agot2-faq41/3.3: AGoT 2.0 FAQ v4.1" in out
    assert "2 of 5 citations current, 3 stale" in out
    as_json = json.loads(run_cli("verify", "--json", str(lock), db=db, corpus=corpus_copy).stdout)
    statuses = {f["id"]: f["status"] for f in as_json[str(lock)]}
    assert statuses == {
        "agot2-faq/2.6": "changed",
        "agot1-faq/3.32": "gone",
        "agot1-faq/3.29": "current",
        "agot1-faq/1.1": "current",
        "agot2-rr/target": "superseded",
    }


def test_lock_a_scenario_records_every_clause_its_trace_cites(tmp_path, db_path):
    lock = tmp_path / "scenario.lock.json"
    made = run_cli("lock", str(SCENARIO), "-o", str(lock), db=db_path)
    assert made.returncode == 0, made.stderr
    ruling = json.loads(run_cli("run", str(SCENARIO), "--json", db=db_path).stdout)
    cited = list(dict.fromkeys(c for step in ruling["trace"] for c in step["clauses"]))
    locked = json.loads(lock.read_text(encoding="utf-8"))["citations"]
    assert [c["id"] for c in locked] == cited and cited
    # a saved ruling (run --json) locks the same way
    saved = tmp_path / "ruling.json"
    saved.write_text(json.dumps(ruling), encoding="utf-8")
    assert run_cli("lock", str(saved), db=db_path).returncode == 0
    assert [c["id"] for c in json.loads((tmp_path / "ruling.json.lock.json").read_text())["citations"]] == cited


def test_lock_and_verify_refuse_bad_input_without_harm(tmp_path, db_path):
    precious = tmp_path / "notes.json"
    precious.write_text('{"mine": true}', encoding="utf-8")
    refused = run_cli("lock", "--id", "agot1-faq/3.30", "-o", str(precious), db=db_path)
    assert refused.returncode == 2 and "not overwriting" in refused.stderr
    assert precious.read_text(encoding="utf-8") == '{"mine": true}'
    unknown = run_cli("lock", "--id", "agot1-faq/9.99", "-o", str(tmp_path / "x.lock.json"), db=db_path)
    assert unknown.returncode == 2 and "agot1-faq/9.99" in unknown.stderr and not (tmp_path / "x.lock.json").exists()
    not_a_lock = run_cli("verify", str(precious), db=db_path)
    assert not_a_lock.returncode == 2 and "not a judgekb lock file" in not_a_lock.stderr
    assert "Traceback" not in refused.stderr + unknown.stderr + not_a_lock.stderr


def test_permalinks_survive_a_renamed_id_and_pinned_links_warn_of_changed_text(corpus_copy, db_copy, tmp_path):
    from judgekb.web import app as web

    db = db_copy  # current for corpus_copy until the rename below, which rebuilds it
    lock = tmp_path / "r.lock.json"
    assert run_cli("lock", "--id", "agot1-faq/3.32", "-o", str(lock), db=db, corpus=corpus_copy).returncode == 0
    faq_map = corpus_copy / "maps" / "agot1-faq.yaml"
    faq_map.write_text(faq_map.read_text(encoding="utf-8").replace("{id: '3.32',", "{id: '3.32-piles',"), encoding="utf-8")
    renamed = corpus_copy / "renamed.yaml"
    renamed.write_text("renamed:\n- {old: agot1-faq/3.32, new: agot1-faq/3.32-piles, reason: a test rename}\n", encoding="utf-8")
    result = run_cli("verify", str(lock), db=db, corpus=corpus_copy)
    assert result.returncode == 0, result.stdout + result.stderr  # same text under a new id: still good
    assert "ID RENAMED agot1-faq/3.32" in result.stdout and "the id is now agot1-faq/3.32-piles" in result.stdout
    shown = run_cli("cite", "agot1-faq/3.32", db=db, corpus=corpus_copy)
    assert shown.returncode == 0 and "§3.32 Dead and Discard Pile" in shown.stdout and "is now" in shown.stderr

    client = web.create_app(db, corpus_copy).test_client()
    moved = client.get("/c/agot1-faq/3.32")
    assert moved.status_code == 301 and moved.headers["Location"].endswith("/c/agot1-faq/3.32-piles")
    assert client.get("/api/clause/agot1-faq/3.32").get_json()["id"] == "agot1-faq/3.32-piles"
    page = client.get("/c/agot1-faq/3.32-piles").get_data(as_text=True)
    sha = client.get("/api/clause/agot1-faq/3.32-piles").get_json()["sha256"]
    assert f"sha256={sha[:12]}" in page and "pinned-changed" not in page
    assert "pinned-changed" not in client.get(f"/c/agot1-faq/3.32-piles?sha256={sha[:12]}").get_data(as_text=True)
    assert 'id="pinned-changed"' in client.get("/c/agot1-faq/3.32-piles?sha256=0000deadbeef").get_data(as_text=True)
    # a rename onto an id that does not exist is refused at build
    renamed.write_text("renamed:\n- {old: agot1-faq/3.32, new: agot1-faq/nowhere, reason: broken}\n", encoding="utf-8")
    broken = run_cli("build", db=tmp_path / "other.sqlite", corpus=corpus_copy)
    assert broken.returncode == 2 and "'agot1-faq/nowhere', which is no clause" in broken.stderr
