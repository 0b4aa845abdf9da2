"""The parts of a request that asks for several things at once (recall/parts.py)."""

from __future__ import annotations

import pytest

from cognimem.recall.parts import request_parts


@pytest.mark.parametrize(
    ("request_", "parts"),
    [
        ("Can you book me a dinner and a flight?", ["Can you book me a dinner", "a flight"]),
        (
            "Find a hotel in Paris, then a restaurant for Friday",
            ["Find a hotel in Paris", "a restaurant for Friday"],
        ),
    ],
)
def test_a_request_naming_things_of_different_areas_has_parts(
    request_: str, parts: list[str]
) -> None:
    assert request_parts(request_) == parts


@pytest.mark.parametrize(
    "request_",
    [
        "Can you book me a flight?",
        "Plan a fun Saturday for me and the kids.",  # "the kids" names no area of its own
        "Suggest a quick and cheap lunch",
        "Recommend a laptop and a phone",  # one area: one decision
        "Book a flight, a hotel, a dinner, a museum tour and a concert",  # a list
    ],
)
def test_one_decision_or_a_list_has_no_parts(request_: str) -> None:
    assert request_parts(request_) == []
