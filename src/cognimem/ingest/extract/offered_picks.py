"""A pick among the options offered now, said as what the speaker would do or will do
("I'd go for the direct flight", "I'll take the oak one", "Let's do the half-past ten
one"): a reply to what the assistant just listed, read for :mod:`.passing`, so no
standing constraint is kept from it.

The form is structural, not a list of verbs: the speaker, a modal of this reply ("'d",
"would", "'ll", "will") or "let's", one verb (with a particle: "go for", "go with"),
then a definite noun phrase that ends the clause ("the chocolate cake", "the seated
tickets", "the blue one"). The definite article points at a thing in front of the
speaker; a standing choice names a kind ("I'd go for vegetarian options") or says how
often ("I always go for an aisle seat", "I'd go for the window every time"). Not a
negation ("I'd never take the night bus" is a stance), not a comparison that ranks one
kind above another ("I'd take the train over the plane"), and not "rather": "I'd rather
the ..." is :func:`.one_off_forms.choice_offered_now`'s.

A stance of any mood is on one offered thing when its object points at it: "this one"
or "that one" at the end of the clause (the pro-form "one" stands for a thing just
named; not "that one friend who ..."), "the first", "the second one" or "the second
option" at the end of the clause (a place in a list just given), or a thing the
assistant gave ("the recipe you suggested", "the second blend you mentioned"). Not with
a word of how often ("I never order that one"); :mod:`.passing` asks neither this
reader nor the next of a clause said with "again" or "anymore" (every repeat of it).

A reply that takes an offer and turns down one definite part of it ("Fine, but I don't
want the early train", "Sounds good, but not the ferry"): a short reply with no speaker
in it that VADER rates as assent ("fine", "sounds good", "okay"), "but" or "though", and
a stance whose object is "the" and a singular noun. Not a kind ("Sounds good, but I don't
eat anything with almonds"), not a plural ("... but I avoid the motorways").
"""

from __future__ import annotations

from cognimem.ingest.extract.one_off_forms import reads_plural
from cognimem.ingest.extract.patterns import IRREGULAR_PAST, NOT_PAST_ED, icase
from cognimem.text.told import tells_a_habit
from cognimem.text.valence import valence

__all__ = ["pick_of_an_offer", "points_at_an_offer", "turns_down_part_of_an_offer"]

_COURTESY = r"(?:please|thanks|thank\s+you|for\s+me|then|I\s+think)"
# the speaker's modal of this reply, or "let's", one verb and its particle, then "the"
# and a noun phrase of up to four words that ends the clause
_PICK = icase(
    r"\b(?:(?:I|we)(?:'d|'ll|\s+would|\s+will)|let's|let\s+us)\s+"
    r"(?:(?:just|probably|definitely|also|happily)\s+)?"
    r"(?!(?:not|never|rather|always|usually|normally|generally|only|love|like|hate|have\s+to|"
    r"need|want|be|have\s+been)\b)[a-z]+(?:\s+(?:for|with))?\s+the\s+"
    r"(?P<np>(?:[a-z-]+\s+){0,3}?[a-z-]+)"
    rf"\s*(?:,\s*{_COURTESY}|\s+{_COURTESY})?\s*(?:[.!?]|$)"
)
# words that make the pick a standing one: a ranking of kinds, how often, or "still"
_STANDING = icase(
    r"\b(?:over|rather\s+than|instead\s+of|any\s+day|every\s+time|whenever|ever|never|"
    r"always|usually|generally|still)\b"
)

# one thing pointed at, ending its clause: "this one", "that one" (not "ones", a kind,
# nor "that one friend who ...")
_ONE = icase(rf"\b(?:this|that)\s+one(?=\s*(?:[,;.!?]|$)|\s+{_COURTESY}\W*$)")
# a place in a list just given, at the end of the clause: "I prefer the first one", "not
# keen on the second option" (not "the last minute", a time)
_PLACE_IN_LIST = icase(
    r"\bthe\s+(?:(?:first|second|third|fourth|fifth|latter|former|other)(?:\s+[a-z-]+)?|"
    rf"last(?:\s+one)?)\s*(?:,\s*{_COURTESY}|\s+{_COURTESY})?\s*(?:[.!?]|$)"
)
# a thing the assistant gave, named right before: "the recipe you suggested", "the list
# you've sent" (not "like you mentioned", an aside, nor "you've got", a having)
_YOU_GAVE = icase(
    r"\b(?:the|that|this)\s+(?:[a-z-]+\s+){0,3}?[a-z-]+\s+(?:that\s+|which\s+)?"
    r"you(?:'ve|\s+have)?\s+(?:just\s+)?"
    rf"(?!got\b)(?:{IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)(?![\w'])"
)
# where a sentence kept whole goes on past its stance, to a reason or a contrast
_REASON_ON = icase(r"\s*[,;]|\s+(?:because|since|as|so|but|cause|cuz)\b")

# a short reply with no speaker in it, then "but" or "though": "Fine, but", "Sounds good,
# but"
_REPLY_BUT = icase(
    r"(?:^|[.!?]\s+)\W*(?P<reply>(?:[a-z']+\s+){0,2}[a-z']+)\s*[,;]?\s*(?:but|though)\s+"
    r"(?P<rest>[^.!?]*)"
)
_SPEAKER = icase(r"\b(?:I|we|my|our|me|us|I'm|I've|I'd)\b")


def turns_down_part_of_an_offer(sentence: str, value: str) -> bool:
    """Whether ``sentence`` takes an offer and turns down one definite part of it, the
    stance's object ``value`` ("Fine, but I don't want the early train"; see the module
    docstring)."""
    obj = value.strip().casefold()
    for m in _REPLY_BUT.finditer(sentence):
        reply, rest = m.group("reply"), m.group("rest")
        if _SPEAKER.search(reply) or not any(valence(w) > 0 for w in reply.split()):
            continue
        at = rest.casefold().find(obj)
        if at < 0 or _STANDING.search(rest):
            continue
        head = obj.split()[-1] if obj.split() else ""
        if rest[:at].casefold().endswith("the ") and not reads_plural(head):
            return True
    return False


def points_at_an_offer(clause: str, value: str) -> bool:
    """Whether ``clause`` takes a stance on one thing offered now ("not the spicy one",
    "I prefer the first one", "the blend you mentioned"; see the module docstring): the
    pointer is in the stance's object ``value``, not in a reason beside it ("I take the
    earlier train because the later one is packed")."""
    said = clause.strip()
    if _STANDING.search(said) or tells_a_habit(said):
        return False
    obj = _REASON_ON.split(value.strip(), maxsplit=1)[0]
    start = said.casefold().find(obj.casefold())
    if start < 0:
        return False
    end = start + len(obj)
    return any(
        m.end() > start and m.start() < end
        for p in (_ONE, _PLACE_IN_LIST, _YOU_GAVE)
        for m in p.finditer(said)
    )


def pick_of_an_offer(clause: str) -> bool:
    """Whether ``clause`` picks one of the options offered now with a modal of this
    reply ("I'd go for the direct flight", "I'll take the oak one"; see the module
    docstring)."""
    said = clause.strip()
    return (
        _PICK.search(said) is not None
        and _STANDING.search(said) is None
        and not tells_a_habit(said)
    )
