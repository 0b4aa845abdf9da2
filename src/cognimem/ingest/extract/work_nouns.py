"""A job said with a noun the rules' job list lacks: "I'm a paratrooper", "my little
brother is a marine". Whether the noun is a line of work is WordNet's answer
(:func:`cognimem.text.noun_roots.is_person_work`: its most frequent sense as a person
stands under a worker, a professional, a clergyman, an entertainer, an official ...),
so "I'm a teenager", "my aunt is a widow" and "my brother is a runner" give no job.
A clause that holds a word of the job list is read by the occupation detector as
before; these patterns read only clauses without one, from the identity detector ("I'm")
and the relationship detector (a relation word), whose trigger words they need. The
spouse said by their job ("I'm married to a firefighter named Dan") is read here with a
job of the list or of WordNet alike: the occupation detector has no such frame.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cognimem.ingest.extract.patterns import MODS, NAME, REL, icase, names_occupation
from cognimem.text.noun_roots import is_person_work
from cognimem.text.noun_senses import noun_classes

__all__ = ["own_work", "spouse_work", "their_work"]

# the noun phrase ends the clause or is followed by where or for whom the work is done
_PHRASE = (
    r"(?P<v>(?:[a-z0-9-]+\s+){0,2}?(?P<head>[a-z-]+?))s?"
    r"(?=\s*(?:[,.!;]|$)|\s+(?:at|for|in|with|on)\b)"
)
_OWN = icase(rf"^(?P<verb>I'm)\s+an?\s+{_PHRASE}")
_THEIRS = icase(
    rf"^(?:my|our)\s+{MODS}(?P<rel>{REL})\s*,?\s+(?:(?P<who>{NAME})\s*,?\s+)?(?:is|was)\s+an?\s+"
    rf"{_PHRASE}"
)

_SPOUSE = icase(
    r"\bI(?:'m| am)\s+married\s+to\s+an?\s+(?P<v>(?:[a-z-]+\s+){0,2}?(?P<head>[a-z-]+?))"
    rf"\s+(?:named|called)\s+(?P<who>{NAME})"
)


def _work(m: re.Match[str]) -> bool:
    return is_person_work(m.group("head"))


def own_work(text: str) -> tuple[str, ...]:
    """The speaker's job said as "I'm a <noun>" with a noun of work (none or one)."""
    m = _OWN.match(text)
    if m is None or not _work(m):
        return ()
    # a joke title is mostly a noun of work made a thing's ("a certified couch critic",
    # "a professional worrier"): one word at most before it, and no noun
    before = m.group("v").split()[:-1]
    if len(before) > 1 or any(noun_classes(w) for w in before):
        return ()
    return (m.group("v").lower(),)


def their_work(text: str) -> Iterator[re.Match[str]]:
    """Each "my <relative> (<name>) is a <noun of work>": the match, with ``rel``,
    ``who`` (or None) and ``v``, the job."""
    m = _THEIRS.match(text)
    if m is not None and _work(m):
        yield m


def spouse_work(text: str) -> tuple[str, str] | None:
    """The spouse's name and job in "I'm married to a <job> named <name>" (a job of the
    list or a noun of work), or None ("married to a guy named Dan")."""
    m = _SPOUSE.search(text)
    if m is None or not (_work(m) or names_occupation(m.group("v"))):
        return None
    return m.group("who"), m.group("v").lower()
