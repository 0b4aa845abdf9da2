"""The arguments of ``Memory``'s listings and edits (``list_items``, ``stats``,
``forget``, ``update``, ``export``, ``list_sessions``), and the SDK's calls of those
names, as ``models/requests.py`` keeps a read's: each call's keywords written once as a
``TypedDict`` that ``Memory`` and the SDK both unpack, and the frozen object the service
reads, built once from them. ``tests/unit/test_browse_arguments.py`` keeps the two, the
faces and the HTTP bodies in step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from cognimem.models.arguments import ScopeLike
from cognimem.models.items import ItemKind, ItemStatus, Tier
from cognimem.models.requests import ReadScopeKeywords, UserScopeKeywords
from cognimem.models.scope import Scope


class ItemListKeywords(UserScopeKeywords, total=False):
    """``Memory.list_items``' keywords: ``ItemListArgs``' fields but ``scope``."""

    kinds: Sequence[ItemKind | str] | None
    tiers: Sequence[Tier | str] | None
    statuses: Sequence[ItemStatus | str] | None
    since: datetime | None
    until: datetime | None
    contains: str | None
    external_id: str | None
    limit: int
    shared: bool


@dataclass(frozen=True, kw_only=True)
class ItemListArgs:
    """One item listing (``Memory.list_items`` documents each field)."""

    scope: Scope
    kinds: Sequence[ItemKind | str] | None = None
    tiers: Sequence[Tier | str] | None = None
    statuses: Sequence[ItemStatus | str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    contains: str | None = None
    external_id: str | None = None
    limit: int = 100
    shared: bool = False


class ForgetKeywords(ReadScopeKeywords, total=False):
    """``Memory.forget``'s keywords: ``ForgetOptions``' fields and its scope's."""

    ids: Sequence[str] | None
    query: str | None
    since: datetime | None
    until: datetime | None
    mode: str
    dry_run: bool
    limit: int


@dataclass(frozen=True, kw_only=True)
class ForgetOptions:
    """What one ``Memory.forget`` forgets and how (its scope is made after these are
    checked, so a bad selector is named first)."""

    ids: Sequence[str] | None = None
    query: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    mode: str = "delete"  # ForgetMode; checked by the service
    dry_run: bool = False
    limit: int = 100


class UpdateKeywords(TypedDict, total=False):
    """``Memory.update``'s keywords (after the memory's id): ``UpdateArgs``' fields."""

    text: str | None
    importance: float | None
    tier: Tier | str | None
    feedback: str | None
    tenant_id: str


@dataclass(frozen=True, kw_only=True)
class UpdateArgs:
    """One memory's edit (``Memory.update`` documents each field): at least one of
    text, importance, tier and feedback (``correct``, ``incorrect`` or ``outdated``)."""

    text: str | None = None
    importance: float | None = None
    tier: Tier | str | None = None
    feedback: str | None = None
    tenant_id: str = "default"


class SessionKeywords(TypedDict, total=False):
    """``Memory.create_session``'s keywords (after its id): whose session, and its
    metadata."""

    scope: ScopeLike
    user_id: str | None
    agent_id: str | None
    metadata: Mapping[str, Any] | None


class SessionListKeywords(UserScopeKeywords, total=False):
    """``Memory.list_sessions``' keywords."""

    agent_id: str | None
    limit: int


class ExportKeywords(UserScopeKeywords, total=False):
    """``Memory.export``'s keywords (the SDK's are its scope's: over HTTP an export is
    one namespace's)."""

    all_namespaces: bool
