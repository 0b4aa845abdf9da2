"""Domain models shared by every layer of cognimem."""

from cognimem.models.events import Event, Message, Role
from cognimem.models.items import ItemKind, ItemStatus, MemoryItem, Tier
from cognimem.models.packets import ContextPacket, PacketItem, StepReport
from cognimem.models.results import (
    KnowledgeReport,
    MessageResult,
    Turn,
    WriteOutcome,
    WriteResult,
    WriteStepReport,
)
from cognimem.models.scope import Scope

__all__ = [
    "ContextPacket",
    "Event",
    "ItemKind",
    "ItemStatus",
    "KnowledgeReport",
    "MemoryItem",
    "Message",
    "MessageResult",
    "PacketItem",
    "Role",
    "Scope",
    "StepReport",
    "Tier",
    "Turn",
    "WriteOutcome",
    "WriteResult",
    "WriteStepReport",
]
