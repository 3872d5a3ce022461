/**
 * The web endpoint of the approval-workers example (see README.md): where conversations start and
 * where a person's decisions arrive. It never resumes a run itself: a decision is enqueued, and a
 * worker (worker.ts) resumes the run.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 PORT=3000 node --import tsx examples/approval-workers/endpoint.ts
 *
 * With LEDGER=postgres and DATABASE_URL the ledger is a PostgreSQL table (ledger.ts), which the
 * endpoint creates when it is missing, before it listens.
 *
 *   POST /runs       {"runId": "r1"}                      starts a run until it pauses: {runId, pending}
 *   POST /decisions  {"runId": "r1", "decisions": [...]}  enqueues the decisions: 202 {jobId}
 *
 * A decision may be delivered twice (a person clicking twice, a webhook retried): both are
 * enqueued, and the ledger makes the second a duplicate the worker acknowledges.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { openLedger } from "./ledger.js";
import { type DecisionJob, QUEUE, startRun } from "./shop.js";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = new Redis(url, { commandTimeout: 5_000, maxRetriesPerRequest: 1 });
const { ledger, close } = await openLedger(redis, { createTable: true });
const queue = new Queue<DecisionJob>(QUEUE, {
  connection: new Redis(url),
  defaultJobOptions: {
    // A worker that fails on a store that is down is retried, later and later.
    attempts: 5,
    backoff: { type: "exponential", delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: false,
  },
});

async function body(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text);
}

function reply(response: ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

const server = createServer(async (request, response) => {
  try {
    const input = (await body(request)) as Partial<DecisionJob>;
    if (typeof input.runId !== "string") return reply(response, 400, { error: "runId is missing" });
    if (request.method === "POST" && request.url === "/runs") {
      return reply(response, 200, {
        runId: input.runId,
        pending: await startRun(redis, ledger, input.runId),
      });
    }
    if (request.method === "POST" && request.url === "/decisions") {
      if (!Array.isArray(input.decisions)) return reply(response, 400, { error: "no decisions" });
      const job = await queue.add("decide", { runId: input.runId, decisions: input.decisions });
      return reply(response, 202, { jobId: job.id });
    }
    reply(response, 404, { error: "POST /runs or POST /decisions" });
  } catch (error) {
    reply(response, 500, { error: error instanceof Error ? error.message : String(error) });
  }
});

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`listening http://127.0.0.1:${port}`);
});

process.on("SIGTERM", () => {
  server.close();
  void Promise.all([queue.close(), redis.quit(), close()]).then(() => process.exit(0));
});
