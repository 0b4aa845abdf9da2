"""A stance said with its object first, read for :mod:`.detect_choices`: "X isn't my
scene", "X was never my thing", "X is a hard no from me", "X are banned in this house",
"X drives me up the wall", "X or nothing", "Nothing but X for me", "I wear nothing but
X" (only "wear X"; not "I did nothing but sleep" or "I feel nothing but relief"), "X is
a definite no", "X is out for me", "X leave me cold", "The only X I buy is Y", "Y is
the only X I buy", "Only X for me", "X only for me" (an "I" inside a relative clause of
the object is not its subject) — also after a reason said first ("Because of my back,
X is out of the question") or, tried last, after a conjunction or a comma ("I'm not a
big drinker so pubs aren't really my thing").
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.clauses import after_conjunctions
from cognimem.ingest.extract.habit_verbs import present_verb
from cognimem.ingest.extract.patterns import HAS_SPEAKER, THING_FIRST, gated, icase
from cognimem.ingest.extract.stance_forms import without_reason_lead
from cognimem.text.literals import Gated

__all__ = ["object_first"]

# the object first: "X isn't my thing", "X is a must for me"
_OBJECT_AGAINST = gated(
    r"^(?P<rest>[a-z][\w' ,&-]{1,80}?)(?:(?:\s+(?:isn't|aren't|is not|are not|was never|"
    r"were never)|'s not|'re not)\s+"
    r"(?:really\s+|just\s+|at all\s+|exactly\s+)?(?:(?:my|our)\s+(?:thing|style|scene|cup of "
    r"tea|kind of thing|sort of thing|vibe|jam|bag|idea of fun|forte)|for\s+(?:me|us)|an option"
    r"(?:\s+for\s+(?:me|us))?)|\s+(?:is|are)\s+(?:an?\s+)?(?:no-go|no go|dealbreaker|"
    r"deal-breaker|hard pass|off-limits|off limits|off the table|out of the question)|"
    # "X is a definite no", "X are a no because ...", "X is out for me", "X leave me cold"
    r"\s+(?:is|are)\s+an?\s+(?:(?:hard|big|definite|absolute|firm|total|flat|straight)\s+)?no"
    r"(?=\s*[.!]*$|\s*,?\s+(?:because|since|as|for\s+(?:me|us))\b)|\s+(?:leaves?|left)\s+(?:me|us)\s+"
    r"cold|"
    r"\s+(?:is|are)\s+(?:(?:just|definitely|totally)\s+)?(?:out|off the menu)\s+for\s+(?:me|us)|"
    # "X is a hard no from me", "X are a no for us"
    r"\s+(?:is|are)\s+(?:an?\s+)?(?:(?:hard|big|definite|absolute|firm|total|flat|straight)\s+)?"
    r"no\s+(?:from|for)\s+(?:me|us)|"
    # "X are banned in this house"
    r"\s+(?:is|are)\s+(?:(?:totally|completely|strictly)\s+)?(?:banned|forbidden)|"
    r"\s+(?:bores?|bored)\s+(?:me|us)|\s+(?:don't|doesn't)\s+(?:really\s+)?"
    r"(?:work|agree|sit well)\s+(?:for|with)\s+(?:me|us))\b",
    gate_match=True,
)
# what the speaker can't abide said by its effect on them: "Open-plan offices drive me
# round the bend" (not "my husband drives me mad": a person, not a stance)
_DRIVES_ME = icase(
    r"^(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you)\b)(?P<rest>[a-z][\w' ,&-]"
    r"{1,80}?)\s+(?:really\s+)?(?:drives?|sends?)\s+me\s+(?:mad|crazy|nuts|insane|bonkers|up "
    r"the wall|round the bend|around the bend|round the twist|spare)\b"
)
# an exclusive choice said by its alternative: "loose-leaf tea or nothing"
_OR_NOTHING = icase(r"^(?P<rest>[a-z][\w' ,&-]{1,60}?)\s+or\s+nothing\s*[.!]*$")
# "Nothing but X for me", and said with the speaker's verb: "I wear nothing but X", "We
# give the kids nothing but X" (the verb and any other object kept: "give the kids X")
_NOTHING_BUT = icase(
    r"^(?:(?:I|we)\s+(?:(?:just|really|usually|generally|pretty\s+much)\s+)*(?P<verb>[a-z]+)\s+"
    r"(?P<who>(?:(?!nothing\b)[\w']+\s+){0,2}?))?nothing\s+but\s+(?P<rest>[\w' ,&-]{2,60}?)"
    r"(?:\s+for\s+(?:me|us))?\s*[.!]*$"
)
# "Only natural remedies for me", "The only bread I buy is sourdough"
_ONLY_FOR_ME = icase(r"^only\s+(?P<rest>[\w' ,&-]{2,60}?)\s+for\s+(?:me|us)\b")
_THE_ONLY = icase(
    r"^the\s+only\s+(?P<kind>[\w' -]{2,40}?)\s+(?:that\s+)?(?:I|we)\s+(?:(?:ever|really|will|"
    r"'ll)\s+)*(?P<verb>[a-z]+)\s+(?:is|are|'s)\s+(?P<rest>(?!(?:the|this|that|my|our)\b)"
    r"[\w' &-]{2,60})"
)
# "Dark rye is the only bread I buy": the object said first, then the kind it is the
# only one of (someone else's "My son's ..." is no stance of the speaker's)
_ONLY_ONE = icase(
    r"^(?P<rest>(?!(?:it|that|this|these|those|he|she|they|there|which|what|my\s+\w+'s)\b)"
    r"[a-z][\w' &-]{1,60}?)\s+(?:is|are|'s|'re)\s+the\s+only\s+(?P<kind>[\w' -]{2,40}?)\s+"
    r"(?:that\s+)?(?:I|we)\s+(?:(?:ever|really|will|'ll)\s+)*(?P<verb>[a-z]+)\s*[.!]*$"
)
# a relative clause in the object ("Big parties where I don't know anyone"): its "I" is
# not the subject of the stance
_RELATIVE = icase(r"\s+(?:where|that|who|which|when)\s.*$")
# "Cash only for me", "Hostels only for us"
_ONLY_AFTER = icase(rf"{THING_FIRST}\s+only\s+for\s+(?:me|us)\b")
# a "no" said of an answer or a vote is no stance: "The answer is a definite no"
_ANSWER = icase(r"\b(?:answer|reply|response|verdict|decision|vote)\b")
_DRIVE_WORDS = frozenset({"drive", "drives", "send", "sends"})


def object_first(
    said: str, words: frozenset[str], *, later: bool = False
) -> tuple[str, bool] | None:
    """A stance said with its object first ("X isn't my scene", "X drives me up the
    wall", "X or nothing"): the object and whether the speaker is for it (then only for
    it)."""
    said = without_reason_lead(said)  # "Because of my back, X is out of the question"
    patterns: list[re.Pattern[str] | Gated] = [_OBJECT_AGAINST]
    if not _DRIVE_WORDS.isdisjoint(words):
        patterns.append(_DRIVES_ME)
    # ``later``: after a conjunction ("I'm not a big drinker so pubs aren't my thing")
    starts = after_conjunctions(said) if later else [said]
    for pattern in patterns:
        for start in starts:
            m = pattern.match(start)
            rest = m.group("rest") if m else ""
            if m and not HAS_SPEAKER.search(_RELATIVE.sub("", rest)) and not _ANSWER.search(rest):
                return rest, False
    if "nothing" in words and (but := _nothing_but(said)) is not None:
        return but, True
    m = _OR_NOTHING.match(said) if "nothing" in words else None
    m = m or (_ONLY_AFTER.match(said) if "only" in words else None)
    if m and not HAS_SPEAKER.search(m.group("rest")):
        return m.group("rest"), True
    if "only" not in words:
        return None
    m = _THE_ONLY.match(said) or _ONLY_ONE.match(said)
    if m is not None:  # "only buy sourdough", and what it is when the object does not say
        kind, rest = m.group("kind"), m.group("rest")
        said_kind = kind.split()[-1].lower() in rest.lower()
        return f"{m.group('verb')} {rest}{'' if said_kind else f' for {kind}'}", True
    m = _ONLY_FOR_ME.match(said)
    return (m.group("rest"), True) if m else None


def _nothing_but(said: str) -> str | None:
    """The one thing taken, said by "nothing but" ("Nothing but X for me": X; "I wear
    nothing but X": "wear X"), or ``None`` (also for a past or a verb of the mind: "I
    did nothing but sleep", "I feel nothing but relief")."""
    m = _NOTHING_BUT.match(said)
    if m is None or HAS_SPEAKER.search(m["rest"]):
        return None
    verb = m["verb"]
    if verb is None:
        return m["rest"]
    return f"{verb} {m['who']}{m['rest']}" if present_verb(verb) else None
