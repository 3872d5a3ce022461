/**
 * What the endpoint and the workers share: the shop component, its approval policy, the scripted
 * model, the Redis keys and the job a decision travels in.
 *
 * Everything the example does to the world is a key in Redis under `aw:`, so that the test (and a
 * curious reader with `redis-cli`) can see it: the payment itself (`aw:paid:<runId>`, written at
 * most once), how many times `pay` executed and how many times the model was asked per turn.
 */
import type { Redis } from "ioredis";
// Relative, not "ignite-element/tools": these files run under `node --import tsx` from any
// directory, where tsconfig `paths` do not apply and the package's self-reference would load a
// possibly stale dist/. A published application imports "ignite-element/tools" (and, in
// ledger.ts, "ignite-element/tools/ledger-redis" or "ignite-element/tools/ledger-postgres").
import {
  type AgentComponent,
  type ApprovalDecision,
  type ApprovalPolicy,
  approval,
  type CallLedger,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  type PendingCall,
  runToolLoop,
} from "../../src/tools/index.js";

/** The BullMQ queue the decisions travel on. */
export const QUEUE = "approval-decisions";

/** The Redis keys of one run. */
export const keys = {
  state: (runId: string) => `aw:state:${runId}`,
  result: (runId: string) => `aw:result:${runId}`,
  refused: (runId: string) => `aw:refused:${runId}`,
  paid: (runId: string) => `aw:paid:${runId}`,
  payments: (runId: string) => `aw:payments:${runId}`,
  executions: (runId: string) => `aw:executions:${runId}`,
  refunds: (runId: string) => `aw:refunds:${runId}`,
  requests: (runId: string, turn: number) => `aw:requests:${runId}:${turn}`,
  attempts: (runId: string) => `aw:attempts:${runId}`,
};

/** A person's decisions for one paused run, as the endpoint enqueues them. */
export interface DecisionJob {
  runId: string;
  decisions: ApprovalDecision[];
}

/** What a worker stores once a run is resumed. */
export interface RunResult {
  stop: string;
  errors: { kind: string; name?: string; reason?: string }[];
  worker: number;
  /** Read back from the ledger: the worker that resumed the run died before storing its result. */
  fromLedger?: boolean;
}

/**
 * The shop of one run. `pay` is declared `idempotent`, and its effect is: the payment is written
 * with `SET … NX`, so a second execution (after a worker died between `execute` and recording its
 * outcome) changes nothing. `refund` is never idempotent and, in the example, always denied.
 */
export function shop(redis: Redis, runId: string, onExecuted?: () => void): AgentComponent {
  return {
    getSchema: () => ({
      commands: {
        pay: {
          description: "Pay the invoice of this conversation.",
          idempotent: true,
          input: {
            type: "object",
            properties: { amount: { type: "integer", minimum: 1 } },
            required: ["amount"],
            additionalProperties: false,
          },
        },
        refund: {
          description: "Refund the last payment.",
          destructive: true,
          input: {
            type: "object",
            properties: { amount: { type: "integer", minimum: 1 } },
            required: ["amount"],
            additionalProperties: false,
          },
        },
      },
    }),
    async execute(command, input) {
      const { amount } = input as { amount: number };
      if (command === "pay") {
        await redis.incr(keys.executions(runId));
        // The payment and its count in one atomic script: written only if absent, so a second
        // execution changes nothing, and a process killed halfway cannot write one without the other.
        await redis.eval(PAY, 2, keys.paid(runId), keys.payments(runId), String(amount));
        onExecuted?.();
      } else {
        await redis.incr(keys.refunds(runId));
      }
      return { state: { command, amount }, events: [] };
    },
  };
}

const PAY = `if redis.call("SET", KEYS[1], ARGV[1], "NX") then redis.call("INCR", KEYS[2]) end`;

/** Every money-moving call waits for a person. */
export const approve: ApprovalPolicy = () => "ask";

export const tools = (redis: Redis, runId: string, onExecuted?: () => void) =>
  igniteTools(shop(redis, runId, onExecuted), fakeDialect, { approve: approval(approve) });

/**
 * The scripted model of one run: turn 1 asks to pay and to refund, with the ids Gemini and Ollama
 * give in every response (`call_0`, `call_1`), turn 2 answers. Every request is counted per run
 * and turn, so a continuation sent twice shows.
 */
export function scriptedModel(redis: Redis, runId: string) {
  return async (request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> => {
    await redis.incr(keys.requests(runId, request.turn));
    if (request.turn === 1) {
      return {
        toolCalls: [
          { id: "call_0", name: "pay", input: { amount: 40 } },
          { id: "call_1", name: "refund", input: { amount: 40 } },
        ],
      };
    }
    return { text: "Done.", toolCalls: [] };
  };
}

/**
 * Starts a conversation until it pauses for approval; stores its state; answers the pending.
 * `ledger` is the one the workers share (ledger.ts): the run's keys in it are scoped to `runId`.
 */
export async function startRun(
  redis: Redis,
  ledger: CallLedger,
  runId: string,
): Promise<PendingCall[]> {
  const result = await runToolLoop({
    tools: tools(redis, runId),
    model: scriptedModel(redis, runId),
    messages: [{ role: "user", content: "Pay my invoice." }],
    ledger,
    runId,
  });
  if (result.stop !== "approval") throw new Error(`run ${runId} did not pause: ${result.stop}`);
  await redis.set(keys.state(runId), JSON.stringify(result.state));
  return result.pending;
}
