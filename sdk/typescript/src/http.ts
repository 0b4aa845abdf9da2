/**
 * Requests to a cognimem server: the key, the per-attempt timeout, an error answer
 * rebuilt into its error class, and the retries. Only 429 and 503 are retried, up to
 * `retries` extra attempts, waiting what `Retry-After` says or else a random wait
 * between 0 and `backoff * 2 ** attempt` seconds (capped at `max_backoff`); a
 * `Retry-After` longer than `max_backoff` is not waited for (the error is raised at once).
 * A request whose answer is lost (the connection closed or was reset after it went out,
 * or the answer did not come within `timeout`) is sent again at once, up to `retries`
 * times, when a repeat cannot act twice (`resend.ts`); anything else raises
 * `TransportError` with `sent` true.
 */

import { ClientError, errorFrom, snippet, TransportError, UsageError } from "./errors.js";
import { answerLost, lostReason, replayable } from "./resend.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8420";
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);
export const NDJSON = "application/x-ndjson";

/** How a client reaches its server (the Python SDK's keyword arguments, in seconds). */
export interface ClientOptions {
  /** An API key from `cognimem keys create`; sent as `Authorization: Bearer <key>`. */
  api_key?: string;
  /** Seconds per attempt; `null` waits for ever. Default 30. */
  timeout?: number | null;
  /** Extra attempts after a 429, a 503 or a lost answer (0: none). Default 2. */
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
    const [response, text] = await this.exchange(request, (answer) => answer.text());
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

  /** The answer's body as text (an error answer raised as its error class). */
  async answerText(request: Request): Promise<string> {
    const [, text] = await this.exchange(request, (answer) => answer.text());
    return text;
  }

  /** The successful response (its body unread, for a stream), after the retries. */
  async send(request: Request): Promise<Response> {
    const [response] = await this.exchange(request, async () => undefined);
    return response;
  }

  /** Send `request` until it is answered: a 429 or 503 waited for and sent again, a lost
   * answer sent again when safe; `take` reads the successful answer (a lost body counts
   * as a lost answer). */
  private async exchange<R>(
    request: Request,
    take: (response: Response) => Promise<R>,
  ): Promise<[Response, R]> {
    const safe = replayable(request.method, request.path, request.body);
    const resends = safe ? this.retries : 0;
    let attempt = 0;
    let lost = 0;
    for (;;) {
      let response: Response;
      try {
        response = await this.attempt(request);
        if (response.ok) return [response, await take(response)];
      } catch (error) {
        if (!answerLost(error)) throw this.transportError(request, error);
        if (lost >= resends) throw this.lostAnswer(request, error, attempt + lost + 1, safe);
        lost += 1;
        continue;
      }
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
      attempt += 1;
    }
  }

  /** The error for a request whose answer was lost each of the `attempts` times it was
   * sent; `safe`: a repeat of it cannot act twice. */
  private lostAnswer(request: Request, error: unknown, attempts: number, safe: boolean): TransportError {
    const where = `${request.method} ${this.base_url}${request.path}`;
    const reason = lostReason(error, this.timeout);
    let message: string;
    if (attempts > 1) {
      message =
        `${where}: no answer in ${attempts} attempts, the last because ${reason}; a repeat ` +
        "cannot act twice, so the server acted on it once or not at all";
    } else if (safe) {
      message = `${where}: ${reason}; not sent again (retries=0)`;
    } else {
      message =
        `${where}: ${reason}; not sent again, as a repeat could act twice: the server ` +
        "may have acted on it";
    }
    return new TransportError(message, { sent: true, attempts });
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
    return await this.fetcher(`${this.base_url}${request.path}`, {
      method: request.method,
      headers,
      body: payload,
      signal: this.timeout === null ? null : AbortSignal.timeout(this.timeout * 1000),
    });
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
