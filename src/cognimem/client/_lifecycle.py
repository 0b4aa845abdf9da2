"""The SDK's lifecycle calls (a mixin of ``AsyncMemoryClient``): lifecycle operations as
admin calls, the job listing, the learnt procedures and the mandate candidates
promotion proposes, as ``Memory.run_lifecycle``, ``list_jobs``, ``procedures``,
``mandate_candidates`` and ``accept_mandate``."""

from __future__ import annotations

from typing import Unpack
from urllib.parse import quote

import httpx

from cognimem.client._resend import run_key
from cognimem.client._wire import ClientCalls, check_tenant, options_body, parse_list
from cognimem.errors import InvalidInput
from cognimem.models import MemoryItem
from cognimem.models.arguments import ScopeLike
from cognimem.models.lifecycle import LifecycleRun, MandateCandidate
from cognimem.models.lifecycle_requests import (
    JobListArgs,
    JobListKeywords,
    LifecycleJobKeywords,
    MandateKeywords,
)
from cognimem.models.procedures import Procedure
from cognimem.queue import Job


class LifecycleClientCalls(ClientCalls):
    """Lifecycle operations and jobs."""

    async def run_lifecycle(self, op: str, **options: Unpack[LifecycleJobKeywords]) -> LifecycleRun:
        """Queue lifecycle operation ``op`` on one level's memories (``job``): a user's,
        an agent's (``agent_id`` alone), a namespace's (``scope={"level":
        "namespace"}``) or the organisation's (``scope={"level": "organisation"}``); or
        with ``dry_run`` get what it would change (``result``,
        ``summary``); see :meth:`Memory.run_lifecycle`. Progress is the job's
        (:meth:`get_job`). Without a ``key`` the client makes one up for the run, so
        it is safe to send again when its answer is lost (one job either way)."""
        path = f"/v1/lifecycle/{quote(op, safe='')}"
        body = options_body(options, LifecycleJobKeywords)
        if not body.get("dry_run") and body.get("key") is None:
            body["key"] = run_key()
        return await self._call_model(LifecycleRun, "POST", path, body)

    async def mandate_candidates(
        self, scope: ScopeLike = None, **options: Unpack[MandateKeywords]
    ) -> list[MandateCandidate]:
        """The user's memories proposed as mandates; see :meth:`Memory.mandate_candidates`."""
        body = {"scope": self._scope_body(scope, **options)}
        response = await self._call("POST", "/v1/mandate-candidates/query", body)
        return parse_list(response, MandateCandidate)

    async def accept_mandate(self, item_id: str, *, tenant_id: str = "default") -> MemoryItem:
        """Make a mandate candidate a mandate; see :meth:`Memory.accept_mandate`."""
        check_tenant(tenant_id)
        path = f"/v1/mandate-candidates/{quote(item_id, safe='')}/accept"
        return await self._call_model(MemoryItem, "POST", path)

    async def list_jobs(self, **options: Unpack[JobListKeywords]) -> list[Job]:
        """The tenant's jobs, newest first, with state, progress and result summary."""
        asked = JobListArgs(**options)
        check_tenant(asked.tenant_id)
        params = {"limit": str(asked.limit)}
        if asked.kind is not None:
            params["kind"] = asked.kind
        if asked.state is not None:
            params["state"] = str(asked.state)  # checked by the server (422), as Memory does
        response = await self._call("GET", f"/v1/jobs?{httpx.QueryParams(params)}")
        return parse_list(response, Job)

    async def procedures(
        self,
        *,
        scope: ScopeLike = None,
        user_id: str | None = None,
        limit: int = 100,
    ) -> list[Procedure]:
        """One user's learnt procedures, most confident first (see
        :meth:`Memory.procedures`; over HTTP, one user's at a time)."""
        fields = self._scope_body(scope, user_id=user_id)
        user = fields.get("user_id")
        if not isinstance(user, str):
            raise InvalidInput(
                "procedures are listed one user's at a time: pass user_id", field="scope.user_id"
            )
        params = {"limit": str(limit), "namespace": str(fields.get("namespace", "default"))}
        path = f"/v1/users/{quote(user, safe='')}/procedures?{httpx.QueryParams(params)}"
        return parse_list(await self._call("GET", path), Procedure)

    async def detect_procedures(
        self,
        scope: ScopeLike = None,
        *,
        user_id: str | None = None,
        namespace: str | None = None,
        dry_run: bool = False,
    ) -> LifecycleRun:
        """Learn the user's procedures: the ``procedures`` lifecycle operation (a job,
        or with ``dry_run`` what it would change; see :meth:`Memory.detect_procedures`)."""
        return await self.run_lifecycle(
            "procedures", scope=scope, user_id=user_id, namespace=namespace, dry_run=dry_run
        )
