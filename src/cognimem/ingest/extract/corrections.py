"""A value the speaker corrects inside the sentence that says it: "I live in Leeds,
sorry, I mean Bradford", "I'm a teacher; well, a teaching assistant, to be precise",
"I moved there in 2019, no wait, 2018". A careful reader records only the corrected
value, so the sentence is read as if said right the first time ("I live in Bradford").

The correction follows a comma or a semicolon and a marker of repair: "sorry", "no
wait", "actually no", "or rather", "I mean(t)", "scratch that"; or a softer "well" /
"actually" whose correction ends on "actually", "really", "to be precise", "to be
exact" or "technically" ("well, Nick to everyone" is a second name, not a repair). The
corrected words replace what they stand for at the end of the words before: a number
the last number, a name the last name, a phrase with an article the last such phrase,
anything else the last word. A repair that is a clause of its own ("sorry, I did until
May") or that has nothing to stand for leaves the sentence as said.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract.patterns import icase

__all__ = ["corrected"]

_REPAIR = (
    r"sorry|no\s+wait|wait,?\s+no|actually,?\s+no|no,?\s+actually|or\s+rather|"
    r"scratch\s+that|I\s+mean|I\s+meant"
)
_SOFT = r"well|actually"
_PRECISE = r",?\s*(?:actually|really|to\s+be\s+(?:precise|exact)|technically)\s*$"
_SPLIT = icase(
    rf"^(?P<before>.+?)\s*[,;]\s*(?:(?P<hard>{_REPAIR})|(?P<soft>{_SOFT}))\s*,?\s+"
    rf"(?:(?:sorry,?\s+)?I\s+mean(?:t)?\s*,?\s+)?(?P<fix>.+?)(?P<end>[.!]*)$"
)
# a repair that is a clause of its own states something else: read as said
_CLAUSE = icase(
    r"^(?:I|I'm|I've|I'd|we|we're|you|he|she|they|it|it's|that|this|there|who|what|why|how|"
    r"where|when|which)\b"
)
_LONGEST = 5  # words: a repair longer than a value says something else
_ARTICLE = icase(r"^(?:an?|the)$")
_NUMBER = re.compile(r"^\d[\d,.:]*(?:st|nd|rd|th|s)?$")


def _replace(before: list[str], fix: list[str]) -> list[str] | None:
    """``before`` with the words ``fix`` stands for at its end replaced, or None."""
    first = fix[0]
    if _NUMBER.match(first):
        at = [i for i, w in enumerate(before) if _NUMBER.match(w)]
    elif _ARTICLE.match(first):
        at = [i for i, w in enumerate(before) if _ARTICLE.match(w)]
    elif first[:1].isupper():
        at = [i for i, w in enumerate(before) if i > 0 and w[:1].isupper() and w != "I"]
        while len(at) > 1 and at[-2] == at[-1] - 1:  # the whole name: "New York"
            at.pop()
    else:
        at = [len(before) - 1]
    if not at or at[-1] == 0:
        return None
    start = at[-1]
    end = start + 1
    if first[:1].isupper() and not _NUMBER.match(first):
        while end < len(before) and before[end][:1].isupper():
            end += 1
    elif _ARTICLE.match(first):
        end = len(before)
    return [*before[:start], *fix, *before[end:]]


def corrected(sentence: str) -> str:
    """``sentence`` with a value its speaker corrects in it replaced by the correction
    ("I live in Leeds, sorry, I mean Bradford." -> "I live in Bradford."), or as said
    when it corrects none."""
    m = None if "?" in sentence else _SPLIT.match(sentence.strip())
    if m is None:
        return sentence
    fix_text = m["fix"]
    if m["soft"]:
        cut = icase(_PRECISE).sub("", fix_text)
        if cut == fix_text:
            return sentence
        fix_text = cut
    fix_text = icase(_PRECISE).sub("", fix_text).strip(" ,;")
    before, fix = m["before"].split(), fix_text.split()
    if len(before) < 2 or not 0 < len(fix) <= _LONGEST or _CLAUSE.match(fix_text):
        return sentence
    replaced = _replace(before, fix)
    if replaced is None:
        return sentence
    return " ".join(replaced) + (m["end"] or ".")
