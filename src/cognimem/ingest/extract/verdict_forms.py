"""Stances said as a verdict on their object, or with the object moved before the
speaker, read for :mod:`.detect_choices`.

- a verdict with the object first, against: "X is my (biggest) pet peeve", "X is my
  least favourite thing", "X has lost its appeal for me", "X makes me want to scream",
  "X gets on my nerves", "X never makes it into my basket", "X is a special kind of
  torture for me"; for: "X is (much) more my style", "X wins hands down", "X gets my
  vote", "X is much better for me";
- a choice said with "it" and a word of habit: "It's an oat milk flat white for me,
  every single time", "It's always X for me";
- an exclusive habit: "I do X and nothing else" (only X);
- an object moved before the speaker (:func:`fronted`), put back after the verb so the
  clause is read as if said in the usual order: a cleft ("X is something I insist on",
  "X are something I politely decline these days"), a pseudo-cleft ("X is what I look
  for"), each with a verb of at most four words and nothing after it, and a topicalised
  object of "give ... a miss" ("X I give a wide berth").

Only the speaker's stances are read: the object may not be a person or a pronoun
("My husband gets on my nerves" is about him), nor hold the speaker outside a relative
clause. Nothing here names a topic: the markers are idioms of judgement and English
function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import HAS_SPEAKER, PRONOUN_FIRST, gated, icase
from cognimem.text.tokens import words

__all__ = ["DISLOCATED", "VERDICT_WORDS", "fronted", "verdict"]

# the words without one of which no form here can match (a clause's trigger words)
VERDICT_WORDS = frozenset(
    words(
        """peeve, bugbear, least, appeal, want, nerves, never, torture, agony, misery, style,
        scene, speed, hands, vote, better, it's, nothing, something, thing, what, berth,
        miss"""
    )
)
# the object: not a person, a pronoun or a possessive ("My boss gets on my nerves")
_OBJECT = (
    r"^(?!(?:my|our|his|her|their|your|it|it's|this|that|he|she|they|you|we|I|there|what|"
    r"which|who)\b)(?P<rest>[a-z][\w' ,&-]{1,100}?)"
)
_MY = r"(?:(?:easily|probably|definitely|by\s+far|honestly|really|just)\s+)?(?:my|our)"
_AGAINST = icase(
    rf"{_OBJECT}\s+(?:"
    rf"(?:is|are)\s+{_MY}\s+(?:(?:biggest|main|number\s+one|absolute|ultimate|greatest|worst|"
    r"one|big)\s+)?(?:pet\s+(?:peeve|hate)|bugbear)|"
    rf"(?:is|are)\s+{_MY}\s+(?:(?:absolute|very|all-time)\s+)?least\s+favou?rite\b|"
    r"(?:has|have)\s+lost\s+(?:(?:all|any|most)\s+(?:of\s+)?)?(?:its|their)\s+appeal|"
    r"(?:make|makes)\s+(?:me|us)\s+want\s+to\s+(?:scream|cry|weep|crawl|hide|run|leave|"
    r"throw\s+up|be\s+sick|tear|pull|curl\s+up|die|walk\s+out)|"
    r"(?:get|gets|grate|grates)\s+on\s+(?:my|our)\s+(?:\w+\s+)?nerves|"
    r"never\s+(?:make|makes)\s+it\s+(?:into|onto|in|on|past)\s+(?:my|our)\b|"
    r"(?:is|are)\s+(?:an?\s+)?(?:(?:special|particular|unique|whole\s+new)\s+(?:kind|sort|"
    r"level)\s+of\s+|(?:pure|absolute|sheer|total)\s+)?(?:torture|agony|misery)\b"
    r")"
)
_FOR = icase(
    rf"{_OBJECT}\s+(?:"
    r"(?:is|are)\s+(?:(?:much|far|way|so|very|totally|exactly|definitely|really|more)\s+)*"
    r"(?:my|our)\s+(?:style|scene|speed|kind\s+of\s+thing|cup\s+of\s+tea)|"
    r"(?:win|wins)\s+hands\s+down|"
    r"(?:get|gets)\s+(?:my|our)\s+vote|"
    r"(?:is|are)\s+(?:(?:much|far|way|a\s+lot|so\s+much|loads)\s+)?better\s+for\s+(?:me|us)"
    r")\b"
)
# "It's an oat milk flat white for me, every single time", "It's always X for me"
_ITS_FOR_ME = gated(
    r"^it's\s+(?:(?:always|usually|invariably)\s+)?(?!(?:a|an)\s+(?:no|yes)\b)"
    r"(?P<rest>(?!(?:not|no|too|so|very|time|up)\b)[\w' &-]{2,60}?)\s+for\s+(?:me|us)\b"
    r"(?P<tail>[,\s]*(?:every\s+(?:single\s+)?time|each\s+time|without\s+fail|always))?",
    gate_match=True,
)
_HABIT_ALWAYS = icase(r"^it's\s+(?:always|usually|invariably)\s")
# "I do one big shop on Sunday and nothing else": only the habit
_AND_NOTHING_ELSE = gated(
    r"^(?:I|we)\s+(?:(?:only|just|always|usually)\s+)?(?P<rest>[a-z]+\s+[\w' ,&-]{2,80}?)\s+"
    r"and\s+nothing\s+else\b",
    gate_match=True,
)
# a cleft or pseudo-cleft: "X is something I insist on", "X is what I look for"
_CLEFT = gated(
    rf"{_OBJECT}\s+(?:is|are)\s+(?:something|a\s+thing|one\s+thing|the\s+one\s+thing|what)\s+"
    r"(?:that\s+)?(?P<stance>(?:I|we)(?:\s+[a-z']+){1,4}?)(?P<time>\s+(?:these\s+days|nowadays|now|"
    r"anymore|any\s+more|at\s+all|ever|again))?\s*[.!]*(?P<tail>,.*)?$",
    gate_match=True,
)
# a topicalised object of "give ... a miss": "X I give a wide berth"
_TOPICAL = gated(
    rf"{_OBJECT}\s+(?P<stance>(?:I|we)\s+(?:(?:always|usually|just|generally)\s+)?give)"
    r"(?P<gift>\s+an?\s+(?:wide\s+berth|miss))(?P<tail>,.*)?\s*[.!]*$",
    gate_match=True,
)


def verdict(said: str) -> tuple[str, bool, bool] | None:
    """A stance said as a verdict on its object (see the module docstring): the object,
    whether the speaker is for it, and whether only it (an exclusive habit)."""
    for pattern, polarity in ((_AGAINST, False), (_FOR, True)):
        m = pattern.match(said)
        if m and not HAS_SPEAKER.search(_without_relative(m["rest"])):
            return m["rest"], polarity, False
    m = _ITS_FOR_ME.match(said)
    if m and (m["tail"] or _HABIT_ALWAYS.match(said)):
        return m["rest"], True, False
    m = _AND_NOTHING_ELSE.match(said)
    if m:
        return m["rest"], True, True
    return None


def fronted(said: str) -> str | None:
    """``said`` with an object said before the speaker put back after the verb ("X is
    something I insist on" is "I insist on X", "X I give a wide berth" is "I give X a
    wide berth"); ``None`` when the object is where it belongs."""
    m = _CLEFT.match(said) or _TOPICAL.match(said)
    if m is None or HAS_SPEAKER.search(_without_relative(m["rest"])):
        return None
    stance = m["stance"]
    gift = m.groupdict().get("gift") or ""
    return f"{stance} {m['rest']}{gift}{m['tail'] or ''}"


# the thing said first and set off by a comma, a list at times, then the speaker's
# clause that names it again ("Stadium gigs, festivals and long queues, I'm done with
# it"): read by :func:`.stance_forms.antecedent`
DISLOCATED = icase(
    rf"^(?!(?:{PRONOUN_FIRST}|so|and|but|yes|no|yeah|well|oh|ok|okay|honestly|anyway)\b)"
    r"(?P<np>[a-z][\w' -]{2,60}?(?:,\s+[a-z][\w' -]{2,60}?)*(?:,?\s+(?:and|or)\s+[\w' -]{2,60}?)?)"
    r",\s+(?:I|I'm|I've|I'd|we|we're|we've)\b"
)
_RELATIVE = icase(r"\s+(?:where|that|who|which|when|so)\s.*$")


def _without_relative(rest: str) -> str:
    """``rest`` without a relative clause: its "I" is not the stance's subject ("Venues
    where I can't see the stage")."""
    return _RELATIVE.sub("", rest)
