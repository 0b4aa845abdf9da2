"""Facts a group of turns states that no single turn does: a question in one turn
answered in the next ("Where do you live now?" / "Berlin."). The write path reads each
message alone, so the answer yields nothing; a consolidation pass, which sees the turns
together, reads the answer in the question's words ("I live in Berlin.") with the write
path's own rule extractor (passed in by the service), so the facts come out in its
categories, with its keys and, for a constraint, its type and scope tags.

Rules (pure; the service loads the turns and reconciles what comes out like a write):

- a **pair** is two consecutive members of a session window by different speakers, the
  second new to this pass (so a pass reads each answer once: a re-run adds nothing);
- the **question** is the first turn's last sentence, ending in "?", asked of "you";
  the **answer** is the second turn's first sentence, when it is short (at most
  ``MAX_ANSWER_WORDS`` words) and says nothing in the first person itself;
- the answer is read as the question turned into a statement by the answerer: "you" →
  "I", "your" → "my", the auxiliary dropped or put after the subject ("do you live" →
  "I live", "did you grow up" → "I grew up", "are you allergic" → "I am allergic"),
  and the answer put where the question word stood (after "is" for "what is your X",
  after the verb for "what X do you V", after a place preposition for "where", at the
  end for "when"); a yes/no question becomes the statement or its negation, and a
  fragment answering one ("Shellfish." to "Are you allergic to anything?") takes the
  place of its indefinite ("anything", "any pets"). An answer that is a clause of its
  own ("It's a chance to ...") or only interjections ("Thanks!") fills no gap;
- only what the answer alone does not already state is kept; each fact's evidence is
  the question and the answer as said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from cognimem.models import MemoryItem
from cognimem.models.extraction import ExtractedFact, ExtractionInput, ReadsOne

MAX_ANSWER_WORDS = 8

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|me|my|mine|myself|we|our|us)\b")
_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|of course|definitely|absolutely)\b[\s,.!]*", re.I)
_NO = re.compile(r"^(?:no|nope|not really|never)\b[\s,.!]*", re.I)
_FILLER = re.compile(r"^(?:oh|well|um+|uh+|hmm+|haha|ha|ah|so)\b[\s,.!]*", re.I)
_PREPOSITION = re.compile(r"^(?:in|at|to|from|near|on|by|around|outside|inside)\b", re.I)
_TRAILING_ADVERB = re.compile(r"\s+(now|currently|nowadays|these days|lately|today)$", re.I)
# an answer's first word that is no name, lower-cased in the statement ("A dog" -> "a dog")
_FUNCTION_WORD = re.compile(
    r"^(?:a|an|the|in|at|on|to|from|near|by|around|last|next|this|that|some|my|our|two|"
    r"three|about|just|mostly|usually|every)\b",
    re.I,
)
# an answer that is a clause of its own ("It's a chance to ...") explains rather than
# fills the question's gap; one of interjections only ("Thanks!") fills nothing
_CLAUSE = re.compile(r"^(?:it|that|this|they|he|she|there|we|you|those|these)\b", re.I)
_INTERJECTIONS = re.compile(
    r"^(?:(?:thanks|thank you|wow|haha|lol|cool|great|awesome|nice|ok|okay|omg|yay|hey|"
    r"hi|hello|aw+|sure|indeed|exactly|totally|right)\b[\s,.!]*)+$",
    re.I,
)
_INDEFINITE = re.compile(r"\b(?:anything|something|anyone|someone|any\s+\w+|some\s+\w+)\b", re.I)
_CONTRACTIONS = (
    (re.compile(r"\bwhat's\b", re.I), "what is"),
    (re.compile(r"\bwho's\b", re.I), "who is"),
    (re.compile(r"\bwhere's\b", re.I), "where is"),
    (re.compile(r"\bwhat're\b", re.I), "what are"),
)
_PRONOUNS = {"your": "my", "yours": "mine", "yourself": "myself", "you": "me"}
# the past of common irregular verbs (English morphology, for "did you ...")
_IRREGULAR_PAST = {
    "be": "was", "become": "became", "begin": "began", "buy": "bought", "build": "built",
    "come": "came", "do": "did", "drink": "drank", "drive": "drove", "eat": "ate",
    "feel": "felt", "find": "found", "fly": "flew", "get": "got", "give": "gave",
    "go": "went", "grow": "grew", "have": "had", "hear": "heard", "keep": "kept",
    "know": "knew", "leave": "left", "lose": "lost", "make": "made", "meet": "met",
    "pay": "paid", "put": "put", "read": "read", "ride": "rode", "run": "ran", "say": "said",
    "see": "saw", "sell": "sold", "send": "sent", "sing": "sang", "sit": "sat",
    "sleep": "slept", "speak": "spoke", "spend": "spent", "swim": "swam", "take": "took",
    "teach": "taught", "tell": "told", "think": "thought", "wear": "wore", "win": "won",
    "write": "wrote",
}  # fmt: skip

_WHAT_IS = re.compile(r"^(?:what|which|who)\s+(is|are|was|were)\s+(your\s+.+)$", re.I)
_WHAT_DO = re.compile(
    r"^(?:what|which|who)(?:\s+(?:kind|kinds|sort|type)\s+of)?(?:\s+\w+)?\s+"
    r"(do|does|did|can|will|would)\s+you\s+(.+)$",
    re.I,
)
_WHERE = re.compile(r"^where\s+(do|did|are|were|can|will|would)\s+you\s+(.+)$", re.I)
_WHEN = re.compile(r"^when\s+(did|do|are|were|will)\s+you\s+(.+)$", re.I)
_YES_NO = re.compile(r"^(do|did|are|were|have|can|will|would)\s+you\s+(.+)$", re.I)


@dataclass(frozen=True)
class Answered:
    """A question and its answer, read together: the statement they make and the facts
    the rule extractor reads from it that the answer alone does not state."""

    question: MemoryItem
    answer: MemoryItem
    statement: str
    facts: tuple[ExtractedFact, ...]


def pairs(members: list[MemoryItem], new: set[str]) -> list[tuple[MemoryItem, MemoryItem]]:
    """Consecutive members of one window by different speakers, the second new, the
    first ending in a question and the second a short answer to read with it."""
    return [
        (q, a)
        for q, a in pairwise(members)
        if a.id in new
        and q.author != a.author
        and question_of(q.text) is not None
        and answer_of(a.text) is not None
    ]


def question_of(text: str) -> str | None:
    """The turn's last sentence when it is a question."""
    parts = [p.strip() for p in _SENTENCES.split(" ".join(text.split())) if p.strip()]
    return parts[-1] if parts and parts[-1].endswith("?") else None


def answer_of(text: str) -> str | None:
    """The turn's first sentence when it is a short answer that says nothing in the
    first person itself."""
    parts = [p.strip() for p in _SENTENCES.split(" ".join(text.split())) if p.strip()]
    if not parts or parts[0].endswith("?"):
        return None
    first = parts[0]
    rest = _FILLER.sub("", first)
    if len(rest.split()) > MAX_ANSWER_WORDS or _FIRST_PERSON.search(
        _YES.sub("", _NO.sub("", rest))
    ):
        return None
    return first


def statement(question: str, answer: str) -> str | None:
    """``question`` turned into the answerer's statement with ``answer`` in it (rules in
    the module docstring); None when the question is not one of those forms."""
    q = question.rstrip("?").strip()
    for pattern, full in _CONTRACTIONS:
        q = pattern.sub(full, q)
    a = _FILLER.sub("", answer).strip()
    negative = bool(_NO.match(a))
    affirmative = bool(_YES.match(a))
    a = _NO.sub("", _YES.sub("", a)).strip().rstrip(".!").strip()
    if _INTERJECTIONS.match(a) or _CLAUSE.match(a):
        a = ""  # nothing that fills a gap: only a yes or a no may still answer
    if _FUNCTION_WORD.match(a):
        a = a[:1].lower() + a[1:]
    if m := _WHAT_IS.match(q):
        if not a:
            return None
        return f"{_capital(_swap(m.group(2)))} {m.group(1).lower()} {a}."
    if m := _WHAT_DO.match(q):
        return f"I {_verb(m.group(1), m.group(2))} {a}." if a else None
    if m := _WHERE.match(q):
        if not a:
            return None
        rest = _verb(m.group(1), m.group(2))
        adverb = _TRAILING_ADVERB.search(rest)
        rest = rest[: adverb.start()] if adverb else rest
        place = a if _PREPOSITION.match(a) or _ends_in_preposition(rest) else f"in {a}"
        return f"I {rest} {place}{adverb.group(0) if adverb else ''}."
    if m := _WHEN.match(q):
        return f"I {_verb(m.group(1), m.group(2))} {a}." if a else None
    if m := _YES_NO.match(q):
        aux, rest = m.group(1).lower(), m.group(2)
        if a and not negative and _INDEFINITE.search(rest):
            return f"I {_verb(aux, _INDEFINITE.sub(a, rest, count=1))}."
        if negative:
            return f"I {_negated(aux, _swap(rest))}."
        if affirmative:
            return f"I {_verb(aux, rest)}."
    return None


def read_pair(
    question_item: MemoryItem,
    answer_item: MemoryItem,
    occurred_at: datetime,
    role: str,
    extractor: ReadsOne,
) -> Answered | None:
    """What the pair states together that the answer alone does not (None: nothing)."""
    question = question_of(question_item.text)
    answer = answer_of(answer_item.text)
    if question is None or answer is None:
        return None
    said = statement(question, answer)
    if said is None:
        return None
    together = extractor.extract_one(ExtractionInput(text=said, occurred_at=occurred_at, role=role))
    alone = extractor.extract_one(
        ExtractionInput(text=answer_item.text, occurred_at=occurred_at, role=role)
    )
    known = {_identity(f) for f in alone.facts}
    evidence = f"{question} {answer}"
    facts = tuple(
        f.model_copy(update={"evidence": evidence})
        for f in together.facts
        if _identity(f) not in known
    )
    if not facts:
        return None
    return Answered(question_item, answer_item, said, facts)


def _identity(f: ExtractedFact) -> tuple[str, str, str, str, bool]:
    return (f.subject, f.category.value, f.predicate, f.value.lower(), f.polarity)


def _swap(text: str) -> str:
    return re.sub(
        r"\b(your|yours|yourself|you)\b", lambda m: _PRONOUNS[m.group(1).lower()], text, flags=re.I
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verb(aux: str, rest: str) -> str:
    """The verb phrase after "I" for ``aux`` + ``rest`` ("do"/"live" → "live", "did"/"grow
    up" → "grew up", "are"/"allergic" → "am allergic")."""
    rest = _swap(rest)
    aux = aux.lower()
    if aux in ("do", "does"):
        return rest
    if aux == "did":
        head, _, tail = rest.partition(" ")
        return f"{_past(head)} {tail}".strip()
    if aux in ("are", "is"):
        return f"am {rest}"
    if aux in ("were", "was"):
        return f"was {rest}"
    return f"{aux} {rest}"


def _negated(aux: str, rest: str) -> str:
    if aux in ("are", "is"):
        return f"am not {rest}"
    if aux in ("were", "was"):
        return f"was not {rest}"
    if aux in ("do", "does"):
        return f"do not {rest}"
    if aux == "did":
        return f"did not {rest}"
    return f"{aux} not {rest}"


def _past(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[low]
    if low.endswith("e"):
        return f"{verb}d"
    if re.search(r"[^aeiou]y$", low):
        return f"{verb[:-1]}ied"
    return f"{verb}ed"


def _ends_in_preposition(rest: str) -> bool:
    last = rest.split()[-1] if rest.split() else ""
    return bool(_PREPOSITION.match(last))
