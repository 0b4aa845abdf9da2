/**
 * cognimem's TypeScript SDK: `MemoryClient`, the API's models (generated from the
 * server's /openapi.json), the option types of its methods and the error tree.
 */

export { MemoryClient } from "./client.js";
export * from "./errors.js";
export { type ClientOptions, DEFAULT_BASE_URL, retryAfterSeconds } from "./http.js";
export type * from "./models.js";
export type * from "./options.js";
export type { MessageInput, ScopeIds } from "./wire.js";
