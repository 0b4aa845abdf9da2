"""Stances said as habits, defaults and leanings, read for :mod:`.detect_choices`: the
grammar of a standing choice that names no verb of liking or refusing.

- a habit of declining, after a word of habit ("I tend to pass on X", "I usually sit
  out X", "I'll generally turn down X", "I usually give X a miss at peak times": the
  tail after "a miss" is part of the object): against X;
- a habit of never declining ("I'd never say no to X", "I never turn down X"): for X;
- a habit never tired of or given up ("I never tire of X", "I'll never give up X", "I
  never skip X", :mod:`.unwearied`): for X, read before the refusals would take its
  "never" for one; with nothing named ("I never tire") an empty object, so no stance;
- a default choice said through the speaker's own noun of habit ("My go-to at the bar
  is always X", "My default for a quick lunch is X", "My usual order is X", "My comfort
  watch is always X"): for X, with a frame of place or purpose kept ("X at the bar");
- the kind of person the speaker is more of ("I'm more of a tea drinker", "I'm more of a
  pool swimmer than a sea swimmer") or what they are more into ("I'm more into jazz than
  pop"): for the first, never the alternative;
- a plain habit after a word of habit ("I tend to cycle to work unless it's pouring",
  "I usually book the quiet carriage"): for the verb and its object, read last (see
  :func:`habitual`) so the choice, refusal and liking verbs keep their own readings.

Only the speaker's own clauses are read: every form opens with "I", "we" or "my" / "our"
(a question, a hypothetical or reported speech never reaches a detector). Nothing here
names a topic: the markers are words of habit and English function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.habit_verbs import NOT_HABIT_VERBS
from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.unwearied import unwearied
from cognimem.text.tokens import words

__all__ = ["HABIT_WORDS", "habit_stance", "habitual"]

# the words without one of which no form here can match (a clause's trigger words)
HABIT_WORDS = frozenset(
    words(
        """tend, usually, normally, generally, typically, mostly, often, always, never,
        usual, go-to, default, regular, standard, comfort, fallback, staple, more, pass,
        sit, turn, miss, berth, say, choice, pick, order, option, happiest, most, best,
        rather, than"""
    )
)
_SUBJECT = r"(?:I|we)"
# words of habit, any number, in any order: "I'll usually", "I do tend to", "we almost always"
_HABIT = (
    r"(?:(?:'ll|will|'d|would|do|does)\s+)?(?:(?:usually|normally|generally|typically|mostly|"
    r"often|always|almost\s+always|nearly\s+always|pretty\s+much\s+always|invariably|tend\s+to|"
    r"also|just|really|honestly|still|now|increasingly)\s+)+"
)
# declining, after a word of habit: "I tend to pass on X", "I usually sit out X"
_DECLINE = icase(
    rf"^{_SUBJECT}\s+{_HABIT}(?:pass\s+(?:on|up)|sit\s+out|turn\s+down|opt\s+out\s+of|"
    rf"shy\s+away\s+from|say\s+no\s+to)\s+(?P<rest>(?!(?:it|that|this|them|him|her|you|the\s+"
    rf"(?:message|word|news|info|information))\b)[a-z].*)"
)
# "I usually give X a miss (at peak times)": the object with what follows "a miss"
_GIVE_A_MISS = gated(
    rf"^{_SUBJECT}\s+{_HABIT}give\s+(?P<rest>(?!(?:it|that|this|them|him|her|you)\b)[a-z].*?)"
    r"\s+a\s+(?:miss|wide\s+berth)\b(?P<tail>.*)",
    gate_match=True,
)
# never declining: "I'd never say no to X", "I never turn down X", "we never pass up X"
_NEVER_DECLINE = gated(
    rf"^{_SUBJECT}(?:'d|\s+would|'ll|\s+will)?\s+(?:(?:honestly|just|really)\s+)?never\s+"
    r"(?:ever\s+)?(?:say\s+no\s+to|turn\s+down|pass\s+up|refuse)\s+(?P<rest>[a-z].*)",
    gate_match=True,
)
# a noun of habit the speaker names as theirs: "my go-to", "my usual order", "my
# comfort watch", "our default for a quick lunch"
_DEFAULT = icase(
    r"^(?:my|our)\s+(?:(?:absolute|all-time|current|standard|everyday|weekday|weekend|"
    r"morning|evening)\s+)?(?P<kind>go-to|default|usual|regular|fallback|staple|comfort|safe)"
    r"(?P<head>(?:\s+(?!(?:is|are)\b)[\w'-]+){0,5}?)\s+(?:is|are)\s+(?:(?:always|usually|"
    r"normally|generally|pretty\s+much|basically|still|just|nearly\s+always|almost\s+always)\s+)*"
    r"(?P<rest>(?!(?:not|no|yes|nothing|a\s+bit|so|too|very|really|pretty|quite|being|getting|going|"
    r"closed|open|broken|late|away|gone)\b)[a-z0-9].*)"
)
# a noun of choice, said with a word of habit: "My first choice is always the train",
# "My pick is usually the window seat" (not "My pick is the blue one": once)
_CHOICE = icase(
    r"^(?:my|our)\s+(?:first\s+|top\s+|usual\s+)?(?:choice|pick)(?P<head>(?:\s+"
    r"(?!(?:is|are)\b)[\w'-]+){0,4}?)\s+(?:is|are)\s+(?:(?:nearly|almost|pretty\s+much)\s+)?"
    r"(?:always|usually|normally|generally|invariably)\s+(?P<rest>[a-z0-9].*)"
)
# the object first: "Window seats are my usual pick", "Pad thai is our default order"
_DEFAULT_AFTER = gated(
    r"^(?!(?:it|this|that|he|she|they|you|we|I)\b)(?P<rest>[a-z][\w' -]{1,60}?)\s+(?:is|are)\s+"
    r"(?:always\s+|usually\s+)?(?:my|our)\s+(?:(?:usual|regular|default|standard|go-to|first|"
    r"top|safe)\s+)+(?:choice|pick|order|option|drink|meal|snack|spot|place|bet|fallback)\b",
    gate_match=True,
)
# the place the speaker is at their best: "I'm happiest with a quiet table by the window"
_HAPPIEST = gated(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:always|usually|honestly|definitely)\s+)?(?:happiest|"
    r"most\s+(?:comfortable|relaxed|at\s+home)|at\s+(?:my|our)\s+best)\s+(?P<rest>(?:with|in|"
    r"on|at|by|near|when|doing)\s+(?!(?:it|that|this|them|you)\b)[a-z].*)",
    gate_match=True,
)
# "I'm not much of a drinker", "I'm not a big reader": against the agent noun's doing
_NOT_MUCH_OF = icase(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:really|honestly|just|definitely)\s+)?not\s+"
    r"(?:really\s+)?(?:much\s+of\s+an?|an?\s+(?:big|huge|great|massive|keen)|the\s+biggest)"
    r"\s+(?P<rest>(?:[a-z][\w'-]*\s+){0,2}[a-z][\w-]*(?:er|ist)s?)(?:,\s*(?:honestly|really|"
    r"though|to be honest|tbh))?[\s.!]*$"
)
# "I'm a tea drinker rather than a coffee drinker": the first, compared
_RATHER_THAN = gated(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:definitely|really|honestly|much)\s+)?an?\s+"
    r"(?P<rest>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?\s+[a-z-]+(?:er|ist|ie|person|people|type))s?"
    r"\s+(?:rather\s+than|more\s+than|not|over)\s+an?\s+\w",
    gate_match=True,
)
# the frame of place or purpose in the head, kept beside the object: "at the bar",
# "for focus", "for game night" (not the noun of the habit: "workout", "shoes")
_FRAME = icase(r"^\s*(?P<frame>(?:at|for|in|on|with|when|after|before|during)\s+.+)$")
# "I'm more of a tea drinker", "I'm more of a pool swimmer than a sea swimmer"
_MORE_OF = gated(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:much|definitely|far|probably|honestly|really|"
    r"generally|always|increasingly)\s+)*more\s+of\s+an?\s+(?P<rest>(?:(?!than\b)[a-z][\w'-]*\s+){1,3}?"
    r"[a-z-]+(?:er|ist|ie)s?)\b(?:\s+than\b.*|\s*,.*|[\s.!]*)$",
    gate_match=True,
)
# "I'm more into jazz than pop (these days)"
_MORE_INTO = gated(
    r"^(?:I'm|we're|I am|we are)\s+(?:(?:much|definitely|far|probably|honestly|really|"
    r"generally|always|increasingly)\s+)*more\s+into\s+(?P<rest>(?!(?:it|that|this|them|him|"
    r"her)\b)[a-z].*?)(?:\s+than\b.*)?$",
    gate_match=True,
)
# a plain habit: a word of habit, then a verb in the present and what it is done to
_HABITUAL = icase(
    r"^(?:I|we)\s+(?:(?:do|really|also|just|still|very\s+much)\s+)*(?:(?:usually|normally|"
    r"generally|typically|mostly|tend\s+to|invariably|(?:almost|nearly|pretty\s+much)\s+always)"
    r"\s+)+(?P<verb>[a-z]+)\s+(?P<rest>(?!(?:it|that|this|them|these|those|him|her|one)\b)"
    r"[a-z].*)"
)
# verbs whose habit is no standing choice: being, going and coming, changing, feeling,
# thinking, wanting, or a stance verb another form reads ("pass on", "avoid")
_NOT_CHOICE_VERBS = frozenset(
    words(
        """come, end, wind, forget, lose, fall, wake, fail, struggle, worry, overthink,
        panic, stress, freak, rush, miss, spend, waste, cope, deal, notice, happen, appear,
        argue, laugh, cry, win, beat, hit, let, make, pass, sit, turn, give, say, lean,
        gravitate, dislike, hate, find"""
    )
)


def _whole(rest: str) -> str:
    return rest.strip(" ,.!")


def habit_stance(said: str) -> tuple[str, bool] | None:
    """The object and the polarity (false: against) of a stance said as a habit of
    declining, of never declining, a default or the kind of person the speaker is more
    of; ``None`` when ``said`` is none of these."""
    if m := _DECLINE.match(said):
        return m["rest"], False
    if m := _GIVE_A_MISS.match(said):
        return f"{m['rest']}{m['tail']}", False
    if m := _NEVER_DECLINE.match(said):
        return m["rest"], True
    if (kept := unwearied(said)) is not None:  # "I never tire of X", "I never skip X"
        return kept, True  # "" when nothing is named ("I never tire"): no stance
    if m := _DEFAULT.match(said):
        frame = _FRAME.match(m["head"])
        rest = _whole(m["rest"])
        return (f"{rest} {frame['frame'].strip()}" if frame else rest), True
    if m := _CHOICE.match(said):
        frame = _FRAME.match(m["head"])
        rest = _whole(m["rest"])
        return (f"{rest} {frame['frame'].strip()}" if frame else rest), True
    if m := _NOT_MUCH_OF.match(said):
        return m["rest"], False
    for form in (_MORE_OF, _MORE_INTO, _RATHER_THAN, _DEFAULT_AFTER, _HAPPIEST):
        if m := form.match(said):
            return m["rest"], True
    return None


def habitual(said: str) -> str | None:
    """A plain habit after a word of habit ("I tend to cycle to work"): the verb and
    what it is done to; ``None`` for a verb whose habit is no standing choice ("I tend
    to overthink", "I usually go ...": another form reads a choice of where)."""
    m = _HABITUAL.match(said)
    if m is None:
        return None
    verb = m["verb"].lower()
    if verb in NOT_HABIT_VERBS or verb in _NOT_CHOICE_VERBS or verb.endswith(("ed", "ing")):
        return None
    return f"{verb} {m['rest']}"
