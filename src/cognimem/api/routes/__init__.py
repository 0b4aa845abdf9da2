"""The ``/v1`` routes. Each parses a request, calls ``Memory`` for the caller's tenant
(taken from the API key, never from the request) and renders the result."""

from cognimem.api.routes.browse import router as browse_router
from cognimem.api.routes.knowledge import router as knowledge_router
from cognimem.api.routes.lifecycle import router as lifecycle_router
from cognimem.api.routes.memory import router as memory_router
from cognimem.api.routes.operations import router as operations_router

ROUTERS = (memory_router, knowledge_router, operations_router, lifecycle_router, browse_router)

__all__ = ["ROUTERS"]
