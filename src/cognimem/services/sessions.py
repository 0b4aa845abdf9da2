"""Sessions: opening, looking up, listing and closing them, and the check that refuses a
write to a closed one."""

from __future__ import annotations

from cognimem.errors import Conflict, InvalidInput, NotFound
from cognimem.models import Scope
from cognimem.models.admin import Session, SessionStatus
from cognimem.models.arguments import ScopeLike, make_read_scope, make_scope
from cognimem.models.browse_requests import SessionKeywords, SessionListKeywords
from cognimem.models.requests import check_keywords, split_scope
from cognimem.services.components import Components
from cognimem.store import records
from cognimem.text.validate import check_metadata


class SessionService:
    """``Memory``'s session calls (documented there)."""

    def __init__(self, parts: Components) -> None:
        self._parts = parts

    async def create_session(self, session_id: str, options: SessionKeywords) -> Session:
        parts = self._parts
        parts.require_open()
        check_keywords(options, SessionKeywords)
        where, rest = split_scope(options)
        target = make_scope(**where, session_id=session_id)
        metadata = rest.get("metadata")
        if target.session_id is None:
            raise InvalidInput("session_id is empty", field="session_id")
        existing = await parts.store.get_session(target.tenant_id, target.namespace, session_id)
        if existing is not None:
            if existing.status is SessionStatus.CLOSED:
                raise Conflict(f"session {session_id} is closed", details={"session": session_id})
            return existing
        check_metadata(dict(metadata or {}), "metadata", parts.settings.ingest.max_metadata_bytes)
        session = Session(
            id=session_id, scope=target, created_at=parts.clock(), metadata=dict(metadata or {})
        )
        await parts.store.put_session(session)
        return session

    async def get_session(self, session_id: str, *, scope: ScopeLike) -> Session:
        self._parts.require_open()
        target = make_scope(scope, session_id=session_id)
        found = await self._parts.store.get_session(target.tenant_id, target.namespace, session_id)
        if found is None:
            raise NotFound("session", session_id)
        return found

    async def list_sessions(self, options: SessionListKeywords) -> list[Session]:
        self._parts.require_open()
        check_keywords(options, SessionListKeywords)
        where, rest = split_scope(options)
        limit = rest.get("limit", 100)
        if not 1 <= limit <= 10_000:
            raise InvalidInput("limit must be between 1 and 10000", field="limit")
        return await self._parts.store.list_sessions(make_read_scope(**where), limit)

    async def close_session(self, session_id: str, *, scope: ScopeLike) -> Session:
        found = await self.get_session(session_id, scope=scope)
        if found.status is SessionStatus.CLOSED:
            return found
        closed = found.model_copy(
            update={"status": SessionStatus.CLOSED, "closed_at": self._parts.clock()}
        )
        await self._parts.store.put_session(closed)
        return closed

    async def check_open(self, target: Scope) -> None:
        """Refuse (``Conflict``) a write to the scope's session when it is closed; a
        session never created is open."""
        if target.session_id is None:
            return
        found = await self._parts.store.get_session(
            target.tenant_id, target.namespace, target.session_id
        )
        if found is not None and found.status is SessionStatus.CLOSED:
            raise records.closed_session(target.session_id)
