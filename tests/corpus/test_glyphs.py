"""Icon glyphs explained and misprints noted — the served text stays as printed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from judgekb import store
from judgekb.corpus import glyphs
from judgekb.corpus.spans import resolve
from judgekb.web import app as web
from tests.conftest import CORPUS, ROOT, run_cli

GLYPHS = glyphs.load_glyphs(CORPUS)["agot1-faq"]
SOURCE = (CORPUS / "sources" / "000_108955566d1614e0.txt").read_text(encoding="utf-8")
CARDS = ROOT.parent / "shared" / "cards" / "agot1" / "agot1.json"


@pytest.mark.parametrize("glyph", GLYPHS, ids=lambda g: g["glyph"])
def test_every_occurrence_of_a_glyph_character_is_an_icon_or_a_listed_literal(glyph, clauses):
    texts = [f"{c['heading']}\n{c['text']}" for c in clauses if c["doc"] == "agot1-faq"]  # Q&A questions are headings
    occurrences = sum(t.count(glyph["glyph"]) for t in texts)
    icons = sum(len(glyph["compiled"].findall(t)) for t in texts)
    literals = glyph.get("literal") or []
    for anchor in literals:
        span = resolve(SOURCE, anchor, "literal")
        assert SOURCE[span.start : span.end] == glyph["glyph"]
        assert not glyph["compiled"].search(SOURCE[span.start - 10 : span.end + 10].split(" ", 1)[1])
    assert occurrences == SOURCE.count(glyph["glyph"])  # every one in the source is served
    assert icons + len(literals) == occurrences and icons > 0


@pytest.mark.parametrize("glyph", GLYPHS, ids=lambda g: g["glyph"])
def test_glyph_evidence_quotes_the_faq(glyph):
    """At least one quotation in the evidence is the FAQ's own words, with the glyph in it."""
    quoted = [q for e in glyph["evidence"] for q in re.findall(r"\"([^\"]+)\"", e)]
    assert any(glyph["glyph"] in q and q.rstrip(".…") in SOURCE for q in quoted), quoted


@pytest.mark.skipif(not CARDS.is_file(), reason="the 1st-edition card database (shared/cards) is not beside the checkout")
def test_glyph_evidence_from_printed_cards_matches_the_card_database():
    cards = {c["id"]: c for c in json.loads(CARDS.read_text(encoding="utf-8"))}
    checked = 0
    for glyph in GLYPHS:
        for evidence in glyph["evidence"]:
            m = re.search(r"\((\w+_\d+)\) reads \"([^\"]+)\"", evidence)
            if m:
                assert m.group(2).strip("…") in cards[m.group(1)]["rules_text"], (glyph["glyph"], m.group(1))
                checked += 1
    assert checked >= 5


# what the flattened FAQ prints as text: punctuation, list bullets, "C&D", the footnote asterisks of its
# flowcharts, "[email protected]" and the copyright sign; any other symbol is an icon font's letter
PRINTED_SYMBOLS = set(".,()\"':?•/-“”…’+–;&©‘—*[]")


def test_every_symbol_of_the_flattened_faq_that_is_not_punctuation_is_an_explained_glyph():
    symbols = {ch for ch in SOURCE if not ch.isalnum() and not ch.isspace()}
    assert symbols - PRINTED_SYMBOLS == {g["glyph"] for g in GLYPHS}


def test_the_then_example_s_icon_is_the_noble_crest(db):
    """(4.9) quotes You've Killed the Wrong Dwarf (CORE L167) as "Choose and kneel a non{character"; the card
    (core_167) reads "Choose and kneel a non-Noble character": "{" is the Noble crest."""
    then = store.clause(db, "agot1-faq/4.9")
    assert "a non{character, Then" in then["text"]
    assert [(g["glyph"], g["means"]) for g in then["data"]["glyphs"]] == [("{", "the Noble crest")]


def test_clauses_carry_their_glyph_meanings(db):
    doran = store.clause(db, "agot1-faq/errata/doran-martell-pots-f3")
    assert "lost $ challenge" in doran["text"]  # provenance: the text is served as printed
    assert [(g["glyph"], g["means"]) for g in doran["data"]["glyphs"]] == [("$", "the Power challenge icon")]
    naval = store.clause(db, "agot1-faq/additional/naval")
    assert {g["glyph"] for g in naval["data"]["glyphs"]} == {"="}
    arithmetic = store.clause(db, "agot1-faq/timing/multiple-lasting-effects")
    assert "(–1 +2 = +1)" in arithmetic["text"] and "glyphs" not in arithmetic["data"]


def test_misprints_are_shown_as_printed_with_a_note(db_path):
    result = run_cli("show", "agot1-faq/restricted/joust/the-art-of-seduction-lotr-f76", db=db_path)
    assert "• (F76) THE ART OF SEDUCTION" in result.stdout
    assert "Note: Printed “(F76) THE ART OF SEDUCTION”: No F76 printing of The Art of Seduction exists" in result.stdout
    shown = run_cli("show", "agot1-faq/errata/longship-maidens-bane-kr-f105", db=db_path).stdout
    assert "unique _ Warship" in shown and "Note: “_” in this text is the House Greyjoy icon" in shown


def test_the_web_clause_page_and_json_show_the_notes(db_path):
    client = web.create_app(db_path, CORPUS).test_client()
    page = client.get("/c/agot1-faq/errata/griff-btns-f57").get_data(as_text=True)
    assert "the House Targaryen icon" in page
    data = client.get("/api/clause/agot1-faq/errata/griff-btns-f57").get_json()
    assert any("House Targaryen icon" in n for n in data["notes"])
    assert data["permalink"] == "/c/agot1-faq/errata/griff-btns-f57" and len(data["sha256"]) == 64


def test_a_misprint_naming_a_missing_clause_fails_the_build(corpus_copy, tmp_path: Path):
    path = corpus_copy / "misprints.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("lotr-f76", "lotr-f77", 1), encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2 and "no clause 'agot1-faq/restricted/joust/the-art-of-seduction-lotr-f77'" in result.stderr


def test_a_misprint_reading_a_number_into_an_entry_with_no_printing_fails_the_build(corpus_copy, tmp_path: Path):
    """A misprint's `number` says which printing a list or errata entry means; on a clause that names
    no printing it would mean nothing, and the build says where."""
    path = corpus_copy / "misprints.yaml"
    path.write_text(
        path.read_text(encoding="utf-8") + "- clause: agot1-faq/qa/art-of-seduction-outside-plot-reveal\n"
        "  printed: The Art of Seduction\n  note: test\n  number: F1\n",
        encoding="utf-8",
    )
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2, result.stderr
    assert "misprints.yaml:" in result.stderr
    assert "agot1-faq/qa/art-of-seduction-outside-plot-reveal names no card printing" in result.stderr
    assert not (tmp_path / "kb.sqlite").exists()


ICONS = glyphs.load_icons(CORPUS)
HTML_SOURCES = sorted((CORPUS / "sources").glob("*.html.twig"))
ICON_ELEMENT = re.compile(r'<span class="icon icon-(\w+)"></span>')


def test_every_icon_a_web_page_draws_is_placed_in_a_clause_and_named(clauses):
    """The pages draw icons as empty elements, so no text carries them: each one must reach a note."""
    drawn = sorted(m.group(1) for path in HTML_SOURCES for m in ICON_ELEMENT.finditer(path.read_text(encoding="utf-8")))
    placed = sorted(p["icon"] for c in clauses for p in c["data"].get("icons") or [])
    assert drawn and placed == drawn
    for clause in (c for c in clauses if c["data"].get("icons")):
        for place in clause["data"]["icons"]:
            assert place["means"] == ICONS[place["icon"]]["means"]
            if "before" in place:  # the words quoted on either side are the text's own, meeting where the icon stood
                assert clause["text"][: place["at"]].endswith(place["before"].lstrip("…"))
                assert clause["text"][place["at"] :].lstrip().startswith(place["after"].rstrip("…"))


@pytest.mark.parametrize("icon", sorted(ICONS))
def test_icon_evidence_quotes_the_rules_reference_chart(icon):
    source = (CORPUS / "sources" / "agot2-rules-reference.thronesdb.html.twig").read_text(encoding="utf-8")
    written = re.search(r'"In Text":\s*"(\[\w+\])"', ICONS[icon]["evidence"])
    assert written and written.group(1) == f"[{icon}]"
    assert re.search(rf'<span class="icon icon-{icon}"></span></td>\s*<td>\[{icon}\]</td>', source)


def test_the_assault_example_says_the_wall_boosts_night_s_watch_characters(db_path):
    """The seed: "+1 STR to each <span class="icon icon-thenightswatch"></span> character Magnus controls."""
    shown = run_cli("show", "agot2-rr/assault", db=db_path).stdout
    assert "it no longer provides +1 STR to each character Magnus controls." in shown  # the text as the page has it
    assert (
        "Note: An icon the text cannot show: the page draws the faction icon of The Night's Watch between"
        " “…longer provides +1 STR to each” and “character Magnus controls." in shown
    )
    client = web.create_app(db_path, CORPUS).test_client()
    page = client.get("/c/agot2-rr/assault").get_data(as_text=True)
    assert "judgekb's notes (not the document's text)" in page and "faction icon of The Night&#39;s Watch" in page
    chart = run_cli("show", "agot2-rr/challenge-icons", db=db_path).stdout
    assert "the page draws the Military challenge icon in the chart's row “Military”, column “Graphic Icon”." in chart


def test_an_icon_no_entry_names_fails_the_build(corpus_copy, tmp_path: Path):
    path = corpus_copy / "icons.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- class: thenightswatch", "- class: nightswatch"), encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2 and "no entry for the icon 'icon-thenightswatch'" in result.stderr


def test_a_misprinted_list_entry_is_cited_as_printed_and_its_note_goes_with_the_citation(db_path, clauses):
    """The seed prints "• (F76) THE ART OF SEDUCTION" under the joust list; no F76 printing of the card
    exists (it is LotR F52).  The citation read out named "The Art of Seduction (LotR F76)", a set and
    number the page never prints together: it now quotes the entry as printed, and the note travels."""
    entry = "agot1-faq/restricted/joust/the-art-of-seduction-lotr-f76"
    lines = run_cli("cite", entry, db=db_path).stdout.splitlines()
    assert lines[0] == "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17) Joust Restricted List: “(F76) THE ART OF SEDUCTION” [sic], p. 7"
    assert lines[1].startswith("Note: Printed “(F76) THE ART OF SEDUCTION”: No F76 printing of The Art of Seduction exists")
    assert len(lines) == 2 and "LotR F76" not in "\n".join(lines)
    # every citation's quoted entry is printed in the source as quoted
    for clause in (c for c in clauses if "[sic]" in c["citation"]):
        quoted = re.search(r"“([^”]+)” \[sic\]", clause["citation"])
        assert quoted and quoted.group(1) in SOURCE and quoted.group(1) in clause["text"]
    assert run_cli("cite", "agot1-faq/restricted/joust/val-dotn-f117", db=db_path).stdout.count("\n") == 1  # no misprint, one line
    client = web.create_app(db_path, CORPUS).test_client()
    page = client.get(f"/c/{entry}").get_data(as_text=True)
    copy = re.search(r'id="copy" class="copy" data-copy="([^"]*)"', page)
    assert copy and "[sic], p. 7&#10;Note (judgekb): Printed “(F76) THE ART OF SEDUCTION”: No F76 printing" in copy.group(1)


RULES_SOURCE = (CORPUS / "sources" / "001_6071a0b254b100b3.txt").read_text(encoding="utf-8")
LOST_DOCUMENT, LOST = glyphs.load_lost_icons(CORPUS)


def test_every_icon_the_rulebook_extraction_lost_is_noted_where_it_stood(clauses):
    """The seed keeps two spaces where each icon was ("in any  challenge"); the served text, whitespace
    normalised, kept no trace of it.  Every such place is now a note on its clause."""
    assert LOST_DOCUMENT == "agot1-rules"
    places = [(c["id"], p) for c in clauses for p in c["data"].get("lost_icons") or []]
    assert len(places) == len(glyphs.LOST_ICON.findall(RULES_SOURCE)) == len(LOST) == 7
    by_id = {c["id"]: c for c in clauses}
    for clause_id, place in places:
        text = by_id[clause_id]["text"]
        assert text[: place["at"]].endswith(place["before"].lstrip("…"))
        assert text[place["at"] :].lstrip().startswith(place["after"].rstrip("…"))
    for entry in LOST:
        assert entry["printed"] in RULES_SOURCE


@pytest.mark.skipif(not CARDS.is_file(), reason="the 1st-edition card database (shared/cards) is not beside the checkout")
def test_lost_icons_read_from_cards_and_titles_match_the_data():
    cards = {c["id"]: c for c in json.loads(CARDS.read_text(encoding="utf-8"))}
    titles = yaml.safe_load((CORPUS / "titles.yaml").read_text(encoding="utf-8"))["titles"]
    checked = 0
    for entry in LOST:
        if m := re.search(r"\((\w+_\d+)\) reads \"([^\"]+)\"", entry["evidence"]):
            assert m.group(2) in cards[m.group(1)]["rules_text"]
            checked += 1
        if m := re.search(r"str_bonus: (\w+)", entry["evidence"]):
            title = next(t for t, v in titles.items() if v.get("clause") == entry["clause"])
            assert titles[title]["str_bonus"] == m.group(1) and m.group(1).capitalize() in entry["means"]
            checked += 1
        if entry["means"] is None:
            assert "no document or card data in the corpus says which" in entry["evidence"]
    assert checked == 5


def test_show_and_the_page_tell_the_judge_an_icon_was_lost(db_path):
    shown = run_cli("show", "agot1-rules/crown-regent", db=db_path).stdout
    assert "you add 3 to your side's total STR in any challenge in which" in shown  # the text as extracted
    assert (
        "Note: An icon was lost here when this text was extracted: the Power challenge icon stood between"
        " “…your side's total STR in any” and “challenge in which you have at…”." in shown
    )
    lck = run_cli("show", "agot1-rules/lord-commander-of-the-kingsguard", db=db_path).stdout
    assert "between “…to redirect against yourself one undefended” and “challenge each round. When an opponent…”;" in lck
    assert "the corpus does not say which icon." in lck
    page = web.create_app(db_path, CORPUS).test_client().get("/c/agot1-rules/master-of-whispers").get_data(as_text=True)
    assert "the Intrigue challenge icon stood between" in page


def test_a_double_space_no_entry_explains_fails_the_build(corpus_copy, tmp_path: Path):
    path = corpus_copy / "icons.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - clause: agot1-rules/master-of-whispers")
    path.write_text(text[:start], encoding="utf-8")
    result = run_cli("build", db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 2 and "no 'lost' entry for the double space in agot1-rules/master-of-whispers" in result.stderr
