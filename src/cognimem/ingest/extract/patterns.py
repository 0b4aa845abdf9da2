"""Building blocks of the rule extractor's regular expressions: how a name, a place, an
organisation, a relation word, a job or a small number is written in chat. The detector
patterns in the ``detect_*`` modules are composed from these.

Names and places are matched case-sensitively inside case-insensitive patterns
(``(?-i:...)``): a capital letter is most of what tells "Paris" from "paris".
"""

from __future__ import annotations

import re

from cognimem.ingest.extract import vocabulary as vocab
from cognimem.ingest.extract.lexicon import alternation
from cognimem.text.literals import Gated

__all__ = [
    "HAS_SPEAKER",
    "INNER_STOP",
    "IRREGULAR_PAST",
    "JOB",
    "JOB_PHRASE",
    "MODS",
    "NAME",
    "NAME1",
    "NOT_PAST_ED",
    "NOT_WEARIED",
    "NUMBER",
    "ONLY_NOT_CHOICE",
    "ONLY_NOT_HABIT",
    "ORG",
    "PET",
    "PLACE",
    "PRONOUN_FIRST",
    "REASON_WORD",
    "REL",
    "THING_FIRST",
    "TITLE",
    "TRAILING_S",
    "gated",
    "icase",
]


def icase(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled case-insensitively."""
    return re.compile(pattern, re.IGNORECASE)


def gated(pattern: str, *, gate_match: bool = False) -> Gated:
    """``pattern`` compiled case-insensitively, scanned only in a text that holds one of
    the words it is built around (:class:`cognimem.text.literals.Gated`, the same
    answers): for a pattern that costs tens of microseconds a sentence and seldom
    matches. ``gate_match``: its ``match`` too (for a pattern that reads far before it
    can fail)."""
    return Gated(icase(pattern), gate_match=gate_match)


_CAP = "A-ZÀ-ÖØ-Þ"
# a full stop inside a name or a number ("J. K. Rowling", "St. Louis", "3.5") while the
# detectors read a sentence (``clauses.shield_stops``): values ending at a full stop read
# on past it
INNER_STOP = "\u2024"
_WORD1 = rf"[{_CAP}](?:{INNER_STOP}[{_CAP}])*[^\W\d_]*(?:['-][^\W\d_]+)*{INNER_STOP}?"
# a capitalised name of one word (NAME1) or of up to three (NAME)
NAME1 = rf"(?-i:{_WORD1})"
NAME = rf"(?-i:{_WORD1}(?:\s+{_WORD1}){{0,2}})"
_PLACE_WORD = rf"[{_CAP}][^\W_]*(?:['.&{INNER_STOP}-][^\W_]+)*{INNER_STOP}?"
# a person's title before their name ("Dr. Lee", "Mrs Patel")
TITLE = rf"(?-i:(?:Dr|Mr|Mrs|Ms|Prof)[.{INNER_STOP}]?)"
# a place or an organisation: capitalised words, with "of", "de", "&" ... between
PLACE = (
    rf"(?-i:(?:St[.{INNER_STOP}]\s+|Saint\s+)?{_PLACE_WORD}(?:\s+(?:(?:de|del|da|do|of|upon|on|am)\s+)?"
    rf"{_PLACE_WORD}){{0,3}}(?:,\s+{_PLACE_WORD})?)"
)
ORG = (
    rf"(?-i:(?:St[.{INNER_STOP}]\s+)?{_PLACE_WORD}(?:\s+(?:&\s+|of\s+|and\s+)?{_PLACE_WORD})"
    r"{0,3})"
)
# a relation word ("sister"), a pet, modifiers before a relation ("my little ..."), a job
REL = alternation(vocab.RELATIONS)
PET = alternation(vocab.PETS)
MODS = rf"(?:(?:{alternation(vocab.RELATION_MODIFIERS)})\s*)*"
JOB = alternation(vocab.JOBS)
# a job with up to two words before it: "senior software engineer", "head nurse"
JOB_PHRASE = rf"(?:[a-z-]+\s+){{0,2}}?(?:{JOB})"
_A_JOB = re.compile(rf"\b(?:{JOB})s?\b", re.IGNORECASE)
# "training to become a nurse" is a career; training to be anything else is a quip
TRAINING_TO_BECOME = Gated(
    re.compile(r"\b(?:training|studying)\s+to\s+(?:be|become)\s+(?P<role>[^.,;!?]+)", re.IGNORECASE)
)


def names_occupation(text: str) -> bool:
    """Whether ``text`` names a job from the shipped list ("a registered nurse")."""
    return _A_JOB.search(text) is not None


# the end of a noun phrase: no further noun follows its head ("a cold", "a cold right now",
# but not "a cold brew"); a function word, a time word or punctuation may
HEAD_END = (
    r"(?![\w-]|\s+(?!(?:and|but|so|or|right|at|for|since|this|that|now|again|today|too|"
    r"from|after|which|lately|these|all|anymore|still|on|in|with)\b)[a-z])"
)
# what "only" says of a time or an amount, not of a habit: "I only just got home", "I
# only have ten minutes", "I only found out today"
ONLY_NOT_HABIT = (
    "just|have|had|has|got|found|realized|realised|heard|knew|saw|started|recently|one|a few"
)
# what "only" cannot qualify as a choice either: an auxiliary or a verb of the mind ("I
# only think ...", "I only do it because ...")
ONLY_NOT_CHOICE = (
    f"{ONLY_NOT_HABIT}|am|'m|was|were|do|did|don't|can|could|will|would|should|think|know|"
    "guess|feel|mean|wonder|hope|wish|said|told|imagine|need|kidding|joking"
)
# the simple past of common irregular verbs ("I never went", "we always ate"), as
# alternatives for a pattern; "-ed" forms are told with :data:`NOT_PAST_ED`
IRREGULAR_PAST = (
    "ate|became|began|bought|broke|brought|built|came|caught|chose|did|drank|drove|fed|"
    "fell|felt|flew|forgot|fought|found|gave|got|grew|ground|had|heard|held|hid|hung|"
    "kept|knew|led|left|lent|lost|made|meant|met|paid|ran|rang|rode|rose|said|sang|sat|"
    "saw|sent|shone|shook|shot|slept|sold|spent|spoke|stole|stood|struck|stuck|swam|"
    "swore|taught|thought|threw|told|took|tore|understood|was|went|were|woke|won|wore|"
    "wrote"
)
# a word in "-ed" that is no past form: "a hundred", "in bed", "I never feed the cats"
NOT_PAST_ED = r"(?!(?:hundred|bed|red|shed|sled|wed|need|feed|seed|speed|bleed|breed|sacred)\b)"
# a past weariness never felt is a liking that still holds ("I never tired of X"), not a
# past event or a denial: put before :data:`NOT_PAST_ED` where "never" + past is read
NOT_WEARIED = r"(?!(?:tired|wearied)\s+of\b)"
# the words that open a sentence about someone rather than a thing said first: the
# pronouns and the possessives ("it's", "there" too)
PRONOUN_FIRST = (
    r"I|I'm|we|we're|you|it|it's|this|that|these|those|they|there|he|she|my|our|your|his|"
    r"her|their"
)
# a thing said first, before what the speaker makes of it ("Cash only for me", "Hostels
# all the way"): a lower-case phrase that opens with no pronoun or possessive, in ``rest``
THING_FIRST = (
    r"^(?!(?:my|our|his|her|their|your|it|this|that|he|she|they|you|we|I)\b)"
    r"(?P<rest>[a-z][\w' ,&-]{1,60}?)"
)
# how many children or pets: "two kids"
NUMBER = r"(?:a|an|one|two|three|four|five|six|\d)"
# a plural's s, dropped to look the singular up in a word list
TRAILING_S = re.compile(r"s$")
# the opening of a statement about someone else: "my brother lives ...", "our neighbor
# Sam works ...", "Sam is ..." (unnamed: "my brother lives in Oslo"; the subject it
# names: ``Collector._third_party``)
THIRD = (
    rf"(?:^|\bmy\s+{MODS}(?P<rel>{REL})\s*,?\s+|\bour\s+{MODS}(?P<rel2>{REL})\s*,?\s+)"
    rf"(?:(?P<who>{NAME})\s*,?\s+)?"
)
# the speaker as a subject in a clause: "I", "we", "I'm", "we're"
HAS_SPEAKER = icase(r"\b(?:I|we|I'm|we're)\b")
# a word that gives a reason: "because", "since", "cause", "cuz", "as"
REASON_WORD = icase(r"\b(?:because|since|cause|cuz|as)\b")
