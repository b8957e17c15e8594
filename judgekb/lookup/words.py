"""Reading text into words: how a query is cleaned and split into ideas, and how clause and
question texts are stemmed for matching — the vocabulary every part of lookup shares.

Stemming here is deliberately crude (suffixes off, a final e off, a few irregular forms): FTS5 does
the real stemming for recall; these stems only decide which of the query's ideas a text expresses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

MAX_WORDS = 64
LONG_WORD = 40  # characters: no word of a question is longer (a longer one is pasted junk, kept as typed)
MAX_QUERY_CHARS = 500  # a typed question is under 300; a longer one only costs matching time (and 50,000 broke SQLite's LIKE)
# A player naming the edition they play ("minimum deck size first edition?", "2.0 stealth"): the
# edition becomes the search's filter (when none was chosen), not words to match (they would find
# the "Iron Throne Edition" blurbs).  A document's version ("FAQ 1.0", "version 2.0") names no edition.
EDITION_SAID = re.compile(
    r"(?<![\w.])(?<!faq )(?<!faq v)(?<!version )(?:(?:in|for)\s+)?"
    r"(?:(?:1st|2nd|first|second)\s+ed(?:ition|\.|\b)|[12]\.0|[12]e|[12]\s*ed\b|agot\s*[12])(?![\w.])",
    re.IGNORECASE,
)
WORD = re.compile(r"[0-9a-z]+(?:'[a-z]+)?")
# Words that carry no rules meaning, in keyword lookups and in spoken questions alike.
STOPWORDS = frozenset(
    "the a an of to in is are am was were be been being do does did doing i my me mine it its on for and or if with at "
    "by as what whats how who whom when where why can could would should will shall that this these those there their "
    "they them he she his her him hers theirs himself herself itself themselves we our us from into than so any about which while new "
    "have has had having get gets got getting use uses using work works working happen happens happened mean means meant "
    "you your yours still ever anyone anything something someone thing things stuff really just actually exactly "
    "question questions please ok okay way also like want wants need needs know tell go goes going let lets "
    "wat wht hw im ive i'm i've it's that's what's whats dont don't doesnt doesn't isnt isn't didnt didn't "
    "say says said many much make makes made lot lots whether difference diff differ differs too anymore "
    # contractions, with the apostrophe and as players type them without it (never English words such as
    # "well", "ill", "wed", "shell"; "cant" is the vocabulary's "cannot")
    "thats there's theres here's heres who's whos you're youre they're theyre we're he's hes she's shes "
    "you've youve we've weve they've theyve i'll you'll youll they'll theyll it'll itll that'll thatll i'd "
    "you'd youd they'd theyd we'd ain't aint aren't arent wasn't wasnt weren't werent hasn't hasnt "
    "haven't havent hadn't hadnt wouldn't wouldnt couldn't couldnt shouldn't shouldnt mustn't mustnt "
    "won't wont".split()
)
# The words a question is framed with and that no rule is named by: a query of these alone ("what is the",
# "how do i") asks nothing yet.  Narrower than STOPWORDS, some of whose words are terms ("you", "would").
QUESTION_ONLY = frozenset(
    "the a an of to in on at for with about is are am was were be do does did i me my we us it its this that "
    "what whats what's how who whom which why where can could should there here please mean means".split()
)
# A question's leading words; questions are matched against Q&A entries' own questions.
QUESTION_START = re.compile(
    r"^(who|what|what's|whats|wat|when|where|why|how|can|could|does|do|did|is|are|if|may|should|will|would|am|which)\b"
)
# Small words of the languages players write in besides English (Spanish, French, German, Italian,
# Portuguese; accents off, as ``clean`` leaves them), none a word an English question has: "die", "den",
# "as", "do", "no", "per", "par", "non" (of "non-unique"), "sin", "son", "come", "dove", "comment" and the like
# are left out.  A query with one of them whose words are mostly unread is written in another language
# (``search.Index.foreign``): a typo'd English question has none.
FOREIGN_WORDS = frozenset(
    # Spanish
    "el la los las un una unos unas de del al que quien quienes cual cuando como donde porque para por en es "
    "esta este esto puedo puede pueden se si mi mis tu tus su sus pero lo le les otro otra cada tiene "
    # French
    "une des du au aux et ou est sont qui quoi quand pourquoi avec dans sur ne je il elle nous vous ils elles "
    "mon mes tes sa ses ce cette ces peut peux quel quelle lors "
    # German
    "der das dem ein eine einen einem einer und oder ist sind wer wie wann warum kann ich wir ihr mit von zu bei "
    "auf nicht kein keine wenn auch nur mein meine dein deine gegen wird werden "
    # Italian
    "gli che chi quando perche cosa posso puo sono di della dei delle "
    # Portuguese
    "os uma das quem onde nao pode".split()
)
# a French article or pronoun elided before a vowel ("d'un", "l'attaquant", "qu'il", "n'est", "c'est")
ELIDED = re.compile(r"^(?:d|l|j|n|c|s|m|t|qu)'[a-z]{2,}$")
LOWER_WORD = re.compile(r"(?<![A-Za-z0-9])[a-z]+(?:'[a-z]+)?(?![A-Za-z0-9])")  # a word as written in lower case
EDITION_NAMES = {1: "first edition", 2: "second edition"}
EDITION_ADJECTIVES = {1: "first-edition", 2: "second-edition"}  # "a first-edition term", "no second-edition clause"
# a quoted word or phrase ('how does "reveal" work'): the term the question is about
QUOTED = re.compile(r"(?:(?<=\s)|^)[\"“‘']([^\"“”‘’']{2,40})[\"”’'](?=[\s?.,!:;]|$)")


def named_edition(text: str) -> int | None:
    """The edition a query names ("first edition", "1e", "2.0"), or None when it names none or both."""
    named = {1 if re.search(r"1|first", m.group(0), re.IGNORECASE) else 2 for m in EDITION_SAID.finditer(text)}
    return named.pop() if len(named) == 1 else None


# Documents of one edition only, named in a query ("rules reference attachment leaves play", "faq v4.1
# duplicates save"): like the edition's own name, they say which edition is asked about (first edition
# has a Rules of Play, no Rules Reference; its FAQ ended at v5.5.1, the second edition's is at v4.1).
# Unlike the edition's name, their words stay in the query: they name the document's clauses too.
# A FAQ version with a "v" or "version" ("faq v4.1", "faq version 3"): second edition's are v2 to v4 in
# the corpus's time, first edition's last were v5.x; v1.x was both editions' first and names neither.
# A bare number after "faq" is more often a section ("faq 3.30", "FAQ 2.1 covers cannot"): only the
# versions the corpus holds read as versions ("faq 4.1", "faq 2.3", "faq 5.5.1"), and lookup checks
# that the query does not ask about the first-edition FAQ's section of that number ("faq 4.1 house
# affiliation": ``DocumentNamed.section``).
DOCUMENT_SAID = re.compile(
    r"(?<![\w.])(?:(?P<rr>rules?\s+reference)|(?P<tr>tournament\s+regulations?)"
    r"|faq\s*(?:v\.?\s*|version\s+)(?P<version>[2-5](?:\.\d+){0,2})"
    r"|faq\s+(?P<bare>2\.3|4\.1|5\.5(?:\.1)?))(?![\w]|\.\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DocumentNamed:
    """A document of one edition a query names: the edition, the document as a note says it ("the Rules
    Reference", "FAQ v4.1"), and the number when it was written bare after "faq" (it may be a section)."""

    edition: int
    said: str
    section: str = ""


def named_documents(text: str) -> list[DocumentNamed]:
    """The one-edition documents a query names, in order (each once)."""
    found: dict[DocumentNamed, None] = {}
    for match in DOCUMENT_SAID.finditer(text):
        if match["rr"]:
            found[DocumentNamed(2, "the Rules Reference")] = None
        elif match["tr"]:
            found[DocumentNamed(2, "the Tournament Regulations")] = None
        else:
            version = match["version"] or match["bare"]
            found[DocumentNamed(1 if version.startswith("5") else 2, f"FAQ v{version}", match["bare"] or "")] = None
    return list(found)


class QueryError(ValueError):
    """A query that cannot be searched (empty, or nothing but whitespace)."""


@dataclass
class Group:
    """One idea of the query: the words the player typed and the rules' words for it."""

    said: str
    terms: set[str]  # single words and phrases that express it in the rules
    weight: float = 1.0
    stems: frozenset[str] = frozenset()  # the single-word terms, stemmed
    phrases: tuple[str, ...] = ()  # the multi-word terms, padded with spaces for whole-word matching

    def prepare(self) -> None:
        """Precompute what matching needs, once per query."""
        parts = [(term, term_stems(term)) for term in self.terms]
        self.stems = frozenset(p[0] for _, p in parts if len(p) == 1)
        self.phrases = tuple(f" {' '.join(words_of(t))} " for t, p in parts if len(p) > 1)


def _unaccented(ch: str) -> str:
    """A Latin letter with accents as the plain letter ("é" is "e"); any other character as it is."""
    if ch.isascii():
        return ch
    parts = unicodedata.normalize("NFKD", ch)
    return parts[0] if parts[0].isascii() and all(unicodedata.combining(c) for c in parts[1:]) else ch


def clean(query: str) -> tuple[str, list[str]]:
    """Make any input searchable: valid UTF-8, no control characters, bounded length.

    Returns the cleaned text and notes for the user (e.g. that a long query was shortened).
    """
    notes = []
    text = query.encode("utf-8", "surrogatepass").decode("utf-8", "replace")  # lone surrogates become U+FFFD
    text = "".join(" " if ch in "\t\n\r\f\v" else "" if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    text = "".join(map(_unaccented, text))  # "émoji", "Mirrí": the texts' words are plain letters
    if not text.strip():
        raise QueryError("empty query: type a word, a card name or a question")
    words = text.split()
    text = " ".join(words)
    if len(words) > MAX_WORDS or len(text) > MAX_QUERY_CHARS:
        start, end = _asked_span(words) if max(map(len, words)) <= LONG_WORD else (0, 0)
        if end > start:
            said = f"{end - start} words"
            notes.append(
                f"query shortened to its first {said}" if start == 0
                else f"query shortened to its last {said}: a long question asks at its end" if end == len(words)
                else f"query shortened to the {said} that end with its last question mark"
            )  # fmt: skip
            text = " ".join(words[start:end])
        else:  # a word no question has ("zq" * 400): its first characters, as typed
            if len(words) > MAX_WORDS:
                notes.append(f"query shortened to its first {MAX_WORDS} words")
                text = " ".join(words[:MAX_WORDS])
            if len(text) > MAX_QUERY_CHARS:
                notes.append(f"query shortened to its first {MAX_QUERY_CHARS} characters")
                text = text[:MAX_QUERY_CHARS].rstrip()
    return text, notes


def _asked_span(words: list[str]) -> tuple[int, int]:
    """The words of a too-long query to search: as many as a query may hold (MAX_WORDS, MAX_QUERY_CHARS)
    that end with its last question mark, or with its last word when it has none (and the words after
    a question asked early, to fill the room left). A player tells the story first and asks last
    ("... does the terminal attachment go back to my hand?"): its first words alone lost the question."""
    marks = [n for n, w in enumerate(words) if w.endswith("?")]
    end = marks[-1] + 1 if marks else len(words)
    start, size = end, -1
    while start > 0 and end - start < MAX_WORDS and size + 1 + len(words[start - 1]) <= MAX_QUERY_CHARS:
        size += 1 + len(words[start - 1])
        start -= 1
    while end < len(words) and end - start < MAX_WORDS and size + 1 + len(words[end]) <= MAX_QUERY_CHARS:
        size += 1 + len(words[end])  # (the question came early: the story after it fills the room left)
        end += 1
    return start, end


TOKEN = re.compile(r"[0-9A-Za-z]+(?:['’][A-Za-z]+)?")
SENTENCE_END = re.compile(r"[.?!:;]\s*$")


def written_names(text: str) -> frozenset[str]:
    """The words a player wrote as a name ("My Theon Greyjoy attacked alone", "Robb Stark is in my dead
    pile"): capitalised inside a sentence, or at its start when the next word is capitalised too.  A
    typo is seldom written that way, so such a word is corrected only when it is very close to a corpus
    word (Theon is not "then", Robb not "rob"; search.NAME_TYPO).  A query in title case or capitals
    says nothing by its capitals: none is a name."""
    tokens = [(m.group(0), not text[: m.start()].strip() or bool(SENTENCE_END.search(text[: m.start()]))) for m in TOKEN.finditer(text)]
    capital = [len(t) > 1 and t[0].isupper() and not t.isupper() for t, _ in tokens]
    if not tokens or sum(capital) * 2 > len(tokens):
        return frozenset()
    names = set()
    for i, ((token, starts), cap) in enumerate(zip(tokens, capital, strict=True)):
        word = token.lower().replace("’", "'")
        if cap and (not starts or (i + 1 < len(tokens) and capital[i + 1] and word not in STOPWORDS)):
            names.add(word)
    return frozenset(names)


def words_of(text: str) -> list[str]:
    """A text's words, lower-cased, apostrophes kept inside words ("tyrion's", "don't")."""
    return WORD.findall(text.lower().replace("’", "'"))


# Irregular forms the suffix rules cannot reach ("chosen" is "choose", "knelt" is "kneel").
# British spellings of words card titles spell the American way (the FAQ itself writes "Hand's
# Judgement" once beside the title's "Judgment"): read as the title's spelling wherever a word is stemmed
# or a title is matched.
BRITISH = {"judgement": "judgment", "judgements": "judgments"}
IRREGULAR = {
    "chosen": "choose", "chose": "choose", "won": "win", "paid": "pay", "drawn": "draw", "drew": "draw",
    "knelt": "kneel", "took": "take", "taken": "take", "lost": "lose", "went": "go", "gone": "go",
    "dealt": "deal", "held": "hold", "gave": "give", "given": "give", "stood": "stand", "brought": "bring",
    "dying": "die", "died": "die", "dies": "die", "dead": "die", "cancelled": "cancel", "canceled": "cancel",
    "cancelling": "cancel", "canceling": "cancel", "marshalled": "marshal", "marshalling": "marshal",
    "marshaled": "marshal", "marshaling": "marshal", "began": "begin", "begun": "begin", "chosing": "choose",
    "controlled": "control", "controlling": "control", "forgot": "forget", "forgotten": "forget", "stole": "steal",
    "stolen": "steal", "kept": "keep", "ran": "run", "fought": "fight", "sent": "send",
    # the challenge's sides: players ask whether a character can "attack" or "defend", the rules
    # say who may be declared an "attacker" or "defender"
    "attacker": "attack", "attackers": "attack", "defender": "defend", "defenders": "defend",
    **BRITISH,
}  # fmt: skip


# Consonants a verb doubles before -ing/-ed (win, winning); l and s are left alone (kill, pass).
DOUBLED = frozenset("bdgmnprt")
# Words whose stem would merge two rules ideas: the Limited keyword is not a limit, timing (the
# order things resolve in) is not time (a tournament round's clock), a player "decked" (eliminated,
# the draw deck empty) is not the Deck entry that says what "deck" means.
UNSTEMMED = frozenset({"limited", "timing", "decked", "decking"})


@lru_cache(maxsize=1 << 16)
def stem_of(word: str) -> str:
    """A crude stem for coverage checks (FTS5 does the real stemming): suffixes off, a final e off."""
    if word.endswith("'s"):
        word = word[:-2]
    word = word.replace("'", "")
    word = IRREGULAR.get(word, word)
    if word in UNSTEMMED:
        return word
    for suffix in ("ing", "ed", "es", "s"):
        short_plural = suffix == "s" and len(word) == 4 and word[-2] not in "sui"  # wins -> win (not this, pass)
        if suffix == "s" and word.endswith("ss"):  # bypass, process: no plural (bypassed is bypass too)
            break
        if (len(word) > len(suffix) + 3 or short_plural) and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) >= 4 and word[-1] == word[-2] and word[-1] in DOUBLED:
                word = word[:-1]  # winning -> win, stopped -> stop, setting -> set
            break
        if suffix in ("ing", "ed") and len(word) == len(suffix) + 3 and word.endswith(suffix):
            short = _short_verb(word[: -len(suffix)])
            if short:
                return short
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


VOWELS = frozenset("aeiou")


def _short_verb(root: str) -> str | None:
    """The verb of a three-letter root left by -ed/-ing ("mov" in moved, "ask" in asking): with its
    silent e back when the root is consonant-vowel-consonant (moved, moving -> move; saved -> save;
    but taped -> tape, tapped -> tap), or None when the root is no verb's ("bleed", "string")."""
    if root[-1] in VOWELS or not VOWELS & set(root):
        return None
    if root[0] not in VOWELS and root[1] in VOWELS and root[2] not in "wxy":
        return root + "e"
    return root


@lru_cache(maxsize=1 << 14)
def stems_in(text: str) -> frozenset[str]:
    """The set of stems of a text's words."""
    return frozenset(stem_of(w) for w in words_of(text))


def term_stems(term: str) -> tuple[str, ...]:
    """A term's stems in order (one for a word, several for a phrase)."""
    return tuple(stem_of(w) for w in words_of(term))


def question_of(kind: str, heading: str, text: str) -> str:
    """The question a Q&A entry answers: its heading when that is the question, else its opening question."""
    if kind != "qa":
        return ""
    if heading.rstrip().endswith("?"):
        return heading
    end = text.find("?")
    # and the questions straight after it: Tycho Nestoris asks two ("… deck)? How does he work in
    # tournament games that go to time?"), and a blind review's time question was the second
    while 0 < end and (after := text.find("?", end + 1)) > 0 and after < 600 and not re.search(r"[.!]\s", text[end + 1 : after]):
        end = after
    return text[: end + 1] if 0 < end < 600 else heading


def content_stems(text: str) -> frozenset[str]:
    """The stems of a text's words that carry meaning (no stopwords, no single letters)."""
    return frozenset(t for t in stems_in(text) if t not in STOPWORDS and len(t) > 1)


def sorted_words(text: str) -> str:
    """A text's whitespace-separated words in sorted order, one space between: what rapidfuzz's
    token_sort_ratio compares, worked out once per text (``search.ASKED_LIKE`` is its ratio)."""
    return " ".join(sorted(text.split()))


def joined_words(text: str) -> str:
    """A text as lookup reads it: lower-case words, punctuation and capitals aside."""
    return " ".join(words_of(text))


@lru_cache(maxsize=1 << 14)
def asked_words(question: str, expanded: str) -> tuple[str, frozenset[str], int, str]:
    """A player's question for matching: its words with their rules' words (padded) and their content
    stems (coverage), how many content stems the question itself has (its length, for precision),
    and the question as lower-case words (read-alike, whatever its capitals and punctuation)."""
    said, both = joined_words(question), joined_words(expanded)
    return f" {both} ", content_stems(both), len(content_stems(said)), said


class Ideas:
    """The query's ideas as bits of an int, so that which of them a text expresses is one set
    intersection (its stems with the query's) plus a phrase check, for every signal alike."""

    def __init__(self, groups: list[Group], total: float) -> None:
        self.bits: dict[str, int] = {}
        for number, group in enumerate(groups):
            for stem in group.stems:
                self.bits[stem] = self.bits.get(stem, 0) | 1 << number
        self.stems = frozenset(self.bits)
        self.phrases = [(1 << number, group.phrases) for number, group in enumerate(groups) if group.phrases]
        self.weights = [g.weight / total for g in groups]
        self._weighted: dict[int, float] = {}
        self._indices: dict[int, frozenset[int]] = {}
        self._f1: dict[tuple[int, int], float] = {}

    def mask(self, body: tuple[str, frozenset[str]] | tuple[str, frozenset[str], int, str]) -> int:
        """The ideas a text (padded words, stems, anything after them aside) expresses, as bits."""
        text, stems = body[0], body[1]
        found = 0
        bits = self.bits
        for stem in self.stems & stems:
            found |= bits[stem]
        for bit, phrases in self.phrases:
            if not found & bit:
                for phrase in phrases:  # (a plain loop, not any() over a generator: this runs for every text)
                    if phrase in text:
                        found |= bit
                        break
        return found

    def indices(self, found: int) -> frozenset[int]:
        """The ideas' numbers (the groups' positions) in a mask (kept per mask, as ``weighted`` is: a
        query's candidates share a few masks)."""
        if found not in self._indices:
            self._indices[found] = frozenset(i for i in range(len(self.weights)) if found >> i & 1)
        return self._indices[found]

    def weighted(self, found: int) -> float:
        """The share of the query's weight these ideas carry."""
        if found not in self._weighted:
            self._weighted[found] = sum(w for i, w in enumerate(self.weights) if found >> i & 1)
        return self._weighted[found]

    def best_f1(self, texts: Iterable[tuple[str, frozenset[str], int, str]]) -> float:
        """The best ``f1`` of several texts (padded words, stems, how many stems, words: ``asked_words``),
        0.0 for none: a clause's players' questions.  One loop rather than max() over a generator, and
        no f1 call for a text that expresses none of the ideas (its f1 is 0.0)."""
        best = 0.0
        mask, f1 = self.mask, self.f1
        for text in texts:
            found = mask(text)
            if found:
                score = f1(found, text[2])
                if score > best:
                    best = score
        return best

    def f1(self, found: int, size: int) -> float:
        """Recall (weighted share of the query) against precision (share of the text's ideas matched),
        kept per mask and size (a query's texts share a few)."""
        key = (found, size)
        score = self._f1.get(key)
        if score is None:
            if not found or not size:
                score = 0.0
            else:
                recall, precision = self.weighted(found), min(1.0, found.bit_count() / size)
                score = 2 * recall * precision / (recall + precision)
            self._f1[key] = score
        return score


# Words that are English (so never "corrected") must be at least this frequent in the word list.
ENGLISH_MIN_FREQUENCY = 50
# A word the texts write only capitalised is an everyday word, not a name, from this frequency: "store",
# "orders", "street" (over 40,000) are; the list's names "jaime", "robert", "stark" (375 to 2,950) are not.
EVERYDAY_MIN_FREQUENCY = 5000


def english_words(known: set[str], min_frequency: int = ENGLISH_MIN_FREQUENCY) -> list[str]:
    """Real English words (minus ``known``), so that lookup never "corrects" one into another."""
    try:
        from spellchecker import SpellChecker
    except ImportError:  # the word list is an optional guard; without it typo correction is only more eager
        return []
    frequencies = SpellChecker().word_frequency.dictionary
    words = {w for w, n in frequencies.items() if n >= min_frequency and w not in known and w.isalpha()}
    # the list spells American; a British player's "realised", "organiser", "apologise" is as real a word (a blind
    # review got "not a word the rules use … if this asks about a card" for "realised", while "realized" passed)
    british = {BRITISH_SPELLING.sub(lambda m: m[0].replace("z", "s", 1), w) for w in words}
    words |= british - known
    return sorted(words)


def american_spelling(word: str) -> str:
    """The word with a British -ise ending spelt -ize, as the rules spell it ("organiser": "organizer"); the
    word itself where it has none.  Only a guess at a spelling: a caller keeps it where the texts use it."""
    return BRITISH_WRITTEN.sub(lambda m: m[0].replace("s", "z", 1), word)


# The -ize endings the British write -ise ("realized", "organizer", "apologizing"; "analyze", "analyse").
BRITISH_SPELLING = re.compile(r"(?<=[a-z]{3})iz(?:e|ed|es|ing|ation|ations|er|ers)$|(?<=l)yz(?:e|ed|es|ing)$")
BRITISH_WRITTEN = re.compile(r"(?<=[a-z]{3})is(?:e|ed|es|ing|ation|ations|er|ers)$|(?<=l)ys(?:e|ed|es|ing)$")


# a past tense written with an apostrophe, as players do with a verb of their own ("dupe'd", "bounce'd", "kill'd")
APOSTROPHE_PAST = re.compile(r"^(?P<verb>[a-z]{3,})'d$")


def apostrophe_past(word: str) -> str:
    """The word a player's apostrophe past tense spells ("dupe'd": "duped", "kill'd": "killed"), or the word itself.
    A contraction ("she'd", "they'd") keeps its form: its first part is a small word."""
    written = APOSTROPHE_PAST.match(word)
    if not written or written["verb"] in STOPWORDS:
        return word
    verb = written["verb"]
    return f"{verb}d" if verb.endswith("e") else f"{verb}ed"
