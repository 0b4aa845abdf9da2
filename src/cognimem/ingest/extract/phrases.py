"""Value phrases cut out of a clause: the object of a verb trimmed to the shortest phrase
that names it, a list split into its members, a captured name checked, and a phrase that
points back into the conversation ("that", "your painting") told from one that names
something lasting.
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.patterns import INNER_STOP, icase
from cognimem.text.tokens import tokens

__all__ = [
    "DET",
    "LIST_SPLIT",
    "NOT_AN_ITEM",
    "OBJ_STOP",
    "bare",
    "clean",
    "is_action",
    "items",
    "join_adjectives",
    "name",
    "name_not_label",
    "org_name",
    "points",
    "refers",
]

_TRAILING = icase(
    r"(?:\s+(?:right now|at the moment|these days|nowadays|lately|recently|for now|"
    r"for a while|all week|all day|anymore|though|too|as well|again|now|please|ok|lol|"
    r"haha|for me)|[\s,.;:!?\"'-])+$"
)
# determiners, and "e.g." / "i.e." before the example they give
DET = icase(
    rf"^(?:(?:the|a|an|some|any|all|most|many|lots of|a lot of|plenty of|my|our|his|her|"
    rf"their|two|three|several|both|either|on)\s+|(?:e[.{INNER_STOP}]g|i[.{INNER_STOP}]e)"
    rf"[.{INNER_STOP}]?,?\s+)+"
)
OBJ_STOP = icase(
    r"\s+(?:on|in|at|with|during|after|before|for|from|over|than|when|while|because|but|"
    r"since|so|if|especially|except|as|like|around|near|every|each|whenever|until|till|"
    r"rather|instead|which|who|that|now|lately|these days|nowadays|too|a lot|so much|very "
    r"much|more than|the most|all the time|sometimes|though|again|already|as well|right "
    r"now|at the moment|yet|and it|and I|and we|but|to be honest|tbh)\b.*$"
)
NOT_AN_ITEM = icase(
    r"(?:so|but|who|which|and|or|if|because|though|then|it|that|this|I|we|you|to|too|also|"
    r"well|as|for|of|with|really|just|[a-z]+ly)\b"
)
LIST_SPLIT = icase(r"\s*(?:,\s*(?:and|or)?|\band\b|\bor\b|&|/|\bplus\b)\s*")
_POSSESSIVE_S = re.compile(r"'s$")


def refers(text: str) -> bool:
    """Whether a phrase points back into the conversation ("that", "your painting", "the
    way you ...") rather than naming something lasting."""
    low = text.lower()
    return not vocab.CONTEXT_WORDS.isdisjoint(tokens(low)) or any(
        p in low for p in vocab.CONTEXT_PHRASES
    )


def points(text: str) -> bool:
    """Whether a goal or rule points at something in the conversation ("see it")."""
    return not vocab.POINTER_WORDS.isdisjoint(tokens(text))


def clean(text: str) -> str:
    """``text`` without trailing filler ("right now", "lol", "for me") or punctuation."""
    return _TRAILING.sub("", text).strip()


def bare(text: str) -> str:
    """A value phrase: no clause tail, no leading article, no trailing filler."""
    return clean(DET.sub("", OBJ_STOP.sub("", text.strip())))


# common words that open a name when a capitalised word follows ("New York", "Great
# Britain", "Old Trafford"); alone, or before a comma, they are not names
_NAME_OPENERS = frozenset({"new", "great", "old"})


def name(text: str | None) -> str | None:
    """A proper name as captured, without trailing possessive or common words; ``None``
    when it is not a name after all."""
    if not text:
        return None
    tokens = _POSSESSIVE_S.sub("", text.strip(" ,.'")).split()
    while tokens and tokens[-1].lower().strip(",") in vocab.NOT_NAMES:
        tokens.pop()
    if not tokens:
        return None
    opens_name = len(tokens) > 1 and tokens[0].lower() in _NAME_OPENERS and tokens[1][:1].isupper()
    if tokens[0].lower() in vocab.NOT_NAMES and not opens_name:
        return None
    return " ".join(tokens).strip(",")


# after a possessive, a word that shows it owns nothing ("at McDonald's on weekends")
_NOTHING_OWNED = re.compile(
    r"\s*(?:$|[^\w\s]|(?:in|on|at|for|since|as|with|and|but|so|now|until|because|near|"
    r"every|this|last|next|these|today|full-time|part-time)\b|[A-Z])"
)


def org_name(text: str | None, after: str = "") -> str | None:
    """A workplace's name as captured: :func:`name`, with the possessive that ends it
    kept when nothing it owns follows in ``after`` ("at St. Mary's", "at McDonald's on
    weekends": the name; "Northwind's sales team": Northwind)."""
    found = name(text)
    owned = _NOTHING_OWNED.match(after) is None
    if found and text and text.strip(" ,.").endswith("'s") and not owned:
        return f"{found}'s"
    return found


def name_not_label(text: str | None) -> str | None:
    """A name captured where a label could stand as well ("I'm Anna" but "I'm Canadian",
    "my wife is Catholic", "I'm vegan"): ``name(text)``, ``None`` for such a label."""
    found = name(text)
    return found if found and found.lower() not in vocab.NOT_A_NAME_AFTER_IM else None


def items(text: str) -> list[str]:
    """The members of a list ("peanuts, tree nuts and shellfish"); a part that starts
    like a new clause ("so who knows ...") is not a member."""
    parts = (bare(p) for p in LIST_SPLIT.split(text))
    return [p for p in parts if p and not NOT_AN_ITEM.match(p)]


# an action, not a thing: a gerund alone or before a particle or an object word
# ("waking up early", "doing the dishes"; but "cleaning products" is a thing)
_AN_ACTION = re.compile(
    r"^[a-z]+ing(?:$|\s+(?:up|out|down|off|on|in|over|around|the|a|an|my|your|our|their|it|"
    r"them|people|before|after|early|late)\b)",
    re.IGNORECASE,
)


def is_action(text: str) -> bool:
    """Whether ``text`` names something done ("waking up early"), not a thing."""
    return _AN_ACTION.match(text.strip()) is not None


# "dense, sticky ginger cake": adjectives before one noun, not a new clause or a list
# ("jazz, the louder the better", "X, especially Y", "tea, coffee and cake")
_ADJECTIVES = icase(
    r"^(?P<adj>(?!(?:and|or|but|so|the|a|an|it|this|that|these|those|my|our|which|who)\b)"
    r"[a-z][\w-]*(?<!ly))\s*,\s+(?P<tail>(?!(?:and|or|but|so|the|a|an|it|it's|this|that|"
    r"which|who|especially|particularly|mostly|mainly|even|though|although|not|every|all|"
    r"any|each|no|some|both|really|very|just|as|if|when|whenever|because|since|I|we|you)\b)"
    r"[a-z][\w-]*(?<!ly)\s+[a-z][^,;.!?]*)"
)
# a list, or a clause of its own after the comma ("Patagonia, working there would be cool")
_NOT_ONE_PHRASE = icase(
    r"\b(?:and|or|is|are|was|were|would|will|can|could|should|there|it|they|he|she|I|we|"
    r"you|has|have|had)\b"
)


def join_adjectives(text: str) -> str:
    """``text`` with the comma between an adjective and the rest of its noun phrase
    dropped ("dense, sticky ginger cake" -> "dense sticky ginger cake"), so a cut at the
    first comma keeps the whole object; a new clause or a list after the comma is left."""
    m = _ADJECTIVES.match(text.strip())
    if m is None or m.group("adj")[0].isupper() or _NOT_ONE_PHRASE.search(m.group("tail")):
        return text
    return f"{m.group('adj')} {text.strip()[m.start('tail') :]}"
