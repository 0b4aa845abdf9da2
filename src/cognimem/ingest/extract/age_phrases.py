"""How chat says who the speaker is by number: an age ("I'm 34", "I just turned ten")
and one said as a joke ("100 years old at heart"), pronouns, a birth year; read by
:class:`~cognimem.ingest.extract.detect_identity.IdentityReader`."""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated, icase
from cognimem.ingest.extract.vocabulary import NUMBER_WORDS

__all__ = ["AGE", "AGE_FIGURE", "BIRTH_YEAR", "PRONOUNS"]

AGE = icase(
    r"\bI(?:'m| just turned| turned)\s+(?P<v>\d{1,3})(?:\s+(?:years?|yrs?) old|\s*y/?o\b)?"
    r"(?=\s*(?:[,.!;]|$|and\b|now\b|this\b|today\b|years?\b))|"
    # a birthday told in words: "I just turned ten" ("I'm ten" could be anything)
    rf"\bI(?: just)? turned\s+(?P<w>{'|'.join(NUMBER_WORDS)}|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety)(?:\s+(?:years?|yrs?) old)?"
    r"(?=\s*(?:[,.!;]|$|and\b|now\b|this\b|today\b|years?\b))"
)
# an age said as a joke is no age: "I'm 100 years old at heart", "35 going on 80",
# "I'm 29 forever", "12 years old inside", "Mentally I'm still 22"
AGE_FIGURE = icase(
    r"\b(?:at heart|(?:on the )?inside|in spirit|deep down|going on|forever|mentally|"
    r"emotionally|in (?:[a-z]+ )?[a-z]+ years|some days|when it comes to)\b"
)
PRONOUNS = gated(
    r"\b(?:my pronouns are|I use|I go by)\s+(?P<v>(?:she|he|they|xe|ze|it)/(?:her|him|"
    r"them|hers|his|theirs|xem|zir|its|she|he|they))\b"
)
BIRTH_YEAR = gated(r"\bI was born in (?P<v>(?:19|20)\d{2})\b")
