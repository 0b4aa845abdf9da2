"""Arguments as callers pass them, made into validated models: a scope given as a
``Scope``, a mapping and/or keyword fields; a message given as a ``Message``, a mapping or
a string; ids and keys checked as stored text is. Bad input is an ``InvalidInput`` that
names the field. ``Memory``'s services and the faces that build scopes themselves (the
HTTP API, MCP) share these, so every entry point answers the same."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from cognimem.errors import InvalidInput
from cognimem.models.events import Message
from cognimem.models.scope import ORGANISATION_NAMESPACE, Scope
from cognimem.models.text import check_storable

ScopeLike = Scope | Mapping[str, Any] | None
T = TypeVar("T")

# why a read (forget, export, ...) without a user is refused, and what to do instead
USER_REQUIRED = "scope.user_id is required: pass all_users=true to span every user of the tenant"
ALL_USERS_WITH_USER = "scope.all_users spans every user of the tenant: leave scope.user_id out"
ALL_USERS_NOT_HERE = (
    "scope.all_users does not apply here: it widens a read (read, turn, forget, export,"
    " stats, facts, entities, relations, conflicts, sessions) to every user; a write"
    " without scope.user_id stores a memory of no user"
)


def make_scope(scope: ScopeLike = None, **fields: str | None) -> Scope:
    """A ``Scope`` from a Scope, a mapping and/or keyword fields; bad fields → InvalidInput."""
    data: dict[str, Any] = {}
    if isinstance(scope, Scope):
        data = scope.model_dump()
    elif scope is not None:
        data = dict(scope)
    if data.pop("all_users", False):
        raise InvalidInput(ALL_USERS_NOT_HERE, field="scope.all_users")
    data.update({k: v for k, v in fields.items() if v is not None})
    if data.get("namespace") == ORGANISATION_NAMESPACE:
        raise InvalidInput(
            f"scope.namespace: {ORGANISATION_NAMESPACE!r} is no namespace a call names: the"
            ' organisation\'s level is scope.level = "organisation"',
            field="scope.namespace",
        )
    try:
        return Scope.model_validate(data)
    except ValidationError as exc:
        raise invalid_input(exc, "scope") from exc


# the levels a write may name in place of a user (scope.level)
ORGANISATION = "organisation"
NAMESPACE = "namespace"
SHARED_LEVELS = (NAMESPACE, ORGANISATION)
LEVEL_REQUIRED = (
    "a write names whose memory it is: scope.user_id (or scope.agent_id), or"
    ' scope.level = "namespace" for the namespace\'s or "organisation" for the'
    " organisation's, which every user's read includes"
)


def make_write_scope(scope: ScopeLike = None, **fields: str | None) -> Scope:
    """The scope of a write: a user's (or an agent's), or a shared level's only when it
    says so with ``scope["level"]``: ``"namespace"`` (the namespace's: no user, no
    agent, in ``scope["namespace"]``) or ``"organisation"`` (the tenant's in every
    namespace: a namespace beside it is not the level's). A user id left unset by
    mistake never writes what every user reads (``InvalidInput`` naming
    ``scope.level``)."""
    level: object = None
    if isinstance(scope, Scope):  # one made here before: the organisation's says so
        scope = _named(scope)
    if isinstance(scope, Mapping) and "level" in scope:
        level = scope["level"]
        scope = {k: v for k, v in scope.items() if k != "level"}
        if level == ORGANISATION:  # every namespace's: the namespace is not the level's
            scope = {k: v for k, v in scope.items() if k != "namespace"}
            fields = {k: v for k, v in fields.items() if k != "namespace"}
    target = make_scope(scope, **fields)
    if level is None:
        if target.user_id is None and target.agent_id is None:
            raise InvalidInput(LEVEL_REQUIRED, field="scope.level")
        return target
    if level not in SHARED_LEVELS:
        raise InvalidInput(
            f"scope.level: {level!r} is not a level a write names ({NAMESPACE!r} or"
            f" {ORGANISATION!r})",
            field="scope.level",
        )
    for name in ("user_id", "agent_id", "session_id"):
        if getattr(target, name) is not None:
            raise InvalidInput(
                f"the {level}'s level belongs to no user, agent or session: leave out scope.{name}",
                field=f"scope.{name}",
            )
    return target.organisation() if level == ORGANISATION else target


def _named(scope: Scope) -> dict[str, Any]:
    """A ``Scope`` as a mapping a call passes: the organisation's as its level."""
    data = scope.model_dump()
    if data["namespace"] == ORGANISATION_NAMESPACE:
        data["level"] = ORGANISATION
    return data


def level_name(scope: Scope) -> dict[str, str]:
    """A shared level's scope as a call names it: ``{"level": ...}`` with the namespace
    for the namespace's (the inverse of ``make_write_scope``); empty for others."""
    if scope.level == ORGANISATION:
        return {"tenant_id": scope.tenant_id, "level": ORGANISATION}
    if scope.level == NAMESPACE:
        return {"tenant_id": scope.tenant_id, "namespace": scope.namespace, "level": NAMESPACE}
    return {}


def make_read_scope(
    scope: ScopeLike = None, *, all_users: bool = False, **fields: str | None
) -> Scope:
    """The scope of a call that reads or forgets stored memories: one user's, or every
    user's of the tenant when ``all_users`` is true (as a keyword or as
    ``scope["all_users"]``), never every user's because ``user_id`` was left out. The
    returned scope has ``user_id=None`` exactly when the call spans every user."""
    if isinstance(scope, Mapping) and "all_users" in scope:
        flag = scope["all_users"]
        if not isinstance(flag, bool):
            raise InvalidInput("scope.all_users must be true or false", field="scope.all_users")
        all_users = all_users or flag
        scope = {k: v for k, v in scope.items() if k != "all_users"}
    target = make_scope(scope, **fields)
    if all_users and target.user_id is not None:
        raise InvalidInput(ALL_USERS_WITH_USER, field="scope.all_users")
    if not all_users and target.user_id is None:
        raise InvalidInput(USER_REQUIRED, field="scope.user_id")
    return target


def make_message(value: Message | Mapping[str, Any] | str, field: str = "message") -> Message:
    """A ``Message`` from a Message, a mapping or its content; bad fields → InvalidInput
    naming them under ``field``."""
    if isinstance(value, Message):
        return value
    if isinstance(value, str):
        value = {"content": value}
    try:
        return Message.model_validate(value)
    except ValidationError as exc:
        raise invalid_input(exc, field) from exc


def check_ids(**values: object) -> None:
    """Ids and keys a call names, checked as stored text is (``InvalidInput`` naming the
    argument for a NUL or an unpaired surrogate), so every backend and every face answers
    the same before a database sees them."""
    for field, value in values.items():
        check_storable(value, field)


def validated(adapter: TypeAdapter[T], value: object, field: str) -> T:
    """``value`` checked as the HTTP API checks the body field ``field`` of that type, so a
    bad one is the same ``InvalidInput`` (``field: message``) from every face."""
    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        raise invalid_input(exc, field) from exc


def invalid_input(exc: ValidationError, prefix: str) -> InvalidInput:
    """The first error of ``exc`` as an ``InvalidInput`` naming its field under ``prefix``."""
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    field = f"{prefix}.{loc}" if loc else prefix
    return InvalidInput(f"{field}: {first['msg']}", field=field)


def require_user(scope: Scope, op: str) -> str:
    """The user of a call that works on one user's memories as a whole (a lifecycle
    operation): ``InvalidInput`` without one, or with an agent or a session."""
    if scope.user_id is None:
        raise InvalidInput(
            f"{op} works on one user's memories: scope.user_id is required",
            field="scope.user_id",
        )
    for name in ("agent_id", "session_id"):
        if getattr(scope, name) is not None:
            raise InvalidInput(
                f"{op} works on all of a user's memories: leave out scope.{name}",
                field=f"scope.{name}",
            )
    return scope.user_id


def make_level_scope(scope: ScopeLike = None, **fields: str | None) -> Scope:
    """The scope of a call on one level's memories as a whole (consolidate, decay, the
    forgetting policy, a lifecycle job): a user's (``user_id``), an agent's
    (``agent_id`` and no user), or the namespace's or the organisation's only when it
    says so with ``scope["level"]``, as a write does — a user id left unset never runs
    on a shared level's memory. A session is not a level (``InvalidInput``)."""
    target = make_write_scope(scope, **fields)
    if target.session_id is not None:
        raise InvalidInput(
            "a lifecycle call works on a whole level: leave out scope.session_id",
            field="scope.session_id",
        )
    return target


def require_level(scope: Scope, op: str) -> None:
    """Refuse (``InvalidInput``) a scope ``op`` cannot run on as one level: one with a
    session, or a user's with an agent too (a user's memories are all their agents')."""
    if scope.session_id is not None:
        raise InvalidInput(
            f"{op} works on all of a level's memories: leave out scope.session_id",
            field="scope.session_id",
        )
    if scope.user_id is not None and scope.agent_id is not None:
        raise InvalidInput(
            f"{op} works on all of a user's memories: leave out scope.agent_id (an agent's"
            " own level is scope.agent_id with no user)",
            field="scope.agent_id",
        )


def make_reach_scope(
    scope: ScopeLike = None, *, all_users: bool = False, **fields: str | None
) -> tuple[Scope, bool]:
    """The scope of a call that forgets or exports stored memories, and whether it is
    one shared level alone: a user's (``make_read_scope``), every user's
    (``all_users``), or — ``True`` — an agent's (``agent_id`` and no user), the
    namespace's or the organisation's (``scope["level"]``), never a user's memories."""
    given: dict[str, Any] = {}
    if isinstance(scope, Scope):
        given = _named(scope)
    elif scope is not None:
        given = dict(scope)
    given.update({k: v for k, v in fields.items() if v is not None})
    widened = all_users or given.get("all_users") is True
    if "level" in given or (
        not widened and given.get("user_id") is None and given.get("agent_id") is not None
    ):
        return make_level_scope(given), True
    return make_read_scope(scope, all_users=all_users, **fields), False
