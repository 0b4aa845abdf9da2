"""Whether a memory fact agrees with the domain's current value (pure). One piece of
logic for the write path (a disagreement opens a ``trust_domain`` conflict) and the
read path (the domain's value wins in the packet)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cognimem.domain.source import DomainRow
from cognimem.models.knowledge import Fact
from cognimem.text.names import normalize_name


@dataclass(frozen=True)
class Disagreement:
    fact: Fact
    row: DomainRow
    predicate: str
    domain_value: str

    def note(self) -> str:
        r = self.row
        return (
            f"the domain's {r.table} row {r.ref.key} ({r.name}) has {self.predicate} ="
            f" {self.domain_value!r}; the memory says {self.fact.value!r}: the domain wins"
        )


def same_value(a: str, b: str) -> bool:
    """Values compared as names are: case, spacing, articles and trailing punctuation
    aside ("Seattle" = "seattle", "12 Oak St." = "12 oak st")."""
    return normalize_name(a) == normalize_name(b)


def disagreements(pairs: Iterable[tuple[Fact, DomainRow]]) -> list[Disagreement]:
    """The facts whose predicate the row maps and whose value is not the row's. A
    negated fact ("does not live in X") or a NULL column disagrees with nothing."""
    out: list[Disagreement] = []
    for fact, row in pairs:
        value = row.values.get(fact.predicate)
        if value is None or not fact.polarity:
            continue
        if not same_value(fact.value, value):
            out.append(Disagreement(fact, row, fact.predicate, value))
    return out
