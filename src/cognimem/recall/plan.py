"""The retrieval plan: which memory layers a read asks, in which order, under which
time limits. Pure: built from the query's analysis and the recall config."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, FactCategory
from cognimem.recall.analyze import STOP_WORDS, Intent, QueryAnalysis, asks_how
from cognimem.recall.presets import RecallConfig
from cognimem.text.names import slug


class StepKind(StrEnum):
    FACT_LOOKUP = "fact_lookup"  # facts by key prefix ("user:identity", "rosa:preference")
    LEXICAL = "lexical"
    VECTOR = "vector"
    GRAPH = "graph"  # personalized PageRank from the entities the query names
    CONSTRAINTS = "constraints"  # active constraints by category, scope tags and meaning
    FACTS = "facts"  # other live facts close to the query
    MANDATES = "mandates"  # tier-always items: always in the packet
    SUMMARIES = "summaries"
    PROCEDURES = "procedures"  # procedure hints (tool-discovery writes) close to the query
    LEARNED_PROCEDURES = "learned_procedures"  # learnt procedures whose trigger it matches
    DOMAIN = "domain"  # the domain database's rows for the entities the query names
    # every item in the window that may tell of an event of the kind a question counts
    # or orders ("how many pets ...", "which came first ..."): a deeper search
    EVENTS = "events"


ITEM_STEPS = frozenset(
    {
        StepKind.FACT_LOOKUP,
        StepKind.LEXICAL,
        StepKind.VECTOR,
        StepKind.GRAPH,
        StepKind.EVENTS,
    }
)


@dataclass(frozen=True)
class PlannedStep:
    kind: StepKind
    timeout_s: float
    categories: tuple[FactCategory, ...] = ()  # constraints: which types to look for
    keys: tuple[str, ...] = ()  # fact lookup: key prefixes
    light: bool = False  # constraints: only the clearly relevant, at most two

    @property
    def name(self) -> str:
        return self.kind.value

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.name, "timeout_s": self.timeout_s}
        if self.categories:
            out["categories"] = [c.value for c in self.categories]
        if self.keys:
            out["keys"] = list(self.keys)
        if self.light:
            out["light"] = True
        return out


@dataclass(frozen=True)
class StepGroup:
    """Steps that run concurrently. ``skip_if_found``: when this group's item steps
    found anything, the later groups do not run at all."""

    steps: tuple[PlannedStep, ...]
    skip_if_found: bool = False


@dataclass(frozen=True)
class RetrievalPlan:
    groups: tuple[StepGroup, ...]
    budget_s: float  # the whole plan: a step never runs past it

    def steps(self) -> list[PlannedStep]:
        return [step for group in self.groups for step in group.steps]

    def describe(self) -> dict[str, Any]:
        return {
            "budget_s": self.budget_s,
            "groups": [
                {"skip_if_found": g.skip_if_found, "steps": [s.describe() for s in g.steps]}
                for g in self.groups
            ],
        }


_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself)\b", re.IGNORECASE)
_PROPER_NAME = re.compile(r"\b([A-Z][a-z]+)(?:'s)?\b")
_LOOKUP_CATEGORIES: dict[Intent, tuple[FactCategory, ...]] = {
    Intent.IDENTITY: (
        FactCategory.IDENTITY,
        FactCategory.LOCATION,
        FactCategory.OCCUPATION,
        FactCategory.RELATIONSHIP,
    ),
    Intent.PREFERENCE: (FactCategory.PREFERENCE,),
}
_SUMMARY_INTENTS = frozenset({Intent.GENERAL, Intent.MULTI_HOP})
# every constraint category in the enum's order: a frozenset's order follows the
# strings' hashes, which change from process to process, and the plan is shown
_EVERY_CONSTRAINT = tuple(c for c in FactCategory if c in CONSTRAINT_CATEGORIES)
MAX_LOOKUP_SUBJECTS = 3
_COMMANDS = frozenset({"tell", "list", "name", "give", "show", "remind", "describe"})


def speaks_of_self(query: str) -> bool:
    """Whether the query speaks of its user in the first person ("my", "I")."""
    return bool(_FIRST_PERSON.search(query))


def lookup_keys(query: str, intent: Intent) -> tuple[str, ...]:
    """Key prefixes for the exact fact lookup: the subjects the query names (the user
    when it speaks in the first person, capitalised names) times the intent's
    categories. Empty for intents without a key-shaped answer."""
    categories = _LOOKUP_CATEGORIES.get(intent)
    if not categories:
        return ()
    subjects: list[str] = ["user"] if speaks_of_self(query) else []
    for match in _PROPER_NAME.finditer(query):
        name = slug(match.group(1))
        if name and name not in STOP_WORDS and name not in _COMMANDS and name not in subjects:
            subjects.append(name)
    return tuple(
        f"{subject}:{category.value}"
        for subject in subjects[:MAX_LOOKUP_SUBJECTS]
        for category in categories
    )


def named_subjects(keys: Sequence[str]) -> list[str]:
    """The names (as alias-table keys) that lookup ``keys`` take as subjects, the user
    aside."""
    subjects = {k.split(":", 1)[0] for k in keys} - {"user"}
    return sorted(s.replace("_", " ") for s in subjects)


def with_user_keys(keys: tuple[str, ...], user_names: Sequence[str]) -> tuple[str, ...]:
    """``keys``, plus the user's own (``user:...``) for each subject named by one of
    ``user_names``, the names the user speaks under: the user's facts are keyed ``user``
    whatever name they were said under, so "what does Rosa like?" asked of
    Rosa's memory looks up ``user:preference`` too."""
    own = {n.replace(" ", "_") for n in user_names}
    extra = [f"user:{k.split(':', 1)[1]}" for k in keys if k.split(":", 1)[0] in own]
    return tuple(dict.fromkeys([*keys, *extra]))


def make_plan(
    analysis: QueryAnalysis, config: RecallConfig, *, domain: bool = False
) -> RetrievalPlan:
    """The steps a read runs for this query (``domain``: a domain database is mapped).

    A question that counts or orders events (``analysis.events``) gets the events
    step: the lexical and vector searches again, many times deeper, whose items that
    tell of an event the packet keeps beyond its item limit (``recall/events.py``).

    Every query with sections gets a constraint step: a full one (the query's
    constraint dimensions, or every binding type) when it is decision-like or names a
    dimension, a light one otherwise — so constraints still appear when they plainly
    bear on the question, without a fixed boost that would put them on every list.
    """
    t = config.step_timeout_s
    first: list[PlannedStep] = []
    later: list[PlannedStep] = []
    keys = lookup_keys(analysis.query, analysis.intent) if config.sections else ()
    if keys:
        first.append(PlannedStep(StepKind.FACT_LOOKUP, t, keys=keys))
    if config.lexical:
        first.append(PlannedStep(StepKind.LEXICAL, t))
    if config.vector:
        (later if config.skip_if_found else first).append(PlannedStep(StepKind.VECTOR, t))
    if config.graph and analysis.names:
        first.append(PlannedStep(StepKind.GRAPH, t))
    if analysis.events is not None and (config.lexical or config.vector):
        first.append(PlannedStep(StepKind.EVENTS, t))
    if config.sections:
        c = analysis.classification
        if c.categories or c.decision:
            categories = c.categories or _EVERY_CONSTRAINT
            first.append(PlannedStep(StepKind.CONSTRAINTS, t, categories=categories))
        else:
            first.append(
                PlannedStep(StepKind.CONSTRAINTS, t, categories=_EVERY_CONSTRAINT, light=True)
            )
        first.append(PlannedStep(StepKind.FACTS, t))
        first.append(PlannedStep(StepKind.MANDATES, t))
        first.append(PlannedStep(StepKind.LEARNED_PROCEDURES, t))
        if domain and (analysis.names or speaks_of_self(analysis.query)):
            first.append(PlannedStep(StepKind.DOMAIN, t))
        if asks_how(analysis.query):
            later.append(PlannedStep(StepKind.PROCEDURES, t))
        if analysis.intent in _SUMMARY_INTENTS:
            later.append(PlannedStep(StepKind.SUMMARIES, t))
    if config.skip_if_found:
        groups = [StepGroup(tuple(first), skip_if_found=True)]
        if later:
            groups.append(StepGroup(tuple(later)))
    else:
        groups = [StepGroup(tuple(first + later))]
    return RetrievalPlan(groups=tuple(g for g in groups if g.steps), budget_s=config.budget_s)
