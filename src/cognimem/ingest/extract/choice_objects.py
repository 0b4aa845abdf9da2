"""Where a choice's object ends and which way a habit points, read for
:mod:`.detect_choices`:

- "to" inside a relative clause is the clause's, not the option a choice is preferred
  to: "a sitter who comes to the house", "a seat that is close to the front" keep their
  ends ("I prefer tea to coffee" is still cut before "to coffee");
- a habit of switching something off is a stance against it: "When I'm on deadline I
  turn off all notifications" is against notifications, as "I avoid X" is;
- "to" after a verb is the verb's own ("talk to a person at a branch"): when the
  sentence also compares by "than", "over", "rather than" or "instead of", that word
  brings in the alternative, and "to" is kept ("I'd rather talk to a person at a
  branch than use an app" is for "talk to a person at a branch");
- a habit said of everything but one thing is a stance against that thing: "I'll eat
  pretty much anything except raw fish" is against raw fish (the refusal "I won't buy
  anything except X" is the opposite, a choice of X, and is read before this);
- a wish in the conditional closed by "please" or "thanks" is a request for now: "I'd
  prefer the grey jacket, please" asks for one thing, "I'd prefer a window seat on
  long flights" states a standing choice;
- a refusal that is no rule: "I can't sleep when I drink coffee" (a condition and its
  cause, the causal detector's) and a trip or move to a named place called off or
  denied ("I'm not moving to Madrid", "we're not flying to Oslo": one occasion; "I'm
  not eating meat" is a rule).

Nothing here names a topic: the markers are relative pronouns, the words of comparison,
"anything except" and the verbs of switching off.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import phrases
from cognimem.ingest.extract.comma_reasons import cut_reason
from cognimem.ingest.extract.patterns import icase

__all__ = [
    "all_but",
    "compared_at",
    "no_rule",
    "polite_request",
    "relative_to",
    "switched_off",
    "whole_object",
]

# a relative clause open at the end of what precedes "to"
_RELATIVE = icase(r"\b(?:who|that|which|where)\s+(?:\w+\s+){0,3}?\w+$")
# "turn off X", "switch off X", "mute X", "disable X", "block X", "silence X"
_OFF = icase(
    r"^(?:turn|switch|shut)\s+off\s+(?P<rest>.+)$|^(?:turn|switch|shut)\s+(?P<rest2>.+?)\s+off"
    r"\b(?P<tail>.*)$|^(?:mute|disable|block|silence)\s+(?P<rest3>.+)$"
)

# the words of comparison other than "to" ("than" is not one after "more" / "less": the
# caller checks what precedes it)
_COMPARED_BY = icase(r"\s+(?:over|rather than|instead of|than)\s+")
# "I'll eat pretty much anything except X", "I watch anything but X", "We listen to
# everything apart from X": the verb's own words, then what is left out
_ALL_BUT = icase(
    r"^(?:I|we)(?:'ll|'d)?\s+(?:(?:will|would|can|could|usually|generally|happily|gladly)\s+)*"
    r"(?P<verb>(?!(?:do|have|be|give|pay|try|say|take)\b)[a-z]+(?:\s+(?:to|with|on|in))?)\s+"
    r"(?:(?:pretty\s+much|just\s+about|almost|basically|practically)\s+)?(?:anything|"
    r"everything)\s+(?:except|but|apart\s+from|other\s+than|besides)\s+(?P<rest>\w.+)"
)
_NOT_HABIT = frozenset({"ate", "watched", "bought", "tried", "had", "did", "would", "will"})

# "I'd prefer the grey jacket, please", "We'd rather sit outside, thanks"
_POLITE = icase(
    r"^(?:I|we)(?:'d|\s+would)\s+(?:much\s+|really\s+)?(?:prefer|rather|like|sooner)\b.*,\s*"
    r"(?:please|thanks|thank\s+you)\W*$"
)


def polite_request(evidence: str) -> bool:
    """Whether a sentence is a wish closed by "please" or "thanks" (a request for now,
    no standing stance)."""
    return _POLITE.match(evidence.strip()) is not None


def compared_at(text: str, compared: re.Pattern[str]) -> re.Match[str] | None:
    """Where ``text`` brings in the option a choice is preferred to, by ``compared`` (its
    words of comparison, "to" among them): at "than", "over", "rather than" or "instead
    of" when the text has one after a "to", which is then the verb's ("talk to a person
    ... than use an app"); otherwise where ``compared`` first matches."""
    m = compared.search(text)
    if m is None or not m.group().lstrip().lower().startswith("to "):
        return m
    later = _COMPARED_BY.search(text, m.start() + 1)
    return compared.search(text, later.start()) if later else m


def all_but(said: str) -> str | None:
    """What a habit said of everything else leaves out ("I'll eat anything except raw
    fish" -> "eat raw fish", a stance against it), or ``None``."""
    m = _ALL_BUT.match(said.strip())
    if m is None or m.group("verb").split()[0].lower() in _NOT_HABIT:
        return None
    return f"{m.group('verb')} {m.group('rest')}"


def relative_to(head: str, joined: str) -> bool:
    """Whether ``joined`` (what follows ``head`` from the word that may bring in an
    alternative) opens with "to" inside a relative clause of ``head``."""
    return joined.lstrip().lower().startswith("to ") and _RELATIVE.search(head) is not None


def switched_off(said: str) -> tuple[str, bool]:
    """A habit's object and polarity from its verb on (``said``): what is switched off,
    against it ("turn off X" -> X, false); any other habit, whole and for it."""
    m = _OFF.match(said.strip())
    if m is None:
        return said.strip(), True
    return m["rest"] or m["rest3"] or f"{m['rest2']}{m['tail']}", False


# where an object ends: a reason or a new clause after it
_REASON = icase(
    r"\s*,?\s*\b(?:because|since|(?<!much )(?<!many )(?<!long )(?<!soon )(?<!far )(?<!well )"
    r"as(?=\s+(?:I|it|they|we|my|our|the)\b)|cause|cuz|due to|so "
    r"that|so(?=\s+(?:I|we|it)\b))\b|,\s*(?:it|they|that|which)(?:'s|'re|\s+is|\s+are|\s+makes?|"
    r"\s+gives?)\b|\s+-\s+|;|,\s*(?:not|especially|apparently|obviously|frankly|probably|"
    r"particularly|except|unless|though|although)\b|"
    # a new clause after a comma: "anything with X, Y or Z in it, it all tastes of soap"
    r",\s*(?:it|they|he|she|these|those|there|I|I'm|I've|I'd|I'll|we|you|so|which)\s"
)
# a comparison after a choice: "I prefer X over Y", "I'd rather X than Y"
_COMPARED = icase(
    r"\s+(?:over|rather than|instead of|more than|than|to(?=\s+(?:\w+ing|the|a|an|my)\b))\s+"
    r"(?!(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|fifty|a hundred)"
    r"\b).*$"
)
_COMPARATIVE = icase(r"(?:\b(?:more|less|fewer|rather)|er)$")
_FILLER_END = icase(
    r"(?:,?\s+(?:at all|ever|completely|whatsoever|period|either|no matter what|without "
    r"fail|without exception|if I can help it|if possible|whenever possible|honestly|to be "
    r"honest|for good|forever|tbh|really|in anything|thanks|anymore|any more|these days|for now|"
    r"for me|personally|as much as (?:I|we) can|(?:if|when|whenever|wherever) (?:I|we) can|where "
    r"possible|when possible|lol|haha))+\s*[.!]*$"
)
_TO = icase(r"^(?:to|it(?=\s+(?:when|whenever|if)\b))\s+")  # "hate it when X": when X


def whole_object(text: str, *, compared: bool = False) -> str:
    """A stance's object: ``text`` up to a reason or a new clause, with its modifiers,
    without a leading "to" or article and trailing filler; for a choice (``compared``),
    without the option it is preferred to ("X over Y")."""
    text = cut_reason(_REASON.split(text, maxsplit=1)[0])  # ", the food all tastes the same"
    text = text.split(",  ")[0]
    if compared:
        m = compared_at(text, _COMPARED)
        head = text[: m.start()] if m else ""
        if m and not _COMPARATIVE.search(head) and not relative_to(head, m.group()):
            text = text[: m.start()]
    text = _FILLER_END.sub("", text.strip())
    text = phrases.DET.sub("", _TO.sub("", text.strip()))
    return phrases.clean(text)


_CAN_NOT_WHEN = icase(r"^[a-z]+\s+(?:when|whenever|if|after|unless)\b")
_NAMED_GOAL = re.compile(r"^[a-z]+ing\s+(?:back\s+)?to\s+[A-Z]")


def no_rule(verb: str | None, be: str | None, rest: str) -> bool:
    """Whether a refusal (its ``verb`` "can't ...", or ``be`` "not" of "I'm not ...",
    and what follows, ``rest``) states no rule (see the module docstring)."""
    if (verb or "").lower().startswith("can't") and _CAN_NOT_WHEN.match(rest):
        return True
    return (be or "").lower() == "not" and _NAMED_GOAL.match(rest) is not None
