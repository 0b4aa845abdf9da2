"""``CallBody.keywords`` reads the fields from ``__dict__``: that holds every field and
nothing else only while no request body keeps extra fields, which is checked here for
every body, beside the keywords of a read matching the model's own iteration."""

from __future__ import annotations

from cognimem.api.schemas import CallBody, ReadRequest


def _bodies(cls: type[CallBody]) -> list[type[CallBody]]:
    return [cls, *(b for sub in cls.__subclasses__() for b in _bodies(sub))]


def test_no_call_body_keeps_extra_fields() -> None:
    bodies = _bodies(CallBody)
    assert len(bodies) > 5
    assert [b.__name__ for b in bodies if b.model_config.get("extra") == "allow"] == []


def test_a_read_s_keywords_are_its_fields_but_query_and_format() -> None:
    body = ReadRequest.model_validate(
        {
            "query": "where does Sam live?",
            "scope": {"user_id": "sam"},
            "limit": 3,
            "reference_time": "2026-01-01T00:00:00+00:00",
            "explain": True,
            "format": "markdown",
        }
    )
    given = {"scope": {"user_id": "sam", "tenant_id": "acme"}}
    expected = {k: v for k, v in body if k not in {"query", "format"}} | given
    assert body.keywords(**given) == expected
    assert list(body.keywords(**given)) == list(expected)
