"""The trace: the ruling's step-by-step record, each entry citing only the clauses that decide it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekb.engine.core.registry import Registry

NO_RULE = "no document in the corpus states this rule"
UNUSED_CHOICE = "unused choice"  # the tag of a named choice that cannot apply (``Trace.unused``), in both editions


@dataclass
class Entry:
    step: int  # the scenario step that caused it (0: set-up)
    rule: str
    text: str
    clauses: tuple[str, ...]
    outcome: str = "applied"  # applied / refused / choice-needed / not-applied
    data: dict[str, Any] = field(default_factory=dict)
    tag: str = ""  # what happened, from the documented vocabulary (docs/scenarios.md): "claim", "kill"…
    subject: str = ""  # the card or player it happened to

    def label(self) -> str:
        return f"{self.tag}: {self.subject}" if self.subject else self.tag


@dataclass
class Trace:
    """Like a move stack: how the position arose, step by step."""

    registry: Registry
    entries: list[Entry] = field(default_factory=list)
    step: int = 0

    def add(
        self,
        rule_id: str,
        text: str,
        outcome: str = "applied",
        cite: list[str] | None = None,
        tag: str = "",
        subject: str = "",
        **data: Any,
    ) -> Entry:
        """Record a step; ``cite`` narrows the rule's clauses to those that decide this step."""
        clauses = self.registry[rule_id].clauses
        if cite:
            unknown = set(cite) - set(clauses)
            if unknown:
                raise ValueError(f"rule '{rule_id}' does not register {sorted(unknown)}")
            clauses = tuple(cite)
        if not clauses and NO_RULE not in text:
            text += f" ({NO_RULE})"
        entry = Entry(self.step, rule_id, text, clauses, outcome, data, tag or rule_id.split(".")[-1], subject)
        self.entries.append(entry)
        return entry

    def unused(self, rule_id: str, field: str, value: Any, why: str, cite: str | list[str]) -> Entry | None:
        """A choice the scenario names that cannot apply here: said ("not applied", tag ``UNUSED_CHOICE``,
        citing the clause that says when it applies, or the clauses when it takes several), never silently dropped;
        the rest of the step goes on."""
        if not value:
            return None
        names = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        clauses = [cite] if isinstance(cite, str) else cite
        return self.add(rule_id, f"{field}: {names} named, but it is not used: {why}", "not-applied", cite=clauses, tag=UNUSED_CHOICE)

    def as_json(self) -> list[dict[str, Any]]:
        return [
            {
                "step": e.step,
                "rule": e.rule,
                "tag": e.tag,
                **({"subject": e.subject} if e.subject else {}),
                "text": e.text,
                "clauses": list(e.clauses),
                "outcome": e.outcome,
                **({"data": e.data} if e.data else {}),
            }
            for e in self.entries
        ]
