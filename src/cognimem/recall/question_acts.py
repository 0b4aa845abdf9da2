"""The grammar of a question about someone's act (pure): whether a question's words of
choosing or planning tell of a person's act, past or planned, rather than ask for a
decision of the user's (``requests``), and whether it asks of one event by another
said before or after it (``AROUND_EVENT``). ``recall/analyze.py``'s rules use both."""

from __future__ import annotations

import re

__all__ = ["AROUND_EVENT", "ASKS_OF_AN_ACT", "requests"]

# a question about what someone did, or does, or would do ("when did Kofi plan to ...",
# "how long did it take her to ...", "what book is Lena reading?", "why did Tom choose
# ..."): its "plan", "book", "choose" or "advice" tell of that person's act, so it asks
# to recall it, not for a decision of the user's. The sentence opens with a question
# word (a few words may follow it) or with the auxiliary itself, and the auxiliary is in
# the past or has a third person after it (no modal or first or second person before it:
# "what should I do Friday?" is a request)
_THIRD = r"(?:(?!I\b)(?-i:[A-Z])[\w'-]*|he|she|they|his|her|their|its?)\b"
ASKS_OF_AN_ACT = re.compile(
    r"^\W*(?:(?:when|what|which|where|who|whose|why|how)\b(?:\s+(?!(?:should|shall|can|"
    r"could|will|would|must|may|might|to|i|we|you)\b)[\w'-]+){0,4}?\s+)?"
    r"(?:(?:did|was|were|had)\b|(?:does|do|is|are|has|have|would|might)\s+" + _THIRD + ")",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.?!]+[.?!]*")


def requests(query: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` is said in a sentence of ``query`` that is not a question
    about someone's act (``ASKS_OF_AN_ACT``)."""
    return any(
        pattern.search(s.group(0)) and not ASKS_OF_AN_ACT.match(s.group(0))
        for s in _SENTENCE.finditer(query)
    )


# one event of several asked of by another said before or after it: "which city was she
# in before she flew to Oslo?", "where did he go after his trip?", "did they move before
# the wedding?" (a clause, a gerund, a name or a determined noun follows "before" or
# "after": "which bus did I take after lunch?" names no event). "What did she realise
# after the race?" asks what the event brought, not which of several came next
AROUND_EVENT = re.compile(
    r"(?:^\W*(?:did|had|was|were|has|have)\b|\b(?:which|where)\b).*\b(?:before|after)"
    r"\s+(?:(?:he|she|they|i|we|you|it)\b|[\w'-]+ing\b|(?:his|her|their|my|our|your|the|a|"
    r"an)\s|(?!I\b)(?-i:[A-Z]))",
    re.IGNORECASE,
)
