"""cognimem: a cognitive memory layer for LLM agents."""

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
    WriteOutcome,
    WriteResult,
)

__version__ = "0.1.0"

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
    "Role",
    "SchemaMismatch",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailable",
    "SyncMemory",
    "Tier",
    "Unauthenticated",
    "UsageError",
    "WriteOutcome",
    "WriteResult",
]
