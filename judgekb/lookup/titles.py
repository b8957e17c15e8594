"""The imported card titles a query spells out, as players type them: without apostrophes or
punctuation, without "The" or "A", a possessive's "s" left off, or misspelled ("tunels of the red
keep").  Lookup's notes (``judgekb.lookup.notices``) name cards by these; a title is matched on the
loose key ``judgekb.cards.corpus_cards.bare_name``, against the titles the index holds per edition.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from judgekb.lookup.words import BRITISH, STOPWORDS

if TYPE_CHECKING:
    from judgekb.lookup.search import Index

ARTICLES = frozenset({"the", "a", "an"})
# the words a question begins with before what it asks about ("can treachery …", "does ghost …")
SUBJECT_ASKED = frozenset({"can", "could", "does", "do", "did", "is", "will", "would", "may", "should"})
DEFINITION = re.compile(r"(what|whats|what's|wat) (is|are)\b")  # a word's meaning asked, not a card's
TITLE_ARTICLES = ("", "the ", "a ", "an ")  # "cask of ale" for "A Cask of Ale"
FUZZY_TITLE = 88  # rapidfuzz ratio a misspelled run ("tunels of the red keep") needs to name a title


def spelled_titles(
    index: Index, words: list[str], edition: int, ignore: frozenset[str] = frozenset(), any_word: bool = False
) -> list[str]:
    """The titles of ``title_spans`` (which see), longest first."""
    return [name for name, _, _ in title_spans(index, words, edition, ignore, any_word)]


def title_spans(
    index: Index, words: list[str], edition: int, ignore: frozenset[str] = frozenset(), any_word: bool = False
) -> list[tuple[str, int, int]]:
    """The imported card titles of an edition that the query spells out ("knights of the realm", "hand's
    judgment" for The Hand's Judgment, "tyrions chain", "jaqen hghar", "cask of ale"), longest first and
    not overlapping; runs made only of ``ignore`` or small words are not tried.  A one-word title that is
    an everyday or rules word ("Taxation", "Summer") counts only when it is the whole query (or all of it
    but ``ignore`` words: "what is taxation" asks about the phase), or when ``any_word`` (a question
    about a card's list status: "is Sparrows restricted"), or when the question asks about it first
    and the edition's rules never use it ("can treachery cancel …").  A run with a word the searched edition's
    texts never write, between content words, is matched to the closest title of as many words when it
    is close enough ("tunels of the red keep", "littlefnger", "hands judgement"), so that a shorter title
    inside it ("The Red Keep") does not stand for it, unless the run spells a title of the other
    edition's cards as written ("heads on spikes" is that card, not this edition's Heads on Pikes)."""
    titles = index.imported_titles(edition)
    if not titles:
        return []
    key = (tuple(words), edition)  # a lookup's notices ask more than once: the runs are matched once
    if key not in index.title_spans_seen:
        if len(index.title_spans_seen) > 64:
            index.title_spans_seen.clear()
        index.title_spans_seen[key] = _title_spans(index, titles, words, edition)
    found: list[tuple[str, int, int]] = []
    for name, start, size in index.title_spans_seen[key]:
        run = words[start : start + size]
        if set(run) <= ignore | STOPWORDS:
            continue
        alone = not [w for w in words if w not in ignore and w not in STOPWORDS and w not in run]
        alone = alone and not DEFINITION.match(" ".join(words))  # "what is taxation" asks about the phase
        subject = size == 1 and asked_first(index, words, start, edition)
        if size == 1 and index.common_word(run[0], edition) and not alone and not any_word and not subject:
            continue
        found.append((name, start, size))
    return found


def asked_first(index: Index, words: list[str], start: int, edition: int) -> bool:
    """Is the word at ``start`` what a question asks about first ("can treachery cancel a when revealed",
    "does the ghost have stealth"), and a word the edition's rules never use?  Then a one-word title it
    spells is the card, though the word is an everyday one."""
    lead = 1 + (len(words) > 2 and words[1] in ARTICLES)
    return words[0] in SUBJECT_ASKED and start == lead and not index.rules_word(words[start], edition)


def _title_spans(index: Index, titles: dict[str, str], words: list[str], edition: int) -> list[tuple[str, int, int]]:
    """Every title the query spells out, longest first, not overlapping (one-word titles, which come
    last, are kept here whatever they are: ``title_spans`` decides whether they count)."""
    from rapidfuzz import fuzz, process

    from judgekb.cards.corpus_cards import PUNCTUATION

    # bare_name word by word (a possessive's "'s" kept as "s": only a run's last word may drop it)
    # (a British spelling as the title spells it: "hand's judgement" is The Hand's Judgment)
    loose = [" ".join(PUNCTUATION.sub(" ", BRITISH.get(w, w).replace("'", "").replace("’", "")).split()) for w in words]
    firsts = index.imported_title_first_words(edition)
    other = index.imported_titles(3 - edition) if 3 - edition in index.imported_editions else {}
    # a word the texts never write ("tunels", "judgement"): a run with one may be a title misspelled
    unknown = [len(w) >= 4 and w.isalpha() and not index.rules_word(w, edition) and w not in index.synonyms for w in words]
    # per word, once: does a title begin with it (or with its possessive's name), and how many unknown
    # words come before it, so that a run that can be neither a title nor a misspelled one is passed
    # over before anything is built for it (most runs of a long question)
    begins = [w in firsts or f"{w}s" in firsts for w in loose]
    names = [w.endswith(("'s", "’s")) and said[:-1] in firsts for w, said in zip(words, loose, strict=True)]
    unknown_before = [0]
    for flag in unknown:
        unknown_before.append(unknown_before[-1] + flag)
    found, taken = [], [False] * len(words)
    for size in range(min(8, len(words)), 0, -1):  # longest runs first
        for start in range(len(words) - size + 1):
            at = 1 if loose[start] in ARTICLES and size > 1 else 0
            titled = begins[start + at] or (size == at + 1 and names[start + at])
            if not titled and unknown_before[start + size] == unknown_before[start]:
                continue
            run = words[start : start + size]
            if any(taken[start : start + size]) or set(run) <= STOPWORDS:
                continue
            said = loose[start : start + size]
            first = said[at]
            # (a title begins so: worth spelling out; "the hound's ability" begins The Hound)
            possessive = size == at + 1 and run[at].endswith(("'s", "’s"))
            name = None
            if first in firsts or f"{first}s" in firsts or (possessive and first[:-1] in firsts):
                name = next((titles[k] for k in _spellings(said, run[-1]) if k in titles), None)
                if not name and size > 1 and not ARTICLES & set(said):  # "milk of poppy": Milk of the Poppy
                    name = index.imported_titles_unarticled(edition).get(" ".join(said))
            fuzzy = any(unknown[start : start + size]) and run[0] not in STOPWORDS and run[-1] not in STOPWORDS
            # ("is botley" is not Tris Botley; "heads on spikes", the other edition's title as written, is not Heads on Pikes)
            fuzzy = fuzzy and (size > 1 or len(run[0]) >= 6) and size <= 6 and not any(k in other for k in _spellings(said, run[-1]))
            if not name and fuzzy:
                near = index.imported_titles_of_length(edition, size)
                # only a word the texts never write may be misspelled: "nightmares in the plot" is not
                # Nightmares in the North, since "plot", a rules word, is not "north"
                kept = {said[j] for j in range(size) if not unknown[start + j] and index.rules_word(run[j], edition)} - ARTICLES
                close = process.extract(no_article(" ".join(said)), list(near), scorer=fuzz.ratio, score_cutoff=FUZZY_TITLE, limit=5)
                name = next((near[key] for key, _, _ in close if kept <= set(key.split())), None)
            if name:
                found.append((name, start, size))
                taken[start : start + size] = [True] * size
    return found


def own_title_spans(
    index: Index, words: list[str], edition: int, ignore: frozenset[str] = frozenset(), any_word: bool = False
) -> tuple[list[tuple[str, int, int]], list[tuple[int, int]]]:
    """``title_spans`` of this edition without those inside a longer title of the other edition's cards
    that the query spells out ("hellholt engineer" is Hellholt Engineer, first edition, not Hellholt),
    and the (start, size) of those longer titles."""
    spans = title_spans(index, words, edition, ignore, any_word)
    other = 3 - edition
    longer = [(s, n) for _, s, n in (title_spans(index, words, other) if other in index.imported_editions else []) if n > 1]

    def inside(span: tuple[str, int, int], start: int, size: int) -> bool:
        """Inside the longer title, which has a word of its own besides an article ("the golden company"
        is Golden Company: the article adds nothing)."""
        own = range(span[1], span[1] + span[2])
        extra = [words[i] for i in range(start, start + size) if i not in own and words[i] not in ARTICLES]
        return start <= span[1] and span[1] + span[2] <= start + size and bool(extra)

    longer = [(s, n) for s, n in longer if any(inside(t, s, n) for t in spans)]
    return [t for t in spans if not any(inside(t, s, n) for s, n in longer)], longer


def no_article(key: str) -> str:
    """A loose key without its leading "the", "a" or "an"."""
    return key.split(" ", 1)[1] if key.startswith(("the ", "a ", "an ")) and " " in key else key


def _spellings(said: list[str], last: str) -> list[str]:
    """The loose keys (``bare_name``) a title spelled by these words may have: as written (a closing
    "'s" aside: "robert baratheon's"), with a possessive's "s" players leave off ("varys riddle" for
    Varys's Riddle), and with "The" or "A" before it."""
    forms = [" ".join(said)]
    if last.endswith(("'s", "’s")):
        forms.append(forms[0][:-1])
    plural = [i for i, w in enumerate(said) if len(w) > 3 and w.endswith("s")][:2]
    for mask in range(1, 1 << len(plural)):
        words = list(said)
        for bit, i in enumerate(plural):
            if mask >> bit & 1:
                words[i] += "s"
        forms.append(" ".join(words))
    return [article + form for form in forms for article in TITLE_ARTICLES]


def titles_with(index: Index, word: str, edition: int) -> list[str]:
    """The titles of the edition that have this word ("olenna": Olenna Tyrell, Olenna's Cunning …),
    when the word is a name (no English word)."""
    if len(word) < 4 or not word.isalpha() or word in STOPWORDS or index.english(word):
        return []
    by_word = index.imported_titles_by_word(edition)  # (a possessive's loose key: "olennas" for Olenna's)
    return sorted({*by_word.get(word, ()), *by_word.get(f"{word}s", ())})


def only_title_with(index: Index, word: str, edition: int) -> str | None:
    """The one title of the edition that has this word ("barristan": Ser Barristan Selmy, "xaro": Xaro
    Xhoan Daxos), when the word is a name (no English word) and no other title has it."""
    names = titles_with(index, word, edition)
    return names[0] if len(names) == 1 else None


def only_title_named(index: Index, word: str, edition: int) -> str | None:
    """``only_title_with``, else the one title of those that the word begins, after a rank or an
    honorific ("robb": Robb Stark, not King Robb's Host; "gregor": Ser Gregor Clegane), as players
    call a card by its first name."""
    from judgekb.cards.corpus_cards import bare_name
    from judgekb.lookup.search import HONORIFICS

    names = titles_with(index, word, edition)
    if len(names) == 1:
        return names[0]

    def first_name(title: str) -> str:
        words = [w for w in bare_name(title).split() if w not in ARTICLES]
        while len(words) > 1 and words[0] in HONORIFICS:
            words = words[1:]
        return words[0] if words else ""

    begun = [name for name in names if first_name(name) == word]
    return begun[0] if len(begun) == 1 else None


def only_title_as_written(index: Index, word: str, edition: int) -> str | None:
    """``only_title_with`` when the title has the word as written ("barristan": Ser Barristan Selmy),
    not only its possessive ("olenna" is not first edition's Lady Olenna's Guard)."""
    from judgekb.cards.corpus_cards import bare_name

    name = only_title_with(index, word, edition)
    return name if name and word in bare_name(name).split() else None
