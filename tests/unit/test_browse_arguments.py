"""The listings' and edits' arguments by scope (``models/browse_requests.py``): each
call's keywords are one ``TypedDict`` that ``Memory`` and the SDK both unpack, kept in
step with its frozen object and with the HTTP body, so a field added to one fails here
until the others take it."""

from __future__ import annotations

from cognimem.api.routes.browse import ItemsQuery
from cognimem.api.schemas import ForgetRequest, SessionsQuery, UpdateRequest
from cognimem.client import AsyncMemoryClient
from cognimem.memory import Memory
from cognimem.models.browse_requests import (
    ExportKeywords,
    ForgetKeywords,
    ForgetOptions,
    ItemListArgs,
    ItemListKeywords,
    SessionListKeywords,
    UpdateArgs,
    UpdateKeywords,
)
from cognimem.models.requests import ReadScopeKeywords, UserScopeKeywords
from tests.unit.signatures import names, typed_keys, unpacked

USER = {"scope", "user_id", "all_users"}
READ = USER | {"agent_id", "session_id"}


def test_each_call_s_keywords_are_its_object_s_fields_and_its_scope() -> None:
    assert typed_keys(ItemListKeywords) == names(ItemListArgs) - {"scope"} | USER
    assert typed_keys(ForgetKeywords) == names(ForgetOptions) | READ
    assert typed_keys(SessionListKeywords) == {"agent_id", "limit"} | USER
    assert typed_keys(ExportKeywords) == {"all_namespaces"} | USER
    assert typed_keys(UpdateKeywords) == names(UpdateArgs)


def test_memory_and_the_sdk_unpack_the_same_keywords() -> None:
    same = {
        "list_items": ItemListKeywords,
        "forget": ForgetKeywords,
        "stats": ReadScopeKeywords,
        "list_sessions": SessionListKeywords,
        "update": UpdateKeywords,
    }
    for call, typed in same.items():
        assert unpacked(getattr(Memory, call)) is typed, call
        assert unpacked(getattr(AsyncMemoryClient, call)) is typed, call
    # over HTTP an export is one namespace's
    assert unpacked(Memory.export) is ExportKeywords
    assert unpacked(AsyncMemoryClient.export) is UserScopeKeywords


def test_the_http_bodies_are_the_objects() -> None:
    assert set(ItemsQuery.model_fields) == names(ItemListArgs)
    assert set(ForgetRequest.model_fields) == names(ForgetOptions) | {"scope"}
    # an edit's tenant is the caller's key's
    assert set(UpdateRequest.model_fields) == names(UpdateArgs) - {"tenant_id"} | {"id"}
    # the scope's own fields are the body's scope
    assert set(SessionsQuery.model_fields) == typed_keys(SessionListKeywords) - READ | {"scope"}
