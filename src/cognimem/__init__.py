"""cognimem: a cognitive memory layer for LLM agents.

The public names load on first use (``from cognimem import Memory`` imports the facade
then): ``import cognimem.cli`` or ``cognimem.errors`` must not pay for the whole library,
and every ``cognimem`` command starts through this module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cognimem.client import AsyncMemoryClient, MemoryClient
    from cognimem.config import Settings
    from cognimem.errors import (
        CognimemError,
        Conflict,
        InvalidInput,
        NotFound,
        PermissionDenied,
        ProviderError,
        ProviderOutputError,
        ProviderUnavailable,
        RateLimited,
        SchemaMismatch,
        StoreError,
        StoreUnavailable,
        Unauthenticated,
        UsageError,
    )
    from cognimem.memory import Memory, SyncMemory
    from cognimem.models import (
        ContextPacket,
        Event,
        ItemKind,
        ItemStatus,
        MemoryItem,
        Message,
        MessageResult,
        PacketItem,
        Role,
        Scope,
        Tier,
        Turn,
        WriteOutcome,
        WriteResult,
    )

__version__ = "0.1.0"

# each public name and the module it is loaded from
_HOMES = {
    "AsyncMemoryClient": "cognimem.client",
    "CognimemError": "cognimem.errors",
    "Conflict": "cognimem.errors",
    "ContextPacket": "cognimem.models",
    "Event": "cognimem.models",
    "InvalidInput": "cognimem.errors",
    "ItemKind": "cognimem.models",
    "ItemStatus": "cognimem.models",
    "Memory": "cognimem.memory",
    "MemoryClient": "cognimem.client",
    "MemoryItem": "cognimem.models",
    "Message": "cognimem.models",
    "MessageResult": "cognimem.models",
    "NotFound": "cognimem.errors",
    "PacketItem": "cognimem.models",
    "PermissionDenied": "cognimem.errors",
    "ProviderError": "cognimem.errors",
    "ProviderOutputError": "cognimem.errors",
    "ProviderUnavailable": "cognimem.errors",
    "RateLimited": "cognimem.errors",
    "Role": "cognimem.models",
    "SchemaMismatch": "cognimem.errors",
    "Scope": "cognimem.models",
    "Settings": "cognimem.config",
    "StoreError": "cognimem.errors",
    "StoreUnavailable": "cognimem.errors",
    "SyncMemory": "cognimem.memory",
    "Tier": "cognimem.models",
    "Turn": "cognimem.models",
    "Unauthenticated": "cognimem.errors",
    "UsageError": "cognimem.errors",
    "WriteOutcome": "cognimem.models",
    "WriteResult": "cognimem.models",
}
__all__ = [
    "AsyncMemoryClient",
    "CognimemError",
    "Conflict",
    "ContextPacket",
    "Event",
    "InvalidInput",
    "ItemKind",
    "ItemStatus",
    "Memory",
    "MemoryClient",
    "MemoryItem",
    "Message",
    "MessageResult",
    "NotFound",
    "PacketItem",
    "PermissionDenied",
    "ProviderError",
    "ProviderOutputError",
    "ProviderUnavailable",
    "RateLimited",
    "Role",
    "SchemaMismatch",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailable",
    "SyncMemory",
    "Tier",
    "Turn",
    "Unauthenticated",
    "UsageError",
    "WriteOutcome",
    "WriteResult",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'cognimem' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups find it without this hook
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
