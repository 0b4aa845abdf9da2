"""A constraint of someone in the speaker's family that the speaker says binds them too
("My wife is allergic to lilies, so keep them out of the bouquet", "My son can't have
dairy, so the pizza has to be vegan"), read for :class:`.detect_constraints.
ConstraintReader` into the speaker's own rule against the thing (what they must plan
around for the household), whose subject stays the speaker.

Only with its consequence: "My wife is allergic to lilies" alone is about her, not a
rule of the speaker's (a careful reader records it for her, and it names no one to
record it for). Not one: a question, someone named ("Ana is allergic to X" is read as
Ana's own, :mod:`.third_person`), what someone will not do by taste ("My son won't
eat peas, so ...": a taste is theirs). Nothing here names a topic: the markers are the
relation words, "allergic", "intolerant", "can't have" and "so".
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import MODS, REL, gated
from cognimem.ingest.extract.phrases import items

__all__ = ["kin_constraint"]

_KIN = rf"(?:my|our)\s+{MODS}(?:{REL})"
_HOW = r"(?:(?:very|severely|badly|really|so|seriously|deathly|also)\s+)*"
_KIN_CANT = gated(
    rf"^{_KIN}\s+(?:(?:is|are|'s)\s+{_HOW}(?:allergic\s+to\s+(?P<a>[^,;]+?)|(?P<b>lactose|"
    r"gluten|dairy|wheat|fructose|histamine)[\s-]+intolerant)|(?:can't|cannot|can\s+not|"
    r"mustn't|must\s+not|isn't\s+allowed\s+to|aren't\s+allowed\s+to)\s+(?:have|eat|drink|"
    r"handle|manage|tolerate|take|cope\s+with|be\s+around)\s+(?P<c>[^,;]+?))"
    r"(?=\s*,?\s+so\s+[a-z])",
    gate_match=True,
)


def kin_constraint(sentence: str) -> list[str]:
    """What a family member's constraint in ``sentence`` rules out for the speaker, when
    the sentence says its consequence ("..., so ..."); empty otherwise."""
    if sentence.rstrip().endswith("?"):
        return []
    m = _KIN_CANT.match(sentence.strip())
    if m is None:
        return []
    what = m.group("a") or m.group("b") or m.group("c") or ""
    return [item for item in items(what) if item]
