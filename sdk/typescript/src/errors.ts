/**
 * The cognimem error tree, as the server names it in an error answer
 * `{"error": {"type", "message", "details"}}` (Python's `cognimem.errors`), plus the
 * client's own two:
 *
 * ```
 * CognimemError
 * ├─ UsageError              misconfiguration; the message names the fix
 * │  └─ DomainMappingError
 * ├─ InvalidInput            HTTP 422; `field` names the culprit
 * ├─ NotFound                HTTP 404; `kind`, `id`
 * ├─ PermissionDenied        HTTP 403
 * │  └─ Unauthenticated      HTTP 401
 * ├─ Conflict                HTTP 409
 * │  └─ StaleKnowledge
 * ├─ RateLimited             HTTP 429; `retry_after` seconds
 * ├─ StoreError              HTTP 500
 * │  ├─ StoreUnavailable     HTTP 503; `retry_after` seconds
 * │  └─ SchemaMismatch
 * ├─ ProviderError           HTTP 502; `provider`, `model`
 * │  ├─ ProviderUnavailable
 * │  │  └─ DomainUnavailable
 * │  │     └─ DomainTimeout
 * │  └─ ProviderOutputError
 * └─ ClientError             the answer was not a cognimem answer; `status`, `body`
 *    └─ TransportError       no answer: connection failed or timed out
 * ```
 *
 * Field names are the Python SDK's (`retry_after`, not `retryAfter`), so code and docs
 * carry over.
 */

/** Details of an error answer: whatever the server put in `error.details`. */
export type ErrorDetails = Record<string, unknown>;

/** Base of every error the client raises on purpose. */
export class CognimemError extends Error {
  /** What the server said, e.g. `{"field": "scope.user_id"}`. */
  readonly details: ErrorDetails;
  /** The HTTP status of the answer (undefined for errors raised before any request). */
  status: number | undefined;

  constructor(message: string, options: { details?: ErrorDetails; status?: number } = {}) {
    super(message);
    this.name = new.target.name;
    this.details = options.details ?? {};
    this.status = options.status;
  }

  /** The error's type name, as in the error body (`"NotFound"`). */
  get type(): string {
    return this.name;
  }
}

/** cognimem is configured or called wrongly; the message says how to fix it. */
export class UsageError extends CognimemError {}

/** A domain mapping file that cannot be used (server-side configuration). */
export class DomainMappingError extends UsageError {}

/** Request data the server refuses; nothing was written. `field` names the culprit. */
export class InvalidInput extends CognimemError {
  readonly field: string | undefined;

  constructor(
    message: string,
    options: { field?: string; details?: ErrorDetails; status?: number } = {},
  ) {
    const details = { ...(options.details ?? {}) };
    if (options.field !== undefined && !("field" in details)) details.field = options.field;
    super(message, { details, status: options.status ?? 422 });
    this.field = options.field;
  }
}

/** There is no such thing (or none the caller may see). */
export class NotFound extends CognimemError {
  readonly kind: string;
  readonly id: string;

  constructor(kind: string, id: string, message?: string, status = 404) {
    super(message ?? `${kind} '${id}' not found`, { details: { kind, id }, status });
    this.kind = kind;
    this.id = id;
  }
}

/** Wrong tenant or key. */
export class PermissionDenied extends CognimemError {}

/** No or bad credentials: pass `api_key`. */
export class Unauthenticated extends PermissionDenied {}

/** Idempotency or version clash; also a write naming a closed session. */
export class Conflict extends CognimemError {}

/** What a write was made from changed before it committed, and kept changing. */
export class StaleKnowledge extends Conflict {}

/** The key used up its request allowance; retry after `retry_after` seconds. */
export class RateLimited extends CognimemError {
  readonly retry_after: number;

  constructor(
    message: string,
    options: { retry_after?: number; details?: ErrorDetails; status?: number } = {},
  ) {
    super(message, { details: options.details, status: options.status ?? 429 });
    this.retry_after = options.retry_after ?? 1;
  }
}

/** The store failed. */
export class StoreError extends CognimemError {}

/** The database cannot be reached right now; retry after `retry_after` seconds. */
export class StoreUnavailable extends StoreError {
  readonly retry_after: number;

  constructor(
    message: string,
    options: { retry_after?: number; details?: ErrorDetails; status?: number } = {},
  ) {
    super(message, { details: options.details, status: options.status ?? 503 });
    this.retry_after = options.retry_after ?? 1;
  }
}

/** The database was written by another schema version or embedding model. */
export class SchemaMismatch extends StoreError {}

/** An embedding or LLM provider failed; `provider` and `model` name it. */
export class ProviderError extends CognimemError {
  readonly provider: string;
  readonly model: string;

  constructor(
    message: string,
    options: { provider?: string; model?: string; details?: ErrorDetails; status?: number } = {},
  ) {
    const provider = options.provider ?? "";
    const model = options.model ?? "";
    super(message, {
      details: { provider, model, ...(options.details ?? {}) },
      status: options.status ?? 502,
    });
    this.provider = provider;
    this.model = model;
  }
}

/** Timeout, connection failure or HTTP error status from a provider. */
export class ProviderUnavailable extends ProviderError {}

/** The user's domain database could not answer a lookup. */
export class DomainUnavailable extends ProviderUnavailable {}

/** A domain lookup ran past its statement timeout and was stopped. */
export class DomainTimeout extends DomainUnavailable {}

/** The provider answered, but with something cognimem cannot use. */
export class ProviderOutputError extends ProviderError {}

/**
 * The server answered with something that is not a cognimem answer: an error without
 * the cognimem error body (a proxy's 502 page, a 404 from a wrong base URL), an unknown
 * error type, or a body that does not parse. `status` and `body` hold what came back.
 */
export class ClientError extends CognimemError {
  readonly body: string;

  constructor(
    message: string,
    options: { status?: number; body?: string; details?: ErrorDetails } = {},
  ) {
    super(message, { details: options.details, status: options.status });
    this.body = options.body ?? "";
  }
}

/** The request got no answer: connection refused, DNS, timeout, ... `sent` says whether
 * the request went out (the connection closed, or the wait for the answer timed out,
 * after it was sent): the server may then have acted on it. `attempts` counts the times
 * the client sent it (a request safe to repeat is sent again when its answer is lost:
 * see `resend.ts`). */
export class TransportError extends ClientError {
  readonly sent: boolean;
  readonly attempts: number;

  constructor(message: string, options: { sent?: boolean; attempts?: number } = {}) {
    super(message);
    this.sent = options.sent ?? false;
    this.attempts = options.attempts ?? 1;
  }
}

type Plain = new (message: string, options: { details?: ErrorDetails; status?: number }) => CognimemError;

// the classes an error body may name whose constructor takes (message, options)
const PLAIN: Record<string, Plain> = {
  CognimemError,
  UsageError,
  DomainMappingError,
  PermissionDenied,
  Unauthenticated,
  Conflict,
  StaleKnowledge,
  StoreError,
  SchemaMismatch,
};
const PROVIDERS = {
  ProviderError,
  ProviderUnavailable,
  DomainUnavailable,
  DomainTimeout,
  ProviderOutputError,
};
const RETRY_LATER = { RateLimited, StoreUnavailable };

/** What came back for a request that failed, as `errorFrom` needs it. */
export interface FailedAnswer {
  method: string;
  path: string;
  status: number;
  body: string;
  /** Seconds from the `Retry-After` header, when it had a readable one. */
  retry_after: number | undefined;
}

/** The first `size` characters of an answer's body, for a message. */
export function snippet(body: string, size = 200): string {
  const text = body.trim() || "<empty body>";
  return text.length <= size ? text : `${text.slice(0, size)}...`;
}

/** The error the server named in an error answer, rebuilt with its fields. */
export function errorFrom(answer: FailedAnswer): CognimemError {
  const { status, body } = answer;
  const parsed = errorBody(body);
  if (parsed === undefined) {
    const where = `${answer.method} ${answer.path}`;
    return new ClientError(`HTTP ${status} from ${where}: ${snippet(body)}`, { status, body });
  }
  const { type, message, details } = parsed;
  if (type === "InvalidInput") {
    const field = typeof details.field === "string" ? details.field : undefined;
    return new InvalidInput(message, { field, details, status });
  }
  if (type === "NotFound") {
    return new NotFound(String(details.kind ?? ""), String(details.id ?? ""), message, status);
  }
  if (type in RETRY_LATER) {
    const cls = RETRY_LATER[type as keyof typeof RETRY_LATER];
    return new cls(message, { retry_after: answer.retry_after ?? 1, details, status });
  }
  if (type in PROVIDERS) {
    const { provider, model, ...rest } = details;
    const cls = PROVIDERS[type as keyof typeof PROVIDERS];
    return new cls(message, {
      provider: String(provider ?? ""),
      model: String(model ?? ""),
      details: rest,
      status,
    });
  }
  const cls = PLAIN[type];
  if (cls === undefined) {
    return new ClientError(`${type}: ${message}`, { status, body, details });
  }
  return new cls(message, { details, status });
}

function errorBody(
  body: string,
): { type: string; message: string; details: ErrorDetails } | undefined {
  let error: unknown;
  try {
    error = (JSON.parse(body) as { error?: unknown } | null)?.error;
  } catch {
    return undefined;
  }
  if (typeof error !== "object" || error === null) return undefined;
  const { type, message, details } = error as Record<string, unknown>;
  const detailsOk =
    details === undefined ||
    details === null ||
    (typeof details === "object" && !Array.isArray(details));
  if (typeof type !== "string" || typeof message !== "string" || !detailsOk) return undefined;
  return { type, message, details: (details ?? {}) as ErrorDetails };
}
