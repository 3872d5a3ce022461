/**
 * A worker of the approval-workers example (see README.md): takes a person's decisions off the
 * queue and resumes the run from its stored state, with the durable ledger (ledger.ts: Redis, or
 * PostgreSQL with LEDGER=postgres). Start as many as you like, on as many machines as reach the
 * Redis (and the database):
 *
 *   REDIS_URL=redis://127.0.0.1:6379 node --import tsx examples/approval-workers/worker.ts
 *   LEDGER=postgres DATABASE_URL=postgres://… REDIS_URL=… node --import tsx examples/approval-workers/worker.ts
 *
 * What a delivery can meet, and what the worker does:
 * - the run resumes: its result is stored, the job completes;
 * - `already-resumed`: another delivery of this run was resumed already — a duplicate, done;
 * - `resuming-elsewhere`: another worker is resuming this run now, or died doing it less than
 *   `leaseMs` ago — the job is put back on the queue until `retryAt`, when it is refused as a
 *   duplicate or recovers the dead worker's resume;
 * - any other refusal (an expired or mismatched decision): stored, the job completes — retrying
 *   cannot make it valid; the application asks the person again;
 * - anything else (Redis or the database down): thrown, so BullMQ retries it with backoff.
 *
 * Environment: REDIS_URL; LEDGER (redis, the default, or postgres) and DATABASE_URL; CONCURRENCY
 * (4); LEASE_MS (the ledger's lease, 30 000); LOCK_MS and STALLED_MS (BullMQ's lockDuration and
 * stalledInterval: how soon a dead worker's job is handed to another; 30 000 and 30 000).
 * KILL_AFTER_EXECUTIONS=n makes the process SIGKILL itself right after its n-th `pay` executed,
 * before the outcome is recorded: the test's crash.
 */
import { DelayedError, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import {
  ApprovalError,
  type FakeMessage,
  type FakeResponse,
  type FakeResultBlock,
  resumeToolLoop,
  type ToolLoopState,
} from "../../src/tools/index.js";
import { openLedger } from "./ledger.js";
import { type DecisionJob, keys, QUEUE, type RunResult, scriptedModel, tools } from "./shop.js";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const leaseMs = number("LEASE_MS", 30_000);
const killAfter = number("KILL_AFTER_EXECUTIONS", 0);

// Two connections: BullMQ's own, which blocks waiting for jobs and must retry for ever
// (`maxRetriesPerRequest: null`), and the application's, for the state, the ledger and the
// component, whose commands fail fast so a call on a store that is down is answered, not hung.
const connection = new Redis(url, { maxRetriesPerRequest: null });
const store = new Redis(url, { commandTimeout: 5_000, maxRetriesPerRequest: 1 });
// On PostgreSQL, the table exists: the endpoint created it before it enqueued any job.
const { ledger, close } = await openLedger(store);

let executions = 0;
function executed() {
  executions += 1;
  if (executions === killAfter) process.kill(process.pid, "SIGKILL");
}

const worker = new Worker<DecisionJob, string>(
  QUEUE,
  async (job, token) => {
    const { runId, decisions } = job.data;
    const stored = await store.get(keys.state(runId));
    if (stored === null) throw new UnrecoverableError(`no paused run ${runId}`);
    const state: ToolLoopState<FakeResponse, FakeResultBlock, FakeMessage> = JSON.parse(stored);
    // Which processes tried this run: the test tells a run a killed worker touched from the rest.
    await store.rpush(keys.attempts(runId), String(process.pid));
    try {
      const result = await resumeToolLoop({
        tools: tools(store, runId, executed),
        model: scriptedModel(store, runId),
        state,
        decisions,
        ledger,
        leaseMs,
      });
      const stored: RunResult = {
        stop: result.stop,
        // The errors of every turn this resume answered (the paused turn's first).
        errors: result.steps.flatMap((step) =>
          step.errors.map((error) => ({
            kind: error.kind,
            ...("name" in error ? { name: error.name } : {}),
            ...("reason" in error && typeof error.reason === "string"
              ? { reason: error.reason }
              : {}),
          })),
        ),
        worker: process.pid,
      };
      await store.set(keys.result(runId), JSON.stringify(stored));
      return "resumed";
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      if (error.code === "already-resumed") {
        // A duplicate — unless the worker that resumed it died after the ledger recorded the
        // resume and before its result was stored: then the ledger's record is all there is.
        if (!(await store.exists(keys.result(runId))))
          await storeRecorded(runId, state.paused.scope);
        return "duplicate";
      }
      if (error.code === "resuming-elsewhere") {
        // Back on the queue until the other resume's lease runs out; not a failed attempt.
        await job.moveToDelayed(error.retryAt ?? Date.now() + leaseMs, token);
        throw new DelayedError();
      }
      await store.set(keys.refused(runId), error.code);
      return `refused: ${error.code}`;
    }
  },
  {
    connection,
    concurrency: number("CONCURRENCY", 4),
    lockDuration: number("LOCK_MS", 30_000),
    stalledInterval: number("STALLED_MS", 30_000),
    // A job whose worker died is handed on rather than failed, up to this many times.
    maxStalledCount: 5,
  },
);

/**
 * Stores what the ledger recorded of a resume whose worker died before storing its result: how it
 * stopped (`{ resumed: stop }`, the claim's outcome); its answers died with that worker.
 */
async function storeRecorded(runId: string, scope: string) {
  const entry = await ledger.get(`${scope}/resume`);
  const outcome = entry?.status === "answered" ? entry.outcome : undefined;
  const snapshot: unknown = outcome?.ok ? outcome.value.snapshot : undefined;
  const stop =
    typeof snapshot === "object" && snapshot !== null && "resumed" in snapshot
      ? String(snapshot.resumed)
      : "unknown";
  const recorded: RunResult = { stop, errors: [], worker: process.pid, fromLedger: true };
  await store.set(keys.result(runId), JSON.stringify(recorded), "NX");
}

worker.on("error", (error) => console.error(`worker ${process.pid}: ${error.message}`));
await worker.waitUntilReady();
console.log(`ready ${process.pid}`);

process.on("SIGTERM", () => {
  void worker
    .close()
    .then(() => Promise.all([connection.quit(), store.quit(), close()]))
    .then(() => process.exit(0));
});
