/**
 * `MemoryClient`: the Python SDK's `AsyncMemoryClient` for TypeScript. The same
 * methods (camelCase: `write_batch` is `writeBatch`), the same options (spelled as the
 * Python keyword arguments), the API's own models as results, and an error answer
 * thrown as the class of `./errors.js` it names.
 */

import { ClientError, InvalidInput, NotFound, snippet, UsageError } from "./errors.js";
import { type ClientOptions, DEFAULT_BASE_URL, Http, NDJSON } from "./http.js";
import { callTime, runKey, stamped } from "./resend.js";
import type {
  ContextPacket,
  AliasAddition,
  AliasRemoval,
  EntityWithAliases,
  ErasureReport,
  Event,
  ExportRecord,
  Fact,
  FactConflict,
  ForgetResult,
  Health,
  HistoryEntry,
  Job,
  LifecycleRun,
  MandateCandidate,
  MemoryItem,
  Procedure,
  ScopeStats,
  Session,
  TenantOverview,
  Turn,
  WriteResult,
} from "./models.js";
import type {
  CloseSessionOptions,
  ConflictsOptions,
  CreateSessionOptions,
  DetectProceduresOptions,
  EraseLevelOptions,
  FactsOptions,
  ForgetOptions,
  GetOptions,
  LifecycleOptions,
  ListItemsOptions,
  ListJobsOptions,
  ListSessionsOptions,
  MandateOptions,
  ProceduresOptions,
  ReadOptions,
  ResolveConflictOptions,
  TurnOptions,
  UpdateOptions,
  RemoveAliasOptions,
  UserScoped,
  UsersOptions,
  WriteBatchOptions,
  WriteOptions,
} from "./options.js";
import { defined, type MessageInput, messageBody, queryString, route, scopeBody } from "./wire.js";

/**
 * `Memory`'s operations over HTTP:
 *
 * ```ts
 * const mem = new MemoryClient("http://127.0.0.1:8420", { api_key: "cm_..." });
 * await mem.write("I'm allergic to shellfish", { user_id: "u1" });
 * const packet = await mem.read("what should I cook?", { user_id: "u1" });
 * ```
 */
export class MemoryClient {
  private readonly http: Http;

  constructor(baseUrl: string = DEFAULT_BASE_URL, options: ClientOptions = {}) {
    this.http = new Http(baseUrl, options);
  }

  get base_url(): string {
    return this.http.base_url;
  }

  // -- writes ------------------------------------------------------------------------
  /** Remember one message. In async ingestion mode the result carries the `job_id` to
   * poll with `getJob`. Pass an `idempotency_key` to make your own retry of it safe (the
   * client's own, when the answer is lost, is safe either way: a message with neither a
   * key nor an `occurred_at` is sent with the time of the call). */
  async write(content: MessageInput, options: WriteOptions = {}): Promise<WriteResult> {
    const { scope, user_id, agent_id, session_id, profile, ...overrides } = options;
    const body = {
      ...stamped({ ...messageBody(content), ...defined(overrides) }, callTime()),
      scope: scopeBody(scope, { user_id, agent_id, session_id }),
      profile: profile ?? "chat",
    };
    return this.post("/v1/memory/write", body);
  }

  /** Remember many messages in one request (each stamped as `write` stamps one). */
  async writeBatch(
    messages: MessageInput[],
    options: WriteBatchOptions = {},
  ): Promise<WriteResult> {
    const { scope, user_id, agent_id, session_id, profile } = options;
    const now = callTime();
    return this.post("/v1/memory/write_batch", {
      messages: messages.map((message) => stamped(messageBody(message), now)),
      scope: scopeBody(scope, { user_id, agent_id, session_id }),
      profile: profile ?? "chat",
    });
  }

  // -- reads -------------------------------------------------------------------------
  /** The memories that matter for `query`, as a `ContextPacket`. */
  async read(query: string, options: ReadOptions = {}): Promise<ContextPacket> {
    return this.post("/v1/memory/read", this.readBody(query, options));
  }

  /** The same read as prompt-ready markdown (the server's `format: "markdown"`; the
   * Python SDK's `packet.to_markdown()`). */
  async readMarkdown(query: string, options: ReadOptions = {}): Promise<string> {
    const request = {
      method: "POST",
      path: "/v1/memory/read",
      body: { ...this.readBody(query, options), format: "markdown" },
      accept: "text/markdown",
    };
    return this.http.answerText(request);
  }

  // -- one memory --------------------------------------------------------------------
  /** One memory item with its provenance; `NotFound` when there is none, or none inside
   * `scope` (its namespace: `default` unless named). */
  async get(itemId: string, options: GetOptions = {}): Promise<MemoryItem> {
    const query = queryString(scopeBody(options.scope) as Record<string, string>);
    return this.http.json({ method: "GET", path: route`/v1/memory/get/${itemId}` + query });
  }

  /** Every recorded change to an item or a fact, oldest first (`[]` for an unknown id). */
  async history(targetId: string): Promise<HistoryEntry[]> {
    try {
      return await this.http.json({ method: "GET", path: route`/v1/memory/history/${targetId}` });
    } catch (error) {
      if (error instanceof NotFound) return [];
      throw error;
    }
  }

  /** Edit a memory or give feedback on it. */
  async update(itemId: string, changes: UpdateOptions = {}): Promise<MemoryItem> {
    return this.post("/v1/memory/update", { id: itemId, ...defined({ ...changes }) });
  }

  /** Delete one memory item; `NotFound` when there is none. */
  async delete(itemId: string): Promise<void> {
    await this.get(itemId);
    await this.forget({ ids: [itemId], all_users: true }); // by id: whoever's it is
  }

  /** Forget memories by ids, query or time range. */
  async forget(options: ForgetOptions = {}): Promise<ForgetResult> {
    const { scope, user_id, agent_id, session_id, all_users, ids, query, since, until } = options;
    return this.post("/v1/memory/forget", {
      scope: scopeBody(scope, { user_id, agent_id, session_id }, all_users),
      mode: options.mode ?? "delete",
      dry_run: options.dry_run ?? false,
      limit: options.limit ?? 100,
      ...defined({ ids, query, since, until }),
    });
  }

  /** One conversational turn: read for the user's message, then remember both. */
  async turn(
    userMessage: MessageInput,
    assistantMessage: MessageInput | null = null,
    options: TurnOptions = {},
  ): Promise<Turn> {
    const { scope, user_id, agent_id, session_id, all_users, profile, ...rank } = options;
    const body: Record<string, unknown> = {
      user: { role: "user", ...messageBody(userMessage) },
      scope: scopeBody(scope, { user_id, agent_id, session_id }, all_users),
      profile: profile ?? "chat",
      ...defined({ ...rank }),
    };
    if (assistantMessage !== null) {
      body.assistant = { role: "assistant", ...messageBody(assistantMessage) };
    }
    return this.post("/v1/memory/turn", body);
  }

  // -- sessions, statistics, erasure, export -----------------------------------------
  async createSession(sessionId: string, options: CreateSessionOptions = {}): Promise<Session> {
    const { scope, user_id, agent_id, metadata } = options;
    return this.post("/v1/sessions", {
      session_id: sessionId,
      scope: scopeBody(scope, { user_id, agent_id }),
      metadata: metadata ?? {},
    });
  }

  async listSessions(options: ListSessionsOptions = {}): Promise<Session[]> {
    const { scope, user_id, agent_id, all_users } = options;
    return this.post("/v1/sessions/query", {
      scope: scopeBody(scope, { user_id, agent_id }, all_users),
      limit: options.limit ?? 100,
    });
  }

  /** Close a session: writes naming it are refused (`Conflict`) from now on. */
  async closeSession(sessionId: string, options: CloseSessionOptions = {}): Promise<Session> {
    const scope = scopeBody(options.scope, { user_id: options.user_id });
    return this.post(route`/v1/sessions/${sessionId}/close`, { scope });
  }

  /** What the scope holds, counted. */
  async stats(options: UserScoped = {}): Promise<ScopeStats> {
    return this.post("/v1/stats", { scope: this.userScope(options) });
  }

  /** Erase everything derived from the user. */
  async eraseUser(userId: string): Promise<ErasureReport> {
    return this.http.json({ method: "DELETE", path: route`/v1/users/${userId}` });
  }

  /** Erase one shared level: an agent's (`agent_id` alone), a namespace's
   * (`scope: { level: "namespace" }`) or the organisation's (`scope: { level:
   * "organisation" }`); no user's memory changes. */
  async eraseLevel(options: EraseLevelOptions = {}): Promise<ErasureReport> {
    return this.post("/v1/levels/erase", { scope: scopeBody(options.scope, { agent_id: options.agent_id }) });
  }

  /** Every stored row of the scope, streamed (a header record first). */
  async *export(options: UserScoped = {}): AsyncGenerator<ExportRecord> {
    const request = {
      method: "POST",
      path: "/v1/memory/export",
      body: { scope: this.userScope(options) },
      accept: NDJSON,
    };
    const response = await this.http.send(request);
    const decoder = new TextDecoder();
    let pending = "";
    const reader = response.body?.getReader();
    while (reader !== undefined) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw this.http.transportError(request, error);
      }
      if (chunk.done) break;
      pending += decoder.decode(chunk.value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) yield exportRecord(line, response.status);
    }
    pending += decoder.decode();
    if (pending.trim()) yield exportRecord(pending, response.status);
  }

  /** Import records written by `export` (idempotent); the counts of rows imported. */
  async importRecords(
    records: Iterable<ExportRecord> | AsyncIterable<ExportRecord>,
  ): Promise<Record<string, number>> {
    const lines: string[] = [];
    for await (const record of records) lines.push(JSON.stringify(record));
    return this.http.json({
      method: "POST",
      path: "/v1/memory/import",
      content: `${lines.join("\n")}\n`,
      content_type: NDJSON,
    });
  }

  // -- knowledge ---------------------------------------------------------------------
  /** The user's facts, newest first. The API takes one `key`: more than one is a
   * `UsageError`. */
  async facts(options: FactsOptions = {}): Promise<Fact[]> {
    let key = options.key;
    if (Array.isArray(key)) {
      if (key.length > 1) {
        throw new UsageError(
          "the HTTP API queries one fact key at a time: call facts() once per key",
        );
      }
      key = key[0];
    }
    return this.post("/v1/facts/query", {
      scope: this.userScope(options),
      include_history: options.include_history ?? false,
      limit: options.limit ?? 1000,
      ...defined({ key, categories: options.categories }),
    });
  }

  /** The live fact under exactly `key`; `NotFound` when there is none. */
  async getFact(key: string, options: UserScoped = {}): Promise<Fact> {
    const found = (await this.facts({ ...options, key })).find((fact) => fact.key === key);
    if (found === undefined) throw new NotFound("fact", key);
    return found;
  }

  /** The entities visible to the user, each with its aliases. */
  async entities(options: UserScoped = {}): Promise<EntityWithAliases[]> {
    return this.post("/v1/entities/query", { scope: this.userScope(options) });
  }

  /** Undo a name merge: take `alias` off the entity (`split`: into an entity of its own). */
  async removeAlias(
    entityId: string,
    alias: string,
    options: RemoveAliasOptions = {},
  ): Promise<AliasRemoval> {
    return this.post(route`/v1/entities/${entityId}/aliases/remove`, {
      alias,
      split: options.split ?? false,
      scope: this.userScope(options),
    });
  }

  /** Give `alias` to the entity as the user's word; a name split off it merges the
   * split-off entity back (see the API's `aliases/add`). */
  async addAlias(
    entityId: string,
    alias: string,
    options: UserScoped = {},
  ): Promise<AliasAddition> {
    return this.post(route`/v1/entities/${entityId}/aliases/add`, {
      alias,
      scope: this.userScope(options),
    });
  }

  /** Contradictions between the user's facts (open ones unless `open_only: false`). */
  async conflicts(options: ConflictsOptions = {}): Promise<FactConflict[]> {
    return this.post("/v1/conflicts/query", {
      scope: this.userScope(options),
      open_only: options.open_only ?? true,
    });
  }

  /** Close a conflict, naming the fact that wins (or none). */
  async resolveConflict(
    conflictId: string,
    options: ResolveConflictOptions = {},
  ): Promise<FactConflict> {
    return this.post(route`/v1/conflicts/${conflictId}/resolve`, {
      winner_fact_id: options.winner_fact_id ?? null,
      note: options.note ?? "",
    });
  }

  // -- browsing ----------------------------------------------------------------------
  /** The caller's tenant (the API key's) and its users, most recently active first. */
  async users(options: UsersOptions = {}): Promise<TenantOverview> {
    return this.post("/v1/users/query", { limit: options.limit ?? 100 });
  }

  /** The user's items newest first, filtered (not ranked). */
  async listItems(options: ListItemsOptions = {}): Promise<MemoryItem[]> {
    const { scope, user_id, all_users, limit, ...filters } = options;
    return this.post("/v1/memory/query", {
      scope: scopeBody(scope, { user_id }, all_users),
      limit: limit ?? 100,
      ...defined({ ...filters }),
    });
  }

  /** The raw events of these ids that exist, in the order asked. */
  async getEvents(eventIds: string[]): Promise<Event[]> {
    if (eventIds.length === 0) return [];
    return this.post("/v1/events/query", { ids: eventIds });
  }

  // -- lifecycle, jobs, procedures, mandates -----------------------------------------
  /** Queue lifecycle operation `op` on one level's memories (`job`): a user's, an
   * agent's (`agent_id` alone), a namespace's (`scope: { level: "namespace" }`) or the
   * organisation's (`scope: { level: "organisation" }`);
   * or with `dry_run` get what it would change (`result`, `summary`). Progress is the
   * job's (`getJob`). A run (not a dry run) without a `key` gets one made up for the
   * call, so sending it again when its answer is lost queues one job. */
  async runLifecycle(op: string, options: LifecycleOptions = {}): Promise<LifecycleRun> {
    const { scope, user_id, agent_id, namespace, dry_run, key } = options;
    return this.post(route`/v1/lifecycle/${op}`, {
      scope: scopeBody(scope, { user_id, agent_id, namespace }),
      dry_run: dry_run ?? false,
      ...defined({ key: key ?? (dry_run ? undefined : runKey()) }),
    });
  }

  /** The state of a job (queued / running / done / failed). */
  async getJob(jobId: string): Promise<Job> {
    return this.http.json({ method: "GET", path: route`/v1/jobs/${jobId}` });
  }

  /** The tenant's jobs, newest first, with state, progress and result summary. */
  async listJobs(options: ListJobsOptions = {}): Promise<Job[]> {
    const query = queryString({ limit: options.limit ?? 100, kind: options.kind, state: options.state });
    return this.http.json({ method: "GET", path: `/v1/jobs${query}` });
  }

  /** One user's learnt procedures, most confident first. */
  async procedures(options: ProceduresOptions = {}): Promise<Procedure[]> {
    const fields = scopeBody(options.scope, { user_id: options.user_id });
    const user = fields.user_id;
    if (typeof user !== "string") {
      throw new InvalidInput("procedures are listed one user's at a time: pass user_id", {
        field: "scope.user_id",
      });
    }
    const query = queryString({
      limit: options.limit ?? 100,
      namespace: String(fields.namespace ?? "default"),
    });
    return this.http.json({ method: "GET", path: route`/v1/users/${user}/procedures` + query });
  }

  /** Learn the user's procedures: the `procedures` lifecycle operation. */
  async detectProcedures(options: DetectProceduresOptions = {}): Promise<LifecycleRun> {
    return this.runLifecycle("procedures", options);
  }

  /** The user's memories promotion proposes as mandates. */
  async mandateCandidates(options: MandateOptions = {}): Promise<MandateCandidate[]> {
    const { scope, user_id, namespace } = options;
    return this.post("/v1/mandate-candidates/query", {
      scope: scopeBody(scope, { user_id, namespace }),
    });
  }

  /** Make a mandate candidate a mandate (kind mandate, tier always). */
  async acceptMandate(itemId: string): Promise<MemoryItem> {
    return this.http.json({ method: "POST", path: route`/v1/mandate-candidates/${itemId}/accept` });
  }

  // -- service -----------------------------------------------------------------------
  /** The server's health check (`{"status": "ok"}`); needs no key. */
  async health(): Promise<Health> {
    return this.http.json({ method: "GET", path: "/v1/health" });
  }

  // -- plumbing ----------------------------------------------------------------------
  private async post<T>(path: string, body: unknown): Promise<T> {
    return this.http.json({ method: "POST", path, body });
  }

  private userScope(options: UserScoped): Record<string, unknown> {
    return scopeBody(options.scope, { user_id: options.user_id }, options.all_users);
  }

  private readBody(query: string, options: ReadOptions): Record<string, unknown> {
    const { scope, user_id, agent_id, session_id, all_users, explain, ...rest } = options;
    return {
      query,
      scope: scopeBody(scope, { user_id, agent_id, session_id }, all_users),
      explain: explain ?? false,
      ...defined({ ...rest }),
    };
  }
}

/** One line of an export; a line that is not JSON is a `ClientError`. */
function exportRecord(line: string, status: number): ExportRecord {
  try {
    return JSON.parse(line) as ExportRecord;
  } catch {
    throw new ClientError(`unexpected export line: ${snippet(line)}`, { status, body: line });
  }
}
