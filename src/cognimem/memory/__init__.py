"""The in-process API: ``Memory`` (async) and ``SyncMemory`` (blocking).

The modules with a leading underscore are how the facade is built — the class itself
(``_facade``), its call families (``_directory``, ``_lifecycle``, ``_sessions``) and the
blocking wrapper (``_sync``) — and are not API; ``__all__`` is the public list.
"""

from cognimem.memory._facade import Memory
from cognimem.memory._sync import SyncMemory

__all__ = ["Memory", "SyncMemory"]
