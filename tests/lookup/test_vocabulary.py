"""The player vocabulary (corpus/player-vocabulary.yaml) as data: every entry can match a query,
every rules' word it maps to is really in the rules, and players' words find the rules' clauses."""

from __future__ import annotations

import pytest
import yaml

from judgekb.lookup import search
from judgekb.lookup.words import stem_of, words_of
from tests.conftest import CORPUS

VOCABULARY = CORPUS / "player-vocabulary.yaml"


class _NoDuplicates(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys without a word: here a repeated entry is an error."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            assert key not in seen, f"{VOCABULARY.name} line {key_node.start_mark.line + 1}: {key!r} is listed twice"
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


@pytest.fixture(scope="module")
def phrases() -> dict[str, list[str]]:
    data = yaml.load(VOCABULARY.read_text(encoding="utf-8"), Loader=_NoDuplicates)  # noqa: S506 (a SafeLoader)
    return {str(k): [str(v) for v in vs] for k, vs in data["phrases"].items()}


@pytest.fixture(scope="module")
def index(db):
    return search.Index(db)


def test_every_entry_is_written_as_queries_are_read(phrases):
    # a query is read as lower-case words ("re-draw" is "re draw", "set-up" is "set up"): a key
    # written otherwise ("Re-draw", "can not ") would never match anything
    for key in phrases:
        assert key == " ".join(words_of(key)), f"{key!r} never matches: write it as {' '.join(words_of(key))!r}"
        assert phrases[key], f"{key!r} maps to nothing"


def test_every_rules_word_is_in_the_rules(phrases, clauses):
    """A mapping to a word or phrase no clause uses finds nothing and only dilutes the query."""
    texts = [f" {' '.join(words_of(str(c['heading']) + ' ' + str(c['text'])))} " for c in clauses]
    stems = {stem_of(w) for text in texts for w in text.split()}
    missing = []
    for key, terms in phrases.items():
        for term in terms:
            words = words_of(term)
            if term == key:  # the player's own word kept beside the rules' words
                continue
            found = stem_of(words[0]) in stems if len(words) == 1 else any(f" {' '.join(words)} " in t for t in texts)
            if not found:
                missing.append(f"{key}: {term}")
    assert not missing, missing


def test_misspellings_the_corrector_cannot_mend_read_as_the_rules_word(index):
    # real English words (never "corrected") and words the corrector sends elsewhere
    for typed, meant in [
        ("marshall", "marshal"),
        ("knelled", "knelt"),
        ("calim", "claim"),
        ("insite", "insight"),
        ("deadpile", "dead pile"),
    ]:
        terms = {t for g in index.analyse(f"{typed} rules", 2)["groups"] for t in g.terms}
        assert meant in terms, (typed, terms)
    assert index.correct("calim", 2) != "claim"  # why the entry is needed: the corrector says "calm"


def test_a_contraction_typed_without_its_apostrophe_is_a_word_the_search_skips(index):
    """"thats", "theyre", "wouldnt": a player's typing, never a card's name the corpus lacks (the note
    said "thats" was not in the corpus and might be a card) nor a typo of another word ("theyre" was
    read as "there", "wouldnt" as "would", each with a spelling note)."""
    typed = ("intimidate can i kneel a guy thats already attacking", "theyre attacking with a knelt guy", "wouldnt a dupe save him")
    for query in typed:
        hits, notes = search.results(index, query, 2, None, 5)
        assert hits and not notes, (query, notes)
        said = {g.said for g in index.analyse(query, 2)["groups"]}
        assert not said & {"thats", "theyre", "wouldnt"}, said
    assert "cannot" in {t for g in index.analyse("cant attack", 2)["groups"] for t in g.terms}  # "cant" keeps its meaning


def test_unkneel_is_standing_not_kneeling(index):
    terms = {t for g in index.analyse("unkneel", 2)["groups"] for t in g.terms}
    assert "stand" in terms and "kneel" not in terms


@pytest.mark.parametrize(
    ("query", "edition", "first"),
    [
        ("what happens to an unblocked attack", 2, {"agot2-rr/unopposed"}),
        ("unblockable character", 2, {"agot2-rr/stealth"}),
        ("does putting a card into play trigger an etb", 2, {"agot2-rr/enters-play"}),
        ("can I flash in a character during challenges", 2, {"agot2-rr/ambush"}),
        ("can I equip a weapon on an opponent's character", 2, {"agot2-rr/attachment-cards"}),
        ("static abilities", 2, {"agot2-rr/constant-abilities"}),
        ("apnap order for simultaneous triggers", 2, {"agot2-rr/priority-of-simultaneous-resolution"}),
        (
            "can I lie about what card is in my hand",
            2,
            {"agot2-faq41/definitions/derived-information", "agot2-faq41/definitions/hidden-information"},
        ),
        ("can I float gold to the next round", 2, {"agot2-rr/appendix-i/taxation-phase/7.2"}),
        ("what is the win condition", 2, {"agot2-rr/winning-the-game"}),
        ("negative str", 2, {"agot2-rr/negative-quantities"}),
        ("is slow play allowed", 2, {"agot2-tr/unsporting-conduct"}),
        ("rfg cards", 1, {"agot1-rules/removed-from-game"}),
        # how often an ability may be used is its limit, whatever the card ("Limit X per [period]")
        ("can i use 2 copies of tyrions chain in the same round", 2, {"agot2-rr/limits-and-maxima"}),
    ],
)
def test_players_words_find_the_rules_clause(index, query, edition, first):
    hits, _ = index.search(query, edition, None, 3)
    # the first hit, or a clause folded under it ("Negative Quantities: See Modifiers" folds under Modifiers)
    assert {hits[0].id, *(f["id"] for f in hits[0].folded)} & first, [h.id for h in hits]


@pytest.mark.parametrize(
    "query",
    ["can i respond to my own reaction with another reaction", "can i play a reaction to a reaction", "can i interrupt an interrupt"],
)
def test_an_ability_in_answer_to_another_finds_nested_ability_sequences(index, query):
    """Triggering an ability in answer to one that is resolving is what Nested Ability Sequences rules
    on, a word players never say: without the vocabulary it ranked sixth, under every Reactions entry."""
    hits, _ = index.search(query, 2, None, 5)
    assert "agot2-rr/nested-ability-sequences" in [h.id for h in hits[:3]], [h.id for h in hits]


def test_a_participant_killed_mid_challenge_finds_participating(index):
    """"Does renown still trigger if my renown guy gets killed mid challenge": what decides it is that a
    character leaving play is no longer participating (Participating), a word the question never says;
    it ranked sixteenth, under Kill and the timing entries."""
    hits, _ = index.search("does renown still trigger if my renown guy gets killed mid challenge before it resolves", 2, None, 5)
    assert "agot2-rr/participating" in [h.id for h in hits[:3]], [h.id for h in hits]


def test_players_questions_gain_the_rules_words_for_whole_player_phrases_only():
    # the build adds to each players' question the rules' words for the player phrases in it; a phrase
    # matches whole words in order ("untap phase"), never inside a word ("untapped" is not "tap")
    from judgekb.lookup.player_questions import expander
    from judgekb.lookup.tables import load_phrases

    rows = load_phrases(CORPUS)
    expand = expander(rows)
    rules_words = {term: [e for t, e in rows if t == term] for term in ("untap phase", "tap", "untap")}
    said = "Do my guys UNTAP in the untap phase?"
    expanded = expand(said)
    assert expanded.startswith("do my guys untap in the untap phase ")
    added = expanded[len("do my guys untap in the untap phase ") :]
    for term in ("untap phase", "untap"):
        assert all(e in added for e in rules_words[term]), term
    assert expand("phase untap") == "phase untap " + " ".join(dict.fromkeys(rules_words["untap"]))
    assert not any(f" {e} " in f" {expand('my untapped guys')} " for e in rules_words["tap"])
    assert expand("") == ""
