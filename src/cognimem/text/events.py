"""Whether a sentence tells of an event: something that happened once to someone ("we
adopted a puppy", "I moved to Denver", "Sam joined the club"), pure.

An item that tells of an event and names no time is dated by when it was said, or by
the time of the question it answers (``ingest/extract/clauses.py``: ``event_period``);
a read that counts or orders events (``recall/analyze.py``: ``event_question``) gathers
the items that tell of one.

The verbs are a short, generic list of past forms of change-of-state and one-off
activity verbs (no lexicon with verb classes is installed: WordNet's data is not
shipped with nltk), each after a subject — a pronoun or a capitalised name — with at
most two words between ("we finally adopted", "I have just moved"), none of them a
negation ("I never moved", "we didn't buy"). A question tells of no event.
"""

from __future__ import annotations

import re
from datetime import timedelta

from cognimem.text.sentences import split_sentences
from cognimem.text.speech import asks

__all__ = ["EVENT_VERBS", "SAID", "tells_of_event"]

# the event period of an event told with no time word: the moment it was said
SAID = timedelta(seconds=1)

EVENT_VERBS: tuple[str, ...] = (
    "adopted", "moved", "started", "began", "finished", "completed", "met", "bought",
    "sold", "won", "lost", "joined", "quit", "graduated", "married", "retired", "visited",
    "travelled", "traveled", "flew", "went", "took", "ran", "rode", "hosted", "attended",
    "signed", "opened", "launched", "published", "planted", "returned", "celebrated",
    "rescued", "hired", "left",
)  # fmt: skip
# "got" only where it makes a change of state: "we got engaged", "I got a new job"
_GOT = r"got\s+(?:married|engaged|divorced|promoted|hired|a|an|our|my)\b"
_NEGATION = r"(?:not|never|n't|no)"
_SUBJECT = r"(?:\b(?i:i|we|he|she|they)|\b[A-Z][a-z]+)"
_BETWEEN = rf"(?:(?!{_NEGATION}\b)[\w']+\s+){{0,2}}?"
_EVENT = re.compile(rf"{_SUBJECT}(?:'ve|'d)?\s+{_BETWEEN}(?i:(?:{'|'.join(EVENT_VERBS)})\b|{_GOT})")
_NEGATED = re.compile(rf"\b(?i:{_NEGATION})\b|n't\b", re.IGNORECASE)


def tells_of_event(text: str) -> bool:
    """Whether a sentence of ``text`` that asks nothing tells of an event ("Big news, we
    adopted a puppy!"); "I'd love to travel", "Did you move?" and "I never moved" tell
    of none."""
    for sentence in split_sentences(text):
        if asks(sentence):
            continue
        m = _EVENT.search(sentence)
        if m is not None and _NEGATED.search(m.group(0)) is None:
            return True
    return False
