"""Rule registration: every rule function names the clause ids it rests on, per edition."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Rule:
    id: str
    clauses: tuple[str, ...]
    edition: int
    summary: str


class Registry:
    """One edition's rules.  ``prefixes`` are the only document ids its rules may cite, so a
    second-edition rule citing a first-edition clause fails at import time, not at a judge's table."""

    def __init__(self, edition: int, prefixes: tuple[str, ...]) -> None:
        self.edition = edition
        self.prefixes = prefixes
        self.rules: dict[str, Rule] = {}

    def rule(self, rule_id: str, clauses: list[str], summary: str) -> Callable[[F], F]:
        """Register a rule function with the clause ids it implements (checked against the KB by tests).

        ``clauses`` may be empty only for a rule no document in the corpus states; its trace
        steps then say so."""
        wrong = [c for c in clauses if not c.startswith(self.prefixes)]
        if wrong:
            raise ValueError(f"edition {self.edition} rule '{rule_id}' cites clauses of another edition: {wrong}")

        def wrap(func: F) -> F:
            if rule_id in self.rules:
                raise ValueError(f"rule '{rule_id}' registered twice")
            self.rules[rule_id] = Rule(rule_id, tuple(clauses), self.edition, summary)
            func.rule_id = rule_id  # type: ignore[attr-defined]
            return func

        return wrap

    def add(self, rule_id: str, clauses: list[str], summary: str) -> str:
        """Register a rule that has no function of its own (a fact recorded by another rule)."""
        self.rule(rule_id, clauses, summary)(lambda: None)
        return rule_id

    def __getitem__(self, rule_id: str) -> Rule:
        return self.rules[rule_id]

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.rules

    def __iter__(self) -> Iterator[str]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def values(self) -> list[Rule]:
        return list(self.rules.values())


class IllegalStep(Exception):
    """A step the rules do not allow; carries the rule that forbids it and, optionally, the one clause
    of that rule that decides the refusal (``cite``)."""

    def __init__(self, rule_id: str, reason: str, cite: list[str] | None = None, tag: str = "refused") -> None:
        super().__init__(reason)
        self.rule_id = rule_id
        self.reason = reason
        self.cite = cite
        self.tag = tag


class CannotInitiate(IllegalStep):
    """An ability whose effect could not change the game state, so it cannot be initiated (2nd ed. RR Abilities).

    ``why`` says what each part of the effect could not change, in the game's words.  A step that is a player's
    own action, event or effect is refused like any illegal step; an interrupt or reaction (a ``reaction`` or
    ``interrupt`` step, or one a step lists) is said not initiated, and the rest of the step stands."""

    def __init__(self, rule_id: str, reason: str, why: str, cite: list[str] | None = None) -> None:
        super().__init__(rule_id, reason, cite)
        self.why = why
