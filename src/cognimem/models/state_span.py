"""Whether a state fact tells of a lasting condition of the person or a passing state
(pure), so that its decay fits what it says (``models/fact_decay.py``).

"My car's in the shop for the next two weeks" should fade within weeks; "I'm colorblind"
or "I've got gout" is no less true a year on. What tells them apart is grammar, not a
list of conditions:

- **passing**: a period said with the state, either as parsed (a ``valid_to`` that
  bounds it after it was said) or in the sentence: a present-moment marker ("right
  now", "for now", "at the moment", "currently", "today", "this week"), a bounded span
  ("for the next ...", "for ten days", "until ..."), a recent start ("just", "... ago",
  "yesterday"), or the progressive of a process ("I'm recovering", "I'm waiting");
- **lasting**, when nothing passing is said: a marker of permanence ("always", "my
  whole life", "since I was a kid", "born with", "chronic", "for years", "diagnosed
  with", "suffer from"), a condition adjective by its form after a copula ("-blind",
  "-deaf", "-sighted", "-handed", "intolerant", "allergic", the "-emic / -etic / -atic /
  -ptic / -lexic / -istic" adjectives of a condition), or a condition had as a bare noun
  ("I have asthma", "my wife has multiple sclerosis": a condition, where "I have a cold"
  or "I've got the flu" is an episode).

Anything else stays passing: the short half-life is the default for a state.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

__all__ = ["is_lasting_state", "lasting_in_text"]

_NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a few|a couple of|several)"
_PASSING = re.compile(
    r"\b(?:right now|for now|at the moment|currently|at present|for the time being|"
    r"these days|today|tonight|tomorrow|yesterday|"
    r"this (?:week|weekend|month|quarter|semester|term|season|morning|afternoon|evening)|"
    r"for the (?:next|coming|rest of)|until|till|temporarily|yet|lately|just|ago|"
    rf"for {_NUMBER} (?:more )?(?:days?|weeks?|months?)|"
    r"(?:i'm|i am|we're|we are|he's|she's|they're|it's)\s+(?:\w+ly\s+)?\w+ing)\b",
    re.IGNORECASE,
)
_LASTING = re.compile(
    r"\b(?:always|all my life|my whole life|since (?:birth|childhood|i was)|born with|"
    r"chronic|chronically|lifelong|permanent|permanently|for (?:many |several )?(?:years|"
    r"decades)|diagnosed with|suffers? from)\b",
    re.IGNORECASE,
)
_COPULA = r"(?:i'm|i am|i've been|we're|he's|she's|they're|he is|she is|is|are)"
_CONDITION_ADJECTIVE = re.compile(
    rf"\b{_COPULA}\s+(?:[\w-]+\s+)?(?:[\w-]*(?:blind|deaf|sighted|handed)|intolerant|"
    r"allergic|\w+(?:emic|etic|atic|ptic|lexic|istic))\b",
    re.IGNORECASE,
)
# "I have asthma", "my son has autism": the bare noun of a condition; a determiner,
# a pronoun or an auxiliary after the verb is something else ("a cold", "to", "been")
_NOT_BARE = (
    "a|an|the|some|any|no|to|been|had|my|our|his|her|their|your|its|this|that|these|those|"
    "got|just|never|lots|plenty|nothing|too|so|plans|time|work|class|school|one|two|three"
)
_BARE_CONDITION = re.compile(
    r"\b(?:i|we|he|she|they|\w+)\s*(?:have|has|'ve got|'ve|'s got|have got|has got)\s+"
    rf"(?!(?:{_NOT_BARE})\b)[a-z]",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def lasting_in_text(text: str) -> bool:
    """Whether ``text`` says a state as a lasting condition: some lasting evidence and
    no passing marker (module doc)."""
    said = text.replace("\u2019", "'")
    if _PASSING.search(said):
        return False
    return bool(
        _LASTING.search(said) or _CONDITION_ADJECTIVE.search(said) or _BARE_CONDITION.search(said)
    )


def is_lasting_state(text: str, said_at: datetime, valid_to: datetime | None) -> bool:
    """Whether a state said as ``text`` at ``said_at`` is a lasting condition: no period
    parsed that ends after it was said (``valid_to``), and the text says it lasts."""
    if valid_to is not None and valid_to > said_at:
        return False
    return lasting_in_text(text)
