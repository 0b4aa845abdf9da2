"""The API keys a server has looked up, kept while no key changes anywhere.

Every HTTP request presents a key. Looking it up is a query and an ``ApiKey`` built
from its row; the store's key-change counter (``KeyStore.api_key_changes``, bumped by
triggers in the transaction of every change to the keys, by any process or by hand) is
one value of one row. :class:`KeyCache` reads the counter on every lookup and serves a
key it found while the counter stood at the same value; once the counter has moved, it
forgets every key it holds. A key revoked by another process (the CLI, another worker)
is therefore refused on the very next request, as without the cache. Expiry is checked
by the caller at each request (``ApiKey.usable_at``), so it needs no change.

The counter is read before the key: a key found after a change began is kept under
the counter read before it, which the change has already moved past, so the next lookup
forgets it. Only found keys are kept (an unknown key is looked up each time, so made-up
keys cannot fill the cache), at most ``size`` of them, the oldest dropped first.
"""

from __future__ import annotations

from cognimem.models.admin import ApiKey
from cognimem.store.admin_protocols import KeyStore

DEFAULT_SIZE = 4096


class KeyCache:
    """``find_api_key`` of a :class:`KeyStore`, served from memory while its keys stay
    unchanged."""

    def __init__(self, store: KeyStore, *, size: int = DEFAULT_SIZE) -> None:
        self.store = store
        self.size = size
        self._changes: int | None = None
        self._keys: dict[str, ApiKey] = {}

    async def find(self, key_hash: str) -> ApiKey | None:
        """The key stored under ``key_hash`` as the store holds it now, or ``None``."""
        changes = await self.store.api_key_changes()
        if changes != self._changes:
            self._keys.clear()
            self._changes = changes
        key = self._keys.get(key_hash)
        if key is not None:
            return key
        key = await self.store.find_api_key(key_hash)
        # another lookup may have seen a later count meanwhile: keep the key only under
        # the count read before it
        if key is not None and changes == self._changes:
            if len(self._keys) >= self.size:
                del self._keys[next(iter(self._keys))]
            self._keys[key_hash] = key
        return key


__all__ = ["KeyCache"]
