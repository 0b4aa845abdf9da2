/**
 * What the client puts on the wire: scopes, messages, paths and query strings, as the
 * Python SDK's `client_wire` does. Nothing here validates what the server checks: a bad
 * value comes back as `InvalidInput` naming the field.
 */

import { UsageError } from "./errors.js";
import type { LevelReadScope, Message, ScopeFields } from "./models.js";

export const DEFAULT_TENANT = "default";

/** A message: its text alone, or the whole `Message` (author name, time, metadata, ...). */
export type MessageInput = string | Message;

/** The scope fields a call names beside (or instead of) `scope`. */
export interface ScopeIds {
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  namespace?: string;
}

/** The body of a message: a string becomes `{"content": ...}`. */
export function messageBody(value: MessageInput): Message {
  return typeof value === "string" ? { content: value } : { ...value };
}

/**
 * The scope of a request body: `scope`, then the ids named beside it, then
 * `all_users: true` when asked. The tenant is the server's to pick (from the API key):
 * a scope naming another tenant than `default` is a `UsageError`, before any request.
 */
export function scopeBody(
  scope: ScopeFields | LevelReadScope | undefined,
  ids: ScopeIds = {},
  allUsers = false,
): Record<string, unknown> {
  const data: Record<string, unknown> = { ...(scope ?? {}) };
  for (const [name, value] of Object.entries(ids)) {
    if (value !== undefined && value !== null) data[name] = value;
  }
  if (allUsers) data.all_users = true;
  const tenant = data.tenant_id ?? DEFAULT_TENANT;
  delete data.tenant_id;
  checkTenant(String(tenant));
  return data;
}

export function checkTenant(tenantId: string): void {
  if (tenantId !== DEFAULT_TENANT) {
    throw new UsageError(
      "over HTTP the server picks the tenant (from the API key): leave tenant_id unset",
    );
  }
}

/** `/v1/a/{id}/b` with every id percent-encoded. */
export function route(strings: TemplateStringsArray, ...ids: string[]): string {
  return strings.reduce(
    (path, part, i) => path + part + (i < ids.length ? encodeURIComponent(ids[i]!) : ""),
    "",
  );
}

/** `?a=1&b=2` of the values that are set ('' when none is). */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const set = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
  if (set.length === 0) return "";
  return `?${new URLSearchParams(set.map(([k, v]) => [k, String(v)])).toString()}`;
}

/** `body` without the keys whose value is undefined or null (the server's defaults
 * apply to those). */
export function defined<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(body).filter(([, v]) => v !== undefined && v !== null),
  ) as Partial<T>;
}
