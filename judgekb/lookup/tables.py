"""What lookup persists at build time, so that a one-off lookup starts fast: vocabulary with document
frequencies per edition, the glossary and player phrases, English words, absent-document topics, each
clause's words and stems, the players' questions in FTS5 tables, and the index's snapshot.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from judgekb import yamlio
from judgekb.lookup import notices
from judgekb.lookup.search import CARD_KINDS, CLAUSE_WORDS, DERIVED_KEY, Index, connection
from judgekb.lookup.words import (
    EVERYDAY_MIN_FREQUENCY,
    LOWER_WORD,
    STOPWORDS,
    asked_words,
    content_stems,
    english_words,
    question_of,
    stem_of,
    stems_in,
    words_of,
)

# What ranking reads of a clause's text and heading, worked out here once (``clause_words_row``).
_PHASE_BOUNDARY = r"\bthis step formalizes the (?:beginning|end) of the [a-z]+ phase"
# a framework step that only marks where a phase begins or ends ("This step formalizes the beginning of
# the standing phase"): like a container's title, it answers nothing the phase's other steps do not
FORMALITY = re.compile(_PHASE_BOUNDARY + "$")
# The plot phase's first and last steps (and the round's last) say more — that the round begins or
# ends there, that a phase's beginning and end are milestones card text refers to — but only to a
# question about a beginning or an end: "can I use actions in the plot phase" is not one.
BOUNDARY = re.compile(_PHASE_BOUNDARY + r"\b")
FORMAT_ONLY = re.compile(r"\((?:melee|joust)(?: game| format)? only\)", re.IGNORECASE)
# An entry that only defines a word ('The term "attacking character" refers to a character that is
# participating ...': Attacker, Defender; 'When the word "deck" appears by itself ...': Deck) answers
# what the word means, not a question about doing the thing ("attack with no characters", "deck has no
# cards left"): there it counts as a title, unless the query is the term alone or asks what it is.
# (Printed, 'The word "printed" refers to the ... value that is physically printed', is not one: asked
# whether an attachment's strength is printed strength, what the word covers is the question.)
TERM_DEFINITION = re.compile(r"the term [a-z ]+ refers to |when the word [a-z ]+ appears by itself ")


def clause_words_row(clause_id: str, heading: str, body: str, question: str) -> tuple[Any, ...]:
    """A clause as ranking reads it, worked out when the database is built: its words and their stems
    in order, its heading's words and content stems, the names the heading gives it, whether its text
    says more than its heading, is a phase's boundary step or only defines a word, and the question a
    Q&A entry answers (words, stems).  Worked out for each clause a cold command recalled, this was
    most of its first search."""
    words_list = words_of(body)
    words, stems = " ".join(words_list), " ".join(stem_of(w) for w in words_list)
    # a format qualifier ("Redirect (Melee game only)") says where the rule applies, not what it is about
    head = " ".join(words_of(FORMAT_ONLY.sub("", heading)))
    # the names a heading gives its entry ("Claim or Claim Value": "claim", "claim value")
    named = {" ".join(words_of(n)) for n in re.split(r",|\bor\b|[()]", heading)}
    # a card type's entry is named by the type alone ("Unique Cards": "unique", "Attachment Cards")
    named |= {n.removesuffix(" cards").removesuffix(" card") for n in named if n.endswith((" card", " cards"))}
    says_more = not set(words.split()) <= {*head.split(), *map(str, range(10))} and not FORMALITY.search(words)
    question_stems = (t for t in stems_in(question) if t not in STOPWORDS and len(t) > 2)
    return (
        clause_id, words, stems, head, " ".join(sorted(content_stems(head))), "|".join(sorted(named - {""})), int(says_more),
        int(bool(BOUNDARY.search(words))), int(bool(TERM_DEFINITION.match(words[len(head) + 1 :]))),
        " ".join(words_of(question)), " ".join(sorted(set(question_stems))),
    )  # fmt: skip


def load_phrases(corpus: Path) -> list[tuple[str, str]]:
    """(term, expansion) rows: the glossary's synonyms, the player vocabulary and set abbreviations."""
    rows: list[tuple[str, str]] = []
    glossary = yamlio.read_data(corpus / "glossary.yaml")
    rows += [(str(k).lower(), str(v).lower()) for k, vs in glossary.get("synonyms", {}).items() for v in vs]
    players = corpus / "player-vocabulary.yaml"
    if players.is_file():
        data = yamlio.read_data(players)
        rows += [(str(k).lower(), str(v).lower()) for k, vs in (data.get("phrases") or {}).items() for v in vs]
    sets = yamlio.read_data(corpus / "sets.yaml")
    for entry in sets.get("edition1", []):
        for alias in [entry.get("abbr", ""), *entry.get("aliases", [])]:
            if alias and len(alias) <= 5:
                rows += [(alias.lower(), w) for w in words_of(entry["name"])]
    return rows


def load_nicknames(path: Path) -> dict[str, str]:
    """``nicknames`` of ``corpus/card-aliases.yaml``: the names players call a card by, each read as the
    title words it stands for.  Checked at build: a nickname must be one lower-case word, and what it
    stands for words, or the build stops naming the file and the entry."""
    from judgekb import yamlio
    from judgekb.errors import DataError

    if not path.is_file():
        return {}
    data = yamlio.load(path) or {}
    nicknames = data.get("nicknames") or {}
    if not isinstance(nicknames, dict):
        raise DataError(f"{path}: nicknames must be a mapping of a nickname to the title words it stands for")
    out = {}
    for nickname, title in nicknames.items():
        if nickname == "__line__":
            continue
        if not isinstance(nickname, str) or words_of(nickname) != [nickname]:
            raise DataError(f"{yamlio.where(path, nicknames)}: nickname {nickname!r} must be one lower-case word")
        if not isinstance(title, str) or not words_of(title) or " ".join(words_of(title)) != title:
            raise DataError(f"{yamlio.where(path, nicknames)}: nickname {nickname!r} must stand for lower-case title words, got {title!r}")
        out[nickname] = title
    return out


def load_names(path: Path) -> dict[str, list[str]]:
    """``characters`` and ``names`` of ``corpus/card-aliases.yaml``: names from the story players say
    that no document prints (or only in an example), never read as a typo; a character's name also
    names a card.  And ``traits_edition1``/``2``: traits no title of the edition has as a word, so no name
    of its cards.  Checked at build: each must be one lower-case word, or the build stops naming the
    file, the field and the entry's value."""
    from judgekb import yamlio
    from judgekb.errors import DataError

    data = (yamlio.load(path) or {}) if path.is_file() else {}
    out: dict[str, list[str]] = {}
    for field in STORY_NAME_FIELDS:
        names = data.get(field) or []
        if not isinstance(names, list):
            raise DataError(f"{path}: {field} must be a list of lower-case words")
        for name in names:
            if not isinstance(name, str) or words_of(name) != [name]:
                # (named by its value: the loader keeps lines for mappings, and the file's own line would mislead)
                raise DataError(f"{path}: {field}: {name!r} must be one lower-case word")
        out[field] = sorted(set(names))
    return out


STORY_NAME_FIELDS = ("characters", "names", "traits_edition1", "traits_edition2")


def glossary_rows(corpus: Path) -> list[dict[str, str]]:
    """The glossary's synonyms, the player vocabulary and set abbreviations as (term, expansion) rows for the store."""
    return [{"term": t, "expansion": e} for t, e in load_phrases(corpus)]


def build_tables(db: Any, clause_rows: list[dict[str, Any]], corpus: Path) -> list[str]:
    """Persist what lookup needs at start: vocabulary with document frequencies per edition, the
    glossary and player phrases, English words, absent-document topics, each clause's facts and
    its players' questions.  Returns warnings for the build report (players' questions skipped)."""
    df: dict[str, list[int]] = {}  # per edition: all clauses, then clauses about rules (not one card's entries)
    count: dict[str, int] = {}
    for row in clause_rows:
        words = words_of(f"{row['heading']} {row['text']}")
        for word in words:
            count[word] = count.get(word, 0) + 1
        for word in set(words):
            entry = df.setdefault(word, [0, 0, 0, 0])
            entry[row["edition"] - 1] += 1
            if row["kind"] not in CARD_KINDS:
                entry[row["edition"] + 1] += 1
    # the words the texts write in lower case somewhere; the others are names (Tyrion, Littlefinger) or
    # capitalised terms (Knight): ``named`` in the vocabulary
    lower = {w for row in clause_rows for w in LOWER_WORD.findall(f"{row['heading']} {row['text']}")}
    db["vocab"].insert_all(
        (
            {"word": w, "n": count[w], "df1": d[0], "df2": d[1], "rules1": d[2], "rules2": d[3], "named": int(w not in lower)}
            for w, d in df.items()
        ),
        pk="word",
    )
    stem_df: dict[str, list[int]] = {}
    for row in clause_rows:
        for stem in {stem_of(w) for w in words_of(f"{row['heading']} {row['text']}")}:
            stem_df.setdefault(stem, [0, 0])[row["edition"] - 1] += 1
    db["stems"].insert_all(({"stem": k, "df1": d[0], "df2": d[1]} for k, d in stem_df.items()), pk="stem")
    db["glossary"].insert_all(glossary_rows(corpus))
    conn = connection(db)
    conn.execute("create table english (word text primary key) without rowid")
    # every frequent English word but the corpus's names (words it never writes in lower case: Robert,
    # Baratheon): a word only a card's errata uses ("stay") is still a real word, never reported unknown
    capitalised = set(df) - lower
    conn.executemany("insert or ignore into english values (?)", ((w,) for w in english_words(capitalised)))
    # the everyday English words the texts write only capitalised, in a title ("Store Championship", "Bungled
    # Orders"): names for lookup's other purposes, but everyday words where a notice would call them a name
    conn.execute("create table english_capitalised (word text primary key) without rowid")
    everyday = english_words(set(), EVERYDAY_MIN_FREQUENCY)
    conn.executemany("insert or ignore into english_capitalised values (?)", ((w,) for w in everyday if w in capitalised))
    players = corpus / "player-vocabulary.yaml"
    vocabulary = yamlio.read_data(players) if players.is_file() else {}
    events = vocabulary.get("event_words", {})
    topics = notices.load_topics(corpus / "absent-topics.yaml")
    notices.check_unruled_see(corpus / "absent-topics.yaml", topics, {r["id"]: r["edition"] for r in clause_rows})
    db["search_meta"].insert_all(
        [
            {"key": "absent_topics", "value": json.dumps(topics or {}, ensure_ascii=False)},
            {"key": "event_words", "value": json.dumps(events or {}, ensure_ascii=False)},
            {"key": "second_edition_only", "value": json.dumps(vocabulary.get("second_edition_only") or [], ensure_ascii=False)},
            {"key": "nicknames", "value": json.dumps(load_nicknames(corpus / "card-aliases.yaml"), ensure_ascii=False)},
            {"key": "story_names", "value": json.dumps(load_names(corpus / "card-aliases.yaml"), ensure_ascii=False)},
        ],
        pk="key",
    )
    from judgekb.lookup import player_questions

    asked, warnings = player_questions.load(corpus, {r["id"]: r for r in clause_rows})
    expand = player_questions.expander(load_phrases(corpus))
    edition_of = {r["id"]: r["edition"] for r in clause_rows}
    for edition in (1, 2):  # one FTS5 table an edition: a lookup scores only its own edition's questions
        table = db[f"asked_{edition}"]
        table.insert_all(
            (asked_row(row["id"], row["question"], expand(row["question"])) for row in asked if edition_of[row["id"]] == edition),
            columns={"id": str, "question": str, "expanded": str, "words": str, "stems": str, "size": int, "said": str},
        )
        table.enable_fts(["expanded"], tokenize="porter", create_triggers=False)
    db.create_view("asked", "select id, question, expanded from asked_1 union all select id, question, expanded from asked_2")
    questions = {r["id"]: q for r in clause_rows if (q := question_of(r["kind"], r["heading"] or "", r["text"] or ""))}
    conn.execute(f"create table clause_words (id text primary key, {', '.join(CLAUSE_WORDS)}) without rowid")
    conn.executemany(
        f"insert into clause_words values ({', '.join('?' * (len(CLAUSE_WORDS) + 1))})",
        (clause_words_row(r["id"], r["heading"] or "", f"{r['heading']} {r['text']}", questions.get(r["id"]) or "") for r in clause_rows),
    )
    snapshot = json.dumps(Index.snapshot(conn, questions), ensure_ascii=False)
    db["search_meta"].insert({"key": "index", "value": snapshot}, pk="key")
    # what an index works out from the snapshot at start, as this Python keeps it (from the snapshot as JSON reads it back)
    db["search_meta"].insert({"key": DERIVED_KEY, "value": Index.kept_facts(Index.derived(json.loads(snapshot)))}, pk="key")
    return warnings


def asked_row(clause_id: str, question: str, expanded: str) -> dict[str, Any]:
    """A player's question as stored: beside its text and its expansion (which FTS5 matches), what the
    lookup compares with a query (``asked_words``), worked out here once so that a cold command does
    not stem the hundred-odd questions its query recalls."""
    words, stems, size, said = asked_words(question, expanded)
    return {
        "id": clause_id, "question": question, "expanded": expanded,
        "words": words.strip(), "stems": " ".join(sorted(stems)), "size": size, "said": said,
    }  # fmt: skip
