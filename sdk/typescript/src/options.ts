/**
 * The options of the client's methods. Each is spelled as the Python SDK's keyword
 * argument (`user_id`, `all_users`, `max_tokens`), and each value type is the API's
 * own (from the generated models), so a call reads as in the Python docs.
 */

import type {
  FactCategory,
  ForgetRequest,
  ItemKind,
  ItemStatus,
  JobState,
  LevelReadScope,
  RankingOverrides,
  ReadRequest,
  Role,
  ScopeFields,
  Tier,
  UpdateRequest,
  WriteRequest,
  WriteScope,
} from "./models.js";

/** A point in time: a `Date`, or an ISO 8601 string with its offset. */
export type When = Date | string;

/** A write profile: `chat`, `document`, `mandate`, `guardrail`, ... */
export type Profile = NonNullable<WriteRequest["profile"]>;

/** Where a call acts: `scope` and/or the ids beside it (they win over `scope`'s). */
export interface Scoped {
  scope?: ScopeFields;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
}

/** A call that reads stored memories: one user's, or with `all_users` every user's. */
export interface ReadScoped extends Scoped {
  /** Span every user of the tenant instead of one (not with `user_id`). */
  all_users?: boolean;
}

/** A call on one user's memories: no agent or session of its own. */
export interface UserScoped {
  scope?: ScopeFields;
  user_id?: string;
  all_users?: boolean;
}

export interface WriteOptions extends Scoped {
  role?: Role;
  /** The author's display name (a speaker). */
  name?: string;
  occurred_at?: When;
  /** Makes a retried write safe. */
  idempotency_key?: string;
  external_id?: string;
  metadata?: Record<string, unknown>;
  profile?: Profile;
}

export interface WriteBatchOptions extends Scoped {
  profile?: Profile;
}

/** How a read ranks and trims (shared by `read` and `turn`). */
export interface RankOptions {
  limit?: number;
  max_tokens?: number;
  preset?: ReadRequest["preset"];
  /** Changes over the preset's ranking: only the fields named change. */
  ranking?: RankingOverrides;
  /** An IANA time zone: "last week" is that zone's last week. */
  timezone?: string;
}

/**
 * A read: one user's, every user's (`all_users`), or one shared level's alone — an
 * agent's (`agent_id` with no user), a namespace's (`scope: { level: "namespace" }`) or
 * the organisation's (`scope: { level: "organisation" }`), no user's memories.
 */
export interface ReadOptions extends Omit<ReadScoped, "scope">, RankOptions {
  scope?: LevelReadScope;
  kinds?: ItemKind[];
  since?: When;
  until?: When;
  reference_time?: When;
  /** The facts valid then, superseded ones included (`packet.meta.time_filter`). */
  as_of?: When;
  /** What the memory knew then: facts recorded by then, later changes ignored. */
  as_of_recorded?: When;
  /** `packet.explain`: the signals, score and step of every candidate. */
  explain?: boolean;
}

export interface TurnOptions extends ReadScoped, RankOptions {
  profile?: Profile;
}

export interface GetOptions {
  /** Its namespace (`default` unless named), and its user, agent and session when named. */
  scope?: ScopeFields;
}

export interface UpdateOptions {
  text?: string;
  importance?: number;
  tier?: Tier;
  feedback?: UpdateRequest["feedback"];
}

export interface ForgetOptions extends ReadScoped {
  ids?: string[];
  query?: string;
  since?: When;
  until?: When;
  mode?: ForgetRequest["mode"];
  dry_run?: boolean;
  limit?: number;
}

export interface CreateSessionOptions {
  scope?: ScopeFields;
  user_id?: string;
  agent_id?: string;
  metadata?: Record<string, unknown>;
}

export interface ListSessionsOptions {
  scope?: ScopeFields;
  user_id?: string;
  agent_id?: string;
  all_users?: boolean;
  limit?: number;
}

export interface CloseSessionOptions {
  scope?: ScopeFields;
  user_id?: string;
}

export interface FactsOptions extends UserScoped {
  /** An exact key or a key prefix; the API takes one key per query. */
  key?: string | string[];
  categories?: FactCategory[];
  include_history?: boolean;
  limit?: number;
}

export interface ConflictsOptions extends UserScoped {
  open_only?: boolean;
}

export interface RemoveAliasOptions extends UserScoped {
  /** Make the name an entity of its own, so later mentions stop linking back. */
  split?: boolean;
}

export interface ResolveConflictOptions {
  winner_fact_id?: string;
  note?: string;
}

export interface ListItemsOptions extends UserScoped {
  kinds?: ItemKind[];
  tiers?: Tier[];
  statuses?: ItemStatus[];
  since?: When;
  until?: When;
  contains?: string;
  external_id?: string;
  limit?: number;
}

export interface UsersOptions {
  limit?: number;
}

/** One shared level to erase: an agent's (`agent_id` alone), `{ level: "namespace" }` or `{ level: "organisation" }`. */
export interface EraseLevelOptions {
  scope?: WriteScope;
  agent_id?: string;
}

export interface LifecycleOptions {
  /** One level: a user's, an agent's (`agent_id` alone), `{ level: "namespace" }` or `{ level: "organisation" }`. */
  scope?: WriteScope;
  user_id?: string;
  /** The agent's own level when no user is given. */
  agent_id?: string;
  namespace?: string;
  /** What the operation would change (`result`, `summary`), without a job. */
  dry_run?: boolean;
  /** An idempotency key: the same key queues the operation once. */
  key?: string;
}

export interface MandateOptions {
  scope?: ScopeFields;
  user_id?: string;
  namespace?: string;
}

export interface ListJobsOptions {
  kind?: string;
  state?: JobState;
  limit?: number;
}

export interface ProceduresOptions {
  scope?: ScopeFields;
  user_id?: string;
  limit?: number;
}

export type DetectProceduresOptions = Omit<LifecycleOptions, "key">;
