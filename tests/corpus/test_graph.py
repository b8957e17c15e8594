"""The authority graph: supersession, restatements, references and cards on the real corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
import yaml

from judgekb import store
from judgekb.authority import graph as authority
from judgekb.cards import cardpage
from tests.conftest import CORPUS, ROOT, run_cli

SHARED_CARDS = ROOT.parent / "shared" / "cards"


@pytest.fixture(scope="session")
def graph(db):
    return authority.load(db)


def test_no_supersession_cycles(graph):
    assert authority.supersession_cycles(graph) == []
    assert nx.is_directed_acyclic_graph(authority.governance(graph))


def test_no_dangling_links(db):
    nodes = {r["id"] for r in db.query("select id from clauses")}
    nodes |= {r["id"] for r in db.query("select id from cards")}
    nodes |= {r["id"] for r in db.query("select id from absent_documents")}
    for row in db.query("select src, dst, type from links"):
        assert row["src"] in nodes, row
        assert row["dst"] in nodes, row
    types = {r["type"] for r in db.query("select distinct type from links")}
    assert types == {"supersedes", "clarifies", "cites", "mentions", "restates", "same-topic"}


def test_every_errata_entry_is_linked_to_its_card(db):
    """An entry with new wording supersedes the printed card; a clarification only clarifies it."""
    for row in db.query("select id, data from clauses where kind = 'errata'"):
        clarifies = json.loads(row["data"])["errata_effect"]["effect"] == "clarifies"
        if clarifies:
            sql = "select dst from links where src = ? and type = 'clarifies'"
        else:
            sql = "select dst from links where src = ? and type = 'supersedes' and rule = 'errata-over-printed-card'"
        targets = [r["dst"] for r in db.query(sql, [row["id"]])]
        other = "supersedes" if clarifies else "clarifies"
        assert not list(db.query(f"select 1 from links where src = ? and type = '{other}' and dst like 'card:%'", [row["id"]]))
        names = json.loads(row["data"]).get("cards") or [[json.loads(row["data"])["card"], None]]
        assert len(targets) == len(names) and all(t.startswith("card:") for t in targets), row["id"]


def test_every_explicit_reference_is_resolved_or_points_outside_the_corpus(db):
    """Each detected reference is resolved (corpus/references.yaml) or is a link the page itself makes to the entry
    it names ('See "Plot Card"').  Detection ignores capitals: "(Step 4.2.2)" is as much a reference as "step 1.3.III"
    (r55 F2: detection knew only 'step \\d\\.\\d\\.[IVX]+', so FAQ (2.10)'s "Step 4.2.2" went unseen and unlinked)."""
    detect = [re.compile(p, re.IGNORECASE) for p in yaml.safe_load((CORPUS / "references.yaml").read_text(encoding="utf-8"))["detect"]]
    resolved: dict[str, list[str]] = {}
    for ref in db.query("select clause, text, target from refs"):
        assert ref["target"].startswith("absent:") or list(db.query("select 1 from clauses where id = ?", [ref["target"]]))
        resolved.setdefault(ref["clause"], []).append(ref["text"])
    page_links = (
        "select l.src, c.heading from links l join clauses c on c.id = l.dst where l.type = 'cites' and l.reason like 'the page links%'"
    )
    for row in db.query(page_links):
        resolved.setdefault(row["src"], []).append(f'"{row["heading"]}"')
    unresolved = []
    for row in db.query("select id, heading, text from clauses"):
        for pattern in detect:
            for m in pattern.finditer(f"{row['heading']}\n{row['text']}"):
                if not any(m.group(0) in text or text in m.group(0) for text in resolved.get(row["id"], [])):
                    unresolved.append((row["id"], m.group(0)))
    assert unresolved == []


STEP = re.compile(r"\bsteps? \(?[\"“]?(\d\.\d+(?:\.\d+)*)(?:\.[IVX]+)?(?: and (\d\.\d+(?:\.\d+)*))?", re.IGNORECASE)


def test_every_framework_step_named_by_number_cites_that_step(db, graph):
    """A blind citation audit (r55 F2): FAQ v4.1 (2.10) "When STR is compared to determine the winner of a challenge
    (Step 4.2.2)" and Time of Plenty's "framework event step 2.2, "Draw."" had no link, while the Doran Q&A's "step
    1.3.III" had one (references.yaml named that one occurrence).  Every second-edition text that names an
    Appendix I step by its number now cites the Rules Reference clause printed with that number."""
    sections = {r["section"]: r["id"] for r in db.query("select id, section from clauses where doc = 'agot2-rr' and section is not null")}
    expected = set()
    for row in db.query("select id, heading, text from clauses where doc in ('agot2-rr', 'agot2-faq', 'agot2-faq41', 'agot2-tr')"):
        for m in STEP.finditer(f"{row['heading']}\n{row['text']}"):
            for number in filter(None, m.groups()):
                assert number in sections, (row["id"], m.group(0))
                if sections[number] != row["id"]:
                    expected.add((row["id"], sections[number]))
    cited = {(r["src"], r["dst"]) for r in db.query("select src, dst from links where type = 'cites'")}
    assert sorted(expected - cited) == []
    assert ("agot2-faq41/2.10", "agot2-rr/appendix-i/challenges-phase/4.2.2") in expected
    assert ("agot2-faq41/qa/time-of-plenty", "agot2-rr/appendix-i/draw-phase/2.2") in expected
    assert ("agot2-rr/joust-game", "agot2-rr/appendix-i/taxation-phase/7.4") in expected  # "framework steps (1.4 and 7.4"
    # r65 L1: 'See timing step "1.3 Reveal plots".' (the number quoted with the step's name) was neither linked nor seen
    assert ("agot2-rr/when-revealed", "agot2-rr/appendix-i/plot-phase/1.3") in expected
    shown = {link["id"]: link for link in authority.links_of(graph, "agot2-rr/appendix-i/challenges-phase/4.2.2")}
    assert shown["agot2-faq41/2.10"]["type"] == "cites" and shown["agot2-faq41/2.10"]["direction"] == "in"
    assert shown["agot2-faq41/2.10"]["reason"] == "the text refers to it: “Step 4.2.2”"


def test_a_step_number_the_rules_reference_does_not_print_is_refused(corpus_copy, tmp_path):
    """A `section_of` reference to a number no clause carries fails the build, naming the file, line and text."""
    path = corpus_copy / "references.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("section_of: agot2-rr,", "section_of: agot2-tr,", 1), encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "section_of: agot2-rr," in s)
    assert f"references.yaml:{line}: “step 1.3.III” in agot2-faq/qa/" in result.stderr
    assert "agot2-tr has no section 1.3" in result.stderr


# FAQ v4.1 entries and the Rules Reference words they qualify (each side quoted from the seeds)
QUALIFIED = [
    # RR Target, last bullet: "A card is not an eligible target for an ability if the resolution of that ability's
    # effect could not affect the target at all."  (2.3): "When choosing referential targets, a player is not bound
    # by the rule that a target is ineligible if the resolution of the effect would not affect the chosen target."
    ("agot2-faq41/2.3", "agot2-rr/target", "could not affect the target at all", "not bound by the rule that a target is ineligible"),
    # RR Abilities: "unless the ability text specifically refers to an out of play area or element"; In Play and Out
    # of Play names the out of play areas.  (2.4): "some abilities implicitly refer to the out-of-play area"
    ("agot2-faq41/2.4", "agot2-rr/abilities", "specifically refers to an out of play area", "implicitly refer to the out-of-play area"),
    ("agot2-faq41/2.4", "agot2-rr/in-play-and-out-of-play", '"Out of play" refers to all other cards and areas', "implicitly refer"),
    # RR Agenda Cards: "A player may use a single agenda card"; Deckbuilding: "A player may choose 1 agenda card".
    # (3.5): "A player cannot run more than 1 copy of each different agenda (by title), even in situations where
    # they are allowed to run multiple agendas."
    ("agot2-faq41/3.5", "agot2-rr/agenda-cards", "A player may use a single agenda card", "more than 1 copy of each different agenda"),
    ("agot2-faq41/3.5", "agot2-rr/deckbuilding", "A player may choose 1 agenda card", "more than 1 copy of each different agenda"),
]


@pytest.mark.parametrize(("faq", "rule", "rule_words", "faq_words"), QUALIFIED)
def test_an_faq_entry_that_qualifies_a_rules_reference_rule_is_named_on_it(db, db_path, faq, rule, rule_words, faq_words):
    """A blind citation audit (r55 F3): these FAQ v4.1 entries change how a Rules Reference entry reads, yet
    `judgekb show` on the entry neither named nor linked them (no link between the pairs), and `governing
    agot2-rr/target` named only its struck bullet.  Each is now a `clarifies` link (corpus/links.yaml), as the other
    FAQ v4.1 clarifications are, whose reason quotes both texts; `show` and `governing` on the rule name the entry."""
    texts = {r["id"]: r["text"] for r in db.query("select id, text from clauses where id in (?, ?)", [faq, rule])}
    assert rule_words in texts[rule] and faq_words in texts[faq]  # the pair is what the documents say
    assert [r["type"] for r in db.query("select type from links where src = ? and dst = ?", [faq, rule])] == ["clarifies"]
    shown = run_cli("show", rule, db=db_path).stdout
    line = next(s for s in shown.splitlines() if s.startswith(f"  ← clarifies {faq} — "))
    assert f"({faq.rsplit('/', 1)[1]})" in line and faq_words in line
    governing = run_cli("governing", rule, db=db_path).stdout
    assert "Read with (rulings on how this text reads; they replace none of it):" in governing
    assert f"[{faq}] — " in governing and "This text governs" in governing  # a clarification replaces nothing
    info = json.loads(run_cli("governing", rule, "--json", db=db_path).stdout)
    assert faq in [i["id"] for i in info["clarified_by"]] and [g["id"] for g in info["governing"]] == [rule]


def test_the_step_that_reads_the_rulebook_erratum_s_phrase_shows_the_erratum(db, db_path):
    """A blind citation audit (r55 F5): `show agot2-rr/appendix-i/plot-phase/1.3` listed only the Doran Q&A, though
    the erratum (FAQ v4.1: "The phrase "all relevant reserve modifiers" should read: "all relevant initiative
    modifiers."") names that step in its own reason and linked only to the absent printed Rules Reference."""
    erratum, step = "agot2-faq41/errata/rules-reference-page-26-column-1-paragraph-9", "agot2-rr/appendix-i/plot-phase/1.3"
    assert "all relevant initiative modifiers" in store.clause(db, step)["text"]  # the web edition already reads it
    assert [r["type"] for r in db.query("select type from links where src = ? and dst = ?", [erratum, step])] == ["clarifies"]
    shown = run_cli("show", step, db=db_path).stdout
    assert f"← clarifies {erratum} — The rulebook errata corrects the printed Rules Reference, page 26" in shown
    governing = run_cli("governing", step, db=db_path).stdout
    assert "This text governs: nothing in the corpus replaces it." in governing and f"[{erratum}]" in governing


def test_rules_of_play_duplicates_are_governed_by_the_faq_and_the_page_19_errata(graph, db):
    results = authority.governing(graph, "agot1-rules/duplicates")
    assert {r["id"] for r in results} == {"agot1-faq/4.2", "agot1-faq/errata/rulebook-page-19"}
    for result in results:
        assert result["chain"] and all(step["reason"] for step in result["chain"])
        assert result["chain"][0]["rule"] == "faq-over-rulebook-1"
    assert authority.governed_by(graph, "agot1-faq/3.30") is None
    # the unofficial summary's duplicates section restates the rulebook, so the same texts govern it
    summary = {r["id"] for r in authority.governing(graph, "agot1-summary/duplicates")}
    assert summary == {"agot1-faq/4.2", "agot1-faq/errata/rulebook-page-19"}


def test_the_rulebook_draw_cap_is_governed_by_the_faq_s_restatement(graph, db_path):
    """The FAQ's "The Draw Cap" restates the rulebook's section and says more ("Cards drawn through an
    effect that modifies the framework draw … do count against the cap"): it governs, and the rulebook
    and the unofficial summary of it are governed alike (the summary already named the FAQ first)."""
    rulebook = {r["id"] for r in authority.governing(graph, "agot1-rules/the-draw-cap")}
    assert rulebook == {"agot1-faq/draw-cap"}
    assert {r["id"] for r in authority.governing(graph, "agot1-summary/the-draw-cap")} == rulebook
    out = run_cli("governing", "agot1-rules/the-draw-cap", db=db_path).stdout
    assert "nothing in the corpus replaces it" not in out
    assert "agot1-rules/the-draw-cap is superseded by agot1-faq/draw-cap" in out and "precedence (faq-over-rulebook-1)" in out


def test_governing_command_prints_the_governing_text_and_reasons(db_path):
    result = run_cli("governing", "agot1-rules/duplicates", db=db_path)
    assert result.returncode == 0, result.stderr
    assert "§4.2 Duplicates" in result.stdout and "Rulebook errata: Core Set Rulebook Page 19" in result.stdout
    assert "is superseded by agot1-faq/4.2" in result.stdout and "precedence (faq-over-rulebook-1)" in result.stdout
    shown = json.loads(run_cli("show", "agot1-rules/duplicates", "--json", db=db_path).stdout)
    assert shown["governed_by"] == ["agot1-faq/4.2", "agot1-faq/errata/rulebook-page-19"]
    assert {"type": "supersedes", "direction": "in", "id": "agot1-faq/4.2"}.items() <= next(
        link for link in shown["links"] if link["id"] == "agot1-faq/4.2" and link["type"] == "supersedes"
    ).items()
    governs = json.loads(run_cli("show", "agot1-faq/3.30", "--json", db=db_path).stdout)
    assert governs["governed_by"] is None


def test_precedence_is_data_not_code():
    for module in ("authority/graph.py", "authority/links.py", "cards/cardpage.py", "authority/versions.py"):
        source = (ROOT / "judgekb" / module).read_text(encoding="utf-8")
        assert not re.search(r"agot[12]-(faq|rules|summary|web)", source), module


def test_unofficial_texts_restate_official_clauses_and_keep_their_additions(db):
    restates = list(db.query("select src, dst, score, data from links where type = 'restates'"))
    sources = {r["src"] for r in restates}
    summary = [r["id"] for r in db.query("select id from clauses where doc = 'agot1-summary'")]
    web = [r["id"] for r in db.query("select id from clauses where doc = 'agot2-web'")]
    assert len(sources & set(summary)) / len(summary) >= 0.95
    assert len(sources & set(web)) / len(web) >= 0.85
    assert ("agot1-summary/reference/deadly", "agot1-rules/deadly") in {(r["src"], r["dst"]) for r in restates}
    assert all(r["score"] >= 60 for r in restates)
    assert all(r["dst"].startswith(("agot1-rules", "agot1-faq", "agot2-faq")) for r in restates)
    additions = [a for r in restates for a in json.loads(r["data"]).get("additions", [])]
    assert any(a.startswith("Related:") or "Tears of Lys" in a for a in additions)
    # the web copy's Oldtown Scholar example is v4.1's (1.9): aligned with v4.1, it is no longer an addition
    assert not any("Oldtown Scholar" in a for a in additions)
    scholar = next(r["id"] for r in db.query("select id from clauses where doc = 'agot2-web' and text like '%Oldtown Scholar%'"))
    assert (scholar, "agot2-faq41/1.9") in {(r["src"], r["dst"]) for r in restates}
    # aligned with the FAQ in force wherever v4.1 has the text; v2.3 only where it does not
    web_targets = [r["dst"] for r in restates if r["src"].startswith("agot2-web/")]
    assert sum(t.startswith("agot2-faq41/") for t in web_targets) >= 0.9 * len(web_targets)
    assert all(json.loads(r["data"])["unofficial"] for r in restates)


def test_a_sentence_two_titles_share_restates_only_the_title_the_summary_follows(db):
    """The summary's Crown Regent and Lord Commander open with the sentence Master of Whispers is made
    of ("Add 3 to your side's total STR…"): each restates its own title, not Master of Whispers, while a
    web paragraph that merges two FAQ entries still restates both."""
    restates = {(r["src"], r["dst"]) for r in db.query("select src, dst from links where type = 'restates'")}
    for title in ("crown-regent", "lord-commander-of-the-kingsguard"):
        summary = f"agot1-summary/reference/{title}"
        assert (summary, f"agot1-rules/{title}") in restates
        assert (summary, "agot1-rules/master-of-whispers") not in restates
    restated_by = {dst for src, dst in restates if src == "agot1-summary/reference/master-of-whispers"}
    assert restated_by == {"agot1-rules/master-of-whispers"}
    merged = [src for src, dst in restates if src.startswith("agot2-web/")]
    assert any(merged.count(src) > 1 for src in merged)


def test_same_topic_links_join_the_editions(db):
    pairs = {(r["src"], r["dst"]) for r in db.query("select src, dst from links where type = 'same-topic'")}
    # the 2nd-edition side is the FAQ in force (v4.1); the v2.3 entry folds under it
    assert ("agot1-faq/2.7", "agot2-faq41/1.1") in pairs and ("agot2-faq41/1.1", "agot1-faq/2.7") in pairs
    assert ("agot1-faq/4.2", "agot2-faq41/1.2") in pairs
    assert ("agot1-faq/3.29", "agot2-faq41/1.3") in pairs
    assert ("agot1-rules/duplicates", "agot2-rr/duplicates") in pairs
    assert not [p for p in pairs if p[1].startswith("agot2-faq/")]


def test_a_same_topic_link_is_listed_once_on_each_side(graph):
    """A same-topic link is stored both ways (it has no direction): the clause page, `show` and the JSON
    listed FAQ v4.1 (2.6)'s first-edition counterpart twice, "→ same-topic" and "← same-topic"."""
    for node, other in (("agot2-faq41/2.6", "agot1-faq/3.21"), ("agot1-faq/3.21", "agot2-faq41/2.6")):
        rows = [r for r in authority.links_of(graph, node) if r["type"] == "same-topic" and r["id"] == other]
        assert len(rows) == 1, rows
    cites = [r for r in authority.links_of(graph, "agot2-rr/faction") if r["type"] == "cites" and r["id"] == "agot2-rr/deckbuilding"]
    assert {r["direction"] for r in cites} == {"in", "out"}  # two links that happen to join the same pair stay two


def test_card_table_normalises_sets_and_spellings(db):
    printings = {(r["card"], r["set"], r["number"]) for r in db.query("select * from card_printings")}
    assert ("card:1:val", "Defenders of the North", "F117") in printings
    assert ("card:1:cersei-lannister", "Core Set", "L39") in printings
    assert ("card:2:catelyn-stark", "Core Set", "143") in printings
    assert ("card:2:hot-pie", "Westeros", "57") in printings
    spellings = json.loads(next(db.query("select spellings from cards where id = 'card:1:randyll-tarly'"))["spellings"])
    assert spellings == ["Randyl Tarly"]
    # an example player's name is not part of the card title
    assert list(db.query("select 1 from cards where id = 'card:1:house-tully-recruiter'"))


def test_card_val_first_edition(db):
    [page] = cardpage.find(db, "Val", 1)
    clarification = page["clarifications"][0]  # "A player who has reached his or her draw cap may not trigger…"
    assert clarification["id"] == "agot1-faq/errata/val-dotn-f117" and clarification["version"] == "4.2" and not page["errata"]
    assert page["status"] == {"joust": "restricted", "melee": "restricted", "banned": "not banned"}
    assert [e["id"] for e in page["restricted"]["joust"]] == ["agot1-faq/restricted/joust/val-dotn-f117"]
    assert "agot1-faq/qa/val-timing" in [e["id"] for e in page["faq"]]


def test_card_command_catelyn_second_edition(db_path):
    result = run_cli("card", "Catelyn Stark", "--edition", "2", db=db_path)
    assert result.returncode == 0, result.stderr
    assert "Which abilities does Catelyn Stark (Core, 143) prevent an opponent from using?" in result.stdout
    assert "triggered card abilities that he or she would initiate" in result.stdout
    data = json.loads(run_cli("card", "catelyn stark", "--edition", "2", "--json", db=db_path).stdout)
    assert data["faq"][0]["id"] == "agot2-faq41/qa/catelyn-stark"  # v4.1, the v2.3 entry it supersedes not repeated
    assert not [e for e in data["faq"] if e["id"].startswith("agot2-faq/")]
    missing = run_cli("card", "Zzyzx Qwerty", db=db_path)
    assert missing.returncode == 2 and "no card matching" in missing.stderr
    empty = run_cli("card", "  ", db=db_path)
    assert empty.returncode == 2 and "give a card name" in empty.stderr


def test_changes_since_a_version(db_path):
    result = run_cli("changes", "agot1-faq", "--since", "v5.4", db=db_path)
    ids = [line.split("\t")[2] for line in result.stdout.splitlines()]
    assert "agot1-faq/errata/naval-escort-dotn-f48" in ids
    assert "agot1-faq/list-changes/joust/a-game-of-cyvasse-ator-f57" in ids
    assert "agot1-faq/errata/unburnt-qod-f1" not in ids  # v5.4 itself is not after v5.4
    banned = run_cli("changes", "agot1-faq", "--since", "4.0", "--json", db=db_path)
    assert "agot1-faq/list-changes/banned/jaqen-hghar-acoa-f43" in [r["id"] for r in json.loads(banned.stdout)]
    bad = run_cli("changes", "agot1-faq", "--since", "latest", db=db_path)
    assert bad.returncode == 2 and "--since" in bad.stderr


def test_import_cards_from_the_folder_holding_both_databases(tmp_path: Path, corpus_copy: Path, db_copy: Path):
    """A review pointed import-cards at ../shared/cards, as its README lays the databases out (agot1/ and
    agot2-throneteki/), and was refused.  The folder imports each, remembered for a rebuild; a folder
    with two databases of one edition is refused before anything is written."""
    from judgekb.cards import cardimport

    db = db_copy
    both = run_cli("import-cards", str(SHARED_CARDS), db=db, corpus=corpus_copy)
    assert both.returncode == 0, both.stderr
    assert "imported 1988 cards (edition 1)" in both.stdout and "(edition 2) from" in both.stdout
    assert "imported 32 dated restricted/banned lists" in both.stdout
    assert [p.name for p in cardimport.remembered(db)] == ["agot1", "agot2-throneteki"]
    assert "Any Phase: Reveal and draw" in run_cli("card", "Val", "--edition", "1", db=db, corpus=corpus_copy).stdout
    twice = tmp_path / "twice"
    twice.mkdir()
    for name in ("a", "b"):
        (twice / name).symlink_to(SHARED_CARDS / "agot2-throneteki", target_is_directory=True)
    fresh = tmp_path / "fresh.sqlite"
    bad = run_cli("import-cards", str(twice), db=fresh, corpus=corpus_copy)
    assert bad.returncode == 2 and "a second card database of edition 2" in bad.stderr and "Traceback" not in bad.stderr
    assert not store_rows(fresh, "select count(*) from sqlite_master where name = 'imported_cards'")[0][0]
    empty = tmp_path / "empty"
    empty.mkdir()
    none = run_cli("import-cards", str(empty), db=fresh, corpus=corpus_copy)
    assert none.returncode == 2 and "nor a folder holding them" in none.stderr


def store_rows(db: Path, sql: str) -> list[tuple]:

    return store.connect(db).execute(sql).fetchall()


def test_import_cards_from_both_public_formats_survives_rebuild(tmp_path: Path, corpus_copy: Path, db_copy: Path):
    assert SHARED_CARDS.is_dir(), "../shared/cards is beside the repository in CI"
    db = db_copy  # current for corpus_copy: the imports go into it, and the edit below rebuilds it
    one = run_cli("import-cards", str(SHARED_CARDS / "agot1" / "agot1.json"), db=db, corpus=corpus_copy)
    assert one.returncode == 0 and "imported 1988 cards (edition 1)" in one.stdout
    two = run_cli("import-cards", str(SHARED_CARDS / "agot2-throneteki"), db=db, corpus=corpus_copy)
    assert two.returncode == 0 and "(edition 2)" in two.stdout
    page = run_cli("card", "Val", "--edition", "1", db=db, corpus=corpus_copy).stdout
    assert "Any Phase: Reveal and draw the top card of your deck." in page  # printed text beside the errata
    assert "A player who has reached his or her draw cap" in page
    # a rebuild (the corpus changed) keeps the import
    (corpus_copy / "sets.yaml").write_text((corpus_copy / "sets.yaml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = run_cli("card", "Catelyn Stark", "--edition", "2", "--json", db=db, corpus=corpus_copy)
    assert "built" in again.stderr
    assert json.loads(again.stdout)["printed"][0]["traits"] == "House Tully, Lady, The Seven"
    bad = run_cli("import-cards", str(tmp_path / "nothing.json"), db=db, corpus=corpus_copy)
    assert bad.returncode == 2 and "no such file" in bad.stderr
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    broken = run_cli("import-cards", str(tmp_path / "broken.json"), db=db, corpus=corpus_copy)
    assert broken.returncode == 2 and "broken.json" in broken.stderr and "Traceback" not in broken.stderr


def test_a_worked_example_s_cards_are_their_titles(db):
    """FAQ v4.1 (2.10)'s example: "Richard's Grand Maester Pycelle (Core, 85)" is Grand Maester Pycelle (Richard
    is the example's player), and "plays My Mind Is My Weapon (Kings of the Isles, 28)" is that card, not "Mind Is
    My Weapon" (a blind judge's audit found both mis-linked)."""
    cited = {r["dst"]: r["reason"] for r in db.query("select dst, reason from links where type = 'mentions' and src = 'agot2-faq41/2.10'")}
    assert set(cited) == {"card:2:anya-waynwood", "card:2:grand-maester-pycelle", "card:2:my-mind-is-my-weapon", "card:2:areo-hotah"}
    assert cited["card:2:my-mind-is-my-weapon"] == "the text cites My Mind Is My Weapon (Kings of the Isles 28)"


def test_a_printed_section_number_that_is_not_the_entry_meant_says_so(db):
    """The Rules Reference's Target entry prints "Overruled by FAQ (3.2)." while its page links the line to (3.3);
    the link said nothing of the difference (a blind judge's audit).  The note names both entries by their headings."""
    (reason,) = [r["reason"] for r in db.query("select reason from links where src = 'agot2-rr/target' and reason like '%Overruled%'")]
    rows = db.query("select id, heading from clauses where id in ('agot2-faq41/3.2', 'agot2-faq41/3.3')")
    headings = {r["id"]: r["heading"] for r in rows}
    assert f'(3.2), which is "{headings["agot2-faq41/3.2"]}"' in reason and f'(3.3) "{headings["agot2-faq41/3.3"]}"' in reason


ERRATA_EFFECTS = yaml.safe_load((CORPUS / "errata-effects.yaml").read_text(encoding="utf-8"))["errata"]


def test_every_errata_entry_is_classified_with_the_words_that_show_it(db):
    """The 1st-edition section is "Card Clarification and Errata": each entry replaces the printed text
    (it gives new wording: "Should read", "should have the text", a title, trait, number, "should be
    unique") or only rules on it; the quoted words are the entry's own."""
    texts = {r["id"]: r["text"] for r in db.query("select id, text from clauses where kind = 'errata'")}
    assert sorted(e["clause"] for e in ERRATA_EFFECTS) == sorted(texts)
    for entry in ERRATA_EFFECTS:
        assert entry["says"] in texts[entry["clause"]], entry["clause"]
        gives_wording = bool(re.search(r"(?i)\bshould (?:read|have|be|state|not)\b", texts[entry["clause"]]))
        assert gives_wording == (entry["effect"] == "replaces"), entry["clause"]


def test_a_card_clarification_does_not_claim_to_replace_the_printed_text(db_path):
    """(v4.2) Val F117 "A player who has reached his or her draw cap may not trigger Val's "reveal and
    draw" effect." is a ruling: cited as a clarification, clarifying the card, listed apart from errata."""
    cite = run_cli("cite", "agot1-faq/errata/val-dotn-f117", db=db_path).stdout.strip()
    assert cite == "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) Card clarification: Val (DotN F117) (v4.2), p. 6"
    governing = run_cli("governing", "agot1-faq/errata/val-dotn-f117", db=db_path).stdout
    assert "replaces the printed text" not in governing and "This text supersedes" not in governing
    assert "This text clarifies (a ruling on how the printed card works; the printed text stands):" in governing
    assert "card: Val  [card:1:val] — card clarification (v4.2): a ruling on when the printed ability may be triggered" in governing
    card = run_cli("card", "Val", "--edition", "1", db=db_path).stdout
    assert "Errata (governs the printed text)" not in card
    assert "Card clarifications (rule on how the printed text works; the printed text stands):" in card
    assert "DotN F117: joust restricted, melee restricted, not banned; clarification agot1-faq/errata/val-dotn-f117" in card
    for clause in ("lord-commander-of-the-kingsguard-titles", "magister-illyrio-core-t152"):
        assert "Card clarification: " in run_cli("cite", f"agot1-faq/errata/{clause}", db=db_path).stdout
    errata = run_cli("governing", "agot1-faq/errata/jhogo-core-t117", db=db_path).stdout  # "Its traits should read: …"
    assert "Card errata: Jhogo (Core T117)" in errata and "card errata (v3.3.1) replaces the printed text of Jhogo" in errata


def test_an_errata_entry_left_unclassified_fails_the_build(corpus_copy, tmp_path: Path):
    path = corpus_copy / "errata-effects.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("- {clause: agot1-faq/errata/val-dotn-f117")
    path.write_text(text[:start] + text[text.index("- {clause:", start + 1) :], encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2 and "agot1-faq/errata/val-dotn-f117 is not classified" in result.stderr


def test_governing_says_which_paragraphs_of_a_partly_superseded_clause_are_replaced(db_path):
    """The rulebook's Duplicates: FAQ (4.2) and the page-19 errata each replace one paragraph; the CLI and
    the page's banner say so alike, and name the paragraphs."""
    out = run_cli("governing", "agot1-rules/duplicates", db=db_path).stdout
    assert "Partly superseded: 2 of its paragraphs are replaced; the rest of this text governs." in out
    assert "  · the paragraph beginning “Duplicates have no text, titles, or traits.” — by AGoT LCG 1.0 FAQ" in out
    data = json.loads(run_cli("governing", "agot1-rules/duplicates", "--json", db=db_path).stdout)
    assert data["superseded"] == "part" and [r["id"] for r in data["replaced"]] == ["agot1-faq/4.2", "agot1-faq/errata/rulebook-page-19"]
    whole = json.loads(run_cli("governing", "agot2-faq/2.6", "--json", db=db_path).stdout)  # v4.1 carries the whole entry
    assert whole["superseded"] == "whole" and whole["replaced"] == []
    from judgekb.web import app as web

    page = web.create_app(db_path, CORPUS).test_client().get("/c/agot1-rules/duplicates").get_data(as_text=True)
    assert "Partly superseded — some of its paragraphs are replaced; the rest of this text governs." in page
    assert "Superseded — this text does not govern." not in page
