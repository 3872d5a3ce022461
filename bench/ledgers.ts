/**
 * Section L of `npm run bench`: what exactly once across processes costs. Two parts, on a Redis
 * and a PostgreSQL of their own (started as `npm test` starts them, src/tests/setup/services.ts):
 *
 * - the durable ledgers' own cost per call — one `begin` and one `finish`, what the shell adds
 *   around every recorded `execute` — against the in-memory ledger's;
 * - resumes per second through the approval-workers example's BullMQ queue
 *   (examples/approval-workers/) with 1, 2 and 4 worker processes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { LEDGER_PREFIX } from "../examples/approval-workers/ledger.js";
import { type DecisionJob, keys, QUEUE, startRun } from "../examples/approval-workers/shop.js";
import { startServices } from "../src/tests/setup/services.js";
import {
  approveCall,
  type CallLedger,
  denyCall,
  memoryLedger,
  type RecordedOutcome,
} from "../src/tools/index.js";
import { createLedgerTable, postgresLedger } from "../src/tools/ledgers/postgres.js";
import { redisLedger } from "../src/tools/ledgers/redis.js";
import { pair, type Spread, spread } from "./harness.js";
import type { Row, RowOptions } from "./rows.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WORKER = join(ROOT, "examples", "approval-workers", "worker.ts");
/** The worker counts of the queue rows. */
const POOLS = [1, 2, 4] as const;
/** Jobs a worker process runs at once (the example's default). */
const CONCURRENCY = 4;

export async function ledgerRows(options: RowOptions, quick: boolean): Promise<Row[]> {
  let services: Awaited<ReturnType<typeof startServices>>;
  try {
    services = await startServices();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [
      {
        id: "L",
        what: "ledgers and the queue: not run, no Redis or PostgreSQL here",
        value: "not run",
        range: "",
        target: "",
        verdict: "info",
        details: reason.split("\n").map((line) => `L  ${line}`),
      },
    ];
  }
  try {
    return [
      ...(await costRows(services.redisUrl, services.databaseUrl, options)),
      ...(await queueRows(services.redisUrl, quick)),
    ];
  } finally {
    await services.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The ledgers' cost per call
// ---------------------------------------------------------------------------------------------

const OUTCOME: RecordedOutcome = {
  ok: true,
  value: { snapshot: { paid: 40, invoice: "INV-1042" }, events: [] },
};

/**
 * One call's record: `begin` on a fresh key, then `finish` with its outcome. `ledgerAt(count)` is
 * the ledger the count-th call is recorded in.
 */
function recordOne(ledgerAt: (count: number) => CallLedger, name: string) {
  let count = 0;
  return async () => {
    const ledger = ledgerAt(count);
    const key = `bench-${name}-${count++}`;
    const began = await ledger.begin(key, { holder: "bench", until: Date.now() + 30_000 });
    await ledger.finish(key, OUTCOME);
    return began;
  };
}

async function costRows(redisUrl: string, databaseUrl: string, options: RowOptions) {
  // As an application configures them (docs/ledgers.md): one connection, commands that fail
  // rather than hang; a pool, as postgresLedger is documented with.
  const redis = new Redis(redisUrl, { commandTimeout: 2_000, maxRetriesPerRequest: 1 });
  const pool = new pg.Pool({ connectionString: databaseUrl });
  try {
    await createLedgerTable(pool);
    // `memoryLedger()`, a new one every 10 000 calls: the baseline is a call recorded in a
    // ledger of a few thousand entries, not a Map of a million the bench alone would grow.
    let memory = memoryLedger();
    const memoryAt = (count: number) => {
      if (count % 10_000 === 0) memory = memoryLedger();
      return memory;
    };
    const stores = [
      { id: "L redis", name: "redisLedger", ledger: redisLedger(redis, { prefix: "bench:" }) },
      { id: "L pg", name: "postgresLedger", ledger: postgresLedger(pool) },
    ];
    const rows: Row[] = [];
    for (const { id, name, ledger } of stores) {
      const subject = recordOne(() => ledger, name);
      const baseline = recordOne(memoryAt, name);
      // Checked first: a fresh key is taken, recorded answered, and not taken twice.
      const key = `bench-${name}-check`;
      const taken = await ledger.begin(key, { holder: "bench", until: Date.now() + 30_000 });
      await ledger.finish(key, OUTCOME);
      const again = await ledger.begin(key, { holder: "other", until: Date.now() + 30_000 });
      if (!taken || again || (await ledger.get(key))?.status !== "answered") {
        throw new Error(`bench sanity check failed: ${name} records a call once`);
      }
      const result = await pair({
        ...options,
        subject,
        baseline,
        async: true,
        baselineAsync: true,
        // A store's round trip is ~100 µs: samples of 5 ms hold enough calls to be read.
        sampleMs: 5,
      });
      rows.push({
        id,
        what: `ledger begin+finish, one call: ${name} / memoryLedger (127.0.0.1)`,
        value: `${us(result.subjectNs.median)} = ${Math.round(result.ratio.median)}×`,
        range: `${us(result.subjectNs.min)}–${us(result.subjectNs.max)}`,
        target: "(reported)",
        verdict: "info",
        details: [
          `${id.padEnd(8)} ${name}: ${us(result.subjectNs.median)} per begin+finish vs memoryLedger ` +
            `${(result.baselineNs.median / 1e3).toFixed(2)} µs (medians of ${result.ratio.runs} rounds; ` +
            `ratio ${Math.round(result.ratio.min)}–${Math.round(result.ratio.max)}×): two round trips ` +
            "to a server on this machine, which does not fsync (a production store that does adds its disk's latency to begin)",
        ],
      });
    }
    return rows;
  } finally {
    await Promise.all([redis.quit(), pool.end()]);
  }
}

const us = (ns: number) => `${(ns / 1e3).toFixed(ns >= 1e5 ? 0 : 1)} µs`;

// ---------------------------------------------------------------------------------------------
// Resumes per second through the queue
// ---------------------------------------------------------------------------------------------

interface Started {
  child: ChildProcess;
  exited: Promise<void>;
}

/** A worker process of the example, once it printed `ready`. */
async function startWorker(redisUrl: string): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: redisUrl, LEDGER: "redis", CONCURRENCY: String(CONCURRENCY) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += String(chunk)));
  await new Promise<void>((ready, fail) => {
    child.stdout?.on("data", (chunk) => {
      if (/^ready /m.test(String(chunk))) ready();
    });
    child.once("exit", (code) => fail(new Error(`worker exited ${code}: ${errors}`)));
  });
  return { child, exited };
}

async function stopWorker({ child, exited }: Started) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const killed = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killed);
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>) {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += width) {
    results.push(...(await Promise.all(items.slice(at, at + width).map(task))));
  }
  return results;
}

async function queueRows(redisUrl: string, quick: boolean): Promise<Row[]> {
  const runs = quick ? 60 : 200;
  const rounds = quick ? 1 : 3;
  const redis = new Redis(redisUrl);
  const ledger = redisLedger(redis, { prefix: LEDGER_PREFIX });
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue<DecisionJob>(QUEUE, {
    connection,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: false },
  });
  const workers: Started[] = [];
  let batch = 0;
  // Redis commands the timed batches cost in all (BullMQ's own included), and their resumes.
  let commands = 0;
  let resumed = 0;

  /**
   * Pauses `count` runs, then times their decisions from enqueueing until every run's result is
   * stored: resumes per second through the queue, workers and ledger.
   */
  const resumeBatch = async (count: number, timed = true) => {
    const prefix = `b${batch++}`;
    const runIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
    const jobs = await inBatches(runIds, 20, async (runId) => {
      const pending = await startRun(redis, ledger, runId);
      const decisions = pending.map((call) =>
        call.command === "pay"
          ? approveCall(call, { expiresAt: Date.now() + 600_000 })
          : denyCall(call, "not this one"),
      );
      return { name: "decide", data: { runId, decisions } };
    });
    const resultKeys = runIds.map(keys.result);
    const before = await commandsServed(redis);
    let polls = 1;
    const start = performance.now();
    await queue.addBulk(jobs);
    while ((await redis.exists(...resultKeys)) < count) {
      polls += 1;
      await new Promise((wait) => setTimeout(wait, 5));
    }
    const seconds = (performance.now() - start) / 1e3;
    if (timed) {
      commands += (await commandsServed(redis)) - before - polls;
      resumed += count;
    }
    // Checked: every approved payment took effect, the continuation was asked for once per run.
    const paid = await redis.exists(...runIds.map(keys.paid));
    const asked = await redis.mget(...runIds.map((runId) => keys.requests(runId, 2)));
    if (paid !== count || asked.some((value) => value !== "1")) {
      throw new Error("bench sanity check failed: every run resumed once, its payment made");
    }
    return count / seconds;
  };

  try {
    const perPool = new Map<number, Spread>();
    for (const size of POOLS) {
      const added = await Promise.all(
        Array.from({ length: size - workers.length }, () => startWorker(redisUrl)),
      );
      workers.push(...added);
      // The new workers' first jobs compile and warm their code: not counted.
      await resumeBatch(20 * size, false);
      const rates: number[] = [];
      for (let round = 0; round < rounds; round++) rates.push(await resumeBatch(runs));
      perPool.set(size, spread(rates));
    }
    const one = perPool.get(1)?.median ?? 1;
    const cores = availableParallelism();
    const load = loadavg()[0] ?? 0;
    const rate = (value: number) => `${Math.round(value)} resumes/s`;
    return POOLS.map((size, index) => {
      const measured = perPool.get(size) ?? spread([0]);
      return {
        id: `L queue ${size}`,
        what: `resumes/s through the BullMQ queue, ${size} worker process${size === 1 ? "" : "es"} × ${CONCURRENCY} jobs, Redis ledger`,
        value: rate(measured.median),
        range: `${Math.round(measured.min)}–${Math.round(measured.max)}`,
        target: size === 1 ? "(reported)" : `${(measured.median / one).toFixed(2)}× of 1 worker`,
        verdict: "info",
        details:
          index > 0
            ? []
            : [
                `L queue  ${rounds} rounds of ${runs} paused runs per pool (median, min–max), timed from ` +
                  "enqueueing the decisions until every run's result is stored; a resume claims the " +
                  "turn, records `pay` (approved) and `refund` (denied) in the ledger, runs `pay`, " +
                  "asks the scripted model for the continuation and stores the result: " +
                  `${Math.round(commands / resumed)} commands counted by Redis per resume (BullMQ's, and those its scripts run, included), all on one server`,
                `L queue  this machine has ${cores} core${cores === 1 ? "" : "s"}, shared by the workers, Redis and the bench ` +
                  `(load average ${load.toFixed(1)} at the end): ` +
                  (cores <= 2
                    ? "expect at most ~2× from 1 to 2 workers and little more from 2 to 4, which only " +
                      "share the same cores (on a machine others use too, more processes can win a larger " +
                      "share of it, which is not scaling); with a core per worker, and Redis on its own, " +
                      "throughput grows with the workers until Redis (one thread) is the limit"
                    : `expect growth up to ${cores} workers, less when Redis (one thread) becomes the limit`),
              ],
      };
    });
  } finally {
    await Promise.all(workers.map(stopWorker));
    // BullMQ leaves a connection it was given open: it is the bench's to close.
    await queue.close();
    await Promise.all([redis.quit(), connection.quit()]);
  }
}

/** How many commands the Redis server has served since it started (`INFO commandstats`). */
async function commandsServed(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  let total = 0;
  for (const match of info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) total += Number(match[1]);
  return total;
}
