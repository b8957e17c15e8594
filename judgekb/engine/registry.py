"""Rule registration and the trace: every step of a ruling names the clauses behind it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Rule:
    id: str
    clauses: tuple[str, ...]
    edition: int
    summary: str


RULES: dict[str, Rule] = {}


def rule(rule_id: str, clauses: list[str], summary: str, edition: int = 1) -> Callable[[F], F]:
    """Register a rule function with the clause ids it implements (checked against the KB by tests)."""

    def wrap(func: F) -> F:
        if rule_id in RULES:
            raise ValueError(f"rule '{rule_id}' registered twice")
        RULES[rule_id] = Rule(rule_id, tuple(clauses), edition, summary)
        func.rule_id = rule_id  # type: ignore[attr-defined]
        return func

    return wrap


class IllegalStep(Exception):
    """A step the rules do not allow; carries the rule that forbids it."""

    def __init__(self, rule_id: str, reason: str) -> None:
        super().__init__(reason)
        self.rule_id = rule_id
        self.reason = reason


@dataclass
class Entry:
    step: int  # the scenario step that caused it (0: set-up)
    rule: str
    text: str
    clauses: tuple[str, ...]
    outcome: str = "applied"  # applied / refused / choice-needed
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Trace:
    """The ruling's step-by-step record (like a move stack: how the position arose)."""

    entries: list[Entry] = field(default_factory=list)
    step: int = 0

    def add(self, rule_id: str, text: str, outcome: str = "applied", cite: list[str] | None = None, **data: Any) -> Entry:
        """Record a step; ``cite`` narrows the rule's clauses to those that apply here."""
        clauses = RULES[rule_id].clauses
        if cite:
            unknown = set(cite) - set(clauses)
            if unknown:
                raise ValueError(f"rule '{rule_id}' does not register {sorted(unknown)}")
            clauses = tuple(cite)
        entry = Entry(self.step, rule_id, text, clauses, outcome, data)
        self.entries.append(entry)
        return entry

    def as_json(self) -> list[dict[str, Any]]:
        return [
            {
                "step": e.step,
                "rule": e.rule,
                "text": e.text,
                "clauses": list(e.clauses),
                "outcome": e.outcome,
                **({"data": e.data} if e.data else {}),
            }
            for e in self.entries
        ]
