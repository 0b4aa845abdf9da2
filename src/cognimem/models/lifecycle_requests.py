"""The lifecycle calls' arguments (``Memory.consolidate``, ``revise``,
``detect_procedures``, ``procedures``, ``decay``, ``promote``, ``mandate_candidates``,
``forget_by_policy``, ``run_lifecycle``, and the SDK's calls of those names), as
``models/requests.py`` keeps a read's: each call's keywords written once as a
``TypedDict`` the faces unpack, and how an operation runs as one frozen object
(``RunOptions``: the keywords of the operations table's ``op(scope, *, dry_run,
progress)``), built once with the scope by ``run_of``.
``tests/unit/test_lifecycle_arguments.py`` keeps them and the faces in step."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, TypedDict

from cognimem.models.arguments import ScopeLike
from cognimem.models.requests import UserScopeKeywords, split_scope
from cognimem.models.scope import Scope

Progress = Callable[[float], None]


class RunKeywords(TypedDict, total=False):
    """How a lifecycle operation runs: ``dry_run`` changes nothing and says what would
    change; ``progress`` gets the share done."""

    dry_run: bool
    progress: Progress | None


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """``RunKeywords`` with their defaults: one run of a lifecycle operation."""

    dry_run: bool = False
    progress: Progress | None = None

    def keywords(self) -> dict[str, Any]:
        """The operation's keywords (``op(scope, **keywords)``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class UserRunKeywords(RunKeywords, total=False):
    """``Memory.promote``'s keywords (after the scope)."""

    user_id: str | None
    namespace: str | None


class LevelRunKeywords(UserRunKeywords, total=False):
    """``Memory.decay``'s keywords (after the scope): a user's, or one shared level's
    (``agent_id`` and no user, or the organisation said in the scope)."""

    agent_id: str | None


class PolicyRunKeywords(LevelRunKeywords, total=False):
    """``Memory.forget_by_policy``'s keywords."""

    scope: ScopeLike


class ConsolidateKeywords(RunKeywords, total=False):
    """``Memory.consolidate``'s keywords (after the scope)."""

    user_id: str | None
    agent_id: str | None
    session_id: str | None


class ReviseKeywords(ConsolidateKeywords, total=False):
    """``Memory.revise``' keywords: ``ReviseOptions``' fields and its scope's."""

    scope: ScopeLike
    since: datetime | None
    use_llm: bool


@dataclass(frozen=True, kw_only=True)
class ReviseOptions(RunOptions):
    """One revision run (``Memory.revise``)."""

    since: datetime | None = None
    use_llm: bool = True


class ProcedureRunKeywords(RunKeywords, total=False):
    """``Memory.detect_procedures``' keywords (after the scope)."""

    user_id: str | None
    agent_id: str | None
    all_users: bool
    namespace: str | None


class ProcedureListKeywords(UserScopeKeywords, total=False):
    """``Memory.procedures``' keywords."""

    agent_id: str | None
    limit: int


class MandateKeywords(TypedDict, total=False):
    """``Memory.mandate_candidates``' keywords (after the scope), and the SDK's."""

    user_id: str | None
    namespace: str | None


class LifecycleJobKeywords(TypedDict, total=False):
    """``run_lifecycle``'s keywords over HTTP (the SDK's): whose memories, a dry run or a
    job, and the job's idempotency key."""

    scope: ScopeLike
    user_id: str | None
    agent_id: str | None
    namespace: str | None
    dry_run: bool
    key: str | None


class RunLifecycleKeywords(LifecycleJobKeywords, total=False):
    """``Memory.run_lifecycle``'s keywords: the SDK's and a dry run's ``progress``."""

    progress: Progress | None


class JobListKeywords(TypedDict, total=False):
    """``list_jobs``' keywords (``Memory``'s and the SDK's): ``JobListArgs``' fields."""

    tenant_id: str
    kind: str | None
    state: str | None  # a JobState's value; checked by the service
    limit: int


@dataclass(frozen=True, kw_only=True)
class JobListArgs:
    """One job listing (``Memory.list_jobs``)."""

    tenant_id: str = "default"
    kind: str | None = None
    state: str | None = None
    limit: int = 100


def run_of(
    make: Callable[..., Scope],
    scope: ScopeLike,
    options: Mapping[str, Any],
    kind: type[RunOptions] = RunOptions,
) -> tuple[Scope, RunOptions]:
    """A lifecycle call's scope (made by ``make`` from ``scope`` and its scope keywords)
    and its run (``kind``, from the rest)."""
    where, rest = split_scope(options)
    scope = where.pop("scope", scope)
    return make(scope, **where), kind(**rest)
