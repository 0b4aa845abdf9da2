"""Settings, read from the environment (``COGNIMEM_`` prefix, nested with ``__``).

Settings are read at the edges only (``Memory.open``, ``create_app``, the CLI); the core
receives explicit objects.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from cognimem.models.ranking import RankingOverrides


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***``, for messages and logs: the one
    in the user info and a ``password=`` query parameter (libpq takes both)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if parts.password is None and all(name != "password" for name, _ in query):
        return url  # unchanged: urlunsplit would not give back every URL as it was
    if parts.password is not None:
        userinfo, _, hostinfo = parts.netloc.rpartition("@")
        user = userinfo.partition(":")[0]
        parts = parts._replace(netloc=f"{user}:***@{hostinfo}")
    if any(name == "password" for name, _ in query):
        masked = [(name, "***" if name == "password" else value) for name, value in query]
        parts = parts._replace(query=urlencode(masked, safe="*"))
    return urlunsplit(parts)


def default_data_dir() -> Path:
    """Where the embedded database lives unless configured: ``$XDG_DATA_HOME/cognimem``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cognimem"


def default_database_url() -> str:
    return f"sqlite:///{default_data_dir() / 'cognimem.db'}"


class EmbeddingSettings(BaseModel):
    """Which embedding model to use. ``model`` is a spec string:
    ``onnx:minilm`` (local, default), ``openai:<model>`` (any OpenAI-compatible endpoint,
    with ``base_url``), or ``hashing`` / ``hashing:<dim>`` (deterministic, for tests)."""

    model: str = "onnx:minilm"
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    batch_size: int = Field(default=64, ge=1, le=2048)
    cache_size: int = Field(default=10_000, ge=0)
    # a Redis shared by all processes in front of the database's embedding cache
    redis_url: str | None = None


class LLMSettings(BaseModel):
    """The internal LLM cognimem itself calls (extraction). No ``model``: no LLM, the
    rule-based path does the work. A configured LLM that fails is reported as
    ``degraded``; cognimem never falls back to another model."""

    model: str | None = None
    base_url: str | None = None  # OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_output_tokens: int = Field(default=2_000, ge=16, le=100_000)


class IngestSettings(BaseModel):
    max_content_chars: int = Field(default=32_000, ge=1)
    max_batch: int = Field(default=1_000, ge=1)
    # a message's (or a session's) metadata, serialised as UTF-8 JSON, at most this size
    max_metadata_bytes: int = Field(default=16_384, ge=2)
    chunk_tokens: int = Field(default=256, ge=16)
    dedupe_window_s: float = Field(default=300.0, ge=0)
    # characters of the previous message added to an item's lexical index (0: none)
    context_chars: int = Field(default=500, ge=0, le=10_000)
    # how a numeric date in a message ("3/4/2024", "on 5/6") is read when it is dated:
    # "month_first" (the US: 3/4 is 4 March) or "day_first" (3/4 is 3 April)
    date_order: Literal["month_first", "day_first"] = "month_first"
    # a new item this similar (cosine) to a stored item of the same scope and kind is
    # merged into it (its event joins the provenance) instead of inserted; None: never
    merge_similarity: float | None = Field(default=0.95, gt=0.0, le=1.0)
    redact_pii: bool = True
    skip_secrets: bool = True
    # "async": a write commits the raw events, enqueues one job and returns its id; a
    # worker (`cognimem worker`) runs the rest of the funnel
    mode: Literal["sync", "async"] = "sync"
    # in async mode, when the queue cannot be reached: "fail" (StoreUnavailable, nothing
    # written) or "sync" (ingest now, and say so in the result's `degraded`)
    on_queue_unavailable: Literal["fail", "sync"] = "fail"
    # a job not acknowledged this long after delivery goes to another worker
    visibility_timeout_s: float = Field(default=30.0, gt=0)
    # deliveries before a job is dead-lettered as failed
    max_attempts: int = Field(default=5, ge=1, le=100)
    # every worker, at start and then this often, queues again the jobs of events left
    # unprocessed for longer than `sweep_grace_s` whose job the queue does not know (a
    # crash between committing a write's events and queuing their job)
    sweep_interval_s: float = Field(default=60.0, gt=0)
    sweep_grace_s: float = Field(default=60.0, ge=0)


class OperationSchedule(BaseModel):
    """When ``cognimem worker`` queues one lifecycle operation for a level's memories:
    every ``interval_s`` when anything is new since its last run, as soon as
    ``after_episodes`` new episodes arrived (a shared level: new memories of any kind
    but summaries), and when a session of the level closed (``on_session_close``).
    Unset (or false): that trigger is off. ``shared_levels``: the shared levels (each
    agent's own memory, each namespace's and the organisation's) are scheduled beside
    the users."""

    interval_s: float | None = Field(default=None, gt=0)
    after_episodes: int | None = Field(default=None, ge=1)
    on_session_close: bool = False
    shared_levels: bool = True


class ConsolidateSchedule(OperationSchedule):
    interval_s: float | None = Field(default=86_400.0, gt=0)
    after_episodes: int | None = Field(default=50, ge=1)
    on_session_close: bool = True


class ReviseSchedule(OperationSchedule):
    interval_s: float | None = Field(default=3_600.0, gt=0)
    after_episodes: int | None = Field(default=20, ge=1)
    # revise works on one user's facts only: a shared level is refused
    shared_levels: Literal[False] = False


class DecaySchedule(OperationSchedule):
    interval_s: float | None = Field(default=86_400.0, gt=0)


class PromoteSchedule(OperationSchedule):
    interval_s: float | None = Field(default=86_400.0, gt=0)
    # promote works on one user's items only: a shared level is refused
    shared_levels: Literal[False] = False


class ForgetPolicySchedule(OperationSchedule):
    interval_s: float | None = Field(default=86_400.0, gt=0)
    after_episodes: int | None = Field(default=500, ge=1)


class ForgetBand(BaseModel):
    """One action of the forgetting policy: taken for an item whose score is below
    ``below`` (None: never) and that was last used (written or read) at least
    ``min_age_days`` ago."""

    below: float | None = Field(default=None, ge=0.0, le=1.0)
    min_age_days: float = Field(default=0.0, ge=0.0)

    @field_validator("below", mode="before")
    @classmethod
    def _empty_is_never(cls, value: object) -> object:
        """An empty ``BELOW`` in the environment turns the action off."""
        return None if isinstance(value, str) and not value.strip() else value


# each band's defaults: a band named in the environment (or the call) keeps the default of
# a field it does not set (``ForgettingPolicy._over_defaults``)
_BANDS: dict[str, ForgetBand] = {
    "decay": ForgetBand(below=0.45, min_age_days=1.0),
    "silence": ForgetBand(below=0.35, min_age_days=3.0),
    "compress": ForgetBand(below=0.30, min_age_days=7.0),
    "archive": ForgetBand(below=0.22, min_age_days=14.0),
    "delete": ForgetBand(below=0.12, min_age_days=90.0),
}


def _band(name: str) -> Callable[[], ForgetBand]:
    """The default factory of band ``name``."""
    return lambda: _BANDS[name].model_copy()


class ForgetWeights(BaseModel):
    """How much each signal counts in an item's retention score (they are normalised
    by their sum; each signal lies in [0, 1])."""

    importance: float = Field(default=0.30, ge=0.0)
    recency: float = Field(default=0.30, ge=0.0)
    access: float = Field(default=0.15, ge=0.0)
    confidence: float = Field(default=0.05, ge=0.0)
    kind: float = Field(default=0.10, ge=0.0)
    novelty: float = Field(default=0.05, ge=0.0)
    dependents: float = Field(default=0.05, ge=0.0)


# each item kind's recency half-life (days) and its value to the retention score
_KINDS: dict[str, tuple[float, float]] = {
    "episode": (7.0, 0.4),
    "summary": (90.0, 0.6),
    "preference": (180.0, 0.7),
    "fact": (180.0, 0.7),
    "procedure_hint": (60.0, 0.6),
    "constraint": (365.0, 1.0),
    "mandate": (3650.0, 1.0),
    "guardrail": (3650.0, 1.0),
}


def _half_lives() -> dict[str, float]:
    return {kind: half_life for kind, (half_life, _) in _KINDS.items()}


def _kind_values() -> dict[str, float]:
    return {kind: value for kind, (_, value) in _KINDS.items()}


class ForgettingPolicy(BaseModel):
    """The forgetting policy (``lifecycle/retention.py``, ``docs/lifecycle.md``): how an
    item is scored and which action each score band takes. Environment:
    ``COGNIMEM_LIFECYCLE__FORGETTING__ARCHIVE__BELOW=0.2``,
    ``COGNIMEM_LIFECYCLE__FORGETTING__HALF_LIFE_DAYS__EPISODE=30``, ..."""

    weights: ForgetWeights = Field(default_factory=ForgetWeights)
    # recency halves every this many days since the item was last written or read
    half_life_days: dict[str, float] = Field(default_factory=_half_lives)
    kind_value: dict[str, float] = Field(default_factory=_kind_values)
    # access frequency: n / (n + access_saturation) of n reads that returned the item
    access_saturation: float = Field(default=3.0, gt=0.0)
    decay: ForgetBand = Field(default_factory=_band("decay"))
    # decay multiplies an active item's importance by this
    decay_factor: float = Field(default=0.8, gt=0.0, lt=1.0)
    silence: ForgetBand = Field(default_factory=_band("silence"))
    compress: ForgetBand = Field(default_factory=_band("compress"))
    archive: ForgetBand = Field(default_factory=_band("archive"))
    delete: ForgetBand = Field(default_factory=_band("delete"))

    @field_validator("half_life_days", "kind_value", *_BANDS, mode="before")
    @classmethod
    def _over_defaults(cls, value: object, info: ValidationInfo) -> object:
        """A kind (or a band's field) named in the environment (or the call) changes
        that kind (or field) alone."""
        if not isinstance(value, dict):
            return value
        name = info.field_name
        if name == "half_life_days":
            defaults: dict[str, object] = dict(_half_lives())
        elif name == "kind_value":
            defaults = dict(_kind_values())
        else:
            defaults = _BANDS[str(name)].model_dump()
        return {**defaults, **value}

    @field_validator("half_life_days")
    @classmethod
    def _half_lives(cls, value: dict[str, float]) -> dict[str, float]:
        _check_kinds(value)
        if any(v <= 0 for v in value.values()):
            raise ValueError("half-lives must be positive")
        return value

    @field_validator("kind_value")
    @classmethod
    def _kind_values(cls, value: dict[str, float]) -> dict[str, float]:
        _check_kinds(value)
        if any(not 0.0 <= v <= 1.0 for v in value.values()):
            raise ValueError("kind values lie in [0, 1]")
        return value


def _check_kinds(value: dict[str, float]) -> None:
    known = set(_KINDS)
    unknown = sorted(set(value) - known)
    if unknown:
        raise ValueError(f"unknown item kinds {unknown}; known: {sorted(known)}")


class LifecycleSchedules(BaseModel):
    """The schedule of each operation by name (``COGNIMEM_LIFECYCLE__OPERATIONS__REVISE__
    INTERVAL_S=600``); an operation named here but not registered is skipped, one
    registered but not named here is never scheduled (admin calls only)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, OperationSchedule] = Field(init=False)

    consolidate: ConsolidateSchedule = Field(default_factory=ConsolidateSchedule)
    revise: ReviseSchedule = Field(default_factory=ReviseSchedule)
    decay: DecaySchedule = Field(default_factory=DecaySchedule)
    promote: PromoteSchedule = Field(default_factory=PromoteSchedule)
    forget_policy: ForgetPolicySchedule = Field(default_factory=ForgetPolicySchedule)

    def by_name(self) -> dict[str, OperationSchedule]:
        named: dict[str, OperationSchedule] = {
            "consolidate": self.consolidate,
            "revise": self.revise,
            "decay": self.decay,
            "promote": self.promote,
            "forget_policy": self.forget_policy,
        }
        return {**named, **(self.__pydantic_extra__ or {})}


class LifecycleSettings(BaseModel):
    """Lifecycle jobs (consolidate, revise, decay, promote, ...) and the worker's
    scheduler."""

    # whether `cognimem worker` queues lifecycle jobs by the schedules below
    schedule: bool = True
    # how often a worker looks for scopes that are due
    tick_s: float = Field(default=60.0, gt=0)
    # a run holds its scope this long past its last heartbeat (a third of it); a dead
    # worker's scope is free again after it
    lease_s: float = Field(default=60.0, gt=0)
    # a failed or blocked run is retried after retry_base_s, doubling up to retry_max_s
    retry_base_s: float = Field(default=5.0, ge=0)
    retry_max_s: float = Field(default=300.0, ge=0)
    # scopes one tick looks at per operation, most new episodes first
    scan_limit: int = Field(default=1_000, ge=1)
    operations: LifecycleSchedules = Field(default_factory=LifecycleSchedules)
    # the forgetting policy the operation forget_policy applies
    forgetting: ForgettingPolicy = Field(default_factory=ForgettingPolicy)


class RecallSettings(BaseModel):
    preset: str = "balanced"
    default_limit: int = Field(default=10, ge=1, le=200)
    default_max_tokens: int = Field(default=2_000, ge=1)
    # every read's time limits, whatever its preset; unset: the preset's (2 s a step,
    # 4 s the whole plan). A step cut at its limit is reported in the packet's `steps`
    # and `degraded`, and its results are missing from the ranking
    step_timeout_s: float | None = Field(default=None, gt=0)
    budget_s: float | None = Field(default=None, gt=0)
    # word pieces per (query, memory) pair a reranked read's cross-encoder reads, whatever
    # its preset; unset: the preset's (128). A longer pair is cut from the memory's end;
    # a pair's CPU grows with its length (benchmarks/results/cross_encoder_cpu.md)
    cross_encoder_max_tokens: int | None = Field(default=None, ge=8, le=512)
    # with an LLM configured, ask it for the intent of queries the rules are unsure of
    llm_classifier: bool = True
    # the standing constraint profile's own token cap in a decision-like read's packet
    # (recall/profile.py, docs/constraints.md); 0: no profile
    profile_tokens: int = Field(default=120, ge=0, le=10_000)
    # a read's access counts are kept in memory and written this long after the first
    # uncounted read, all in one transaction, and at close: a crash loses at most this
    # window's counts (services/access.py)
    access_flush_s: float = Field(default=1.0, gt=0, le=3_600)
    # merged over every read's preset, under the read's own `ranking` (fusion, rerank
    # weights, half-lives, MMR, floors; recall/overrides.py says why only these)
    ranking: RankingOverrides = Field(default_factory=RankingOverrides)

    @field_validator("ranking", mode="before")
    @classmethod
    def _env_numbers(cls, value: object) -> object:
        """Environment values are text: ``COGNIMEM_RECALL__RANKING__MMR_LAMBDA=0.8`` is
        the number 0.8 (the overrides take numbers only, as the HTTP API does)."""
        return _numbers_in(value)


def _numbers_in(value: object) -> object:
    if isinstance(value, dict):
        return {k: _numbers_in(v) for k, v in value.items()}
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() and "." not in value else number
    return value


class ServerSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(default=8420, ge=0, le=65535)
    max_body_bytes: int = Field(default=5_000_000, ge=1)
    # idle keep-alive connections are closed after this; longer than clients keep theirs
    # (httpx: 5 s) so a client never sends a request on a connection the server is
    # closing at that instant (the request would fail with a read error)
    keep_alive_s: int = Field(default=75, ge=1)
    # uvicorn worker processes of ``cognimem serve`` (each with its own Memory)
    workers: int = Field(default=1, ge=1)
    # unset: no metrics port; P: each server process serves its app's GET /metrics on
    # the first free port of P .. P + workers - 1 (0: any free port), off its event loop
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"


class WorkerSettings(BaseModel):
    """``cognimem worker``. Its metrics (the jobs it runs: their degradations, lifecycle
    runs) are served only when ``metrics_port`` is set, behind the same tokens as the
    API's ``/metrics`` (docs/metrics.md)."""

    # unset: no metrics port; 0: any free port (the worker prints it)
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"


class AuthSettings(BaseModel):
    """HTTP API authentication. Every ``/v1`` route needs a tenant's API key
    (``cognimem keys create --tenant T``); there is no bypass."""

    # creates, lists and revokes keys over HTTP (/v1/admin/keys) and may read /metrics;
    # unset: keys are managed with the CLI only
    admin_key: SecretStr | None = None
    # a separate bearer token that may read /metrics (and nothing else)
    metrics_token: SecretStr | None = None
    # requests per minute per key unless the key sets its own
    rate_limit_per_minute: int = Field(default=600, ge=1)
    # Redis shared by all API processes for rate limits; unset: COGNIMEM_QUEUE_URL when
    # it is a Redis URL, else limits are kept in-process
    redis_url: str | None = None


class LogSettings(BaseModel):
    """How ``cognimem serve`` logs: one JSON object per line (default) or plain text."""

    format: Literal["json", "text"] = "json"
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class MCPSettings(BaseModel):
    """The scope of the MCP tools. The tenant and namespace are the server's (over
    HTTP the API key's tenant); ``user_id`` is the user of a tool call that names none
    (unset: every call must name its user)."""

    tenant_id: str = "default"
    namespace: str = "default"
    user_id: str | None = None
    agent_id: str | None = None


class Settings(BaseSettings):
    """All of cognimem's configuration; every field has a working default."""

    model_config = SettingsConfigDict(
        env_prefix="COGNIMEM_", env_nested_delimiter="__", extra="ignore"
    )

    database_url: str = Field(default_factory=default_database_url)
    # job queue for async ingestion: unset = a SQLite outbox table in the SQLite database;
    # redis://host:port/db = Redis Streams (required with PostgreSQL)
    queue_url: str | None = None
    # a TOML file mapping a tenant's own database (and/or an ontology), or a folder of
    # them (one per tenant): docs/domain.md
    domain_mapping: Path | None = None
    # MiB a store's in-process copies of scopes (vector matrices, lexical postings, a
    # user's decoded facts and graph edges) may hold together, least recently used
    # evicted beyond it (store/cache_budget.py)
    cache_max_mb: float = Field(default=4096, ge=0)
    # SQLite: a scope with at least this many embedded items is searched (a read's vector
    # search, the write path's near-duplicate search) through an in-process HNSW index
    # (usearch) whose candidates are scored exactly, instead of a scan of every vector;
    # 0 = always the exact scan (store/sqlite/ann.py, docs/architecture.md)
    vector_index_min_rows: int = Field(default=20_000, ge=0)
    # SQLite: seconds after a scope's index failed (its build or an update) before a
    # search builds it again, doubled after each further failure up to an hour; the
    # scope is scanned exactly meanwhile and its reads say `degraded`
    vector_index_retry_s: float = Field(default=300, ge=0)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    recall: RecallSettings = Field(default_factory=RecallSettings)
    lifecycle: LifecycleSettings = Field(default_factory=LifecycleSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    auth: AuthSettings = Field(default_factory=AuthSettings)
    log: LogSettings = Field(default_factory=LogSettings)
    mcp: MCPSettings = Field(default_factory=MCPSettings)
