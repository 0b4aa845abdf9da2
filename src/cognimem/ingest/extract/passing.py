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
  again", said to an offer, "I'm not willing to do this anymore");
- a stance on one instance further on: "this" or "that" after a preposition with a noun
  whose most frequent sense in WordNet is of communication or an event ("wear the blue
  shirt for this interview", "anything with mushrooms in this answer", a courtesy after
  it: "... in this reply please"); not a place ("in this house", "in this job"); or
  "this" or "that" with a noun of a group or a quantity and "of" (the lot in front of
  the speaker: "no pesticides on this batch of seedlings"), or a noun of an attribute
  before "of" and a demonstrative (a quality of one pointed thing: "I don't like the
  look of that compost bin");
- an object that is one past event: "how", "what" or "the way", a subject, then a verb
  in the simple past ("I hate how that print came out", "the way that meeting ended");
  not a verb after an auxiliary ("how processed food is sold");
- a state of the moment: the speaker too much of something for the present occasion or
  one date ("I'm too sleepy to drive right now"), being something for part of one day
  ("I'm exhausted tonight", not "I have a stiff neck this morning"), or doing something
  to an object on one date, in the progressive ("I'm skipping the pub quiz this week";
  not "I'm breastfeeding right now");
- a wish of the moment turned down: "I don't feel like ...", "I'm not in the mood for
  ...", "I'm not up for ..." (not with "never" or a habit: "I'm never in the mood for
  curry");
- a one-off in the words of a stance (:mod:`.one_off_forms`): a bad feeling (VADER) or a
  mood (WordNet) given as the reason of a stance for one occasion ("I'd rather not cook
  tonight, I'm exhausted"; "I'm so stressed right now" alone stays a state) or with a
  reason in the past ("I'm stressed because the builder cancelled"); a choice among the options
  offered now ("I'd rather the morning appointment", "... out of those two"); the
  refusal of an excuse for one event ("I can't make the bake sale because I'm
  working", "I can't go on Thursday because I have a deadline"; the reason's own clause
  is left to the other readers);
- a stance said of an option offered now (:mod:`.offered_picks`): a pick with a modal of
  this reply ("I'd go for the direct flight"), a pointer at one offered thing in the
  object ("I prefer the first one", "the blend you mentioned"), a reply that turns down
  one definite part of an offer ("Fine, but I don't want the early train");
- a past event told as a cause, or as a state with its reason (:mod:`.told_events`: "I
  dropped my phone last week because my hands were full");
- a stance for one date, read from the clause's time expressions (resolved by
  :func:`cognimem.text.temporal.find_times` against the message's time): a time dated
  from today (:func:`cognimem.text.told.told_from_today`) of a week or less ("next
  Tuesday", "this weekend", "next week") or wholly ahead ("next month", "this August",
  "Christmas this year"), but not one in the past (a past event is the tense readers';
  "I gave up sugar last month" stands), not "this month" or "this year" (in force now:
  "I'm not doing any big holidays this year" stands), not a span or a start ("for the
  next two weeks", "until Christmas", "from next week"); or a day that comes round again
  ("on Sunday", "on the 5th", "on New Year's Eve") said of a plan, in the progressive or
  the future ("I'm not mowing the lawn on Sunday"), not in the simple present of a habit
  ("I don't work on Sunday", "I never fly at Christmas"), nor with a verb in the past the
  day may date ("I won't eat shellfish after what happened on Saturday") or "again".
  Not for a goal, whose time is when it is to be reached ("We're saving for a trip next
  year").

Read by :class:`cognimem.ingest.extract.collector.Collector` for every constraint fact:
the past habit's fact no longer holds, the request's and the moment's are not kept (a
whole sentence kept as the value is read from its stance's verb on);
:func:`cognimem.ingest.extract.stance_forms.worth` asks :func:`present_occasion` of an
object before a stance is read from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from cognimem.ingest.extract.offered_picks import (
    pick_of_an_offer,
    points_at_an_offer,
    turns_down_part_of_an_offer,
)
from cognimem.ingest.extract.one_off_forms import (
    choice_offered_now,
    excused_event,
    feeling_of_one_event,
    feeling_of_the_day,
)
from cognimem.ingest.extract.patterns import IRREGULAR_PAST, NOT_PAST_ED, NOT_WEARIED, icase
from cognimem.ingest.extract.told_events import tells_one_event
from cognimem.models.clock import to_utc
from cognimem.models.knowledge import FactCategory
from cognimem.text.mention import RECENT, TimeMention
from cognimem.text.noun_senses import first_class
from cognimem.text.told import tells_a_habit, told_from_today

__all__ = ["in_the_moment", "is_request_for_one_occasion", "past_habit", "present_occasion"]

_IRREGULAR_PAST = rf"(?:{IRREGULAR_PAST})"
_PAST_HABIT = icase(
    r"\b(?:I|we)\s+(?:(?:just|really|pretty\s+much|basically|almost)\s+)?(?:never|always|"
    r"only(?:\s+ever)?|usually|rarely|mostly|hardly\s+ever|constantly)\s+"
    rf"(?:{_IRREGULAR_PAST}|{NOT_WEARIED}{NOT_PAST_ED}[a-z]+ed)\b"
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
# a demonstrative after a preposition naming one piece of talk or one event: "for this
# interview", "in this answer", "at that wedding" (a noun whose most frequent sense in
# WordNet is of communication or an event), not a place ("in this house")
_COURTESY = r"(?:please|thanks|thank\s+you)"
_POINTED_NOUN = icase(
    rf"\b{_PREPOSITION}\s+(?:this|that)\s+(?:[a-z-]+\s+){{0,2}}?(?P<head>[a-z-]+)"
    rf"(?=\s*[,;.!?]|\s*$|\s+{_PREPOSITION}\b|\s+{_COURTESY}\W*$)"
)
_ONE_INSTANCE = frozenset({"communication", "event"})
# a demonstrative naming a lot or an amount of something ("on this batch of seedlings",
# "iron that pile of shirts"): a noun whose most frequent sense in WordNet is a group or
# a quantity, the lot in front of the speaker (not "this kind of", a cognition)
_POINTED_LOT = icase(r"\b(?:this|that)\s+(?P<lot>[a-z]+)\s+of\b")
_ONE_LOT = frozenset({"group", "quantity"})
# a quality of one pointed thing ("the look of that bin", "the size of this room"): a
# noun whose most frequent sense in WordNet is an attribute, of a demonstrative
_POINTED_QUALITY = icase(r"\b(?P<quality>[a-z]+)\s+of\s+(?:this|that|these|those)\b")
# an object that is one past event, a clause in the simple past after "how", "what" or
# "the way" ("I hate how that print came out", "I loved the way it was cooked"), its
# subject first (not "how processed food is sold")
_AUXILIARY = r"(?:am|is|are|be|been|being|was|were|has|have|had|get|gets|got|do|does)"
_EVENT_OBJECT = icase(
    rf"^(?:how|what|(?:the\s+)?way)\s+(?:(?!{_AUXILIARY}\b)[\w'-]+\s+){{1,4}}?"
    rf"(?:was|were|{_IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)\b"
)
# a wish of the moment, turned down: "I don't feel like coffee", "I'm not in the mood to
# tidy", "I'm not up for a long drive" (not with "never": "I'm never in the mood for
# curry" is a standing dislike)
_WISH_NOW = icase(
    r"(?:\bnot|n't)\s+(?:really\s+|quite\s+|feeling\s+)?(?:feel(?:ing)?\s+like|"
    r"in\s+the\s+mood|up\s+(?:for|to))\b"
)
_EVER = icase(r"\b(?:never|ever)\b")
# the speaker too much of something for one occasion: "I'm too sleepy to drive", "we're
# far too full for a starter"
_TOO_MUCH = icase(
    r"^(?:I|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:far|way|much|just|a\s+bit|really)\s+)?too\s+"
    r"[a-z-]+\s+(?:to|for)\b"
)
# the speaker being something ("I'm exhausted", "we're a bit tired"), not having it
_BEING = icase(r"^\W*(?:I|we)(?:'m|'re|\s+am|\s+are)\b")
# the speaker doing something, in the progressive, to an object: "I'm skipping the quiz"
# (not "I'm breastfeeding")
_DOING = icase(r"^(?:I|we)(?:'m|'re|\s+am|\s+are)\s+(?:not\s+)?[a-z]+ing\s+(?:the|my|our|a|an)\b")
# a time dated from today is one occasion when it is a week or shorter ("tonight", "this
# weekend", "next Tuesday", "next week") or lies wholly ahead ("next month", "this
# August"); "this month", "this year" are in force now and the stance holds through them
_OCCASION_SPAN = timedelta(days=7)
# a time that opens a span the stance holds through or from: "for the next two weeks",
# "until Christmas", "from today", "starting tomorrow"
_SPAN_LEAD = icase(r"\b(?:for|until|till|since|from|starting|through)\s+$")
# a plan, in the progressive or the future ("I'm not mowing the lawn on Sunday", "I won't
# drink at the dinner on Friday"), not the simple present of a habit ("I don't work on
# Sunday")
_PLAN = icase(
    r"\b(?:will|won't|shall|going\s+to|gonna)\b|'ll\b|"
    r"(?:\b(?:am|are|is)|'m|'re|'s)\s+(?:not\s+)?[a-z]+ing\b"
)
# a day that comes round again ("on Sunday", "on the 5th", "on New Year's Eve"): one
# occasion only when said of a plan, with no verb in the past it may date instead ("I
# won't eat shellfish after what happened on Saturday") and not of every repeat ("I'm
# not eating oysters again after ...")
_PART_OF_DAY = "part_of_day"
_DAY_LONG = frozenset({_PART_OF_DAY, "day", "weekend"})
_PAST_VERB = icase(rf"\b(?:{_IRREGULAR_PAST}|{NOT_PAST_ED}[a-z]+ed)\b")
_FOR_GOOD = icase(r"\b(?:next\s+time|ever\s+again|again\s+ever|from\s+now\s+on|in\s+future)\b")
# a stance on every repeat of what a pointer names: "do that again", "do this anymore"
_REPEATS = icase(r"\b(?:again|anymore|any\s+more)\b")
_GIVES_REASON = icase(r"\b(?:because|since|as)\b")


def past_habit(clause: str) -> bool:
    """Whether ``clause`` states a habit in the simple past (see the module docstring)."""
    return _PAST_HABIT.search(clause) is not None


def is_request_for_one_occasion(sentence: str) -> bool:
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


def in_the_moment(
    clause: str,
    value: str,
    *,
    kind: FactCategory | None = None,
    times: Sequence[TimeMention] = (),
    reference: datetime | None = None,
    sentence: str = "",
) -> bool:
    """Whether a stance said in ``clause`` with the object ``value`` is one in the
    moment (see the module docstring), not a standing one; ``kind`` is the fact's
    category and ``times`` the clause's time expressions, resolved against
    ``reference``. A state of being, having or feeling is of the present by nature, so
    the clause's time does not count against it ("I have a cold right now", "My eyes
    are itchy today", "I broke my toe this morning"); a wish or a dislike kept as a
    state, its whole sentence the value ("I don't want to X right now"), is a stance.
    ``sentence`` is the whole sentence the clause is part of, read for an excuse for
    one event (:func:`.one_off_forms.excused_event`)."""
    if choice_offered_now(clause) or feeling_of_one_event(clause):
        return True  # "I'd rather the morning appointment", "I'm upset because it collapsed"
    if kind is not FactCategory.GOAL and _said_of_an_offer(clause, value, sentence):
        return True  # "I'd go for the direct flight", "I prefer the first one"
    if sentence and excused_event(clause, sentence):
        return True  # "I can't make the bake sale because I'm working"
    if feeling_of_the_day(clause) and _NOW_SAID.search(sentence.replace(clause, " ")):
        # the reason of a stance for one occasion said in another clause: "I'd rather not
        # cook tonight, I'm exhausted" (a feeling of its own time stays a state: "I'm so
        # stressed right now")
        return True
    if _told_whole(kind, clause, value) and tells_one_event(clause, times, reference):
        return True  # "I dropped my phone last week because my hands were full"
    obj = _SPEAKER_LEAD.sub("", value, count=1)
    if _PRESENT_OBJECT.search(obj) and not _REPEATS.search(clause):
        return True
    if _points_at_one_instance(value) and not _REPEATS.search(clause):
        return True
    if _EVENT_OBJECT.search(obj):
        return True
    if kind is FactCategory.STATE and not _SPEAKER_ACTS.match(value.strip()):
        # a state read as a phrase ("broke my toe") or of being or having, unless it is
        # too much for one occasion ("I'm too sleepy to drive right now") or a plan for
        # one date ("I'm skipping the quiz this week")
        if _TOO_MUCH.match(value.strip()):
            return _NOW_SAID.search(clause) is not None or _on_one_date(clause, times, reference)
        if _BEING.match(clause) and _for_part_of_a_day(clause, times):
            return True  # "I'm exhausted tonight", "I'm a bit queasy this morning"
        return _DOING.match(value.strip()) is not None and _on_one_date(clause, times, reference)
    if _FOR_GOOD.search(clause):
        return False
    if _WISH_NOW.search(clause) and not _EVER.search(clause) and not tells_a_habit(clause):
        return True
    if _NOW_SAID.search(clause):
        return True
    # a goal's time is when it is to be reached, not one occasion ("saving for a trip next
    # year", "aiming for a scholarship next fall")
    return kind is not FactCategory.GOAL and _on_one_date(clause, times, reference)


def _said_of_an_offer(clause: str, value: str, sentence: str) -> bool:
    """Whether a stance is said of an option offered now (:mod:`.offered_picks`); not
    of every repeat of it ("I'd rather not do that one again")."""
    if pick_of_an_offer(clause):
        return True
    return not _REPEATS.search(clause) and (
        points_at_an_offer(clause, value) or turns_down_part_of_an_offer(sentence or clause, value)
    )


def _told_whole(kind: FactCategory | None, clause: str, value: str) -> bool:
    """Whether ``value`` is its whole clause kept as a cause, or as a state with its
    reason: an event told with no reason may leave a state ("I lost my job last month")."""
    if value.strip(" .!?").casefold() != clause.strip(" .!?").casefold():
        return False
    return kind is FactCategory.CAUSAL or (
        kind is FactCategory.STATE and _GIVES_REASON.search(clause) is not None
    )


def _points_at_one_instance(value: str) -> bool:
    """Whether ``value`` names one instance by a demonstrative, by the WordNet class of
    its noun: one piece of talk or one event after a preposition ("wear the blue shirt
    for this interview", "anything with mushrooms in this answer please"), a lot or an
    amount ("on this batch of seedlings"), or a quality of the pointed thing ("the look
    of that compost bin")."""
    return (
        any(first_class(m.group("head")) in _ONE_INSTANCE for m in _POINTED_NOUN.finditer(value))
        or any(first_class(m.group("lot")) in _ONE_LOT for m in _POINTED_LOT.finditer(value))
        or any(
            first_class(m.group("quality")) == "attribute" for m in _POINTED_QUALITY.finditer(value)
        )
    )


def _bounds_a_span(lowered: str, mention: TimeMention) -> bool:
    """Whether ``mention`` opens or closes a span in the lower-cased clause ("for the
    next two weeks", "until tonight", "from today")."""
    at = lowered.find(mention.text.lower())
    return at >= 0 and _SPAN_LEAD.search(lowered[:at]) is not None


def _for_part_of_a_day(clause: str, times: Sequence[TimeMention]) -> bool:
    """Whether one of the clause's ``times`` is a part of one day ("tonight", "this
    morning"), not the bound of a span ("until tonight")."""
    lowered = clause.lower()
    return any(m.granularity == _PART_OF_DAY and not _bounds_a_span(lowered, m) for m in times)


def _on_one_date(clause: str, times: Sequence[TimeMention], reference: datetime | None) -> bool:
    """Whether one of the clause's ``times`` makes it about one occasion: a time dated
    from today of a week or less, or wholly ahead; or a day that comes round again said
    of a plan. A time in the past is left to the readers of tense ("I gave up sugar last
    month" stands), a span to the stance it bounds."""
    if not times:
        return False
    if reference is None:
        raise ValueError("the times of a clause are read against a reference time")
    ref = to_utc(reference)
    today = datetime(ref.year, ref.month, ref.day, tzinfo=UTC)
    lowered = clause.lower()
    for mention in times:
        said = mention.text.lower()
        if mention.granularity == RECENT or _bounds_a_span(lowered, mention):
            continue
        if told_from_today(said):
            if mention.end <= today:
                continue
            if mention.end - mention.start <= _OCCASION_SPAN or mention.start >= today + timedelta(
                days=1
            ):
                return True
        elif (
            mention.granularity in _DAY_LONG
            and _PLAN.search(clause)
            and not any(p.search(clause) for p in (_EVER, _REPEATS, _PAST_VERB))
            and not tells_a_habit(clause)
        ):
            return True
    return False
