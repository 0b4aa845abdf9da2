"""The knowledge calls' arguments (``models/knowledge_requests.py``): each call's
keywords are one ``TypedDict`` that ``Memory`` and the SDK both unpack, kept in step
with the frozen object the service reads and with the HTTP body, so a field added to
one fails here until the others take it."""

from __future__ import annotations

from typing import Any

from cognimem.api.schemas import AliasAddRequest, AliasRemoveRequest, ConflictsQuery, FactsQuery
from cognimem.client import AsyncMemoryClient
from cognimem.memory import Memory
from cognimem.models import Scope
from cognimem.models.knowledge_requests import (
    AliasAdditionArgs,
    AliasAdditionKeywords,
    AliasRemovalArgs,
    AliasRemovalKeywords,
    ConflictsArgs,
    ConflictsKeywords,
    FactsArgs,
    FactsKeywords,
)
from cognimem.models.requests import UserScopeKeywords, made
from tests.unit.signatures import names, typed_keys, unpacked

# the keywords a knowledge call's scope is made from (make_read_scope's)
SCOPE_KEYWORDS = {"scope", "user_id", "all_users"}
# each call, the TypedDict of its keywords, and its object (None: a made Scope)
CALLS: dict[str, tuple[Any, type[Any] | None]] = {
    "facts": (FactsKeywords, FactsArgs),
    "get_fact": (UserScopeKeywords, None),
    "entities": (UserScopeKeywords, None),
    "relations": (UserScopeKeywords, None),
    "conflicts": (ConflictsKeywords, ConflictsArgs),
    "remove_alias": (AliasRemovalKeywords, AliasRemovalArgs),
    "add_alias": (AliasAdditionKeywords, AliasAdditionArgs),
}
# what a call takes by position rather than as a keyword
POSITIONAL = {"entity_id", "alias"}


def test_each_call_s_keywords_are_its_object_s_fields_and_its_scope() -> None:
    for typed, args in CALLS.values():
        own = set() if args is None else names(args) - {"scope"} - POSITIONAL
        assert typed_keys(typed) == own | SCOPE_KEYWORDS, typed


def test_memory_and_the_sdk_unpack_each_call_s_keywords() -> None:
    for call, (typed, _) in CALLS.items():
        assert unpacked(getattr(Memory, call)) is typed, call
        if hasattr(AsyncMemoryClient, call):  # the SDK has no relations
            assert unpacked(getattr(AsyncMemoryClient, call)) is typed, call


def test_the_http_bodies_are_the_objects() -> None:
    assert set(FactsQuery.model_fields) == names(FactsArgs)
    assert set(ConflictsQuery.model_fields) == names(ConflictsArgs)
    # the entity is the path's
    assert set(AliasRemoveRequest.model_fields) == names(AliasRemovalArgs) - {"entity_id"}
    assert set(AliasAddRequest.model_fields) == names(AliasAdditionArgs) - {"entity_id"}


def test_an_object_is_made_with_its_scope_and_its_defaults() -> None:
    args = made(FactsArgs, {"user_id": "u1", "include_history": True})

    assert args.scope == Scope(user_id="u1")
    assert (args.key, args.categories, args.include_history, args.limit) == (
        None,
        None,
        True,
        1_000,
    )
    assert made(ConflictsArgs, {"all_users": True}).scope.user_id is None
