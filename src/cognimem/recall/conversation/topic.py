"""The dense query of a question about a person: the question without the person.

"What sports does Priya take up in winter?" is answered by Priya's own messages, which
rarely say her name; the messages that do are the other speaker's ("Priya, that sounds
fun!"). A sentence embedding of the whole question weighs the name heavily and pulls
those. The speaker focus (``recall/conversation/focus.py``) already carries who is asked about, and
the lexical search keeps the name as a term, so the vector search embeds the topic
alone: "What sports does take up in winter?". It costs nothing: the one query embedding
is of this text instead of the whole question.

The subject is the name in the subject slot of a question: after the question word
(and up to four words of its phrase) and an auxiliary ("What did **Omar** ...", "Would
**Priya** ...", "How many cousins does **Priya** have?", "What is **Claire**'s
job?"). A name elsewhere ("a film watched on Claire's advice", "a trip to Paris")
is what the question is about and stays. The question is embedded whole when:

- the preset says not (``dense_without_subject``: off in the plain ``lexical`` and
  ``vector`` baselines, which have no speaker focus to carry the person);
- the question asks "when": the speaker focus is off there (``focus.focus``); on the
  LoCoMo rotation, leaving the names out of "when" questions too cost temporal (0.912
  → 0.905) and tokens (393 → 405 tokens@10);
- the subject is two people ("Do Omar and Rosa both ..."): the focus ranks each one's
  messages in turn, and on the LoCoMo rotation leaving both names out lost on both
  folds' tune conversations (frac@10 0.8118 → 0.8053, 0.7739 → 0.7726);
- nothing but function words would be left ("What does Ana like?").

The write path embeds a message with its author's name, so the name also gave the
subject's own messages their closeness to the query; the evidence check
(``recall/conversation/evidence.py``) keeps that: a message said by the person left out counts as
evidence, as the name's cosine made it before ("What has Claire been busy with lately?"
still returns what Claire told).

On the LoCoMo dev five (``benchmarks/locomo_rotation.py``), with the evidence rule:
frac@10 0.7775 → 0.7994, multi-hop 0.488 → 0.517, open-domain 0.360 → 0.462, tokens@10
355 → 383, every fold row better (fold A tune / check 0.8104 / 0.7632 → 0.8270 /
0.7873, fold B 0.7507 / 0.8039 → 0.7766 / 0.8218).

Pure and rule-based: English question syntax, no word list of a domain.
"""

from __future__ import annotations

import re

from cognimem.recall.analyze import asks_when, query_terms

_AUXILIARY = r"(?:do|does|did|is|was|are|were|has|have|had|would|could|will|can|might|may|should)"
# lower case only: "US" in "which US cities" is no pronoun
_PRONOUN = r"(?-i:I|me|you|we|us|he|him|she|her|it|they|them)"
# a capitalised word that is not a day or a month ("What should I do Friday night?")
_NAME = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|"
    r"March|April|May|June|July|August|September|October|November|December)\b)"
    r"[A-Z][a-z][\w-]*"
)
_SUBJECT = re.compile(
    r"^\s*(?i:(?:(?:what|which|how|where|who|whom|why|in\s+what|in\s+which)"
    # the question word's phrase ("what kind of art"): no auxiliary, no pronoun
    rf"(?:\s+(?!{_AUXILIARY}\b|{_PRONOUN}\b)\w+){{0,4}}?\s+)?"
    rf"{_AUXILIARY}\s+(?:both\s+)?)"
    rf"(?P<names>{_NAME}(?:\s*(?:,|(?i:and|or)|&)\s*{_NAME})*)(?!\w)"
)
_POSSESSIVE = re.compile(r"^['\u2019]s(?!\w)")


def subject_span(query: str) -> tuple[int, int] | None:
    """Where the name of the question's subject is (one person); None when the subject
    slot holds no name or two people."""
    m = _SUBJECT.match(query)
    if m is None or not re.fullmatch(_NAME, m.group("names")):
        return None
    return m.span("names")


def dense_query(query: str, without_subject: bool = True) -> str:
    """What the vector search embeds: ``query`` without its subject's name (when
    ``without_subject``: the preset's ``dense_without_subject``), else ``query``."""
    return split_subject(query, without_subject)[0]


def split_subject(query: str, without_subject: bool = True) -> tuple[str, str | None]:
    """:func:`dense_query`'s text and the name it leaves out of ``query`` (None when it
    leaves none). That person's own messages keep the evidence the name gave them
    (``recall/conversation/evidence.py``): the write path embeds a message with its
    author's name."""
    if not without_subject or asks_when(query):
        return query, None
    span = subject_span(query)
    if span is None:
        return query, None
    start, end = span
    rest = _POSSESSIVE.sub("", query[end:])
    topic = " ".join((query[:start] + rest).split())
    return (topic, query[start:end]) if query_terms(topic) else (query, None)
