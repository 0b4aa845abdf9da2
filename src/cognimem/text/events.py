"""Whether a sentence tells of an event: something that happened once to someone ("we
adopted a puppy", "I moved to Denver", "Sam joined the club"), pure.

An item is dated by the most specific time it names (:func:`event_period`, at write
time and when an edit changes its text); one that tells of an event and names no time
by when it was said, or by the time of the question it answers;
a read that counts or orders events (``recall/analyze.py``: ``event_question``) gathers
the items that tell of one.

An event is a verb in the past after a subject — a pronoun or a capitalised name —
with at most two words between ("we finally adopted", "I have just moved", "my daughter
learned"), none of them a negation ("I never moved", "we didn't buy"): a regular past
("-ed", "-ied") that is not a verb of state or feeling ("loved", "wanted", "seemed";
nor after a form of "be": "we were excited"), or one of a short list of irregular
pasts of one-off verbs (no lexicon with verb classes is installed: WordNet's data is
not shipped with nltk). A question tells of no event, nor does a habit ("every summer
we went to the farm", "on Sundays we always went to church").
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from cognimem.text.literals import Gated
from cognimem.text.mention import TimeMention, precision
from cognimem.text.sentences import split_sentences
from cognimem.text.speech import asks, states_then_asks
from cognimem.text.temporal import DateOrder, find_times
from cognimem.text.told import tells_a_habit

__all__ = ["EVENT_VERBS", "LOOKS_AHEAD", "SAID", "ends_a_span", "event_period", "tells_of_event"]

# the event period of an event told with no time word: the moment it was said
SAID = timedelta(seconds=1)

# irregular pasts of one-off verbs; regular ones ("-ed") are read by their ending
EVENT_VERBS: tuple[str, ...] = (
    "met", "bought", "sold", "won", "lost", "quit", "began", "flew", "went", "took", "ran", "rode",
    "left", "broke", "threw", "drove", "gave", "made", "built", "wrote", "found", "fell",
    "swam", "sang", "caught", "split", "shot", "hit", "saw", "ate",
)  # fmt: skip
# regular pasts that tell of a state, a feeling or talk, not of something that happened
_STATES = (
    "lov|lik|hat|want|need|us|seem|hop|wish|preferr|believ|own|wonder|guess|figur|suppos|"
    "expect|imagin|remember|appreciat|mention|notic|realiz|realis|talk|work|liv|stay|tri|"
    "miss|look|sound|smell|tast|appear|deserv|car|struggl|plann|interest|excit|tir|bor|"
    "dream|ask|repli|explain|suggest|laugh|jok|shar|add|promis|enjoy"
)
_PAST = rf"(?=[a-z]+[a-df-z]ed\b)(?!(?:{_STATES})ed\b)[a-z]+ed\b|(?:{'|'.join(EVENT_VERBS)})\b"
# "got" only where it makes a change of state: "we got engaged", "I got a new job"
_GOT = r"got\s+(?:married|engaged|divorced|promoted|hired|a|an|our|my)\b"
# "had" only for what happens once: "we had a baby", "she had surgery"
_GOT += r"|had\s+(?:an?\s+|her\s+|his\s+|my\s+)?(?:baby|twins|surgery|operation|accident)\b"
_NEGATION = r"(?:not|never|n't|no)"
# a pronoun or a capitalised word ("Sam", "Grandma", "My sister", "Just finished"), not
# one that stands for a thing or asks ("It made me think", "So cool you found")
_SUBJECT = (
    r"(?:\b(?i:i|we|he|she|they)|\b(?=[A-Z])(?!(?:It|So|You|That|This|What|How|Why|If)\b)"
    r"[A-Z][a-z]+(?<!ing))"
)
# the words between a subject and its verb: no negation, no other subject ("glad you
# enjoyed"), no verb that makes the past a state ("we were excited", "I felt relieved",
# "they keep me motivated", "having everyone there made")
_BETWEEN = (
    rf"(?:(?!(?:{_NEGATION}|you|it|am|is|are|was|were|be|been|felt|feel|get|got|keep|kept|"
    r"stay|stayed|love)\b|[\w']*ing\b)[\w']+\s+){0,2}?"
)
_EVENT = re.compile(rf"{_SUBJECT}(?:'ve|'d)?\s+{_BETWEEN}(?i:(?:{_PAST})|{_GOT})")
_NEGATED = re.compile(rf"\b(?i:{_NEGATION})\b|n't\b", re.IGNORECASE)
# a sentence that looks ahead: its weekdays and months are the next ones
LOOKS_AHEAD = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan|planning|hope to|want to|about to|can't wait|soon|"
    r"upcoming|next)\b",
    re.IGNORECASE,
)
_AHEAD = Gated(LOOKS_AHEAD)  # the same answers, a sentence without its words unscanned


# an event that ends a stay or an activity: a span told after it ends at it ("I got back
# yesterday" … "we were there for ten days")
_ENDS = Gated(
    re.compile(
        r"\b(?:(?:got|came|flew|drove)\s+(?:back|home)|returned|finished|completed|graduated|"
        r"retired|quit|left(?!\s+for\b)|moved\s+out|ended|stopped|gave\s+up|wrapped\s+up|"
        r"broke\s+up|was\s+discharged)\b",
        re.IGNORECASE,
    )
)


def ends_a_span(text: str) -> bool:
    """Whether ``text`` tells of an event that ends a stay or an activity ("we got back
    on Sunday", "I finished the course", "Tom retired in June"): a span told after it
    ("we were there for ten days") ends at it rather than starting there."""
    return _ENDS.search(text) is not None


def tells_of_event(text: str) -> bool:
    """Whether a sentence of ``text`` that asks nothing tells of an event ("Big news, we
    adopted a puppy!"); "I'd love to travel", "Did you move?", "I never moved" and a
    habit ("every summer we went to the farm") tell of none."""
    for sentence in split_sentences(text):
        if asks(sentence) and not states_then_asks(sentence):
            continue
        m = _EVENT.search(sentence)
        if m is not None and _NEGATED.search(m.group(0)) is None and not tells_a_habit(sentence):
            return True
    return False


def event_period(
    text: str,
    reference: datetime,
    *,
    after: tuple[datetime, datetime] | None = None,
    date_order: DateOrder | None = None,
    answers: tuple[datetime, datetime] | None = None,
    ended: bool = False,
) -> tuple[datetime, datetime] | None:
    """When what ``text`` tells of happened, as ``[start, end)`` (UTC): its most specific
    time expression (the finest granularity, then the shortest period; the first of
    equals: :func:`cognimem.text.mention.precision`), resolved against
    ``reference`` (when it was said) and read forwards in a sentence that looks ahead
    ("I'll see them on Friday"); ``None`` when it names no time. "My school event last
    week ... since I started three years ago" tells of last week; "made dinner last
    night", said on 4 May, tells of 3 May. ``after`` is the event the conversation told
    of before ("two days later" counts from it; each sentence's event becomes the next
    one's) and ``ended`` whether that event ended a span (:func:`ends_a_span`);
    ``date_order`` reads numeric dates (:func:`cognimem.text.temporal.find_times`).

    A text that names no time but tells of an event (:func:`cognimem.text.events.
    tells_of_event`: "we adopted a puppy!") tells of ``answers`` — the period named by
    the question it answers ("What did you do last weekend?") — or else of the moment it
    was said (``SAID`` long: not its day, which depends on a time zone the write does
    not know); any other text naming no time has no period (``None``)."""
    best: TimeMention | None = None
    for sentence in split_sentences(text):
        ahead = _AHEAD.search(sentence) is not None
        mentions = find_times(
            sentence,
            reference,
            prefer_future=ahead,
            after=after,
            date_order=date_order,
            ended=ended,
        )
        for mention in mentions:
            if best is None or precision(mention) < precision(best):
                best = mention
        if mentions:
            after, ended = (mentions[-1].start, mentions[-1].end), ends_a_span(sentence)
    if best is not None:
        return best.start, best.end
    if not tells_of_event(text):
        return None
    if answers is not None:
        return answers
    return reference, reference + SAID
