"""A named person's statement read as the speaker's own: "Linda has pneumonia" is read
as "I have pneumonia", and what that states is about Linda.

Most detectors know the speaker's wording ("I'm allergic to sesame", "I don't eat
beef"); a sentence about a third person says the same thing with the person's name
and the verb in the third person. :func:`as_first_person` rewrites such a sentence, so
the reader can read it with the same detectors and give the facts to the person.

Only a plain statement is rewritten: the sentence opens with the person's name
(after "my sister", "my boss" and the like, or the speaker's hedge: "I think Sam ...",
kept so the facts are hedged) and a verb that is not one of reporting,
thinking or wishing ("Sarah said ...", "Sarah thinks ...": what someone says is not a
fact about them; but "Jake wants to be a pilot" is his goal), and it says nothing of
the speaker ("I", "my", "we" ...). Whether the name is a person is the caller's
evidence (the conversation named them as one).
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import MODS, NAME, REL, icase

__all__ = ["FirstPerson", "as_first_person"]

# the speaker's hedge before it ("I think Sam lives in Leeds"): kept, so the facts read
# are hedged as the speaker's own would be
_HEDGE = icase(
    r"^(?:I think|I guess|I suppose|I'm pretty sure|I'm fairly sure|pretty sure)"
    r"(?: that)?,?\s+"
)
_LEAD = icase(
    rf"^(?:my\s+{MODS}(?:{REL})\s*,?\s+)?(?P<name>{NAME})\s*,?\s+"
    r"(?:(?P<adv>just|also|still|really|now|always|usually|finally|recently|already)\s+)?"
    r"(?P<verb>[a-z]+n't|[a-z]+|'s)(?![\w'])(?P<rest>.*)$"
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
_SPEAKER = icase(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|us|our|ours)\b")
_IRREGULAR = {
    "is": "am", "isn't": "am not", "'s": "am", "has": "have", "hasn't": "haven't",
    "does": "do", "doesn't": "don't", "was": "was", "wasn't": "wasn't", "goes": "go",
}  # fmt: skip


class FirstPerson:
    """A sentence about ``name`` said as the speaker's own (``text``)."""

    __slots__ = ("name", "text")

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text


def as_first_person(sentence: str) -> FirstPerson | None:
    """``sentence`` about the person it opens with, said by them; ``None`` when it is
    not a plain statement about a named person (see the module docstring)."""
    sentence = sentence.strip()
    hedge = _HEDGE.match(sentence) if sentence[:1] in "IiPp" else None
    lead = hedge.group(0) if hedge else ""
    m = _LEAD.match(sentence[len(lead) :])
    if m is None:
        return None
    verb, rest = m.group("verb").lower(), m.group("rest")
    if m.group("name").endswith("'s"):
        return None  # "Ines's dog ...": about the dog
    if (verb in _NOT_STATING and not _CAREER.match(rest)) or _SPEAKER.search(rest):
        return None
    if verb == "'s" and re.match(r"\s+(?:been|got|gotten)\b", rest):
        first = "have"
    elif verb in _IRREGULAR:
        first = _IRREGULAR[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        first = verb[:-3] + "y"
    elif re.search(r"(?:ch|sh|ss|x|z|o)es$", verb):
        first = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        first = verb[:-1]
    else:
        first = verb  # a past form is the same for "I"
    adverb = f"{m.group('adv')} " if m.group("adv") else ""
    # "Frank broke Frank's hip" (what "He broke his hip" resolves to): "I broke my hip"
    rest = re.sub(rf"\b{re.escape(m.group('name'))}'s\b", "my", rest)
    return FirstPerson(m.group("name"), f"{lead}I {adverb}{first}{rest}")
