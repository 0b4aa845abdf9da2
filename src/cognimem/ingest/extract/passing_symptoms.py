"""Whether a symptom said to last is tied to a one-off event, so that it passes with it:
"I had a flu jab last Tuesday and my arm still aches", "My jaw still hurts after the
dentist", "My legs are still sore after yesterday's run", "My head still hurts from last
night's party". Such a symptom is a passing state, not a standing condition of the
speaker's body.

The symptom must be said to last ("still", "won't go away", "hasn't gone down"): "My feet
hurt after the hike" says how the body is now and stays a state, as the knowledge set
labels it. By grammar, a lasting symptom is tied to an occasion when

- its clause names its cause as one occasion: "from", "after" or "since" with a
  definite or indefinite noun phrase ("the jab", "a fall", "that hike") or one owned by
  a day ("yesterday's run", "last night's party"); not a condition ("from my
  arthritis") nor an old one ("from an old injury"), and a noun phrase of the
  speaker's own ("from my job") only beside a recent time;
- its clause gives the cause's time after "from" or "after" ("still sore after running
  yesterday");
- or another clause of the sentence says when something happened, within the last two
  weeks ("I had a flu jab last Tuesday and ...", "Went to the dentist this morning,
  ...").

A symptom after a habit ("my knee still aches after a run, every time", "I keep getting
headaches after the gym") is no occasion. A symptom said with no cause ("My knee still
hurts"), over a span ("My back has been bad for weeks") or after something long ago ("I
broke my wrist in 2015 and it still aches") stands; so does a limitation ("Since my
surgery I can't kneel"), which the policy reader reads, not this one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.clauses import Clause
from cognimem.ingest.extract.lexicon import alternation
from cognimem.ingest.extract.patterns import icase
from cognimem.text.mention import TimeMention
from cognimem.text.temporal import find_times

__all__ = ["after_one_off"]

_RECENT = timedelta(days=14)
_DAY = r"(?:yesterday|today|tonight|(?:this|last)\s+\w+|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
_CAUSE = icase(
    r"\b(?:from|after|since)\s+(?P<det>the|that|this|a|an|my|our|"
    rf"{_DAY}'s)\s+(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}})"
)
_STANDING = icase(
    rf"\b(?:old|chronic|childhood|lifelong|long-term|years|{alternation(vocab.CONDITIONS)})\b"
)
_AFTER = icase(r"\b(?:from|after)\b")
_LASTING = icase(
    r"\b(?:still|won't|will not|hasn't|has not|haven't|have not|not gone|not better)\b"
)
# "my knee still aches after a run, every time": a habit, not one occasion
_HABIT = icase(r"\b(?:always|usually|often|every|each|again and again|keeps?|kept)\b")


def after_one_off(c: Clause, reference: datetime) -> bool:
    """Whether the symptom read in ``c`` is tied to a one-off event (module
    docstring); ``c.evidence`` is its sentence."""
    if not _LASTING.search(c.said) or _HABIT.search(c.evidence):
        return False
    recent = [t for t in c.times if _recent(t, reference)]
    cause = _CAUSE.search(c.said)
    own = cause is not None and cause.group("det").lower() in {"my", "our"}
    if cause is not None and not _STANDING.search(cause.group("np")) and (recent or not own):
        return True
    said = c.said.lower()
    for t in recent:  # "after running yesterday", "since yesterday's run"
        at = said.find(t.text.lower())
        if at >= 0 and (_AFTER.search(said[:at]) or said[at + len(t.text) :].startswith("'s")):
            return True
    at = c.evidence.find(c.said)
    if at < 0 or not c.said:
        return False
    rest = f"{c.evidence[:at]} {c.evidence[at + len(c.said) :]}"
    return any(_recent(t, reference) for t in find_times(rest, reference))


def _recent(t: TimeMention, reference: datetime) -> bool:
    """A time within the last two weeks that has begun: "last Tuesday", "this morning"."""
    return reference - _RECENT <= t.start < reference and t.end <= reference + timedelta(days=1)
