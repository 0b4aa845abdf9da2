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
    RateLimited,
    SchemaMismatch,
    StoreError,
    StoreUnavailable,
    Unauthenticated,
    UsageError,
)
from cognimem.memory import Memory
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
from cognimem.sync_memory import SyncMemory

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
