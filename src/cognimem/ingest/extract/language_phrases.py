"""The languages the speaker says they speak: "I speak fluent Spanish", "I'm fluent in
Mandarin", "I speak a little German". A language is a capitalised word one of whose
senses WordNet files under natural languages (:func:`cognimem.text.noun_roots.is_language`),
so "I speak fluent dog" and "I'm fluent in sarcasm" give none."""

from __future__ import annotations

from cognimem.ingest.extract.patterns import gated
from cognimem.text.noun_roots import is_language

__all__ = ["spoken"]

_SPEAKS = gated(
    r"\bI(?:\s+speak|'m\s+fluent\s+in|\s+am\s+fluent\s+in)\s+(?:(?:fluent|some|a\s+little|"
    r"a\s+bit\s+of|basic|conversational|decent|good|native)\s+)?(?P<v>(?-i:[A-Z][a-z]+))"
    r"(?:\s*(?:,|and|&)\s*(?P<w>(?-i:[A-Z][a-z]+)))?"
)


def spoken(text: str) -> list[str]:
    """The languages ``text`` says the speaker speaks, as written."""
    m = _SPEAKS.search(text)
    if m is None:
        return []
    return [v for v in (m.group("v"), m.group("w")) if v and is_language(v)]
