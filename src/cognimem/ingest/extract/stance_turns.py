"""Stances said in turns of phrase the verb patterns of :mod:`.detect_choices` cannot
take, each read by its grammar, none by a topic word.

- the thing and the speaker as a pair that does not get on ("X and I don't get along",
  "X and I parted ways", "X and me will never be friends"), read from the whole
  sentence, since "and I" opens a new clause elsewhere (a person is no thing: "Sam and
  I don't get along" is a relation);
- the thing first, then what it never was to the speaker ("X has never done it for me",
  "X has never appealed to me", "X is something I've never warmed to") or what it is
  to them now ("X is wasted on me", "X are out of my league", "X is beyond my
  patience", "X is off my list", "X is a no-go zone for me", "X is a nope for me", "X
  is more faff than it's worth", "X just don't fit my life", "X doesn't agree with my
  skin", "X aren't something I'll book", "X aren't happening on my calendar"), also
  after a hedge or a conjunction ("To be honest, X ...", "..., so X ...");
- the thing first and what it beats ("X beats Y for me", "X wins over Y every time for
  me", "X over Y for me"), the speaker's pick of one over another ("I'd take X over Y
  any day", "I'll always go with X over Y"): for X, and "X is what I'm after every
  time" (not "A blue one is what I'm after": one purchase);
- a standing order about the answers wanted ("Please keep X out of any plan you make",
  "Leave X off any list", "Please stop recommending X to me", "Don't bother suggesting X",
  "Please spare me any X", "Skip X when you plan meals for me", "Please leave me off
  any X", "Don't ever put me down for X", "Never book me in with X", "Going forward,
  keep X free");
- a limit ("Max two hours of X", the number kept; "No more than two X a day", "Nothing
  over three hours on a plane", "When ..., nothing more than X", "Anything
  longer than X, I won't even start", "I keep X at 19 degrees", "X has to be done by
  8pm for me");
- a verdict after a story ("Gave X a go last winter, and never again", "Tried X once
  and it's not for me", "Did X once, and once was enough", "... and that was the end of
  X for me");
- the one way the speaker will do a thing ("The only way I'll do X is Y").

A thing said first never opens with a person or a pointer ("My sister and I ...", "It
...": someone else's stance or a pointer back), and a standing order needs a sign that
it stands ("any", "my", "ever", "going forward"): "Keep the warm-up short today" and
"Please leave me off the invite" are for one occasion.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.clauses import after_conjunctions
from cognimem.ingest.extract.patterns import HAS_SPEAKER, gated, icase
from cognimem.text.gazetteer import is_first_name
from cognimem.text.tokens import words

__all__ = ["TURN_WORDS", "Turn", "sentence_turn", "turn"]

# (object, for it, only it)
Turn = tuple[str, bool, bool]

_NO_PERSON = r"(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you|we|I|me)\b)"
_THING = rf"{_NO_PERSON}(?P<rest>[a-z][\w' ,&$£€-]{{1,80}}?)"
_ME = r"(?:me|us)"
_ADV = r"(?:(?:just|really|honestly|simply|totally|completely|truly|kind of|a bit)\s+)*"
_HONESTLY = (
    r"^(?:(?:honestly|frankly|truthfully|personally|tbh|to be (?:honest|fair)|in all honesty|"
    r"if I'm honest|I (?:have to|must|gotta) (?:say|admit)|I'll (?:admit|be honest))\s*,?\s+)?"
)

# "X and I don't get along", "X and I have never got on", "X and I parted ways"
_PAIR = icase(
    rf"{_HONESTLY}{_THING}\s+and\s+(?:I|me)\s+{_ADV}(?:(?:have\s+|'ve\s+)?never\s+(?:really\s+)?"
    r"(?:got|gotten|get|gone)\s+(?:along|on)|(?:don't|do\s+not)\s+(?:really\s+)?(?:get\s+"
    r"(?:along|on)|mix|agree|click|gel)|(?:are|'re)\s+(?:not|never\s+going\s+to\s+be)\s+friends|"
    r"(?:will|'ll)\s+never\s+be\s+friends|aren't\s+"
    r"friends|(?:are|'re)\s+(?:done|through|finished)|(?:have\s+|'ve\s+)?(?:parted\s+(?:ways|company)|"
    r"fallen\s+out|split\s+up|broken\s+up))\b"
)
# the thing first, then what it never was to the speaker
_NEVER_TO_ME = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:has|have|'s|'ve)\s+never\s+{_ADV}(?:quite\s+)?(?:done\s+(?:it|"
    r"much|anything)\s+for|appealed\s+to|sat\s+(?:right|well)\s+with|agreed\s+with|clicked\s+"
    r"with|worked\s+for|suited|grabbed|interested|excited|been\s+(?:for|kind\s+to))\s+"
    rf"{_ME}\b",
    gate_match=True,
)
# "X has never been my scene"
_NEVER_MINE = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:has|have|'s|'ve)\s+never\s+{_ADV}been\s+(?:my|our)\s+"
    r"(?:scene|thing|style|bag|cup\s+of\s+tea|kind\s+of\s+thing)\b",
    gate_match=True,
)
# "X is something I've never warmed to", "X aren't something I'll book"
_SOMETHING_I = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:(?:is|are)\s+(?:something|a\s+thing)\s+(?:that\s+)?(?:I|we)"
    r"(?:'ve|\s+have)?\s+never\s+(?:really\s+)?(?:warmed|taken|got|gotten|been)\b|(?:isn't|"
    r"aren't|is\s+not|are\s+not)\s+(?:really\s+)?(?:something|a\s+thing)\s+(?:that\s+)?(?:I|we)"
    r"(?:'ll|\s+will|'d|\s+would)\s+(?:ever\s+)?[a-z]+)",
    gate_match=True,
)
# the thing first, then what it is to the speaker now
_NOT_FOR_ME_NOW = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:(?:is|are|'s|'re)\s+{_ADV}(?:(?:wasted|lost)\s+on\s+{_ME}|"
    r"out\s+of\s+(?:my|our)\s+(?:league|price\s+range|budget)|beyond\s+(?:my|our)\s+[a-z]+|off\s+"
    r"(?:my|our)\s+(?:[a-z]+\s+)?list|an?\s+no-go(?:\s+(?:zone|area))?\s+for\s+(?:me|us|my\s+\w+)|"
    r"an?\s+(?:big\s+|hard\s+|firm\s+)?"
    rf"(?:nope|nah)\b|an?\s+(?:step|stretch|bridge)\s+too\s+far|more\s+(?:faff|hassle|trouble|"
    r"bother|effort)\s+than\s+(?:it's|they're|it\s+is|they\s+are)\s+worth|never\s+going\s+to\s+"
    rf"work\s+for\s+{_ME})|(?:isn't|aren't|is\s+not|are\s+not)\s+{_ADV}happening\s+(?:on|in|"
    r"with|for|at)\s+(?:my|our|this)\b|(?:don't|doesn't|do\s+not|does\s+not)\s+"
    r"(?:really\s+)?(?:fit|suit)\s+(?:me|us|(?:my|our)\s+(?:life|lifestyle|routine|schedule|"
    r"week|budget))|(?:don't|doesn't|do\s+not|does\s+not)\s+(?:really\s+)?(?:agree|sit\s+well|"
    r"get\s+on)\s+with\s+(?:my|our)\s+[a-z]+)",
    gate_match=True,
)
# "X beats Y for me", "X wins over Y every time for me", "X over Y for me"
_BEATS = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:beats?|wins?\s+over|trumps?|over)\s+(?P<other>[^,.;]+?)\s+"
    rf"(?:(?:every\s+(?:single\s+)?time|any\s+day|always|hands\s+down)\s+)?for\s+{_ME}\b",
    gate_match=True,
)
# "X is my happy place", "X is my kind of music": for X
_MY_KIND = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:is|are|'s|'re)\s+(?:(?:definitely|always|really|totally)\s+)?"
    r"(?:my|our)\s+(?:happy\s+place|(?:kind|sort)\s+of\s+[a-z]+|idea\s+of\s+(?:a\s+good\s+"
    r"time|heaven|bliss|fun))\b",
    gate_match=True,
)
# "X is what I'm after every time": a standing choice (not "A red one is what I'm after")
_WHAT_IM_AFTER = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:is|are)\s+(?:exactly\s+)?what\s+(?:I|we)(?:'m|\s+am|'re|"
    r"\s+are)\s+(?:after|looking\s+for)\s+(?:every\s+(?:single\s+)?time|always|these\s+days|"
    r"in\s+general)\b",
    gate_match=True,
)
# "Max two hours of X", "At most one X a day"
_AT_MOST = icase(
    r"^(?P<lead>max(?:imum)?|at\s+most)\s+(?P<rest>(?:\d+|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|a\s+couple)\s+[^,;]+?)(?:\s+for\s+(?:me|us))?\s*[.!]*$"
)
# "I'd take X over Y any day", "I'd pick X over Y every single time"
_PICK_OVER = icase(
    r"^(?:I|we)(?:'d|'ll|\s+would|\s+will)?\s+(?:(?:always|happily|gladly|still)\s+)?(?:take|"
    r"pick|choose|go\s+(?:with|for)|opt\s+for)\s+(?P<rest>(?!(?:it|that|this|them|one)\b)[^,;]+?)\s+(?:over|instead\s+"
    r"of)\s+[^,;]+"
)
# a standing order: "Please keep X out of any plan", "Leave X off any list"
_KEEP_OUT = gated(
    r"^(?:please[\s,]+)?(?:keep|leave)\s+(?P<rest>(?!(?:me|us|it|that|this|them|the)\b).+?)\s+"
    r"(?:out\s+of|off)\s+(?:any|all|every|my|our)\b",
    gate_match=True,
)
_LEAVE_ME_OFF = gated(
    r"^(?:please[\s,]+)?(?:leave|keep|count)\s+(?:me|us)\s+(?:off|out\s+of)\s+(?:any|all|every)\s+"
    r"(?P<rest>.+)",
    gate_match=True,
)
_STOP_SENDING = gated(
    r"^(?:please[\s,]+)?(?:stop|quit|(?:don't|do\s+not|never)\s+bother)\s+(?:recommending|suggesting|sending|booking|offering|"
    r"showing|picking)\s+(?:me\s+)?(?P<rest>.+)",
    gate_match=True,
)
# "Please spare me any X", "Skip X when you pick games for me"
_SPARE_ME = icase(
    r"^(?:please[\s,]+)?(?:spare\s+(?:me|us)\s+(?:any|all)\s+(?P<rest>.+)|skip\s+"
    r"(?P<rest2>(?!(?:it|that|this|them|the)\b).+?)\s+(?:when(?:ever)?|if)\s+you\s+[a-z]+\s+"
    r"(?:[a-z]+\s+)?for\s+(?:me|us)\b)"
)
_NEVER_PUT_ME = icase(
    r"^(?:please[\s,]+)?(?:don't|do\s+not|(?P<never>never))\s+(?P<ever>ever\s+)?(?:put|sign|book|"
    r"enter|enrol|enroll)\s+(?:me|us)\s+(?:down\s+|up\s+|in\s+)?(?:for|on|in|with)\s+"
    r"(?P<rest>.+)"
)
_KEEP_FREE = icase(
    r"^(?:going\s+forward|from\s+now\s+on|in\s+future|in\s+the\s+future)[\s,]+(?:please[\s,]+)?"
    r"(?:always\s+)?keep\s+(?P<rest>(?!(?:it|that|this|them)\b)[^,;]+?\s+(?:free|clear|open))\b"
)
_TO_ME_END = icase(r"\s+(?:to|for)\s+(?:me|us)(?=\s*(?:[,.;!]|$))")
# limits: "No more than two treats a day", "When ..., nothing more than X"
_NO_MORE_THAN = icase(
    r"^(?:(?P<cond>(?:when|whenever|if|on|for|with|during)\s[^,]{2,60}),\s*)?(?:no|nothing)\s+"
    r"(?P<rest>(?:(?:more|longer|later|bigger|further|higher|stronger)\s+than|(?:over|above|past|"
    r"after|before)(?=\s+(?:[$£€]?\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
    r"twenty|thirty|fifty|a\s+hundred|midnight|noon|dark|lunch|dinner)\b))\s+.+)"
)
# "..., whatever she says": a concession after the limit, not part of it
_CONCEDED = icase(r",\s*(?:whatever|no\s+matter|however|even\s+if)\b")
_ANYTHING_THEN_NO = icase(
    r"^(?P<rest>anything\s+(?:more|longer|later|bigger|over|above|older|louder)\s+[^,]{2,60}),"
    r"\s*(?:I|we)\s+(?:just\s+)?(?:won't|don't|never|can't|refuse)\b"
)
_KEEP_AT = icase(
    r"^(?:I|we)\s+(?:always\s+)?(?:keep|hold)\s+(?P<rest>(?!(?:it|that|this|them|you|in)\b)"
    r"[^,;]+?\s+(?:at|under|below|within)\s+(?:[$£€]\s?)?\d+\S*(?:\s+(?:degrees|minutes|hours|"
    r"pounds|dollars|euros|percent|a\s+\w+))?)"
)
_HAS_TO_BE = gated(
    rf"{_HONESTLY}{_THING}\s+{_ADV}(?:has|have|needs?)\s+to\s+be\s+(?P<pred>[^,;]+?)\s+for\s+{_ME}\b",
    gate_match=True,
)
# a verdict after a story: "Gave X a go last winter, and never again"
_TRIED_ONCE = icase(
    r"^(?:I\s+)?(?:tried|gave|did|ordered|bought|took|ate|saw|watched|read|went\s+(?:on|to)|"
    r"stayed\s+(?:in|at))\s+(?P<rest>(?!(?:it|that|this|them)\b)"
    r"[^,;]+?)\s+(?:once|a\s+go|a\s+try|a\s+shot|a\s+whirl)\b(?P<tail>.*)"
)
_VERDICT = icase(
    r"\b(?:never\s+again|once\s+(?:was|is)\s+(?:enough|plenty)|(?:it's|it\s+is|they're|they\s+are)\s+(?:just\s+)?not\s+for\s+(?:me|us)|"
    r"not\s+for\s+(?:me|us)|(?:it's|they're)\s+not\s+my\s+thing)\b"
)
_END_OF = icase(r"\bthat\s+was\s+the\s+end\s+of\s+(?P<rest>[^,;]+?)\s+for\s+(?:me|us)\b")
_ONLY_WAY = icase(
    r"^the\s+only\s+way\s+(?:I|we)(?:'ll|\s+will|'d|\s+would)?\s+(?P<verb>[^,;]+?)\s+is\s+"
    r"(?P<rest>(?:in|on|with|by|at|if|when)\s+[^,;]+)"
)
# the words without which no turn of a clause can match
TURN_WORDS = frozenset(
    words(
        """never, wasted, lost, league, nope, nah, stretch, faff, hassle, bother, step, bridge,
        happening, fit, suit, something, thing, beats, beat, wins, win, trumps, over, take, pick,
        choose, keep, leave, count, stop, quit, put, sign, book, enter, enrol, enroll, hold, has,
        have, need, needs, happy, kind, sort, idea, beyond, list, no-go, agree, sit, get, go,
        opt, after, looking, bother, spare, skip"""
    )
)
# a lone word that names a person, not a thing
_PEOPLE = frozenset(
    words(
        """mum, mom, mam, dad, mother, father, sister, brother, wife, husband, partner, boyfriend,
        girlfriend, boss, son, daughter, grandma, grandpa, nan, gran, granny, grandad, aunt, uncle,
        cousin, friend, neighbour, neighbor, flatmate, roommate, colleague, manager, teacher, he,
        she, they"""
    )
)
_SENTENCE_WORDS = frozenset(
    words("and, never, no, nothing, anything, once, end, go, try, only, forward, future, max, most")
)


def _thing(m: re.Match[str] | None) -> str | None:
    """The thing a pattern read first, unless it names the speaker or is a person ("Sam
    and I don't get along", "Mum and I aren't friends": a relation, no stance)."""
    if m is None:
        return None
    rest = m.group("rest")
    if HAS_SPEAKER.search(rest):
        return None
    alone = rest.split()
    person = len(alone) == 1 and (alone[0].lower() in _PEOPLE or is_first_name(alone[0]))
    return None if person else rest


def sentence_turn(text: str, words: frozenset[str]) -> tuple[Turn, str | None] | None:
    """A stance said across what would be split as two clauses ("X and I don't get
    along", "Gave X a go, and never again", "When ..., nothing more than X"): the turn
    and the condition it is said under, or ``None``."""
    if words.isdisjoint(_SENTENCE_WORDS):
        return None
    if (pair := _thing(_PAIR.match(text))) is not None:
        return (pair, False, False), None
    if (m := _AT_MOST.match(text)) is not None:  # the number is the limit: kept
        return (f"{m.group('lead').lower()} {m.group('rest')}", True, False), None
    if (m := _NO_MORE_THAN.match(text)) is not None:
        return (_CONCEDED.split(m.group("rest"), maxsplit=1)[0], False, False), m.group("cond")
    if (anything := _thing(_ANYTHING_THEN_NO.match(text))) is not None:
        return (anything, False, False), None
    m = _TRIED_ONCE.match(text)
    if m is not None and _VERDICT.search(m.group("tail")):
        return (m.group("rest"), False, False), None
    if (end := _thing(_END_OF.search(text))) is not None:
        return (end, False, False), None
    if (m := _KEEP_FREE.match(text)) is not None:
        return (m.group("rest"), True, False), None
    m = _ONLY_WAY.match(text)
    if m is not None:
        return (f"{m.group('verb')} {m.group('rest')}", True, True), None
    return None


def turn(said: str) -> Turn | None:
    """A stance in one clause said in a turn of the module docstring, or ``None``; a
    thing said first may follow a conjunction or a comma ("I'm no drinker, so X have
    never appealed to me")."""
    starts = [said, *after_conjunctions(said)]
    for pattern in (_NEVER_TO_ME, _NEVER_MINE, _SOMETHING_I, _NOT_FOR_ME_NOW):
        for start in starts:
            if (against := _thing(pattern.match(start))) is not None:
                return against, False, False
    if (mine := _thing(_MY_KIND.match(said) or _WHAT_IM_AFTER.match(said))) is not None:
        return mine, True, False
    if (beats := _thing(_BEATS.match(said))) is not None:
        return beats, True, False
    if (m := _PICK_OVER.match(said)) is not None:
        return m.group("rest"), True, False
    if (m := _HAS_TO_BE.match(said)) is not None and _thing(m) is not None:
        return f"{m.group('rest')} {m.group('pred')}", True, False
    return _order(said)


def _order(said: str) -> Turn | None:
    """A standing order about what the speaker wants suggested or planned."""
    for pattern in (_KEEP_OUT, _LEAVE_ME_OFF, _STOP_SENDING):
        if (m := pattern.match(said)) is not None:
            return _TO_ME_END.sub("", m.group("rest"), count=1), False, False
    if (m := _SPARE_ME.match(said)) is not None:
        return m.group("rest") or m.group("rest2"), False, False
    m = _NEVER_PUT_ME.match(said)
    standing = m is not None and (m.group("ever") or m.group("never"))
    if m is not None and (standing or m.group("rest").lower().startswith("any")):
        return m.group("rest"), False, False
    if (m := _KEEP_AT.match(said)) is not None:
        return m.group("rest"), True, False
    return None
