/**
 * Which requests the client sends again when their answer is lost, and what makes a
 * write and a lifecycle run safe to send again (the Python SDK's `client/_resend.py`).
 *
 * An answer is lost when the connection closes or is reset after the request went out,
 * or the wait for the answer times out: the server may or may not have acted on it.
 * Such a request is sent again (`retries` times at most, at once) only when a second
 * copy cannot change anything twice:
 *
 * - a `GET`, or a `POST` that only reads (`/v1/memory/read`, `/v1/stats`, the
 *   `.../query` listings; a read counts its items as used, an approximate signal);
 * - a write whose every message carries an `idempotency_key` (a repeat is answered as
 *   the `duplicate` of the stored event) or says when it `occurred_at`: a repeat of a
 *   message without a key (the same scope, role, name, text and time) is a duplicate
 *   inside any dedupe window. `stamped` gives every message of a client write that has
 *   neither the time of the call. It makes up no key: a message with a key is left out
 *   of the server's dedupe window, so a made-up key would store a repeated message that
 *   the server would otherwise answer as a duplicate;
 * - a lifecycle run with a `key` (the same operation, level and key queue one job: the
 *   client makes one up when the caller gives none), or a dry run (it changes nothing).
 *
 * Anything else (`turn`, `update`, `forget`, an import, ...) is not sent again.
 */

const READ_POSTS: ReadonlySet<string> = new Set(["/v1/memory/read", "/v1/stats"]);
const WRITES: ReadonlySet<string> = new Set(["/v1/memory/write", "/v1/memory/write_batch"]);
const LIFECYCLE = "/v1/lifecycle/";

// what `fetch` (undici) says when the request went out and its answer was lost: the
// connection closed ("other side closed") or was reset, or broke while the request was
// written; a refused connection, a name that does not resolve or a connect timeout is no
// request sent at all (the wait for the answer timing out is a `TimeoutError`)
const LOST: ReadonlySet<string> = new Set([
  "UND_ERR_SOCKET",
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

type Body = Record<string, unknown>;

/** `message` (a write's body) with `occurred_at` set to `now` when it has neither an
 * `idempotency_key` nor an `occurred_at`: its repeat is then a duplicate of it however
 * the server's dedupe window is set. */
export function stamped<T extends object>(message: T, now: string): T {
  const body = message as Body;
  if (!body.idempotency_key && (body.occurred_at === undefined || body.occurred_at === null)) {
    return { ...message, occurred_at: now };
  }
  return message;
}

/** The time of a call, as the server reads it. */
export function callTime(): string {
  return new Date().toISOString();
}

/** A lifecycle run's key when the caller gives none: the server's `key` pattern, and
 * no caller's key looks like it. */
export function runKey(): string {
  // Node 19+ has the Web Crypto global; Node 18 only behind a flag, where 128 random
  // bits from Math.random still make a key no other run shares
  const uuid = globalThis.crypto?.randomUUID?.().replaceAll("-", "");
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16));
  return `sdk-${uuid ?? hex.join("")}`;
}

/** Whether sending the request a second time cannot change anything twice (see the
 * module's comment). */
export function replayable(method: string, path: string, body: unknown): boolean {
  const route = path.split("?", 1)[0] ?? path;
  if (method === "GET" || (method === "POST" && (READ_POSTS.has(route) || route.endsWith("/query")))) {
    return true;
  }
  if (method !== "POST" || typeof body !== "object" || body === null || Array.isArray(body)) {
    return false;
  }
  const fields = body as Body;
  if (route.startsWith(LIFECYCLE)) return fields.dry_run === true || Boolean(fields.key);
  if (!WRITES.has(route)) return false;
  const messages = "messages" in fields ? fields.messages : [fields];
  return (
    Array.isArray(messages) &&
    messages.every(
      (m) =>
        typeof m === "object" &&
        m !== null &&
        (Boolean((m as Body).idempotency_key) ||
          ((m as Body).occurred_at !== undefined && (m as Body).occurred_at !== null)),
    )
  );
}

/** Whether a failed `fetch` (or body read) lost its answer: the request went out, and
 * the server may have acted on it. */
export function answerLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError") return true;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && LOST.has(code);
}

/** What became of the answer, for the error. */
export function lostReason(error: unknown, timeout: number | null): string {
  if (error instanceof Error && error.name === "TimeoutError") {
    return `the answer did not come in time (timed out after ${timeout} s)`;
  }
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const said = cause instanceof Error ? cause.message : String(cause);
  return `the connection closed without an answer (${said})`;
}
