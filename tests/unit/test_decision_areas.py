"""Decision areas (``text/areas.py``): the taxonomy over the scope tags, and how the
write path's rules and the read path put a text in areas."""

from __future__ import annotations

import numpy as np

from cognimem.ingest.implications import constraint_areas
from cognimem.models.extraction import SCOPE_TAGS
from cognimem.recall.constraints import QueryView
from cognimem.text.areas import (
    AREAS,
    Area,
    AreaCloseness,
    areas_of_tags,
    closest_areas,
    tags_under,
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


def one_hot(i: int) -> np.ndarray:
    vector = np.zeros(len(AREAS), dtype=np.float32)
    vector[i] = 1.0
    return vector


def test_closest_areas_keeps_the_close_ones_within_the_margin() -> None:
    descriptions = np.eye(len(AREAS), dtype=np.float32)
    vector = 0.6 * one_hot(0) + 0.55 * one_hot(4) + 0.3 * one_hot(7)
    rule = AreaCloseness(floor=0.2, margin=0.1, top=3)
    assert closest_areas(vector, descriptions, rule) == ["finance", "travel"]
    assert closest_areas(vector, descriptions, AreaCloseness(0.7, 0.1, 3)) == []
    assert closest_areas(None, descriptions, rule) == []


def test_a_constraint_naming_no_area_takes_the_areas_of_the_turns_around_it() -> None:
    around = ["Want me to sign you up for yoga again on Saturday morning?"]
    assert constraint_areas([], None, None, around) == [Area.HEALTH, Area.LEISURE, Area.SCHEDULE]
    # its own words name an area: the turns around it are not read
    assert constraint_areas(["finance"], None, None, around) == [Area.FINANCE]


def test_a_request_is_in_the_areas_of_its_tags_and_the_closest_descriptions() -> None:
    descriptions = np.eye(len(AREAS), dtype=np.float32)
    view = QueryView.of("Pick a restaurant for Friday", one_hot(4), True, descriptions)
    assert view.areas == {"food", "travel"}  # the lexicon's food, the embedder's travel
    assert {"diet", "allergy"} <= view.area_tags
    assert QueryView.of("Pick a restaurant for Friday", None, True).areas == {"food"}
