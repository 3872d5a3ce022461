import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Queue } from "bullmq";
import { approveCall, denyCall, type PendingCall } from "ignite-element/tools";
import { Redis } from "ioredis";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { LEDGER_PREFIX, LEDGER_TABLE, type LedgerStore } from "./ledger.js";
import { keys, QUEUE, type RunResult } from "./shop.js";

// The example for real: the endpoint and four workers are processes of their own on the Redis the
// test run started; two workers are killed with SIGKILL mid-flight, one right after a `pay`
// executed and before its outcome was recorded, one at a (seeded) random moment. The same test
// runs with the ledger on each store the library ships one for; the queue is on Redis in both.

const DIR = join(process.cwd(), "examples/approval-workers");
const RUNS = 200;
// Short leases and locks, so that a dead worker's job is handed on, and its resume recovered,
// within seconds.
const LEASE_MS = 1_500;
const children: ChildProcess[] = [];

// A variant that failed leaves its processes running: they must not take the next one's jobs.
afterEach(async () => {
  const running = children
    .splice(0)
    .filter((child) => child.exitCode === null && !child.signalCode);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      return exited;
    }),
  );
});

/** mulberry32: the same "random" kills and order on every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Starts a process of the example; resolves once it printed `ready`/`listening`. */
function start(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", join(DIR, file)], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += String(chunk)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      const line = out.split("\n").find((text) => /^(ready|listening) /.test(text));
      if (line) resolve(line);
    });
    child.on("exit", (code) => reject(new Error(`${file} exited ${code}: ${errors}`)));
  });
  return { child, ready, exited, errors: () => errors };
}

async function post<T>(base: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, task: (item: T) => Promise<void>) {
  for (let at = 0; at < items.length; at += width) {
    await Promise.all(items.slice(at, at + width).map(task));
  }
}

/** How many runs' resume claims the ledger on `store` holds. */
async function claimsIn(store: LedgerStore, runIds: string[], redis: Redis, db: pg.Pool) {
  const claims = runIds.map((runId) => `${runId}/turn-1/resume`);
  if (store === "redis") return redis.exists(...claims.map((key) => `${LEDGER_PREFIX}${key}`));
  // The table exists once an endpoint ran with LEDGER=postgres: not necessarily yet.
  const table = await db.query<{ name: string | null }>("SELECT to_regclass($1)::text AS name", [
    LEDGER_TABLE,
  ]);
  if (!table.rows[0]?.name) return 0;
  const { rows } = await db.query<{ held: number }>(
    `SELECT count(*)::int AS held FROM ${LEDGER_TABLE} WHERE key = ANY($1)`,
    [claims],
  );
  return rows[0]?.held ?? 0;
}

const stores: LedgerStore[] = ["redis", "postgres"];

describe.each(stores)(
  "approvals resumed by four workers on a BullMQ queue, two of them killed, with the %s ledger",
  (store) => {
    it("runs every approved payment's effect once, never a denied call, and sends every run's continuation once unless its worker died", async () => {
      const url = inject("redisUrl");
      const redis = new Redis(url);
      const db = new pg.Pool({ connectionString: inject("databaseUrl") });
      const random = seeded(24);
      const ledgerEnv = { LEDGER: store, DATABASE_URL: inject("databaseUrl") };
      // A queue without a job left over: this variant's workers see this variant's decisions only.
      const queue = new Queue(QUEUE, {
        connection: new Redis(url, { maxRetriesPerRequest: null }),
      });
      await queue.obliterate({ force: true });
      const workerEnv = {
        ...ledgerEnv,
        REDIS_URL: url,
        LEASE_MS: String(LEASE_MS),
        LOCK_MS: "3000",
        STALLED_MS: "1500",
        CONCURRENCY: "4",
      };
      const endpoint = start("endpoint.ts", { ...ledgerEnv, REDIS_URL: url, PORT: "0" });
      const killAfter = 3 + Math.floor(random() * 10);
      const workers = [
        start("worker.ts", { ...workerEnv, KILL_AFTER_EXECUTIONS: String(killAfter) }),
        start("worker.ts", workerEnv),
        start("worker.ts", workerEnv),
        start("worker.ts", workerEnv),
      ];
      const base = (await endpoint.ready).replace("listening ", "");
      await Promise.all(workers.map((worker) => worker.ready));
      const [selfKilled, timerKilled] = workers;
      if (!selfKilled || !timerKilled) throw new Error("four workers");

      // 200 runs paused for approval, every one with the calls `call_0` (pay) and `call_1` (refund).
      const prefix = randomUUID().slice(0, 8);
      const runs = Array.from({ length: RUNS }, (_, index) => ({
        runId: `${prefix}-${index}`,
        // Every fourth payment is denied; every refund is.
        approved: index % 4 !== 3,
      }));
      const pending = new Map<string, PendingCall[]>();
      await inBatches(runs, 20, async ({ runId }) => {
        const started = await post<{ pending: PendingCall[] }>(base, "/runs", { runId });
        pending.set(runId, started.pending);
      });
      expect([...pending.values()].map((calls) => calls.map((call) => call.id))).toEqual(
        runs.map(() => ["call_0", "call_1"]),
      );

      // Every decision delivered twice, in a shuffled order.
      const deliveries = runs.flatMap(({ runId, approved }) => {
        const decisions = (pending.get(runId) ?? []).map((call) =>
          call.command === "pay" && approved
            ? approveCall(call, { expiresAt: Date.now() + 600_000 })
            : denyCall(call, "not this one"),
        );
        return [
          { runId, decisions },
          { runId, decisions },
        ];
      });
      for (let index = deliveries.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        const [one, two] = [deliveries[index], deliveries[other]];
        if (one && two) [deliveries[index], deliveries[other]] = [two, one];
      }
      const killAt = 300 + Math.floor(random() * 1_500);
      const timer = setTimeout(() => timerKilled.child.kill("SIGKILL"), killAt);
      await inBatches(deliveries, 25, async (delivery) => {
        await post(base, "/decisions", delivery);
      });

      // Until every run has a result and the queue is empty (the duplicates settled too).
      for (let waited = 0; ; waited += 250) {
        const results = await redis.exists(...runs.map(({ runId }) => keys.result(runId)));
        const counts = await queue.getJobCounts("active", "waiting", "delayed", "prioritized");
        if (results === RUNS && Object.values(counts).every((count) => count === 0)) break;
        if (waited > 50_000) {
          throw new Error(
            `${results} of ${RUNS} runs resumed, queue ${JSON.stringify(counts)}; ` +
              workers.map((worker) => worker.errors()).join("\n"),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      clearTimeout(timer);
      const failed = await queue.getJobCounts("failed");
      await queue.close();

      // Both killed workers really died of SIGKILL; the first right after its n-th payment.
      expect(await selfKilled.exited).toBe("SIGKILL");
      expect(await timerKilled.exited).toBe("SIGKILL");
      const dead = new Set([selfKilled.child.pid, timerKilled.child.pid].map(String));

      const read = async (key: string) => Number((await redis.get(key)) ?? 0);
      let recoveredAfterExecute = 0;
      for (const { runId, approved } of runs) {
        const result: RunResult = JSON.parse((await redis.get(keys.result(runId))) ?? "{}");
        const attempts = await redis.lrange(keys.attempts(runId), 0, -1);
        const deaths = attempts.filter((pid) => dead.has(pid)).length;
        const context = `${runId}: ${JSON.stringify({ result, attempts, deaths })}`;

        // Every run reaches done; no decision is lost; no call is reported `interrupted` at all:
        // `pay` is idempotent, so a payment a dead worker started is run again, never guessed at.
        expect(result.stop, context).toBe("done");
        // Read back from the ledger only when the worker that resumed it died before storing it.
        if (result.fromLedger) expect(deaths, context).toBeGreaterThanOrEqual(1);
        else
          expect(result.errors, context).toEqual([
            ...(approved ? [] : [{ kind: "Denied", name: "pay", reason: "not this one" }]),
            { kind: "Denied", name: "refund", reason: "not this one" },
          ]);
        // A denied call never executes.
        expect(await read(keys.refunds(runId)), context).toBe(0);
        const executions = await read(keys.executions(runId));
        if (!approved) {
          expect(executions, context).toBe(0);
          expect(await redis.exists(keys.paid(runId)), context).toBe(0);
        } else {
          // The payment took effect exactly once, whoever ran it.
          expect(await redis.get(keys.paid(runId)), context).toBe("40");
          expect(await read(keys.payments(runId)), context).toBe(1);
          // It executed once — more only after a worker died holding this run, once per death.
          expect(executions, context).toBeGreaterThanOrEqual(1);
          expect(executions, context).toBeLessThanOrEqual(1 + deaths);
          if (executions > 1) recoveredAfterExecute += 1;
        }
        // The model was asked for the first turn once, and for the continuation once — again only
        // after a worker died while sending it (its resume never recorded that it had).
        expect(await read(keys.requests(runId, 1)), context).toBe(1);
        const continuations = await read(keys.requests(runId, 2));
        expect(continuations, context).toBeGreaterThanOrEqual(1);
        expect(continuations, context).toBeLessThanOrEqual(1 + deaths);
        if (deaths === 0)
          expect([executions, continuations], context).toEqual([approved ? 1 : 0, 1]);
        expect(await redis.exists(keys.requests(runId, 3)), context).toBe(0);
      }
      // The worker killed right after `pay` executed left a run whose payment ran again on
      // recovery: that path was taken, and its effect still happened once.
      expect(recoveredAfterExecute).toBeGreaterThanOrEqual(1);
      expect(failed.failed).toBe(0);
      // Every resume was claimed in the ledger on this variant's store, none on the other.
      const runIds = runs.map(({ runId }) => runId);
      const other: LedgerStore = store === "redis" ? "postgres" : "redis";
      expect(await claimsIn(store, runIds, redis, db)).toBe(RUNS);
      expect(await claimsIn(other, runIds, redis, db)).toBe(0);

      for (const worker of workers.slice(2)) worker.child.kill("SIGTERM");
      endpoint.child.kill("SIGTERM");
      await Promise.all([endpoint.exited, ...workers.slice(2).map((worker) => worker.exited)]);
      await Promise.all([redis.quit(), db.end()]);
    }, 90_000);
  },
);
