"""A named person's statement read as the speaker's own: "Linda has pneumonia" is read
as "I have pneumonia", and what that states is about Linda.

Most detectors know the speaker's wording ("I'm allergic to sesame", "I don't eat
beef"); a sentence about a third person says the same thing with the person's name
and the verb in the third person. :func:`as_first_person` rewrites such a sentence, so
the reader can read it with the same detectors and give the facts to the person.

Only a plain statement is rewritten: the sentence opens with the person's name
(after "my sister", "my boss" and the like, the speaker's hedge: "I think Sam ...",
kept so the facts are hedged, or a discourse marker or fronted time: "Oh and Sam ...",
"Last year Sam ...", kept too), or with a relative left unnamed ("My wife is allergic
to shellfish": the subject is the relation, "wife"; the verb follows the relation at
once, so "My sister Ana ..." is Ana's), and a verb that is not one of reporting,
thinking or wishing ("Sarah said ...", "Sarah thinks ...": what someone says is not a
fact about them; but "Jake wants to be a pilot" is his goal), and it says nothing of
the speaker ("I", "my", "we" ...). Two forms are said in the speaker's words another
way: their job ("Olga's new job at Fabrikam ...": "My new job at Fabrikam ...") and
the person with a relative ("Ines and Ines's husband live in ...": "My husband and I
live in ..."). Whether the name is a person is the caller's evidence (the
conversation named them as one).
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.patterns import MODS, NAME, REL, icase

__all__ = ["FRONT", "FirstPerson", "as_first_person"]

# the speaker's hedge before it ("I think Sam lives in Leeds"): kept, so the facts read
# are hedged as the speaker's own would be
_HEDGE = icase(
    r"^(?:I think|I guess|I suppose|I'm pretty sure|I'm fairly sure|pretty sure)"
    r"(?: that)?,?\s+"
)
# what may stand before the person's name and is kept in what is read: a discourse
# marker ("Oh and", "Anyway,", "Btw") or a fronted time ("Last year", "After college",
# "These days", "Since March"); never a condition ("If", "When"), which a gate reads
_MARKER = r"(?:oh,? and|and also|by the way|oh|and|also|anyway|btw|plus|so|well)"
_MONTH = (
    r"(?-i:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
)
_FRONT_TIME = (
    rf"(?:(?:after|before|since|in|during|over|back in|by|last|this|next|these|those|every|"
    rf"each)(?:\s+(?:(?-i:[a-z0-9'-]+)|{_MONTH})){{1,3}}|yesterday|today|recently|lately|now|"
    rf"nowadays|eventually)"
)
FRONT = icase(rf"^(?:{_MARKER}\s*,?\s+)?(?:{_FRONT_TIME}\s*,?\s+)?")
_ADVERB = (
    r"just|also|still|really|now|always|usually|finally|recently|already|currently|"
    r"actually|officially"
)
_LEAD = icase(
    rf"^(?:my\s+{MODS}(?:{REL}|(?-i:[a-z]+))\s*,?\s+)?(?P<name>{NAME})\s*,?\s+"
    rf"(?P<adv>(?:(?:{_ADVERB})\s+)*)"
    r"(?P<verb>[a-z]+n't|[a-z]+|'s)(?![\w'])(?P<rest>.*)$"
)
# a relative left unnamed: "My wife is allergic to shellfish", "My boss grew up in Lagos"
# (the subject is the relation: ``vocabulary.RELATIONS``)
_UNNAMED = icase(
    rf"^my\s+{MODS}(?P<rel>{REL})\s+"
    rf"(?P<adv>(?:(?:{_ADVERB})\s+)*)"
    r"(?P<verb>(?-i:[a-z]+n't|[a-z]+)|'s)(?![\w'])(?P<rest>.*)$"
)
# verbs after which the rest is what the person says, thinks or wants, not a fact
_NOT_STATING = frozenset(
    [
        "said", "says", "told", "tells", "thinks", "thought", "claims", "claimed", "believes",
        "believed", "reckons", "reckoned", "heard", "hears", "mentioned", "mentions", "asked",
        "asks", "wonders", "wondered", "wants", "wanted", "wishes", "wished", "hopes", "hoped",
        "swears", "swore", "insists", "insisted", "joked", "jokes", "might", "may", "could",
        "would", "should", "will", "can",
    ]
)  # fmt: skip
# ... except a career wanted, a goal of theirs: "Jake wants to be a pilot"
_CAREER = icase(r"\s+to\s+(?:be|become)\s+an?\s+\w")
# a job said of the person by "her": "Her new job at Fabrikam", "his job as a nurse"
_WORK_NOUN = icase(
    r"\s+(?:(?:new|current|old|last|previous|former|first|day|full-time|part-time|"
    r"summer)\s+)?(?:job|internship)\s+(?:at|with|as)\b"
)
# "... and her husband": the two of them
_AND_MINE = icase(rf"\s+my\s+(?P<who>(?:{REL}|family|kids|children|parents))\s+(?P<tail>\S.*)$")
_SPEAKER = icase(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|us|our|ours)\b")
_IRREGULAR = {
    "is": "am", "isn't": "am not", "'s": "am", "has": "have", "hasn't": "haven't",
    "does": "do", "doesn't": "don't", "was": "was", "wasn't": "wasn't", "goes": "go",
}  # fmt: skip


class FirstPerson:
    """A sentence about ``name`` said as the speaker's own (``text``); ``relative`` is
    the word said when ``name`` is an unnamed relative's relation ("mum": "mother")."""

    __slots__ = ("name", "relative", "text")

    def __init__(self, name: str, text: str, relative: str | None = None) -> None:
        self.name = name
        self.text = text
        self.relative = relative


# "Ines's been ...", "Ines's got ...": "'s" is "has" ("I have been")
_PERFECT_AFTER = re.compile(r"\s+(?:been|got|gotten)\b")
# "watches", "goes": the third person's "es" dropped for "I"
_ES_AFTER_SIBILANT = re.compile(r"(?:ch|sh|ss|x|z|o)es$")


def as_first_person(sentence: str) -> FirstPerson | None:
    """``sentence`` about the person it opens with, said by them; ``None`` when it is
    not a plain statement about a named person (see the module docstring)."""
    sentence = sentence.strip()
    hedge = _HEDGE.match(sentence) if sentence[:1] in "IiPp" else None
    lead = hedge.group(0) if hedge else ""
    front = FRONT.match(sentence[len(lead) :])
    if front is not None:
        lead += front.group(0)
    m = _UNNAMED.match(sentence[len(lead) :])
    relative = m.group("rel").lower() if m else None
    m = m or _LEAD.match(sentence[len(lead) :])
    if m is None:
        return None
    verb, rest = m.group("verb").lower(), m.group("rest")
    name = vocab.RELATIONS[relative] if relative else m.group("name")
    mine = "my" if lead else "My"
    if relative is None and name.endswith("'s"):
        # "Olga's new job at Fabrikam ...": "My new job at Fabrikam ..."; but "Ines's dog
        # ..." is about the dog
        after = sentence[len(lead) + m.end("name") :]
        if _WORK_NOUN.match(after) is None or _SPEAKER.search(after):
            return None
        return FirstPerson(name[:-2], f"{lead}{mine}{after}")
    if (verb in _NOT_STATING and not _CAREER.match(rest)) or _SPEAKER.search(rest):
        return None
    if verb == "'s" and _PERFECT_AFTER.match(rest):
        first = "have"
    elif verb in _IRREGULAR:
        first = _IRREGULAR[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        first = verb[:-3] + "y"
    elif _ES_AFTER_SIBILANT.search(verb):
        first = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        first = verb[:-1]
    else:
        first = verb  # a past form is the same for "I"
    adverb = m.group("adv") or ""
    # "Frank broke Frank's hip" (what "He broke his hip" resolves to): "I broke my hip"
    rest = re.sub(rf"\b{re.escape(name)}'s\b", "my", rest)
    if verb == "and":  # "Ines and Ines's husband live in Galway": "My husband and I live ..."
        pair = _AND_MINE.match(rest)
        if pair is None:
            return None
        said = f"{lead}{mine} {pair.group('who')} and I {pair.group('tail')}"
        return FirstPerson(name, said, relative)
    return FirstPerson(name, f"{lead}I {adverb}{first}{rest}", relative)
