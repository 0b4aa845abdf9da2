"""Self-descriptions no one means, which the last reading of a sentence as a stance
(:mod:`cognimem.ingest.extract.detect_stances`) must not keep whole as a constraint
when no detector read anything from the sentence:

- an allergy or an intolerance the allergy reader did not take: what follows is no
  allergen ("I'm allergic to anything before 9am", "to early mornings", "I'm intolerant
  of slow walkers"); a real allergy is read by the allergy reader, not here, and "since
  I'm allergic", with nothing after it, is left to the stance reader;
- the speaker called a being of fiction or a judgement, not a role the literal world
  has, by WordNet (:mod:`cognimem.text.noun_roots`): "I'm basically a vampire, I never
  see daylight", "I'm a zombie until 10am" (not "I'm a nurse, I never work weekends",
  "I'm a night owl, ...": a noun WordNet does not hold is no evidence).
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase
from cognimem.text.noun_roots import is_person_judgement, is_person_role

__all__ = ["is_quip"]

_ALLERGIC = icase(
    r"\b(?:I'm|I\s+am|we're|we\s+are|I've\s+been)\s+(?:\w+\s+)?(?:allergic|intolerant)\s+"
    r"(?:to|of)\s+\w"
)
_CALLED = icase(
    r"^\W*(?:I'm|I\s+am)\s+(?:(?:basically|practically|literally|such|pretty\s+much|kind\s+of|"
    r"sort\s+of|a\s+bit\s+of|total(?:ly)?|complete(?:ly)?|real|proper)\s+)*(?:a|an)\s+"
    r"(?P<first>[a-z-]+)\b(?:\s+(?P<second>[a-z-]+)\b)?"
)


def is_quip(text: str) -> bool:
    """Whether a sentence is a self-description no one means (see the module
    docstring)."""
    low = text.lower()
    if ("allergic" in low or "intolerant" in low) and _ALLERGIC.search(text):
        return True
    called = _CALLED.match(text)
    if called is None:
        return False
    nouns = (called.group("first"), called.group("second") or "")
    return any(is_person_judgement(n) and not is_person_role(n) for n in nouns if n)
