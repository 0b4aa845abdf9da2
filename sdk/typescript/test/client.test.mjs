// Every method of MemoryClient against a real `cognimem serve` (SQLite), as a user
// calls it: what comes back, what the server keeps, and the errors it names.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import {
  Conflict,
  InvalidInput,
  MemoryClient,
  NotFound,
  TransportError,
  Unauthenticated,
  UsageError,
} from "../dist/index.js";
import { startServer } from "./server.mjs";

const PACKAGE = dirname(dirname(fileURLToPath(import.meta.url)));
const run = promisify(execFile);
const T0 = new Date("2024-06-15T12:00:00Z");
let server;
let mem;

before(async () => {
  server = await startServer();
  mem = new MemoryClient(server.baseUrl, { api_key: server.apiKey });
});

after(async () => {
  await server?.stop();
});

describe("writes and reads", () => {
  test("health answers without a key", async () => {
    assert.deepEqual(await new MemoryClient(server.baseUrl).health(), { status: "ok" });
  });

  test("a write is read back by its user and nobody else", async () => {
    const result = await mem.write("I adopted a rescue greyhound called Pepper", {
      user_id: "alice",
      name: "Alice",
      occurred_at: T0,
      external_id: "D1:1",
      metadata: { channel: "chat" },
    });
    assert.deepEqual(
      result.messages.map((m) => m.outcome),
      ["stored"],
    );
    assert.equal(result.mode, "sync");

    const packet = await mem.read("what dog did I adopt?", { user_id: "alice", explain: true });
    assert.deepEqual(
      packet.items.map((i) => i.text),
      ["I adopted a rescue greyhound called Pepper"],
    );
    assert.deepEqual(packet.items[0].external_ids, ["D1:1"]);
    assert.ok(packet.explain.length > 0);
    const other = await mem.read("what dog did I adopt?", { user_id: "bob" });
    assert.deepEqual(other.items, []);
    assert.equal(other.nothing_relevant, true);

    const markdown = await mem.readMarkdown("what dog did I adopt?", { user_id: "alice" });
    assert.match(markdown, /rescue greyhound called Pepper/);
  });

  test("a read of one shared level reads that level alone", async () => {
    await mem.write("The kennel desk opens at nine", { agent_id: "kennel" });
    await mem.write("The shelter desk opens at eight", { scope: { level: "organisation" } });
    await mem.write("My kennel desk visit is at noon", { user_id: "carol", agent_id: "kennel" });
    const ask = "when does the desk open?";

    const agent = await mem.read(ask, { agent_id: "kennel" });
    assert.deepEqual(agent.items.map((i) => i.text), ["The kennel desk opens at nine"]);
    const org = await mem.read(ask, { scope: { level: "organisation" } });
    assert.deepEqual(org.items.map((i) => i.text), ["The shelter desk opens at eight"]);
  });

  test("a batch, listed, fetched by id, with its raw events", async () => {
    const batch = await mem.writeBatch(
      ["I live in Leeds", { content: "My cat is Biscuit", external_id: "msg-7", name: "Sam" }],
      { scope: { user_id: "sam", namespace: "home" } },
    );
    assert.equal(batch.messages.length, 2);
    const [item] = await mem.listItems({
      scope: { namespace: "home" },
      user_id: "sam",
      external_id: "msg-7",
    });
    assert.equal(item.text, "My cat is Biscuit");
    assert.equal(item.author, "Sam");
    const fetched = await mem.get(item.id, { scope: { namespace: "home" } });
    assert.equal(fetched.id, item.id);
    await assert.rejects(mem.get(item.id), NotFound); // not in the default namespace
    const events = await mem.getEvents([...item.source_event_ids, "evt_unknown"]);
    assert.deepEqual(
      events.map((e) => e.content),
      ["My cat is Biscuit"],
    );
    assert.deepEqual(await mem.getEvents([]), []);
  });

  test("update edits a memory and history records it; delete removes it", async () => {
    const { messages } = await mem.write("I drive a red bicycle to work", { user_id: "carl" });
    const id = messages[0].item_ids[0];
    assert.deepEqual(await mem.history("mem_never_written"), []);
    const updated = await mem.update(id, { text: "I ride a red bicycle to work", importance: 0.9 });
    assert.equal(updated.text, "I ride a red bicycle to work");
    assert.equal(updated.importance, 0.9);
    const history = await mem.history(id);
    const updates = history.filter((entry) => entry.action === "updated");
    assert.deepEqual(
      updates.map((entry) => [entry.target_id, entry.before.text, entry.after.text]),
      [[id, "I drive a red bicycle to work", "I ride a red bicycle to work"]],
    );
    await mem.delete(id);
    await assert.rejects(mem.get(id), (error) => {
      assert.ok(error instanceof NotFound);
      assert.equal(error.id, id);
      return true;
    });
    await assert.rejects(mem.delete(id), NotFound);
  });

  test("forget by query, dry run first", async () => {
    await mem.write("My old address was 4 Elm Street", { user_id: "dora" });
    const dry = await mem.forget({ query: "old address Elm Street", user_id: "dora", dry_run: true });
    assert.equal(dry.dry_run, true);
    assert.equal(dry.item_ids.length, 1);
    const active = { user_id: "dora", statuses: ["active"] };
    assert.equal((await mem.listItems(active)).length, 1);
    const done = await mem.forget({ ids: dry.item_ids, user_id: "dora", mode: "archive" });
    assert.deepEqual(done.item_ids, dry.item_ids);
    assert.deepEqual(await mem.listItems(active), []);
    const archived = await mem.listItems({ user_id: "dora", statuses: ["archived"] });
    assert.deepEqual(
      archived.map((i) => i.id),
      dry.item_ids,
    );
  });

  test("a turn reads before it stores, and the next turn sees it", async () => {
    const first = await mem.turn("I never eat peanuts, I'm allergic", "Noted!", {
      user_id: "erin",
      session_id: "s-erin",
    });
    assert.equal(first.stored.messages.length, 2);
    assert.deepEqual(first.packet.items, []);
    const second = await mem.turn("Suggest a snack for me", null, { user_id: "erin", limit: 5 });
    const texts = [
      ...second.packet.items.map((i) => i.text),
      ...second.packet.sections.must_follow.map((f) => f.text),
    ];
    assert.ok(texts.some((text) => /peanuts/.test(text)), JSON.stringify(texts));
  });
});

describe("knowledge", () => {
  test("facts, one fact, entities, conflicts", async () => {
    await mem.write("My name is Fay and I'm allergic to shellfish.", { user_id: "fay" });
    const facts = await mem.facts({ user_id: "fay" });
    const allergy = facts.find((f) => f.key === "user:policy:allergy:shellfish");
    assert.ok(allergy, JSON.stringify(facts.map((f) => f.key)));
    assert.equal((await mem.getFact(allergy.key, { user_id: "fay" })).id, allergy.id);
    await assert.rejects(mem.getFact("user:identity:nothing", { user_id: "fay" }), NotFound);
    const policies = await mem.facts({ user_id: "fay", categories: ["policy"] });
    assert.ok(policies.every((f) => f.category === "policy") && policies.length > 0);
    assert.ok((await mem.entities({ user_id: "fay" })).every((e) => e.entity.id && e.aliases));
    assert.deepEqual(await mem.conflicts({ user_id: "fay", open_only: false }), []);
    await assert.rejects(mem.resolveConflict("cfl_unknown", { note: "none" }), NotFound);
  });
});

describe("sessions, stats, users, export, erasure", () => {
  test("a closed session refuses writes", async () => {
    const session = await mem.createSession("s-gus", { user_id: "gus", metadata: { a: 1 } });
    assert.equal(session.status, "open");
    const listed = await mem.listSessions({ user_id: "gus" });
    assert.deepEqual(
      listed.map((s) => s.id),
      ["s-gus"],
    );
    assert.equal((await mem.closeSession("s-gus", { user_id: "gus" })).status, "closed");
    await assert.rejects(mem.write("late", { user_id: "gus", session_id: "s-gus" }), Conflict);
  });

  test("stats and users count what a user holds", async () => {
    await mem.write("I collect vinyl records", { user_id: "hal" });
    const stats = await mem.stats({ user_id: "hal" });
    assert.equal(stats.events, 1);
    const everyone = await mem.stats({ all_users: true });
    assert.ok(everyone.events > stats.events);
    const overview = await mem.users();
    assert.equal(overview.tenant_id, "default");
    assert.ok(overview.users.some((u) => u.user_id === "hal" && u.stats.events === 1));
  });

  test("export, erase, import brings a user back", async () => {
    await mem.write("I play the oboe in an orchestra", { user_id: "ivy" });
    const records = [];
    for await (const record of mem.export({ user_id: "ivy" })) records.push(record);
    assert.equal(records[0].type, "header");
    assert.ok(records.some((r) => r.type === "item"));
    const report = await mem.eraseUser("ivy");
    assert.ok(report.removed.items >= 1, JSON.stringify(report));
    assert.deepEqual(await mem.listItems({ user_id: "ivy" }), []);
    const counts = await mem.importRecords(records);
    assert.ok(counts.items >= 1, JSON.stringify(counts));
    const back = await mem.listItems({ user_id: "ivy" });
    assert.deepEqual(
      back.map((i) => i.text),
      ["I play the oboe in an orchestra"],
    );
  });
});

describe("shared levels", () => {
  test("erasing an agent's level leaves the user's memories", async () => {
    await mem.write("Always greet the customer by name.", { scope: { agent_id: "greeter" }, profile: "mandate" });
    await mem.write("I keep bees on my balcony", { user_id: "kim" });
    const report = await mem.eraseLevel({ agent_id: "greeter" });
    assert.ok(report.removed.items >= 1, JSON.stringify(report));
    assert.equal((await mem.listItems({ user_id: "kim" })).length, 1);
  });
});

describe("lifecycle, jobs, procedures, mandates", () => {
  test("a lifecycle run: dry run, then a job to poll and list", async () => {
    await mem.write("I jog every morning before work", { user_id: "jan" });
    const dry = await mem.runLifecycle("consolidate", { user_id: "jan", dry_run: true });
    assert.equal(dry.dry_run, true);
    assert.equal(dry.job, null);
    const run = await mem.runLifecycle("consolidate", { user_id: "jan", key: "nightly-jan" });
    const job = await mem.getJob(run.job.id);
    assert.equal(job.id, run.job.id);
    assert.ok(["queued", "running", "done"].includes(job.state));
    const jobs = await mem.listJobs({ kind: "lifecycle", limit: 50 });
    assert.ok(jobs.some((j) => j.id === job.id));
    await assert.rejects(mem.getJob("job_unknown"), NotFound);
    await assert.rejects(mem.runLifecycle("no-such-op", { user_id: "jan" }), NotFound);
  });

  test("procedures, detection, mandate candidates", async () => {
    const detected = await mem.detectProcedures({ user_id: "jan", dry_run: true });
    assert.equal(detected.op, "procedures");
    assert.equal(detected.dry_run, true);
    assert.deepEqual(await mem.procedures({ user_id: "jan" }), []);
    await assert.rejects(mem.procedures(), (error) => {
      assert.ok(error instanceof InvalidInput);
      assert.equal(error.field, "scope.user_id");
      return true;
    });
    assert.deepEqual(await mem.mandateCandidates({ user_id: "jan" }), []);
    const [item] = await mem.listItems({ user_id: "jan" });
    await assert.rejects(mem.acceptMandate(item.id), InvalidInput); // not a candidate
  });
});

describe("errors", () => {
  test("the server's error answers come back as their classes", async () => {
    await assert.rejects(mem.read("anything"), (error) => {
      assert.ok(error instanceof InvalidInput);
      assert.equal(error.field, "scope.user_id");
      assert.equal(error.status, 422);
      assert.equal(error.type, "InvalidInput");
      return true;
    });
    await assert.rejects(
      mem.read("last week?", { user_id: "u1", timezone: "Mars/Olympus" }),
      (error) => error instanceof InvalidInput && error.field === "timezone",
    );
    const stranger = new MemoryClient(server.baseUrl, { api_key: "cm_not_a_key" });
    await assert.rejects(stranger.read("x", { user_id: "u1" }), Unauthenticated);
  });

  test("what the client refuses before any request", async () => {
    await assert.rejects(
      mem.write("x", { scope: { tenant_id: "other" } }),
      (error) => error instanceof UsageError && /server picks the tenant/.test(error.message),
    );
    await assert.rejects(mem.facts({ key: ["a", "b"], user_id: "u1" }), UsageError);
    assert.throws(() => new MemoryClient(server.baseUrl, { retries: -1 }), UsageError);
  });

  test("no server is a TransportError", async () => {
    const port = new URL(server.baseUrl).port;
    const gone = new MemoryClient(`http://127.0.0.1:${Number(port) === 1 ? 2 : 1}`);
    await assert.rejects(gone.health(), TransportError);
  });
});

describe("a lost answer", () => {
  // the request reaches the real server, which acts on it; then the answer is lost, as
  // when the connection closes under it: the client sends it again
  function losingFirstAnswers(count) {
    let left = count;
    const sent = [];
    const fetcher = async (url, init) => {
      sent.push(init.body);
      const response = await fetch(url, init);
      if (left-- <= 0) return response;
      await response.text();
      const closed = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
      throw new TypeError("fetch failed", { cause: closed });
    };
    return { sent, client: new MemoryClient(server.baseUrl, { api_key: server.apiKey, fetch: fetcher }) };
  }

  test("a write sent again is answered as the duplicate of the stored one", async () => {
    const { sent, client } = losingFirstAnswers(1);
    const result = await client.write("My locker code is on the blue card", { user_id: "resend" });
    assert.equal(sent.length, 2);
    assert.equal(sent[0], sent[1]);
    assert.deepEqual(result.messages.map((m) => m.outcome), ["duplicate"]);
    const items = await mem.listItems({ user_id: "resend" });
    assert.deepEqual(items.map((i) => i.text), ["My locker code is on the blue card"]);
    assert.deepEqual(result.messages[0].item_ids, items.map((i) => i.id));
  });

  test("a lifecycle run sent again queues one job", async () => {
    await mem.write("I swim on Tuesdays", { user_id: "resend-job" });
    const before = await mem.listJobs({ kind: "lifecycle", limit: 500 });
    const { sent, client } = losingFirstAnswers(2);
    const run = await client.runLifecycle("consolidate", { user_id: "resend-job" });
    assert.equal(sent.length, 3);
    assert.equal(new Set(sent).size, 1);
    const jobs = await mem.listJobs({ kind: "lifecycle", limit: 500 });
    const known = new Set(before.map((j) => j.id));
    assert.deepEqual(jobs.filter((j) => !known.has(j.id)).map((j) => j.id), [run.job.id]);
  });

  test("a turn is not sent again", async () => {
    const { sent, client } = losingFirstAnswers(1);
    await assert.rejects(client.turn("what do I do on Tuesdays?", { user_id: "resend-job" }), (error) => {
      assert.ok(error instanceof TransportError);
      assert.deepEqual([error.sent, error.attempts], [true, 1]);
      return true;
    });
    assert.equal(sent.length, 1);
  });
});

describe("docs/typescript.md", () => {
  test("the example type-checks and runs", async () => {
    const doc = readFileSync(join(PACKAGE, "..", "..", "docs", "typescript.md"), "utf8");
    const match = /<!-- doc-test: typescript -->\n```ts\n([\s\S]*?)```/.exec(doc);
    assert.ok(match, "no example marked <!-- doc-test: typescript --> in docs/typescript.md");
    // inside the package, so `import ... from "cognimem"` is the package itself
    const dir = join(PACKAGE, ".doc-example");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(join(dir, "example.ts"), match[1]);
    const tsc = join(PACKAGE, "node_modules", "typescript", "bin", "tsc");
    const flags = ["--strict", "--target", "es2022", "--module", "nodenext"];
    flags.push("--lib", "es2022,dom", "--types", "node", "--rootDir", dir);
    flags.push("--outDir", join(dir, "out"));
    await run(process.execPath, [tsc, ...flags, join(dir, "example.ts")]).catch((error) => {
      assert.fail(`tsc refused the example:\n${error.stdout}${error.stderr}`);
    });
    const env = { ...process.env, COGNIMEM_URL: server.baseUrl, COGNIMEM_API_KEY: server.apiKey };
    const { stdout } = await run(process.execPath, [join(dir, "out", "example.js")], { env });
    assert.equal(stdout, "must follow: I'm allergic to shellfish\nrefused: scope.user_id\n");
    rmSync(dir, { recursive: true, force: true });
  });
});
