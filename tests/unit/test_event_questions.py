"""Questions that count or order events (issue 31 item 4): which form a question has,
the window "as of" a time opens, the words that name the kind of event, the plan's
events step, and what the packet keeps (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cognimem.models import MemoryItem, Scope
from cognimem.recall.analyze import (
    OPEN_START,
    EventForm,
    analyze,
    event_question,
    query_time_range,
)
from cognimem.recall.assemble import packet_item
from cognimem.recall.events import MAX_EVENT_ITEMS, EventPlan, event_terms
from cognimem.recall.plan import StepKind, make_plan
from cognimem.recall.presets import PRESETS
from cognimem.recall.rerank import Ranked
from cognimem.store.types import Candidate
from cognimem.text.events import tells_of_event

NOW = datetime(2025, 10, 1, 12, tzinfo=UTC)
ROSA = Scope(tenant_id="t1", user_id="rosa")


@pytest.mark.parametrize(
    ("query", "form"),
    [
        ("How many pets did I have as of May 2025?", EventForm.COUNT),
        ("How many times did I move in 2025?", EventForm.COUNT),
        ("How often did we go hiking last year?", EventForm.COUNT),
        ("Which did I do first, start the pottery class or join the running club?", "order"),
        ("What did I buy first, the car or the laptop?", EventForm.ORDER),
        ("In what order did I take up Spanish and Italian?", EventForm.ORDER),
        ("How long was it between adopting Max and adopting Luna?", EventForm.BETWEEN),
        ("How many months passed between the two trips?", EventForm.BETWEEN),
        ("How long after meeting Sam did we get engaged?", EventForm.BETWEEN),
        ("Which trip came first?", EventForm.ORDER),
        # one event of several asked of by another said before or after it
        ("Which town was Petra living in before she moved to Graz?", EventForm.ORDER),
        ("Where did we stay after leaving the campsite?", EventForm.ORDER),
        ("Did Olek sell his bike before the race?", EventForm.ORDER),
        # "after" a bare noun names no event; "what ... after" asks what it brought
        ("Which bus did I take after lunch?", None),
        ("What did Petra learn after the workshop?", None),
        ("Where do I live?", None),
        ("When did I adopt Max?", None),
        # asks when one event happened, not which of several came first
        ("Which year did I first go camping?", None),
        ("In which month did Ana first start running?", None),
        # a time's "first" and "yes or no" order nothing
        ("Was the first half of May 2024 a good month for us? Answer yes or no.", None),
        ("Did I go hiking in the first week of June, yes or no?", None),
        ("How long ago did I move?", None),
        ("What is my favourite food?", None),
    ],
)
def test_the_form_of_a_question_about_several_events(query: str, form: str | None) -> None:
    assert event_question(query) == form


def test_as_of_a_time_opens_the_window_up_to_its_end() -> None:
    june = datetime(2025, 6, 1, tzinfo=UTC)
    query = "How many pets did I have as of May 2025?"
    assert query_time_range(query, NOW, up_to=True) == (OPEN_START, june)
    assert query_time_range(query, NOW) == (datetime(2025, 5, 1, tzinfo=UTC), june)
    before = query_time_range("How many trips did I take before 2025?", NOW, up_to=True)
    assert before == (OPEN_START, datetime(2025, 1, 1, tzinfo=UTC))
    until = query_time_range("How many trips did I take until June 2024?", NOW, up_to=True)
    assert until == (OPEN_START, datetime(2024, 7, 1, tzinfo=UTC))
    by_end = query_time_range("How many pets did I have by the end of 2024?", NOW, up_to=True)
    assert by_end == (OPEN_START, datetime(2025, 1, 1, tzinfo=UTC))
    # a counting question keeps its window even in the present tense
    counted = analyze("How many pets do I have as of May 2025?", NOW)
    assert counted.events is EventForm.COUNT
    assert counted.time_range == (OPEN_START, june)
    assert analyze("Where do I live?", NOW).events is None


def test_the_words_of_the_kind_leave_out_times_and_counting_words() -> None:
    assert event_terms("How many pets did I have as of May 2025?") == ["pets"]
    assert event_terms("How many times did I move in 2025?") == ["move"]


def test_only_an_event_question_gets_the_events_step() -> None:
    config = PRESETS["balanced"]
    counted = make_plan(analyze("How many pets do I have?", NOW), config)
    assert StepKind.EVENTS in [s.kind for s in counted.steps()]
    plain = make_plan(analyze("What pets do I have?", NOW), config)
    assert StepKind.EVENTS not in [s.kind for s in plain.steps()]


def test_event_words() -> None:
    assert tells_of_event("Big news, we adopted a puppy!")
    assert tells_of_event("Sam joined the club.")
    assert tells_of_event("Big news: we had a baby girl!")
    assert tells_of_event("I passed my driving test!")
    assert tells_of_event("My son broke his arm at football practice.")
    assert not tells_of_event("We had a lovely chat.")
    # a habit is no event of one time
    assert not tells_of_event("Every summer we went to my grandparents' farm.")
    assert not tells_of_event("On Sundays we always went to church.")
    assert not tells_of_event("We never moved.")
    assert not tells_of_event("Did you move?")
    assert not tells_of_event("Pets are great company.")


def _item(i: int, text: str, days: int) -> MemoryItem:
    at = NOW - timedelta(days=days)
    return MemoryItem(id=f"m{i}", scope=ROSA, text=text, occurred_at=at, recorded_at=at)


def _ranked(item: MemoryItem, score: float) -> Ranked:
    return Ranked(item=item, score=score, signals={}, raw={}, steps=(), tokens=frozenset())


def test_the_events_of_the_kind_are_kept_past_the_limit_and_ordered_when_asked() -> None:
    items = [
        _item(0, "Pets are great company.", 1),  # no event
        _item(1, "We adopted a parrot, three pets now.", 10),  # a word of the kind
        _item(2, "I adopted a kitten.", 100),  # close in meaning
        _item(3, "I bought a new laptop.", 50),  # an event, far in meaning
    ]
    found = [Candidate("m0", 0.9), Candidate("m1", 0.5), Candidate("m2", 0.6)]
    found.append(Candidate("m3", 0.3))
    plan = EventPlan.of(analyze("How many pets do I have?", NOW), found)
    assert plan is not None
    assert not plan.orders
    kind = plan.of_kind(items)
    assert kind == {"m1", "m2"}
    ranked = [_ranked(i, 1.0 - n / 10) for n, i in enumerate(items)]
    kept = plan.keep(ranked, 1, kind)
    assert [r.item.id for r in kept] == ["m0", "m1", "m2"]
    many = [_ranked(_item(n, "I adopted a kitten.", n), 0.5) for n in range(40)]
    assert len(plan.keep(many, 1, {r.item.id for r in many})) == MAX_EVENT_ITEMS
    ordered = EventPlan.of(analyze("Which pet did I adopt first, Luna or Kiwi?", NOW), found)
    assert ordered is not None
    assert ordered.orders
    assert ordered.describe(kind) == {"form": "order", "searched": 4, "events": 2}
    # the events in the order they happened, in the places they held; others stay
    chosen = [packet_item(i, 1.0, {}) for i in (items[1], items[0], items[2])]
    assert [p.id for p in ordered.in_order(chosen, kind, 3)] == ["m2", "m0", "m1"]
    # ... ordered apart in the places the rank chose (the first ``limit``) and past
    # them: the rank's first event does not leave its place for a later one
    assert [p.id for p in ordered.in_order(chosen, kind, 1)] == ["m1", "m0", "m2"]


def test_how_many_units_of_time_is_a_duration_not_a_count() -> None:
    assert event_question("How many years ago did I move to Lisbon?") is None
    assert event_question("How many days did the trip take?") is None
    assert event_question("How many weeks between the two visits?") is EventForm.BETWEEN
    assert event_question("How many times did I move in 2025?") is EventForm.COUNT
