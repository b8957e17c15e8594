"""The deck-check page: Flask's client for the API and limits, then the real browser (phone and
desktop screenshots, and the printed one-page sheet) against `judgekb serve`.
"""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pytest

from judgekb.cards import deckcheck, decklists
from judgekb.web.app import MAX_REQUEST_BYTES, create_app
from tests.conftest import CORPUS, ROOT, run_cli
from tests.web.test_browser import SHOTS, _no_horizontal_scroll, _page  # (browser, server: conftest fixtures)

DECKS = ROOT / "tests" / "decks"


@pytest.fixture(scope="module")
def db_path(imported_db_path: Path) -> Path:
    """Overrides conftest's: the corpus with both card databases imported (conftest's session build,
    read only here), for this module's server too."""
    return imported_db_path


@pytest.fixture(scope="module")
def server(db_path: Path):
    """Overrides conftest's (session-wide, on the database without cards): `judgekb serve` on this module's."""
    from tests.browser_support import serving

    with serving(db_path) as base:
        yield base


@pytest.fixture(autouse=True)
def _patient_deadline(monkeypatch):
    """The web's 2 s deck-check deadline, lifted for tests of what a check says: on a busy machine (three test
    processes on two cores) it, not the list, decided a page's answer.  The deadline's own test sets its own."""
    monkeypatch.setattr(deckcheck, "WEB_SECONDS", 30.0)


@pytest.fixture(scope="module")
def client(db_path: Path):
    return create_app(db_path, CORPUS).test_client()


def test_the_api_returns_what_the_command_line_prints(client, db_path):
    text = (DECKS / "agot2-greyjoy-illegal.txt").read_text(encoding="utf-8")
    api = client.post("/api/deckcheck?format=joust", data=text.encode())
    assert api.status_code == 200
    cli = json.loads(run_cli("deckcheck", str(DECKS / "agot2-greyjoy-illegal.txt"), "--json", db=db_path).stdout)
    got = api.get_json()
    assert got["source"] == "posted decklist"
    assert {k: v for k, v in got.items() if k != "source"} == {k: v for k, v in cli.items() if k != "source"}


def test_bad_requests_get_a_4xx_with_the_reason(client):
    assert client.post("/api/deckcheck", data=b"").get_json() == {"error": "posted decklist: the decklist is empty", "status": 422}
    bad = client.post("/api/deckcheck?format=sealed", data=b"3 Hodor")
    assert bad.status_code == 400 and bad.get_json()["error"] == "format must be joust or melee"
    unknown = client.post("/api/deckcheck", data=b"House Stark\n3x Direwolf Pupp (Core Set)\n")
    assert unknown.status_code == 422 and unknown.get_json()["verdict"] == "cannot be checked"
    assert unknown.get_json()["problems"][0]["suggestions"][0] == "Direwolf Pup"
    too_long = "\n".join(["3x Hodor (Core Set)"] * (decklists.MAX_LINES + 1))
    assert client.post("/api/deckcheck", data=too_long.encode()).status_code == 422
    huge = client.post("/api/deckcheck", data=b"3x Hodor\n" * (MAX_REQUEST_BYTES // 8))
    assert huge.status_code == 413
    page = client.post("/deckcheck", data={"decklist": "3x Hodor (Core Set)\nnot a card line\n"})
    assert page.status_code == 422 and "pasted decklist:2: not a card line" in page.get_data(as_text=True)
    upload = client.post(
        "/deckcheck", data={"file": (__import__("io").BytesIO(b"\xff\xfe\x00"), "deck.txt")}, content_type="multipart/form-data"
    )
    assert upload.status_code == 422 and "deck.txt: not UTF-8 text" in upload.get_data(as_text=True)


def test_the_page_escapes_what_it_echoes(client):
    page = client.post("/deckcheck", data={"decklist": "<script>alert(1)</script>\nHouse Stark\n3x <b>Hodor</b> (Core Set)\n"})
    body = page.get_data(as_text=True)
    assert "<script>alert(1)" not in body and "&lt;script&gt;" in body


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_paste_a_thronesdb_export_and_print_the_sheet(server, browser, size):  # noqa: F811
    context, page = _page(browser, size)
    page.goto(server + "/deckcheck")
    page.fill("#decklist", (DECKS / "agot2-greyjoy-illegal.txt").read_text(encoding="utf-8"))
    page.click("#check")
    page.wait_for_selector("#sheet")
    assert page.inner_text("#verdict") == "NOT LEGAL"
    sheet = page.inner_text("#sheet")
    assert "Checked against: Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01), joust" in sheet
    assert "line 19: 3x Raider from Pyke (Calm over Westeros)" in sheet
    link = page.locator("li.problem[data-check=loyal] a.citation").first
    assert link.get_attribute("href") == "/c/agot2-rr/loyal"
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"deckcheck-{size}.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('form.deckcheck')).display") == "none"
    assert page.is_visible("#verdict") and page.is_visible("li.problem[data-check=card-pool]")
    if size == "desktop":
        pdf = SHOTS / "deckcheck-sheet.pdf"
        page.pdf(path=str(pdf), format="A4")
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
        assert pages == 1, f"the deck-check sheet prints on {pages} pages"
        page.screenshot(path=str(SHOTS / "deckcheck-sheet-print.png"), full_page=True)
    page.emulate_media(media="screen")
    link.click()
    page.wait_for_selector("#citation")
    assert "Loyal" in page.inner_text("#citation")
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_upload_a_first_edition_list(server, browser, size):  # noqa: F811
    context, page = _page(browser, size)
    page.goto(server + "/deckcheck")
    page.set_input_files("input[name=file]", str(DECKS / "agot1-stark-illegal.txt"))
    page.fill("input[name=as_of]", "v5.4")
    page.click("#check")
    page.wait_for_selector("#sheet")
    sheet = page.inner_text("#sheet")
    assert page.inner_text("#verdict") == "NOT LEGAL"
    assert "restricted and banned lists as of v5.4" in sheet and "The Conclave was removed from it by v5.5.1" in sheet
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / f"deckcheck-agot1-{size}.png"), full_page=True)
    context.close()


def test_card_page_lists_section_in_the_browser(server, browser):  # noqa: F811
    context, page = _page(browser, "phone")
    page.goto(server + "/card?name=Raider+from+Pyke&edition=2")
    section = page.inner_text("#lists")
    assert "In force: Standard v2.1 (Global Operations Team (G.O.T.), 2026-07-01)" in section
    assert "Calm over Westeros 91: banned: outside this list's card pool (a printing the list bans)" in section
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / "card-lists-phone.png"), full_page=True)
    context.close()


def test_a_list_that_cannot_be_read_keeps_the_pasted_text_and_options(server, browser):  # noqa: F811
    """A bad line is reported above the same form, the judge's paste and choices kept (not a bare error page)."""
    context, page = _page(browser, "phone")
    page.goto(server + "/deckcheck")
    pasted = (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8").replace("3x Direwolf Pup (Core Set)", "Direwolf Pup")
    page.fill("#decklist", pasted)
    page.select_option("select[name=format]", "melee")
    with page.expect_response(lambda r: r.url.endswith("/deckcheck") and r.request.method == "POST") as answer:
        page.click("#check")
    assert answer.value.status == 422
    page.wait_for_selector("#deck-error")
    assert "pasted decklist:17: not a card line" in page.inner_text("#deck-error")
    assert page.input_value("#decklist").replace("\r\n", "\n") == pasted
    assert page.input_value("select[name=format]") == "melee"
    _no_horizontal_scroll(page)
    page.screenshot(path=str(SHOTS / "deckcheck-unreadable-phone.png"), full_page=True)
    context.close()


def test_a_file_and_a_paste_together_are_refused_not_one_dropped(client):
    """(review 19) With a file chosen and text pasted, the file was checked and the paste dropped without a word."""
    pasted = (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8")
    upload = (io.BytesIO((DECKS / "agot1-stark-legal.txt").read_bytes()), "other.txt")
    page = client.post("/deckcheck", data={"decklist": pasted, "file": upload}, content_type="multipart/form-data")
    body = page.get_data(as_text=True)
    assert page.status_code == 422 and "both a file (other.txt) and pasted text were given" in body
    assert "Direwolf Pup" in body.split('id="decklist"')[1].split("</textarea>")[0]  # the paste is kept


def test_the_sheet_names_a_dated_list_once(client):
    """(review 19) "Checked against: Standard v2.1 (…), joust" was followed by the same words again as its citation."""
    page = client.post("/deckcheck", data={"decklist": (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8")})
    said = page.get_data(as_text=True).split('class="deck-list"')[1].split("</p>")[0]
    name = said.split("<strong>")[1].split("</strong>")[0]
    assert name.startswith("Standard v") and said.count(name) == 1 and 'class="url"' in said, said


def test_the_page_names_its_own_fields_not_the_command_line_s_options(client):
    """A judge on the page never saw --list or --as-of: the messages name the fields (“List (2nd)”, “FAQ as of (1st)”)."""
    second = (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8")
    page = client.post("/deckcheck", data={"decklist": second, "as_of": "v5.4"})
    body = page.get_data(as_text=True)
    assert page.status_code == 422 and "--" not in re.sub(r"<!--.*?-->", "", body.split('id="deck-error"')[1].split("</p>")[0])
    assert "choose a second-edition list with “List (2nd)”" in body
    first = (DECKS / "agot1-stark-legal.txt").read_text(encoding="utf-8")
    page = client.post("/deckcheck", data={"decklist": first, "edition": "2"})
    notes = page.get_data(as_text=True).split('class="notes"')[1].split("</ul>")[0]
    assert "this looks like a first-edition list; check it with Edition “1st” (or with Edition “detect”, which detects it)" in notes
    assert "--edition" not in notes


def test_the_api_refuses_text_that_is_not_utf8_and_names_its_own_parameters(client):
    """A hostile-input review (r43): /api/deckcheck decoded a Latin-1 body with replacement characters and checked it
    ("no card named 'Dir\ufffdwolf Pup'") where the command line refuses it; its messages named --as-of and --edition,
    flags the API has not (its parameters are as_of and edition)."""
    second = (DECKS / "agot2-stark-fealty.txt").read_text(encoding="utf-8")
    latin1 = second.replace("Direwolf", "Dir\xe9wolf", 1).encode("latin-1")
    refused = client.post("/api/deckcheck", data=latin1)
    byte = latin1.index(b"\xe9")
    assert refused.status_code == 422 and refused.get_json()["error"] == f"posted decklist: not UTF-8 text (byte {byte})"
    first = (DECKS / "agot1-stark-legal.txt").read_text(encoding="utf-8").encode()
    bad_as_of = client.post("/api/deckcheck?as_of=zzz&edition=1", data=first)
    assert bad_as_of.status_code == 422 and bad_as_of.get_json()["error"] == "as_of must be a FAQ version such as v5.4; got 'zzz'"
    mixed = client.post("/api/deckcheck?as_of=v5.4", data=second.encode())
    assert mixed.get_json()["error"] == "as_of is for first-edition FAQ versions; choose a second-edition list with list=NAME"
    wrong = client.post("/api/deckcheck?edition=2", data=first).get_json()
    assert any("check it with edition=1 (or with edition=auto, which detects it)" in n for n in wrong["notes"]), wrong["notes"]
    assert "--" not in json.dumps(wrong["notes"]) + json.dumps([p["message"] for p in wrong["problems"]])


# ---------------------------------------------------------------------------- bounded work (hostile-input review)


def test_a_very_long_card_name_is_refused_before_fuzzy_matching(client, db_path):
    """A 100,000-character name took 15 s to fuzzy-match and came back in a 206 KB body; 100 lines of
    2,000-character names took 27 s.  A name longer than guard.MAX_NAME_CHARS is refused at once, naming its line."""
    started = time.monotonic()
    api = client.post("/api/deckcheck", data=("3x " + "A" * 100_000 + "\n").encode())
    assert api.status_code == 422 and len(api.get_data()) < 1000
    assert api.get_json()["error"].startswith("posted decklist:1: a card name has at most 200 characters; got '3x AAA")
    lines = "\n".join(f"3x {chr(65 + n % 26) * 2000}" for n in range(100))
    page = client.post("/deckcheck", data={"decklist": lines})
    assert page.status_code == 422 and "pasted decklist:1: a card name has at most 200 characters" in page.get_data(as_text=True)
    assert time.monotonic() - started < 3
    cli = run_cli("deckcheck", "-", db=db_path, stdin="3x " + "A" * 100_000)
    assert cli.returncode == 2 and "<stdin>:1: a card name has at most 200 characters" in cli.stderr and "Traceback" not in cli.stderr


def test_only_the_first_unknown_names_are_fuzzy_matched(client, monkeypatch):
    """1,200 unknown 200-character names took 40 s, each fuzzy-matched.  Only the first MAX_SUGGESTED are now.  The
    check's deadline (2 s on the web) is lifted here: under a busy machine (the suite in two processes) it, not the
    names matched, decided the answer, and the deadline has its own test below."""
    monkeypatch.setattr(deckcheck, "WEB_SECONDS", 60.0)
    names = "\n".join(f"3x Zzqx {'Card ' * 38}{n}" for n in range(1200))
    report = client.post("/api/deckcheck?edition=2", data=names.encode())
    got = report.get_json()
    assert report.status_code == 422 and got["verdict"] == "cannot be checked"
    suggested = [p for p in got["problems"] if p["suggestions"]]
    assert len(suggested) == deckcheck.MAX_SUGGESTED and got["problems"][deckcheck.MAX_SUGGESTED]["suggestions"] == []
    assert f"nearest names are given for the first {deckcheck.MAX_SUGGESTED} of the 1200 names no card has" in got["notes"]


def _spin(*args, **kwargs):
    end = time.monotonic() + 60
    while time.monotonic() < end:
        pass


def test_a_deck_check_has_a_deadline(client, monkeypatch):
    monkeypatch.setattr(deckcheck, "WEB_SECONDS", 0.5)
    monkeypatch.setattr(deckcheck, "resolve", _spin)
    started = time.monotonic()
    api = client.post("/api/deckcheck", data=(DECKS / "agot2-stark-fealty.txt").read_bytes())
    assert api.status_code == 422 and api.get_json()["error"] == "posted decklist: the deck check took longer than 0.5s; stopped"
    page = client.post("/deckcheck", data={"decklist": "3x Hodor\n"})
    assert page.status_code == 422 and "the deck check took longer than 0.5s" in page.get_data(as_text=True)
    assert time.monotonic() - started < 5


def test_deck_checks_take_a_busy_slot_so_searches_still_answer(client):
    slots = client.application.config["JUDGEKB"].scenario_slots
    held = [slots.take() for _ in range(slots.count)]
    try:
        assert all(h.__enter__() for h in held)  # every slot busy, as under a burst of costly lists
        busy = client.post("/api/deckcheck", data=(DECKS / "agot2-stark-fealty.txt").read_bytes())
        assert busy.status_code == 429 and "try again" in busy.get_json()["error"]
        assert client.post("/deckcheck", data={"decklist": "3x Hodor\n"}).status_code == 429
        assert client.get("/api/search?q=claim").status_code == 200
    finally:
        for h in held:
            h.__exit__(None, None, None)
    assert client.post("/api/deckcheck", data=(DECKS / "agot2-stark-fealty.txt").read_bytes()).status_code == 200
