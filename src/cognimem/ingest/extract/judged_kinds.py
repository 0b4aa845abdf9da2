"""A kind of thing judged by what it is to the speaker, "X is / are <judgement>": "Long
layovers are the worst", "Horror films are an absolute no-go", "Crowded gyms are a
headache for me", "A slow Sunday roast is the best part of my week", "Quiet villages
are my idea of a perfect trip", "Pilates is right up my street". Read for
:mod:`.like_forms` into a stance on the whole subject.

The judgement is a noun phrase with its determiner ("a", "an", "the", "my", "our"),
cut at its first linking word (:func:`_judgement`): at most three words before its
head, then nothing or a tail the speaker owns — ending "for me" / "to me" ("the
saddest thing on a plate for me"), "of / to / on / in my ..." or with one word before
"my" ("the best part of my week", "the best way to start my day"), "of mine", or after
"my" an "of / to / for" phrase ("my idea of a perfect
trip"). Its words decide the polarity, by a table, not a hand list:

- VADER's valence of the head (:func:`cognimem.text.valence.valence`, at least
  :data:`.rated_stances.RATED`): "the worst", "a disaster", "a torture" against; "the
  best", "a joy", "a treat", "a real comfort" for; after "a kind / sort / type of", the
  word after "of";
- else WordNet: a head whose most frequent sense is an ordeal no one wants to undergo
  (:func:`cognimem.text.noun_roots.is_ordeal`: "a nightmare", "a headache", "a
  nuisance") is against;
- else, after "the", "my" or "our" and with a tail the speaker owns, the rated words
  before the head and in the tail, when they agree ("the best gadget for me", "the best
  part of my week", "my idea of a perfect trip"); a superlative is rated by its plain
  form ("saddest" by "sad"), a British spelling by the American ("favourite");
- a "no-" compound or the head "no" ("a no-go", "an absolute no for me") refuses; "too
  ADJ for me" is against; "right up my street / alley" is the one idiom of liking read
  here.

Only the head judges: "Paris is a beautiful city" and "Smoking is a bad habit" classify
their subject (the head "city", "habit" is rated by nothing) and give nothing.

Not read: a one-off ("The traffic was a nightmare today", "That film was the worst":
only "is" / "are", and a subject opening with an article of one known thing, a
demonstrative, a possessive, a pronoun or a day is no kind); a tail the speaker does
not own ("Rabbits are the best pets for children") or with a subject ("the best thing
I know": a relative clause is :mod:`.judged_relatives`'); people ("Teachers are the
worst": WordNet's first sense of the plural subject's singular is a person; not
"Pilates is ..."); the speaker inside the subject; a question.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cognimem.ingest.extract.patterns import HAS_SPEAKER, icase
from cognimem.ingest.extract.rated_stances import RATED
from cognimem.ingest.extract.strong_likes import names_a_thing
from cognimem.text.noun_roots import is_ordeal
from cognimem.text.noun_senses import first_class
from cognimem.text.noun_tables import plural_stems
from cognimem.text.tokens import words
from cognimem.text.valence import valence

__all__ = ["NOT_A_KIND", "judged_hint", "judged_kind", "kind_judged"]

# a subject that is one known thing or an occasion, not a kind of thing
NOT_A_KIND = (
    r"the|this|that|these|those|my|our|your|his|her|their|its|it|it's|there|here|what|which|"
    r"who|he|she|they|you|we|I|I'm|today|tonight|tomorrow|yesterday|last|next|everything|"
    r"everyone|everybody|nothing|something|someone|anything|anyone|each|every|both|all|some|"
    r"such|so|and|but|or|if|when|whenever|because|why|how|no|yes|well|oh|one"
)
_ADV = (
    r"(?:(?:just|really|honestly|simply|always|absolutely|definitely|truly|genuinely|quite|"
    r"such|easily|still|by\s+far)\s+)*"
)
# the judgement: a determiner and a noun phrase with what follows it, cut by
# :func:`_judgement` at the first linking word; or "too ADJ for me"; or an idiom
_JUDGED = icase(
    rf"^(?!(?:{NOT_A_KIND})\b)(?P<rest>[a-z][\w' ,&-]{{1,80}}?)\s+(?P<be>is|are)\s+{_ADV}"
    r"(?:(?P<det>an?|the|my|our)\s+(?P<np>[a-z][\w' -]{0,80}?)|"
    r"(?P<too>(?:(?:far|way|much|a\s+bit|a\s+little|just)\s+)?too\s+[a-z][\w-]*\s+(?:for|to)\s+"
    r"(?:me|us))|right\s+up\s+(?:my|our)\s+(?:street|alley))\s*[.!]*$"
)
# a word that ends the judgement's noun phrase: what follows is its tail
_LINKING = frozenset(
    words(
        """of, for, to, in, on, at, with, than, about, from, and, or, but, not, if, when,
        ever, out, there, i, we, that, which, who, i'm, i've, i'd, i'll, we're"""
    )
)
_MODS = 3  # words before the head
_TAIL = 8  # words of a tail that ends "for me"
_SPEAKER_TAIL = 4  # words of a tail "of my week", "to my day"
_PREPOSITIONS = frozenset(words("of, to, on, in, for, about"))
_MINE = frozenset(words("my, our"))
_ME = frozenset(words("me, us"))
_SUBJECTS = frozenset(words("i, we, he, she, they, you, i'm, i've, i'd, i'll"))
# nouns that only count what follows "of" ("a kind of torture"): the head is after them
_COUNTING = frozenset(words("kind, sort, type"))


class _Judgement(NamedTuple):
    det: str
    mods: list[str]
    head: str
    tail: list[str]
    mine: bool  # said to be the speaker's ("for me", "of my week", "my idea of ...")


def _judgement(det: str, np: str) -> _Judgement | None:
    """The judgement's words: at most three before the head, the head, then a tail the
    speaker owns ("for me", "... for me", "of my week", "of mine"; after "my": "of a
    perfect trip", "to save") or none; ``None`` for another tail ("the best pets for
    children") or one with a subject ("the best medicine I know")."""
    said = np.split()
    low = [w.lower() for w in said]
    cut = next((i for i, w in enumerate(low) if w in _LINKING), len(low))
    if cut == 0 or cut > _MODS + 1:
        return None
    tail = low[cut:]
    if not tail:
        return _Judgement(det, said[: cut - 1], said[cut - 1], [], False)
    if not _SUBJECTS.isdisjoint(tail):
        return None
    if len(tail) < 2:
        return None
    to_me = len(tail) <= _TAIL and tail[-2] in ("for", "to") and tail[-1] in _ME
    of_mine = tail[0] in _PREPOSITIONS and (
        (len(tail) <= _SPEAKER_TAIL and not _MINE.isdisjoint(tail[1:3]))
        or tail[1:] in (["mine"], ["ours"])
    )
    my_own = det in _MINE and tail[0] in ("of", "to", "for") and len(tail) <= _TAIL
    if not (to_me or of_mine or my_own):
        return None
    return _Judgement(det, said[: cut - 1], said[cut - 1], tail, True)


_LIKING_IDIOM = frozenset(words("street, alley"))
_JUDGE_WORDS = frozenset(words("is, are"))


def _rated(word: str) -> bool | None:
    """For (true) or against (false) by VADER's rating of ``word``, or of its plain form
    ("saddest" by "sad", "scariest" by "scary", "favourite" by "favorite"); None when
    weak."""
    low = word.lower()
    rating = valence(low)
    if not rating and low.endswith("est") and len(low) > 5:
        stem = low[:-3]
        plain = (stem, f"{stem}e", stem[:-1], f"{stem[:-1]}y")
        rating = next((r for w in plain if (r := valence(w))), 0.0)
    if not rating and "our" in low:
        rating = valence(low.replace("our", "or"))
    return rating > 0 if abs(rating) >= RATED else None


def _polarity(m: re.Match[str]) -> bool | None:
    """For (true) or against (false) by the judgement's head word, or by the rated words
    around it when the judgement is said to be the speaker's ("the best gadget for me",
    "the best part of my day", "my idea of a perfect trip"); None when nothing rates
    it."""
    if m["too"]:
        return False  # "far too gloomy for me"
    if m["np"] is None:
        return True  # "right up my street"
    judged = _judgement(m["det"].lower(), m["np"])
    if judged is None:
        return None
    head = judged.head.lower()
    if head.startswith("no-") or head == "no":
        return False
    if head in _COUNTING and judged.tail[:1] == ["of"] and len(judged.tail) > 1:
        head = judged.tail[1]  # "a kind of torture for me"
    if (rated := _rated(head)) is not None:
        return rated
    if is_ordeal(head):
        return False
    if judged.det in ("the", *_MINE) and judged.mine:
        around = [*judged.mods, *judged.tail]
        found = {r for w in around if (r := _rated(w)) is not None}
        return found.pop() if len(found) == 1 else None
    return None


def _people(noun: str) -> bool:
    """Whether WordNet's first sense of a plural ``noun`` is a person, its singular
    looked up first ("sessions" is not Roger Sessions)."""
    low = noun.lower()
    for word in (*plural_stems(low), low):
        if len(word) > 2 and (kind := first_class(word)) is not None:
            return kind == "person"
    return False


def judged_kind(said: str) -> tuple[str, bool] | None:
    """The kind of thing ``said`` judges (see the module docstring) and whether the
    speaker is for it (false: against), or ``None``."""
    found = kind_judged(_JUDGED, said)
    if found is None or (polarity := _polarity(found[0])) is None:
        return None
    return found[1], polarity


def kind_judged(pattern: re.Pattern[str], said: str) -> tuple[re.Match[str], str] | None:
    """``pattern``'s match on ``said`` (groups ``rest``, the subject, and ``be``) and the
    subject, when it names a kind of thing: not in a question, no speaker in it, a thing
    (:func:`.strong_likes.names_a_thing`), and, said with "are", no people
    ("Teachers")."""
    if said.rstrip().endswith("?") or (m := pattern.match(said.strip())) is None:
        return None
    rest = m["rest"].strip(" ,")
    if HAS_SPEAKER.search(rest) or not names_a_thing(rest):
        return None
    people = m["be"].lower() == "are" and _people(rest.split()[-1].strip(","))
    return None if people else (m, rest)


def judged_hint(found: frozenset[str]) -> bool:
    """Whether a clause with these (lower-case) words may hold the form of this module."""
    if found.isdisjoint(_JUDGE_WORDS):
        return False
    if not found.isdisjoint(_LIKING_IDIOM) or ("too" in found and not found.isdisjoint(_ME)):
        return True
    return any(w.startswith("no-") or _rated(w) is not None or is_ordeal(w) for w in found)
