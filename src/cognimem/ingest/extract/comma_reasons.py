"""A reason said after a bare comma (or a purpose with "so I can"), read for
:mod:`.detect_choices`: "I'd rather not buy wool, it makes me itch", "I tend to avoid
chain restaurants, the food all tastes the same", "Roses aren't for me, too much fuss".

Chat English often gives a stance's reason as a clause of its own after a comma, with no
"because". Such a clause is not part of the stance's object (:func:`cut_reason`). It is
kept as the stance's cause (:func:`gives_comma_reason`) when it is the sentence's last
clause, comes after the object and says the thing's effect on the speaker ("it makes me
itch", "I get nightmares") or judges its degree ("too much fuss"); "the food all tastes
the same" is cut from the object but kept as no cause. A clause is told by its grammar: a
subject (a pronoun, or a noun phrase of at most three words) and then a verb in the
present or a copula, or a verbless judgement of degree ("too much fuss", "not worth
it"); a comment on what was said ("I promise", "that's for sure") is none. A list ("X, Y
or Z") has no verb after its items and stays whole.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated, icase

__all__ = ["cut_reason", "gives_comma_reason"]

# a noun subject, then a verb in the present or a copula: ", the food all tastes the same",
# ", mornings are rushed"; a pronoun subject, then any verb: ", they make my heart race",
# ", I get nightmares"; a verbless judgement: ", too much fuss"
_NOUN_CLAUSE = (
    r"(?:(?:the|my|our|this|that|these|those|most|all|every|each)\s+)?[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*){0,2}?\s+(?:(?:all|always|just|never|really|usually|often|still)\s+)?"
    r"(?:is|are|isn't|aren't|'s|'re|was|were|wasn't|weren't|has|have|hasn't|haven't|does|"
    r"doesn't|do|don't|can't|won't|tastes?|makes?|gives?|gets?|feels?|looks?|seems?|smells?|"
    r"sounds?|takes?|costs?|hurts?|upsets?|ruins?|leaves?|keeps?|drives?|goes|ends?)\b"
)
_PRONOUN_CLAUSE = (
    r"(?:it|they|that|these|those|I|we|he|she)(?:'s|'re|'m|'d|'ll|'ve|\s+(?!(?:and|or|but)\b)"
    r"[a-z']+)\b"
)
_DEGREE = r"(?:(?:way|far|much|just|simply)\s+)?(?:too\s+(?:much|many|[a-z]+)|not\s+worth)\b"
# not a reason: another clause joined on, a question, thanks, a comment on what was said
# ("I promise", "that's for sure", "you know", "I think") or the alternative chosen
_NOT_A_REASON = (
    r"(?!(?:and|or|but|so|then|what|which|who|where|when|how|why|can|could|would|should|is|"
    r"are|do|does|any|please|thanks|thank|ok|okay|though|especially|etc|you\s+know|that's\s+"
    r"(?:for\s+sure|a\s+fact|the\s+truth)|(?:I|we)\s+(?:promise|swear|think|guess|mean|know|"
    r"hope|bet|suppose|reckon|admit|agree|believe|must\s+say|have\s+to\s+say)|"
    # the alternative chosen instead, a second stance: ", I'd rather go solo"
    r"(?:I|we)(?:'d|\s+would)?\s+(?:(?:much|just|really|only|always)\s+)*(?:rather|prefer|"
    r"stick|avoid|keep|go\s+for|won't))\b)"
)
_AFTER_COMMA = icase(
    rf",\s+{_NOT_A_REASON}(?P<clause>(?:{_PRONOUN_CLAUSE}|{_NOUN_CLAUSE}|{_DEGREE})[^,;]*)"
    r"[.!]*\s*$"
)
# a purpose after the object, with no comma: "an apartment with a kitchen so I can cook"
# (after a comma, "so" brings a result: "I hate driving, so I take the train")
_PURPOSE = gated(
    r"(?<!,)\s+so\s+(?:that\s+)?(?:I|we)\s+(?:can|can't|could|don't|won't|never|always|get|have)\b"
    r"[^,;]*[.!]*\s*$"
)
# a cause is kept for its effect on the speaker ("it makes me itch", "I get nightmares")
# or as a judgement of degree ("too much fuss")
# (the speaker as the clause's subject or its verb's object, within its first words: not
# in a relative clause, "it's the only sport I stick with")
_SPEAKER = icase(r"^(?:[\w']+\s+){0,3}?(?:I|I'm|I've|I'd|me|my|we|we're|us|our)\b")
_DEGREE_HEAD = icase(_DEGREE)
# for cutting an object: only the clauses the stance reader's own split does not cut
# (it cuts a pronoun subject already)
_NOUN_AFTER_COMMA = icase(rf",\s+{_NOT_A_REASON}(?:{_NOUN_CLAUSE}|{_DEGREE})[^,;]*$")


def cut_reason(obj: str) -> str:
    """``obj`` without a reason clause after its last comma ("chain restaurants, the food
    all tastes the same" is "chain restaurants")."""
    if "," not in obj:
        return obj
    m = _NOUN_AFTER_COMMA.search(obj)
    return obj[: m.start()].rstrip() if m else obj


def gives_comma_reason(text: str, values: list[str]) -> bool:
    """Whether the sentence ``text`` ends on a reason after a bare comma, or on a purpose
    ("... so I can cook"), that follows the object of one of the stances read as
    ``values``: a clause with its effect on the speaker or a judgement of degree."""
    m = _AFTER_COMMA.search(text) if "," in text else None
    if m is not None and not (_SPEAKER.match(m["clause"]) or _DEGREE_HEAD.match(m["clause"])):
        m = None  # ", the food all tastes the same": no effect on the speaker said
    m = m or _PURPOSE.search(text)
    if m is None:
        return False
    low = text.lower()
    return any(0 <= low.find(v[:12].lower()) < m.start() for v in values if v)
