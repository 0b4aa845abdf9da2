"""What one message states, as its clauses are read: the base the detectors report to.

Every fact goes through :meth:`Collector.add`, so all detectors treat a fact the same
way: a repeat is dropped, "used to" / "no longer" mean it no longer holds, a hedge lowers
the confidence, and the clause's time expression becomes ``valid_from`` / ``valid_to``
according to what the detector says it means for the fact (``timing``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.appraisals import is_appraisal
from cognimem.ingest.extract.clauses import Clause, unshield
from cognimem.ingest.extract.passing import in_the_moment, is_request_for_one_occasion, past_habit
from cognimem.models.extraction import (
    SCOPE_TAGS,
    ExtractedEntity,
    ExtractedFact,
)
from cognimem.models.knowledge import CONSTRAINT_CATEGORIES, EntityType, FactCategory

__all__ = ["CategoryScores", "Collector", "category_scores"]


class CategoryScores(NamedTuple):
    """What a rule-read fact of one category is worth by default."""

    confidence: float  # how sure the rule is of the fact (a hedge lowers it)
    importance: float  # how much a message stating it matters (``RuleExtractor``)


_SCORES = {
    FactCategory.IDENTITY: CategoryScores(0.9, 0.85),
    FactCategory.LOCATION: CategoryScores(0.85, 0.75),
    FactCategory.OCCUPATION: CategoryScores(0.85, 0.75),
    FactCategory.RELATIONSHIP: CategoryScores(0.85, 0.75),
    FactCategory.PREFERENCE: CategoryScores(0.75, 0.6),
    FactCategory.POSSESSION: CategoryScores(0.75, 0.5),
    FactCategory.EVENT: CategoryScores(0.75, 0.55),
    FactCategory.POLICY: CategoryScores(0.9, 0.95),
    FactCategory.VALUE: CategoryScores(0.85, 0.9),
    FactCategory.GOAL: CategoryScores(0.75, 0.85),
    FactCategory.STATE: CategoryScores(0.8, 0.85),
    FactCategory.CAUSAL: CategoryScores(0.7, 0.8),
}
_UNLISTED = CategoryScores(0.7, 0.5)


def category_scores(category: FactCategory) -> CategoryScores:
    """The default scores of a rule-read fact of ``category``."""
    return _SCORES.get(category, _UNLISTED)


_SINGLE_VALUED = frozenset({FactCategory.IDENTITY, FactCategory.LOCATION, FactCategory.OCCUPATION})
_HEDGE = 0.6
_SPACES = re.compile(r"\s+")
_BLANKED = re.compile(r"\s+,(?:\s*,)*")  # where a time expression was blanked out


class Collector:
    """Facts and entities read from one message so far. The detectors are added by
    subclasses (the ``detect_*`` modules), one method per detector."""

    def __init__(self, reference: datetime) -> None:
        self.ref = reference
        self.facts: list[ExtractedFact] = []
        self.entities: dict[str, ExtractedEntity] = {}
        self.first_time: datetime | None = None
        self.mentioned: list[tuple[str, EntityType]] = []  # registered after the facts
        self.fact_time: datetime | None = None
        self._seen: set[tuple[str, str, str, str, bool, bool]] = set()
        self.unnamed: str | None = None  # the last pet or relative mentioned without a name
        # the sentence being read says something figurative ("allergic to Mondays"):
        # nothing else is read from it
        self.figurative = False
        # the conversation window talked of a job (``Discourse.about_work``) or of a pet
        self.work_window = False
        self.pet_window = False

    # ---------------------------------------------------------------- output

    def entity(self, name: str | None, kind: EntityType, *, alias: str | None = None) -> None:
        """``name`` is mentioned as a ``kind`` (and called ``alias`` too)."""
        if not name:
            return
        name = unshield(name)
        key = name.casefold()
        known = self.entities.get(key)
        aliases = [] if known is None else known.aliases
        if alias and alias.casefold() not in {a.casefold() for a in aliases}:
            aliases = [*aliases, alias]
        if known is None or (known.type is EntityType.OTHER and kind is not EntityType.OTHER):
            self.entities[key] = ExtractedEntity(name=name, type=kind, aliases=aliases)
        elif aliases is not known.aliases:
            self.entities[key] = known.model_copy(update={"aliases": aliases})

    def _third_party(self, m: re.Match[str]) -> str | None:
        """The subject of a third-party statement (``patterns.THIRD``): the name, or the
        relation word."""
        rel = m.group("rel") or m.group("rel2")
        who = phrases.name(m.group("who"))
        if who:
            self.entity(who, EntityType.PERSON)
            return who
        return vocab.RELATIONS[rel.lower()] if rel else None

    def _one_off(self, c: Clause, category: FactCategory, value: str) -> bool:
        """Whether a constraint read from ``c`` is a one-off, in the moment or a request
        for one occasion ("I have a cold right now", "saving for a trip next year"
        stay)."""
        moment = in_the_moment(
            c.said, value, kind=category, times=c.times, reference=self.ref, sentence=c.evidence
        )
        return moment or is_request_for_one_occasion(c.evidence)

    def add(
        self,
        c: Clause,
        category: FactCategory,
        predicate: str,
        value: str,
        *,
        polarity: bool = True,
        holds: bool = True,
        multi: bool | None = None,
        tags: Iterable[str] = (),
        confidence: float | None = None,
        obj: str | None = None,
        obj_type: EntityType | None = None,
        subject: str = "user",
        timing: str | None = None,
    ) -> None:
        """One fact. ``timing`` says what the clause's time expression means for it:
        ``start`` (valid_from), ``end`` (valid_to) or ``window`` (both, while it lasts)."""
        value = _SPACES.sub(" ", _BLANKED.sub(",", unshield(value))).strip(" ,.;:!?\"'")
        if not value or (predicate == "job" and is_appraisal(value)):
            return  # "a great cook" grades the speaker, it names no job
        if category in CONSTRAINT_CATEGORIES:  # a request for tonight, a habit in the past
            if self._one_off(c, category, value):
                return
            holds = holds and not past_habit(c.said)
        holds = holds and not c.past
        obj = None if obj is None else unshield(obj)
        key = (subject.casefold(), category.value, predicate, value.casefold(), polarity, holds)
        if key in self._seen:
            return
        self._seen.add(key)
        if multi is None:
            multi = category not in _SINGLE_VALUED
        score = confidence if confidence is not None else category_scores(category).confidence
        if c.hedged:
            score *= _HEDGE
        valid_from, valid_to = self._validity(c, holds, timing)
        self.facts.append(
            ExtractedFact(
                subject=subject,
                category=category,
                predicate=predicate,
                value=value[:500],
                polarity=polarity,
                multi_valued=multi,
                holds=holds,
                scope_tags=[t for t in dict.fromkeys(tags) if t in SCOPE_TAGS][:12],
                confidence=round(min(score, 1.0), 3),
                valid_from=valid_from,
                valid_to=valid_to,
                object_entity=obj,
                object_type=obj_type if obj else None,
                evidence=c.evidence[:2000],
            )
        )
        if obj and obj_type is not None:
            self.entity(obj, obj_type)

    def _validity(
        self, c: Clause, holds: bool, timing: str | None
    ) -> tuple[datetime | None, datetime | None]:
        if not c.times:
            return None, None
        mention = c.times[0]
        before = c.timed[: mention.span[0]].rstrip().lower()
        said = mention.text.lower()
        if said.startswith(("until", "till")) or before.endswith(("until", "till")):
            return None, mention.end
        if said.startswith("since") or before.endswith("since"):
            return (mention.start, None) if holds else (None, None)
        if timing is None:
            return None, None
        if self.fact_time is None:
            self.fact_time = mention.start
        if timing == "end" or not holds:
            return None, mention.start
        if timing == "window":
            return mention.start, mention.end if mention.end > self.ref else None
        return mention.start, None
