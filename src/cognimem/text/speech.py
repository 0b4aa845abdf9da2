"""What a message does: asks, makes small talk, or states something (pure).

The write gate scores a message that only acknowledges or greets low
(``ingest/scoring.py``); the read path keeps a message that says nothing but a question
or small talk out of a packet's items on its own words (``recall/conversation/evidence.py``): "Any
ideas for dinner tonight?" tells nothing about the user's dinners, what answers it does.

A message is *filler* when every sentence of it asks (ends in "?") or is phatic (each
word a greeting, thanks, acknowledgement or laughter: "Hi there!", "Thanks, that's
great!"). One sentence that states anything else makes it a statement ("Thanks! I'm
vegetarian, by the way."), and so does a name beside the thanks ("Thanks, Mel!" may be all
a reply says, but a name is what a later question may ask about). A sentence that states
and then hands the turn back with a tag after a comma ("We played the park on Saturday,
did you make it?", "It was a great trip, right?") states what it opens with
(:func:`states_then_asks`): it asks, but it is no filler.
"""

from __future__ import annotations

import re
from typing import Literal

from cognimem.text.sentences import split_sentences

__all__ = ["PHATIC_WORDS", "Filler", "asks", "filler", "is_phatic", "states_then_asks"]

Filler = Literal["question", "small talk"]

_WORD = re.compile(r"[A-Za-z0-9']+")
# a question mark, then maybe more marks, closing quotes or brackets ("Really?!")
_ASKS = re.compile(r"\?[?!.\"'”’»)\]]*$")
# a question tag after a comma that closes a sentence: ", did you make it?", ", right?"
_TAG = re.compile(
    r",\s*(?:(?:do|does|did|have|has|had|is|are|was|were|can|could|will|would|wo|should|"
    r"ca)(?:n't)?\s+(?:you|it|they|he|she|we|i|there|that)\b[^,]*|right|ok|okay|yeah|eh|huh|"
    r"no|you\s+know|remember|see)\s*\?[?!.\"'”’»)\]]*$",
    re.IGNORECASE,
)
# the words a question opens with: what comes before its comma asks too ("Did you go,
# or did you stay home?", "Remember the chair, did you see it?")
_OPENS_QUESTION = re.compile(
    r"^\W*(?:who|what|when|where|why|how|which|whose|whom|do|does|did|is|are|was|were|am|"
    r"have|has|had|can|could|will|would|should|shall|may|might|must|any|anything|anyone|"
    r"remember|ever|want|got|ok|okay|so|and|or|but)\b",
    re.IGNORECASE,
)
# a speaker telling of their own doings: "I", "we", "my", "our"
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|my|our|me|us)\b", re.I)
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


def states_then_asks(sentence: str) -> bool:
    """Whether ``sentence`` tells of the speaker's own doings and then asks with a tag
    after a comma ("We played the summer concert on Saturday, did you make it?"): the
    words before the tag open no question, hold at least three words and one of them is
    the speaker ("I", "we", "my", "our"); a reaction ("That sounds fun, have you been?")
    states nothing of its own."""
    tag = _TAG.search(sentence.rstrip())
    if tag is None:
        return False
    head = sentence[: tag.start()]
    return (
        _OPENS_QUESTION.match(head) is None
        and len(_WORD.findall(head)) >= 3
        and _FIRST_PERSON.search(head) is not None
    )


def is_phatic(text: str) -> bool:
    """Whether every word of ``text`` greets, thanks, acknowledges or laughs (a text
    with no word at all, an emoji, counts too). The first word alone decides most texts
    (a memory's first word is seldom phatic): the rest are listed only after it."""
    first = _WORD.search(text)
    if first is None:
        return True
    if first[0].lower() not in PHATIC_WORDS:
        return False
    return all(w.lower() in PHATIC_WORDS for w in _WORD.findall(text, first.end()))


def filler(text: str) -> Filler | None:
    """``"question"`` when the message only asks (each sentence a question or phatic,
    one at least a question), ``"small talk"`` when each sentence is phatic, None when
    it states something."""
    sentences = split_sentences(text)
    if not sentences:
        return None
    asked = False
    for sentence in sentences:
        if asks(sentence) and not states_then_asks(sentence):
            asked = True
        elif not is_phatic(sentence):
            return None
    return "question" if asked else "small talk"
