"""The labelled sentences the learned stance reader is trained and measured on.

Every set here was written by hand for the project's benchmarks and has halves: ``tune``
/ ``check`` by topic (``extraction_labelled``: ``dev`` is its tune half, ``heldout`` and
``fresh`` are held out). :func:`examples` reads one half of all of them as
:class:`Example` rows:

- a *stance* (``stance`` true, ``polarity`` for or against): a constraint statement of
  the constraint sets, or a turn whose labelled facts include a policy, value or goal
  of the user's (its stance as ``constraint_recording.stance`` reads it; a turn whose
  facts disagree on it is left out);
- *no stance* (``stance`` false): a no-constraint sentence of the constraint sets, a
  "nothing" probe or turn, or a turn whose labelled facts are of other kinds (a name, a
  city, a job: a reader that made it a constraint would write a false fact). Turns
  labelled with a state, a causal fact or a plain preference only are left out: they
  are neither.

``stance_training_round1`` (``stance_training.md``) is a set written only to train the
reader: every row is ``tune``, statements and no-stance sentences on topics no
constraint set has; it is read as the constraint sets' rows are, but it is not one of
them (no check half, not scored by ``constraint_recording.py``).

``group`` names the topic (or family) of a row, so cross-validation can hold out whole
topics as the check halves do.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from constraint_recording import stance_of

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
LABELLED = ROOT / "tests" / "fixtures" / "extraction_labelled.jsonl"
# the constraint sets: rows with ``constraint``, ``polarity``, ``topic``
STATEMENT_SETS = (
    "constraint_statements",
    "constraint_forms",
    *(f"constraint_forms_round{n}" for n in range(2, 12)),
    "constraint_forms_round13",
    "constraint_forms_round14",
    "constraint_forms_round14b",
    "constraint_likes",
    "constraint_voices",
    "house_rules",
    "present_states",
)
PROBE_SETS = (
    "nothing_probes",
    "nothing_probes_added",
    *(f"nothing_probes_round{n}" for n in range(4, 9)),
)
# written to train the reader only: every row "tune" (``stance_training.md``)
TRAINING_SETS = ("stance_training_round1",)
TURN_SETS = ("knowledge_set", "knowledge_nothing_round10", "knowledge_nothing_round11")
_STANCE_CATEGORIES = frozenset({"policy", "value", "goal"})
_NEITHER = frozenset({"state", "causal", "preference"})


@dataclass(frozen=True)
class Example:
    source: str
    group: str
    text: str
    stance: bool
    polarity: bool = True


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def _stance_of(fact: dict[str, Any]) -> bool:
    return stance_of(fact.get("predicate"), bool(fact.get("polarity", True)), fact["value"])


def _from_facts(source: str, group: str, text: str, facts: list[dict[str, Any]]) -> Example | None:
    """A turn read from its labelled facts (see the module docstring), or None."""
    mine = [f for f in facts if f.get("subject", "user") == "user"]
    stances = {_stance_of(f) for f in mine if f["category"] in _STANCE_CATEGORIES}
    if len(stances) == 1:
        return Example(source, group, text, True, stances.pop())
    if stances or any(f["category"] in _NEITHER for f in facts):
        return None
    return Example(source, group, text, False)


def _statement_rows(name: str, half: str) -> Iterator[Example]:
    for row in _lines(DATA / f"{name}.jsonl"):
        if row["split"] == half:
            group = f"{name}:{row['topic']}"
            yield Example(name, group, row["text"], row["constraint"], row.get("polarity", True))


def _training_rows(name: str, half: str) -> Iterator[Example]:
    """A training set's rows of ``half`` (all of them are ``tune``), as statement rows."""
    yield from _statement_rows(name, half)


def _probe_rows(name: str, half: str) -> Iterator[Example]:
    for row in _lines(DATA / f"{name}.jsonl"):
        if row["split"] == half:
            found = _from_facts(name, f"{name}:{row.get('family', '')}", row["text"], row["facts"])
            if found is not None:
                yield found


def _turn_rows(name: str, half: str) -> Iterator[Example]:
    for row in _lines(DATA / f"{name}.jsonl"):
        if row["split"] != half:
            continue
        for i, turn in enumerate(row["turns"]):
            facts = [f for f in row["facts"] if f.get("turn", 0) == i]
            found = _from_facts(name, f"{name}:{row['id']}", turn, facts)
            if found is not None:
                yield found


def _labelled_rows(half: str) -> Iterator[Example]:
    wanted = {"tune": ("dev",), "check": ("heldout", "fresh")}[half]
    for n, row in enumerate(_lines(LABELLED)):
        if row["split"] in wanted:
            found = _from_facts(
                "extraction_labelled", f"labelled:{n % 7}", row["text"], row["facts"]
            )
            if found is not None:
                yield found


def examples(half: str) -> list[Example]:
    """Every labelled sentence of ``half`` (``tune`` or ``check``), in a fixed order,
    each distinct (text, label) once."""
    rows: list[Example] = []
    for name in STATEMENT_SETS:
        rows += _statement_rows(name, half)
    for name in TRAINING_SETS:
        rows += _training_rows(name, half)
    for name in PROBE_SETS:
        rows += _probe_rows(name, half)
    for name in TURN_SETS:
        rows += _turn_rows(name, half)
    rows += _labelled_rows(half)
    seen: set[tuple[str, bool, bool]] = set()
    unique = []
    for row in rows:
        key = (row.text, row.stance, row.polarity)
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return unique
