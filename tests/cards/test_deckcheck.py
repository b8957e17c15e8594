"""Deck checks on real decklists (tests/decks/) against the real corpus and the public card data.

The decks were written by hand in the formats players hand in: ThronesDB's text export and
JSON, plain "count name (set)" lists for the first edition.  Variants are made by editing
their lines, the way a player would change a list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judgekb import store
from judgekb.cards import deckcheck, decklists, restricted_lists
from judgekb.yamlio import DataError
from tests.conftest import ROOT, run_cli

DECKS = ROOT / "tests" / "decks"
SHARED_CARDS = ROOT.parent / "shared" / "cards"
STARK = (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8")
STARK1 = (DECKS / "agot1-stark-legal.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def kb(imported_db_path: Path) -> Path:
    """The corpus with both public card databases imported (cards and the dated lists): conftest's
    session build, which no test here writes to."""
    return imported_db_path


@pytest.fixture(scope="module")
def db(kb: Path):
    return store.connect(kb)


def check(db, text: str, **options) -> deckcheck.Report:
    return deckcheck.check(db, decklists.parse(text, "deck.txt"), **options)


def by_check(report: deckcheck.Report) -> dict[str, list[deckcheck.Problem]]:
    out: dict[str, list[deckcheck.Problem]] = {}
    for p in report.problems:
        out.setdefault(p.check, []).append(p)
    return out


def swap(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


# ---------------------------------------------------------------------------- the lists


def test_restricted_lists_are_imported_with_their_issuer_date_and_pods(db):
    lists = restricted_lists.load(db)
    assert len(lists) == 32
    newest = restricted_lists.newest(lists)
    assert (newest.name, newest.issuer, newest.date) == ("Standard v2.1", "Global Operations Team (G.O.T.)", "2026-07-01")
    assert "01146" in newest.formats["joust"].restricted  # Robb Stark (Core Set)
    assert any(set(p.cards) == {"01143", "17122"} for p in newest.formats["joust"].pods)  # Catelyn Stark / Wyman Manderly
    assert "02091" in newest.banned_cards and "17107" not in newest.banned_cards  # Raider from Pyke: original out, redesign in
    conclave = restricted_lists.by_name(lists, "the conclave faq v2.0")
    assert any(p.restricted == "13085" for p in conclave.formats["joust"].pods)  # a pod keyed on a restricted card
    assert restricted_lists.by_name(lists, "gotstandard1.16").name == "Standard v1.16"


def test_import_cards_reports_the_lists(tmp_path: Path, corpus_copy: Path):
    result = run_cli("import-cards", str(SHARED_CARDS / "agot2-throneteki"), db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert result.returncode == 0, result.stderr
    assert "imported 32 dated restricted/banned lists" in result.stdout
    broken = tmp_path / "throneteki"
    (broken / "packs").mkdir(parents=True)
    (broken / "packs" / "Core.json").write_text(json.dumps({"code": "Core", "name": "Core Set", "cards": []}), encoding="utf-8")
    (broken / "restricted-list.json").write_text('[{"code": "x", "name": "X", "date": "2020-01-01", "formats": "joust"}]', encoding="utf-8")
    bad = run_cli("import-cards", str(broken), db=tmp_path / "kb.sqlite", corpus=corpus_copy)
    assert bad.returncode == 2 and "list 'X': field 'formats' must be a list" in bad.stderr and "Traceback" not in bad.stderr
    kept = store.connect(tmp_path / "kb.sqlite")
    assert kept.execute("select count(*) from restricted_lists").fetchone()[0] == 32  # nothing half-written


def test_card_page_shows_the_list_in_force_and_each_printings_history(kb):
    result = run_cli("card", "Raider from Pyke", "--edition", "2", db=kb)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "in force: Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01)" in out
    assert "Calm over Westeros 91: banned: outside this list's card pool (a printing the list bans)" in out
    assert "Redesigns 107: legal, not restricted" in out
    assert "Valyrian v1.0 (Global Operations Team (G.O.T.), 2021-07-16): joust restricted" in out
    data = json.loads(run_cli("card", "Robb Stark", "--edition", "2", "--json", db=kb).stdout)
    core = next(p for p in data["lists"]["printings"] if p["code"] == "01146")
    assert "joust restricted" in core["in_force"] and any("pod" in s for s in core["in_force"])


# ---------------------------------------------------------------------------- second edition


def test_a_thronesdb_export_is_legal_and_names_the_list(kb):
    result = run_cli("deckcheck", str(DECKS / "agot2-stark-fealty.txt"), db=kb)
    assert result.returncode == 0, result.stdout + result.stderr
    first = result.stdout.splitlines()[0]
    assert first == "LEGAL — Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01), joust"
    assert "Winter Wolves, House Stark, Fealty — 7 plots, 63 draw cards" in result.stdout


def test_the_thronesdb_json_export_of_the_same_deck_gets_the_same_verdict(kb):
    text = run_cli("deckcheck", str(DECKS / "agot2-stark-fealty.txt"), "--json", db=kb)
    jsn = run_cli("deckcheck", str(DECKS / "agot2-stark-fealty.json"), "--json", db=kb)
    a, b = json.loads(text.stdout), json.loads(jsn.stdout)
    assert (
        (a["verdict"], a["counts"], a["faction"], a["agendas"])
        == (b["verdict"], b["counts"], b["faction"], b["agendas"])
        == (
            "legal",
            {"agendas": 1, "plots": 7, "draw": 63},
            "House Stark",
            ["Fealty"],
        )
    )
    assert sorted((c["code"], c["count"]) for c in a["cards"]) == sorted((c["code"], c["count"]) for c in b["cards"])


def test_an_illegal_deck_lists_every_problem_with_card_printing_line_and_citation(kb):
    result = run_cli("deckcheck", str(DECKS / "agot2-greyjoy-illegal.txt"), "--json", db=kb)
    assert result.returncode == 3
    report = json.loads(result.stdout)
    assert report["verdict"] == "not legal" and report["list_used"].startswith("Standard v2.1")
    checks = {p["check"]: p for p in report["problems"]}
    assert set(checks) == {"agendas", "plots", "copies", "loyal", "agenda-text", "restricted", "card-pool"}
    for p in report["problems"]:
        assert p["cite"], f"{p['check']} has no citation"
    assert checks["copies"]["lines"] == [22, 23]
    assert checks["copies"]["message"] == "4 copies of Theon Greyjoy across 2 printings: at most 3 (by title)"
    assert checks["restricted"]["printings"] == ["Balon Greyjoy (Kings of the Isles, 1)", "Victarion Greyjoy (Redesigns, 102)"]
    assert checks["loyal"]["source_lines"] == ["1x Catelyn Stark (Core Set)"]
    assert checks["agenda-text"]["cite"][0]["line"] == "Banner of the Wolf (Core Set, 203), card text (imported card data)"
    assert "You must include at least 12 [stark] cards in your deck." in checks["agenda-text"]["cite"][0]["text"]


def test_a_plain_list_with_labelled_faction_and_agenda_lines(db):
    lines = [line for line in STARK.splitlines() if re.match(r"^\d+x ", line)]
    plain = "Faction: House Stark\nAgenda: Fealty\n" + "\n".join(re.sub(r"^(\d+)x ", r"\1 ", line) for line in lines)
    report = check(db, plain)
    assert (report.verdict, report.faction, report.agendas, report.counts["draw"]) == ("legal", "House Stark", ["Fealty"], 63)
    as_card_lines = check(db, plain.replace("Faction: House Stark\nAgenda: Fealty\n", "1 House Stark\n1 Fealty (Core Set)\n"))
    assert (as_card_lines.verdict, as_card_lines.faction, as_card_lines.agendas) == ("legal", "House Stark", ["Fealty"])


def test_a_banned_original_printing_beside_its_legal_redesign(db):
    deck = swap(STARK, "2x Jory Cassel (Wolves of the North)", "2x Raider from Pyke (Calm over Westeros)")
    report = check(db, deck)
    (problem,) = by_check(report)["card-pool"]
    assert problem.printings == ["Raider from Pyke (Calm over Westeros, 91)"]
    assert "the list allows Raider from Pyke (Redesigns, 107)" in problem.message
    assert problem.cite[0].line == "Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01), printings outside its card pool"
    redesign = check(db, swap(deck, "(Calm over Westeros)", "(Redesigns)"))
    assert "card-pool" not in by_check(redesign)
    # the old card pool: under FFG FAQ v2.3 the redesign is the printing outside the pool
    old = check(db, swap(deck, "(Calm over Westeros)", "(Redesigns)"), list_name="FFG FAQ v2.3")
    assert by_check(old)["card-pool"][0].printings == ["Raider from Pyke (Redesigns, 107)"]


def test_only_the_restricted_printing_of_a_title_counts(db):
    with_swords = swap(STARK, "1x Counting Coppers (Core Set)", "1x The White Swords (Dragons of the East)")
    report = check(db, with_swords)
    (problem,) = by_check(report)["restricted"]
    assert problem.printings == ["The White Swords (Dragons of the East, 48)", "Robb Stark (Core Set, 146)"]  # in list order
    other_robb = check(db, swap(with_swords, "1x Robb Stark (Core Set)", "1x Robb Stark (Across the Seven Kingdoms)"))
    assert other_robb.verdict == "legal", [p.message for p in other_robb.problems]


def test_a_pod_pair_cannot_share_a_deck(db):
    deck = swap(STARK, "2x Jory Cassel (Wolves of the North)", "1x Catelyn Stark (Core Set)\n1x Wyman Manderly (Redesigns)")
    report = check(db, deck)
    assert report.verdict == "not legal"
    (problem,) = report.problems
    assert problem.check == "pod" and problem.lines == [27, 28]
    assert problem.message.endswith("Catelyn Stark (Core Set, 143) and Wyman Manderly (Redesigns, 122) cannot be in the same deck")
    assert problem.cite[0].line.startswith("Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01), joust pod #")
    assert problem.cite[0].url.endswith("GOT-Card-Legality-v2.1-Joust-5.pdf")
    alone = check(db, swap(STARK, "2x Jory Cassel (Wolves of the North)", "2x Catelyn Stark (Core Set)"))
    assert alone.verdict == "legal"


def test_a_card_released_after_the_lists_date(db):
    deck = swap(STARK, "2x Jory Cassel (Wolves of the North)", "2x Howland Reed (No Crown but Truth)")
    assert check(db, deck).verdict == "legal"
    report = check(db, deck, list_name="Standard v1.16")
    (problem,) = by_check(report)["released-after-list"]
    assert problem.message.startswith(
        "Howland Reed (No Crown but Truth, 111) was released on 2026-02-07, after Standard v1.16 (2025-10-01)"
    )
    assert report.list_used == "Standard v1.16 (Global Operations Team (G.O.T.), 2025-10-01), joust"


def test_the_faq_v23_list_cites_the_faq_clauses(db):
    deck = swap(STARK, "2x Jory Cassel (Wolves of the North)", "1x Meera Reed (Music of Dragons)\n1x Ward (True Steel)")
    deck = swap(deck, "1x Robb Stark (Core Set)\n", "")
    report = check(db, deck, list_name="FFG FAQ v2.3")
    (problem,) = by_check(report)["restricted"]
    ids = [c.id for c in problem.cite]
    assert "agot2-faq/joust-restricted-list/introduction" in ids
    assert "agot2-faq/restricted/joust/meera-reed-music-of-dragons-61" in ids and "agot2-faq/restricted/joust/ward-true-steel-102" in ids


def test_the_imported_faq_v23_lists_agree_with_the_faq_clauses(db):
    v23 = restricted_lists.by_name(restricted_lists.load(db), "FFG FAQ v2.3")
    pool = deckcheck.CardPool(db, 2)
    for fmt in ("joust", "melee"):
        imported = {pool.by_code[code].key for code in v23.formats[fmt].restricted}
        rows = db.execute(
            "select json_extract(data, '$.card') from clauses "
            "where doc = 'agot2-faq' and kind = 'restricted' and json_extract(data, '$.format') = ?",
            [fmt],
        ).fetchall()
        assert imported == {deckcheck.normalise_name(r[0]) for r in rows}, fmt


def test_a_pod_keyed_on_a_restricted_card(db):
    pool = deckcheck.CardPool(db, 2)
    conclave = restricted_lists.by_name(restricted_lists.load(db), "The Conclave FAQ v2.0")
    entries = [
        decklists.Entry(1, "Yoren", 3, "1x Yoren (The Blackwater)", "The Blackwater"),
        decklists.Entry(2, "Craven", 4, "2x Craven (Called to Arms)", "Called to Arms"),
    ]
    cards = deckcheck.resolve(pool, entries).cards
    (problem,) = [p for p in deckcheck.list_checks2(cards, pool, conclave, "joust", deckcheck.Citer(db)) if p.check == "pod"]
    assert problem.message.endswith("Yoren cannot be in a deck with Craven")
    without_yoren = deckcheck.list_checks2(cards[1:], pool, conclave, "joust", deckcheck.Citer(db))
    assert not [p for p in without_yoren if p.check == "pod"]  # the pod binds only beside its restricted card


def test_melee_uses_the_melee_list(db):
    deck = swap(STARK, "2x Like Warm Rain (Core Set)", "2x Winter Is Coming (Core Set)")
    assert check(db, deck).verdict == "legal"
    report = check(db, deck, fmt="melee")  # Robb Stark (Core Set) and Winter Is Coming are both on the melee list
    assert by_check(report)["restricted"][0].cards == ["Robb Stark", "Winter Is Coming"]


def test_agendas_copies_and_what_their_text_allows(db):
    two = check(db, swap(STARK, "Fealty\n", "Fealty\nFealty\n"))
    assert {p.check for p in two.problems} == {"agendas", "agenda-copies"}
    assert by_check(two)["agenda-copies"][0].cite[0].id in ("agot2-faq41/3.5", "agot2-faq/3.5")
    neutral = check(
        db, swap(STARK, "2x Hodor (No Middle Ground)", "3x Tourney Grounds (Wolves of the North)\n3x Hedge Knight (The King's Peace)")
    )
    (fealty,) = by_check(neutral)["agenda-text"]
    assert fealty.message == "Fealty: the deck cannot include more than 15 neutral cards; it has 16"
    banner = swap(STARK, "Fealty\n", "Banner of the Lion\n")
    banner = swap(banner, "2x Jory Cassel (Wolves of the North)", "2x Lannisport Merchant (Core Set)")
    report = check(db, banner)
    assert [p.check for p in report.problems] == ["agenda-text"]  # a non-loyal Lannister card is allowed; 12 are required
    assert "Banner of the Lion: the deck must include at least 12 House Lannister cards; it has 2" in report.problems[0].message
    alliance = swap(STARK, "Fealty\n", "Alliance\nBanner of the Lion\nBanner of the Rose\n")
    assert {p.check for p in check(db, alliance).problems} == {"draw-minimum", "agenda-text"}  # 75 cards; 12 Lannister; 12 Tyrell


def test_plot_deck_copies(db):
    doubled = check(
        db,
        swap(STARK, "1x A Storm of Swords (Core Set)", "2x Calling the Banners (Core Set)").replace(
            "1x Calling the Banners (Core Set)\n", ""
        ),
    )
    assert doubled.counts["plots"] == 7
    (problem,) = doubled.problems
    assert problem.check == "plots" and problem.message.startswith(
        "2 plots have more than one copy (A Noble Cause, Calling the Banners): only 1 may"
    )
    assert [c.id for c in problem.cite] == ["agot2-rr/deckbuilding", "agot2-rr/plot-deck", "agot2-tr/deck-building"]
    wars = swap(STARK, "Fealty\n", "The Wars To Come (Redesigns)\n")  # the Sands of Dorne printing is outside the v2.1 pool
    wars = swap(
        wars,
        "1x Counting Coppers (Core Set)",
        "1x Counting Coppers (Core Set)\n2x Marching Orders (Core Set)\n1x Fortified Position (Core Set)",
    )
    report = check(db, wars)
    assert report.counts["plots"] == 10 and report.verdict == "legal", [p.message for p in report.problems]
    assert (
        by_check(check(db, STARK.replace("Fealty\n", "The Wars To Come (Sands of Dorne)\n")))["plots"][0]
        .cite[-1]
        .line.startswith("The Wars To Come (Sands of Dorne, 45), card text")
    )


# ---------------------------------------------------------------------------- first edition


def test_a_first_edition_list_by_title_and_set(kb):
    legal = run_cli("deckcheck", str(DECKS / "agot1-stark-legal.txt"), db=kb)
    assert legal.returncode == 0, legal.stdout + legal.stderr
    assert legal.stdout.startswith("LEGAL — AGoT LCG 1.0 FAQ restricted and banned lists as of v5.5.1, joust")
    bad = run_cli("deckcheck", str(DECKS / "agot1-stark-illegal.txt"), "--json", db=kb)
    assert bad.returncode == 3
    report = json.loads(bad.stdout)
    checks = {p["check"]: p for p in report["problems"]}
    assert set(checks) == {"plots", "draw-minimum", "copies", "restricted"}
    assert [c["id"] for c in checks["copies"]["cite"]] == ["agot1-faq/4.8"]
    assert checks["restricted"]["source_lines"] == ["1 Bran Stark (Core S13)", "1 Val (DotN F117)"]
    assert "agot1-faq/restricted/joust/val-dotn-f117" in [c["id"] for c in checks["restricted"]["cite"]]


def test_a_first_edition_card_s_own_limit_counts(db):
    """A blind judge's review: two copies of The Power of Arms ("You may have up to 2 copies of The Power of
    Arms in your plot deck.") were 'no duplicate plot cards', and two copies of Street of Steel ("Limit 1
    per deck.") passed.  The card's own text, quoted as the citation, now sets the number either way."""
    arms2 = swap(STARK1, "1 Planning Ahead (Core)\n", "1 The Power of Arms (Core)\n").replace(
        "1 Rains of Autumn (Core)\n", "1 The Power of Arms (Core)\n"
    )
    assert check(db, arms2, edition=1).verdict == "legal"
    arms3 = arms2.replace("1 Good for the Gander (Core)\n", "1 The Power of Arms (Core)\n")
    (too_many,) = check(db, arms3, edition=1).problems
    assert (too_many.check, too_many.message) == ("card-limit", "3 copies of The Power of Arms: its text allows up to 2 in the plot deck")
    assert too_many.cite[0].id is None and "You may have up to 2 copies of The Power of Arms in your plot deck." in too_many.cite[0].text
    gander2 = swap(STARK1, "1 Planning Ahead (Core)\n", "1 Good for the Gander (Core)\n")
    (dup,) = check(db, gander2, edition=1).problems
    assert (dup.check, dup.message) == ("plots", "2 copies of Good for the Gander: no duplicate plot cards")
    street = swap(STARK1, "3 Hodor (Core)\n", "1 Hodor (Core)\n1 Street of Steel (Core)\n1 Street of Steel (Lords of Winter)\n")
    (limit,) = check(db, street, edition=1).problems
    assert (limit.check, limit.message) == ("card-limit", "2 copies of Street of Steel: its text says 'Limit 1 per deck'")
    assert "Limit 1 per deck." in limit.cite[0].text
    assert check(db, street.replace("1 Street of Steel (Lords of Winter)\n", "1 Hodor (Core)\n"), edition=1).verdict == "legal"


def test_a_list_checked_under_the_other_edition_says_so(db):
    """A review ran a first-edition list with --edition 2: 21 'unknown card' lines and '0 plots', never saying
    the cards are first-edition ones.  Both ways round, the sheet now says what the list looks like."""
    as_second = check(db, STARK1, edition=2)
    assert as_second.verdict == "cannot be checked"
    assert any("looks like a first-edition list; check it with --edition 1" in n for n in as_second.notes), as_second.notes
    as_first = check(db, STARK, edition=1)
    assert any("looks like a second-edition list; check it with --edition 2" in n for n in as_first.notes), as_first.notes
    assert not any("looks like" in n for n in check(db, STARK1, edition=1).notes)


def test_first_edition_lists_by_version(db):
    deck = (DECKS / "agot1-stark-illegal.txt").read_text(encoding="utf-8")
    now = by_check(check(db, deck, edition=1))["restricted"][0]
    then = by_check(check(db, deck, edition=1, as_of="v5.4"))["restricted"][0]
    assert "The Conclave" not in now.cards and "The Conclave" in then.cards  # removed from the joust list by v5.5.1
    assert "agot1-faq/list-changes/joust/the-conclave-soo-f57" in [c.id for c in then.cite]
    two_agendas = check(
        db,
        swap(STARK1, "House Stark\n", "1 House Stark (Core)\n1 The Rangers (Wolves of the North)\n1 The Rangers (Wolves of the North)\n"),
    )
    assert two_agendas.faction == "House Stark"
    assert [(p.check, [c.id for c in p.cite]) for p in two_agendas.problems] == [("agendas", ["agot1-rules/agendas"])]
    jaqen = swap(STARK1, "2 Shae (Core)", "2 Jaqen H'ghar (Sacred Bonds)")
    assert check(db, jaqen, edition=1).verdict == "legal"
    banned = by_check(check(db, jaqen, edition=1, as_of="v4.0"))["banned"][0]
    assert banned.message == "Jaqen H'ghar (Sacred Bonds, 43) was on the banned list at FAQ v4.0 (removed by v4.1)"


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "deck.txt: the decklist is empty"),
        ("Deck\nHouse Stark\n", "deck.txt: no card lines found"),
        (
            "3x Hodor (Core Set)\nthis is not a card line\n",
            "deck.txt:2: not a card line: expected 'COUNT NAME' or 'COUNT NAME (PACK)'; got 'this is not a card line'",
        ),
        (  # a count-less line under a section header is a card written without its count, not a heading to drop
            "House Baratheon\nFealty\n\nPlots\nA Noble Cause (Core)\n1x A Clash of Kings (Core Set)\n",
            "deck.txt:5: not a card line: expected 'COUNT NAME' or 'COUNT NAME (PACK)'; got 'A Noble Cause (Core)'",
        ),
        ("0x Hodor (Core Set)\n", "deck.txt:1: card count must be 1 to 99; got '0x Hodor (Core Set)'"),
        # (review 24: a count below zero was read as the deck's title, and the card left out without a word)
        ("Stark\n-3x Eddard Stark (Core)\n3x Hodor (Core Set)\n", "deck.txt:2: card count must be 1 to 99; got '-3x Eddard Stark (Core)'"),
        ("3x Hodor (Core Set)\nEddard Stark x-2\n", "deck.txt:2: card count must be 1 to 99; got 'Eddard Stark x-2'"),
        ("- 3x Hodor (Core Set)\n- Eddard Stark (Core) x-1\n", "deck.txt:2: card count must be 1 to 99; got '- Eddard Stark (Core) x-1'"),
        ('{"slots": {"01001": "two"}}', "deck.txt:1: field 'slots.01001': count must be a whole number 1 to 99; got 'two'"),
        ('{"slots": ', "deck.txt:1: not valid JSON"),
        ('{"name": "x"}', "deck.txt: field 'slots': expected an object"),
    ],
)
def test_malformed_lists_are_refused_with_file_and_line(text, message):
    with pytest.raises(DataError) as err:
        decklists.parse(text, "deck.txt")
    assert str(err.value).startswith(message)


def test_bad_input_on_the_command_line_exits_2_with_a_message(kb, tmp_path: Path):
    typo = tmp_path / "typo.txt"
    typo.write_text(swap(STARK, "3x Direwolf Pup (Core Set)", "3x Direwolf Pupp (Core Set)"), encoding="utf-8")
    result = run_cli("deckcheck", str(typo), db=kb)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stdout.startswith("CANNOT BE CHECKED")
    assert f"judgekb: {typo}:17: no card named 'Direwolf Pupp'; nearest: Direwolf Pup" in result.stderr
    ambiguous = tmp_path / "plain.txt"
    # (both printings in the card pool of the list in force: either could legally be in the deck, so the pack is asked)
    ambiguous.write_text("House Baratheon\n3 Maester Cressen\n", encoding="utf-8")
    result = run_cli("deckcheck", str(ambiguous), db=kb)
    assert result.returncode == 2
    assert (
        "'Maester Cressen' names 2 different cards; write the pack in parentheses: Maester Cressen (Core Set, 46); "
        in result.stderr
    )
    binary = tmp_path / "deck.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_cli("deckcheck", str(binary), db=kb)
    assert result.returncode == 2 and "not UTF-8 text" in result.stderr
    for args, message in [
        (["--list", "Standard v9"], "no restricted list named 'Standard v9'; lists: Standard v2.1, Standard v1.16"),
        (["--list", ""], "no restricted list named ''; lists: Standard v2.1"),  # (review 24: took the newest silently)
        (["--edition", "1", "--as-of", "v0.1"], "--as-of v0.1: the FAQ's versions run from v1.0 to v5.5.1"),  # (review 24)
        (["--as-of", "v5.4"], "--as-of is for first-edition FAQ versions"),
        (["--edition", "1", "--list", "Standard v2.1"], "--list names a second-edition list"),
    ]:
        result = run_cli("deckcheck", str(DECKS / "agot2-stark-fealty.txt"), *args, db=kb)
        assert result.returncode == 2 and message in result.stderr, result.stderr
    missing = run_cli("deckcheck", str(tmp_path / "nope.txt"), db=kb)
    assert missing.returncode == 2 and "nope.txt" in missing.stderr and "Traceback" not in missing.stderr


def test_deckcheck_reads_stdin_and_needs_imported_cards(kb, db_path):
    import subprocess
    import sys

    env = {"JUDGEKB_DB": str(kb), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "judgekb", "deckcheck", "-"], input=STARK, capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert result.returncode == 0 and "[<stdin>, 2nd edition]" in result.stdout
    bare = run_cli("deckcheck", str(DECKS / "agot2-stark-fealty.txt"), db=db_path)  # the corpus alone, nothing imported
    assert bare.returncode == 2 and "no 2nd-edition card data imported: run judgekb import-cards" in bare.stderr


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_any_text_parses_or_is_refused_with_a_data_error(text):
    try:
        deck = decklists.parse(text, "fuzz.txt")
    except DataError as exc:
        assert str(exc).startswith("fuzz.txt")
        return
    assert deck.entries and all(1 <= e.count <= decklists.MAX_COUNT for e in deck.entries)


def test_every_clause_a_deck_check_cites_exists(db):
    for check_ in deckcheck.CHECKS.values():
        for ids in check_.clauses:
            assert store.clause(db, ids[0]) is not None, f"{check_.name} ({check_.edition}) cites missing clause {ids[0]}"


def test_a_json_export_s_problem_lines_name_the_card_not_only_its_code(db):
    """ThronesDB's JSON names cards by code: the sheet's line under a problem says which card ('"01146": 2,' alone
    sends the judge to a card database to find out it is Robb Stark)."""
    text = '{\n  "faction_code": "stark",\n  "agendas": ["01027"],\n  "slots": {\n    "01146": 2,\n    "06082": 1\n  }\n}\n'
    restricted = by_check(check(db, text))["restricted"][0]
    assert restricted.lines == [5, 6]
    assert restricted.source_lines == [
        '2x Robb Stark (Core Set, 146) — "01146": 2',
        "1x Passing the Black Gate (Oberyn's Revenge, 82) — \"06082\": 1",
    ]


def test_a_one_line_json_export_quotes_each_slot_not_the_whole_line(kb, tmp_path):
    """A hostile-input review (r43): a ThronesDB export is one line, and each problem quoted "line 1" whole, so 1,960
    unknown codes in a 255 KB post made a 508 MB answer (about 1 GB of a worker's memory).  A problem now quotes its
    slot as written; the sheet stays proportionate to the problems, whatever the padding."""
    data = json.loads((DECKS / "agot2-stark-fealty.json").read_text(encoding="utf-8"))
    data["slots"] = {**data["slots"], **{f"z{i}": 1 for i in range(1960)}}
    data["description_md"] = "x" * 200_000
    padded = tmp_path / "padded.json"
    padded.write_text(json.dumps(data), encoding="utf-8")  # one line
    result = run_cli("deckcheck", str(padded), "--json", db=kb)
    report = json.loads(result.stdout)
    assert result.returncode == 2 and report["verdict"] == "cannot be checked"  # (codes no card has)
    assert len(result.stderr) < 1_000_000, len(result.stderr)
    assert len(result.stdout) < 3_000_000, len(result.stdout)  # (before: about 250 MB)
    unknown = [p for p in report["problems"] if any("z1959" in line for line in p["source_lines"])]
    assert unknown and '"z1959": 1' in unknown[0]["source_lines"][0] and "xxxx" not in unknown[0]["source_lines"][0]


def test_an_unknown_faction_code_is_refused_as_bad_input(kb, tmp_path):
    """r43: a JSON list with faction_code 'wolves' was judged NOT LEGAL with a problem for every card ("… is a House
    Stark card in a wolves deck"); a code no faction has is a broken export, refused naming the field."""
    data = json.loads((DECKS / "agot2-stark-fealty.json").read_text(encoding="utf-8"))
    data["faction_code"] = "wolves"
    wolves = tmp_path / "wolves.json"
    wolves.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("deckcheck", str(wolves), db=kb)
    assert result.returncode == 2 and "field 'faction_code': unknown faction 'wolves' (one of baratheon" in result.stderr


# ---------------------------------------------------------------------------- review 26 (a head judge's deck checks)


def test_a_misspelt_agenda_in_an_export_is_not_ignored(db):
    """The export names the agendas right after the faction; a misspelt one ("Fealtyy") was 'ignored (not a card line)'
    and the deck called LEGAL, so an agenda's pod or deckbuilding rule was never checked."""
    report = check(db, swap(STARK, "Fealty\n\nPacks", "Fealtyy\n\nPacks"))
    assert report.verdict == "cannot be checked"
    unknown = by_check(report)[deckcheck.UNKNOWN.name][0]
    assert unknown.lines == [4] and "Fealty" in unknown.suggestions


def test_an_export_whose_title_starts_with_a_number_is_still_an_export(db):
    """A deck titled "59 draw, 8 plots" was read as a plain list whose first line is 59 copies of a card."""
    plain = check(db, STARK)
    numbered = check(db, swap(STARK, "Winter Wolves", "59 draw, 8 plots"))
    assert numbered.verdict == plain.verdict == "legal" and numbered.deck_title == "59 draw, 8 plots"
    assert numbered.counts == plain.counts


def test_a_draft_set_card_is_named_and_ruled_outside_the_pool(db):
    """Feast or Famine (Valyrian Draft Set) was 'no card named', so the plot deck counted 6; Treaty as the agenda too.
    Both cards' text says "Draft format only."; the deck is not legal, and its counts are whole."""
    report = check(db, swap(STARK, "1x Building Orders (Core Set)", "1x Feast or Famine (Valyrian Draft Set)"))
    assert report.verdict == "not legal" and report.counts["plots"] == 7
    outside = by_check(report)[deckcheck.OUTSIDE_POOL.name]
    assert "Feast or Famine" in outside[0].cards and 'its text says "Draft format only."' in outside[0].message
    assert any("Draft format only." in c.text for c in outside[0].cite)
    treaty = check(db, swap(STARK, "Fealty\n\nPacks", "Treaty\n\nPacks"))
    assert [p.cards for p in by_check(treaty)[deckcheck.OUTSIDE_POOL.name]] == [["Treaty"]]


def test_a_title_two_cards_share_is_the_one_the_list_allows(db):
    """ThronesDB's export writes the agenda's name alone; with the original Sea of Blood outside the card pool of the
    list in force, only the Redesigns card "could legally be in the deck" (TR Deck Lists), so it is the one meant,
    and the note says so; under a list whose pool has both, the pack is still asked for."""
    report = check(db, swap(STARK, "Fealty\n\nPacks", "Sea of Blood\n\nPacks"))
    assert deckcheck.AMBIGUOUS.name not in by_check(report)
    assert any("'Sea of Blood' is read as Sea of Blood (Redesigns" in n and "TR Deck Lists" in n for n in report.notes)
    assert report.agendas == ["Sea of Blood"]


def test_an_agenda_s_refusal_quotes_the_sentence_of_its_text_that_decides(db):
    report = check(db, swap(STARK, "Fealty\n\nPacks", "The Many-Faced God\n\nPacks"))
    forbids = [p.message for p in by_check(report)[deckcheck.AGENDA_TEXT.name]]
    assert forbids and all(m.endswith(': "Your plot deck cannot include Kingdom plot cards."') for m in forbids), forbids


def test_deckcheck_json_on_bad_input_still_prints_json(kb, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"slots": {"01001": 1,\n', encoding="utf-8")
    result = run_cli("deckcheck", str(broken), "--json", db=kb)
    assert result.returncode == 2
    out = json.loads(result.stdout)
    assert out["verdict"] == "cannot be checked" and "broken.json" in out["error"] and "not valid JSON" in out["error"]


def test_deckcheck_json_on_a_folder_prints_json_too(kb, tmp_path):
    """A hostile-input review (r43): `deckcheck DIR --json` printed click's usage error ("File 'DIR' is a directory"),
    not the JSON the README promises for bad input."""
    folder = tmp_path / "decks"
    folder.mkdir()
    result = run_cli("deckcheck", str(folder), "--json", db=kb)
    assert result.returncode == 2 and "Usage:" not in result.stderr, result.stderr
    out = json.loads(result.stdout)
    assert out == {"verdict": "cannot be checked", "error": f"{folder}: not a regular file (a FIFO, device or folder)"}


def test_only_an_exports_heading_reads_as_title_faction_and_agendas(db):
    """Review 28: the 'agenda after the faction' reading and 'above Packs: is heading' applied to lists that are not
    a ThronesDB export's heading: a hand-typed list's title after its faction became an unknown card; a 'Packs:' line
    at the end (or after the plots) made every card line above it a heading ('no card lines found')."""
    body = STARK.split("Packs:", 1)[1].split("\n", 1)[1]  # the plots and cards, without the export's heading
    typed = check(db, "House Stark\nFealty\nWinter Wolves, Store Championship 2nd place\n" + body)
    assert typed.verdict == "legal", [p.message for p in typed.problems]
    at_the_end = check(db, "Winter Wolves\n\nHouse Stark\nFealty\n" + body + "\nPacks: From Core Set to Redesigns II\n")
    assert at_the_end.verdict == "legal" and at_the_end.counts == check(db, STARK).counts


def test_a_deck_named_after_an_agenda_keeps_its_name(db):
    """A deck-check review (r45): the export's first line is the deck's name, above its faction; a deck named "Fealty"
    with no agenda was held to Fealty's 15-neutral-card limit, and one named after the agenda it runs counted two
    copies of it.  The line above the faction is the name, whatever card it also names."""
    named = check(db, swap(STARK, "Winter Wolves\n", "Fealty\n"))
    assert named.verdict == "legal" and named.deck_title == "Fealty" and named.agendas == ["Fealty"], [p.message for p in named.problems]
    no_agenda = check(db, swap(swap(STARK, "Winter Wolves\n", "Fealty\n"), "House Stark\nFealty\n", "House Stark\n"))
    assert no_agenda.deck_title == "Fealty" and no_agenda.agendas == []
    assert "agenda-text" not in by_check(no_agenda), [p.message for p in no_agenda.problems]


def test_a_list_naming_no_faction_card_gets_no_verdict(db):
    """r45: a list with no faction card came out LEGAL, its faction a guess (the most common one) that decides which
    cards are out of faction.  RR Deckbuilding: "exactly 1 faction card"; the list is incomplete, so no verdict: the
    problem says what the rest was checked as and to ask the player (TR Deck Lists: the leader completes the list)."""
    body = swap(STARK, "House Stark\nFealty\n", "Fealty\n")
    report = check(db, body)
    assert report.verdict == "cannot be checked"
    missing = by_check(report)[deckcheck.FACTION.name][0]
    assert "names no faction card: the rest is checked as House Stark" in missing.message and "ask the player" in missing.message
    assert [c.id for c in missing.cite] == ["agot2-rr/deckbuilding"]
    assert any("names no faction card" in line for line in deckcheck.unreadable_lines(report))


def test_a_count_short_only_by_an_unread_line_says_so(db):
    """r45: a typo'd line ("Direwolf Pupp") gave, besides the unknown card, "57 cards in the draw deck: the minimum is
    60" for a 60-card list, read by a judge as a second fault.  The count now says it leaves those cards out."""
    pups, stewards = (next(ln for ln in STARK.splitlines() if name in ln) for name in ("Direwolf Pup", "Winterfell Steward"))
    body = swap(swap(STARK, pups, pups.replace("Direwolf Pup", "Direwolf Pupp")), stewards + "\n", "")  # 63 - 3 cards: 60
    report = check(db, body)
    assert report.verdict == "cannot be checked"
    short = by_check(report)[deckcheck.DRAW_MINIMUM.name][0]
    assert short.message.startswith("57 cards in the draw deck: the minimum is 60"), short.message
    assert short.message.endswith("(not counting the 3 card(s) on lines that name no card, or several)"), short.message


def test_an_agenda_s_count_lists_the_cards_it_counted(db):
    """r45 (its deck d38, a Stark deck with The White Book and six Kingsguard): "at least 7 different character
    Kingsguard cards; it has 6" pointed only at the agenda's line.  The count now lists the cards it counted, and
    says them as the card does ("Kingsguard character")."""
    text = (DECKS / "agot2-white-book-six-kingsguard.txt").read_text(encoding="utf-8")
    wb = by_check(check(db, text))[deckcheck.AGENDA_TEXT.name][0]
    assert wb.message.startswith("The White Book: the deck must include at least 7 different Kingsguard character cards; it has 6")
    counted = [s for s in wb.source_lines if "Ser " in s]
    assert len(counted) == 6 and len(wb.lines) == 7, wb.source_lines


def test_a_list_of_the_edition_whose_cards_are_not_imported_says_so(db_path, tmp_path):
    """A hostile-input review (r43): with only first-edition card data imported, a ThronesDB second-edition export was
    read as a first-edition list, some 40 names unknown and "0 plots, 0 draw cards", and nothing said the second
    edition's card data was missing.  Now a note says so and how to import it."""
    import shutil

    from judgekb.cards import cardimport
    from tests.conftest import SHARED_CARDS

    only1 = tmp_path / "only1.sqlite"
    shutil.copy(db_path, only1)
    db1 = store.connect(only1, read_only=False)
    cardimport.apply(db1, cardimport.read(SHARED_CARDS / "agot1" / "agot1.json"))
    report = deckcheck.check(db1, decklists.parse(STARK, "deck.txt"))
    assert report.verdict == "cannot be checked"
    said = [n for n in report.notes if "no second-edition card data is imported" in n]
    assert said and "import-cards ../shared/cards/agot2-throneteki" in said[0], report.notes
    db1.conn.close()


def test_uniting_the_realm_says_its_count_takes_in_the_deck_s_own_faction(db):
    """r45 (its deck d37): "17 different House Stark cards; at most 3" for the deck's own faction surprised a head
    judge; the card's literal text counts each faction.  The message says the own faction counts, in the card's words."""
    text = (DECKS / "agot2-uniting-the-realm-own-faction.txt").read_text(encoding="utf-8")
    said = [p.message for p in by_check(check(db, text))[deckcheck.AGENDA_TEXT.name] if "House Stark" in p.message]
    assert said and "(the deck's own faction too)" in said[0], said
    assert '"You cannot include more than 3 different cards (by title) from each faction in your deck."' in said[0]
