"""Card status per printing: the FAQ's lists and errata name one printing ("C&D F76", "(Music of Dragons, 61)"),
and the card page, `judgekb card` and the JSON keep each printing's status apart.

Uses the public card databases in ../shared/cards (imported into a copy of the test database).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from judgekb import store
from judgekb.cards import cardimport, cardpage, restricted_lists
from judgekb.web import webtext
from tests.conftest import CORPUS, ROOT, run_cli

CARDS = ROOT.parent / "shared" / "cards"
EVIL = "<img src=x onerror=alert(1)> <b>Reaction:</b> <i>Lord</i> [power] <script>alert(2)</script>"


@pytest.fixture(scope="session")
def imported_db(db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test database with both card databases and the dated lists imported, plus one hostile card text."""
    assert (CARDS / "agot1" / "agot1.json").is_file(), "the card databases are read from ../shared/cards"
    path = tmp_path_factory.mktemp("kb-cards") / "judgekb.sqlite"
    shutil.copyfile(db_path, path)
    db = store.connect(path, read_only=False)
    rows = cardimport.read(CARDS / "agot1" / "agot1.json") + cardimport.read(CARDS / "agot2-throneteki")
    evil = dict(next(r for r in rows if r["edition"] == 2), name="Zz Hostile Markup", key="zz hostile markup", code="99001", text=EVIL)
    cardimport.apply(db, rows + [evil])
    list_file = restricted_lists.find_file(CARDS / "agot2-throneteki")
    restricted_lists.apply(db, restricted_lists.read(list_file), list_file)  # the dated lists, as import-cards does
    db.close()
    return path


def _by_code(page: dict) -> dict[str, dict]:
    return {p["code"]: p for p in page["printings"]}


def test_first_edition_daenerys_is_restricted_only_in_the_printings_the_lists_name(imported_db):
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "Daenerys Targaryen", 1)
    printings = _by_code(page)
    assert printings["C&D F76"]["status"] == {"joust": "restricted", "melee": "not restricted", "banned": "not banned"}
    assert printings["QoD F22"]["status"] == {"joust": "not restricted", "melee": "restricted", "banned": "not banned"}
    assert printings["Core T106"]["status"] == {"joust": "not restricted", "melee": "not restricted", "banned": "not banned"}
    # the FAQ's "C&D F76" is the card database's cad_76 (printed in the chapter pack Ancestral Home)
    assert printings["C&D F76"]["imported"] == {"code": "cad_76", "set": "Ancestral Home", "number": "76"}
    assert printings["C&D F76"]["errata"] == ["agot1-faq/errata/daenerys-targaryen-cad-f76"]
    assert printings["QoD F22"]["errata"] == []
    assert page["status"] == {"joust": "restricted: C&D F76 only", "melee": "restricted: QoD F22 only", "banned": "not banned"}
    # a printing only the card database knows is listed too, with no status of its own
    assert any(p["imported"] and p["imported"]["code"] == "soo_9" and p["status"]["joust"] == "not restricted" for p in page["printings"])


def test_a_misprinted_list_entry_counts_for_the_printing_it_means(imported_db, tmp_path):
    """A judge's review: FAQ v5.5.1's joust list prints "(F76) THE ART OF SEDUCTION"; no F76 printing
    exists and corpus/misprints.yaml says it is LotR F52.  The note was only shown: the card page said
    LotR F52 was not joust restricted and a joust deck with it and Wheels within Wheels passed.  The
    misprint's `number` now decides the printing; the citation quotes the entry as printed, "[sic]"."""
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "The Art of Seduction", 1)
    assert _by_code(page)["LotR F52"]["status"] == {"joust": "restricted", "melee": "restricted", "banned": "not banned"}
    assert "LotR F76" not in _by_code(page)
    entry = "agot1-faq/restricted/joust/the-art-of-seduction-lotr-f76"
    assert "“(F76) THE ART OF SEDUCTION” [sic]" in store.clause(db, entry)["citation"]  # never "(LotR F76)": no such printing
    deck = tmp_path / "deck.txt"
    deck.write_text("1x The Art of Seduction (Lions of the Rock)\n1x Wheels within Wheels (A Dire Message)\n", encoding="utf-8")
    result = run_cli("deckcheck", "--edition", "1", "--format", "joust", str(deck), db=imported_db)
    assert result.returncode == 3 and "[restricted] 2 cards from the joust restricted list" in result.stdout, result.stdout
    assert entry in result.stdout


def test_second_edition_meera_reed_redesign_is_not_restricted(imported_db):
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "Meera Reed", 2)
    printings = _by_code(page)
    # FAQ v2.3 restricted the Music of Dragons printing: its lists say so (FAQ v4.1 prints no lists, and the page
    # says v2.3's are not in force; the entry itself says v4.1 no longer carries it)
    assert printings["Music of Dragons, 61"]["status"]["joust"] == "restricted"
    assert printings["Music of Dragons, 61"]["lists"][0]["id"] == "agot2-faq/restricted/joust/meera-reed-music-of-dragons-61"
    assert printings["Music of Dragons, 61"]["imported"]["code"] == "11061"
    assert printings["Redesigns, 123"]["status"]["joust"] == "not restricted" and not printings["Redesigns, 123"]["lists"]
    assert page["status"]["joust"] == "restricted: Music of Dragons, 61 only"
    assert page["restricted"]["joust"][0]["withdrawn"]["version"] == "4.1"
    # the dated list in force (imported) speaks per printing too: today the original printing is out of the pool
    in_force = {p["code"]: p["in_force"] for p in page["lists"]["printings"]}
    assert in_force["17123"] == ["legal, not restricted"] and any("banned" in s for s in in_force["11061"])


def test_a_cycle_citation_reaches_the_chapter_pack_printing(imported_db):
    """ "Crone of Vaes Dothrak's (Westeros, 53)": the Westeros cycle's card 53 is code 02053."""
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "Crone of Vaes Dothrak", 2)
    assert _by_code(page)["Westeros, 53"]["imported"]["code"] == "02053"
    # the same FAQ example cites "Hot Pie (Westeros, 57)", but Hot Pie is War of Five Kings 57 (04057):
    # the page says no imported card sits at the cited printing instead of guessing
    [hot_pie] = cardpage.find(db, "Hot Pie", 2)
    cited = _by_code(hot_pie)["Westeros, 57"]
    assert cited["imported"] is None and cited["unmatched"]


def test_a_printing_the_faq_cites_by_pack_and_by_cycle_is_one_row(imported_db):
    """FAQ v2.3 cites Ward as (True Steel, 102) on its lists and as (Westeros, 102), the cycle's number for
    the same card: the page shows one printing, under its pack, naming the other citation, its status
    from both; the CLI line says so too."""
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "Ward", 2)
    rows = [p for p in page["printings"] if p["imported"] and p["imported"]["set"] == "True Steel"]
    assert len(rows) == 1, page["printings"]
    [ward] = rows
    assert ward["code"] == "True Steel, 102" and ward["also"] == ["Westeros, 102"] and not ward["unmatched"], ward
    assert "Westeros, 102" not in _by_code(page)
    assert ward["status"]["joust"] == "restricted", ward["status"]  # its list entries, whichever citation
    shown = run_cli("card", "Ward", "--edition", "2", db=imported_db).stdout
    assert "  True Steel, 102 (also cited as Westeros, 102): joust restricted" in shown, shown


def test_plot_values_and_card_command(imported_db):
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "A Clash of Kings", 2)
    core = next(p for p in page["printed"] if p["code"] == "01001")
    assert (core["income"], core["initiative"], core["claim"], core["reserve"]) == ("4", "9", "1", "6")
    out = run_cli("card", "Daenerys Targaryen", "--edition", "1", db=imported_db)
    assert out.returncode == 0, out.stderr
    status = "joust restricted: C&D F76 only; melee restricted: QoD F22 only; not banned"
    assert f"Status in the lists of AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17): {status}" in out.stdout
    assert "  C&D F76 = Ancestral Home 76: joust restricted, melee not restricted, not banned" in out.stdout
    data = json.loads(run_cli("card", "Meera Reed", "--edition", "2", "--json", db=imported_db).stdout)
    assert {p["code"]: p["status"]["joust"] for p in data["printings"]} == {
        "Music of Dragons, 61": "restricted",
        "Redesigns, 123": "not restricted",
    }
    plain = run_cli("card", "A Clash of Kings", "--edition", "2", db=imported_db).stdout
    assert "income 4; initiative 9; claim 1; reserve 6" in plain and "<b>" not in plain and "Reaction:" in plain


def test_a_first_edition_card_page_says_its_crests(imported_db):
    """A first-edition card's crest (Noble, War, Holy, Learned, Shadow) is printed on it and asked about
    at the table ("whats the crest on khal drogo"): the import keeps it, and the card page, in the
    terminal and on the web, says it beside its icons for each printing."""
    from judgekb.web import app as web

    out = run_cli("card", "Khal Drogo", "--edition", "1", db=imported_db)
    assert out.returncode == 0, out.stderr
    assert "icons Military, Power; crest Noble; traits Lord, Dothraki" in out.stdout  # Core 107
    assert "crest War" in out.stdout  # Queen of Dragons 21
    page = web.create_app(imported_db, CORPUS).test_client().get("/card?name=Khal+Drogo&edition=1")
    assert page.status_code == 200 and "crest Noble" in page.get_data(as_text=True)
    second = run_cli("card", "A Clash of Kings", "--edition", "2", db=imported_db).stdout
    assert "crest" not in second  # no second-edition card has one


def test_an_exact_imported_title_wins_over_a_near_corpus_title(imported_db):
    db = store.connect(imported_db)
    pages = cardpage.find(db, "Daenerys's Favor", 1)
    assert pages and all(p["name"] == "Daenerys's Favor" for p in pages)


def test_card_text_markup_is_rendered_and_everything_else_escaped():
    html = str(webtext.card_text(EVIL))
    assert "<strong>Reaction:</strong>" in html and "<em>Lord</em>" in html and 'class="sym sym-power"' in html
    assert "<img" not in html and "<script" not in html and "&lt;img" in html
    assert str(webtext.card_text("<b>open")) == "<strong>open</strong>"  # an unclosed tag is closed
    assert str(webtext.card_text("</i>stray")) == "stray"


def test_citation_lines_never_double_quotes(db):
    from judgekb.authority.citation import LOST_PAGES

    sql = "select id from clauses where citation like '%““%' or citation like '%””%' or citation like '%“\"%'"
    doubled = [r["id"] for r in db.query(sql)]
    assert not doubled
    row = store.clause(db, "agot1-rules/participating-characters")
    assert row["citation"].endswith("“Participating Characters”" + LOST_PAGES)


def test_the_json_api_keeps_printings_apart(imported_db):
    from judgekb.web import app as web
    from tests.conftest import CORPUS

    client = web.create_app(imported_db, CORPUS).test_client()
    [page] = client.get("/api/card?name=Daenerys+Targaryen&edition=1").get_json()
    status = {p["code"]: (p["status"]["joust"], p["status"]["melee"]) for p in page["printings"]}
    assert status["C&D F76"] == ("restricted", "not restricted") and status["QoD F22"] == ("not restricted", "restricted")
    assert page["status_source"] == "AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17)"


def test_a_second_edition_card_page_says_the_faq_lists_are_not_in_force(db_path):
    """(review 20) Without card data, `judgekb card "The Lord of the Crossing" --edition 2` opened with "Status in
    the lists of AGoT 2.0 FAQ v2.3: … melee not on a list in the FAQ in force …", then printed v2.3's melee entry:
    a contradiction, and nothing said the lists are not in force.  The line says how v2.3 listed it, not in force."""
    out = run_cli("card", "The Lord of the Crossing", "--edition", "2", db=db_path)
    assert out.returncode == 0, out.stderr
    status = next(line for line in out.stdout.splitlines() if line.startswith("Status"))
    assert status.startswith("Status on the lists of AGoT 2.0 FAQ v2.3 (2019-09-20), not in force (later lists have replaced them;")
    assert "to see the list in force" in status and status.endswith("joust not restricted; melee restricted; not banned"), status


def test_a_draft_set_printing_is_never_shown_first(imported_db):
    """A README review (r49): Robb Stark's card page put the Tower of Joy Draft Set printing ("Draft format only.")
    first, as the page's printed text, ahead of Core Set 146: a judge at a joust table read a card not legal there.
    A core printing comes first and a draft set's (code 00…) last, as the builder already ordered them."""
    db = store.connect(imported_db)
    [page] = cardpage.find(db, "Robb Stark", 2)
    codes = [p["code"] for p in page["printed"]]
    assert codes[0] == "01146" and codes[-1].startswith("00"), codes


def test_the_faq_v23_block_says_how_v23_lists_each_card(imported_db):
    """Blind review r54 L1: on /card?name=Khal+Drogo&edition=2, under "Below: the restricted and banned lists of AGoT 2.0
    FAQ v2.3", the line read "Melee: not on a list in the FAQ in force (restricted in an earlier version, …)" and the
    Core Set 162 cell "no longer listed", while v2.3's "## MELEE RESTRICTED LIST" → "### Targaryen:" prints "Khal Drogo
    (*Core*, 162)".  Every entry of v2.3's lists had its status read against FAQ v4.1, which prints no lists; inside
    the block that presents v2.3's lists, each listed printing now reads as v2.3 lists it."""
    from judgekb.web import app as web

    client = web.create_app(imported_db, CORPUS).test_client()
    html = client.get("/card?name=Khal+Drogo&edition=2").get_data(as_text=True)
    assert "Below: the restricted and banned lists of AGoT 2.0 FAQ v2.3 (2019-09-20)" in html
    assert "Melee: restricted: Core Set, 162 only</span>" in html and "Joust: not restricted</span>" in html
    assert "no longer listed" not in html and "not on a list in the FAQ in force" not in html
    entry = "agot2-faq/restricted/melee/khal-drogo-core-162"
    assert f'<td class="on"><a href="/c/{entry}">restricted</a></td>' in html
    assert "Not in force: v4.1 of the FAQ no longer carries it" in html  # the entry itself still says so
    # every printing v2.3's joust and melee lists name reads "restricted" for that list on its card page
    db = store.connect(imported_db)
    entries = list(db.query("select id, data from clauses where doc = 'agot2-faq' and kind = 'restricted'"))
    assert len(entries) == 63
    wrong = []
    for row in entries:
        fmt = json.loads(row["data"])["format"]
        card = next(db.query("select dst from links where src = ? and type = 'mentions' and dst like 'card:2:%'", [row["id"]]))["dst"]
        [page] = cardpage.page(db, next(dict(c, spellings=[]) for c in db.query("select * from cards where id = ?", [card]))),
        listed = [p for p in page["printings"] if any(e["id"] == row["id"] for e in p["lists"])]
        if not listed or any(p["status"][fmt] != "restricted" for p in listed) or not page["status"][fmt].startswith("restricted"):
            wrong.append((row["id"], page["status"][fmt]))
    assert not wrong, wrong
