/**
 * Requests to a cognimem server: the key, the per-attempt timeout, an error answer
 * rebuilt into its error class, and the retries. Only 429 and 503 are retried, up to
 * `retries` extra attempts, waiting what `Retry-After` says or else a random wait
 * between 0 and `backoff * 2 ** attempt` seconds (capped at `max_backoff`); a
 * `Retry-After` longer than `max_backoff` is not waited for (the error is raised at once).
 */

import { ClientError, errorFrom, snippet, TransportError, UsageError } from "./errors.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8420";
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);
export const NDJSON = "application/x-ndjson";

/** How a client reaches its server (the Python SDK's keyword arguments, in seconds). */
export interface ClientOptions {
  /** An API key from `cognimem keys create`; sent as `Authorization: Bearer <key>`. */
  api_key?: string;
  /** Seconds per attempt; `null` waits for ever. Default 30. */
  timeout?: number | null;
  /** Extra attempts after a 429 or 503. Default 2. */
  retries?: number;
  /** The first backoff step in seconds, doubled per attempt. Default 0.5. */
  backoff?: number;
  /** The longest wait between attempts, in seconds. Default 30. */
  max_backoff?: number;
  /** Replaces the global `fetch` (a proxy agent, a test's stub). */
  fetch?: typeof fetch;
}

/** One request: a JSON body, or raw `content` of `content_type`. */
export interface Request {
  method: string;
  path: string;
  body?: unknown;
  content?: string;
  content_type?: string;
  accept?: string;
}

/** Seconds from a `Retry-After` header: a number, or an HTTP date (undefined when
 * absent or unreadable). */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  let seconds = Number(value);
  if (Number.isNaN(seconds)) {
    const when = Date.parse(value);
    if (Number.isNaN(when)) return undefined;
    seconds = (when - Date.now()) / 1000;
  }
  return Number.isFinite(seconds) ? Math.max(seconds, 0) : undefined;
}

/** The requests of one client: its base URL, key, timeout and retry policy. */
export class Http {
  readonly base_url: string;
  readonly retries: number;
  readonly backoff: number;
  readonly max_backoff: number;
  readonly timeout: number | null;
  private readonly headers: Record<string, string>;
  private readonly fetcher: typeof fetch;

  constructor(baseUrl: string, options: ClientOptions) {
    const retries = options.retries ?? 2;
    if (!Number.isInteger(retries) || retries < 0) {
      throw new UsageError("retries must be a whole number, 0 or more");
    }
    this.base_url = baseUrl.replace(/\/+$/, "");
    this.retries = retries;
    this.backoff = options.backoff ?? 0.5;
    this.max_backoff = options.max_backoff ?? 30;
    this.timeout = options.timeout === undefined ? 30 : options.timeout;
    this.headers = {};
    if (options.api_key !== undefined) this.headers.Authorization = `Bearer ${options.api_key}`;
    this.fetcher = options.fetch ?? globalThis.fetch;
    if (typeof this.fetcher !== "function") {
      throw new UsageError("no global fetch here: run on Node 18 or later, or pass options.fetch");
    }
  }

  /** The answer's JSON, parsed; an error answer raised as its error class. */
  async json<T>(request: Request): Promise<T> {
    const response = await this.send(request);
    const text = await this.text(request, response);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ClientError(
        `unexpected answer to ${request.method} ${request.path} ` +
          `(HTTP ${response.status}): ${snippet(text)}`,
        { status: response.status, body: text },
      );
    }
  }

  /** The successful response (its body unread), after the retries. */
  async send(request: Request): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.attempt(request);
      if (response.ok) return response;
      const body = await this.text(request, response);
      const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
      const delay = this.retryDelay(response.status, retryAfter, attempt);
      if (delay === undefined) {
        throw errorFrom({
          method: request.method,
          path: request.path,
          status: response.status,
          body,
          retry_after: retryAfter,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    }
  }

  /** Seconds to wait before the next attempt, or undefined to give up now. */
  retryDelay(status: number, retryAfter: number | undefined, attempt: number): number | undefined {
    if (!RETRY_STATUSES.has(status) || attempt >= this.retries) return undefined;
    if (retryAfter !== undefined) {
      // never sooner than the server asked; rather fail than block for long
      return retryAfter <= this.max_backoff ? retryAfter : undefined;
    }
    return Math.random() * Math.min(this.max_backoff, this.backoff * 2 ** attempt);
  }

  /** The body of a response, a timeout or a dropped connection while reading it
   * raised as a `TransportError`. */
  async text(request: Request, response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw this.transportError(request, error);
    }
  }

  private async attempt(request: Request): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.headers,
      Accept: request.accept ?? "application/json",
    };
    let payload: string | undefined = request.content;
    if (request.body !== undefined) {
      payload = JSON.stringify(request.body);
      headers["Content-Type"] = "application/json";
    } else if (request.content_type !== undefined) {
      headers["Content-Type"] = request.content_type;
    }
    const url = `${this.base_url}${request.path}`;
    try {
      return await this.fetcher(url, {
        method: request.method,
        headers,
        body: payload,
        signal: this.timeout === null ? null : AbortSignal.timeout(this.timeout * 1000),
      });
    } catch (error) {
      throw this.transportError(request, error);
    }
  }

  /** A failed fetch (or body read) as the client's `TransportError`. */
  transportError(request: Request, error: unknown): TransportError {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      const url = `${this.base_url}${request.path}`;
      return new TransportError(`${request.method} ${url} timed out (${this.timeout} s)`);
    }
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new TransportError(`cannot reach cognimem at ${this.base_url}: ${reason}`);
  }
}
