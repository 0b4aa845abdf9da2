"""Decision areas: the few broad parts of a life a constraint bears on (money, food and
diet, health and body, time, travel, ...), so that "I've been trying to cut down on
spending" and "plan my Saturday" meet although they share no word.

The areas are not a second vocabulary beside the scope tags (:mod:`.scope_tags`): each
area *is* a broad scope tag, and the finer tags fall under one or more of them
(``allergy`` under food and health, ``budget`` under finance, ``pets`` under family and
home). A fact's areas are therefore the areas of its scope tags, and the write path
records each area a constraint bears on as a tag ``area:<name>`` (from its own tags,
the embedder's closeness to the area's description, the turns around it, or the LLM's
answer: ``ingest/implications.py``); the read path puts a request in areas by its tags
and the embedder. A shared area is one signal of
relevance among the others (``recall/constraints.py``).

Each area has a description: the line the documentation and the LLM prompt show
(``docs/constraints.md``), and the list of things the embedder compares with a
constraint or a request, one at a time (:data:`AREA_PHRASES`): a text is as close to an
area as to the nearest thing its description lists. Embedded whole, a description is
the blur of a dozen topics, and a short constraint sits about as near to several of
them ("I never water in the midday heat" was put in no area the garden is in).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from cognimem.models.areas import Area

__all__ = [
    "AREAS",
    "AREA_PHRASES",
    "AREA_TAG",
    "Area",
    "AreaCloseness",
    "AreaDescriptions",
    "DecisionArea",
    "area_shares",
    "areas_of_tags",
    "closest_areas",
    "tags_under",
    "thing_shares",
]


# a fact's scope tag saying which area the write path put it in: "area:food". Kept apart
# from the lexicon's own tags, so a guess of the embedder or of the turns around a
# constraint is the weaker signal of a shared area, never a scope tag's match
AREA_TAG = "area:"


@dataclass(frozen=True)
class DecisionArea:
    """One area: its name (a scope tag), a short title, the description the embedder
    reads, and the finer scope tags that fall under it."""

    name: Area
    title: str
    description: str
    tags: tuple[str, ...]


AREAS: tuple[DecisionArea, ...] = (
    DecisionArea(
        Area.FINANCE,
        "money",
        "Money: spending, budgets, prices and costs, saving, debt, bills, income, paying "
        "for things and what one can afford.",
        ("budget",),
    ),
    DecisionArea(
        Area.FOOD,
        "food and diet",
        "Food and diet: eating, meals, restaurants, cooking, recipes, groceries, snacks, "
        "drinks and alcohol, diets, foods someone avoids or cannot eat.",
        ("diet", "allergy"),
    ),
    DecisionArea(
        Area.HEALTH,
        "health and body",
        "Health and body: illness, injuries, pain, medication, doctors, allergies, sleep, "
        "energy, exercise, weight, stress and mental health.",
        ("medical", "allergy", "fitness"),
    ),
    DecisionArea(
        Area.SCHEDULE,
        "time and schedule",
        "Time and schedule: appointments, meetings, bookings, the calendar, hours of the "
        "day, mornings and evenings, weekdays and weekends, deadlines, when someone is "
        "free or busy.",
        (),
    ),
    DecisionArea(
        Area.TRAVEL,
        "travel",
        "Travel: trips, flights, hotels, vacations, commuting, driving, trains and "
        "transport, getting from one place to another.",
        (),
    ),
    DecisionArea(
        Area.FAMILY,
        "family and relationships",
        "Family and relationships: partner, children, parents, relatives, friends, "
        "dating, pets, social life, gatherings and gifts for people.",
        ("social", "pets"),
    ),
    DecisionArea(
        Area.WORK,
        "work",
        "Work: the job, career, office, colleagues and boss, clients, business and "
        "professional tasks.",
        (),
    ),
    DecisionArea(
        Area.HOME,
        "home",
        "Home: the house or apartment, furniture, decorating, chores and cleaning, the "
        "garden, moving, neighbours.",
        ("pets",),
    ),
    DecisionArea(
        Area.LEISURE,
        "leisure",
        "Leisure: hobbies, games, films, television, music, sports, outings, events, "
        "parties, weekends and free time.",
        ("entertainment", "fitness", "social"),
    ),
    DecisionArea(
        Area.EDUCATION,
        "learning",
        "Learning: studying, courses, classes, school, languages, skills, reading, exams "
        "and practice.",
        (),
    ),
    DecisionArea(
        Area.SHOPPING,
        "shopping",
        "Shopping: buying products, clothes, brands, stores, orders and deliveries.",
        (),
    ),
    DecisionArea(
        Area.TECHNOLOGY,
        "technology and communication",
        "Technology and communication: phones, apps, computers, online accounts, social "
        "media, messages, email, calls, notifications and personal data.",
        ("communication", "privacy"),
    ),
    DecisionArea(
        Area.VALUES,
        "values and beliefs",
        "Values and beliefs: religion and faith, ethics, the environment, causes someone "
        "supports, principles and the law.",
        ("religion", "environment", "legal"),
    ),
)


def _listed(description: str) -> tuple[str, ...]:
    """The things a description lists after its title ("Money: spending, budgets, prices
    and costs, ..." -> "spending", "budgets", "prices", "costs", ...)."""
    listed = description.split(":", 1)[-1]
    pieces = (p.strip(" .") for p in re.split(r",| and ", listed))
    return tuple(p for p in pieces if p)


# every area's listed things, area after area in AREAS order: what the embedder compares
# a text with (closest_areas), and where each area's run of them starts
AREA_PHRASES: tuple[str, ...] = tuple(p for a in AREAS for p in _listed(a.description))
_STARTS = np.cumsum([0, *(len(_listed(a.description)) for a in AREAS[:-1])])

# scope tag -> the areas it falls under (an area's own name falls under itself)
_UNDER: dict[str, tuple[str, ...]] = {}
for _area in AREAS:
    for _tag in (_area.name.value, *_area.tags):
        _UNDER[_tag] = (*_UNDER.get(_tag, ()), _area.name.value)
_TAGS_OF: dict[str, frozenset[str]] = {
    a.name.value: frozenset((a.name.value, *a.tags)) for a in AREAS
}


def areas_of_tags(tags: Iterable[str]) -> list[str]:
    """The areas ``tags`` fall under, in the order of the tags (an ``area:`` tag names
    its area; a tag no area holds, none)."""
    out: list[str] = []
    for tag in tags:
        under = _UNDER.get(tag.removeprefix(AREA_TAG), ())
        out += [a for a in under if a not in out]
    return out


def tags_under(areas: Iterable[str]) -> frozenset[str]:
    """Every scope tag that falls under one of ``areas`` (the areas' own names and their
    ``area:`` tags too): a fact carrying any of them bears on one of the areas."""
    out: set[str] = set()
    for area in areas:
        if area in _TAGS_OF:
            out |= _TAGS_OF[area] | {AREA_TAG + area}
    return frozenset(out)


@dataclass(frozen=True)
class AreaCloseness:
    """When an embedder's closeness to an area's description puts a text in it: the
    closest areas (at most ``top``) at least ``floor`` close and within ``margin`` of
    the closest one."""

    floor: float
    margin: float
    top: int


def closest_areas(
    vector: np.ndarray | None, descriptions: np.ndarray | None, rule: AreaCloseness
) -> list[str]:
    """The areas close enough to ``vector`` by ``rule``, closest first: an area is as
    close as the nearest of the things its description lists (``descriptions`` holds
    their vectors, a row per :data:`AREA_PHRASES` entry, unit length)."""
    if vector is None or descriptions is None or rule.top <= 0:
        return []
    if len(descriptions) != len(AREA_PHRASES):
        raise ValueError(
            f"the areas' descriptions hold {len(descriptions)} vectors, not one per "
            f"listed thing ({len(AREA_PHRASES)}): embed AREA_PHRASES (AreaDescriptions)"
        )
    nearest = descriptions @ np.asarray(vector, dtype=np.float32)
    cosine = np.maximum.reduceat(nearest, _STARTS)
    order = np.argsort(-cosine, kind="stable")
    best = float(cosine[order[0]])
    return [
        AREAS[i].name.value
        for i in order[: rule.top]
        if cosine[i] >= rule.floor and cosine[i] >= best - rule.margin
    ]


def area_shares(vectors: np.ndarray, descriptions: np.ndarray, temperature: float) -> np.ndarray:
    """Per row of ``vectors`` (unit length), how it divides among the areas: a softmax
    over each area's closeness (as :func:`closest_areas` measures it) at
    ``temperature``, rows summing to 1. Two texts' shares' dot product is how much they
    fall in the same areas, graded where :func:`closest_areas` is all or nothing."""
    nearest = np.asarray(vectors, dtype=np.float32) @ descriptions.T
    return _softmax(np.maximum.reduceat(nearest, _STARTS, axis=1), temperature)


def thing_shares(vectors: np.ndarray, descriptions: np.ndarray, temperature: float) -> np.ndarray:
    """Per row of ``vectors`` (unit length), how it divides among the things the areas
    list (:data:`AREA_PHRASES`, whose vectors ``descriptions`` holds): a softmax over its
    cosine with each at ``temperature``, rows summing to 1. Finer than
    :func:`area_shares`, which counts an area as close as its nearest thing: two texts
    of one area may lie near different things of it (sleep, doctors), and two whose
    closest areas differ may still share a thing near both."""
    return _softmax(np.asarray(vectors, dtype=np.float32) @ descriptions.T, temperature)


def _softmax(closeness: np.ndarray, temperature: float) -> np.ndarray:
    close = closeness.astype(np.float64)
    weights = np.exp((close - close.max(axis=1, keepdims=True)) / temperature)
    shares: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
    return shares


class AreaDescriptions:
    """The things the areas' descriptions list (:data:`AREA_PHRASES`) as one embedder's
    vectors, embedded on first use and kept (one batch per process and embedder).

    One embedding at a time, shared: the callers that ask while it runs (two steps of
    one read, concurrent reads) wait for the same one, and a caller cancelled meanwhile
    (a step's timeout) leaves it running, so what it embedded is kept for the next
    caller instead of being embedded again by every read until one finishes in time.
    A failed embedding is raised to the callers waiting for it; the next caller tries
    again."""

    def __init__(self) -> None:
        self._matrix: np.ndarray | None = None
        self._running: asyncio.Future[np.ndarray] | None = None

    async def matrix(self, embed: Callable[[Sequence[str]], Awaitable[np.ndarray]]) -> np.ndarray:
        """The vectors of :data:`AREA_PHRASES`, in order (unit length)."""
        if self._matrix is not None:
            return self._matrix
        running, loop = self._running, asyncio.get_running_loop()
        if running is None or running.done() or running.get_loop() is not loop:
            # none yet, the last one failed, or it belongs to another (a gone) loop
            running = self._running = asyncio.ensure_future(self._embed(embed))
            running.add_done_callback(_retrieved)
        return await asyncio.shield(running)

    async def _embed(self, embed: Callable[[Sequence[str]], Awaitable[np.ndarray]]) -> np.ndarray:
        found = np.asarray(await embed(list(AREA_PHRASES)), dtype=np.float32)
        self._matrix = found
        return found


def _retrieved(done: asyncio.Future[np.ndarray]) -> None:
    """A failure nobody waited for any more (every caller was cancelled) is not logged
    as never retrieved: the next caller tries again and meets its own."""
    if not done.cancelled():
        done.exception()
