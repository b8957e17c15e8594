"""The offline side of the web app through Flask's test client: manifest, service worker, bundle, index, 404 links."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest

from judgekb.lookup import search
from judgekb.web import app as web
from judgekb.web import webtext
from tests.conftest import CORPUS, ROOT


@pytest.fixture(scope="module")
def client(db_path):
    app = web.create_app(db_path, CORPUS)
    app.config["JUDGEKB_BUNDLE_WAIT"] = 300  # a slow test machine: wait for the bundle instead of a 503
    return app.test_client()


def test_manifest_and_service_worker_are_served_from_the_root(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    assert json.loads(manifest.get_data(as_text=True))["start_url"] == "/"
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "judgekb service worker" in worker.get_data(as_text=True)
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_the_bundle_holds_every_clause_and_card_page(client, db):
    urls = client.get("/offline/urls.json").get_json()
    clauses = [r["id"] for r in db.query("select id from clauses")]
    cards = list(db.query("select name, edition from cards"))
    assert len(urls["pages"]) == len(clauses) + len(cards)
    assert "/c/agot1-faq/3.30" in urls["pages"] and "/card?name=Val&edition=1" in urls["pages"]
    raw = client.get("/offline/bundle.json", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["Content-Encoding"] == "gzip"
    bundle = json.loads(gzip.decompress(raw.data))
    assert bundle["version"] == urls["version"] and set(bundle["pages"]) == set(urls["pages"])
    assert "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) §3.30" in bundle["pages"]["/c/agot1-faq/3.30"]
    plain = client.get("/offline/bundle.json")  # a client that cannot take gzip still gets JSON
    assert "Content-Encoding" not in plain.headers and json.loads(plain.data)["version"] == bundle["version"]


def test_the_search_index_has_every_clause_and_card_title(client, db):
    index = client.get("/offline/index.json").get_json()
    assert len(index["clauses"]) == next(db.query("select count(*) as n from clauses"))["n"]
    rows = {c[0]: c for c in index["clauses"]}
    # an unofficial restatement names the clauses that govern it, in the order the server folds by, with
    # the sentence that restates each where one sentence does (links.restatements), as the server's results do
    order = [g for g, _ in search.Index(db).governors["agot1-summary/setup"]]  # the order the server's search folds by
    summary = rows["agot1-summary/setup"]
    assert [g[0] for g in summary[6]] == order and {g[1] for g in summary[6]} == {"restates"}
    assert ["agot1-rules/setup-2-separate-decks", "restates", "Characters, Locations, Attachments, and Events go into your…"] in summary[6]
    assert summary[7] == 1 and rows["agot2-web/para-104"][7] == 1  # unofficial: flagged when it stands on its own
    assert rows["agot2-faq/1.4"][6] == [["agot2-faq41/1.4", "superseded", ""]] and rows["agot2-faq/1.4"][7] == 0
    assert rows["agot2-faq41/1.4"][6] == [] and rows["agot2-faq41/1.4"][7] == 0
    assert ["Val", 1] in index["cards"]


def test_not_found_links_the_nearest_ids(client):
    page = client.get("/c/agot1-faq/3.3x")
    assert page.status_code == 404
    assert '<a href="/c/agot1-faq/3.3"><code>agot1-faq/3.3</code></a>' in page.get_data(as_text=True)


def test_changes_page_names_documents_and_offers_their_versions(client):
    page = client.get("/changes?doc=agot2-faq").get_data(as_text=True)
    assert "Notes, Errata, and Frequently Asked Questions" in page
    assert '<option value="v2.2" >after v2.2</option>' in page and "after v5.4" not in page


def test_search_results_show_text_not_markup(client):
    page = client.get("/?q=moribound&edition=1").get_data(as_text=True)
    assert "<mark>" in page and "[Moribund]" not in page
    page = client.get("/?q=which+abilities+does+catelyn+stark+prevent&edition=2").get_data(as_text=True)
    results = page[page.index('id="results"') : page.index("</ol>")]
    assert "Catelyn" in results and "**" not in results
    assert str(webtext.rich("**Action** and *Hand’s Judgment* <b>")) == "<strong>Action</strong> and <em>Hand’s Judgment</em> &lt;b&gt;"


def test_export_site_refuses_a_file_and_a_foreign_folder(db_path, tmp_path):
    from tests.conftest import run_cli

    target = tmp_path / "notes.txt"
    target.write_text("mine", encoding="utf-8")
    result = run_cli("export-site", str(target), db=db_path)
    assert result.returncode == 2 and "is not a folder" in result.stderr and "Traceback" not in result.stderr
    assert target.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(
    ("setting", "step", "said"),
    [(None, 10, ""), ("0", 0, ""), ("5", 5, ""), ("20", 10, "JUDGEKB_RENDER_NICE='20' is not a whole number from 0 to 19"),
     ("low", 10, "JUDGEKB_RENDER_NICE='low' is not a whole number from 0 to 19")],
)  # fmt: skip
def test_the_offline_renderer_steps_back_as_told(setting, step, said):
    """The renderer steps back 10 by default (the server's requests first); JUDGEKB_RENDER_NICE sets it (the suite
    sets 0); a bad value is said, naming the variable, and the default used: no traceback."""
    env = {k: v for k, v in os.environ.items() if k != "JUDGEKB_RENDER_NICE"}
    if setting is not None:
        env["JUDGEKB_RENDER_NICE"] = setting
    code = "import os; from judgekb.web.offline import lower_priority; before = os.nice(0); print(lower_priority(), os.nice(0) - before)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.split() == [str(step), str(step)]
    assert (said in done.stderr) if said else done.stderr == ""
