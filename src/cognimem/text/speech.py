"""What a message does: asks, makes small talk, or states something (pure).

The write gate scores a message that only acknowledges or greets low
(``ingest/scoring.py``); the read path keeps a message that says nothing but a question
or small talk out of a packet's items on its own words (``recall/conversation/evidence.py``): "Any
ideas for dinner tonight?" tells nothing about the user's dinners, what answers it does.

A message is *filler* when every sentence of it asks (ends in "?") or is phatic (each
word a greeting, thanks, acknowledgement or laughter: "Hi there!", "Thanks, that's
great!"). One sentence that states anything else makes it a statement ("Thanks! I'm
vegetarian, by the way."), and so does a name beside the thanks ("Thanks, Mel!" may be all
a reply says, but a name is what a later question may ask about).
"""

from __future__ import annotations

import re
from typing import Literal

from cognimem.text.sentences import split_sentences

__all__ = ["PHATIC_WORDS", "Filler", "asks", "filler", "is_phatic"]

Filler = Literal["question", "small talk"]

_WORD = re.compile(r"[A-Za-z0-9']+")
# a question mark, then maybe more marks, closing quotes or brackets ("Really?!")
_ASKS = re.compile(r"\?[?!.\"'”’»)\]]*$")
# whole messages that are acknowledgements, greetings or laughter, word by word
PHATIC_WORDS = frozenset(
    {
        "ok", "okay", "k", "kk", "sure", "yes", "yeah", "yep", "yup", "no", "nope", "nah",
        "thanks", "thank", "you", "thx", "ty", "ta", "cheers", "cool", "nice", "great",
        "awesome", "good", "fine", "lol", "haha", "hahaha", "hehe", "wow", "oh", "ah", "hmm",
        "hm", "um", "uh", "hi", "hiya", "hello", "hey", "yo", "bye", "goodbye", "see", "ya",
        "later", "night", "morning", "evening", "afternoon", "welcome", "np", "problem",
        "right", "alright", "got", "it", "sounds", "that's", "thats", "true", "same", "too",
        "me", "agreed", "indeed", "definitely", "totally", "exactly", "of", "course", "the",
        "a", "so", "well", "glad", "happy", "to", "hear", "is", "was", "really", "very",
        "much", "omg", "yay", "there", "again", "all", "everyone", "lot", "one", "aw", "aww",
        "lovely", "yum", "take", "care", "talk", "soon",
    }
)  # fmt: skip


def asks(text: str) -> bool:
    """Whether a message ends in a question: it hands the turn back."""
    return _ASKS.search(text.rstrip()) is not None


def is_phatic(text: str) -> bool:
    """Whether every word of ``text`` greets, thanks, acknowledges or laughs (a text
    with no word at all, an emoji, counts too)."""
    return all(w.lower() in PHATIC_WORDS for w in _WORD.findall(text))


def filler(text: str) -> Filler | None:
    """``"question"`` when the message only asks (each sentence a question or phatic,
    one at least a question), ``"small talk"`` when each sentence is phatic, None when
    it states something."""
    sentences = split_sentences(text)
    if not sentences:
        return None
    asked = False
    for sentence in sentences:
        if asks(sentence):
            asked = True
        elif not is_phatic(sentence):
            return None
    return "question" if asked else "small talk"
