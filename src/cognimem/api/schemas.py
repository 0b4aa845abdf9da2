"""Request bodies of the HTTP API (responses reuse the domain models)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from cognimem.models import ItemKind, Message, Tier
from cognimem.models.events import NOT_BLANK
from cognimem.models.knowledge import FactCategory
from cognimem.models.profiles import DEFAULT_PROFILE, PROFILES
from cognimem.models.scope import ID_PATTERN
from cognimem.models.wire import JSON_NUMBER, IsoTime
from cognimem.recall import PRESETS
from cognimem.recall.analyze import TIMEZONES
from cognimem.recall.conversation.cross import missing_install
from cognimem.recall.overrides import RankingOverrides


class CallBody(BaseModel):
    """A body whose fields are its call's keywords by the same name (``Memory.read``,
    ``Memory.forget``, ...), so its route names none of them and a new option of the
    call is a field here and nothing more. ``NOT_KEYWORDS``: the fields that are not
    (the call's subject, the answer's format)."""

    NOT_KEYWORDS: ClassVar[frozenset[str]] = frozenset()

    def keywords(self, **given: Any) -> dict[str, Any]:
        """Every field (``__dict__``: no body keeps extra fields) but ``NOT_KEYWORDS``
        by name, ``given`` (the scope in the key's tenant, ...) over them."""
        return {**{k: v for k, v in self.__dict__.items() if k not in self.NOT_KEYWORDS}, **given}


def _between(low: int, high: int) -> dict[str, Any]:
    """JSON Schema bounds of a number another layer checks."""
    return {"minimum": low, "maximum": high}


def _given(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema: ``name`` is present and not null."""
    return {"required": [name], "properties": {name: schema}}


class ScopeFields(BaseModel):
    """Scope below the tenant, as a write (or a call by id) names it. The tenant comes
    from the API key: a ``tenant_id`` sent here is accepted and ignored. A write may
    leave the user out (the memory then has no user); ``all_users`` is refused on it."""

    model_config = ConfigDict(extra="forbid")

    tenant_id: str | None = Field(default=None, description="Ignored: the key decides.")

    user_id: str | None = Field(default=None, pattern=ID_PATTERN)
    agent_id: str | None = Field(default=None, pattern=ID_PATTERN)
    session_id: str | None = Field(default=None, pattern=ID_PATTERN)
    namespace: str = Field(default="default", pattern=ID_PATTERN)
    all_users: StrictBool = Field(
        default=False,
        description="Only on reads: every user of the tenant instead of one.",
        json_schema_extra={"const": False},
    )

    def for_tenant(self, tenant_id: str) -> dict[str, Any]:
        """The scope for a ``Memory`` call, in the key's tenant."""
        data = self.model_dump(exclude={"tenant_id", "all_users"}, exclude_none=True)
        if self.all_users:
            data["all_users"] = True
        return {**data, "tenant_id": tenant_id}


class WriteScope(ScopeFields):
    """The scope of a write: ``user_id`` (or ``agent_id``), or a shared level (``level``:
    the namespace's, the organisation's). Neither is a 422 naming ``scope.level``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {
                    "required": ["user_id"],
                    "properties": {"user_id": {"type": "string"}, "level": {"type": "null"}},
                },
                {
                    "required": ["agent_id"],
                    "properties": {"agent_id": {"type": "string"}, "level": {"type": "null"}},
                },
                {
                    "required": ["level"],
                    "properties": {
                        "level": {"enum": ["namespace", "organisation"]},
                        "user_id": {"type": "null"},
                        "agent_id": {"type": "null"},
                        "session_id": {"type": "null"},
                    },
                },
            ]
        },
    )

    level: Literal["namespace", "organisation"] | None = Field(
        default=None,
        description="namespace: the namespace's memory (no user, no agent); organisation:"
        " the tenant's in every namespace. Their mandates reach every user's read.",
    )


class ReadScope(ScopeFields):
    """The scope of a call that reads or forgets stored memories (read, turn, forget,
    export, stats, the knowledge and session listings): ``user_id``, or ``all_users:
    true`` to span every user of the tenant — exactly one of them. ``Memory`` checks it
    (422 naming ``scope.user_id`` or ``scope.all_users``)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "oneOf": [
                {
                    "required": ["user_id"],
                    "properties": {"user_id": {"type": "string"}, "all_users": {"const": False}},
                },
                {
                    "required": ["all_users"],
                    "properties": {"all_users": {"const": True}, "user_id": {"type": "null"}},
                },
            ]
        },
    )

    all_users: StrictBool = Field(
        default=False,
        description="Every user of the tenant instead of one (not with user_id).",
    )


def _level(named: str, value: dict[str, Any], *absent: str) -> dict[str, Any]:
    """JSON Schema of a scope that names one shared level alone and whole: ``named``
    holds ``value`` and each of ``absent`` is null."""
    properties = {named: value} | {field: {"type": "null"} for field in absent}
    return {"required": [named], "properties": properties}


# an agent's level, a namespace's or the organisation's (no user, no session: whole)
AGENT_LEVEL = _level("agent_id", {"type": "string"}, "user_id", "session_id", "level")
ORGANISATION_LEVEL = _level(
    "level", {"enum": ["namespace", "organisation"]}, "user_id", "agent_id", "session_id"
)


def _not_every_user(level: dict[str, Any]) -> dict[str, Any]:
    """A level's schema where ``all_users`` may also be given, and must be false."""
    return {**level, "properties": {**level["properties"], "all_users": {"const": False}}}


class LevelReadScope(ReadScope):
    """The scope of a read, a forget or an export: ``user_id``, ``all_users: true``, or one
    shared level alone — ``agent_id`` with no user (the agent's memories), ``level:
    "namespace"`` or ``level: "organisation"`` (every namespace's); a level is whole, so
    it takes no ``session_id``."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "oneOf": [
                {
                    "required": ["user_id"],
                    "properties": {
                        "user_id": {"type": "string"},
                        "all_users": {"const": False},
                        "level": {"type": "null"},
                    },
                },
                {
                    "required": ["all_users"],
                    "properties": {
                        "all_users": {"const": True},
                        "user_id": {"type": "null"},
                        "level": {"type": "null"},
                    },
                },
                _not_every_user(AGENT_LEVEL),
                _not_every_user(ORGANISATION_LEVEL),
            ]
        },
    )

    level: Literal["namespace", "organisation"] | None = Field(
        default=None,
        description="namespace: the namespace's memory alone (no user, no agent);"
        " organisation: the organisation's alone (every namespace's).",
    )


def _needs_scope(extra: dict[str, Any] | None = None) -> Callable[[dict[str, Any]], None]:
    """JSON Schema of a request with a ``ReadScope`` or a ``WriteScope``: ``scope`` is
    required (a request without one names no user or level, which ``Memory`` refuses),
    plus ``extra``."""

    def apply(schema: dict[str, Any]) -> None:
        schema.update(extra or {})
        schema["required"] = [*schema.get("required", []), "scope"]

    return apply


def _profile() -> Any:
    """The ``profile`` field: chat, document, mandate, guardrail, tool_discovery,
    tool_gotcha, learning."""
    return Field(default=DEFAULT_PROFILE, json_schema_extra={"enum": list(PROFILES)})


class WriteRequest(Message):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: WriteScope = Field(default_factory=WriteScope)
    profile: str = _profile()


class WriteBatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: WriteScope = Field(default_factory=WriteScope)
    messages: list[Message] = Field(min_length=1)
    profile: str = _profile()


class FactsQuery(CallBody):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: LevelReadScope = Field(default_factory=LevelReadScope)
    key: str | None = None
    categories: list[FactCategory] | None = None
    include_history: StrictBool = False
    limit: Annotated[int, Field(ge=1, le=10_000), JSON_NUMBER] = 1_000


def _runnable_presets(schema: dict[str, Any]) -> None:
    """JSON Schema of ``preset``: the presets this server can run (``reranked`` only
    where its cross-encoder is installed; elsewhere it is a 422 naming the install)."""
    runnable = [name for name, config in PRESETS.items() if missing_install(config) is None]
    schema["enum"] = [*runnable, None]


# JSON Schema: ``session_only`` reads one session, so it needs ``scope.session_id``
_SESSION_ONLY_NEEDS_SESSION: dict[str, Any] = {
    "anyOf": [
        {"properties": {"session_only": {"const": False}}},
        {
            "required": ["scope"],
            "properties": {
                "scope": {
                    "required": ["session_id"],
                    "properties": {"session_id": {"type": "string"}},
                }
            },
        },
    ]
}


class ReadOptions(CallBody):
    """How much a read returns and how it ranks (defaults: the server's settings)."""

    model_config = ConfigDict(extra="forbid")

    # the bounds are documented here and checked by Memory.read, so the SDK and Memory
    # refuse with the same message
    limit: Annotated[int, Field(json_schema_extra=_between(1, 200)), JSON_NUMBER] | None = None
    max_tokens: (
        Annotated[int, Field(json_schema_extra=_between(1, 200_000)), JSON_NUMBER] | None
    ) = None
    preset: str | None = Field(default=None, json_schema_extra=_runnable_presets)
    # merged over the preset (and the server's recall.ranking): fusion, rerank weights,
    # half-lives, MMR and floors; numbers only, each within its bounds
    ranking: RankingOverrides | None = None
    # a scope's session_id ranks that session up and reads the user's other sessions
    # too; true reads that session alone
    session_only: StrictBool = False


class ReadRequest(ReadOptions):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra=_needs_scope(_SESSION_ONLY_NEEDS_SESSION)
    )

    query: str = Field(json_schema_extra={"pattern": NOT_BLANK})
    # a user's read, every user's, or one shared level's alone (an agent's, the
    # organisation's: what the dashboard's Recall page reads at a level)
    scope: LevelReadScope = Field(default_factory=LevelReadScope)
    kinds: list[ItemKind] | None = None
    # times with a UTC offset
    since: IsoTime | None = None
    until: IsoTime | None = None
    reference_time: IsoTime | None = None
    # bi-temporal: the facts valid then; what the memory knew then (Memory.read)
    as_of: IsoTime | None = None
    as_of_recorded: IsoTime | None = None
    timezone: str | None = Field(default=None, json_schema_extra={"enum": [*TIMEZONES, None]})
    format: str = Field(default="json", pattern="^(json|markdown)$")
    explain: StrictBool = False  # per candidate: each signal, the final score, the step

    NOT_KEYWORDS = frozenset({"query", "format"})


class ScopeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: ScopeFields = Field(default_factory=ScopeFields)


class UserScope(BaseModel):
    """One user's memories as a whole (promotion's mandate candidates): the user is
    required; agent and session are not taken. The tenant comes from the API key."""

    model_config = ConfigDict(extra="forbid")

    tenant_id: str | None = Field(default=None, description="Ignored: the key decides.")
    user_id: str = Field(pattern=ID_PATTERN)
    namespace: str = Field(default="default", pattern=ID_PATTERN)

    def for_tenant(self, tenant_id: str) -> dict[str, Any]:
        """The scope for a ``Memory`` call, in the key's tenant."""
        return {**self.model_dump(exclude={"tenant_id"}), "tenant_id": tenant_id}


class UserScopeRequest(BaseModel):
    """A body that is only one user's scope."""

    model_config = ConfigDict(extra="forbid")

    scope: UserScope


class ReadScopeRequest(CallBody):
    """A body that is only a read's scope (export, stats, entities)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: ReadScope = Field(default_factory=ReadScope)


class LevelScopeRequest(BaseModel):
    """A body that is only a scope that may name one shared level alone (export,
    entities, relations): a user's, every user's, an agent's or the organisation's."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: LevelReadScope = Field(default_factory=LevelReadScope)


class UpdateRequest(CallBody):
    """Edit one memory, or tell cognimem what it got right or wrong (at least one of
    text, importance, tier and feedback)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                _given("text", {"type": "string"}),
                _given("importance", {"type": "number"}),
                _given("tier", {"type": "string"}),
                _given("feedback", {"type": "string"}),
            ]
        },
    )

    id: str = Field(min_length=1, max_length=128)
    # re-embedded and re-indexed
    text: Annotated[str, Field(json_schema_extra={"pattern": NOT_BLANK})] | None = None
    importance: Annotated[float, Field(ge=0.0, le=1.0), JSON_NUMBER] | None = None
    tier: Tier | None = None
    # correct: reinforce; incorrect: silence (kept, never recalled); outdated: archive
    feedback: Literal["correct", "incorrect", "outdated"] | None = None

    NOT_KEYWORDS = frozenset({"id"})


class ForgetRequest(CallBody):
    """Forget by ids, by query or by time range (exactly one of them; ``since`` not after
    ``until``)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra=_needs_scope(
            {
                "oneOf": [
                    _given("ids", {"type": "array"}),
                    _given("query", {"type": "string"}),
                    {"anyOf": [_given(t, {"type": "string"}) for t in ("since", "until")]},
                ]
            }
        ),
    )

    scope: LevelReadScope = Field(default_factory=LevelReadScope)
    ids: list[str] | None = Field(default=None, max_length=1_000)
    query: Annotated[str, Field(json_schema_extra={"pattern": NOT_BLANK})] | None = None
    since: IsoTime | None = None
    until: IsoTime | None = None
    # delete: the rows are removed; archive: kept, out of reads; silence: kept, never
    # recalled
    mode: Literal["delete", "archive", "silence"] = "delete"
    dry_run: StrictBool = False
    limit: Annotated[int, Field(ge=1, le=10_000), JSON_NUMBER] = 100


class TurnRequest(ReadOptions):
    """One conversational turn: read for the user's message, then remember both. With
    ``all_users`` the messages are the organisation's, which belong to no session: a
    ``session_id`` beside it is a 422."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra=_needs_scope(
            {
                **_SESSION_ONLY_NEEDS_SESSION,
                "not": {
                    "required": ["scope"],
                    "properties": {
                        "scope": {
                            "required": ["all_users", "session_id"],
                            "properties": {
                                "all_users": {"const": True},
                                "session_id": {"type": "string"},
                            },
                        }
                    },
                },
            }
        ),
    )

    scope: ReadScope = Field(default_factory=ReadScope)
    user: Message
    assistant: Message | None = None
    profile: str = _profile()
    timezone: str | None = Field(default=None, json_schema_extra={"enum": [*TIMEZONES, None]})

    NOT_KEYWORDS = frozenset({"user", "assistant"})


class ConflictsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: LevelReadScope = Field(default_factory=LevelReadScope)
    open_only: StrictBool = True


class AliasAddRequest(BaseModel):
    """Give one name to an entity as the user's word (the scope's user's row, or the
    namespace's shared one): a name split off it merges the split-off entity back."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())
    alias: str = Field(min_length=1, max_length=500)
    scope: ReadScope = Field(default_factory=ReadScope)


class AliasRemoveRequest(AliasAddRequest):
    """Take one name off an entity (undo a wrong merge; the shared rows with
    ``all_users``); ``split`` makes it an entity of its own that later mentions find."""

    split: bool = False


class ResolveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # the fact that stands; the others are superseded by it. None: both stay live
    winner_fact_id: str | None = None
    note: str = Field(default="", max_length=2_000)


class SessionCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(pattern=ID_PATTERN)
    scope: ScopeFields = Field(default_factory=ScopeFields)
    metadata: dict[str, Any] = Field(default_factory=dict)


class SessionsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: ReadScope = Field(default_factory=ReadScope)
    limit: Annotated[int, Field(ge=1, le=10_000), JSON_NUMBER] = 100


class LifecycleRequest(BaseModel):
    """Run a lifecycle operation on one level's memories: a user's (``scope.user_id``),
    an agent's (``scope.agent_id`` and no user) or the organisation's (``scope.level:
    "organisation"``); queue it as a job, or with ``dry_run`` say what it would change,
    changing nothing."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_needs_scope())

    scope: WriteScope = Field(default_factory=WriteScope)
    dry_run: StrictBool = False
    # the same operation, scope and key give the same job (a retried call queues once)
    key: str | None = Field(default=None, pattern=ID_PATTERN)
