"""Keyword lookup on the real corpus: quality on the evaluation set, the JSON contract, bad input."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from judgekb.lookup import evaluation, search, words
from tests.conftest import ROOT, run_cli

EVAL = ROOT / "tests" / "eval" / "lookup.yaml"


@pytest.fixture(scope="module")
def index(db):
    return search.Index(db)


def test_evaluation_set_is_large_and_answerable(clauses):
    items = evaluation.load(EVAL)
    assert len(items) >= 100
    assert {i.edition for i in items} == {1, 2}
    for item in items:  # every expected phrase really is in some clause of that edition
        assert any(c["edition"] == item.edition and evaluation.answers(item, c) for c in clauses), item


def test_lookup_quality_on_the_evaluation_set(index):
    items = evaluation.load(EVAL)
    result = evaluation.score(items, lambda it: search.results(index, it.query, it.edition, None, 5)[0])
    misses = "\n".join(f"{rank} {it.query!r} -> {ids}" for it, rank, ids in result["misses"])
    assert result["top1"] >= 0.85, misses
    assert result["top5"] >= 0.95, misses


def test_done_when_queries(db_path):
    moribund = json.loads(run_cli("search", "moribound", "--json", db=db_path).stdout)
    assert moribund[0]["id"] == "agot1-faq/timing/moribund"
    tie = run_cli("search", "who wins a tie in a challenge", "--edition", "1", db=db_path)
    assert tie.returncode == 0
    assert tie.stdout.splitlines()[0].endswith("[agot1-faq/qa/challenge-tie]")
    # (matched words in «guillemets» on the command line: brackets are the texts' icons, blind review r87 L3)
    assert "the attacker always «wins» «ties» in «challenges»." in tie.stdout


def test_json_contract(db_path, db):
    hits = json.loads(run_cli("search", "stealth", "--edition", "1", "--limit", "3", "--json", db=db_path).stdout)
    assert 1 <= len(hits) <= 3
    for hit in hits:
        assert {"id", "citation", "edition", "kind", "heading", "text", "score"} <= set(hit)
        row = next(db.query("select text, citation from clauses where id = ?", [hit["id"]]))
        assert hit["text"] == row["text"] and hit["citation"] == row["citation"]
        assert hit["edition"] == 1 and isinstance(hit["score"], float)
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_superseded_and_unofficial_texts_fold_under_what_governs_them(index, db):
    governed = {r["clause"] for r in db.query("select clause from governors")}
    for query in (
        "duplicates have no text titles or traits",
        "deadly keyword",
        "stealth",
        "infinite loop",
        "tokens control",
        "what is derived information",
    ):
        hits, _ = index.search(query, None, None, 10)
        assert not [h.id for h in hits if h.id in governed], query
    hits, _ = index.search("Duplicates have no text, titles, or traits", 1, None, 5)
    folded = {f["id"]: f["relation"] for h in hits for f in h.folded}
    assert folded.get("agot1-rules/duplicates") == "superseded"
    assert folded.get("agot1-summary/duplicates") == "restates"


def test_filters(index):
    hits, _ = index.search("terminal", 2, None, 10)
    assert hits and all(index.clauses[h.id]["edition"] == 2 for h in hits)
    errata, _ = index.search("should read", 1, ["errata"], 10)
    assert errata and all(index.clauses[h.id]["kind"] == "errata" for h in errata)


def test_card_names_and_typos(index):
    hits, _ = index.search("Naval Escort", 1, None, 3)
    assert "agot1-faq/errata/naval-escort-dotn-f48" in [h.id for h in hits]
    hits, _ = index.search("Catelyn Stark", 2, None, 3)
    assert hits[0].id == "agot2-faq41/qa/catelyn-stark"  # the FAQ in force (v4.1), not v2.3
    hits, _ = index.search("vigilent", 1, None, 1)
    assert hits[0].id == "agot1-rules/vigilant"


@pytest.mark.parametrize(
    ("query", "code", "expect"),
    [
        ("", 2, "empty query"),
        ("   \t ", 2, "empty query"),
        ("!!! ??? ...", 0, "no words"),
        ('"unbalanced quote', 0, ""),
        ("NEAR(deadly stealth, 2)", 0, ""),
        ("stealth* ^deadly -kill col:umn (((", 0, ""),
        ("dead\x01ly\x07", 0, ""),
    ],
)
def test_bad_input_never_gives_a_traceback(db_path, query, code, expect):
    result = run_cli("search", query, db=db_path)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and expect in result.stderr
    if code == 0:
        as_json = run_cli("search", query, "--json", db=db_path)
        assert isinstance(json.loads(as_json.stdout), list)


def test_a_long_story_is_shortened_to_the_words_that_ask_its_question(index):
    """Review 31: a 100-word table story that asks last ("... does the terminal attachment go back to my
    hand or get discarded") was cut to its first 64 words, the question lost: no terminal clause in the
    top 3. The words kept are those that end with the question (its last question mark, else its end)."""
    story = (
        "so we were playing in the second round of the store championship and my opponent was on Lannister "
        "with the Banner of the Stag while I was on Stark with the Rains and during the challenges phase after "
        "I had already marshaled a bunch of guys and put some attachments on them we got into an argument "
        "because he initiated a military challenge against me and I defended with two characters and lost "
    )
    asked = "when my character with a terminal attachment on it is killed does the terminal attachment go back to my hand or get discarded"
    for query in (story + "and I had to kill one so " + asked, story + asked + "? thanks, the judge was busy"):
        hits, notes = index.search(query, 2, None, 3)
        assert [n for n in notes if n.startswith("query shortened to") and "64 words" in n], notes
        assert "agot2-rr/terminal" in [h.id for h in hits], (notes, [h.id for h in hits])
    _, notes = index.search(asked + "? " + story + story, 2, None, 3)  # asked first: the first words hold it
    assert "query shortened to its first 64 words" in notes, notes


def test_long_and_non_utf8_queries(db_path):
    long = run_cli("search", "deadly " * 2000, "--json", db=db_path)
    assert long.returncode == 0 and "shortened" in long.stderr and json.loads(long.stdout)
    import os
    import subprocess
    import sys

    env = dict(os.environ, JUDGEKB_DB=str(db_path))
    raw = subprocess.run([sys.executable, "-m", "judgekb", "search", b"st\xffealth\xfe"], capture_output=True, env=env, cwd=ROOT)
    assert raw.returncode == 0 and b"Traceback" not in raw.stderr
    bad_limit = run_cli("search", "deadly", "--limit", "0", db=db_path)
    assert bad_limit.returncode == 2
    bad_kind = run_cli("search", "deadly", "--kind", "bogus", db=db_path)
    assert bad_kind.returncode == 2 and "unknown --kind" in bad_kind.stderr


# ---------------------------------------------------------------------------- issue 15: how players talk

PLAYERS = ROOT / "tests" / "eval" / "players.yaml"


def test_player_set_is_written_the_way_players_ask(db):
    """The shape the issue asks for: 250+ queries, 40 %+ questions, 30 %+ using a word their answer
    lacks, about half second edition, card names, typos and slang; every expected id exists."""
    items = evaluation.load_players(PLAYERS)
    texts = {r["id"]: f"{r['heading']} {r['text']}" for r in db.query("select id, heading, text from clauses")}
    assert len(items) >= 250
    assert sum(i.question for i in items) / len(items) >= 0.40
    gaps = [evaluation.vocabulary_gap(i, [texts[e] for e in i.expect if e in texts]) for i in items if not i.absent]
    assert sum(gaps) / len(items) >= 0.30
    assert 0.4 <= sum(i.edition == 2 for i in items) / len(items) <= 0.65
    assert sum("card" in i.tags for i in items) >= 20 and sum(bool({"typo", "slang"} & set(i.tags)) for i in items) >= 40
    missing = [(i.query, e) for i in items for e in i.expect if not e.startswith("absent:") and e not in texts]
    assert not missing
    assert {i.absent for i in items if i.absent} <= set(evaluation.ABSENT_NAMES)
    halves = {i.half for i in items}
    assert halves == {"dev", "test"} and evaluation.half("stelth") == evaluation.half(" Stelth ")
    for item in items:  # second-edition answers come from the documents in force
        if item.edition == 2 and not item.absent:
            assert all(e.split("/")[0] in {"agot2-rr", "agot2-faq41", "agot2-tr"} for e in item.expect), item


@pytest.mark.parametrize(("half", "top1", "top5"), [("dev", 0.77, 0.92), ("test", 0.73, 0.89)])
def test_player_lookup_quality(index, half, top1, top5):
    """Floors just under the figures bench/lookup.py reports, so a regression fails (not targets)."""
    items = [i for i in evaluation.load_players(PLAYERS) if i.half == half]
    ranks = [evaluation.player_rank(i, *search.results(index, i.query, i.edition, None, 5)) for i in items]
    score = evaluation.player_score(ranks)
    # the frozen half's misses are never printed: no change may be tuned on them
    misses = "\n".join(f"{r} {i.query!r}" for i, r in zip(items, ranks, strict=True) if r != 1) if half == "dev" else ""
    assert score["top1"] >= top1, misses
    assert score["top5"] >= top5, misses


def test_blind_review_questions_lookup_quality(index, db):
    """The blind reviews' table questions (tests/eval/blind-reviews.yaml): floors just under the figures
    bench/lookup.py reports, so a regression fails; every expected id exists."""
    items = evaluation.load_players(ROOT / "tests" / "eval" / "blind-reviews.yaml")
    known = {r["id"] for r in db.query("select id from clauses")}
    assert len(items) >= 85 and not [e for i in items for e in i.expect if not e.startswith("absent:") and e not in known]
    ranks = [evaluation.player_rank(i, *search.results(index, i.query, i.edition, None, 5)) for i in items]
    score = evaluation.player_score(ranks)
    misses = "\n".join(f"{r} {i.query!r}" for i, r in zip(items, ranks, strict=True) if r != 1)
    assert score["top1"] >= 0.88 and score["top5"] >= 0.96, misses


def test_typo_correction_never_turns_a_real_word_into_another(index):
    for word in ("tapped", "knocked", "gone", "blocked", "exiled", "graveyard"):
        assert index.correct(word, 2) is None, word
    assert index.correct("stelth", 2) == "stealth"
    assert index.correct("moribund", 1) is None and index.correct("morribund", 1) == "moribund"



NOT_ENGLISH = "the corpus is in English: the query has no English words to look up"
FOREIGN = "the corpus is in English; most words of the query are not English words: results are from the few words read"
# players' questions as they type them: typos, slang, a stray small word that is another language's too
TYPO_QUESTIONS = [
    "can a stelth character be blocked", "who wins initative if its tied", "can i dupe a unique character during setup",
    "can my tapped guy still defend", "wat happens if i run out of cards to draw", "does renoun trigger on a challange i win by one",
    "can i use a dupe to save from militery claim", "how does intimdation work",
    "does the attachement stay when the charcter returns to hand",
    "can i respond to a reponse", "who wins the challange if its a tie", "is insight triggerd on an unopposed challenge",
    "can i marshal a charcter durring the challenges phase", "wich player goes first in taxation", "can u kill a charcter with 0 stregnth",
    "de-dupe a card, is that legal", "can i kneel un-opposed characters", "stelth", "initative", "tapped dupe",
    "does Balon Swann count as a knight for Ser Gerris Drinkwater", "la la land",
]  # fmt: skip


def test_a_query_in_another_language_is_told_the_corpus_is_english(index, db_path):
    """A blind review: "挑战平局谁赢" and "кто выигрывает при ничьей" were told "the query has no words to
    look up"; "¿Quién gana un desafío en caso de empate?" read "empate" as "empted" and ranked a tournament
    clause first, with no word that the question was not read; "qui gagne une égalité lors d'un défi" read
    "egalite" as "legality".  Now the corpus's language is said, and no foreign word is "corrected"."""
    for query in ("挑战平局谁赢", "кто выигрывает при ничьей"):
        out = run_cli("search", "--edition", "2", query, db=db_path)
        assert out.returncode == 0 and out.stdout.strip() == "No results.", out
        assert out.stderr.strip() == f"judgekb: {NOT_ENGLISH}", out.stderr
    assert index.search("???", 2, None, 5)[1] == ["the query has no words to look up"]  # no letters at all: as before
    for query, not_read in [
        ("¿Quién gana un desafío en caso de empate?", ["empted"]),
        ("qui gagne une égalité lors d'un défi", ["legality", "lords"]),
        ("Wer gewinnt eine Herausforderung bei Gleichstand", []),
        ("chi vince una sfida in caso di parità", ["part"]),
        ("quem ganha um desafio em caso de empate", ["empted"]),
    ]:
        for edition in (2, None):
            _, notes = index.search(query, edition, None, 5)
            assert notes and notes[0] == FOREIGN, (query, notes)
            assert not [n for n in notes if n.startswith("spelling") or "check the spelling" in n], (query, notes)
            assert not [n for n in notes if "not words the rules use" in n or "card's own text" in n], (query, notes)
            assert not [w for w in not_read if w in " ".join(notes)], (query, notes)
    out = run_cli("search", "--edition", "2", "¿Quién gana un desafío en caso de empate?", db=db_path)
    assert out.returncode == 0 and out.stderr.startswith(f"judgekb: {FOREIGN}") and "empted" not in out.stderr, out


def test_english_typos_and_slang_are_never_taken_for_another_language(index):
    """Kept conservative: a typo'd English question ("stelth", "initative", "charcter"), slang ("dupe",
    "tapped") and names the rules never write ("Balon Swann") read as English; their typos are still mended."""
    for query in TYPO_QUESTIONS:
        assert not index.foreign(query), query
        for edition in (2, None):
            _, notes = index.search(query, edition, None, 5)
            assert not [n for n in notes if "corpus is in English" in n], (query, notes)
    _, notes = index.search("can a stelth character be blocked", 2, None, 5)
    assert any('"stelth" also as "stealth"' in n for n in notes), notes


def test_a_typo_is_an_edit_or_two_from_the_word_it_meant(index):
    """A player's own words the corpus lacks ("lanni", "bara", "valyrian") were read as rules words a
    fuzzy ratio found ("planning", "area", "variant"): a typo is one edit from a word of four letters,
    two from a longer one, and the commonest slips still mend."""
    for word, edition in [("lanni", 2), ("bara", 2), ("targ", 2), ("valyrian", 1), ("valyrian", 2), ("wildlings", 2),
                          ("direwolves", 2), ("hodr", 1)]:  # fmt: skip
        assert index.correct(word, edition) is None, (word, edition)
    for word, meant in [("hapen", "happen"), ("befor", "before"), ("copys", "copy"), ("challange", "challenge"),
                        ("strenght", "strength"), ("ambsuh", "ambush")]:  # fmt: skip
        assert index.correct(word, 2) == meant, word
    # the factions' short names are the player vocabulary's, never a typo
    analysis = index.analyse("lanni cards in a bara deck, can targ run gj cards", 2)
    said = {w for g in analysis["groups"] for w in g.terms}
    assert {"lannister", "baratheon", "targaryen", "greyjoy"} <= said and not analysis["corrected"]
    # a misspelled plural is a typo, not a name the rules never use
    hits, notes = index.search("can i have 2 copys of a unique character out", 2, None, 3)
    assert not any(n.startswith("not in the corpus") for n in notes) and hits[0].id == "agot2-rr/unique-cards"

def test_a_query_of_question_words_or_an_edition_alone_asks_for_more(index):
    """'what is the' and '2.0' got five arbitrary clauses (Derived Information, Pairings; 2.2 Draw for the
    '2' of the edition's name): nothing in them says what is asked.  One word is still a term ('you')."""
    for query, said in [("what is the", "only question words"), ("how do i", "only question words"),
                        ("2.0", "names second edition and nothing more"), ("first edition", "names first edition")]:  # fmt: skip
        hits, notes = index.search(query, None, None, 5)
        assert not hits and any(said in n for n in notes), (query, notes)
    assert index.search("you", 2, None, 1)[0][0].id == "agot2-faq41/2.7"
    # words that name rules stay questions (a review: "would", "you" are small words, but terms)
    for query, first in [("what does would mean", "agot2-rr/the-word-would"), ("what is would", "agot2-rr/the-word-would"),
                         ("you or your", "agot2-faq41/2.7"), ("what then", "agot2-rr/the-word-then")]:  # fmt: skip
        assert index.search(query, 2, None, 1)[0][0].id == first, query
    assert index.search("2.0 kneel", None, None, 1)[0][0].id == "agot2-rr/kneel"


def test_one_no_longer_names_i_am_no_one(index):
    named = lambda q: index.cards_named(index.analyse(q, 2), 2)  # noqa: E731
    assert "card:2:i-am-no-one" in named("I Am No One")
    for query in ("one last question about claim", "one copy limit for plots?", "no one defends"):
        assert "card:2:i-am-no-one" not in named(query), query
    assert not named("stelth")  # a corrected word never names a card


def test_a_card_is_named_by_its_first_word_when_no_other_title_has_it(index):
    """Players say "Euron" and "Jaqen"; a word other titles share ("Lannister": Cersei Lannister,
    A Lannister Pays His Debts) or an English word ("narrow" in Narrow Escape) names no card alone."""
    named = lambda q, e: index.cards_named(index.analyse(q, e), e)  # noqa: E731
    assert named("can i use euron twice in a round", 2) == {"card:2:euron-crows-eye"}
    assert named("jaqen and self referential text", 1) == {"card:1:jaqen-hghar"}
    assert not named("lannister pays", 1) and not named("lannister", 1)
    assert not named("narrow window", 1)


@pytest.mark.parametrize(
    ("query", "edition", "first"),
    [
        ("when do I win", 2, {"agot2-rr/winning-the-game"}),
        ("how do i win", 2, {"agot2-rr/winning-the-game"}),
        (
            "can I untap my guys during the challenges phase",
            2,
            {"agot2-rr/stand", "agot2-rr/appendix-i/standing-phase/6.2"},
        ),
        # the step that says a defender must be standing answers it; the entry defining kneeling is next
        ("I tapped my character, can it defend?", 2, {"agot2-rr/appendix-i/challenges-phase/4.2.1", "agot2-rr/kneel"}),
        ("do exiled cards come back", 2, {"agot2-rr/removed-from-game"}),
    ],
)
def test_player_words_find_the_rules_words(index, query, edition, first):
    hits, _ = index.search(query, edition, None, 3)
    assert hits[0].id in first, [h.id for h in hits]


def test_graveyard_means_the_discard_and_dead_piles(index):
    groups = index.analyse("what order is my graveyard in", 2)["groups"]
    terms = {t for g in groups for t in g.terms}
    assert {"discard pile", "dead pile"} <= terms


def test_faq_v23_entries_fold_under_their_v41_successors(index):
    hits, _ = index.search("Catelyn Stark", 2, None, 3)
    folded = {f["id"]: f["relation"] for f in hits[0].folded}
    assert hits[0].id == "agot2-faq41/qa/catelyn-stark"
    assert folded["agot2-faq/qa/which-abilities-does-catelyn-stark-core-143-prevent-an"] == "superseded"
    ids = {h.id for h in index.search("priority of simultaneous resolution", 2, None, 10)[0]}
    assert "agot2-faq41/1.6" in ids and "agot2-faq/1.6" not in ids


def test_a_web_note_that_alone_answers_stands_flagged_unofficial(index, db):
    """The web copy's "Note:" on duplicates and attachments under a take-control effect is in no
    official clause: it must stand as its own hit, marked unofficial, not be folded away."""
    results, _ = search.results(index, "does taking control give me its duplicates", 2, None, 5)
    note = next(r for r in results if r["id"] == "agot2-web/para-48")
    assert note["unofficial"] is True and "Note: Taking control of a card does not" in note["text"]
    assert all(r["unofficial"] is False for r in results if not r["id"].startswith("agot2-web/"))
    # and where the web copy only restates, it stays folded under the official text
    hits, _ = index.search("tokens control", 2, None, 5)
    assert not [h.id for h in hits if h.id.startswith("agot2-web/")]


@pytest.mark.parametrize(
    ("query", "document"),
    [
        ("how do you play rookery", "Alternate Format Regulations"),
        # the Tournament Regulations give Joust's structure only; a melee event's is the AFR's (review 18)
        ("melee pairings how are tables made", "Alternate Format Regulations"),
        ("how do I teach a new player, is there a quick start", "Learn to Play book"),
        ("how does the game work", "Learn to Play book"),
        ("what's robert baratheon's strength", "no card database is imported"),
    ],
)
def test_absent_documents_are_named_first(db_path, query, document):
    result = run_cli("search", query, "--edition", "2", db=db_path)
    assert result.returncode == 0
    first_note = result.stderr.splitlines()[0]
    assert first_note.startswith("judgekb: not in the corpus") and document in first_note
    assert result.stdout.startswith("1. ")  # the closest clauses still follow


def test_rules_questions_get_no_absent_notice(index):
    # (review 18: "store" of the Tournament Regulations' "Store Championship" is their word, not a card's name;
    # melee's rules are the Rules Reference's, only a melee event's structure is elsewhere)
    for query in (
        "can I untap my guys", "Tycho Nestoris ruling", "how does stealth work?", "how do i play an event card",
        "do i need to hand in a decklist for store champs", "melee can i attack different opponents with each challenge?",
        # a melee game's round is the rules' (titles are selected each round: RR 1.4), not a tournament round
        "who selects a title first in a melee round", "what happens to titles at the end of a melee round",
    ):  # fmt: skip
        _, notes = index.search(query, 2, None, 3)
        assert not [n for n in notes if n.startswith("not in the corpus")], query


@pytest.mark.parametrize("edition", [1, 2])
def test_asking_for_a_cards_wording_says_card_text_is_not_held(index, edition):
    """"What does the card Ghost say": "ghost" is an English word, so only the request for the card's
    words tells that it names a card; the notice names it (or the card, where the corpus knows one by that
    name) and how to get the card's text."""
    for query, word in (("what does the card ghost say", "ghost"), ("card text of the hound", "hound"), ("what does Ghost do", "ghost")):
        _, notes = index.search(query, edition, None, 3)
        first = notes[0] if notes else ""
        assert first.startswith("not in the corpus") and word in first.lower() and "import-cards" in first, (query, notes)
    # asking for the wording of a rule the corpus holds is not a card question
    for query in ("exact wording of the kneel rule", "what does the rulebook say about kneeling"):
        _, notes = index.search(query, edition, None, 3)
        assert not [n for n in notes if n.startswith("not in the corpus")], (query, notes)


def test_a_card_the_corpus_holds_is_never_called_absent(index):
    """Asking for a card's errata or list entry asks for what the corpus holds: no notice may say the
    card is not in the corpus, and its title words ("viper") are not unknown words."""
    for query, edition in (
        ("what does Val errata say", 1), ("is the red viper restricted", 2), ("is Val on the restricted list", 1),
        ("is Robb Stark restricted", 2),  # a name the corpus does not know, asked about a list: not about its text
    ):  # fmt: skip
        hits, notes = index.search(query, edition, None, 5)
        assert not [n for n in notes if n.startswith("not in the corpus")], (query, notes)
    # asking for its printed values still says where they are, and which clauses name the card
    _, notes = index.search("what's robert baratheon's strength", 1, None, 5)
    assert notes and "own text of Robert Baratheon" in notes[0] and "The corpus names it in agot1-" in notes[0], notes


def test_a_card_text_notice_names_the_clauses_that_name_the_card_never_the_clauses_shown(index):
    """Review 31: "what does The Red Keep do" (second edition) said "the clauses below are what the corpus
    says about it" above Action Windows and Mulligan, which never name it; the bare name ("The Red Keep",
    "Tywin Lannister") gave no notice at all. The notice now lists the searched edition's clauses that
    write the name (none, said so), each one a real clause naming it, never the other edition's."""
    import re

    for query in ("what does The Red Keep do", "The Red Keep", "red keep"):
        _, notes = index.search(query, 2, None, 5)
        said = "No second-edition clause of the corpus names it"
        assert notes and "own text of The Red Keep" in notes[0] and said in notes[0], (query, notes)
    for query, name in (("Tywin Lannister", "tywin lannister"), ("Ser Jaime Lannister text", "jaime lannister")):
        _, notes = index.search(query, 2, None, 5)
        named = re.search(r"The corpus names it in (.*?)(?: and \d+ more)?; closest", notes[0])
        assert named and "what the corpus says about it" not in notes[0], (query, notes)
        for clause_id in named.group(1).split(", "):
            (text,) = index.rows("select text from clauses where id = ?", [clause_id])[0]
            assert clause_id.startswith("agot2-") and name in text.casefold(), (query, clause_id)


def test_a_card_text_notice_says_a_ruling_on_the_card_is_a_ruling(index):
    """A lookup review (r52 F6): "dany str reduce" opened with "the card's own text … is not in the corpus.
    The corpus names it in agot2-faq41/qa/daenerys-targaryen-tfm", which a judge read as "no ruling" above the
    FAQ's answer. A clause whose question is about the card is said to rule on it, first; a clause that only
    names the card (Robert Baratheon, first edition) is still said to name it."""
    for query in ("dany str reduce", "daenerys targaryen strength reduced"):
        hits, notes = index.search(query, 2, None, 5)
        assert notes and "The corpus rules on it in agot2-faq41/qa/daenerys-targaryen-tfm" in notes[0], (query, notes)
        assert hits[0].id == "agot2-faq41/qa/daenerys-targaryen-tfm", (query, [h.id for h in hits])
    _, notes = index.search("what's robert baratheon's strength", 1, None, 5)
    assert "rules on it" not in notes[0] and "The corpus names it in agot1-" in notes[0], notes


def test_unknown_word_notice_is_bounded(index):
    word = "zq" * 400
    _, notes = index.search(f"what does {word} do", 2, None, 3)
    assert notes and notes[0].startswith("not in the corpus") and len(notes[0]) < 500, notes


def test_other_edition_terms_hold_in_the_texts(db):
    """Each term corpus/absent-topics.yaml calls one edition's own: that edition's rules use it at
    least twice, or a rules clause of that edition is headed by it or its plural ("The Golden Rules"),
    and the other edition's texts use it at most once (so the notice it triggers is true)."""
    import re

    import yaml

    terms = yaml.safe_load((ROOT / "corpus" / "absent-topics.yaml").read_text(encoding="utf-8"))["other_edition"]
    assert len(terms) >= 10
    rows = list(db.query(
        "select edition, kind, lower(coalesce(heading, '') || ' ' || coalesce(text, '')) as t, lower(heading) as h from clauses"
    ))  # fmt: skip
    for entry in terms:
        pattern = re.compile(rf"(?<![a-z0-9]){re.escape(entry['term'])}(?![a-z0-9])")
        rules = [r for r in rows if r["edition"] == entry["edition"] and r["kind"] not in search.CARD_KINDS]
        own = sum(1 for r in rules if pattern.search(r["t"]))
        headed = any(re.search(rf"(?<![a-z0-9]){re.escape(entry['term'])}s?$", r["h"] or "") for r in rules)
        other = sum(1 for r in rows if r["edition"] != entry["edition"] and pattern.search(r["t"]))
        assert (own >= 2 or headed) and other <= 1, (entry, own, other)
        for word in entry.get("instead", []):  # the words searched in its place are the other edition's
            assert any(r["edition"] != entry["edition"] and word in r["t"] for r in rows), (entry, word)


def test_other_edition_term_is_said_and_its_counterpart_searched(index):
    hits, notes = index.search("can I play a response", 2, None, 5)
    assert notes and notes[0].startswith('other edition: "response" is a first-edition term'), notes
    assert {"agot2-rr/reactions", "agot2-rr/interrupts"} & {h.id for h in hits}
    _, notes = index.search("what is moribund", 2, None, 5)
    assert notes and "first-edition term" in notes[0] and "searched as well" not in notes[0], notes
    assert not [n for n in notes if "check the spelling" in n], notes  # the spelling is right; the edition is not
    hits, notes = index.search("what is a house card", 2, None, 5)  # a two-word term is one idea, and so searched
    assert notes[0].startswith('other edition: "house card"') and '"faction card" was searched' in notes[0], notes
    assert "agot2-rr/faction" in [h.id for h in hits]
    _, notes = index.search("what is moribund", 1, None, 5)  # in its own edition: no notice
    assert not [n for n in notes if n.startswith("other edition")], notes
    _, notes = index.search("how does pillage work", None, None, 5)  # no edition chosen: nothing to say
    assert not [n for n in notes if n.startswith("other edition")], notes


@pytest.fixture(scope="module")
def imported_index(imported_db_path):
    """Lookup over a database with both editions' card data and the dated lists imported."""
    return search.Index.open(imported_db_path)


def test_a_card_named_by_fewer_words_gets_its_list_status(imported_index):
    """'euron' (a first name) and "hand's judgment" (no "The") name the card, so its status under
    the list in force is said as it is for the full title."""
    for query, title in (("is euron restricted in joust", "Euron Crow's Eye"), ("is Hand's Judgment restricted", "The Hand's Judgment")):
        _, notes = imported_index.search(query, 2, None, 3)
        assert any(n.startswith(f"{title} (") and "Standard" in n for n in notes), (query, notes)


def test_asking_for_a_cards_wording_points_to_its_page_once_cards_are_imported(imported_index):
    """With a card database imported the card's words are on its card page: the lookup says so,
    whether the corpus names the card (The Hound) or only the import does (Ghost, an English word)."""
    index = imported_index
    asked = (("what does Ghost do", 2, "Ghost"), ("card text of the hound", 1, "The Hound"), ("what does Ghost do", None, "Ghost"))
    for query, edition, card in asked:  # (no edition chosen: both editions' databases are imported)
        _, notes = index.search(query, edition, None, 3)
        assert f"card text: {card} is a card" in notes[0] and f'judgekb card "{card}"' in notes[0], notes
    _, notes = index.search("what does renown do", 2, None, 3)  # a rules word is not read as a card's name
    assert not [n for n in notes if n.startswith("card text")], notes


def test_a_short_question_about_a_cards_printed_text_points_to_its_page(imported_index):
    """"how much does Robb Stark cost" asks what the card prints, as "what does Ghost do" does: with
    the cards imported it is pointed to the card's page; a longer rules question that uses such a word
    ("strength" in a question about dominance, naming a card the rules texts name) is not."""
    _, notes = imported_index.search("how much does robb stark cost", 2, None, 3)
    assert notes[0].startswith("card text: Robb Stark is a card"), notes
    _, notes = imported_index.search("does catelyn stark's strength count for dominance while she is kneeling", 2, None, 3)
    assert not [n for n in notes if n.startswith("card text")], notes


def test_a_title_with_a_word_the_rules_never_use_points_to_its_page(imported_index, index):
    """Without card data "castamere" gets the "not a word the rules use … the card's own text" notice;
    with it, the same question points to the card's page instead of saying nothing."""
    query = "rains of castamere and the size of my plot deck"
    _, notes = index.search(query, 2, None, 3)
    assert notes[0].startswith('not in the corpus: "castamere" is not a word the rules use'), notes
    _, notes = imported_index.search(query, 2, None, 3)
    assert notes[0].startswith('card text: "The Rains of Castamere" is a card'), notes


def test_a_title_is_found_without_its_apostrophe(imported_index):
    """Players type "maesters chain" for Maester's Chain."""
    _, notes = imported_index.search("whats the text on maesters chain", 2, None, 3)
    assert notes[0].startswith("card text: Maester's Chain is a card"), notes
    assert any(n.startswith("Maester's Chain (") for n in notes), notes


def test_a_title_spelled_out_takes_its_words_from_shorter_titles(imported_index):
    """"rains of castamere" names the agenda "The Rains of Castamere", not also the location Castamere."""
    _, notes = imported_index.search("is rains of castamere still legal in joust", 2, None, 3)
    status = [n for n in notes if "Standard" in n]
    assert len(status) == 1 and "Rains of Castamere" in status[0], notes


def _status(index, query, edition=2):
    _, notes = index.search(query, edition, None, 3)
    return notes, [n for n in notes if " - Standard v" in n]


def test_list_status_names_the_card_the_query_names(imported_index):
    """A judge's review in the event setting: the status shown must be the named card's, never a card
    that shares a word with it."""
    index = imported_index
    notes, status = _status(index, "is oldtown banned in joust")  # Oldtown, not Oldtown Scholar
    assert len(status) == 1 and status[0].startswith("Oldtown (Journey to Oldtown 24): banned"), notes
    notes, status = _status(index, "varys riddle copying a when revealed")  # Varys's Riddle, not Varys
    assert len(status) == 1 and status[0].startswith("Varys's Riddle ("), notes
    notes, status = _status(index, "tunels of the red keep restricted?")  # misspelled: not The Red Keep
    assert len(status) == 1 and status[0].startswith("Tunnels of the Red Keep ("), notes
    notes, status = _status(index, "ghaston grey vs an attacking knight")  # "knight" does not name Knighted
    assert len(status) == 1 and status[0].startswith("Ghaston Grey ("), notes
    notes, status = _status(index, "is Sparrows restricted in melee")  # a one-word title asked about
    assert len(status) == 1 and status[0].startswith("Sparrows ("), notes
    typed_titles = (("jaqen hghar legal?", "Jaqen H'ghar"), ("cask of ale banned?", '"A Cask of Ale"'),
                    ("littlefnger banned?", "Littlefinger"))  # fmt: skip
    for typed, title in typed_titles:
        notes, status = _status(index, typed)
        assert len(status) == 1 and status[0].startswith(f"{title} ("), notes


def test_a_card_of_the_other_edition_is_said_to_be_one(imported_index):
    notes, status = _status(imported_index, "is hellholt engineer on the list")  # a first-edition card
    assert not status and notes[0].startswith("Hellholt Engineer is a first-edition card"), notes
    assert 'judgekb card "Hellholt Engineer" --edition 1' in notes[0], notes
    _, notes = imported_index.search("timing of seen in flames", 1, None, 3)
    assert notes[0].startswith("Seen In Flames is a second-edition card"), notes


def test_asked_about_the_lists_themselves_the_list_in_force_is_named(imported_index, db):
    _, notes = imported_index.search("which restricted list applies now", 2, None, 3)
    (note,) = [n for n in notes if n.startswith("list in force: ")]
    newest = imported_index.card_status_notes().current
    assert f"{newest.name}, {newest.issuer}, {newest.date}" in note
    _, notes = imported_index.search("which cards are banned in joust right now", 2, None, 3)
    assert [n for n in notes if n.startswith("list in force: ")], notes
    hits, notes = imported_index.search("pods", 2, None, 3)
    assert notes[0].startswith("list in force: ") and not [n for n in notes if "spelling" in n], notes


def test_asked_for_a_cards_errata_the_lookup_says_when_there_is_none(index, imported_index, db):
    """"Robb Stark errata": the FAQ has none for him, and the errata shown are other cards', so it says
    so first (a card the corpus knows, or with card data imported any card); a card the FAQ does
    erratum gets no such note (its entry ranks first)."""
    errata_cards = {r["id"] for r in db.query("select id from clauses where kind = 'errata' and edition = 2")}
    hits, notes = index.search("khal drogo errata please", 2, None, 3)
    assert notes[0].startswith("no errata: the corpus's second-edition FAQ has no errata entry for Khal Drogo:"), notes
    hits, notes = imported_index.search("Robb Stark errata please", 2, None, 3)
    assert notes[0].startswith("no errata: the corpus's second-edition FAQ has no errata entry for Robb Stark:"), notes
    hits, notes = index.search("balon greyjoy errata please", 2, None, 3)
    assert not [n for n in notes if n.startswith("no errata")] and hits[0].id in errata_cards, (notes, hits[0].id)
    # a one-word title that is also a word, just before the errata word, whatever the question goes on to ask
    _, notes = imported_index.search("was treachery errata'd, what does it say now", 2, None, 3)
    assert notes[0].startswith("no errata: the corpus's second-edition FAQ has no errata entry for Treachery:"), notes
    _, notes = imported_index.search("which cards got errata in the last faq", 2, None, 3)  # no card named
    assert not [n for n in notes if n.startswith("no errata")], notes


def test_first_edition_status_questions_say_what_the_faqs_lists_hold(index):
    """First edition: a restricted entry is a hit only where there is one; the note says so for each
    card named, or that no list names it, and says so too of a name no list entry has."""
    source = "first edition, lists of AGoT LCG 1.0 FAQ v5.5.1 (2015-07-17): "
    _, notes = index.search("khal drogo restricted in joust?", 1, None, 3)
    assert notes[0] == source + "Khal Drogo is on none of them (no printing restricted or banned)", notes
    _, notes = index.search("harrenhal restricted in joust?", 1, None, 3)
    assert notes[0] == source + "Harrenhal (CAD F78) is melee restricted", notes
    _, notes = index.search("is jaqen hghar still banned", 1, None, 3)
    assert notes[0] == source + "Jaqen H'ghar (ACOA F43) was removed from the banned list", notes
    _, notes = index.search("khal drogo and the dothraki", 1, None, 3)  # not asked about the lists
    assert not [n for n in notes if n.startswith("first edition, lists")], notes
    # a card the corpus never names, said to be restricted: silence would read as "not restricted", and the
    # first list hit is another card's ("threat from the north": Threat from the East's entry)
    _, notes = index.search("is eddard stark restricted", 1, None, 3)
    assert notes[0].startswith(source + 'no entry is a card named by "eddard"; the card data is not imported'), notes
    _, notes = index.search("is threat from the north restricted", 1, None, 3)
    assert notes[0].startswith(source + 'no entry is a card named by the query\'s words "threat", "north" together'), notes
    for asked in (
        "which cards are restricted in joust", "is the action restricted to once per round", "are any plots restricted in melee",
        "1st ed restricted list which cards banned in joust 2014",  # a year names no card
    ):  # fmt: skip
        _, notes = index.search(asked, 1, None, 3)  # the lists, or a rule: no card is named
        assert not [n for n in notes if n.startswith("first edition, lists")], (asked, notes)


def test_event_setting_review_cases(imported_index):
    """A second review at an event (cards and lists imported): no other-edition note where this edition
    has the card under a near title, no card read from a definition question or a run that begins
    with a small word, a card's word that is its own title names that card, and a first name that
    only one title has names it."""
    def notes(query, edition=2):
        return imported_index.search(query, edition, None, 3)[1]

    said = notes("is the golden company still legal?")  # Golden Company (ed. 2); The Golden Company is ed. 1
    assert said and said[0].startswith("Golden Company (Hear My Words 31)") and len(said) == 1, said
    assert not [n for n in notes("is the hands judgment legal", 1) if "second-edition card" in n]
    said = notes("is botley crew legal")  # not Tris Botley ("is botley" read as a misspelling)
    assert len(said) == 1 and said[0].startswith("Botley Crew ("), said
    assert not notes("does nymeria get stealth")  # Nymeria is a title: not Nymeria Sand
    assert not notes("what is taxation for") and not notes("left or right player in melee")
    assert not [n for n in notes("valyrian steel armor") if "Alternate Format" in n]
    said = notes("is xaro banned")
    assert len(said) == 1 and said[0].startswith("Xaro Xhoan Daxos ("), said
    said = notes("kraznys mo nakloz errata", 1)  # the FAQ spells him Naklos: its errata is his
    assert not [n for n in said if n.startswith("no errata")], said
    said = notes("harrenhal errata", 1)  # an errata question is no list-status question
    assert not [n for n in said if n.startswith("first edition, lists")], said
    said = notes("olenna")  # a name several titles have: they are listed, no spelling advice
    assert said[-1].startswith('no second-edition clause uses "olenna": card titles with "olenna"'), said
    assert "Olenna's Cunning" in said[-1] and "spelling" not in said[-1], said
    said = notes("barristan")
    assert "Ser Barristan Selmy is a second-edition card" in said[-1] and "spelling" not in said[-1], said


def test_with_no_edition_chosen_the_notes_say_which_edition(imported_index):
    _, notes = imported_index.search("ser gregor clegane", None, None, 3)
    status = [n for n in notes if " - Standard v" in n]
    assert status and all(n.startswith("second edition: ") for n in status), notes
    _, notes = imported_index.search("what does Val say", None, None, 3)
    pointers = [n for n in notes if n.startswith("card text: Val is a card")]
    assert {p[-len("--edition 1)"):] for p in pointers} == {"--edition 1)", "--edition 2)"}, notes
    _, notes = imported_index.search('what does "A Cask of Ale" say', 2, None, 3)
    assert notes[0].endswith('judgekb card "A Cask of Ale" --edition 2)'), notes  # pastes into a shell


def test_a_see_entry_folds_under_the_entry_it_points_to(index, db):
    """'Negative Quantities: See "Modifiers".' answers nothing itself: searched by its own heading it is
    shown folded under Modifiers ("pointed to by"), never as a hit of its own."""
    hits, _ = index.search("negative str", 2, None, 5)
    assert hits[0].id == "agot2-rr/modifiers"
    assert {"id": "agot2-rr/negative-quantities", "relation": "redirects"}.items() <= hits[0].folded[0].items()
    redirects = [
        r for r in db.query("select c.id, c.heading, c.text from clauses c join links l on l.src = c.id and l.type = 'cites' "
                            "join clauses t on t.id = l.dst where c.edition = 2 and t.text != t.heading")  # fmt: skip
        if search.REDIRECT.match(r["text"].strip())
    ]
    assert len(redirects) >= 10
    for r in redirects:
        hits, _ = index.search(r["heading"], 2, None, 10)
        assert r["id"] not in [h.id for h in hits], r
        assert r["id"] in [f["id"] for h in hits for f in h.folded if f["relation"] == "redirects"], r


def test_a_step_that_only_marks_a_phase_boundary_ranks_below_the_step_that_acts(index):
    hits, _ = index.search("untap phase", 2, None, 8)
    ids = [h.id for h in hits]
    step = "agot2-rr/appendix-i/standing-phase/"
    assert ids.index(step + "6.2") < ids.index(step + "6.1") and ids.index(step + "6.2") < ids.index(step + "6.3"), ids


def test_absent_notice_reaches_the_json_api(db_path):
    from judgekb.web.app import create_app

    client = create_app(db_path).test_client()
    response = client.get("/api/search", query_string={"q": "rules of valyrian draft", "edition": "2"})
    assert response.status_code == 200 and isinstance(response.get_json(), list)
    assert "Alternate Format Regulations" in response.headers["X-Judgekb-Notes"]
    page = client.get("/", query_string={"q": "rules of valyrian draft", "edition": "2"}).get_data(as_text=True)
    assert page.index("Alternate Format Regulations") < page.index('id="results"')  # said first


# ---------------------------------------------------------------------------- players' questions (doc2query)


def test_players_questions_are_indexed_and_never_copied_from_the_evaluation(db):
    """Each clause's players' questions are in the store; none reads as an evaluation query (same
    words, capitals and punctuation aside): they are written from the clause outward, so the
    evaluation measures lookup, not memory (tools/drop_evaluation_questions.py removes any)."""
    from judgekb.lookup.words import joined_words

    asked = list(db.query("select id, question from asked"))
    assert len(asked) >= 1000 and len({a["id"] for a in asked}) >= 400
    known = {r["id"] for r in db.query("select id from clauses")}
    assert {a["id"] for a in asked} <= known
    queries = {joined_words(i.query) for i in evaluation.load_players(PLAYERS)}
    queries |= {joined_words(i.query) for i in evaluation.load_players(ROOT / "tests" / "eval" / "judge-review.yaml")}
    queries |= {joined_words(i.query) for i in evaluation.load_players(ROOT / "tests" / "eval" / "blind-reviews.yaml")}
    queries |= {joined_words(i.query) for i in evaluation.load(EVAL)}
    copied = [a["question"] for a in asked if joined_words(a["question"]) in queries]
    assert not copied


def test_a_query_reads_the_same_whatever_its_capitals_and_question_mark(index):
    for query in ("can my tapped guy still block", "who wins a tie in a challenge"):
        plain = [h.id for h in index.search(query, 2, None, 5)[0]]
        for variant in (query.capitalize() + "?", query.upper()):
            assert [h.id for h in index.search(variant, 2, None, 5)[0]] == plain, variant


def test_a_players_question_finds_its_clause_in_other_words(index):
    """A clause is found through what players ask of it, even when the query shares few words with
    its text: the questions are recalled through their own FTS5 table."""
    question = next(iter(index.rows("select question from asked where id = 'agot2-rr/removed-from-game' order by question limit 1")))[0]
    hits, _ = index.search(question, 2, None, 5)
    assert "agot2-rr/removed-from-game" in [h.id for h in hits]


def test_a_bad_players_questions_file_names_the_file_and_the_id(corpus_copy, tmp_path):
    """A malformed file stops the build (file and id named, no half-written database); questions
    for an id that is no clause (a corpus update renamed it) are skipped with a warning instead, so
    that matching data never blocks a rebuild at an event."""
    folder = corpus_copy / "player-questions"
    folder.mkdir(exist_ok=True)
    db = tmp_path / "kb.sqlite"
    (folder / "zz-bad.yaml").write_text("agot2-rr/kneel: just one string\n", encoding="utf-8")
    out = run_cli("build", corpus=corpus_copy, db=db)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "zz-bad.yaml" in out.stderr and "agot2-rr/kneel" in out.stderr
    assert not db.exists()  # no half-written database
    (folder / "zz-bad.yaml").write_text("agot2-rr/no-such-clause:\n  - can I do this\n", encoding="utf-8")
    out = run_cli("build", corpus=corpus_copy, db=db)
    assert out.returncode == 0, out.stderr
    assert "warning" in out.stderr and "zz-bad.yaml" in out.stderr and "agot2-rr/no-such-clause" in out.stderr


def test_the_shipped_players_questions_name_only_clauses(build_report):
    """The session's build of the shipped corpus (a fresh path, so no remembered imports) warned of nothing."""
    assert build_report["imported"] == 0 and build_report["warnings"] == []


def test_a_title_with_no_text_is_never_the_answer(index):
    """Appendix I's phase headers ("6. Standing phase") say nothing beyond their title."""
    for query in ("untap phase", "standing phase", "dominance phase, what happens there"):
        hits, _ = index.search(query, 2, None, 3)
        assert hits[0].id not in {"agot2-rr/appendix-i/standing-phase", "agot2-rr/appendix-i/dominance-phase"}, query


def test_naming_the_edition_is_a_filter_not_words_to_match(index):
    """"minimum deck size first edition?": "edition" must not pull the booster sets' blurbs
    ("Iron Throne Edition"); the edition names which documents answer, nothing more."""
    for query in ("minimum deck size first edition?", "1st ed deck size", "deck size in 1.0"):
        hits, _ = index.search(query, 1, None, 3)
        assert not [h.id for h in hits if "edition-booster-set" in h.id], (query, [h.id for h in hits])
    assert words.EDITION_SAID.sub(" ", "can i draw 2 cards").split() == ["can", "i", "draw", "2", "cards"]


def test_a_query_that_names_its_edition_searches_that_edition(index):
    hits, notes = index.search("minimum deck size first edition", None, None, 3)
    assert hits and all(index.clauses[h.id]["edition"] == 1 for h in hits), [h.id for h in hits]
    assert any("searching first edition only" in n for n in notes)
    _, notes = index.search("stealth first edition", 2, None, 3)  # chosen edition 2: said, not switched
    assert any("names first edition" in n and "second edition" in n for n in notes)
    assert words.named_edition("1e vs 2e kneel") is None and words.named_edition("2.0 stealth") == 2


def test_a_query_that_names_a_document_of_one_edition_searches_that_edition(index, db_path):
    """A blind review: "rules reference attachment leaves play" put first edition's Attachments first, and
    "faq v4.1 duplicates save" ranked first edition's FAQ §4.2 second; the Rules Reference, FAQ v2 to v4
    and the Tournament Regulations are second edition's, FAQ v5.x first edition's.  The document's words
    are still searched; a bare number that is a first-edition FAQ section asked about is no version."""
    for query, edition, said in [
        ("rules reference attachment leaves play", 2, "the Rules Reference"),
        ("faq v4.1 duplicates save", 2, "FAQ v4.1"),
        ("FAQ 4.1 duplicates save", 2, "FAQ v4.1"),
        ("what changed in faq version 3.0 about stealth", 2, "FAQ v3.0"),
        ("tournament regulations going to time", 2, "the Tournament Regulations"),
        ("faq v5.5 duplicates", 1, "FAQ v5.5"),
    ]:
        hits, notes = index.search(query, None, None, 5)
        assert hits and all(index.clauses[h.id]["edition"] == edition for h in hits), (query, [h.id for h in hits])
        adjective = "second" if edition == 2 else "first"
        note = f"searching {adjective} edition only: the query names {said}, a {adjective}-edition document"
        assert note in notes, (query, notes)
    hits, _ = index.search("tournament regulations going to time", None, None, 5)
    assert "agot2-tr/tournament-round-times" in [h.id for h in hits[:2]]  # the document's words stay: its clauses first
    out = run_cli("search", "faq v4.1 duplicates save", db=db_path)
    assert "agot1-" not in out.stdout and "the query names FAQ v4.1, a second-edition document" in out.stderr, out
    # chosen edition kept, the mismatch said
    _, notes = index.search("rules reference attachments", 1, None, 5)
    assert any("names the Rules Reference, a second-edition document, but this search is of first edition" in n for n in notes)
    # not a version: first edition's FAQ §4.1 House Affiliation, a version both editions' FAQs had, a section number
    for query in ("faq 4.1 house affiliation", "faq v1.0 reaction errata", "faq 3.30 duplicates", "faq v2.0 2e vs 1e kneel"):
        _, notes = index.search(query, None, None, 5)
        assert not [n for n in notes if n.startswith("searching ")], (query, notes)
    assert index.search("faq 4.1 house affiliation", None, None, 1)[0][0].id == "agot1-faq/4.1"
    assert words.named_edition("faq v2.0 changes") is None  # (the edition's own name: unchanged)


def test_results_of_both_editions_say_which_is_which(index, db_path):
    """A blind review: "bounce a card back to hand does it keep attachments", no edition chosen, put first
    edition's Attachments ("discarded from play") first and second edition's Attachment Cards (back to its
    owner's hand) second, with no word that the two editions' rules differ.  A note now says which results
    are which edition, and to choose one; on the command line, the API and the page alike."""
    query = "bounce a card back to hand does it keep attachments"
    hits, notes = index.search(query, None, None, 5)
    editions = [index.clauses[h.id]["edition"] for h in hits]
    assert {1, 2} <= set(editions), [h.id for h in hits]
    ones = ", ".join(str(n) for n, e in enumerate(editions, 1) if e == 1)
    said = [n for n in notes if n.startswith("both editions searched: ")]
    assert len(said) == 1 and f" {ones} " in said[0] and "choose the edition to search" in said[0], notes
    assert "first edition (the LCG, 2008-2015)" in said[0] and "second edition (played today)" in said[0], said
    assert search.editions_shown([1, 2, 2, 1, 1, 1, 1, 2]) == (
        "both editions searched: results 1, 4-7 are first edition (the LCG, 2008-2015), 2, 3, 8 second edition "
        "(played today): choose the edition to search (second for today's game)"
    )
    assert search.editions_shown([2, 1]).startswith("both editions searched: result 2 is first edition")
    # not said when an edition is chosen or named, or when the results are of one edition
    for query_, edition in [(query, 2), (query, 1), (f"{query} 2nd edition", None), ("rules reference attachments", None)]:
        assert not [n for n in index.search(query_, edition, None, 5)[1] if n.startswith("both editions")], query_
    assert search.editions_shown([2, 2, 2]) == search.editions_shown([]) == ""
    out = run_cli("search", query, db=db_path)
    assert "judgekb: both editions searched: " in out.stderr and "--edition" not in out.stderr, out.stderr
    from judgekb.web.app import create_app

    client = create_app(db_path).test_client()
    body = client.get("/api/search", query_string={"q": query, "notes": "1"}).get_json()
    assert any(n.startswith("both editions searched: ") for n in body["notes"]), body["notes"]
    assert "both editions searched" in client.get("/api/search", query_string={"q": query}).headers["X-Judgekb-Notes"]
    page = client.get("/", query_string={"q": query, "edition": "all"}).get_data(as_text=True)
    assert "both editions searched: " in page and page.index("both editions searched") < page.index('id="results"')


def test_long_notes_are_bounded_in_the_api_header_and_odd_text_is_searchable(db_path):
    from judgekb.web.app import create_app

    client = create_app(db_path).test_client()
    response = client.get("/api/search", query_string={"q": "x" + "q" * 20_000, "edition": "2"})
    assert response.status_code in (200, 400)
    assert len(response.headers.get("X-Judgekb-Notes", "")) <= 1000
    assert words.clean("kneel \ud800 x")[0].startswith("kneel")


def test_snippet_marks_the_query_words_not_a_phrase_s_small_words(index):
    """'until end of phase' stands for 'until the end of the phase': its "the" marks nothing alone."""
    results = search.results(index, "STR until end of phase", 2, None, 5)[0]
    for r in results:
        assert "[The]" not in r["snippet"] and "[the]" not in r["snippet"], r["snippet"]
    assert any("[" in r["snippet"] for r in results)


def test_snippet_marks_a_token_where_one_of_its_words_starts_with_a_query_stem():
    """Inside punctuation ("(kneeling),") and after a hyphen ("non-unique") a word still starts; a stem
    in the middle of a word ("deckneel") marks nothing, and a letter whose lower case is longer ("İ")
    shifts no mark onto its neighbour."""
    text = "Kneel (kneeling), non-unique İİİstanbul cards: a deckneel word and UNIQUE ones."
    assert search.snippet(text, [{"kneel"}, {"unique"}]) == (
        "[Kneel] [(kneeling),] [non-unique] İİİstanbul cards: a deckneel word and [UNIQUE] ones."
    )
    assert search.snippet("", [{"'" * 3}]) == ""  # no words, and a query word with no stem


@given(
    st.lists(st.text(alphabet="abkneluqi0-('İ.", min_size=1, max_size=9), min_size=1, max_size=40),
    st.lists(st.text(alphabet="abkneluqi0", min_size=3, max_size=6) | st.sampled_from(["0", "1", "2", "10"]), min_size=1, max_size=4),
)
@settings(max_examples=300, deadline=None)
@example(tokens=["0a00000"], query_words=["0"])  # (a number's own rule, not a word's ending, decides it)
@example(tokens=["kneelingabc"], query_words=["kneel"])  # (six letters past the stem: another word)
def test_snippet_marks_what_a_word_start_pattern_marks(tokens, query_words):
    """The snippet finds stems with ``str.find`` in a text it keeps split: it marks the same tokens as
    the plain definition, a stem after no letter or digit in the token's lower case, in a word that ends
    within ``ENDING_LETTERS`` of it; a number only whole (not "2" in "1.2" or "20", nor "1" in "1.5")."""
    stems = {words.stem_of(w) for w in query_words if w not in words.STOPWORDS}
    # (as typed too, where the stem is no start of the word and no irregular form made it: "during", "dure")
    stems |= {w for w in query_words if w not in words.STOPWORDS and not w.startswith(words.stem_of(w)) and w not in words.IRREGULAR}
    shown = search.snippet(" ".join(tokens), [set(query_words)], width=len(tokens), sentences=False)
    # (a word ends within ENDING_LETTERS of the stem: "characteristics" is no "character", blind review r88 M1)
    ending = rf"(?=[0-9a-z]{{0,{search.ENDING_LETTERS}}}(?![0-9a-z]))"
    parts = [re.escape(s) + ending if not s.isdigit() else rf"(?<!\.){re.escape(s)}(?![0-9]|\.[0-9])" for s in stems]
    pattern = re.compile(r"(?<![0-9a-z])(?:" + "|".join(parts) + ")") if stems else None
    expected = [f"[{t}]" if pattern and pattern.search(t.lower()) else t for t in tokens]
    assert shown == " ".join(expected)


@given(
    st.lists(st.sampled_from(["kneel", "Stand", "(kneeling),", "the", "plot", "x", "non-unique", "ends.", "asks?", "Note:"]), max_size=60),
    st.integers(min_value=1, max_value=12),
)
@settings(max_examples=400, deadline=None)
def test_snippet_shows_the_densest_matches_then_what_follows_them_from_a_sentence_start(tokens, width):
    """Of the windows of ``width`` words that begin at a marked word, the snippet takes the first that
    says the most of the query's ideas, then has the most marked words; it places the marks up to the
    last that says a new idea, from the sentence start nearest a third of the words it has to spare
    before them (the rest after) from which all still show; else, where a sentence begins at most 8
    words before it (the text's start, or after a word ending in . ? ! or :), it starts there instead,
    and where a sentence ends at most 8 words after it, it ends there, so long as the snippet stays
    within ``width`` + 8 words: a snippet stopped before what its sentence said."""
    shown = search.snippet(" ".join(tokens), [{"kneel"}, {"stand"}], width=width, sentences=False)
    ideas = [int(t.lower().lstrip("(").startswith("kneel")) | 2 * int(t.lower().startswith("stand")) for t in tokens]
    flags = [bool(i) for i in ideas]
    hits = [k for k, f in enumerate(flags) if f]
    windows = [(at, [k for k in hits if at <= k < at + width]) for at in hits]
    start = max(windows, key=lambda w: (bin(_or(ideas[k] for k in w[1])).count("1"), len(w[1]), -w[0]))[0] if hits else 0
    start = min(start, max(0, len(tokens) - width))
    marked = [k for k in range(start, start + width) if k < len(tokens) and flags[k]]
    news = [n for n, k in enumerate(marked) if ideas[k] & ~_or(ideas[j] for j in marked[:n])]
    marked = marked[: news[-1] + 1] if news else marked
    if marked:  # a third of the slack before the matches, the rest after them
        start = min(max(0, marked[0] - (width - (marked[-1] - marked[0] + 1)) // 3), max(0, len(tokens) - width))
        showing = [k for k in range(len(tokens)) if (k == 0 or tokens[k - 1][-1] in ".?!:") and k <= marked[0] and marked[-1] < k + width]
        start = min(showing, key=lambda k: (abs(k - start), k), default=start)  # a sentence's start that shows them all
        assert start <= marked[0] and marked[-1] < start + width  # every placing match shown
    end = min(len(tokens), start + width)
    opens = [k for k in range(len(tokens)) if k == 0 or tokens[k - 1][-1] in ".?!:"]
    closes = [k for k in range(1, len(tokens) + 1) if tokens[k - 1][-1] in ".?!:"]
    begin = max([k for k in opens if start - 8 <= k <= start], default=start)
    close = min([k for k in closes if end <= k <= end + 8], default=end)
    if begin != start and close - begin > width + 8:
        close = end
    window = " ".join(f"[{t}]" if flags[k] else t for k, t in enumerate(tokens[begin:close], begin))
    assert shown == ("… " if begin else "") + window + (" …" if close < len(tokens) else "")


@given(
    st.lists(st.sampled_from(["kneel", "Stand", "(kneeling),", "the", "plot", "x", "non-unique", "ends.", "asks?", "Note:"]), max_size=120),
    st.integers(min_value=1, max_value=40),
)
@settings(max_examples=400, deadline=None)
def test_a_snippet_shows_whole_sentences_that_say_the_most_ideas_or_else_a_window(tokens, width):
    """Whole sentences where they fit: the snippet starts where a sentence starts and ends where one ends (or the text
    does), within ``SNIPPET_WORDS`` words (or ``width``, where the sentences after the best run fill it), and says as
    many of the query's ideas as any one sentence that fits; where none does, it is the window of words."""
    text = " ".join(tokens)
    shown = search.snippet(text, [{"kneel"}, {"stand"}], width=width)
    window = search.snippet(text, [{"kneel"}, {"stand"}], width=width, sentences=False)
    words = [t[1:-1] if t.startswith("[") and t.endswith("]") else t for t in shown.removeprefix("… ").removesuffix(" …").split()]
    if shown == window or not words:
        return
    start = next(k for k in range(len(tokens)) if tokens[k : k + len(words)] == words)
    end = start + len(words)
    ends = {k + 1 for k, t in enumerate(tokens) if t[-1] in ".?!:"} | {len(tokens)}
    assert (start == 0 or start in ends) and end in ends
    # (longer only by a sentence in parentheses that closes it, which says what the one before means: blind review r87 M1)
    last = words[max([k for k in range(len(words)) if k == 0 or words[k - 1][-1] in ".?!:"]):]
    # (or by the text's last sentence, which closes it: blind review r88 M2)
    longer = (last[0].startswith("(") or end == len(tokens)) and len(words) <= search.SNIPPET_WORDS + search.SENTENCE_REACH
    assert len(words) <= max(search.SNIPPET_WORDS, width) or longer, (len(words), width)
    assert shown.startswith("… ") == (start > 0) and shown.endswith(" …") == (end < len(tokens))

    def ideas(part: list[str]) -> int:
        return int(any(t.lower().lstrip("(").startswith("kneel") for t in part)) + int(any(t.lower().startswith("stand") for t in part))

    sentences = [tokens[a:b] for a, b in zip([0, *sorted(ends)], sorted(ends), strict=False) if a < b]
    assert ideas(words) >= max((ideas(s) for s in sentences if len(s) <= search.SNIPPET_WORDS), default=0)


def test_snippets_show_the_sentence_that_decides_the_question(index):
    """Blind reviews r74 and r79: for about one question in four, the snippet under the right clause stopped just
    before the words that answer ("… that player's" of Tycho Nestoris) or showed the clause's opening instead.
    tests/eval/deciding-sentences.yaml quotes each review question's deciding sentence, written from the clause
    text alone; whole sentences show it for 78-80 % of them (bench/lookup.py), the window of words for 55-68 %."""
    entries = evaluation.load_deciding(ROOT / "tests" / "eval" / "deciding-sentences.yaml")
    shown = evaluation.deciding_shown(entries, lambda e: search.results(index, e.query, e.edition, None, 5)[0])
    window = evaluation.deciding_shown(entries, lambda e: search.results(index, e.query, e.edition, None, 5, sentences=False)[0])
    assert shown.keys() == {"blind", "r79", "r86", "r87", "r88", "r89"} and shown["blind"]["n"] >= 170
    assert all(shown[name]["n"] >= 45 for name in ("r79", "r86", "r87", "r88", "r89"))
    for name in shown:
        assert shown[name]["whole"] >= 0.75 and shown[name]["whole"] >= window[name]["whole"] + 0.10, (name, shown, window)


def _or(values) -> int:  # noqa: ANN001
    out = 0
    for value in values:
        out |= value
    return out


def test_no_results_says_why(index):
    hits, notes = index.search("kne*", 2, None, 5)
    assert not hits and notes[-1].startswith('no second-edition clause uses "kne"'), notes


@pytest.mark.parametrize(
    ("query", "first"),
    [('what is a "would" effect', "agot2-rr/the-word-would"), ("what does 'may' mean on a card", "agot2-rr/may")],
)
def test_a_quoted_word_is_what_the_question_asks_about(index, query, first):
    """A quoted word is the term asked about: it counts even when small ("would"), and the entry
    headed by it comes first."""
    hits, _ = index.search(query, 2, None, 5)
    assert hits[0].id == first, [h.id for h in hits]


def test_unruled_topics_are_true_of_the_texts(db):
    """What corpus/absent-topics.yaml says no document rules on ("penalties for infractions"), no clause
    of that edition speaks of: none uses a word or phrase that asks about it, so the notice never hides
    a ruling; and each clause it points to is one of that edition's."""
    import yaml

    topics = yaml.safe_load((ROOT / "corpus" / "absent-topics.yaml").read_text(encoding="utf-8"))["unruled"]
    assert {t["edition"] for t in topics} == {1, 2}
    rows = list(db.query("select id, edition, lower(coalesce(heading, '') || ' ' || coalesce(text, '')) as t from clauses"))
    for topic in topics:
        for phrase in topic["when"]:
            pattern = re.compile(rf"(?<![a-z0-9]){re.escape(phrase.lower())}(?![a-z0-9])")
            using = [r["id"] for r in rows if r["edition"] == topic["edition"] and pattern.search(r["t"])]
            assert not using, (topic["about"], phrase, using)
        editions = {r["id"]: r["edition"] for r in rows}
        assert all(editions.get(see["id"]) == topic["edition"] for see in topic.get("see", [])), topic


def test_a_question_no_document_rules_on_is_told_so_before_the_closest_clauses(index):
    """A penalty at a competitive event: the Tournament Regulations set none, and the draw rules that
    come first would read as the answer; the notice says so first and names the clauses that bear on
    it.  First edition's own "penalty" (an income or gold penalty) is a rule, and asks nothing of it."""
    hits, notes = index.search("whats the penalty for drawing an extra card by mistake at a competitive event, game loss?", 2, None, 5)
    assert notes[0].startswith("not in the corpus: no second-edition document judgekb holds rules on penalties for infractions"), notes
    assert "agot2-tr/marshal (" in notes[0] and notes[0].endswith("Closest clauses below."), notes
    assert hits  # the closest clauses still follow
    _, notes = index.search("1e slow play penalty warning at a tournament", 1, None, 5)
    assert notes[0].startswith("not in the corpus: no first-edition document judgekb holds rules on penalties"), notes
    _, notes = index.search("1e draft / cube format rules", 1, None, 5)
    assert notes[0].startswith("not in the corpus: no first-edition document judgekb holds rules on draft"), notes
    # first edition's documents set deck rules for a sanctioned tournament, but not how one is run
    _, notes = index.search("time called in a 1st ed joust what happens", None, None, 5)
    assert notes[0].startswith("not in the corpus: no first-edition document judgekb holds rules on how a tournament is run"), notes
    assert "agot1-rules/tournament-play-and-deck-construction-rules (" in notes[0], notes
    # (a blind review: reworded, the notice was missed and the deck rules read as the answer)
    for query in ("1st ed tournament round length", "how long is a round at a first edition tournament",
                  "can I use my phone to look up a card", "are proxies allowed"):  # fmt: skip
        _, notes = index.search(query, 1, None, 5)
        assert notes and notes[0].startswith("not in the corpus: no first-edition document judgekb holds rules on how a tournament"), notes
    _, notes = index.search("opponent says when time is called we just finish the challenge", 2, None, 5)
    assert not [n for n in notes if n.startswith("not in the corpus")], notes  # the Tournament Regulations rule on it
    for query, edition in (("what is the income penalty", 1), ("draft format deck size", 2), ("is slow play allowed", 2)):
        _, notes = index.search(query, edition, None, 5)
        assert not [n for n in notes if "no first-edition document" in n or "no second-edition document" in n], (query, notes)
    _, notes = index.search("draft format deck size", 2, None, 5)  # a document judgekb does not hold: named as before
    assert notes[0].startswith("not in the corpus: the answer is in the Alternate Format Regulations"), notes


def test_a_card_text_asked_for_outright_is_said_not_here_whatever_the_title(index):
    """"What does the Kings of Summer agenda card text say": every word of the title is a first-edition
    rules word, so no word read as a card's name, and the agenda rules alone came back; asked for a
    card's words outright, the notice says a card's own text is not here.  A card's text told as the
    situation, a term's meaning "in card text" or a rule's wording is not asked for."""
    for query in ("what does the Kings of Summer agenda card text say", "card text of kings of summer", "kings of summer printed text?"):
        _, notes = index.search(query, 1, None, 5)
        assert notes and notes[0].startswith("not in the corpus: a card's own text"), (query, notes)
    told = ("the card says cannot be saved, can i still use a dupe", "what does choose mean in card text",
            "exact wording of the golden rules")  # fmt: skip
    for query in told:
        _, notes = index.search(query, 2, None, 5)
        assert not [n for n in notes if "card's own text" in n], (query, notes)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("topics:\n  - document: Learn to Play book\n    when: [tutorial]\n", ":2: an absent-document topic is missing field 'look_for'"),
        ("unruled:\n  - {when: [penalty]}\n", ":2: an unruled topic is missing field 'about'"),
        ("unruled:\n  - {about: x, when: [y], see: [{id: agot2-tr/marshal}]}\n", "'see' entry is missing field 'says'"),
        ("unruled:\n  - {about: x, when: [y], see: agot2-tr/marshal}\n", "field 'see' must be a list"),
        ("other_edition:\n  - {term: moribund}\n", ":2: an other_edition entry is missing field 'edition'"),
        ("other_edition:\n  - {term: moribund, edition: 3}\n", ":2: an other_edition entry field 'edition' must be 1 or 2"),
        ("card_text:\n  document: x\n  look_for: y\n  when: [text]\n  wording_questions: ['(']\n", "does not compile"),
        ("topics:\n  - {document: a, look_for: b, when: [1]}\n", "field 'when' must be a list of words"),
        ("absent:\n  x: y\n", "unknown section 'absent'"),
    ],
)
def test_a_broken_absent_topics_file_is_refused_at_build_with_its_line(tmp_path, text, message):
    """A topic without the text its notice needs would otherwise crash every lookup that meets it."""
    from judgekb.errors import DataError
    from judgekb.lookup import notices

    path = tmp_path / "absent-topics.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(message)):
        notices.load_topics(path)
    assert notices.load_topics(ROOT / "corpus" / "absent-topics.yaml")["other_edition"]  # the real file passes


def test_an_unruled_topic_pointing_to_no_clause_stops_the_build_with_the_file_and_the_id(tmp_path):
    """A pointer to a clause that is not there, or is the other edition's, would send a judge nowhere:
    the build refuses it, naming the file, the topic and the id."""
    from judgekb.errors import DataError
    from judgekb.lookup import notices

    path = tmp_path / "absent-topics.yaml"
    for see, edition in (("agot2-tr/no-such-clause", 2), ("agot2-tr/marshal", 1)):
        topic = f"{{about: penalties, edition: {edition}, when: [penalty], see: [{{id: {see}, says: x}}]}}"
        path.write_text(f"unruled:\n  - {topic}\n", encoding="utf-8")
        topics = notices.load_topics(path)
        with pytest.raises(DataError, match=re.escape(f"{path}: the unruled topic 'penalties' points to '{see}', which is no clause of")):
            notices.check_unruled_see(path, topics, {"agot2-tr/marshal": 2})
    topic = {"about": "p", "edition": 2, "when": ["p"], "see": [{"id": "agot2-tr/marshal", "says": "x"}]}
    notices.check_unruled_see(path, {"unruled": [topic]}, {"agot2-tr/marshal": 2})  # a clause of its edition passes


def test_other_edition_notice_keeps_to_the_term_itself(index):
    """Part of a card's name ("Vengeful Lordling", "Deadly Khalasar") or everyday English ("in response
    to") is not the other edition's rule; a bare use of the term still is."""
    for query in ("Vengeful Lordling", "Deadly Khalasar", "can I play an interrupt in response to a character being killed"):
        _, notes = index.search(query, 2, None, 5)
        assert not [n for n in notes if n.startswith("other edition")], (query, notes)
        assert not [n for n in notes if "search the other edition" in n and n.startswith("no ")], (query, notes)
        assert not index.analyse(query, 2)["instead"], query  # nor are its words searched in its place, unsaid
    _, notes = index.search("can I play a response", 2, None, 5)
    assert notes[0].startswith('other edition: "response" is a first-edition term, not a second-edition one'), notes
    assert words.named_edition("reaction errata in FAQ 1.0") is None and words.named_edition("faq v2.0 changes") is None


def test_an_empty_result_with_a_kind_filter_says_so(index):
    hits, notes = index.search("kneel", 2, ["errata"], 5)
    assert not hits and notes[-1] == 'no second-edition errata clause uses "kneel": search without the kind filter', notes


def test_rules_words_are_never_read_as_a_card_name(index):
    """'tiebreaker' is a rules word (the Tournament Regulations say "Tiebreakers"); a trait's question is a rules question."""
    for query, edition in (("what does the tiebreaker do", 2), ("what does the Knight trait do", 2), ("what does the glossary say", 1)):
        _, notes = index.search(query, edition, None, 5)
        assert not [n for n in notes if n.startswith(("not in the corpus", "card text"))], (query, notes)


def test_card_pages_are_found_by_full_title_or_first_name(imported_index):
    for query, edition, card in (
        ("what does the Knights of the Realm card say", 2, "Knights of the Realm"),  # the title, not Knighted
        ("what does Highgarden do", 2, "Highgarden"),  # not Highgarden Minstrel
        ("what does Euron do", 1, "Euron Crow's Eye"),  # a first name
        ("what does Jaqen do", 2, "Jaqen H'ghar"),
    ):
        _, notes = imported_index.search(query, edition, None, 5)
        assert notes[0].startswith(f"card text: {card} is a card"), (query, notes)
        assert not [n for n in notes if "check the spelling" in n], (query, notes)
    _, notes = imported_index.search("what does the Knight trait do", 2, None, 5)
    assert not notes, notes  # a trait's question: no card page, no list status
    # the list status follows the title spelled out, not a card the corpus knows by one of its words
    _, notes = imported_index.search("what does Highgarden do", 2, None, 5)
    assert any(n.startswith("Highgarden (") for n in notes) and not [n for n in notes if "Highgarden Minstrel" in n], notes
    _, notes = imported_index.search("what does the Knights of the Realm card say", 2, None, 5)
    assert not [n for n in notes if n.startswith("Knighted")], notes


def test_a_named_cards_clause_keeps_the_text_score_it_matched_with(index):
    """A clause about a card the query names is recalled even without word hits; when its words did
    match, it must keep that score (a card's errata that answers the question is not ranked as if its
    text said nothing)."""
    query = "if Rhaegar Targaryen ends the round mid challenge, is the challenge resolved"
    errata = "agot1-faq/errata/rhaegar-targaryen-acoa-f82"
    assert index.cards_named(index.analyse(query, 1), 1)
    explain: dict[str, dict[str, float]] = {}
    hits, _, _ = index.ranked(query, 1, None, 5, explain)
    assert explain[errata]["fts"] > 0.5
    assert hits[0].id == errata


def test_phrase_scores_add_up_to_fts5s_own_bm25(db):
    """Lookup adds up each phrase's cached BM25 share instead of asking FTS5 to score the whole OR
    query again; the sum must be FTS5's own score, clause for clause, in both tables."""
    index = search.Index(db)
    terms = ["kneel", "military claim", "defend", "stand", "challenge"]
    match = " OR ".join(f'"{t}"' for t in terms)
    for table, edition, sql, args in [
        (
            "clauses_fts",
            2,
            "select c.rowid, bm25(clauses_fts, 4.0, 1.0) from clauses_fts join clauses c on c.rowid = clauses_fts.rowid "
            "where clauses_fts match ? and c.edition = ?",
            [match, 2],
        ),
        ("asked_1_fts", None, "select rowid, bm25(asked_1_fts) from asked_1_fts where asked_1_fts match ?", [match]),
    ]:
        expected = dict(db.execute(sql, args).fetchall())
        got = index._phrase_scores(table, edition, terms)
        assert len(expected) > 50 and got.keys() == expected.keys(), table
        assert all(abs(got[k] - expected[k]) < 1e-9 for k in expected), table


def test_bm25_pass_gives_the_ideas_each_candidate_expresses(index):
    """Coverage takes the ideas a candidate's text expresses from the BM25 pass over it instead of a
    second pass: they must be exactly what ``Ideas.mask`` reads in the text, stems and phrases alike."""
    checked = 0
    for query, edition in [("can my tapped guy still block", 2), ("on death trigger when a character is sacrificed", 2),
                           ("what happens when my deck runs out", 1), ("is removed from the game the same as killed", 1)]:  # fmt: skip
        groups = index.analyse(query, edition)["groups"]
        for group in groups:
            group.prepare()
        ideas = words.Ideas(groups, sum(g.weight for g in groups))
        candidates = [c for c, _ in index._fts(groups, edition, None)]
        index._body(candidates)
        for clause_id in candidates:
            score, found = index._bm25(groups, clause_id)
            assert found == ideas.mask(index._bodies[clause_id]), (query, clause_id)
            assert (score > 0) == bool(found), (query, clause_id)
        checked += len(candidates)
        assert any(g.phrases for g in groups) or edition == 2, query  # the phrase half is exercised too
    assert checked > 100


def test_asked_like_on_sorted_words_is_rapidfuzzs_token_sort_ratio(index):
    """Players' questions are compared with their words sorted once (``sorted_words``) and a plain
    ratio: the score must be rapidfuzz's token_sort_ratio of the unsorted texts, question for question."""
    from rapidfuzz import fuzz

    query = "does a when killed response go off if the character is discarded instead"
    asked = search.sorted_words(query)
    _, matched = index._asked_fts(index.analyse(query, 1)["groups"], 1, None)
    held = index._asked_rows[1]
    assert sum(len(rows) for rows in matched.values()) > 50
    for rowid, said in index.rows(f"select rowid, said from asked_1 where rowid in ({','.join(map(str, held))})"):
        assert search.ASKED_LIKE(asked, held[rowid][1][3]) == fuzz.token_sort_ratio(query, said), said
    qa = [c for c, _ in index._fts(index.analyse(query, 1)["groups"], 1, ["qa"])]
    index._body(qa)
    assert len(qa) > 10
    for clause_id in qa:
        own = index._questions[clause_id][0].strip()
        assert search.ASKED_LIKE(asked, index._questions_sorted[clause_id]) == fuzz.token_sort_ratio(query, own), clause_id


def test_warm_holds_every_players_question(db):
    """A server's first questions read their matching players' questions from the database as they met
    them (the slowest first lookups' extra millisecond): ``warm`` holds them all, as a lookup reads them."""
    warmed = search.Index(db).warm()
    for number in (1, 2):
        assert len(warmed._asked_rows[number]) == db.execute(f"select count(*) from asked_{number}").fetchone()[0] > 1000
    cold = search.Index(db)
    query = "does a when killed response go off if the character is discarded instead"
    _, matched = cold._asked_fts(cold.analyse(query, 1)["groups"], 1, None)
    for rowid, row in cold._asked_rows[1].items():
        assert warmed._asked_rows[1][rowid] == row
    assert [h.id for h in warmed.search(query, 1)[0]] == [h.id for h in cold.search(query, 1)[0]]


def test_cached_phrase_matches_are_bounded_and_change_nothing(db, monkeypatch):
    queries = [("can my tapped guy still block", 2), ("what happens when my deck runs out", 1),
               ("does stealth stop a character from defending", 2), ("renown on a dead character", 1)]  # fmt: skip
    expected = [[h.id for h in search.Index(db).search(q, e, None, 5)[0]] for q, e in queries]
    monkeypatch.setattr(search, "POSTINGS_HELD", 200)
    small = search.Index(db)
    for (q, e), want in zip(queries, expected, strict=True):
        assert [h.id for h in small.search(q, e, None, 5)[0]] == want, q
        largest = max(len(rows) for rows, _ in small._postings_cache.values())
        assert small._postings_held <= max(200, largest + 1), q


def test_a_title_only_hit_carries_the_steps_under_it(db_path, db):
    """"7. Taxation phase" has no text of its own: a search that finds it gives the steps printed under
    it, in the Rules Reference's order; a hit with text of its own gives none."""
    hits = json.loads(run_cli("search", "taxation phase", "--edition", "2", "--limit", "10", "--json", db=db_path).stdout)
    phase = next(h for h in hits if h["id"] == "agot2-rr/appendix-i/taxation-phase")
    in_order = [r["id"] for r in db.query("select id from clauses where id like 'agot2-rr/appendix-i/taxation-phase/%' order by seq")]
    assert [p["id"] for p in phase["parts"]] == in_order and len(in_order) == 5
    assert phase["parts"][2]["heading"] == "7.3 Check reserve"
    assert all(h["parts"] == [] for h in hits if h is not phase)
    printed = run_cli("search", "taxation phase", "--edition", "2", "--limit", "10", db=db_path).stdout
    assert "   In this section: 7.1 Taxation phase begins · 7.2 Return unspent gold · 7.3 Check reserve" in printed


def test_cached_phrase_matches_never_exceed_the_bound(db, monkeypatch):
    """``POSTINGS_HELD`` is a ceiling on what the cache holds (each phrase counts its matches and one for
    its key), whichever phrase arrives when the cache is nearly full, never one past it."""
    terms = ["kneel", "stand", "claim", "challenge", "defend", "military", "power", "intrigue", "gold", "plot"]
    sizes = [len(search.Index(db)._postings("clauses_fts", 2, t)[0]) + 1 for t in terms]
    for bound in range(max(sizes), sum(sizes) + 2):
        monkeypatch.setattr(search, "POSTINGS_HELD", bound)
        index = search.Index(db)
        for term in terms:
            index._postings("clauses_fts", 2, term)
            held = sum(len(rows) + 1 for rows, _ in index._postings_cache.values())
            assert index._postings_held == held <= bound, (bound, term)


def test_warm_loads_every_corpus_words_matches_and_they_are_never_dropped(db, monkeypatch):
    """A server's ``warm`` loads the FTS5 matches of every word the corpus and the vocabularies use, so a
    judge's first question pays for none of them; the bound on the users' own phrases never drops them,
    and a lookup gives the same hits with them as without."""
    queries = [("can my tapped guy still block", 2), ("renown on a dead character", 1), ("who wins the challange", None)]
    cold = [[h.id for h in search.Index(db).search(q, e, None, 5)[0]] for q, e in queries]
    monkeypatch.setattr(search, "POSTINGS_HELD", 50)
    index = search.Index(db).warm()
    loaded = len(index._postings_warm)
    assert ("clauses_fts", 2, "kneel") in index._postings_warm and ("asked_1_fts", None, "claim") in index._postings_warm
    assert ("clauses_fts", None, "tap") in index._postings_warm  # a player's word the vocabulary knows
    assert [[h.id for h in index.search(q, e, None, 5)[0]] for q, e in queries] == cold
    assert len(index._postings_warm) == loaded and index._postings_held <= 50 + max(
        (len(rows) for rows, _ in index._postings_cache.values()), default=0
    )


def test_an_index_starts_from_what_the_build_kept_as_from_the_snapshot(db_copy):
    """A cold lookup loads the facts the build worked out (``Index.derived``, kept with marshal: half
    the start of working them out again); a database another Python built, or a damaged value, falls
    back to the JSON snapshot, and every fact and every ranking is the same either way."""
    import sqlite3

    conn = sqlite3.connect(db_copy)
    stored = conn.execute("select typeof(value) from search_meta where key = ?", [search.DERIVED_KEY]).fetchall()
    assert stored == [("blob",)]
    snapshot = json.loads(conn.execute("select value from search_meta where key = 'index'").fetchone()[0])
    expected = search.Index.derived(snapshot)
    queries = [("who wins a tie in a challenge", 2), ("can I untap my guys during challenges?", 1), ("is robb stark restricted", 2)]

    def facts_and_rankings() -> tuple[dict, list]:
        index = search.Index(sqlite3.connect(db_copy))
        assert all(index.card_by_id[card["id"]] is card for card in index.cards)  # one card, one dict
        facts = {name: getattr(index, name) for name in search.DERIVED_FIELDS}
        return facts, [search.results(index, q, e, None, 5) for q, e in queries]

    loaded, rankings = facts_and_rankings()
    assert loaded == expected and len(expected["clauses"]) > 1000 and rankings[0][0]
    marked = search.Index.kept_facts({**expected, "rules_rank": -7})  # the kept value is what an index starts from
    conn.execute("update search_meta set value = ? where key = ?", [marked, search.DERIVED_KEY])
    conn.commit()
    assert search.Index(sqlite3.connect(db_copy)).rules_rank == -7
    # damaged: one byte changed (the checksum refuses it before marshal reads a length that may ask
    # for gigabytes), the checksum alone, then plain garbage
    kept = bytearray(search.Index.kept_facts(expected))
    kept[len(kept) // 2] ^= 0x40
    for damaged in (bytes(kept), bytes(kept[:4]), b"\x00\xff\x17"):
        conn.execute("update search_meta set value = ? where key = ?", [damaged, search.DERIVED_KEY])
        conn.commit()
        assert facts_and_rankings() == (expected, rankings)
    conn.execute("update search_meta set key = 'index derived, marshal 4, python 9.9' where key = ?", [search.DERIVED_KEY])
    conn.commit()  # kept by another Python: not read
    assert facts_and_rankings() == (expected, rankings)


def test_a_short_query_about_a_word_no_clause_uses_is_told_so(index):
    """'1st ed rush keyword': no first-edition text knows "rush", so the search drops it and the
    keyword clauses that follow would read as the answer; the notice says the word is unused.  It is
    unsaid for a word the texts use, a misspelling read as a corpus word, a word a corpus card's title
    has, and an incidental word of a longer question."""
    asked = (("1st ed rush keyword", None, "rush"), ("trample keyword", 1, "trample"), ("is there a haste keyword", 2, "haste"))
    for query, edition, word in asked:
        hits, notes = index.search(query, edition, None, 5)
        which = "first-edition" if edition in (None, 1) else "second-edition"
        said = [n for n in notes if n.startswith("no ")]
        assert said == [f'no {which} clause uses "{word}": the clauses below match the query\'s other words'], notes
        assert not index.term_df(word, 1 if edition is None else edition)  # true of the texts
    for query, edition in (
        ("stealth keyword", 2),  # the texts' own word
        ("the rush keyword", 2),  # the Tournament Regulations say "rush an opponent"
        ("challange keyword", 2),  # read as "challenge"
        ("does a stolen character stay knelt when i take control", 2),  # a longer question
        ("marked sleeves penalty", 2),  # explained by the notice above it
    ):
        _, notes = index.search(query, edition, None, 5)
        assert not [n for n in notes if n.endswith("the clauses below match the query's other words")], (query, notes)
    title_word = next(
        w for c in index.cards for n in c["names"] for w in words.words_of(n)
        if w.isalpha() and len(w) > 3 and index.english(w) and not index.term_df(w, 2)
    )  # fmt: skip
    _, notes = index.search(f"{title_word} keyword", 2, None, 5)
    assert not [n for n in notes if n.endswith("the clauses below match the query's other words")], (title_word, notes)


def test_accented_letters_are_read_as_plain_letters(index):
    """(review 18) "émoji" was reported as the unknown word "moji": the texts' words are plain letters, so
    a Latin letter with an accent, typed on a phone keyboard, is read as the letter."""
    _, notes = index.search("émoji", 2, None, 5)
    assert notes and '"emoji"' in notes[0] and "moji\"" not in notes[0].replace('"emoji"', ""), notes
    hits, _ = index.search("rèserve chéck", 2, None, 5)
    assert hits and hits[0].id == "agot2-rr/appendix-i/taxation-phase/7.3", [h.id for h in hits]


@pytest.mark.parametrize(
    ("query", "edition", "about"),
    [
        # (review 20) the closest clauses were read as answers: the sleeve rule, and a glossary entry for the meta
        ("what size sleeves for 2nd edition cards", 2, "the size of the cards and which sleeves fit them; see agot2-tr/card-sleeves"),
        ("what size card sleeves fit the agot lcg cards", 1, "which sleeves fit them; see agot1-faq/qa/card-sleeves"),
        ("best stark deck in the current meta", 2, "deck-building advice and the metagame"),
    ],
)
def test_questions_no_document_rules_on_say_so_first(index, query: str, edition: int, about: str):
    _, notes = index.search(query, edition, None, 5)
    assert notes and notes[0].startswith("not in the corpus: no ") and about in notes[0], notes
    # the rule the documents do give about sleeves is no such question
    _, notes = index.search("are sleeves required at a regional", edition, None, 5)
    assert not [n for n in notes if n.startswith("not in the corpus")], notes
