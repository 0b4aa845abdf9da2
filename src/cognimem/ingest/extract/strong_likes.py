"""A strong like, read for :mod:`.detect_choices`: what the speaker says they are drawn to
with more than a plain "like" — "I adore X", "I absolutely love X", "I really enjoy X",
"I truly like X", "I'm a big fan of X", "I'm a sucker for X", "I can't get enough of
X", "I'm mad about X", "I'm really into X", "I'm a huge X fan", "X is my thing".

The preference detector reads such a sentence into a ``preference`` fact in a domain
("cuisine" = "Ethiopian"), and only when it knows the domain. A strong like also bears
on later requests the way a choice does ("I prefer X"): someone who says they adore a
cuisine wants it weighed when they ask where to eat. So it is read here too, with its
whole object, into a ``policy`` fact for it, beside the preference.

Not a strong like: a plain "love", "like" or "enjoy" with no intensifier; a wish
("I'd love to ..."); what is loved of the conversation or of someone ("I love that", "I
love how you ...", "I love your painting", "I love it when ..."), of the speaker's own
("I love my job") or a person by name ("I love Sarah"); a like of the past ("I used to
love ...": the clause's flag says it no longer holds). Nothing here names a topic: the
markers are the verbs and idioms of liking, and English function words.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.phrases import join_adjectives
from cognimem.ingest.extract.vocabulary import CONTEXT_PHRASES
from cognimem.text.gazetteer import is_first_name
from cognimem.text.tokens import tokens, words

__all__ = ["liked_object", "names_a_thing", "strong_like"]

# an intensifier before the verb: "I absolutely love", "I really do love"
_MORE = (
    r"(?:(?:absolutely|really|truly|just|so|totally|genuinely|simply|seriously|honestly|"
    r"positively|utterly|completely|deeply|madly|still|also|do|always|have\s+always|"
    r"(?:have\s+)?(?:always\s+)?been)\s+)"
)
# what makes "like" or "enjoy" a strong like: "I really enjoy X", "I truly like X" (not
# said against an alternative, "I really like X rather than Y": :mod:`.like_forms`)
_KEEN = (
    r"(?:(?:really|truly|genuinely|absolutely|thoroughly|particularly|especially|"
    r"(?:very\s+)?much|do)\s+)"
)
_SUBJECT = r"(?:I|we)\s+"
_BE = r"(?:I'm|we're|I am|we are|I've\s+(?:always\s+)?been|we've\s+(?:always\s+)?been)\s+"
# "mad about" is a love ("mad about old jazz") unless it is anger at an occasion ("mad
# about the delay", "mad about losing my keys")
_MAD = (
    r"mad\s+about(?!\s+(?:the|that|this|it|what|how|losing|being|having|getting|missing|"
    r"not)\b)"
)
_FAN = r"(?:an?\s+)?(?:(?:big|huge|massive|great|total|real|true|die-?hard|enormous|avid)\s+)?"
_LIKE = gated(
    rf"^(?:{_SUBJECT}(?P<love>{_MORE}*(?:adore|can't get enough of|can never get enough of|"
    rf"never get tired of|never tire of)|{_MORE}+love(?:,?\s+love)*|love(?:,?\s+love)+|"
    rf"{_KEEN}+(?:enjoy|like)(?!.*\s(?:rather\s+than|instead\s+of|more\s+than|over)\s)|"
    rf"(?:have|'ve)\s+always\s+(?:really\s+)?loved)|"
    rf"(?:{_BE})?{_MORE}*(?P<be>{_FAN}fan\s+of|(?:an?\s+|such\s+an?\s+)?(?:(?:total|real|"
    rf"complete|huge|big)\s+)?sucker\s+for|{_MAD}|crazy\s+about|nuts\s+about|wild\s+about|"
    rf"obsessed\s+with|passionate\s+about|hooked\s+on|in\s+love\s+with|into))\s+(?P<rest>.+)",
    gate_match=True,
)
# "I'm a huge Star Wars fan", "we're big board game people"
_NOUN_FAN = gated(
    rf"^{_BE}{_MORE}*(?:an?\s+)?(?:(?:big|huge|massive|great|total|real|true|die-?hard|avid)"
    rf"\s+)(?P<rest>[\w' &-]+?)\s+(?:fan|lover|buff|fiend|junkie|nut|fanatic)s?\s*[.!]*$",
    gate_match=True,
)
# a favourite way to spend time: "favourite pastime", "favourite thing to do at weekends"
_FAVOURITE = (
    r"(?:all[- ]time\s+)?favou?rite\s+(?:\w+\s+){0,2}?(?:thing\s+to\s+do|way\s+to\s+[a-z]+"
    r"(?:\s+[a-z]+)?|pastime|activity|hobby)"
)
# "X is my thing", "X is totally my jam", "X are my weakness"
_MY_THING = gated(
    r"^(?P<rest>(?!(?:it|that|this|he|she|they|you|there)\b)[a-z][\w' ,&-]{1,80}?)\s+"
    r"(?:is|are|'s|'re)\s+(?:(?:really|totally|so|definitely|absolutely|just|very\s+much|"
    r"always\s+been)\s+)?(?:my|our)\s+(?:(?:(?:absolute|total|real)\s+)?"
    r"(?:thing|jam|weakness|guilty pleasure|happy place|passion)|"
    rf"{_FAVOURITE}|favou?rite\s+(?:\w+\s+){{0,2}}?(?:thing|kind\s+of\s+\w+))\b",
    gate_match=True,
)
# "my favourite way to unwind is X": what the speaker most likes doing
_FAVOURITE_FIRST = gated(
    rf"^(?:my|our)\s+{_FAVOURITE}(?:\s+(?!is\b|are\b)[\w']+){{0,3}}?\s+(?:is|are|has to be|'s)\s+"
    rf"(?P<rest>.+)",
    gate_match=True,
)
# what "love" and the like may not be the start of: the conversation, the listener, a
# person or the speaker's own ("I love that", "I love how ...", "I love my job")
_NOT_A_THING = frozenset(
    words(
        """it, that, this, these, those, them, him, her, you, your, yours, my, our, his,
        their, its, how, what, when, where, who, why, whatever, everything, everyone,
        everybody, seeing, hearing, being, having, getting, knowing, talking, chatting,
        reading your, each, to, the feeling, me, us"""
    )
) | frozenset(CONTEXT_PHRASES)
_LISTENER = frozenset(words("you, your, yours, ya, u"))
# a new clause after a conjunction: "dancing and it brings me joy", "X but I rarely go"
_NEW_CLAUSE = icase(r"\s+(?:and|but|so)\s+(?=(?:it|it's|I|I'm|I've|this|that|they|he|she|we)\b)")
# the rest of a list after its first comma: "X, Y and Z", "X, Y, or Z"
_LIST_REST = icase(
    r"^(?:\s*[\w'&-]+(?:\s+[\w'&-]+){0,3},)*\s*(?:and|or)?\s*[\w'&-]+(?:\s+[\w'&-]+){0,3}"
    r",?\s+(?:and|or)\s+[\w'&-]+(?:\s+[\w'&-]+){0,3}\s*[.!]*$"
)


def names_a_thing(rest: str) -> bool:
    """Whether the object names something lasting, not the conversation, the listener,
    a person by name or what is the speaker's own."""
    said = tokens(rest)
    if not said or said[0] in _NOT_A_THING or " ".join(said[:2]) in _NOT_A_THING:
        return False
    if not _LISTENER.isdisjoint(said):
        return False
    head = rest.split()[0].strip(",.!")
    return not (head[:1].isupper() and len(said) == 1 and is_first_name(head))


def strong_like(said: str) -> str | None:
    """The object of a strong like ``said`` with its subject ("I absolutely love native
    wildflowers, the messier the better" -> "native wildflowers, the messier the
    better": the caller cuts it to its whole object), or ``None``."""
    for pattern in (_LIKE, _NOUN_FAN, _MY_THING, _FAVOURITE_FIRST):
        m = pattern.match(said)
        if m is None:
            continue
        rest = m.group("rest")
        if pattern is _LIKE and m.group("love") and rest.lower().startswith("to "):
            rest = rest[3:]  # "I love to bake": baking is what is liked
        rest = liked_object(rest)
        return rest if names_a_thing(rest) else None
    return None


def liked_object(rest: str) -> str:
    """What follows a verb of liking, cut before a new clause: "X, the messier the
    better" and "X and it brings me joy" give X; a list ("X, Y and Z") is kept, and so
    are adjectives before their noun ("dense, sticky ginger cake")."""
    head, comma, tail = join_adjectives(rest).partition(",")
    if comma and not _LIST_REST.match(tail):
        rest = head  # "X, the messier the better": a new clause ends the object
    return _NEW_CLAUSE.split(rest, maxsplit=1)[0]  # "X and it brings me joy"
