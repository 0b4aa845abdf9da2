"""Stances that do not stand: a habit said in the simple past, and a request for one
occasion. A careful reader keeps no standing constraint from either.

- a habit in the simple past: "I" or "we", then "never", "always", "only (ever)",
  "usually", "rarely" or "mostly", then a verb in the past tense ("As a teenager I never
  wore anything but black", "When I lived in Leeds I always took the bus", "Growing up,
  we always had dogs"): the stance held then, not now, as after "used to". Not the
  perfect ("I've always had dogs"), nor the present ("I never wear black");
- a request for one occasion: an imperative to the assistant ("please don't ...",
  "don't ...", "can you not ...") said with a time that names one occasion ("this time",
  "tonight", "today", "tomorrow", "this weekend") or with a reason that is one past
  event ("Please don't suggest Italian, we had it yesterday"); not "next time" or "ever
  again", which ask for good;
- a stance in the moment: a refusal or dislike whose clause names the present occasion
  ("right now", "tonight", "today", "this time") or whose object is the present instance
  rather than a kind of thing: a bare pointer after its verb or preposition ("I refuse to
  answer that", "I refrain from commenting on that", "more of this"), or a demonstrative
  with a noun right after its verb ("I'm not willing to drive in this snow", "take that
  flight"). Not a kind ("I never eat this kind of food"), "these days", a place further
  on ("no smoking anywhere in this house"), nor a relative "that" after a plural noun
  ("games that rely on colour"); not "from today"; not a pointer said with "again" or
  "anymore", which turns down every repeat of what it points to ("I'd rather not do that
  again", said to an offer, "I'm not willing to do this anymore").

Read by :class:`cognimem.ingest.extract.collector.Collector` for every constraint fact:
the past habit's fact no longer holds, the request's and the moment's are not kept (a
whole sentence kept as the value is read from its stance's verb on);
:func:`cognimem.ingest.extract.stance_forms.worth` asks :func:`present_occasion` of an
object before a stance is read from it.
"""

from __future__ import annotations

from cognimem.ingest.extract.patterns import NOT_PAST_ED, icase

__all__ = ["for_one_occasion", "in_the_moment", "past_habit", "present_occasion"]

# the simple past of common irregular verbs, and "-ed" forms that are past ("need",
# "feed", "bed" are not)
_IRREGULAR_PAST = (
    r"(?:ate|drank|wore|took|went|had|did|made|got|saw|rode|drove|flew|wrote|bought|brought|"
    r"thought|knew|kept|left|lost|paid|sat|slept|spent|spoke|stood|swam|taught|told|won|came|"
    r"became|ran|gave|sang|forgot|felt|heard|held|meant|met|sold|sent|shot|fought|ground|"
    r"hung|hid|led|lent|rang|rose|shook|shone|stole|stuck|struck|swore|tore|threw|"
    r"understood|woke|was|were)"
)
_PAST_HABIT = icase(
    r"\b(?:I|we)\s+(?:(?:just|really|pretty\s+much|basically|almost)\s+)?(?:never|always|"
    r"only(?:\s+ever)?|usually|rarely|mostly|hardly\s+ever|constantly)\s+"
    rf"(?:{_IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)\b"
)
_REQUEST = icase(
    r"^\W*(?:(?:oh|ok|okay|so|and|but|also|just)\W+)*(?:please\s+)?(?:do\s+not|don't|"
    r"can\s+you\s+not|could\s+you\s+not|please\s+(?:avoid|skip|no)|no)\b|"
    r"^\W*(?:please\s+)?(?:avoid|skip)\b"
)
# the present occasion: "right now", "tonight", "this time"
_NOW = (
    r"\b(?:right\s+now|just\s+now|this\s+(?:time|once|evening|morning|afternoon|weekend|trip|"
    r"round)|(?<!from\s)(?<!of\s)(?<!starting\s)(?:tonight|today|tomorrow))\b"
)
_ONE_OCCASION = icase(
    _NOW + r"|\bfor\s+now\b|"
    # a reason that is one past event: "..., we had it yesterday"
    r",\s*(?:we|I)\s+(?:just\s+)?(?:had|ate|did|went|saw|tried|made)\b[^.;]*\b(?:yesterday|"
    r"last\s+(?:night|week|weekend|time)|this\s+(?:morning|week))\b"
)
_NOW_SAID = icase(_NOW)
# a whole sentence kept as the value: its object follows the speaker and the stance's verb
# ("I refuse to [eat that]", "I hate [this mess]")
_SPEAKER_LEAD = icase(
    r"^(?:I|we)\s+(?:(?:[\w']+\s+){0,3}?(?:to|from)\s+|(?:(?:don't|can't|won't|do\s+not|"
    r"cannot|will\s+not)\s+)?)"
)
# the speaker doing or wanting, not being, having or feeling: "I don't want to ...",
# "I can't stand ..." (not "I'm ...", "I have ...", "My eyes are ...")
_SPEAKER_ACTS = icase(r"^(?:I|we)\s+(?!(?:am|are|have|has|feel|got)\b)")
_PREPOSITION = r"(?:in|on|at|for|to|with|from|about|through|into|of|over|off|by)"
_POINTER = r"(?:this|that|it|these|those)"
# the present instance as the object, right after its verb (and preposition): a bare
# pointer ("eat this", "commenting on that", "more of this") or a demonstrative with a
# noun ("drive in this snow", "take that flight"), or "then" at the end ("I'm busy
# then"); not a kind ("this kind of food"), "these days", nor a relative "that" after a
# plural noun ("games that rely on colour")
_PRESENT_OBJECT = icase(
    rf"^\S+(?:\s+{_PREPOSITION})?\s+{_POINTER}\W*$|^\S+(?:\s+\S+)?\s+of\s+{_POINTER}\W*$|"
    rf"(?<!\bany\s)(?<!\ball\s)\b{_PREPOSITION}\s+(?:this|that)\W*$|"
    rf"^(?:\S+\s+{_PREPOSITION}|\S+)\s+this\s+(?!(?:kinds?|sorts?|types?)\s+of\b)[a-z]+|"
    rf"^(?:\S+\s+{_PREPOSITION}|\S*[^s\W]|\S*ss)\s+that\s+(?!(?:kinds?|sorts?|types?)\s+of\b)"
    rf"[a-z]+(?:\W*$|\s+{_PREPOSITION}\b)|\bthen\W*$"
)
_THEN_END = icase(r"\bthen\W*$")
_FOR_GOOD = icase(r"\b(?:next\s+time|ever\s+again|again\s+ever|from\s+now\s+on|in\s+future)\b")
# a stance on every repeat of what a pointer names: "do that again", "do this anymore"
_REPEATS = icase(r"\b(?:again|anymore|any\s+more)\b")


def past_habit(clause: str) -> bool:
    """Whether ``clause`` states a habit in the simple past (see the module docstring)."""
    return _PAST_HABIT.search(clause) is not None


def for_one_occasion(sentence: str) -> bool:
    """Whether ``sentence`` is a request for one occasion (see the module docstring)."""
    return (
        _REQUEST.search(sentence) is not None
        and _ONE_OCCASION.search(sentence) is not None
        and _FOR_GOOD.search(sentence) is None
    )


def present_occasion(value: str) -> bool:
    """Whether the object ``value`` ends on the present occasion ("anything tonight",
    "doing anything then"): no reading of the sentence makes it a standing stance. An
    object that only points at the present instance ("answer that") is decided with its
    clause, by :func:`in_the_moment` ("I'd rather not do that again" stands)."""
    return _THEN_END.search(value) is not None or _NOW_SAID.search(value) is not None


def in_the_moment(clause: str, value: str, *, state: bool = False) -> bool:
    """Whether a stance said in ``clause`` with the object ``value`` is one in the
    moment (see the module docstring), not a standing one. A ``state`` of being,
    having or feeling is of the present by nature, so the clause's time does not count
    against it ("I have a cold right now", "My eyes are itchy today", "I broke my toe
    this morning"); a wish or a dislike kept as a state, its whole sentence the value
    ("I don't want to X right now"), is a stance."""
    if _PRESENT_OBJECT.search(_SPEAKER_LEAD.sub("", value, count=1)) and not _REPEATS.search(
        clause
    ):
        return True
    if state and not _SPEAKER_ACTS.match(value.strip()):
        return False  # a state read as a phrase ("broke my toe") or of being or having
    return _NOW_SAID.search(clause) is not None and _FOR_GOOD.search(clause) is None
