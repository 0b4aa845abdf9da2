"""A row's JSON columns decode as ``json.loads`` decodes them (``store/records.py``:
``parse_json``)."""

from __future__ import annotations

import json

import pytest

from cognimem.store.records import parse_json


@pytest.mark.parametrize(
    "text",
    ['["evt_1", "evt_2"]', '["a"]', "[1, 2.5, null, true]", ' ["padded"] ', '[\n"x"\n]'],
)
def test_a_list_column_decodes_as_json_loads_does(text: str) -> None:
    assert parse_json(text) == json.loads(text)


@pytest.mark.parametrize(
    "text", ['{"source": "import", "n": 3}', '{"a": {"b": [1]}}', '\t{"k": "v"}\n']
)
def test_an_object_column_decodes_as_json_loads_does(text: str) -> None:
    assert parse_json(text) == json.loads(text)


@pytest.mark.parametrize("text", ['["a"] x', '["a"', "", "[1,]", '{"a" 1}', '"unterminated'])
def test_a_broken_column_raises_as_json_loads_does(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as raised:
        parse_json(text)
    assert str(raised.value) == str(expected.value)
