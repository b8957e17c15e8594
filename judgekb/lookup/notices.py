"""What lookup says besides its hits, first: that the answer lives in a document the corpus does not
hold (Learn to Play, the Alternate Format Regulations, a card's own text), that a word is the other
edition's term, and each named card's status under the restricted list in force.

The topics and terms are data (``corpus/absent-topics.yaml``); these functions read a query's analysis
(:meth:`judgekb.lookup.search.Index.analyse`) against them.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judgekb import store
from judgekb.lookup.titles import (
    asked_first,
    no_article,
    only_title_as_written,
    only_title_named,
    own_title_spans,
    spelled_titles,
    title_spans,
    titles_with,
)
from judgekb.lookup.words import EDITION_ADJECTIVES, EDITION_NAMES, STOPWORDS, stem_of, words_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from judgekb.lookup.search import Index


def absent(index: Index, analysis: dict[str, Any], edition: int | None, cards: set[str]) -> list[str]:
    """Notices for answers that live in a document the corpus does not hold."""
    notices = []
    text = f" {analysis['text']} "
    for absent_document in _asked_topics(index.absent_topics.get("topics", []), text, edition):
        notices.append(
            f"not in the corpus: the answer is in the {absent_document['document']}, which judgekb does not hold: "
            f"look for {absent_document['look_for']}. Closest clauses below."
        )
    notices += unruled(index, text, edition)
    card_text = index.absent_topics.get("card_text")
    if not card_text or _asks_rules(analysis, card_text):  # "what does the Knight trait do": a rules question
        return notices
    if analysis.get("foreign"):  # a question in another language: its words are no card's name ("quien gana")
        return notices
    # the other edition's titles the query spells out are that edition's cards (other_edition_cards says
    # so): their words are neither unknown words nor names of this edition's cards ("pentoshi")
    # and the words of an absent document's topic ("valyrian draft") name no card (The Valyrian)
    topic = topic_words(index, analysis, edition)
    elsewhere = _other_edition_title_words(index, analysis["words"], edition) | topic
    unknown = _unknown_words(index, analysis, edition, cards, card_text, elsewhere)
    # the editions whose card database is imported, of those searched (no edition chosen: both)
    imported = sorted(index.imported_editions & ({edition} if edition else {1, 2}))
    if imported:
        # where the notice without card data says the card's own text is not in the corpus, the pointer
        # to the card's page says where it is; failing a title, the notice still says so
        pointers: list[str] = []
        # (not Nightmares in "nightmares in the north", nor Pentoshi Manor in "trading with the pentoshi")
        free = {stem_of(w) for w in analysis["words"] if w not in elsewhere}
        named = {c for c in cards if _card_stems(index, c) & free}
        for ed in imported:
            # (no edition chosen: "hellholt engineer" is still the first-edition card, not second edition's Hellholt)
            theirs = elsewhere if edition else _other_edition_title_words(index, analysis["words"], ed) | topic
            free_here = {stem_of(w) for w in analysis["words"] if w not in theirs}
            ours = {c for c in named if c.startswith(f"card:{ed}:") and _card_stems(index, c) & free_here}
            pointers += [p for p in _card_page_pointer(index, analysis, ed, card_text, ours, bool(unknown), theirs) if p not in pointers]
        # a word read as a card's name that is a one-word title as it stands, where no title span counted
        # it ("what does the card ghost say about stealth": Ghost, an everyday word beside another)
        if not pointers:
            bare = dict.fromkeys(_bare(w) for w in unknown)
            titled = {(t, ed) for w in bare for ed in imported if (t := index.imported_titles(ed).get(w))}
            pointers = [card_page_note(name, ed) for name, ed in sorted(titled)][:POINTERS]
        notices += [p for p in pointers if p not in notices]
        if not pointers and not unknown and not named:  # as without card data: "does tyrion's reaction …"
            unknown = _story_names(index, analysis, elsewhere)
        if not pointers and (unknown or (named and _asks_text(analysis, card_text))):
            asked = _asks_text(analysis, card_text) or _asks_wording(analysis, card_text)
            notices.append(_no_title_notice(index, unknown, named, edition, imported, asked))
        return notices
    how = f"because {card_text['document']}: {card_text['look_for']}"
    asks = _asks_text(analysis, card_text) or _asks_wording(analysis, card_text)
    other = 3 - edition if edition in (1, 2) else 0
    if other and not cards and all(index.name(w.removesuffix("'s")) for w in unknown):
        # a card this edition's texts never name, spelled out by the full title the other edition's texts
        # know ("what is the cost of eddard stark" in first edition), asked about or only named ("The Red
        # Keep"): a card all the same, said by its title
        theirs = index.cards_named(analysis, other)
        if (asks or _only_title(index, theirs, analysis)) and (spelled := {c for c in theirs if _full_title(index, c, analysis)}):
            cards, unknown = spelled, []
    printed = ""
    if not unknown and not cards:
        unknown = _story_names(index, analysis, elsewhere)
        printed = _printed_in(index, unknown, edition)
    if unknown:
        notices.append(
            f"not in the corpus: {_unknown_said(unknown, index, edition)}{printed}. If this asks about a card, the card's own text (cost, "
            f"STR, icons, abilities) is not in the corpus {how}. Closest clauses below."
        )
    elif not cards and (said := CARD_SAID.search(analysis["text"])):
        # "what does the card kings of summer say": a title of words the rules use too, said to be a card
        notices.append(
            f'not in the corpus: the card\'s own text of "{said["title"]}" (cost, STR, icons, abilities), {how}. '
            "Closest clauses below."
        )
    elif not cards and CARD_TEXT_ASKED.search(analysis["text"]):
        # "what does the Kings of Summer agenda card text say": asked outright for a card's words by a title
        # the rules' own words spell (no word of it unknown), the card is not named, yet its text is still
        # not here
        notices.append(f"not in the corpus: a card's own text (cost, STR, icons, abilities), {how}. Closest clauses below.")
    elif cards and (
        _asks_text(analysis, card_text)
        or _only_title(index, cards, analysis)
        or (_spelled_out(index, cards, analysis) and (asks or not any(index.ruled_on(c) for c in cards)))
    ):
        # asked for its text, or only its name ("The Red Keep", "Tywin Lannister": what it says is the first
        # thing a judge wants), or about a card the corpus holds no ruling on ("does the red viper get power
        # for each point of claim", second edition): what it does is in its own text
        named = not_inside_another(index, analysis["words"], cards)
        ability = _asks(analysis, card_text.get("its_ability", []), [])
        if not (asks or ability or _only_title(index, cards, analysis)) and all(index.named_in_force(c) for c in named):
            # not asked for its text, and a governing clause names each card: the clauses below hold that ruling,
            # not a fallback ("does oldtown scholar trigger when we draw back up to 7 at the end of setup?": FAQ 1.9
            # says it cannot; blind review r88 M6).  One line where the text is, as with card data imported
            notices.append(_card_text_elsewhere(index, named, card_text))
            return notices
        # each name once: both editions' The Red Viper read "The Red Viper / The Red Viper"
        name = " / ".join(sorted({index.card_name(c) for c in named}))
        where = _where_named(index, named, edition)
        notices.append(f"not in the corpus: the card's own text of {name} (cost, STR, icons, abilities), {how}. {where}")
    return notices


MENTIONS_SAID = 3  # the clauses naming a card that a card-text notice lists by id


def _card_text_elsewhere(index: Index, cards: set[str], card_text: dict[str, Any]) -> str:
    """Without card data, the one line for cards a question names but does not ask the text of, which the
    corpus rules on: where their own text is, as the pointer to a card page says it once card data is imported
    (``card_page_note``), not "not in the corpus ... closest clauses below" above the ruling."""
    names = sorted({index.card_name(c) for c in cards})  # (both editions' The Red Viper: one name)
    if len(names) == 1:
        said = f"{names[0]} is a card; its own text is on its card page"
    else:
        said = f"{', '.join(names[:-1])} and {names[-1]} are cards; their own text is on their card pages"
    return f"{CARD_POINTER_START}{said} once a card database is imported: {card_text['look_for']}"


def _clauses_writing(index: Index, phrase: str, edition: int | None, limit: int | None = None) -> list[tuple[str, str]]:
    """The searched edition's clauses (id, text) whose heading or text writes the phrase, as FTS5 matches it."""
    editions = (edition,) if edition else (1, 2)
    return [(i, t) for i, _, _, t in store.clauses_writing(index.conn, phrase, editions, limit=limit)]


def _where_named(index: Index, cards: set[str], edition: int | None) -> str:
    """Where the searched edition's clauses write the card's name, by clause id (in force first): the
    notice said "the clauses below are what the corpus says about it" above clauses that never named
    the card (Action Windows for "what does The Red Keep do", second edition).  Several cards named:
    each card's clauses after its name, since "names it" did not say which ("Blood of the Dragon /
    Dagmer Cleftjaw / Dracarys! …. The corpus names it in agot2-faq41/3.1, agot2-rr/assault": blind review
    r87 M4)."""
    by_name: dict[str, set[str]] = {}  # (both editions' The Red Viper is one name)
    for card in cards:
        by_name.setdefault(index.card_name(card), set()).add(card)
    which = f"{EDITION_ADJECTIVES[edition]} " if edition else ""
    if len(by_name) == 1:
        said = _named_where(index, cards, edition, "it")
        return f"The corpus {said}; closest clauses below." if said else f"No {which}clause of the corpus names it; closest clauses below."
    parts = [_named_where(index, named, edition, name) or f"names {name} in no {which}clause" for name, named in sorted(by_name.items())]
    return f"The corpus {'; '.join(parts)}; closest clauses below."


def _named_where(index: Index, cards: set[str], edition: int | None, card: str) -> str:
    """What the corpus says of one card (its ids, one card's of each edition): "names {card} in …", "rules on
    {card} in …; it also names it in …", or "" where no clause of the searched edition writes its name."""
    found: dict[str, bool] = {}
    for card_id in sorted(cards):
        name = index.card_name(card_id)
        phrase = " ".join(words_of(no_article(name)))
        # a set's name in a card reference ("Iron Mines (Calm Over Westeros, 92)") names the set, not the card
        written = re.compile(re.escape(no_article(name)), re.IGNORECASE)
        as_set = re.compile(written.pattern + r",\s*\d+\)", re.IGNORECASE)
        for clause_id, text in _clauses_writing(index, phrase, edition) if phrase else ():
            named = len(written.findall(text or ""))
            if named and named == len(as_set.findall(text or "")):
                continue
            found[clause_id] = any(r == "superseded" for _, r in index.governors.get(clause_id, ()))
    if any(not old for old in found.values()):  # (a lookup review: a superseded list entry was named beside them)
        found = {c: old for c, old in found.items() if not old}
    if not found:
        return ""
    # a ruling on the card (a Q&A asked about it) is said as one: "names it" read as "no ruling" above the
    # FAQ's answer on Daenerys's STR ("dany str reduce", a lookup review)
    rulings = set().union(*(index.rulings_on(c) for c in cards)) & set(found)
    mentions = sorted(found, key=lambda c: (c not in rulings, found[c], c))
    more = f" and {len(mentions) - MENTIONS_SAID} more" if len(mentions) > MENTIONS_SAID else ""
    if rulings:
        shown = mentions[:MENTIONS_SAID]
        also = [c for c in shown if c not in rulings]
        ruled = f"rules on {card} in {', '.join(c for c in shown if c in rulings)}"
        # one card of several: a comma, since a semicolon parts the cards
        part, subject = (";", "it also") if card == "it" else (", and", "")
        if also:
            return f"{ruled}{part} {subject + ' ' if subject else ''}names it in {', '.join(also)}{more}"
        return ruled + (f"{part} {len(mentions) - MENTIONS_SAID} more name it" if more else "")
    return f"names {card} in {', '.join(mentions[:MENTIONS_SAID])}{more}"


def _only_title(index: Index, cards: set[str], analysis: dict[str, Any]) -> bool:
    """Is the query only a card's name ("The Red Keep", "ser jaime lannister"): every word it typed,
    articles aside, a word of one named card's title (of two words or more)?"""
    said = {_bare(w) for w in analysis["words"] if w not in STOPWORDS}
    return bool(said) and any(
        len(title := {_bare(w) for w in words_of(index.card_name(c)) if w not in STOPWORDS}) > 1 and said <= title
        for c in cards
    )


def unruled(index: Index, text: str, edition: int | None) -> list[str]:
    """A topic no document judgekb holds rules on (``unruled`` in corpus/absent-topics.yaml: penalties
    for infractions, first-edition draft), asked about: said first, with the clauses that bear on it,
    so that the closest clauses are never read as the answer.  ``text``: the query's words, padded."""
    notes = []
    for topic in _asked_topics(index.absent_topics.get("unruled", []), text, edition):
        which = f"{EDITION_ADJECTIVES[topic['edition']]} " if topic.get("edition") else ""
        see = ", ".join(f"{s['id']} ({s['says']})" for s in topic.get("see", []))
        notes.append(
            f"not in the corpus: no {which}document judgekb holds rules on {topic['about']}"
            + (f"; see {see}" if see else "")
            + ". Closest clauses below."
        )
    return notes


def _asked_topics(topics: list[dict[str, Any]], text: str, edition: int | None) -> list[dict[str, Any]]:
    """The topics of corpus/absent-topics.yaml (``topics`` or ``unruled``) of the searched edition (any,
    with none chosen) that a query asks about: one of their ``when`` phrases is among its padded words."""
    return [
        t for t in topics
        if (not edition or t.get("edition") in (None, edition)) and any(f" {w.lower()} " in text for w in t.get("when", []))
    ]  # fmt: skip


# a query that asks for a card's words outright, whatever card: "… agenda card text say", "card text of
# …" (not "the card says cannot be saved, can i …", which tells a situation, nor "what does choose mean
# in card text", a term's meaning, nor "the exact wording of the golden rules", a rule's)
CARD_TEXT_ASKED = re.compile(
    r"(?<!\bin )(?<!\bon )\b(?:card text|printed text|card wording)(?: (?:say|says|read|reads))?$"
    r"|^(?:the )?(?:exact |full )?(?:card text|printed text) (?:of|on)\b"
)
# a title the query says is a card's, asking for its words ("what does the card kings of summer say")
CARD_SAID = re.compile(r"\bthe card (?P<title>\S+(?: \S+){0,4}?) (?:do|does|say|says)$")
NAME_RULES_DF = 3  # a name the rules write in more clauses than this is a rules term ("westeros", "throne")


def _spelled_out(index: Index, cards: set[str], analysis: dict[str, Any]) -> bool:
    """Does the query spell some named card's title words as written ("does the red viper have deadly"),
    not only a word's stem ("does a knight have stealth" does not name Knighted)?"""
    said = {_bare(w) for w in analysis["words"]}
    return any(
        (title := {_bare(w) for w in words_of(index.card_name(c)) if w not in STOPWORDS}) and title <= said
        for c in cards
    )


def _full_title(index: Index, card_id: str, analysis: dict[str, Any]) -> bool:
    """Does the query spell out all of a card's title (of two words or more), not only a name of it?"""
    title = {stem_of(w.removesuffix("'s")) for w in words_of(index.card_name(card_id)) if w not in STOPWORDS}
    return len(title) > 1 and title <= {stem_of(w.removesuffix("'s")) for w in analysis["words"]}


def not_inside_another(index: Index, words: list[str], cards: set[str]) -> set[str]:
    """The cards a query names, less a card named by some of the words that name another ("iron" of
    "what does the iron throne do" is not Iron Mines; the note said "the card's own text of Iron
    Mines / The Iron Throne")."""
    query = {stem_of(w.removesuffix("'s")) for w in words if w not in STOPWORDS}
    naming = {c: frozenset(query & {stem_of(w.removesuffix("'s")) for w in words_of(index.card_name(c))}) for c in cards}
    return {c for c, named in naming.items() if not any(named < other for other in naming.values())}


def spelling(analysis: dict[str, Any]) -> list[str]:
    """Say which words were read as a corpus word they may misspell, so a judge sees what was searched
    ("challange" also as "challenge") and what was skipped as a misspelled small word ("waht" as
    "what"), and a card's nickname read as its title's words ("dany" as "daenerys"); a word's own form
    ("varys" for "Varys's", "stealthed" for "stealth") goes unsaid."""

    corrected = [
        (w, fixed) for w, fixed in [*analysis.get("corrected", {}).items(), *analysis.get("misspelled", {}).items()]
        if not _own_form(w, fixed)
    ]
    searched = {g.said for g in analysis["groups"]}
    said = [f'"{w[:40]}" also as "{fixed}"' for w, fixed in corrected if w in searched]
    skipped = [f'read "{w[:40]}" as "{fixed}", a word the search skips' for w, fixed in corrected if w not in searched]
    notes = [f"spelling: searched {', '.join(said[:5])}"] if said else []
    nicknamed = [f'read "{w[:40]}" as "{title}"' for w, title in analysis.get("nicknamed", {}).items()]
    notes += [f"nickname: {'; '.join(nicknamed[:5])}"] if nicknamed else []
    return notes + ([f"spelling: {'; '.join(skipped[:5])}"] if skipped else [])


SHORT_QUERY_IDEAS = 3  # a query of at most this many ideas is about each of them


def unused_words(index: Index, analysis: dict[str, Any], edition: int | None, notes: list[str]) -> list[str]:
    """Say that no clause of the edition uses a word a short query is about ("1st ed rush keyword",
    "trample"): an English word that neither the texts nor the player vocabulary know is dropped by
    the search, and the closest clauses, matching the query's other words, would read as the answer.

    Unsaid when a notice above already explains the absence (a card's own text, a document not held,
    a card list), for a misspelling read as a corpus word, for a word of a corpus card's title, and
    for a word of a longer question, where one incidental word ("stay", "anyway") decides nothing."""
    groups = analysis["groups"]
    if len(groups) > SHORT_QUERY_IDEAS or any(not n.startswith(("searching ", "the query names ")) for n in notes):
        return []
    unused = [
        g.said for g in groups
        if g.said.isalpha() and len(g.said) >= 3 and g.said not in analysis.get("corrected", {})
        and index.english(g.said) and not any(index.term_df(t, edition) for t in g.terms)
        and not index.corpus_title_word(g.said) and not index.imported_title_word(g.said, None)
    ]  # fmt: skip
    if not unused:
        return []
    which = f"{EDITION_ADJECTIVES[edition]} " if edition in (1, 2) else ""
    said = ", ".join(f'"{w[:40]}"' for w in unused[:3])
    if len(unused) == len(groups):  # no other words: the clauses below come from players' questions with the word ("Ghost")
        return [f"no {which}clause uses {said}: the clauses below answer players' questions that use it"]
    return [f"no {which}clause uses {said}: the clauses below match the query's other words"]


def topic_words(index: Index, analysis: dict[str, Any], edition: int | None) -> set[str]:
    """The words of the absent documents' topic phrases the query uses ("valyrian draft", "first game"):
    they ask about the document, and name no card ("what are the rules for valyrian draft" is not about
    the card The Valyrian)."""
    text = f" {analysis['text']} "
    return {
        w for topic in _asked_topics(index.absent_topics.get("topics", []), text, edition)
        for phrase in topic["when"] if f" {phrase.lower()} " in text for w in phrase.lower().split()
    } - STOPWORDS  # fmt: skip


def _unknown_words(
    index: Index, analysis: dict[str, Any], edition: int | None, cards: set[str], card_text: dict[str, Any], elsewhere: set[str]
) -> list[str]:
    """The query's words that neither the rules, English nor players use (a card's name, most likely),
    or, in a query asking for a card's words that names no card the corpus knows, the words the
    edition's rules never use.  A named card's title words ("viper" in The Red Viper) name that card,
    and the other edition's terms ("golden" in golden rules) and titles are said to be that edition's:
    none of them are unknown words."""
    titled = {w for card in index.cards if card["id"] in cards for r, _ in card["keys"] for w in r}
    explained = {w for entry in analysis.get("other_edition", []) for w in entry["term"].split()} | elsewhere
    unknown = [
        w for w in analysis["content"]
        if len(w) >= 4 and w.replace("'", "").isalpha() and stem_of(w) not in titled and w not in explained
        and not index.known(w, edition) and not _misspelled(index, w, edition) and not _trait(index, w, edition)
        # an English word the rules use in the plural, or the singular, is theirs: "my lord has 3 power" was told to
        # import card data, the rules writing "lords" (blind review r86 M2); a name is not ("tyrell", "the Tyrells")
        and not (index.everyday(w) and any(index.rules_word(form, edition) for form in (f"{w}s", w.removesuffix("s")) if form != w))
    ]  # fmt: skip
    if not unknown and not cards and _asks_wording(analysis, card_text):
        # asked for a card's words: a word this edition's rules never use names the card
        unknown = [w for w in _name_words(index, analysis, edition, card_text) if w not in explained]
    if not unknown and not cards and (_asks_text(analysis, card_text) or _asks_wording(analysis, card_text)):
        # asked for a card's printed text by a name the rules write only in an example or a ruling
        # ("what does tyrion lannister do", "what icons does jaime have"): the name of a card all the same;
        # never a word of a rule's heading or one the edition's rules use often (the Crown Regent, the
        # Council Chamber, the Littlefinger Variant, Westeros are first edition's rules, no cards)
        # A card's nickname is a card's name whatever the rules call by its title's words ("lf": Littlefinger,
        # also first edition's Littlefinger Variant)
        terms = index.rule_terms()
        nicknamed = {w for title in analysis.get("nicknamed", {}).values() for w in title.removesuffix("'s").split()}
        unknown = [
            w for w in analysis["content"]
            if len(w) >= 4 and w not in explained and (base := w.removesuffix("'s")) and index.name(base) and not index.english(base)
            # (an everyday word the searched edition's rules write only capitalised is their term, not a name:
            # "store" of the Tournament Regulations' "Store Championship")
            and (base in nicknamed or (
                base not in terms and (df := index.rules_df(base, edition)) <= NAME_RULES_DF and not (df and index.everyday(base))
                # (a word the player vocabulary reads names no card unless the query writes the name it is
                # part of: "countered" is cancel, "countered plots" the first edition's Countered Plots; a blind
                # review got the card-text note for "if my event gets countered do I get my gold back")
                and (base not in index.synonyms or _in_written_name(index, analysis["words"], base, edition))
            ))
        ]  # fmt: skip
    return unknown


def _trait(index: Index, word: str, edition: int | None) -> bool:
    """Is the word a trait printed on cards that no title of the edition (of either, when none is chosen) has as a
    word ("ironborn", "kingsguards" in second edition; not "wildling": the Wildling Horde)?  It names a kind of card
    and no card: "my ironborn guy with assault" asks the Assault rule (a blind review got the card-name note for it,
    asking a judge to import cards)."""
    bare = _bare(word)
    editions = (edition,) if edition else (1, 2)
    return all(bare in index.story_traits[e] or bare.removesuffix("s") in index.story_traits[e] for e in editions)


def _in_written_name(index: Index, words: list[str], word: str, edition: int | None) -> bool:
    """Does the query write ``word`` with a neighbour as the texts write a name, capitalised ("countered
    plots": the example's Countered Plots)?"""
    for at, typed in enumerate(words):
        if _bare(typed) != word:
            continue
        for pair in (words[at - 1 : at + 1] if at else [], words[at : at + 2]):
            if len(pair) == 2 and all(w.isalpha() for w in pair):
                phrase = " ".join(pair)
                written = re.compile(r"\b" + r"\s+".join(w.capitalize() for w in pair) + r"\b")
                if any(written.search(text or "") for _, text in _clauses_writing(index, phrase, edition, limit=20)):
                    return True
    return False


def _bare(word: str) -> str:
    """A word as a title is matched: without its possessive or apostrophes ("jaqen" for "jaqen's", "hghar" for "h'ghar")."""
    return word.removesuffix("'s").replace("'", "")


INFLECTIONS = ("s", "ed", "ing")  # the regular endings a player puts on a rules word ("stealthed", "judgmented")


def _own_form(word: str, read_as: str) -> bool:
    """Is the word the one it is read as, in its own form: a possessive or plural ("varys" for "Varys's"), or a
    regular ending on it ("stealthed" for "stealth")?  The corrector reads a rules word's inflection that no text
    writes and no English word list holds as that word, rightly; that is no misspelling to report (blind review
    r88 L9).  A slip that only a stem hides is still one ("savee" is no form of "save")."""
    said, word_read = _bare(word), _bare(read_as)
    if said.removesuffix("s") == word_read.removesuffix("s"):
        return True
    return said.endswith(INFLECTIONS) and stem_of(said) == stem_of(word_read)


def _misspelled(index: Index, word: str, edition: int | None) -> bool:
    """Is the word read as another word (a typo the corrector mends), not as its own possessive
    ("varys" read also as "varys's" is still the name Varys, which no rule uses)?"""
    fixed = index.correct(word, edition)
    if not fixed:
        return False
    return _bare(fixed) != _bare(word)  # "copys" is "copy" misspelled; "varys", read as "varys's", is Varys


def _unknown_said(unknown: list[str], index: Index | None = None, edition: int | None = None) -> str:
    """The unknown words quoted, each once ("olenna olenna" is one word), for a note read aloud; names
    the rules write only in an example or a ruling ("tyrion") are said to be names, not rules terms; an
    everyday word a title writes capitalised ("orders" of Bungled Orders) is not said to be a name.  Words
    the other edition's texts use, and no clause of the searched one, are said so, of the searched edition
    ('no first-edition clause uses "store"': the rules do use it, in the Tournament Regulations' "Store
    Championship"; blind review r87 L1)."""
    words = list(dict.fromkeys(unknown))
    quoted = [f'"{w[:40]}{"…" if len(w) > 40 else ""}"' for w in words[:5]]
    said = " ".join(quoted)
    if index is not None and all(
        index.name(base := w.removesuffix("'s")) and not index.everyday(base) and not base.isdigit() for w in words
    ):  # (a year, "2008", is no name)
        return said + (" is a name, not a rules term" if len(words) == 1 else " are names, not rules terms")
    if (
        index is not None and edition in (1, 2) and not any(index.term_df(w, edition) for w in words)
        and any(index.term_df(w, 3 - edition) for w in words)
    ):  # fmt: skip
        return f"no {EDITION_ADJECTIVES[edition]} clause uses {' or '.join(quoted)}"
    return said + (" is not a word the rules use" if len(words) == 1 else " are not words the rules use")


def _no_card_word(index: Index, word: str, imported: list[int]) -> bool:
    """Is the word plainly no card's name, by the imported card data: an everyday word that no imported title of the
    searched editions writes, as it stands or as its possessive, and no title the corpus names or story name has?
    ("store" of "sleeves required at a store tourney": Spending the Winter Stores writes a plural, not "store".)
    Without the card data it cannot be told: one-word titles and title words are everyday words too (Bodyguard,
    Tyrion's Chain), so the note keeps its card advice."""
    bare = _bare(word)
    if not imported or not index.everyday(bare) or bare in index.story_names or index.corpus_title_word(bare):
        return False
    for ed in imported:
        by_word = index.imported_titles_by_word(ed)
        possessive = [t for t in by_word.get(f"{bare}s", ()) if re.search(rf"\b{re.escape(bare)}['’]s\b", t, re.IGNORECASE)]
        if bare in by_word or possessive:
            return False
    return True


def _card_stems(index: Index, card_id: str) -> set[str]:
    """The stems of a corpus card's title words, small words aside (as ``Index.cards_named`` reads them)."""
    return {stem_of(w) for w in words_of(index.card_name(card_id)) if w not in STOPWORDS}


def _other_edition_title_words(index: Index, words: list[str], edition: int | None) -> set[str]:
    """The words of the other edition's imported titles (of two words or more) that the query spells
    out where no title of the searched edition does ("pentoshi guildmaster" in a second-edition search)."""
    if edition not in (1, 2) or 3 - edition not in index.imported_editions:
        return set()
    own = {i for _, start, size in own_title_spans(index, words, edition, any_word=True)[0] for i in range(start, start + size)}
    spans = [range(start, start + size) for _, start, size in title_spans(index, words, 3 - edition) if size > 1]
    return {words[i] for span in spans if not own & set(span) for i in span} - STOPWORDS


NEAR_TITLE_WORD = 85  # rapidfuzz ratio: a typed word this close to a word of titles suggests them ("insidous")
NEAR_TITLES = 4  # titles suggested at most


def _near_titles(index: Index, unknown: list[str], imported: list[int]) -> tuple[str, list[str]] | None:
    """The titles with a word close to one the query typed, that no title has ("insidous": Insidious
    Scheme), for the note that says to check the spelling: the Cards page offers the same ("Did you
    mean"), the search note named none.  The first typed word with any, and at most NEAR_TITLES; a word
    of four letters too ("hodr": Hodor; at that ratio only a letter left out or added)."""
    from rapidfuzz import fuzz, process

    for word in dict.fromkeys(_bare(w) for w in unknown):
        if len(word) < 4:
            continue
        found: set[str] = set()
        for ed in imported:
            by_word = index.imported_titles_by_word(ed)
            for close, _, _ in process.extract(word, list(by_word), scorer=fuzz.ratio, score_cutoff=NEAR_TITLE_WORD, limit=3):
                found.update(by_word[close])
        if found:
            return word, sorted(found)[:NEAR_TITLES]
    return None


NEAR_WHOLE_TITLE = 88  # rapidfuzz ratio: a whole query this close to a card's whole title misspells it ("the things i do for luv")


def near_whole_title(index: Index, text: str, edition: int | None) -> tuple[str, int] | None:
    """The imported card title the whole query misspells, when no clause uses its words: the Cards page opens
    it from the same typo, the search named none.  One title, clearly the closest (else none)."""
    from rapidfuzz import fuzz, process

    from judgekb.cards.corpus_cards import bare_name

    typed = bare_name(text)
    if len(typed) < 6:
        return None
    best: dict[str, tuple[float, int]] = {}  # each title once, at its best score (a title of both editions is one title)
    for ed in sorted(index.imported_editions & ({edition} if edition else {1, 2})):
        titles = index.imported_titles(ed)
        for key, score, _ in process.extract(typed, list(titles), scorer=fuzz.ratio, score_cutoff=NEAR_WHOLE_TITLE - 5, limit=2):
            if score > best.get(titles[key], (-1.0, ed))[0]:
                best[titles[key]] = (score, ed)
    found = sorted(best.items(), key=lambda item: -item[1][0])
    if found and found[0][1][0] >= NEAR_WHOLE_TITLE and (len(found) == 1 or found[0][1][0] - found[1][1][0] >= 5):
        return found[0][0], found[0][1][1]
    return None


NO_TITLE_PAGE = "judgekb card NAME"  # how _no_title_notice names the card page: no title to name


def is_no_title_notice(note: str) -> bool:
    """Is this ``_no_title_notice``'s note (an empty result names the card itself, when it can)?"""
    return note.startswith("not in the corpus:") and NO_TITLE_PAGE in note


def _no_title_notice(
    index: Index, unknown: list[str], cards: set[str], edition: int | None, imported: list[int], asked: bool = False
) -> str:
    """With card data imported, a question the notice without it would tell "the card's own text is not
    in the corpus" that spells out no imported title: the text is on a card page all the same, and
    the titles that have the unknown word (a first name several cards share: "robert") are named.  Words
    plainly no card's name ("store") get no card advice, unless the query asks for a card's text or
    wording (``asked``: "what does counterfeit do" asks of a card, whatever its name)."""
    if unknown and not asked and all(_no_card_word(index, w, imported) for w in unknown):  # "a store tourney"
        return f"not in the corpus: {_unknown_said(unknown, index, edition)}. Closest clauses below."
    page = f"its card page (the Cards page, or {NO_TITLE_PAGE}{f' --edition {edition}' if edition else ''})"
    listed = []
    for word in dict.fromkeys(_bare(w) for w in unknown):
        names = sorted({name for ed in imported for name in titles_with(index, word, ed)})
        if 1 <= len(names) <= 8:
            listed.append(f'card titles with "{word}": {"; ".join(names)}')
    if unknown:
        near = None if listed else _near_titles(index, unknown, imported)
        nearest = f' (card titles with a word near "{near[0]}": {"; ".join(near[1])})' if near else ""
        titles = f": {'; '.join(listed)}" if listed else f", but the query names no imported card: check the spelling{nearest}"
        return (
            f"not in the corpus: {_unknown_said(unknown, index, edition)}. If this asks about a card, the card's own text (cost, STR, "
            f"icons, abilities) is on {page}{titles}. Closest clauses below."
        )
    name = " / ".join(sorted(index.card_name(c) for c in cards))
    return (
        f"not in the corpus: the card's own text of {name} (cost, STR, icons, abilities) is on {page}. "
        "The clauses below are what the corpus says about it."
    )


def _asks(analysis: dict[str, Any], phrases: list[str], patterns: list[str]) -> bool:
    """Does the query contain one of the phrases (whole words), or match one of the patterns?"""
    text = f" {analysis['text']} "
    return any(f" {w} " in text for w in phrases) or any(re.search(p, analysis["text"]) for p in patterns)


def _asks_rules(analysis: dict[str, Any], card_text: dict[str, Any]) -> bool:
    """Does the query ask about a rule a card's word names ("what does the Knight trait do") or about
    what the corpus itself holds of a card (its errata, its list entry)?  Then no card-text notice."""
    return _asks(analysis, card_text.get("corpus_holds", []), card_text.get("rules_questions", []))


def _asks_text(analysis: dict[str, Any], card_text: dict[str, Any]) -> bool:
    """Does a short query ask about a card's printed text ("robert baratheon's strength", "X what does
    it do")?  A longer one that uses such a word ("does Tywin's gold strength count for dominance")
    asks a rule about it."""
    return _asks(analysis, card_text.get("when", []), []) and len(analysis["groups"]) <= 4


def _asks_wording(analysis: dict[str, Any], card_text: dict[str, Any]) -> bool:
    """Does the query ask for a card's own words ("exact wording of …", "what does Ghost do")?"""
    return _asks(analysis, card_text.get("wording", []), card_text.get("wording_questions", []))


def _cue_words(card_text: dict[str, Any]) -> frozenset[str]:
    """The words that ask for a card's wording ("exact", "text", "say"): never part of its name."""
    words = {w for phrase in card_text.get("wording", []) for w in phrase.split()}
    return frozenset(words | {"exact", "card", "cards", "what", "does", "do", "say", "says"})


def _name_words(index: Index, analysis: dict[str, Any], edition: int | None, card_text: dict[str, Any]) -> list[str]:
    """In a query asking for a card's words, the words that can only be its name: those the
    edition's rules never use, besides the words asking for the wording."""
    cue_words = _cue_words(card_text)
    return [w for w in analysis["content"] if w.replace("'", "").isalpha() and len(w) >= 3 and w not in cue_words
            and w not in index.synonyms and not _rules_word_anywhere(index, w, edition)]  # fmt: skip


def _rules_word_anywhere(index: Index, word: str, edition: int | None) -> bool:
    """Is the word the rules' own: either edition's rules use it as written ("golden", "swiss"), or it
    is an English word some text uses in another form ("tiebreaker": "Tiebreakers")?  A name the texts
    only mention in a card's entries ("Tyrion's") can still name a card."""
    return index.rules_word(word, None) or (index.english(word) and bool(index.stem_df(word, None)))


# a question about a card's list status ("is Sparrows restricted", "Oldtown banned?")
STATUS_ASKED = ["restricted", "restriction", "restrictions", "unrestricted", "banned", "ban", "legal", "legality"]
# a question about the restricted and banned lists themselves ("what's the current restricted list")
LIST_ASKED = ["restricted list", "restricted lists", "banned list", "banned lists", "ban list", "banned cards",
              "restricted cards", "pod", "pods", "restricted pod", "restricted pods", "card pool", "cards are restricted",
              "cards are banned", "anything restricted", "anything banned"]  # fmt: skip
CARD_POINTER_START = "card text: "
CARD_POINTER = re.compile(r"^card text: (?P<name>.+?) is a card; .*--edition (?P<edition>[12])\)$")


# the command a note gives for a card's page; the web shows it as a link to that page
CARD_COMMAND = re.compile(r'judgekb card "(?P<name>[^"]+)" --edition (?P<edition>[12])')


def card_command(name: str, edition: int) -> str:
    """The command that opens a card's page, as CARD_COMMAND reads it (the title's own quotes dropped:
    '"The Rains of Castamere"' pastes into a shell as "The Rains of Castamere")."""
    return f'judgekb card "{name.strip(chr(34))}" --edition {edition}'


def pointed_card(note: str) -> tuple[str, int] | None:
    """The card and edition a card-page pointer names ("card text: Robb Stark is a card; … --edition 2)"),
    so a page can link it."""
    match = CARD_POINTER.match(note)
    return (match["name"], int(match["edition"])) if match else None


def imported_title(index: Index, analysis: dict[str, Any], edition: int | None) -> str | None:
    """For a query no clause answers: when it spells out an imported card's title, what to say instead
    of "check the spelling" — the card is real, the corpus only says nothing about it (its page shows
    what the import holds); a title of the other edition's cards says to search that edition."""
    searched = sorted(index.imported_editions & ({edition} if edition else {1, 2}))
    others = sorted(index.imported_editions - set(searched))
    # a title spelled out (this edition's, else the other's: "heads on spikes" is not Heads on Pikes), else
    # a name this edition's card's title has, and no other title ("barristan")
    # (generators: each is tried only when the ones before it named nothing)
    spelled_somewhere = ((ed, next(iter(spelled_titles(index, analysis["words"], ed)), None)) for ed in [*searched, *others])
    only = ((ed, next((t for w in analysis["words"] if (t := only_title_as_written(index, w, ed))), None)) for ed in searched)
    for ed, name in itertools.chain(spelled_somewhere, only):
        if name:
            which = EDITION_ADJECTIVES[ed]
            page = f"its card page ({card_command(name, ed)})"
            if ed in searched:
                said = f"{name} is a {which} card (imported card database) that no clause names"
                return f"{said}: the card's own text and list status are on {page}"
            return f"{name} is a {which} card (imported card database): search the other edition, or see {page} for the card's own text"
    for ed in searched:  # a name several titles have ("olenna"): the judge picks one
        for word in analysis["words"]:
            if 1 < len(names := titles_with(index, word, ed)) <= 8:
                return f'card titles with "{word}" (imported card database): {"; ".join(names)}: name one for its card page'
    return None


POINTERS = 3  # card-page pointers at most, for the cards one question names


def card_page_note(name: str, edition: int) -> str:
    """The note that a card's own text is on its card page (CARD_POINTER reads it back)."""
    return f"{CARD_POINTER_START}{name} is a card; its own text is on its card page (the Cards page, or {card_command(name, edition)})"


def _printed_in(index: Index, names: list[str], edition: int | None) -> str:
    """Where the searched edition's clauses print a character's name (in an example or a ruling), by
    clause id: the note that "jon" is a name, not a rules term, stood above Deck Lists quoting "Veronica
    includes Jon Snow" (a blind review) and read as if the corpus never wrote it."""
    found: list[str] = []
    for name in dict.fromkeys(_bare(w) for w in names):
        rows = sorted(_clauses_writing(index, name, edition))
        # (the governing text only: a superseded entry, or an unofficial copy restating one, names what it does)
        found += [c for c, _ in rows if c not in found and not index.governors.get(c)]
    if not found:
        return ""
    more = f" and {len(found) - MENTIONS_SAID} more" if len(found) > MENTIONS_SAID else ""
    return f" (the corpus prints {'it' if len(set(map(_bare, names))) == 1 else 'them'} in {', '.join(found[:MENTIONS_SAID])}{more})"


def _story_names(index: Index, analysis: dict[str, Any], elsewhere: set[str]) -> list[str]:
    """A character's name the texts print only in an example or a ruling ("does ser jaime's ability work
    in a power challenge": the FAQ prints "Jaime" once): a card's name all the same."""
    return [w for w in dict.fromkeys(analysis["content"]) if _bare(w) in index.story_characters and w not in elsewhere]


def _imported_title(index: Index, card: str, edition: int) -> str | None:
    """The imported title of a card the corpus knows, when the edition's card data has it."""
    from judgekb.cards.corpus_cards import normalise_name

    row = index.conn.execute(
        "select name from imported_cards where edition = ? and key = ? limit 1", [edition, normalise_name(index.card_name(card))]
    ).fetchone()
    return str(row[0]) if row else None


def _card_page_pointer(
    index: Index, analysis: dict[str, Any], edition: int, card_text: dict[str, Any], cards: set[str], point: bool, elsewhere: set[str]
) -> list[str]:
    """With the edition's card database imported, a question asking for a card's words is pointed to
    the page of each card it names (up to ``POINTERS``), which shows them (the rules clauses below do
    not): the imported titles the query spells out, then cards the corpus knows named by fewer words,
    then first names (beside a title, only a possessive one: "jaqen's").  A short
    question about a card's printed text ("robert baratheon's strength") is pointed there too, and so
    is any question naming a title with a word the rules never use ("rains of castamere how many plots
    …"): without the card data that word gets the "not a word the rules use" notice, and the card's
    text is what the rules clauses cannot give.  ``point``: the query has a word no rules, English or
    player vocabulary knows ("can the white book target a kingsguard"), which without card data gets
    the notice that the card's own text is not in the corpus: the card named is pointed to as well.
    So is a title of two words or more the query spells out, of a card the corpus holds no ruling on,
    unless it asks the card's list status, which the note beside this one answers.
    ``elsewhere``: words of the other edition's titles, which name none of this edition's cards."""
    asked = _asks_wording(analysis, card_text) or _asks_text(analysis, card_text)
    # a question of any length about a named card's ability is decided by the card's own words
    # ("catelyn stark ability vs opponent event while she's knelt"), beside any ruling on it
    asks = point or asked or _asks(analysis, card_text.get("its_ability", []), [])

    cue_words = _cue_words(card_text)
    words = analysis["words"]
    spans = own_title_spans(index, words, edition, cue_words)[0]
    # a title made only of words that name no card here ("valyrian" of "valyrian draft": not The Valyrian)
    spans = [s for s in spans if not all(words[i] in elsewhere | STOPWORDS for i in range(s[1], s[1] + s[2]))]
    # (a one-word title counted although it is an everyday word, no word of the rules: "can treachery
    # cancel …" asks about the card, whose text decides it)
    unknown_in = [
        any(len(w) >= 4 and w.isalpha() and not index.known(w, edition) for w in words_of(name))
        or (size == 1 and asked_first(index, words, start, edition))
        for name, start, size in spans
    ]
    # a title of two words or more spelled out, asked about other than its status, of a card the corpus
    # holds no ruling on, points to the card's page too: "does the wall kneel if i lose an unopposed
    # challenge" is decided by the card's own text (as, without card data, the note says it is not here)
    in_full = not _asks(analysis, STATUS_ASKED, [])  # (errata and rulings asked for never come here: _asks_rules)
    # a query that is a card's whole title and nothing more ("Ghost") asks for the card (review 20)
    names = [
        name for (name, start, size), unknown in zip(spans, unknown_in, strict=True)
        if asks or unknown or (start == 0 and size == len(words))
        or (in_full and size >= 2 and not any(index.ruled_on(c) for c in index.corpus_cards_called(name, edition)))
    ]  # fmt: skip
    if not asks:  # (a title the query names twice is pointed to once)
        # and, as without card data, a card of the corpus the query spells out that no ruling is about, though
        # its title is one everyday word ("Nightmares on a character does it remove renown"): its own text decides
        spelled = [c for c in sorted(cards) if not index.ruled_on(c) and _spelled_out(index, {c}, analysis)] if in_full else []
        names += [title for c in spelled if (title := _imported_title(index, c, edition))]
        return [card_page_note(name, edition) for name in dict.fromkeys(names)][:POINTERS]
    # each card named, besides the titles spelled out ("does jaqen's stealth work with bodyguard"): a card the
    # corpus knows, named by fewer words than its title, else a first name, that shares no word with them
    covered = {i for _, start, size in spans for i in range(start, start + size)}
    stems = {stem_of(w) for name in names for w in words_of(name)}
    said = {_bare(w) for w in words}
    for card in sorted(cards):
        if _card_stems(index, card) & stems:
            continue
        if not {_bare(w) for w in words_of(index.card_name(card))} & said:
            continue  # named by a word's stem only ("knight" is not Knighted)
        if title := _imported_title(index, card, edition):
            names.append(title)
            stems |= _card_stems(index, card)
    # ("robert's str": Robert; beside another card, only a possessive is surely a name: "direwolf" may be a trait)
    free = [w for i, w in enumerate(words) if w not in elsewhere and i not in covered and (not names or w.endswith("'s"))]
    free_said = [w.removesuffix("'s") for w in free]
    first_names = [w for w in free_said if len(w) >= 4 and w.isalpha() and w not in cue_words | STOPWORDS and not index.english(w)]
    # a word of a rule's heading names only a card it is the whole title of: "melee titles what do they do"
    # asks about the format, not Melee at Bitterbridge; "littlefinger's draw" is Littlefinger (first
    # edition also has the Littlefinger Variant)
    terms = index.rule_terms()
    for word in [w for w in first_names if stem_of(w) not in stems]:  # a first name: "Euron", "Jaqen" (no English word)
        found = [r[0] for r in index.conn.execute(
            "select distinct name from imported_cards where edition = ? and key like ? limit 2", [edition, f"{word} %"]
        )]  # fmt: skip
        if len(found) != 1 and asked:  # asked about a name inside one title only, as written: "barristan's cost"
            name = only_title_as_written(index, word, edition)  # (not "trade": Jack of all Trades)
            found = [name] if name else []
        if len(found) == 1 and (word not in terms or words_of(found[0]) == [word]):
            names.append(found[0])
            stems |= {stem_of(w) for w in words_of(found[0])}
    return [card_page_note(name, edition) for name in dict.fromkeys(names)][:POINTERS]


def other_edition_terms(index: Index, words: list[str], edition: int | None) -> list[dict[str, Any]]:
    """The other edition's terms ("moribund" in a second-edition search) this query uses as terms: not
    as part of a name or an idiom.  Decided once, when the query is read: the lookup searches their
    ``instead`` words and the notice says so."""
    if edition not in (1, 2):
        return []
    padded = f" {' '.join(words)} "
    used = [e for e in index.absent_topics.get("other_edition", []) if e["edition"] != edition and f" {e['term']} " in padded]
    if not used:
        return []
    cards = index.cards_named({"words": words}, edition)
    return [e for e in used if not _names_or_idiom(index, words, e["term"], edition, cards)]


def other_edition(analysis: dict[str, Any]) -> list[str]:
    """Notices for the other edition's terms the query uses: said first, with the words searched in
    their place when the edition has near ones."""
    notices = []
    for entry in analysis.get("other_edition", []):
        term = entry["term"]
        notice = (
            f'other edition: "{term}" is a {EDITION_ADJECTIVES[entry["edition"]]} term, '
            f"not a {EDITION_ADJECTIVES[3 - entry['edition']]} one"
        )
        if instead := analysis["instead"].get(term):  # only what was searched
            notice += ", so " + " and ".join(f'"{w}"' for w in instead) + (" were" if len(instead) > 1 else " was")
            notice += " searched as well"
        notices.append(notice + ". Closest clauses below.")
    return notices


IDIOM_BEFORE = frozenset({"in"})  # "in response to", "in reserve": everyday English, not a rule's name


def _names_or_idiom(index: Index, words: list[str], term: str, edition: int, cards: set[str] | None) -> bool:
    """Is the term, here, part of a name ("Vengeful Lordling", "Deadly Khalasar", "Stalwart Shields":
    a card of the searched edition) or an idiom ("in response to")?  Then the query does not ask
    about the other edition's rule of that name."""
    parts = term.split()
    for start in range(len(words) - len(parts) + 1):
        if words[start : start + len(parts)] != parts:
            continue
        before = words[start - 1] if start else ""
        after = words[start + len(parts)] if start + len(parts) < len(words) else ""
        if before in IDIOM_BEFORE:
            return True
        for neighbour in (before, after):  # a word no rules text of either edition uses: part of a name
            if neighbour and neighbour not in STOPWORDS and not index.stem_df(neighbour, None) and neighbour not in index.synonyms:
                return True
    if any(c.startswith(f"card:{edition}:") and term in index.card_name(c).lower() for c in cards or ()):
        return True
    if edition in index.imported_editions:  # an imported title of the searched edition that the query spells out
        return any(term in name.lower() for name in spelled_titles(index, words, edition))
    return False


def list_status(index: Index, analysis: dict[str, Any], edition: int | None, cards: set[str] | None = None) -> list[str]:
    """Second edition, when the dated restricted lists are imported: each card the query names,
    with its status under the list in force, cited by list name, issuer and date."""
    if edition == 1:
        return []
    status = index.card_status_notes()
    card_text = index.absent_topics.get("card_text") or {}
    if _asks(analysis, [], card_text.get("rules_questions", [])):
        return []  # (a question about a trait or keyword, not a card)
    if status is None:
        return _lists_not_imported(analysis, edition, cards or set())
    # titles the query spells out ("hand's judgment"; asked about its status, a one-word title that is
    # also a word: "is Sparrows restricted"), but not one inside a longer first-edition title ("hellholt
    # engineer" is not Hellholt)
    topic = topic_words(index, analysis, edition)  # ("valyrian draft" is no card's status)
    words = [w for w in analysis["words"] if w not in topic]
    asks_status = _asks(analysis, STATUS_ASKED, [])  # ("left or right in melee" is no card)
    spans, longer = _status_titles(index, words, 2) if asks_status else own_title_spans(index, words, 2)
    spelled = [name for name, _, _ in spans]
    if asks_status and not spelled and not cards:  # "is xaro restricted": the one title with that name
        spelled = [t for w in words if (t := only_title_named(index, w, 2))][:1]
    covered = {i for _, s, n in spans for i in range(s, s + n)} | {i for s, n in longer for i in range(s, s + n)}
    notes = status.notes([w if i not in covered else "" for i, w in enumerate(words)], lambda w: index.common_word(w, 2))
    others = corpus_named(index, words, cards or set(), 2, spelled)
    for note in status.notes_for_titles(sorted({*spelled, *others})):
        if note not in notes:
            notes.append(note)
    if not notes and status.current is not None and _asks(analysis, LIST_ASKED, []):  # the list itself
        rl = status.current
        # what it holds, in the format asked (both when neither is said): its restricted cards and pods,
        # its banned cards, or all of it when the question names neither
        said = set(analysis["words"])
        asked = tuple(f for f in ("joust", "melee") if f in said) or ("joust", "melee")
        restricted, banned = bool(said & RESTRICTED_SAID), bool(said & BANNED_SAID)
        if not restricted and not banned:
            restricted = banned = True
        notes.append(
            f"list in force: {rl.name}, {rl.issuer}, {rl.date} (imported with the card data; the FAQ says only where "
            "the lists are published), what it holds below: name a card here, or open its card page, for its status"
        )
        notes += status.contents(asked, restricted, banned)
    if edition is None:  # both editions searched: the lists are second edition's
        notes = [f"second edition: {note}" for note in notes]
    return notes


RESTRICTED_SAID = frozenset({"restricted", "restriction", "restrictions", "pod", "pods"})
BANNED_SAID = frozenset({"banned", "ban", "bans"})


def lists_not_imported(listed_among_hits: bool) -> str:
    """The note that second edition's lists in force are not imported; it speaks of FAQ v2.3's lists among
    the hits only when one of their entries is there (a note must not point at hits that are not there)."""
    among = "; the FAQ v2.3 lists among the hits are not in force." if listed_among_hits else "."
    return (
        "lists not imported: second edition's restricted and banned lists in force (published by the Global Operations "
        f"Team; FAQ v4.1's Card Legality says where) are not imported{among} "
        "With the card data imported (judgekb import-cards), a card named gets its status under the list in force"
    )


LISTS_NOT_IMPORTED = lists_not_imported(True)
LISTS_NOT_IMPORTED_NONE_SHOWN = lists_not_imported(False)


# a card's status asked in so many words ("restriction" is more often a play restriction, and "legal" a
# legal target, than a list): with a card named, these ask the lists
LIST_STATUS_ASKED = ["restricted", "unrestricted", "banned", "ban", "legal", "legality"]
# a card said to be restricted or banned, whatever the card ("is robb stark restricted" names a card the
# corpus never mentions, and silence would read as "not restricted"); not a rule's "restricted to" or
# "banned from" ("is the action restricted to once per round")
LIST_WORDS = [r"\b(?:un)?restricted\b(?! (?:to|from)\b)", r"\bbanned\b(?! from\b)"]
LIST_FORMATS = frozenset({"joust", "melee"})  # the formats a list is of: a word that names no card in a list question


def _lists_not_imported(analysis: dict[str, Any], edition: int | None, cards: set[str]) -> list[str]:
    """Second edition, no dated lists imported, asked about a second-edition card's list status ("is the
    red viper restricted", "is robb stark restricted" of a card the corpus never names) or the lists
    themselves: say that the answer is not here — the first hit was v2.3's list entry, marked not in
    force, and nothing said where the status in force is (with no edition chosen, only first edition's
    lists spoke)."""
    named = any(c.startswith("card:2:") for c in cards)
    if _asks(analysis, LIST_ASKED, LIST_WORDS) or (named and _asks(analysis, LIST_STATUS_ASKED, [])):
        return [LISTS_NOT_IMPORTED]  # (it names second edition: no prefix when both editions are searched)
    return []


def corpus_named(index: Index, words: list[str], cards: set[str], edition: int, spelled: list[str]) -> list[str]:
    """The cards the corpus knows that the query names by fewer words than their titles ("euron"), by a
    word of the title as written that is no everyday word ("knight" does not name Knighted, "iron" not
    Iron Mines), unless a title the query spells out took their words (Highgarden is not Highgarden
    Minstrel, "rains of castamere" is not Castamere, "oldtown" is not Oldtown Scholar)."""
    spelled_stems = {stem_of(w) for name in spelled for w in words_of(name)}
    named: dict[str, frozenset[str]] = {}  # a card -> the query's words that name it
    for name in [index.card_name(c) for c in sorted(cards) if c.startswith(f"card:{edition}:")]:
        title_words = {v for w in words_of(name) for v in (w, w.replace("'", ""), w.removesuffix("'s"))}
        naming = frozenset(w for w in words if w in title_words and w not in STOPWORDS)
        if any(w in index.imported_titles(edition) for w in naming) and name not in spelled:
            continue  # the word is a title of its own ("nymeria": Nymeria, not Nymeria Sand)
        if name in spelled or (
            any(not index.english(w) for w in naming) and not {stem_of(w) for w in words_of(name)} & spelled_stems
        ):
            named[name] = naming
    # a card named by some of the words that name another ("iron" of "the iron throne": not Iron Mines)
    return [name for name, naming in named.items() if not any(naming < other for other in named.values())]


def _status_titles(
    index: Index, words: list[str], edition: int, asked_of: Callable[[list[str], int], bool] | None = None,
    ignore: frozenset[str] = frozenset(),
) -> tuple[list[tuple[str, int, int]], list[tuple[int, int]]]:
    """``own_title_spans`` for a question about list status: a one-word title that is also a word counts
    where the status is asked of it (``asked_of``, of the title's word and its place: "is Sparrows
    restricted", "Oldtown banned?"), not anywhere in the question ("which cards are banned in joust
    right now" is not the card Right).  An errata question passes its own ``asked_of`` and ``ignore``."""
    asked_of = asked_of or _asked_of
    strict = own_title_spans(index, words, edition, ignore)[0]
    spans, longer = own_title_spans(index, words, edition, ignore, any_word=True)
    return [t for t in spans if t in strict or asked_of(words, t[1])], longer


def _asked_of(words: list[str], at: int) -> bool:
    """Is the word at ``at`` the one a status question is about: just before a status word ("Sparrows
    restricted") or just after "is" ("is Sparrows …")?"""
    after = words[at + 1] if at + 1 < len(words) else ""
    return after in STATUS_ASKED or (at > 0 and words[at - 1] in ("is", "are", "was"))


def first_edition_status(index: Index, analysis: dict[str, Any], edition: int | None, cards: set[str]) -> list[str]:
    """First edition, asked about a card's list status ("is khal drogo restricted in joust"): what the
    last first-edition FAQ's lists say of each card named — the printings they list, or that they list
    none (the hits show an entry only where there is one, never that there is none)."""
    if edition == 2 or not _asks(analysis, STATUS_ASKED, []):
        return []
    from judgekb.authority.citation import document_part

    words = analysis["words"]
    spelled = [name for name, _, _ in _status_titles(index, words, 1)[0]]
    names = sorted({*spelled, *corpus_named(index, words, cards, 1, spelled)})
    if not names and 1 in index.imported_editions:  # "is ser gregor banned": the one card a first name calls
        # (never a format's name: "whats on the melee restricted list" asks of the melee list, not The Grand Melee)
        names = [t for w in words if w not in LIST_FORMATS and (t := only_title_named(index, w, 1))][:1]
    # a card said to be restricted or banned that no list entry names ("is eddard stark restricted",
    # "is threat from the north restricted"): silence, or another card's entry first, would read as an answer
    unlisted: list[str] = []
    if not names and edition == 1 and _asks(analysis, [], LIST_WORDS):
        # (a number is no card's name: "banned in joust 2014" asks of the lists of that year)
        unlisted = list(dict.fromkeys(
            w for w in analysis["content"] if not any(c.isdigit() for c in w) and (index.name(w) or not index.known(w, 1))
        ))  # fmt: skip
    if not names and not unlisted:
        return []
    cursor = index.conn.execute(  # the documents whose lists these are, for the note to cite (they are dated)
        "select * from documents where id in (select doc from clauses where edition = 1 and kind in ('restricted', 'banned')) order by id"
    )
    columns = [c[0] for c in cursor.description]
    source = ", ".join(document_part(dict(zip(columns, row, strict=True))) for row in cursor)
    notes = []
    for name in names:
        listed = sorted({clause for card in index.corpus_cards_called(name, 1) for clause in index.mentioned.get(card, ())
                         if index.clauses[clause]["kind"] in ("restricted", "banned", "list-change")})  # fmt: skip
        said = []
        marks = ",".join("?" * len(listed))
        for kind, data in index.rows(f"select kind, data from clauses where id in ({marks})", listed) if listed else []:
            entry = json.loads(data or "{}")
            printing = f"{name} ({str(entry.get('set', '')).upper()} {entry.get('number', '')})"
            if kind == "list-change":
                which = "banned" if entry.get("list") == "banned" else f"{entry.get('list')} restricted"
                said.append(f"{printing} was removed from the {which} list")
            else:
                said.append(f"{printing} is {entry.get('format')} restricted" if kind == "restricted" else f"{printing} is banned")
        status = "; ".join(said) if said else f"{name} is on none of them (no printing restricted or banned)"
        notes.append(f"first edition, lists of {source}: {status}")
    if unlisted:
        quoted = ", ".join(f'"{w}"' for w in unlisted)
        named_by = quoted if len(unlisted) == 1 else f"the query's words {quoted} together"
        check = (
            "no first-edition card of the imported card data is named so either: check the spelling"
            if 1 in index.imported_editions
            else "the card data is not imported, so the name is not checked against the cards (judgekb import-cards)"
        )
        notes.append(f"first edition, lists of {source}: no entry is a card named by {named_by}; {check}")
    return notes


ERRATA_ASKED = ["errata", "erratum", "errataed", "errata'd", "erratas"]


def _errata_asked_of(words: list[str], at: int) -> bool:
    """Is the one-word title at ``at`` the card an errata question is about: just before the errata word?"""
    return at + 1 < len(words) and words[at + 1] in ERRATA_ASKED


def errata_absent(index: Index, analysis: dict[str, Any], edition: int | None, cards: set[str]) -> list[str]:
    """Asked for a named card's errata when the corpus has none for it ("Robb Stark errata"): say so
    first, since the hits below are other cards' errata."""
    if not _asks(analysis, ERRATA_ASKED, []):
        return []

    notes, words = [], analysis["words"]
    for ed in [edition] if edition in (1, 2) else [1, 2]:
        # a one-word title that is also a word counts where the errata is asked of it, just before the
        # errata word, whatever follows ("was treachery errata'd, what does it say now")
        spans = (
            _status_titles(index, words, ed, _errata_asked_of, frozenset(ERRATA_ASKED))[0] if ed in index.imported_editions else []
        )
        spelled = [name for name, _, _ in spans]
        named = sorted({*spelled, *corpus_named(index, words, cards, ed, spelled)})
        if not named and (unnamed := _errata_unnamed(index, analysis, ed)):
            notes.append(unnamed)
        for name in named:
            ids = index.corpus_cards_called(name, ed)
            # the corpus's cards of that name, or sharing a name's word with it (the FAQ's "Kraznys mo Naklos" is
            # the card data's "Kraznys mo Nakloz"): any errata of theirs, and the corpus may hold this card's
            named_words = set(words_of(name)) - STOPWORDS
            ids += [c for c in cards if c.startswith(f"card:{ed}:") and named_words & set(words_of(index.card_name(c)))]
            if not any(index.clauses[clause]["kind"] == "errata" for card in ids for clause in index.mentioned.get(card, ())):
                which = EDITION_ADJECTIVES[ed]
                notes.append(f"no errata: the corpus's {which} FAQ has no errata entry for {name}{_as_printed(index, ed, name)}")
    return notes


def _as_printed(index: Index, edition: int, name: str | None) -> str:
    """What a judge reads out after "no errata": the card's printed text stands, and where that text is
    (a card page once the card data is imported; never the corpus, which holds no card's own text)."""
    if edition in index.imported_editions:
        page = card_command(name, edition) if name else f"{NO_TITLE_PAGE} --edition {edition}"
        return f": the card reads as printed, and the card's own text is on its card page ({page})"
    return ": the card reads as printed, and the card's own text is not in the corpus (no card database is imported)"


def _errata_unnamed(index: Index, analysis: dict[str, Any], edition: int) -> str | None:
    """Asked for the errata of a card the query names by a word no English or players use, but by no
    title ("ser davos errata", "jaqen errata" in second edition, or any card without card data):
    when no errata entry of the edition has that word, say so — the errata below are other cards'
    (Ser Horas Redwyne's came first for "ser davos").  The one imported title with the word as
    written ("davos": Ser Davos Seaworth) is named; otherwise the word is."""
    # a name: no English or players' word, nor a typo of a word the texts use ("jaime" and "tyrion" are
    # rules words only because an example or a ruling names the card)
    unknown = [
        w for w in dict.fromkeys(analysis["content"])
        if len(w) >= 4 and w.replace("'", "").isalpha() and w not in ERRATA_ASKED and w not in index.synonyms
        and not index.english(w) and not index.english(w.removesuffix("'s")) and not index.correct(w, edition)
    ]  # fmt: skip
    if not unknown:
        return None
    from rapidfuzz import fuzz

    stems = {stem_of(w.removesuffix("'s")) for w in unknown}
    for clause in index.clauses.values():
        if clause["edition"] == edition and clause["kind"] == "errata":
            # an errata entry has the word, or nearly (the FAQ's "Kraznys Mo Naklos" is the card's "Nakloz"): it is among the hits
            if any(fuzz.ratio(s, stem_of(w.removesuffix("'s"))) >= 80 for w in words_of(clause["heading"] or "") for s in stems):
                return None
    which = EDITION_ADJECTIVES[edition]
    titles = [t for w in unknown if (t := only_title_as_written(index, w, edition))] if edition in index.imported_editions else []
    if len(unknown) == 1 and titles:
        return f"no errata: the corpus's {which} FAQ has no errata entry for {titles[0]}{_as_printed(index, edition, titles[0])}"
    said = " or ".join(f'"{w[:40]}"' for w in unknown[:3])
    return f"no errata: no errata entry of the corpus's {which} FAQ names {said}{_as_printed(index, edition, None)}"


def other_edition_cards(index: Index, analysis: dict[str, Any], edition: int | None) -> list[str]:
    """A card of the other edition's imported cards that the query names by its full title, when this
    edition has no card of that name ("Hellholt Engineer" in a second-edition search): said first,
    since the clauses below are this edition's.  Said only when sure: never where this edition's own
    title covers any of the same words ("the golden company": Golden Company), nor where this edition
    has a title of nearly the same spelling ("The Hand's Judgement", first edition, is The Hand's
    Judgment in second) or with the same words and more ("Daven Lannister": Ser Daven Lannister), nor
    where this edition's corpus names a card by them ("lord commander": Lord Commander of the Kingsguard),
    nor where a heading of this edition's clauses does ("crown regent title": first edition's title rule)."""
    if edition not in (1, 2) or 3 - edition not in index.imported_editions:
        return []
    from rapidfuzz import fuzz, process

    from judgekb.cards.corpus_cards import bare_name

    words, other = analysis["words"], 3 - edition
    own = {i for _, start, size in own_title_spans(index, words, edition, any_word=True)[0] for i in range(start, start + size)}
    notes = []
    for name, start, size in title_spans(index, words, other):
        key = no_article(bare_name(name))
        if own & set(range(start, start + size)) or len(key.split()) == 1:
            continue  # this edition's card, or one word (a word more often than a card)
        near = index.imported_titles_of_length(edition, len(key.split()))
        if process.extractOne(key, list(near), scorer=fuzz.ratio, score_cutoff=88):
            continue
        if any(set(key.split()) < set(no_article(t).split()) for t in index.imported_titles(edition)):
            continue
        # a card this edition's corpus names by these words and more ("lord commander": first edition's
        # title Lord Commander of the Kingsguard, which no imported card database holds)
        corpus_named = (no_article(bare_name(n)) for c in index.cards if c["edition"] == edition for n in c["names"])
        if any(set(key.split()) <= set(named.split()) for named in corpus_named):
            continue
        # a heading of this edition's clauses that names it: the thing is this edition's too, as other than
        # an imported card (first edition's multiplayer title "Crown Regent", a second-edition card)
        if f" {key} " in index.headings_said(edition):
            continue
        notes.append(
            f'{name} is a {EDITION_ADJECTIVES[other]} card (imported card database), not a '
            f'{EDITION_ADJECTIVES[edition]} one: search the other edition, or see its card page '
            f"({card_command(name, other)}) for the card's own text"
        )
    return notes


TOPIC_FIELDS = ({"document", "look_for", "when"}, {"edition"})
UNRULED_FIELDS = ({"about", "when"}, {"edition", "see"})
SEE_FIELDS: tuple[set[str], set[str]] = ({"id", "says"}, set())
CARD_TEXT_FIELDS = ({"document", "look_for", "when"}, {"corpus_holds", "wording", "wording_questions", "rules_questions", "its_ability"})
OTHER_EDITION_FIELDS = ({"term", "edition"}, {"instead"})


def load_topics(path: Path) -> dict[str, Any]:
    """``corpus/absent-topics.yaml``, checked at build time: a missing or unknown field, a word list that
    is not a list of words, an edition other than 1 or 2 or a pattern that does not compile is refused
    with its file and line, instead of surfacing later as a lookup's crash."""
    from judgekb import yamlio
    from judgekb.errors import DataError

    if not path.is_file():
        return {}
    data = yamlio.load(path) or {}
    if not isinstance(data, dict):
        raise DataError(f"{path}: must be a mapping of topics, card_text and other_edition")
    unknown = sorted(set(data) - {"topics", "unruled", "card_text", "other_edition", "__line__"})
    if unknown:
        raise DataError(f"{path}: unknown section '{unknown[0]}' (expected topics, unruled, card_text, other_edition)")

    def words(item: dict[str, Any], key: str, what: str) -> None:
        value = item.get(key, [])
        if not isinstance(value, list) or not all(isinstance(w, str) and w.strip() for w in value):
            raise DataError(f"{yamlio.where(path, item)}: {what} field '{key}' must be a list of words or phrases")

    def edition(item: dict[str, Any], what: str) -> None:
        if "edition" in item and item["edition"] not in (1, 2):
            raise DataError(f"{yamlio.where(path, item)}: {what} field 'edition' must be 1 or 2, got {item['edition']!r}")

    for topic in data.get("topics") or []:
        yamlio.check_fields(path, topic, *TOPIC_FIELDS, "an absent-document topic")
        words(topic, "when", "an absent-document topic")
        edition(topic, "an absent-document topic")
    for topic in data.get("unruled") or []:
        yamlio.check_fields(path, topic, *UNRULED_FIELDS, "an unruled topic")
        words(topic, "when", "an unruled topic")
        edition(topic, "an unruled topic")
        if not isinstance(topic.get("see", []), list):
            raise DataError(f"{yamlio.where(path, topic)}: an unruled topic field 'see' must be a list of {{id, says}}")
        for see in topic.get("see", []):
            yamlio.check_fields(path, see, *SEE_FIELDS, "an unruled topic's 'see' entry")
            if not all(isinstance(see[k], str) and see[k].strip() for k in ("id", "says")):
                raise DataError(f"{yamlio.where(path, see)}: an unruled topic's 'see' entry needs a clause id and what it says")
    card_text = data.get("card_text")
    if card_text is not None:
        yamlio.check_fields(path, card_text, *CARD_TEXT_FIELDS, "card_text")
        for key in ("when", "corpus_holds", "wording", "wording_questions", "rules_questions", "its_ability"):
            words(card_text, key, "card_text")
        for pattern in [*card_text.get("wording_questions", []), *card_text.get("rules_questions", [])]:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise DataError(f"{yamlio.where(path, card_text)}: card_text pattern {pattern!r} does not compile ({exc})") from None
    for entry in data.get("other_edition") or []:
        yamlio.check_fields(path, entry, *OTHER_EDITION_FIELDS, "an other_edition entry")
        if not isinstance(entry["term"], str) or not entry["term"].strip():
            raise DataError(f"{yamlio.where(path, entry)}: an other_edition entry field 'term' must be a word or phrase")
        edition(entry, "an other_edition entry")
        words(entry, "instead", "an other_edition entry")
    cleaned: dict[str, Any] = yamlio.strip_lines(data)
    return cleaned


def check_unruled_see(path: Path, topics: dict[str, Any], editions: dict[str, int]) -> None:
    """Each clause an unruled topic points to is a clause of the topic's edition (``editions``: clause id
    to edition), checked at build: a pointer to no clause would send a judge nowhere."""
    from judgekb.errors import DataError

    for topic in topics.get("unruled") or []:
        for see in topic.get("see", []):
            if editions.get(see["id"]) not in ({topic["edition"]} if topic.get("edition") else {1, 2}):
                raise DataError(
                    f"{path}: the unruled topic '{topic['about']}' points to '{see['id']}', which is no clause of "
                    f"{EDITION_NAMES[topic['edition']] if topic.get('edition') else 'either edition'}"
                )
