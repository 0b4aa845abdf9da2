"""Stances that do not stand: a habit said in the simple past, and a request for one
occasion. A careful reader keeps no standing constraint from either.

- a habit in the simple past: "I" or "we", then "never", "always", "only (ever)",
  "usually", "rarely" or "mostly", then a verb in the past tense ("As a teenager I never
  wore anything but black", "When I lived in Leeds I always took the bus", "Growing up,
  we always had dogs"): the stance held then, not now, as after "used to". Not the
  perfect ("I've always had dogs"), nor the present ("I never wear black");
- a request for one occasion: an imperative to the assistant ("please don't ...",
  "don't ...", "can you not ...") said with a time that names one occasion ("this time",
  "tonight", "today", "tomorrow", "this weekend") or with a reason that is one past
  event ("Please don't suggest Italian, we had it yesterday"); not "next time" or "ever
  again", which ask for good.

Read by :class:`cognimem.ingest.extract.collector.Collector` for every constraint fact:
the past habit's fact no longer holds, the request's is not kept.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import NOT_PAST_ED, icase

__all__ = ["for_one_occasion", "past_habit"]

# the simple past of common irregular verbs, and "-ed" forms that are past ("need",
# "feed", "bed" are not)
_IRREGULAR_PAST = (
    r"(?:ate|drank|wore|took|went|had|did|made|got|saw|rode|drove|flew|wrote|bought|brought|"
    r"thought|knew|kept|left|lost|paid|sat|slept|spent|spoke|stood|swam|taught|told|won|came|"
    r"became|ran|gave|sang|forgot|felt|heard|held|meant|met|sold|sent|shot|fought|ground|"
    r"hung|hid|led|lent|rang|rose|shook|shone|stole|stuck|struck|swore|tore|threw|"
    r"understood|woke|was|were)"
)
_PAST_HABIT = icase(
    r"\b(?:I|we)\s+(?:(?:just|really|pretty\s+much|basically|almost)\s+)?(?:never|always|"
    r"only(?:\s+ever)?|usually|rarely|mostly|hardly\s+ever|constantly)\s+"
    rf"(?:{_IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)\b"
)
_REQUEST = icase(
    r"^\W*(?:(?:oh|ok|okay|so|and|but|also|just)\W+)*(?:please\s+)?(?:do\s+not|don't|"
    r"can\s+you\s+not|could\s+you\s+not|please\s+(?:avoid|skip|no)|no)\b|"
    r"^\W*(?:please\s+)?(?:avoid|skip)\b"
)
_ONE_OCCASION = icase(
    r"\b(?:this\s+(?:time|once|evening|morning|afternoon|weekend|trip|round)|tonight|today|"
    r"tomorrow|for\s+now)\b|"
    # a reason that is one past event: "..., we had it yesterday"
    r",\s*(?:we|I)\s+(?:just\s+)?(?:had|ate|did|went|saw|tried|made)\b[^.;]*\b(?:yesterday|"
    r"last\s+(?:night|week|weekend|time)|this\s+(?:morning|week))\b"
)
_FOR_GOOD = icase(r"\b(?:next\s+time|ever\s+again|again\s+ever|from\s+now\s+on|in\s+future)\b")


def past_habit(clause: str) -> bool:
    """Whether ``clause`` states a habit in the simple past (see the module docstring)."""
    return _PAST_HABIT.search(clause) is not None


def for_one_occasion(sentence: str) -> bool:
    """Whether ``sentence`` is a request for one occasion (see the module docstring)."""
    return (
        _REQUEST.search(sentence) is not None
        and _ONE_OCCASION.search(sentence) is not None
        and _FOR_GOOD.search(sentence) is None
    )
