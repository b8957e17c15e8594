"""Players' questions per clause (``corpus/player-questions/*.yaml``, "doc2query"): load, check, expand.

For each rules clause, the questions players ask at a table that the clause's text decides, in the
words players use.  Lookup recalls them through FTS5 tables of their own and matches a spoken query
against them (``judgekb.lookup.search``); they are matching data only, never shown as rules text.

A file is a mapping of clause id to a list of questions.  What is wrong with one is an error naming
the file, the line and the id, so the build stops with no database half-written; questions for an
id that is no longer a clause follow ``corpus/renamed.yaml`` or are skipped with a warning, so that
a corpus update never blocks a rebuild at an event over matching data.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from judgekb import yamlio
from judgekb.errors import DataError
from judgekb.lookup.words import words_of

FOLDER = "player-questions"
MAX_CHARACTERS = 300  # a long table dispute is a real question; a paragraph is not


def load(corpus: Path, clauses: dict[str, Any]) -> tuple[list[dict[str, str]], list[str]]:
    """Every (clause id, question) row of the corpus's files, and warnings for the build report."""
    from judgekb.authority.verify import load_renamed

    renamed = {item["old"]: item["new"] for item in load_renamed(corpus)}
    rows: list[dict[str, str]] = []
    warnings: list[str] = []
    folder = corpus / FOLDER
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        for clause_id, line, asked in _entries(path):
            target = clause_id if clause_id in clauses else renamed.get(clause_id)
            if target not in clauses:
                if asked:
                    warnings.append(
                        f"{path}:{line}: '{clause_id}' is no clause id (renamed or removed?): its {len(asked)} "
                        "players' questions were skipped"
                    )
                continue
            rows += [{"id": target, "question": question} for question in asked]
    return rows, warnings


def _entries(path: Path) -> list[tuple[str, int, list[str]]]:
    """(clause id, line, questions) of one file, each checked; any fault is a DataError naming it."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"), Loader=yamlio.SafeLoader)
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{path}: cannot read: {error}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise DataError(f"{path}{f':{mark.line + 1}' if mark else ''}: not valid YAML: {getattr(error, 'problem', error)}") from None
    if root is None:
        return []
    if not isinstance(root, yaml.MappingNode):
        raise DataError(f"{path}: expected a mapping of clause id to a list of questions")
    entries: list[tuple[str, int, list[str]]] = []
    seen: dict[str, int] = {}
    for key, value in root.value:
        line = key.start_mark.line + 1
        if not isinstance(key, yaml.ScalarNode) or key.tag != "tag:yaml.org,2002:str":
            raise DataError(f"{path}:{line}: a clause id must be plain text")
        if key.value in seen:
            raise DataError(f"{path}:{line}: '{key.value}' is listed twice (first at line {seen[key.value]})")
        seen[key.value] = line
        ok = isinstance(value, yaml.SequenceNode) and all(
            isinstance(item, yaml.ScalarNode) and item.tag == "tag:yaml.org,2002:str" for item in value.value
        )
        asked = [" ".join(item.value.split()) for item in value.value] if ok else []
        if not ok or not all(0 < len(question) <= MAX_CHARACTERS for question in asked):
            raise DataError(
                f"{path}:{line}: '{key.value}': expected a list of questions (text of 1-{MAX_CHARACTERS} characters)"
            )
        entries.append((key.value, line, asked))
    return entries


def expander(phrases: list[tuple[str, str]]) -> Callable[[str], str]:
    """A function that adds to a player's question the rules' words for the player's words in it
    (the vocabulary a query is read with), so "can a tapped guy block" also says kneel and defend:
    a query and a question meet in the rules' words."""
    table: dict[tuple[str, ...], list[str]] = {}
    for term, expansion in phrases:
        words = tuple(words_of(term))
        if words:
            table.setdefault(words, []).append(expansion)
    order = {words: n for n, words in enumerate(table)}  # expansions come in the vocabulary's order
    longest = max(map(len, table), default=0)

    def expand(question: str) -> str:
        said = tuple(words_of(question))
        found = {said[i : i + n] for i in range(len(said)) for n in range(1, longest + 1) if said[i : i + n] in table}
        extra = [expansion for words in sorted(found, key=order.__getitem__) for expansion in table[words]]
        return " ".join([" ".join(said), *dict.fromkeys(extra)])

    return expand
