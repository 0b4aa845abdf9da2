"""The Python SDK: ``AsyncMemoryClient`` and ``MemoryClient`` over the HTTP API.

The modules with a leading underscore are how the SDK is built — the clients
(``_client``), their call families (``_directory``, ``_knowledge``, ``_lifecycle``,
``_writes``), which requests are sent again when their answer is lost (``_resend``) and
the wire format and client errors (``_wire``) — and are not API; ``__all__`` is the
public list.
"""

from cognimem.client._client import DEFAULT_BASE_URL, AsyncMemoryClient, MemoryClient
from cognimem.client._wire import ClientError, TransportError

__all__ = [
    "DEFAULT_BASE_URL",
    "AsyncMemoryClient",
    "ClientError",
    "MemoryClient",
    "TransportError",
]
