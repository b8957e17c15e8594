"""Blind table-judge lookup review r88 (/work/reviews/r88.md): what its findings asked of the lookup."""

from __future__ import annotations

import pytest

from judgekb import store
from judgekb.lookup import search

# r88 M6: questions naming a card the corpus rules on (its text cites the card), none asking for the card's own text
NAMED_IN_A_RULING = [
    ("does oldtown scholar trigger when we draw back up to 7 at the end of setup?", "Oldtown Scholar", "agot2-faq41/1.9"),
    ("opp pops my Jon Snow with a kill effect, i have a dupe sitting under him, can I save him with it", "Jon Snow", None),
    ("he played dracarys on my character and it's down to 0 str. I have a reaction that would pump it, can I use it before it dies?",
     "Dracarys!", None),
    ("how do i write jon snow on my deck list when there's multiple versions", "Jon Snow", "agot2-tr/deck-lists"),
]  # fmt: skip
# r88 M6: questions naming a card a Q&A entry is asked about: no card-text line, with card data or without
ASKED_ABOUT = [
    "does catlyn stark stop me from using a dupe to save my guy",
    "2 wolves of the north attacking, can both stealth the same guy?",
    "how much does hands judgement cost to cancel a shadow event with a dash cost",
    "time of plenty - does it add to cards I draw off card effects during the draw phase",
    "game goes to time, i control tycho nestoris and im on 15 power, what happens",
]


@pytest.fixture(scope="module")
def index(db):
    return search.Index(db)


@pytest.fixture(scope="module")
def carded_index(carded_db_path):
    return search.Index(store.connect(carded_db_path))


def _card_notes(notes: list[str]) -> list[str]:
    return [n for n in notes if n.startswith(("card text:", "not in the corpus")) or "closest clauses below" in n.lower()]


@pytest.mark.parametrize(("query", "name", "first"), NAMED_IN_A_RULING)
def test_a_card_the_corpus_rules_on_is_not_said_to_be_missing_above_its_ruling(index, carded_index, query, name, first):
    """r88 M6: without card data, "not in the corpus: the card's own text of Oldtown Scholar ... closest clauses below"
    stood above FAQ 1.9, the ruling on exactly that situation, and read as "your answer is not here".  A question
    that does not ask for the card's own text, about a card a governing clause names, gets one neutral line: the
    card's text is on its card page once card data is imported, as with card data it is on its card page."""
    hits, notes = index.search(query, 2, None, 5)
    if first:
        assert hits[0].id == first, [h.id for h in hits]
    assert _card_notes(notes) == [
        f"card text: {name} is a card; its own text is on its card page once a card database is imported: "
        "run `judgekb import-cards PATH` with a card database, then `judgekb card NAME`"
    ], notes
    _, notes = carded_index.search(query, 2, None, 5)
    assert _card_notes(notes) == [
        f'card text: {name} is a card; its own text is on its card page (the Cards page, or judgekb card "{name}" --edition 2)'
    ], notes


def test_several_cards_a_ruling_names_get_one_line(index):
    """r88 M6: FAQ 3.1's example names all four cards of this question and rules on it; one line says where their
    text is, not "not in the corpus ... closest clauses below"."""
    from tests.lookup.test_search_review_r87 import DRACARYS

    hits, notes = index.search(DRACARYS, 2, None, 5)
    assert hits[0].id == "agot2-faq41/3.1", [h.id for h in hits]
    assert _card_notes(notes) == [
        "card text: Blood of the Dragon, Dagmer Cleftjaw, Dracarys! and Risen from the Sea are cards; their own text is on "
        "their card pages once a card database is imported: run `judgekb import-cards PATH` with a card database, then "
        "`judgekb card NAME`"
    ], notes


@pytest.mark.parametrize("query", ASKED_ABOUT)
def test_a_card_a_qa_entry_asks_about_gets_no_card_text_line_either_way(index, carded_index, query):
    """r88 M6: the cards named only in Q&A entries got no notice; they get none with card data either."""
    for looked_up in (index, carded_index):
        _, notes = looked_up.search(query, 2, None, 5)
        assert not _card_notes(notes), (query, notes)


@pytest.mark.parametrize(
    "query",
    [
        "what does oldtown scholar do",
        "oldtown scholar",
        "how much str does oldtown scholar have",
        "does oldtown scholar's ability draw me a card when i play an event",
        "does jon snow's ability work in a power challenge",
    ],
)
def test_a_question_asking_for_the_cards_own_text_keeps_the_notice(index, query):
    """Asked for the card's text (its wording, STR, ability, or only its name): the text is what decides, and it is
    not in the corpus, so the notice stays, with the clauses that name the card."""
    _, notes = index.search(query, 2, None, 5)
    assert notes[0].startswith("not in the corpus: the card's own text of "), notes
    assert notes[0].endswith("closest clauses below."), notes


def test_a_card_the_corpus_holds_no_ruling_on_keeps_the_notice(index):
    """The Red Viper's only second-edition clause is a superseded list entry: its own text decides."""
    _, notes = index.search("does The Red Viper get power for each point of claim or just one", 2, None, 5)
    assert notes[0].startswith("not in the corpus: the card's own text of The Red Viper"), notes


@pytest.mark.parametrize(
    ("query", "edition", "word", "first"),
    [
        ("naval: my guy got stealthed, can I still bring him in as a naval defender", 1, "stealthed", "agot1-faq/additional/naval"),
        ("can my stealth guy bypass their stealthed char", 2, "stealthed", "agot2-rr/stealth"),
        ("they hand's judgmented my event, do i get my gold back", 2, "judgmented", None),
    ],
)
def test_a_rules_words_inflection_is_no_spelling_mistake(index, query, edition, word, first):
    """r88 L9: "stealthed" was reported as 'spelling: searched "stealthed" also as "stealth"'.  No text writes it and
    no English word list holds it, so the corrector reads it as "stealth", as it should; but a rules word with a
    regular ending (-s, -ed, -ing) is the player's form of it, not a misspelling, and goes unsaid, as a plural does."""
    hits, notes = index.search(query, edition, None, 5)
    assert not [n for n in notes if n.startswith("spelling:")], notes
    if first:
        assert hits[0].id == first, [h.id for h in hits]
    text, _ = search.clean(query)
    assert word in index.analyse(text, edition)["corrected"]  # still searched as the rules word


@pytest.mark.parametrize(
    ("query", "word", "fixed"),
    [
        ("militray claim is 2", "militray", "military"),
        ("dupe savee", "savee", "save"),
        ("who wins the challange", "challange", "challenge"),
    ],
)
def test_a_real_misspelling_is_still_said(index, query, word, fixed):
    """A slip of the finger is still said, even where the word's crude stem would match ("savee": "save")."""
    _, notes = index.search(query, 2, None, 5)
    assert f'spelling: searched "{word}" also as "{fixed}"' in notes, notes


DUPLICATE_SAVE = "can a duplicate save my character from a kill effect"


@pytest.mark.parametrize(
    ("token", "parts"),
    [
        ("effect(s)", ("", "effect(s)", "")),
        ("effect(s).", ("", "effect(s)", ".")),
        ("(effect(s)),", ("(", "effect(s)", "),")),
        ("(s)he", ("", "(s)he", "")),
        ("(setup).", ("(", "setup", ").")),  # a word in parentheses: they stay outside the mark, as before
        ('"kill,"', ('"', "kill", ',"')),
    ],
)
def test_a_marked_word_keeps_a_parenthesis_it_opens_or_closes(token, parts):
    """r88 L10: a highlight split "effect(s)": the terminal printed "«effect(s»)", the trailing stops taking the
    parenthesis the word closes."""
    assert search.marked_parts(token) == parts


def test_the_terminal_and_the_web_page_mark_effect_s_whole(index):
    """r88 L10, on the review's own search: FAQ 3.1's snippet marks "effect(s)" whole, on the terminal and on the web
    page, read against the text the snippet was cut from or without it."""
    from judgekb.web.webtext import snippet

    hits, _ = search.results(index, DUPLICATE_SAVE, 2, None, 5)
    hit = next(h for h in hits if h["id"] == "agot2-faq41/3.1")
    assert "[effect(s)]" in hit["snippet"], hit["snippet"]
    terminal = search.terminal_snippet(hit["snippet"], hit["text"])
    assert "«effect(s)»" in terminal and "«effect(s»" not in terminal, terminal
    for source in (hit["text"], None):
        page = str(snippet(hit["snippet"], source))
        assert "<mark>effect(s)</mark>" in page and "<mark>effect(s</mark>" not in page, (source, page)


DUPLICATE_ABILITY = (
    'A duplicate grants its controller the following triggered game ability: "Interrupt: When the overlapping unique card '
    'would leave play, discard this duplicate to save that card. (Cannot be canceled.)"'
)


def test_a_related_line_says_none_of_the_querys_ideas(index):
    """r88 M1: "opp pops my Jon Snow with a kill effect, i have a dupe sitting under him, can I save him with it" showed
    Duplicates' last sentences, "A player may not switch a card with its duplicate. ... Related: Ownership and Control,
    Save, Unique Cards": the list of entries the Rules Reference relates to it counted as saying "save", and the
    sentence that gives a duplicate its save ability was never shown."""
    query = "opp pops my Jon Snow with a kill effect, i have a dupe sitting under him, can I save him with it"
    hits, _ = search.results(index, query, 2, None, 5)
    duplicates = next(h for h in hits if h["id"] == "agot2-rr/duplicates")
    shown = duplicates["snippet"].replace("[", "").replace("]", "")
    assert DUPLICATE_ABILITY in shown, duplicates["snippet"]


def test_an_answers_closing_sentence_a_few_words_past_the_bound_is_shown(index):
    """r88 M2: "how much does hands judgement cost to cancel a shadow event with a dash cost" found the Q&A first, but
    its snippet stopped at "... that X will be undefined.", one sentence short of the answer, "An undefined X value
    defaults to 0, therefore The Hand's Judgment can be played for 0 gold." (59 words in all, past the 56 a run may
    hold).  The text's one remaining sentence closes it, within the reach a parenthesised sentence has."""
    hits, _ = search.results(index, "how much does hands judgement cost to cancel a shadow event with a dash cost", 2, None, 5)
    assert hits[0]["id"] == "agot2-faq41/qa/the-hand-s-judgment-shadow-events", [h["id"] for h in hits]
    shown = hits[0]["snippet"].replace("[", "").replace("]", "")
    assert shown.endswith("An undefined X value defaults to 0, therefore The Hand's Judgment can be played for 0 gold."), shown
    # (only the last: with two sentences left, the run stops where it did)
    words = " ".join(["word"] * 25)
    assert search.snippet(f"A kneel {words}. A stand {words}. The end here.", [{"kneel"}, {"stand"}]).endswith(". The end here.")
    assert search.snippet(f"A kneel {words}. A stand {words}. The end here. Not shown.", [{"kneel"}, {"stand"}]).endswith(f"{words}. …")


LEADER_RELAXED = "A leader may participate as a player in a Relaxed tier tournament for which he or she is responsible only if"


@pytest.mark.parametrize(
    "query", ["can the TO play in his own store championship", "can the organizer play in his own store champ"]
)
def test_a_store_championship_is_the_relaxed_tier(index, query):
    """r88 M4: players say "store champ"; the Regulations' tier for it is Relaxed ("The Relaxed Tier is used for Store
    Championship events"), and their rules say "Relaxed".  The player vocabulary reads one as the other, so Leader
    Participation's snippet shows the sentence on a Relaxed tier tournament."""
    text, _ = search.clean(query)
    assert any("relaxed" in g.terms for g in index.analyse(text, 2)["groups"]), query
    hits, _ = search.results(index, query, 2, None, 5)
    assert hits[0]["id"] == "agot2-tr/leader-participation", [h["id"] for h in hits]
    assert LEADER_RELAXED in hits[0]["snippet"].replace("[", "").replace("]", ""), hits[0]["snippet"]


def test_the_ideas_a_heading_says_count_after_the_others(index):
    """r88 M3: "went to time and we're both on 12 power, who gets the win" found Going to Time first, but its snippet was
    the worked example, "... the rules for going to time. Based on step 1, Dan has 11 power and Emily has 13 power...",
    which says "time", "going" (went), "power" and "win" (victory) and answers only the untied case.  The heading,
    printed above the snippet, already says "Going to Time": the run chosen is the one saying the question's other
    ideas (both players on the same power), which shows the step that breaks the tie."""
    hits, _ = search.results(index, "went to time and we're both on 12 power, who gets the win", 2, None, 5)
    assert hits[0]["id"] == "agot2-tr/going-to-time", [h["id"] for h in hits]
    shown = hits[0]["snippet"].replace("[", "").replace("]", "")
    assert (
        "If both players require the same amount of power, proceed to step 2. "
        "The player with the most cards remaining in his or her draw deck." in shown
    ), shown
    # (without a heading, as before: the run that says the most ideas, then the most marked words)
    filler = " ".join(["word"] * 50)
    text = f"Both players at the same power go on. {filler}. Time up, time out, power counted."
    groups = [{"time"}, {"both"}, {"power"}]
    assert search.snippet(text, groups).startswith("… [Time] up, [time] out"), search.snippet(text, groups)
    titled = search.snippet(text, groups, heading="Going to Time")
    assert titled.startswith("[Both] players"), titled


def test_a_word_that_only_starts_like_the_querys_is_not_marked(index):
    """r88 M1: "can a duplicate save my character from a kill effect" showed Duplicates' "Duplicates have no text,
    titles, [characteristics,] type, or traits ...": "characteristics" starts with "character", so it counted as saying
    the question's "character", and that run beat the save ability on its number of marks.  A stem marks a word that
    ends within a few letters of it (an ending), not another word that starts alike."""
    hits, _ = search.results(index, DUPLICATE_SAVE, 2, None, 5)
    duplicates = next(h for h in hits if h["id"] == "agot2-rr/duplicates")
    assert DUPLICATE_ABILITY in duplicates["snippet"].replace("[", "").replace("]", ""), duplicates["snippet"]
    text = "Its characteristics stay. The character stands. Attachments and defenders count."
    assert search.snippet(text, [{"character"}, {"attachment"}, {"defend"}]) == (
        "Its characteristics stay. The [character] stands. [Attachments] and [defenders] count."
    )
