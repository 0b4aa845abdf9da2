"""``Memory``'s session calls (a mixin, so ``memory/_facade.py`` keeps to the write, read and
record surface): open, look up, list and close sessions. The work is
``services.sessions``'."""

from __future__ import annotations

from typing import Unpack

from cognimem.models.admin import Session
from cognimem.models.arguments import ScopeLike
from cognimem.models.browse_requests import SessionKeywords, SessionListKeywords
from cognimem.services.sessions import SessionService


class SessionCalls:
    _sessions: SessionService

    async def create_session(self, session_id: str, **options: Unpack[SessionKeywords]) -> Session:
        """Open a session (an existing open one is returned unchanged; a closed one is a
        ``Conflict``). Sessions are optional: writes may name one never created."""
        return await self._sessions.create_session(session_id, options)

    async def get_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """The session of this id in the scope's tenant and namespace (``NotFound``)."""
        return await self._sessions.get_session(session_id, scope=scope)

    async def list_sessions(self, **options: Unpack[SessionListKeywords]) -> list[Session]:
        """The user's sessions (every user's with ``all_users=True``; the agent's when
        given), newest first, at most ``limit`` (100 unless said)."""
        return await self._sessions.list_sessions(options)

    async def close_session(self, session_id: str, *, scope: ScopeLike = None) -> Session:
        """Close a session: writes naming it are refused (``Conflict``) from now on.
        Closing a closed session returns it unchanged; an unknown one is ``NotFound``."""
        return await self._sessions.close_session(session_id, scope=scope)
