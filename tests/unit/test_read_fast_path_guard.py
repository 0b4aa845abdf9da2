"""``ReadFastPath`` runs the read route's dependencies itself, so it must know all of
them: the checks every router gets come from the same list in ``app.py``, and one
added to the read route itself stops the app at its first request instead of being
skipped on the fast path."""

from __future__ import annotations

import pytest
from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute

from cognimem.api.app import ROUTER_CHECKS
from cognimem.api.read_path import READ_PATH, ReadFastPath
from cognimem.api.routes.memory import read, router


def test_the_read_route_with_its_own_dependencies_is_answered() -> None:
    api = FastAPI()
    path = ReadFastPath(api, api=api, checks=ROUTER_CHECKS)
    assert path.route.path == READ_PATH
    assert path.checks == ROUTER_CHECKS


def test_a_dependency_added_to_the_read_route_stops_the_fast_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def audit_trail() -> None:
        return None

    route = next(r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is read)
    changed = APIRoute(route.path, read, methods=["POST"], dependencies=[Depends(audit_trail)])
    monkeypatch.setattr(router, "routes", [changed])
    api = FastAPI()
    with pytest.raises(RuntimeError, match="audit_trail"):
        ReadFastPath(api, api=api, checks=ROUTER_CHECKS)
