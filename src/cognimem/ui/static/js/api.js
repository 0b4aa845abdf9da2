// The public HTTP API, called with the signed-in API key. Errors come back as
// ApiError with the API's {"error": {"type", "message", "details"}} fields.

const KEY = "cognimem.key";

export class ApiError extends Error {
  constructor(status, type, message, field) {
    super(message);
    this.status = status;
    this.type = type;
    this.field = field;
  }
}

export function storedKey() {
  return sessionStorage.getItem(KEY);
}

export function keepKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

export async function call(method, path, body, { key = storedKey(), text = false } = {}) {
  const headers = { Authorization: `Bearer ${key || ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    throw new ApiError(0, "NetworkError", `the server could not be reached (${exc.message})`);
  }
  if (!response.ok) {
    let error = {};
    try {
      error = (await response.json()).error || {};
    } catch {
      // not the API's error shape: say what HTTP said
    }
    throw new ApiError(response.status, error.type || "HTTPError",
      error.message || `HTTP ${response.status} ${response.statusText}`, error.details?.field);
  }
  return text ? response.text() : response.json();
}

export const post = (path, body, options) => call("POST", path, body, options);
export const get = (path, options) => call("GET", path, undefined, options);

let schema = null;

// The enums of the OpenAPI schema (kinds, tiers, statuses, categories, presets), so
// the forms offer what the server takes.
export async function enums() {
  if (!schema) {
    const response = await fetch("/openapi.json");
    schema = (await response.json()).components.schemas;
  }
  const list = (name) => schema[name]?.enum || [];
  const presets = (schema.ReadRequest?.properties?.preset?.enum || []).filter((p) => p !== null);
  return {
    kinds: list("ItemKind"),
    tiers: list("Tier"),
    statuses: list("ItemStatus"),
    categories: list("FactCategory"),
    presets,
  };
}
