"""Forms of a one-off said in the words of a stance, read for :mod:`.passing`:

- a bad feeling of the moment: the speaker being or feeling something VADER rates
  negative (:func:`cognimem.text.valence.valence`: "miserable", "stressed", "upset") or
  in a mood (a noun whose most frequent sense in WordNet is a feeling: "in a foul
  mood"), with nothing after it but an intensifier: given as the reason of a stance for
  one occasion it is that occasion's ("I'd rather not cook tonight, I'm exhausted"; alone
  it stays a state, "I'm so stressed right now"), said with a reason in the past it is
  the mood one event left ("I'm upset because my cake collapsed"). Not a feeling with an
  object ("I'm scared of dogs because one bit me": a stance on dogs), a word VADER does
  not rate ("I'm vegetarian because ..."), nor a reason in the present ("I'm anxious
  because I have a phobia");
- a choice among the options offered now: a pick "out of those (two)", "between the
  two", "of these options", or "I'd rather the <thing>", a noun phrase with
  no verb whose head is singular ("I'd rather the morning appointment", "I'd rather the
  green tea out of those"): one of the things in front of the speaker, not a kind ("I'd
  rather the early sessions" is a plural, a kind);
- an excuse for one event: a refusal, "can't", "won't" or "cannot", of a singular
  definite thing ("make the bake sale", "come to the premiere"), with a reason of the
  moment after "because", "since", "as" or a comma: the speaker busy with something now
  ("I'm working late", "I'm at a wedding", "I'm away", "I'm stuck at work"), feeling bad
  ("I'm ill"), holding one engagement ("I have a deadline", "I've got a meeting until
  eleven": a noun WordNet names an act, an event, a time, a gathering or a piece of
  talk first), someone or something of theirs in a state ("my son is ill") or a past
  event ("my car broke down"); or a refusal for one date with no thing named ("I can't go
  on Thursday because I'm working late", not "on Thursdays"). Not a reason by a noun
  ("because of my back"), nor one that is a standing trait ("because I'm coeliac", "I
  have a nut allergy").
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import IRREGULAR_PAST, NOT_PAST_ED, icase
from cognimem.text.dates import WEEKDAY
from cognimem.text.noun_senses import first_class
from cognimem.text.valence import valence

__all__ = [
    "choice_offered_now",
    "excused_event",
    "feeling_of_one_event",
    "feeling_of_the_day",
    "reads_plural",
]

_BE_OR_FEEL = r"(?:'m|'re|\s+am|\s+are|\s+was|\s+were|\s+feel|\s+felt|\s+am\s+feeling|'m\s+feeling)"
_INTENSIFIER = (
    r"(?:(?:so|really|very|quite|pretty|rather|totally|absolutely|a\s+bit|a\s+little)\s+)*"
)
# the speaker being or feeling one word, then the end of the clause or its reason
_FEELING = icase(
    rf"^\W*(?:I|we){_BE_OR_FEEL}\s+{_INTENSIFIER}"
    r"(?:(?P<word>[a-z]+)|in\s+(?:a|such\s+a)\s+(?:[a-z]+\s+)?(?P<noun>[a-z]+))"
    r"(?P<rest>\s*(?:[,;.!?]|\s+(?:because|since|as|after)\b|\s+(?:right\s+now|today|tonight|"
    r"this\s+[a-z]+|at\s+the\s+moment)\b|$).*)$"
)
_REASON = icase(r"^\s*,?\s*(?:because|since|as|after)\b(?P<reason>.*)$")
_PAST = icase(
    rf"\b(?:{IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed|(?:could|did|was|were|had)(?:n't|\s+not))\b"
)
_RATHER_THE = icase(
    r"\b(?:I|we)(?:'d|\s+would)\s+(?:much\s+|really\s+)?rather\s+the\s+"
    r"(?P<np>(?:[a-z-]+\s+){0,3}?[a-z-]+)(?=\s+(?:out\s+of|of|from|for|in|on|at)\b|\s*[,;.!?]|\s*$)"
)
# a pick among the options in front of the speaker: "out of those two", "between the two"
_AMONG_OFFERED = icase(
    r"\b(?:out\s+of|of|from|between|among)\s+(?:those|these|them|the\s+(?:two|three|four|"
    r"options|choices|ones))(?:\s+(?:two|three|four|options|choices|ones))?\s*(?:[,;.!?]|$)"
)
_VERBISH = icase(rf"\b(?:{IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed|do|does|don't|did|didn't|be|is)\b")
# a refusal of one definite thing, then a reason of the moment
_EXCUSE = icase(
    r"\b(?P<refusal>(?:I|we)\s+(?:can't|cannot|can\s+not|won't|will\s+not)\s+"
    r"(?:[a-z]+\s+){1,2}?the\s+(?P<thing>[a-z-]+(?:\s+[a-z-]+){0,2}?))"
    r"(?:\s+(?:on|this|next|tonight|today|tomorrow)\b[^,;.]*?)?"
    r"(?:\s*,\s*|\s+(?:because|since|as)\s+)(?P<reason>[^.;!?]+)"
)
# a refusal for one date, with no thing named: "I can't go on Thursday", "I won't play
# tomorrow" (one weekday, not "on Thursdays", a habit)
_EXCUSE_DATED = icase(
    r"\b(?P<refusal>(?:I|we)\s+(?:can't|cannot|can\s+not|won't|will\s+not)\s+[a-z]+"
    rf"(?:\s+[a-z]+)?\s+(?:on\s+{WEEKDAY}|tomorrow|tonight|today|this\s+[a-z]+))\b"
    r"(?:\s*,\s*|\s+(?:because|since|as)\s+)(?P<reason>[^.;!?]+)"
)
# the speaker holding one engagement: "I have a deadline", "we've got a meeting until
# eleven" (a noun whose most frequent sense in WordNet is an act, an event, a time, a
# gathering or a piece of talk; not a state, "a nut allergy", nor a part of the body)
_ENGAGED = icase(
    r"^(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+got)\s+(?:a|an|another)\s+"
    r"(?:[a-z-]+\s+){0,2}?(?P<noun>[a-z]+)(?:\s+(?:on|at|until|till|in|this|that|then)\b|\W*$)"
)
_ENGAGEMENTS = frozenset({"act", "event", "time", "group", "communication"})
_BUSY_NOW = icase(
    r"^(?:I|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:[a-z]+ing)|at|away|stuck|busy|on\s+call|off|"
    r"out|abroad)\b|^(?:my|our)\s+(?:[a-z]+\s+){1,2}?(?:is|are)\s+(?:ill|sick|sore|off|away|"
    r"broken|down)\b"
)
_BAD_NOW = icase(rf"^(?:I|we){_BE_OR_FEEL}\s+{_INTENSIFIER}(?P<word>[a-z]+)\W*$")


def reads_plural(word: str) -> bool:
    """Whether ``word`` reads as a plural ("sessions", not "class")."""
    low = word.lower()
    return low.endswith("s") and not low.endswith(("ss", "'s"))


def _bad_feeling(m: re.Match[str]) -> bool:
    """Whether the matched feeling is a bad one: a word VADER rates negative, or a
    mood (a noun of feeling in WordNet, "in a foul mood")."""
    if m.group("noun"):
        return first_class(m.group("noun")) == "feeling"
    return valence(m.group("word")) < 0


def feeling_of_the_day(clause: str) -> bool:
    """Whether ``clause`` is the speaker's bad feeling and nothing more ("I'm exhausted",
    "I feel awful today"): read with the times of its sentence by :mod:`.passing`."""
    m = _FEELING.search(clause.strip())
    return m is not None and not _REASON.match(m.group("rest")) and _bad_feeling(m)


def feeling_of_one_event(clause: str) -> bool:
    """Whether ``clause`` is the speaker's bad feeling with a reason in the past ("I'm
    upset because my cake collapsed", "I'm in a bad mood because my train was cancelled")."""
    m = _FEELING.search(clause.strip())
    if m is None or not _bad_feeling(m):
        return False
    reason = _REASON.match(m.group("rest"))
    return reason is not None and _PAST.search(reason.group("reason")) is not None


def choice_offered_now(clause: str) -> bool:
    """Whether ``clause`` picks one of the options offered now ("I'd rather the morning
    appointment"), not a kind ("I'd rather the early sessions")."""
    if _AMONG_OFFERED.search(clause):
        return True  # "Between the two, I prefer the shorter route"
    m = _RATHER_THE.search(clause)
    if m is None:
        return False
    np = m.group("np")
    head = np.split()[-1].lower()
    return (
        not any(reads_plural(w) for w in np.split())
        and not head.endswith("'s")
        and _VERBISH.search(np) is None
    )


def excused_event(clause: str, sentence: str) -> bool:
    """Whether ``clause`` holds the refusal of an excuse for one event said in
    ``sentence`` ("I can't make the bake sale because I'm working", "I won't make the
    trip, my car broke down"): the refusal and the whole sentence are the excuse, the
    reason's own clause is not."""
    said = clause.strip().rstrip(".!?;")
    for m in (*_EXCUSE.finditer(sentence), *_EXCUSE_DATED.finditer(sentence)):
        thing = m.groupdict().get("thing")
        if thing and reads_plural(thing.split()[-1]):
            continue  # a plural is a kind: "I can't do the stairs since I'm ..."
        if _of_the_moment(m.group("reason").strip()) and m.group("refusal") in said:
            return True
    return False


def _of_the_moment(reason: str) -> bool:
    """Whether the ``reason`` of an excuse is of the moment: the speaker busy now or
    holding one engagement, feeling bad, or a past event."""
    if _BUSY_NOW.match(reason) or _PAST.search(reason):
        return True
    engaged = _ENGAGED.match(reason)
    if engaged and first_class(engaged.group("noun")) in _ENGAGEMENTS:
        return True  # "because I have a deadline"
    bad = _BAD_NOW.match(reason)
    return bad is not None and valence(bad.group("word")) < 0
