"""The command line as a judge uses it: show, cite, list, and what bad input gets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from judgekb import store
from tests.conftest import ROOT, run_cli


def test_show_prints_citation_text_and_authority(db_path):
    result = run_cli("show", "agot1-faq/3.23", db=db_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) §3.23 Replacement Effects, p. 11"
    assert (
        "Others change the way in which game events (such as the effect of a challenge's claim, or the drawing of a card)"
        " are handled." in result.stdout
    )
    authority_line = next(line for line in lines if line.startswith("Authority:"))
    assert "Official FAQ" in authority_line
    assert "Links:" in result.stdout and "→ mentions card:1:the-hound" in result.stdout


def test_show_terminal_condition_timing_in_the_2nd_edition(db_path):
    result = run_cli("show", "agot2-faq/2.6", db=db_path)
    assert result.returncode == 0
    assert result.stdout.startswith("AGoT 2.0 FAQ v2.3 (2019-09-20) §2.6 Timing of Terminal Condition Effects")
    assert "4) The “terminal burn” kill effect becomes imminent." in result.stdout
    assert "Note that at any point after Step 3, the character's STR is 0." in result.stdout


def test_show_lists_a_phases_steps_and_a_step_names_its_phase(db_path):
    """Appendix I's "7. Taxation phase" is a title with no text of its own: `show` lists the steps
    printed under it, in the Rules Reference's order, and a step names the phase it belongs to."""
    result = run_cli("show", "agot2-rr/appendix-i/taxation-phase", db=db_path)
    lines = result.stdout.splitlines()
    at = lines.index("In this section:")
    assert lines[at + 1 : at + 6] == [
        "  7.1 Taxation phase begins  [agot2-rr/appendix-i/taxation-phase/7.1]",
        "  7.2 Return unspent gold  [agot2-rr/appendix-i/taxation-phase/7.2]",
        "  7.3 Check reserve  [agot2-rr/appendix-i/taxation-phase/7.3]",
        "  7.4 Return melee title cards (melee format only)  [agot2-rr/appendix-i/taxation-phase/7.4]",
        "  7.5 Taxation phase ends  [agot2-rr/appendix-i/taxation-phase/7.5]",
    ]
    assert "Part of: Appendix I: Timing and Gameplay  [agot2-rr/appendix-i]" in lines
    step = run_cli("show", "agot2-rr/appendix-i/challenges-phase/4.2.1", db=db_path).stdout.splitlines()
    assert "Part of: 4. Challenges phase  [agot2-rr/appendix-i/challenges-phase]" in step
    assert "In this section:" not in step
    glossary = run_cli("show", "--json", "agot2-rr/claim", db=db_path)
    assert json.loads(glossary.stdout)["parts"] == [] and json.loads(glossary.stdout)["part_of"] is None

def test_an_id_that_only_begins_like_another_is_not_printed_under_it(db):
    """The steps under a clause are the ids one "/" below its own: agot1-faq/3.10 and 3.17-self-immunity
    begin like 3.1 and 3.17 but are sections of their own, and a phase's steps are not its neighbours'."""
    assert store.parts(db, "agot1-faq/3.1") == [] and store.parts(db, "agot1-faq/3.17") == []
    assert store.part_of(db, "agot1-faq/3.17-self-immunity") is None and store.part_of(db, "agot1-faq/3.10") is None
    steps = [p["id"] for p in store.parts(db, "agot2-rr/appendix-i/plot-phase")]
    assert steps and all(s.startswith("agot2-rr/appendix-i/plot-phase/") for s in steps)
    phases = [p["id"] for p in store.parts(db, "agot2-rr/appendix-i")]
    assert "agot2-rr/appendix-i/plot-phase" in phases and not any(p.count("/") > 2 for p in phases)


def test_show_sets_out_list_items_on_lines_of_their_own(db_path):
    """FAQ v4.1's (2.6) draws its steps as a numbered list: `show` prints each step on its own line with
    its number, the sentence after the list on its own line, and every word as the text has it."""
    lines = run_cli("show", "agot2-faq41/2.6", db=db_path).stdout.splitlines()
    assert "  3. The STR-reduction effect resolves, reducing the character's STR to 0." in lines
    assert "Note that at any point after Step 3, the character's STR is 0." in lines
    assert "Numbered on the page" not in "\n".join(lines)  # the numbers are on the steps
    lines = run_cli("show", "agot2-tr/legal-products", db=db_path).stdout.splitlines()
    assert "  • Tokens that do not obscure card information" in lines
    lines = run_cli("show", "agot2-rr/setup", db=db_path).stdout.splitlines()  # step 8's restrictions, under it
    at = lines.index("    • No more than 8 total cost worth of cards may be placed.")
    assert lines[at - 1].startswith("  8. Place setup cards.") and lines[at + 5].startswith("  9. Reveal setup cards.")
    lines = run_cli("show", "agot2-tr/basic-structure", db=db_path).stdout.splitlines()  # a table: a line per row
    assert "  Number of Registered Players | Number of Swiss Rounds | Size of Cut" in lines and "  17-24 | 4 | Top 4" in lines


def test_governing_prints_the_governing_text_laid_out_as_show_prints_it(db_path):
    """A review (M1): `governing agot2-faq/2.6` printed FAQ v4.1's (2.6) run together, its seven steps
    without their numbers, so "Note that at any point after Step 3" pointed at nothing.  The governing
    text is printed as `show` prints it (the numbered steps on lines of their own), indented under its
    citation, word for word."""
    shown = run_cli("show", "agot2-faq41/2.6", db=db_path).stdout.split("\n\n")[1]
    out = run_cli("governing", "agot2-faq/2.6", db=db_path).stdout
    assert "\n".join("   " + line if line else line for line in shown.splitlines()) in out, out
    assert "\n     3. The STR-reduction effect resolves, reducing the character's STR to 0.\n" in out, out
    assert "\n   Note that at any point after Step 3, the character's STR is 0.\n" in out, out


def test_a_web_paragraph_folded_under_a_hit_names_the_sentence_that_restates_it(db_path):
    """A review: FAQ 3.5 (multiple agendas) showed 'restated in: … paragraph at line 86: "If a change
    in the game state between…"', a web paragraph cited by its opening words, which the copy merged
    from another entry.  The folded line names the paragraph's sentence that restates the hit, in the
    terminal, the JSON and the page."""
    import json

    from judgekb.web.app import create_app

    query = ["search", "can i run two copies of the same agenda", "--edition", "2"]
    hits = json.loads(run_cli(*query, "--json", db=db_path).stdout)
    hit = next(h for h in hits if h["id"] == "agot2-faq41/3.5")
    web = next(f for f in hit["folded"] if f["id"] == "agot2-web/para-86")
    assert web["sentence"] == "A player cannot run more than 1 copy…", web
    opening = "“If a change in the game state between…” (no page numbers: the corpus's copy of this document is a web page)"
    assert web["citation"].endswith(opening), web
    out = run_cli(*query, db=db_path).stdout
    assert "“If a change in the game state between…” (no page numbers: the corpus's copy of this document is a web page), " \
        "the sentence “A player cannot run more than 1 copy…”  [agot2-web/para-86]" in out, out  # fmt: skip
    page = create_app(db_path).test_client().get("/", query_string={"q": query[1], "edition": "2"}).get_data(as_text=True)
    assert ", the sentence “A player cannot run more than 1 copy…”" in page
    # a summary entry restating a clause as a whole is cited by its own heading, with no sentence
    hits = json.loads(run_cli("search", "choose and reveal plot cards", "--edition", "1", "--json", db=db_path).stdout)
    hit = next(h for h in hits if h["id"] == "agot1-rules/plot-step-1-choose-and-reveal")
    summary = next(f for f in hit["folded"] if f["id"] == "agot1-summary/plot-step-1-choose-and-reveal")
    assert "sentence" not in summary, summary


def test_search_says_which_way_a_folded_version_goes_and_names_the_text_in_force_by_citation(db_path):
    """Read aloud, a hit's folded lines must say that the hit supersedes FAQ v2.3's entry ("superseded
    by this: … v2.3 …" was heard as v2.3 governing), in the page's words; an entry a later version
    removed names the text in force by its citation, as the page does, not only by its id."""
    out = run_cli("search", "terminal condition", "--edition", "2", db=db_path).stdout
    assert "   (supersedes: AGoT 2.0 FAQ v2.3 (2019-09-20) Definition: Terminal Condition" in out, out
    assert "   (restated in: Unofficial 2.0 FAQ web copy" in out and "superseded by this" not in out, out
    out = run_cli("search", "is the red viper restricted", "--edition", "2", db=db_path).stdout
    gone = next(line for line in out.splitlines() if "not in force" in line)
    assert "see AGoT 2.0 FAQ v4.1 (2024-01-22)" in gone and "Card Legality" in gone and "[agot2-faq41/" in gone, gone


def test_show_json_has_the_contract_fields(db_path):
    result = run_cli("show", "agot1-faq/errata/val-dotn-f117", "--json", db=db_path)
    data = json.loads(result.stdout)
    for key in ("id", "doc", "edition", "kind", "section", "heading", "page", "version", "citation", "text"):
        assert key in data
    assert data["kind"] == "errata" and data["version"] == "4.2" and data["edition"] == 1
    assert data["citation"].startswith("AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) Card clarification: Val (DotN F117) (v4.2)")


def test_cite_prints_only_the_citation_line(db_path):
    result = run_cli("cite", "agot1-faq/3.30", db=db_path)
    assert result.stdout == "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) §3.30 Changing Control Mid-Challenge, p. 12\n"
    qa = run_cli("cite", "agot1-faq/qa/challenge-tie", db=db_path)
    assert qa.stdout.startswith("AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) FAQ: “If there is a tie between the attacking")


def test_list_gives_ids_and_headings_in_document_order(db_path):
    result = run_cli("list", "agot2-faq", "--kind", "section", db=db_path)
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    # the rule stated in the Notes and Errata introduction is printed before (1.1)
    assert rows[0] == ["agot2-faq/notes-and-errata/errata-overrides-the-printing", "section", "Notes and Errata"]
    numbered = [r for r in rows if r[0].split("/")[1][:1].isdigit()]
    assert numbered[0] == ["agot2-faq/1.1", "section", "Infinite Loops"]
    assert len(numbered) == 22 and len(rows) == 25  # plus the two restricted-list rules


def test_unknown_id_exits_2_with_the_nearest_ids(db_path):
    result = run_cli("show", "agot1-faq/3.3x", db=db_path)
    assert result.returncode == 2
    assert "no clause 'agot1-faq/3.3x'" in result.stderr
    assert "agot1-faq/3.3" in result.stderr.split("Nearest ids:")[1]
    assert "Traceback" not in result.stderr
    unknown_doc = run_cli("list", "agot3-faq", db=db_path)
    assert unknown_doc.returncode == 2 and "agot1-faq" in unknown_doc.stderr


def test_an_empty_or_far_off_id_is_said_so_not_matched_to_any_id(db_path):
    """Review 31: `show ""` answered "no clause ''. Nearest ids: agot1-faq/front/changes …", and
    `show agot2-rr/nonexistent` offered agot2-rr/may, set and str. An empty id is asked for; an id
    like none is said to be so, pointing to search; a near one still gets its neighbours."""
    empty = run_cli("show", "  ", db=db_path)
    assert empty.returncode == 2 and "give a clause id" in empty.stderr and "Nearest" not in empty.stderr
    far = run_cli("show", "agot2-rr/nonexistent", db=db_path)
    assert far.returncode == 2 and "no id is near it" in far.stderr and "agot2-rr/may" not in far.stderr, far.stderr
    near = run_cli("show", "agot2-rr/stelth", db=db_path)
    assert near.returncode == 2 and near.stderr.split("Nearest ids:")[1].split()[0] == "agot2-rr/stealth", near.stderr
    from judgekb.web import app as web
    from tests.conftest import CORPUS

    client = web.create_app(db_path, CORPUS).test_client()
    page = client.get("/c/agot2-rr/nonexistent")
    assert page.status_code == 404 and "No id is near it" in page.get_data(as_text=True)
    assert 'id="near"' not in page.get_data(as_text=True)


def test_database_is_built_on_first_use_and_rebuilt_when_the_corpus_changes(tmp_path, corpus_copy):
    db = tmp_path / "kb.sqlite"
    first = run_cli("cite", "agot2-faq/1.2", db=db, corpus=corpus_copy)
    assert first.returncode == 0 and "built" in first.stderr and db.is_file()
    again = run_cli("cite", "agot2-faq/1.2", db=db, corpus=corpus_copy)
    assert "built" not in again.stderr
    sets = corpus_copy / "sets.yaml"
    sets.write_text(sets.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    changed = run_cli("cite", "agot2-faq/1.2", db=db, corpus=corpus_copy)
    assert changed.returncode == 0 and "built" in changed.stderr


def test_a_first_use_build_leaves_the_package_compiled_for_the_next_cold_command(tmp_path, corpus_copy):
    """With PYTHONDONTWRITEBYTECODE set (the project's machine sets it) an editable install never
    caches judgekb's bytecode, and every cold command compiled the package again (over 100 ms of a
    200 ms search): the first-use build compiles it, as pip does for an installed package."""
    import importlib.util
    import shutil

    package = tmp_path / "checkout" / "judgekb"
    shutil.copytree(ROOT / "judgekb", package, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", JUDGEKB_DB=str(tmp_path / "kb.sqlite"), JUDGEKB_CORPUS=str(corpus_copy))
    modules = sorted(package.rglob("*.py"))
    first = subprocess.run(
        [sys.executable, "-m", "judgekb", "cite", "agot2-faq/1.2"], capture_output=True, text=True, env=env, cwd=package.parent, timeout=300
    )
    assert first.returncode == 0 and "built" in first.stderr, first.stderr
    uncached = [str(m.relative_to(package)) for m in modules if not Path(importlib.util.cache_from_source(str(m))).is_file()]
    assert len(modules) > 50 and not uncached, f"no bytecode for {uncached[:5]}"


def _build(db: Path, corpus: Path):
    return run_cli("build", db=db, corpus=corpus)


def test_malformed_manifest_names_file_line_and_field_and_keeps_the_database(tmp_path, corpus_copy):
    db = tmp_path / "kb.sqlite"
    assert _build(db, corpus_copy).returncode == 0
    before = db.stat().st_mtime_ns, db.read_bytes()
    manifest = corpus_copy / "manifests" / "agot2-faq.yaml"
    data = manifest.read_text(encoding="utf-8").replace("edition: 2", "edition: two")
    manifest.write_text(data, encoding="utf-8")
    result = _build(db, corpus_copy)
    assert result.returncode == 2
    assert "agot2-faq.yaml:" in result.stderr and "field 'edition'" in result.stderr
    assert "Traceback" not in result.stderr
    assert (db.stat().st_mtime_ns, db.read_bytes()) == before
    assert not [p for p in db.parent.iterdir() if p.name.startswith(".judgekb-")]  # no temp file left behind


@pytest.mark.parametrize(
    ("field", "written", "said"),
    [
        ("rank", "rank: [30]", "field 'rank' must be a whole number; got [30]"),
        ("edition", "edition: two", "field 'edition' must be 1 or 2; got 'two'"),
        ("pages", "pages: some", "field 'pages' must be 'printed', 'none' or 'lost'; got 'some'"),
    ],
)
def test_a_manifest_error_names_the_field_s_own_line(corpus_copy, field, written, said):
    """A hostile-input review (r43): every manifest error named line 2 (where the mapping starts), not the field's line."""
    from judgekb.corpus.sources import load_manifest
    from judgekb.yamlio import DataError

    manifest = corpus_copy / "manifests" / "agot2-faq.yaml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith(f"{field}:")), None)
    if at is None:
        lines.append("")
        at = len(lines) - 1
    lines[at] = written
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        load_manifest(manifest, corpus_copy)
    assert str(refused.value) == f"{manifest}:{at + 1}: {said}"


def test_unknown_manifest_field_and_bad_yaml(tmp_path, corpus_copy):
    manifest = corpus_copy / "manifests" / "agot1-rules.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    result = _build(tmp_path / "kb.sqlite", corpus_copy)
    assert result.returncode == 2 and "unknown field 'colour'" in result.stderr
    manifest.write_text("id: [unclosed\n", encoding="utf-8")
    result = _build(tmp_path / "kb.sqlite", corpus_copy)
    assert result.returncode == 2 and "agot1-rules.yaml:" in result.stderr and "invalid YAML" in result.stderr


def test_a_source_the_map_cannot_split_names_the_file_and_position(tmp_path, corpus_copy):
    span_map = corpus_copy / "maps" / "agot1-faq.yaml"
    text = span_map.read_text(encoding="utf-8")
    span_map.write_text(
        text.replace("'(3.30) Changing Control Mid-Challenge'", "'(3.30) Changing Control Midchallenge'"),
        encoding="utf-8",
    )
    result = _build(tmp_path / "kb.sqlite", corpus_copy)
    assert result.returncode == 2
    assert "agot1-faq.yaml:" in result.stderr and "(3.30)" in result.stderr and "anchor not found" in result.stderr
    # a heading map pointing at the wrong line is caught too
    rules_map = corpus_copy / "maps" / "agot1-rules.yaml"
    data = yaml.safe_load(rules_map.read_text(encoding="utf-8"))
    assert data["sections"][0] == [9, "Introduction"]
    rules_map.write_text(rules_map.read_text(encoding="utf-8").replace("- [9, Introduction]", "- [10, Introduction]"), encoding="utf-8")
    span_map.write_text(text, encoding="utf-8")
    result = _build(tmp_path / "kb.sqlite", corpus_copy)
    assert result.returncode == 2 and "001_6071a0b254b100b3.txt:10" in result.stderr


def test_edited_source_is_refused(tmp_path, corpus_copy):
    source = corpus_copy / "sources" / "004_875dbed762fea72b.txt"
    source.write_text(source.read_text(encoding="utf-8").replace("Tokens", "Tokenz"), encoding="utf-8")
    result = _build(tmp_path / "kb.sqlite", corpus_copy)
    assert result.returncode == 2 and "does not match its manifest" in result.stderr


def test_python_dash_m_and_console_script_agree(db_path):
    import shutil
    import subprocess

    script = shutil.which("judgekb")
    assert script, "the judgekb console script is installed by pip install -e ."
    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    out = subprocess.run([script, "cite", "agot2-faq/2.6"], capture_output=True, text=True, env=env, timeout=60)
    assert out.stdout == run_cli("cite", "agot2-faq/2.6", db=db_path).stdout


def test_a_search_loads_only_what_a_lookup_needs(db_path):
    """A judge at a terminal feels every module a search imports: the YAML reader, the authority
    graph, the card tools, the temporary-file and hashing modules only a build or a write needs stay
    unloaded once the database is current (its fingerprint remembered beside it).

    Measured against the bare interpreter in the same environment: a ``.pth`` file in site-packages
    can load modules before judgekb runs (CI's interpreter loads ``tempfile`` that way, through
    certifi), and those are not the search's doing."""
    assert run_cli("search", "claim", db=db_path).returncode == 0  # the database is current from here on
    dump = "import sys\nprint('\\n'.join(m for m in sys.modules if sys.modules[m] is not None), file=sys.stderr)\n"
    search = (
        "import runpy, sys\n"
        "sys.argv = ['judgekb', 'search', 'who wins a tie in a challenge', '--edition', '2']\n"
        "try:\n    runpy.run_module('judgekb', run_name='__main__')\n"
        "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
    )
    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    bare = subprocess.run([sys.executable, "-c", dump], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    result = subprocess.run([sys.executable, "-c", search + dump], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert bare.returncode == 0, bare.stderr
    assert result.returncode == 0 and "1." in result.stdout, result.stderr
    loaded = set(result.stderr.split()) - set(bare.stderr.split())
    assert "judgekb.lookup.search" in loaded
    unneeded = {"yaml", "networkx", "flask", "numpy", "tempfile", "hashlib", "judgekb.authority", "judgekb.cards", "judgekb.engine"}
    assert not loaded & unneeded, f"a search loaded {sorted(loaded & unneeded)}"


def test_the_command_line_process_skips_tearing_down_what_it_built(db_path):
    """The console script and ``python -m judgekb`` end with the objects the command built frozen out
    of the interpreter's last collection (a cold search spent about a tenth of its time tearing them down),
    and the command's output and exit status are unchanged by it."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="judgekb")
    assert script.value == "judgekb.cli:command_line"
    assert "command_line()" in (ROOT / "judgekb" / "__main__.py").read_text(encoding="utf-8")
    probe = (
        "import atexit, gc, runpy, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
        "sys.argv = ['judgekb', 'search', 'who wins a tie in a challenge', '--edition', '2']\n"
        "runpy.run_module('judgekb', run_name='__main__')\n"
    )
    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert result.returncode == 0 and "1." in result.stdout, result.stderr
    frozen = int(result.stderr.split("frozen ")[-1])
    assert frozen > 10_000, result.stderr  # the modules and the index, not a handful of objects
    bad = subprocess.run(
        [sys.executable, "-m", "judgekb", "show", "no/such-id"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert bad.returncode == 2 and "no/such-id" in bad.stderr and "Traceback" not in bad.stderr


def test_list_refuses_an_unknown_kind_as_search_does(db_path):
    """Review 24: 'list agot1-faq --kind zz' printed nothing with exit 0, as if the document had no such clauses."""
    for kind in ("zz", ""):
        result = run_cli("list", "agot1-faq", "--kind", kind, db=db_path)
        assert result.returncode == 2 and f"unknown --kind '{kind}'; kinds are: " in result.stderr, result.stderr
    assert run_cli("list", "agot1-faq", "--kind", "qa", db=db_path).stdout.startswith("agot1-faq/qa/")


def test_search_refuses_an_option_it_does_not_have(db_path):
    """A README review (r49): `search` takes words that start with a dash ("-1 STR"), and so took "--db PATH" placed
    after the command, or a misspelt "--edtion 2", as query words and searched the default database or both editions.
    Two dashes and a name are refused, naming the options (and where --db goes); a single dash is still a word."""
    typo = run_cli("search", "who wins", "--edtion", "2", db=db_path)
    assert typo.returncode == 2 and "unknown option '--edtion' for search" in typo.stderr and "--edition" in typo.stderr
    late = run_cli("search", "claim", "--db", "/tmp/elsewhere.sqlite", db=db_path)
    assert late.returncode == 2 and "judgekb --db PATH search" in late.stderr
    minus = run_cli("search", "-1 STR", "--edition", "2", db=db_path)
    assert minus.returncode == 0 and "agot2-rr/" in minus.stdout


def test_the_readme_says_where_the_tests_find_the_card_data():
    """A review (r75, M3): the test suite asserts "../shared/cards is beside the repository in CI", but the README's
    set-up gave the test command without saying so, and a newcomer's card, deck and list tests failed.  The set-up
    names the folder, where it sits and what is in it, before the test command."""
    from tests.conftest import SHARED_CARDS

    setup = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ")[1]
    assert setup.startswith("Set-up"), setup[:40]
    before = " ".join(setup[: setup.index("python -m pytest")].split())
    assert SHARED_CARDS == ROOT.parent / "shared" / "cards"
    assert "the public card data in `../shared/cards`, a folder beside the clone" in before, before
    assert "`agot1/agot1.json`" in before and "`agot2-throneteki/`" in before, before
