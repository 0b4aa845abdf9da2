"""A feeling the speaker says they are in now, as a bare adjective of a closed class:
"I'm lonely", "I feel so lonely", "I've been feeling really homesick lately", "Been
feeling restless lately". Read by :class:`~.detect_health.HealthReader` as a state (the
knowledge set files a feeling under ``state`` / ``health``), with the adjective as the
value, so a restatement in other words keys the same fact.

Only a feeling said alone, or with a word of when: "I'm lonely at work" and "I'm nervous
about tomorrow" say what the feeling is about and are left to the other readers, "I'm
down for pizza" is no feeling, and a negation ("I'm not lonely") never matches, since
nothing but a degree word may stand between the verb and the adjective.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import icase
from cognimem.ingest.extract.vocabulary import FEELING_WORDS

__all__ = ["FEELS"]

_DEGREE = (
    r"(?:(?:still|really|so|super|very|pretty|quite|a bit|a little|kind of|kinda|"
    r"incredibly|extremely|awfully|terribly|just|totally|increasingly)\s+)*"
)
FEELS = icase(
    r"^(?:(?:I'm|I am|I've been|I have been|I feel|I've felt|I have felt|I keep)\s+|"
    r"(?=been\s+feeling\b|feeling\s))"
    + _DEGREE
    + r"(?:been\s+)?(?:feeling\s+)?"
    + _DEGREE
    + r"(?P<v>"
    + "|".join(sorted(FEELING_WORDS, key=len, reverse=True))
    + r")(?=\s*(?:[,.;!?]|$|(?:lately|these days|recently|today|tonight|again|right now|"
    r"at the moment|all (?:day|week|month)|this (?:week|month)|for (?:days|weeks|months))\b))"
)
