"""The check every ``/v1`` request passes before its route runs: no text in it (path
parameters, query parameters, the JSON body at any depth) holds a NUL character or an
unpaired surrogate. Such text can never be stored (PostgreSQL refuses NUL; a surrogate is
not Unicode), so it is refused here, with the same 422 on every backend, instead of
reaching a database (``cognimem.models.text`` is the one check)."""

from __future__ import annotations

from email.message import Message
from functools import lru_cache

from fastapi import Request

from cognimem.models.text import check_storable

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _json_body(request: Request) -> bool:
    """Whether the route reads the body as JSON, as FastAPI decides: a content type of
    ``application/json`` or ``application/*+json``, in any case and with any parameters
    (or none at all, which older FastAPI reads as JSON)."""
    if request.method not in _BODY_METHODS:
        return False
    content_type = request.headers.get("content-type")
    return not content_type or _json_content_type(content_type)


@lru_cache(maxsize=256)
def _json_content_type(content_type: str) -> bool:
    """``_json_body`` of one ``Content-Type`` value, parsed as FastAPI parses it (an
    ``email`` header); a client sends the same few values, so each is parsed once."""
    header = Message()
    header["content-type"] = content_type
    subtype = header.get_content_subtype()  # lower case, parameters left out
    return header.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


async def storable_text(request: Request) -> None:
    """A router dependency: ``InvalidInput`` naming the first field (``item_id``,
    ``metadata.note``, ``messages[1].content``) whose text cannot be stored."""
    scope = request.scope
    if scope.get("path_params"):
        for name, value in request.path_params.items():
            check_storable(value, name)
    if scope.get("query_string"):  # else no query parameters to parse
        for name, value in request.query_params.multi_items():
            check_storable(value, name)
    if _json_body(request):
        if plain_json(await request.body()):
            return  # no text parsed from it can hold NUL or a surrogate
        try:
            # FastAPI has parsed (and cached) the body already; unreadable JSON is its
            # own 422, answered without this check
            body = await request.json()
        except ValueError:
            return
        check_storable(body, "")


def plain_json(body: bytes) -> bool:
    """Whether no string ``json.loads(body)`` could return holds NUL or a surrogate, seen
    from the bytes alone (the walk over the parsed body is then skipped). Without a NUL
    byte the body is read as UTF-8 (UTF-16 and UTF-32 JSON always hold one); a string
    then gets NUL or a surrogate only from a ``\\u`` escape or from bytes encoding a
    surrogate, which ``json.loads`` lets through and which start with ``0xED`` (as
    Hangul from U+D000 does: such a body is walked)."""
    return b"\x00" not in body and b"\\u" not in body and b"\xed" not in body
