"""``Memory``'s session calls (a mixin, so ``memory/_facade.py`` keeps to the write, read and
record surface): open, look up, list and close sessions. The work is
``services.sessions``'."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cognimem.models.admin import Session
from cognimem.models.arguments import ScopeLike
from cognimem.services.sessions import SessionService


class SessionCalls:
    _sessions: SessionService

    async def create_session(
        self,
        session_id: str,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Session:
        """Open a session (an existing open one is returned unchanged; a closed one is a
        ``Conflict``). Sessions are optional: writes may name one never created."""
        return await self._sessions.create_session(
            session_id, scope=scope, user_id=user_id, agent_id=agent_id, metadata=metadata
        )

    async def get_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """The session of this id in the scope's tenant and namespace (``NotFound``)."""
        return await self._sessions.get_session(session_id, scope=scope)

    async def list_sessions(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        all_users: bool = False,
        limit: int = 100,
    ) -> list[Session]:
        """The user's sessions (every user's with ``all_users=True``; the agent's when
        given), newest first."""
        return await self._sessions.list_sessions(
            scope=scope, user_id=user_id, agent_id=agent_id, all_users=all_users, limit=limit
        )

    async def close_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """Close a session: writes naming it are refused (``Conflict``) from now on.
        Closing a closed session returns it unchanged; an unknown one is ``NotFound``."""
        return await self._sessions.close_session(session_id, scope=scope)
