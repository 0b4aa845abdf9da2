"""Mock enthusiasm: a liking said with an interjection of assent and an intensifier,
and no reason, is sarcasm whatever it likes. "Oh yeah, I'm a huge fan of Mondays",
"Oh sure, I'm a big fan of burnt toast", "Oh yes, I just adore queueing" say the
opposite of their words; "Oh yeah, I love hiking" (no intensifier), "I'm a huge fan of
live jazz" (no interjection) and "Oh yeah, I'm a huge fan of jazz, it's so relaxing"
(the liking explained) mean theirs.

What is read, by grammar only: "oh" (or "ah") and a word of assent ("yeah", "yes",
"sure", "right", "boy"), then the speaker's liking made bigger — "I'm a huge / big /
massive ... fan of", "I just / absolutely / simply / totally love / adore / enjoy /
live for" — with nothing after it that explains it (a reason, or a word VADER rates
clearly positive, in what is liked or after it: sarcasm does not explain itself, nor
praise what it mocks). Read by
:func:`cognimem.ingest.extract.earnest.is_unmeant`: such a sentence gives no fact and
no constraint.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import REASON_WORD, icase
from cognimem.text.valence import valence

__all__ = ["mocks"]

_MOCKED = icase(
    r"^\W*(?:oh|ah)\W+(?:yeah|yes|sure|right|boy)\b[\s,!.]+"
    r"(?:I'm|I\s+am)\s+(?:(?:such|a|an|the|just|really)\s+)*(?:huge|big|massive|enormous|"
    r"giant|total|biggest|hugest)\s+fan\s+of\b|"
    r"^\W*(?:oh|ah)\W+(?:yeah|yes|sure|right|boy)\b[\s,!.]+"
    r"I\s+(?:just|absolutely|simply|totally|truly|so|sure|really\s+do|just\s+really)\s+"
    r"(?:love|adore|enjoy|live\s+for)\b"
)
# what explains a liking: a reason, or praise said of it
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_POSITIVE = 1.0  # VADER: "good" 1.9, "fun" 2.3, "relaxing" 2.2


def mocks(text: str) -> bool:
    """Whether a tidied sentence is mock enthusiasm (see the module docstring)."""
    if not text.lstrip(" \"'(").lower().startswith(("oh", "ah")):
        return False
    m = _MOCKED.search(text)
    if m is None:
        return False
    tail = text[m.end() :]
    return REASON_WORD.search(tail) is None and all(
        valence(w) < _POSITIVE for w in _WORD.findall(tail)
    )
