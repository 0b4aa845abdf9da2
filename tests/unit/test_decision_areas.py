"""Decision areas (``text/areas.py``): the taxonomy over the scope tags, and how the
write path's rules and the read path put a text in areas."""

from __future__ import annotations

import numpy as np
import pytest

from cognimem.ingest.implications import constraint_areas
from cognimem.models.extraction import SCOPE_TAGS
from cognimem.recall.constraints import QueryView
from cognimem.text.areas import (
    AREA_PHRASES,
    AREAS,
    Area,
    AreaCloseness,
    area_shares,
    areas_of_tags,
    closest_areas,
    tags_under,
    thing_shares,
)


def test_every_area_is_a_scope_tag_with_a_description_and_finer_tags_it_holds() -> None:
    assert [a.name for a in AREAS] == list(Area)
    for area in AREAS:
        assert area.name.value in SCOPE_TAGS
        assert area.description.strip()
        assert area.title.strip()
        assert all(tag in SCOPE_TAGS for tag in area.tags)


def test_finer_tags_fall_under_their_areas() -> None:
    assert areas_of_tags(["allergy"]) == ["food", "health"]
    assert areas_of_tags(["budget", "finance", "pets"]) == ["finance", "family", "home"]
    assert areas_of_tags(["not-a-tag"]) == []
    assert areas_of_tags(["area:travel", "area:no-such-area"]) == ["travel"]
    assert tags_under(["finance"]) == {"finance", "budget", "area:finance"}
    assert "allergy" in tags_under(["health"])
    assert "allergy" in tags_under(["food"])


# the listed things as orthogonal vectors: a text's closeness to each is set by hand
LISTED = np.eye(len(AREA_PHRASES), dtype=np.float32)


def near(*weighted: tuple[str, float]) -> np.ndarray:
    """A vector that close to each listed thing named."""
    vector = np.zeros(len(AREA_PHRASES), dtype=np.float32)
    for thing, weight in weighted:
        vector[AREA_PHRASES.index(thing)] = weight
    return vector


def test_the_areas_list_the_things_their_descriptions_name() -> None:
    assert AREA_PHRASES[:4] == ("spending", "budgets", "prices", "costs")
    assert {"the garden", "chores", "cleaning"} <= set(AREA_PHRASES)
    assert all(thing and ":" not in thing for thing in AREA_PHRASES)


def test_closest_areas_keeps_the_close_ones_within_the_margin() -> None:
    vector = near(("budgets", 0.6), ("flights", 0.55), ("furniture", 0.3))
    rule = AreaCloseness(floor=0.2, margin=0.1, top=3)
    assert closest_areas(vector, LISTED, rule) == ["finance", "travel"]
    assert closest_areas(vector, LISTED, AreaCloseness(0.7, 0.1, 3)) == []
    assert closest_areas(None, LISTED, rule) == []


def test_an_area_is_as_close_as_the_nearest_thing_it_lists() -> None:
    # one listed thing close, the rest of its area far: the area is close (a whole
    # description's vector averaged the one close thing away among a dozen)
    vector = near(("the garden", 0.5), ("mornings", 0.45), ("hobbies", 0.2), ("games", 0.2))
    rule = AreaCloseness(floor=0.1, margin=0.1, top=2)
    assert closest_areas(vector, LISTED, rule) == ["home", "schedule"]


def test_area_shares_grade_how_much_two_texts_fall_in_the_same_areas() -> None:
    garden = near(("the garden", 0.6), ("mornings", 0.3))
    chores = near(("chores", 0.7), ("weekends", 0.4))  # home too, by another thing
    flights = near(("flights", 0.6), ("evenings", 0.3))
    shares = area_shares(np.vstack([garden, chores, flights]), LISTED, 0.02)
    assert np.allclose(shares.sum(axis=1), 1.0)
    assert shares[0] @ shares[1] > 0.5 > shares[0] @ shares[2]


def test_thing_shares_meet_on_one_listed_thing_across_areas() -> None:
    # closest to things of two areas (phones, evenings), both near a third (sleep)
    screens = near(("phones", 0.5), ("sleep", 0.45))
    evening = near(("evenings", 0.5), ("sleep", 0.45))
    flights = near(("flights", 0.5), ("hotels", 0.45))
    things = thing_shares(np.vstack([screens, evening, flights]), LISTED, 0.05)
    assert things.shape == (3, len(AREA_PHRASES))
    assert np.allclose(things.sum(axis=1), 1.0)
    areas = area_shares(np.vstack([screens, evening]), LISTED, 0.02)
    assert things[0] @ things[1] > 0.05 > areas[0] @ areas[1]
    assert things[0] @ things[1] > 10 * (things[0] @ things[2])


def test_closest_areas_refuses_one_vector_per_area() -> None:
    whole = np.eye(len(AREAS), dtype=np.float32)
    with pytest.raises(ValueError, match="AREA_PHRASES"):
        closest_areas(whole[0], whole, AreaCloseness(0.1, 0.05, 2))


def test_a_constraint_naming_no_area_takes_the_areas_of_the_turns_around_it() -> None:
    around = ["Want me to sign you up for yoga again on Saturday morning?"]
    assert constraint_areas([], None, None, around) == [Area.HEALTH, Area.LEISURE, Area.SCHEDULE]
    # its own words name an area: the turns around it are not read
    assert constraint_areas(["finance"], None, None, around) == [Area.FINANCE]


def test_a_request_is_in_the_areas_of_its_tags_and_the_closest_descriptions() -> None:
    view = QueryView.of("Pick a restaurant for Friday", near(("trips", 1.0)), True, LISTED)
    assert view.areas == {"food", "travel"}  # the lexicon's food, the embedder's travel
    assert {"diet", "allergy"} <= view.area_tags
    assert QueryView.of("Pick a restaurant for Friday", None, True).areas == {"food"}
