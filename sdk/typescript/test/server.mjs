// A real `cognimem serve` for the tests: a fresh SQLite file in a temp directory, the
// hashing embedder (no model download), a key made by `cognimem keys create`, any free
// port (`--port 0`: the server says which). COGNIMEM_BIN names the executable (the
// Makefile passes the venv's); without it, the repository's .venv/bin/cognimem.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = resolve(fileURLToPath(import.meta.url), "../../../..");
const BIN = process.env.COGNIMEM_BIN ?? join(ROOT, ".venv", "bin", "cognimem");
const START_S = 120; // a busy machine starts it late, not never

function serverEnv(dir) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("COGNIMEM_")),
  );
  return {
    ...env,
    COGNIMEM_DATABASE_URL: `sqlite:///${join(dir, "sdk.db")}`,
    COGNIMEM_EMBEDDING__MODEL: "hashing",
    // the read limits of the Python suite on a loaded machine (tests/conftest.py)
    COGNIMEM_RECALL__STEP_TIMEOUT_S: "30",
    COGNIMEM_RECALL__BUDGET_S: "60",
  };
}

/** Run `cognimem ARGS` against the server's database; its stdout. */
export async function cli(server, ...args) {
  const { stdout } = await promisify(execFile)(BIN, args, { env: server.env, timeout: 120_000 });
  return stdout;
}

/** Start a server; `stop()` ends it and removes its data. */
export async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "cognimem-sdk-"));
  const server = { env: serverEnv(dir), dir };
  const created = await cli(server, "keys", "create", "--tenant", "default");
  const secret = created.split("\n").find((line) => line.startsWith("secret: "));
  if (secret === undefined) throw new Error(`no secret in:\n${created}`);
  server.apiKey = secret.slice("secret: ".length).trim();

  const proc = spawn(BIN, ["serve", "--host", "127.0.0.1", "--port", "0"], {
    env: server.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  proc.stdout.on("data", (data) => (output += data));
  proc.stderr.on("data", (data) => (output += data));
  const exited = new Promise((done) => proc.on("exit", done));
  server.stop = async () => {
    if (proc.exitCode === null) proc.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    server.baseUrl = await announced(proc, () => output);
    await ready(server.baseUrl, proc, () => output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function announced(proc, output) {
  const deadline = Date.now() + START_S * 1000;
  for (;;) {
    const match = /cognimem serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
    if (match) return match[1];
    if (proc.exitCode !== null) throw new Error(`cognimem serve exited early:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`cognimem serve did not start:\n${output()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function ready(base, proc, output) {
  const deadline = Date.now() + START_S * 1000;
  for (;;) {
    try {
      if ((await fetch(`${base}/v1/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`cognimem serve exited early:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`cognimem serve not ready:\n${output()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
