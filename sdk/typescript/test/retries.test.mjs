// Retries and error answers the real server gives only under load or failure (a 503,
// a 429, a proxy's page, a connection closed without an answer), from a scripted HTTP
// server on loopback: each request takes the next scripted answer, and the test sees how
// many requests were made and what they carried.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";

import {
  ClientError,
  CognimemError,
  DomainTimeout,
  InvalidInput,
  MemoryClient,
  NotFound,
  ProviderUnavailable,
  RateLimited,
  StoreError,
  StoreUnavailable,
  TransportError,
  retryAfterSeconds,
} from "../dist/index.js";

let answers = [];
let requests = [];
let base;
const stub = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    const answer = answers.shift() ?? { status: 500, body: "no answer scripted" };
    if (answer.hang) return; // never answers: the client's timeout ends it
    if (answer.drop) return request.socket.destroy(); // the answer is lost
    response.writeHead(answer.status, answer.headers ?? { "Content-Type": "application/json" });
    response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  });
});

before(async () => {
  await new Promise((listening) => stub.listen(0, "127.0.0.1", listening));
  base = `http://127.0.0.1:${stub.address().port}`;
});
after(() => {
  stub.closeAllConnections();
  stub.close();
});

function script(...scripted) {
  answers = scripted;
  requests = [];
}

const error = (type, message, details = {}) => ({ error: { type, message, details } });
const unavailable = (retryAfter) => ({
  status: 503,
  headers: { "Content-Type": "application/json", "Retry-After": retryAfter },
  body: error("StoreUnavailable", "the store is unavailable; retry later"),
});

test("a 503 is retried as Retry-After says, then the answer is returned", async () => {
  script(unavailable("0"), unavailable("0"), { status: 200, body: { status: "ok" } });
  const mem = new MemoryClient(base, { api_key: "k", retries: 2 });
  assert.deepEqual(await mem.health(), { status: "ok" });
  assert.equal(requests.length, 3);
  assert.equal(requests[2].headers.authorization, "Bearer k");
});

test("retries used up: the error, with its retry_after", async () => {
  script(unavailable("0"), unavailable("0"));
  const mem = new MemoryClient(base, { retries: 1 });
  await assert.rejects(mem.health(), (exc) => {
    assert.ok(exc instanceof StoreUnavailable && exc instanceof StoreError);
    assert.equal(exc.retry_after, 0);
    assert.equal(exc.status, 503);
    return true;
  });
  assert.equal(requests.length, 2);
});

test("a Retry-After longer than max_backoff is not waited for", async () => {
  script({
    status: 429,
    headers: { "Content-Type": "application/json", "Retry-After": "120" },
    body: error("RateLimited", "too many requests"),
  });
  const mem = new MemoryClient(base, { retries: 5, max_backoff: 30 });
  await assert.rejects(mem.stats({ user_id: "u" }), (exc) => {
    assert.ok(exc instanceof RateLimited);
    assert.equal(exc.retry_after, 120);
    return true;
  });
  assert.equal(requests.length, 1);
});

test("without Retry-After the wait is a jittered backoff", async () => {
  script(unavailable(""), { status: 200, body: { status: "ok" } });
  const mem = new MemoryClient(base, { retries: 1, backoff: 0.01 });
  assert.deepEqual(await mem.health(), { status: "ok" });
  assert.equal(requests.length, 2);
});

test("other statuses are not retried", async () => {
  script({ status: 422, body: error("InvalidInput", "limit: too big", { field: "limit" }) });
  const mem = new MemoryClient(base, { retries: 3 });
  await assert.rejects(
    mem.read("q", { user_id: "u", limit: 10_000 }),
    (exc) => exc instanceof InvalidInput && exc.field === "limit" && exc.message === "limit: too big",
  );
  assert.equal(requests.length, 1);
  const sent = JSON.parse(requests[0].body);
  assert.deepEqual(sent, { query: "q", scope: { user_id: "u" }, explain: false, limit: 10_000 });
});

test("error bodies rebuild their classes and fields", async () => {
  const mem = new MemoryClient(base, { retries: 0 });
  script({ status: 404, body: error("NotFound", "item 'x' not found", { kind: "item", id: "x" }) });
  await assert.rejects(mem.get("x"), (exc) => exc instanceof NotFound && exc.kind === "item");
  script({
    status: 502,
    body: error("DomainTimeout", "lookup timed out", { provider: "domain", model: "pg", sql: 1 }),
  });
  await assert.rejects(mem.health(), (exc) => {
    assert.ok(exc instanceof DomainTimeout && exc instanceof ProviderUnavailable);
    assert.deepEqual([exc.provider, exc.model, exc.details.sql], ["domain", "pg", 1]);
    return true;
  });
});

test("an answer that is not cognimem's is a ClientError with status and body", async () => {
  const mem = new MemoryClient(base, { retries: 0 });
  script({ status: 502, headers: { "Content-Type": "text/html" }, body: "<h1>Bad gateway</h1>" });
  await assert.rejects(mem.health(), (exc) => {
    assert.ok(exc instanceof ClientError && exc instanceof CognimemError);
    assert.equal(exc.status, 502);
    assert.equal(exc.body, "<h1>Bad gateway</h1>");
    return true;
  });
  script({ status: 418, body: error("Teapot", "short and stout") });
  await assert.rejects(mem.health(), (exc) => exc instanceof ClientError && exc.message === "Teapot: short and stout");
  script({ status: 200, headers: { "Content-Type": "text/plain" }, body: "not json" });
  await assert.rejects(mem.health(), (exc) => exc instanceof ClientError && exc.status === 200);
  script({ status: 200, headers: { "Content-Type": "application/x-ndjson" }, body: '{"type":"header","data":{}}\nnot json\n' });
  const read = [];
  await assert.rejects(
    (async () => {
      for await (const record of mem.export({ user_id: "u" })) read.push(record.type);
    })(),
    (exc) => exc instanceof ClientError && exc.body === "not json",
  );
  assert.deepEqual(read, ["header"]);
});

test("no answer in time is a TransportError", async () => {
  script({ hang: true });
  const mem = new MemoryClient(base, { timeout: 0.2, retries: 0 });
  await assert.rejects(mem.health(), (exc) => exc instanceof TransportError && /timed out/.test(exc.message));
});

test("Retry-After in seconds or as an HTTP date", () => {
  assert.equal(retryAfterSeconds("3"), 3);
  assert.equal(retryAfterSeconds(null), undefined);
  assert.equal(retryAfterSeconds("soon"), undefined);
  assert.equal(retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT"), 0); // past: now
  const inAMinute = new Date(Date.now() + 60_000).toUTCString();
  const seconds = retryAfterSeconds(inAMinute);
  assert.ok(seconds > 50 && seconds <= 60, String(seconds));
});

const ok = (body) => ({ status: 200, body });
const stored = { mode: "sync", messages: [{ outcome: "stored" }] };
const drop = { drop: true };

test("a lost answer to a GET is asked again on a new connection", async () => {
  script(drop, ok({ status: "ok" }));
  const mem = new MemoryClient(base, { retries: 2 });
  assert.deepEqual(await mem.health(), { status: "ok" });
  assert.equal(requests.length, 2);
});

test("a read sent as POST is asked again after a timeout", async () => {
  script({ hang: true }, ok({ items: [] }));
  const mem = new MemoryClient(base, { retries: 1, timeout: 0.2 });
  assert.deepEqual(await mem.read("q", { user_id: "u" }), { items: [] });
  assert.equal(requests.length, 2);
  assert.equal(requests[0].body, requests[1].body);
});

test("a write without key or time is stamped, and its repeat is the same message", async () => {
  script(drop, ok(stored));
  const mem = new MemoryClient(base, { retries: 2 });
  const before = Date.now();
  await mem.write("I moved to Lisbon", { user_id: "u" });
  assert.equal(requests.length, 2);
  assert.equal(requests[0].body, requests[1].body);
  const sent = JSON.parse(requests[0].body);
  const when = Date.parse(sent.occurred_at);
  assert.ok(when >= before && when <= Date.now(), sent.occurred_at);
  assert.equal(sent.idempotency_key, undefined);
});

test("a write keeps the caller's key and time and makes up neither", async () => {
  script(drop, ok(stored));
  const mem = new MemoryClient(base, { retries: 1 });
  await mem.write("keyed", { user_id: "u", idempotency_key: "k-1" });
  const keyed = JSON.parse(requests[1].body);
  assert.equal(keyed.idempotency_key, "k-1");
  assert.equal(keyed.occurred_at, undefined);
  script(drop, ok(stored));
  await mem.writeBatch(["a", { content: "b", occurred_at: "2024-06-15T12:00:00Z" }], { user_id: "u" });
  assert.equal(requests.length, 2);
  const [a, b] = JSON.parse(requests[1].body).messages;
  assert.equal(b.occurred_at, "2024-06-15T12:00:00Z");
  assert.ok(!Number.isNaN(Date.parse(a.occurred_at)));
});

test("a lifecycle run gets a key of its own and is sent again with it", async () => {
  script(drop, ok({ job_id: "j" }));
  const mem = new MemoryClient(base, { retries: 1 });
  await mem.runLifecycle("consolidate", { user_id: "u" });
  assert.equal(requests.length, 2);
  const key = JSON.parse(requests[0].body).key;
  assert.match(key, /^sdk-[0-9a-f]{32}$/);
  assert.equal(JSON.parse(requests[1].body).key, key);
  script(ok({ result: {} }));
  await mem.runLifecycle("consolidate", { user_id: "u", dry_run: true });
  assert.equal(JSON.parse(requests[0].body).key, undefined);
});

test("a request that could act twice is not sent again", async () => {
  script(drop, ok({}));
  const mem = new MemoryClient(base, { retries: 3 });
  await assert.rejects(mem.forget({ user_id: "u", query: "Lisbon" }), (exc) => {
    assert.ok(exc instanceof TransportError);
    assert.equal(exc.sent, true);
    assert.equal(exc.attempts, 1);
    assert.match(exc.message, /not sent again, as a repeat could act twice/);
    return true;
  });
  assert.equal(requests.length, 1);
});

test("every answer lost: the error says how often it was sent", async () => {
  script(drop, drop, drop, ok({ status: "ok" }));
  const mem = new MemoryClient(base, { retries: 2 });
  await assert.rejects(mem.health(), (exc) => {
    assert.ok(exc instanceof TransportError);
    assert.deepEqual([exc.sent, exc.attempts], [true, 3]);
    assert.match(exc.message, /no answer in 3 attempts, the last because the connection closed/);
    return true;
  });
  assert.equal(requests.length, 3);
});

test("retries 0 sends nothing again, and a refused connection was never sent", async () => {
  script(drop, ok({ status: "ok" }));
  const once = new MemoryClient(base, { retries: 0 });
  await assert.rejects(once.health(), (exc) => {
    assert.deepEqual([exc.sent, exc.attempts], [true, 1]);
    assert.match(exc.message, /not sent again \(retries=0\)/);
    return true;
  });
  assert.equal(requests.length, 1);
  const closed = createServer();
  await new Promise((listening) => closed.listen(0, "127.0.0.1", listening));
  const port = closed.address().port;
  await new Promise((done) => closed.close(done));
  const nobody = new MemoryClient(`http://127.0.0.1:${port}`, { retries: 2 });
  await assert.rejects(nobody.health(), (exc) => {
    assert.ok(exc instanceof TransportError);
    assert.deepEqual([exc.sent, exc.attempts], [false, 1]);
    assert.match(exc.message, /cannot reach cognimem/);
    return true;
  });
});
