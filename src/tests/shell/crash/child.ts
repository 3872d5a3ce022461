/**
 * A process of the multi-process approval tests (approval-crash.test.ts), run with tsx:
 *
 *   child.ts <dir> start    runs the loop until it pauses for approval; stores the state
 *   child.ts <dir> resume   resumes the stored state, approving every pending call
 *
 * The component appends a line to <dir>/executed.log each time `wipe` executes, the model a line
 * to <dir>/model.log each time it is asked, and the ledger is <dir>/ledger (file-ledger.ts). With
 * CRASH_AFTER_EXECUTE=1, recording an outcome announces "EXECUTED" and hangs, so the test can
 * SIGKILL the process after execute and before the answer is recorded. LEASE_MS sets the leases,
 * NOW_OFFSET_MS moves the clock they are read with forward.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AgentComponent,
  ApprovalError,
  type ApprovalPolicy,
  approval,
  approveCall,
  type CallLedger,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  type PendingCall,
  resumeToolLoop,
  runToolLoop,
  type ToolLoopState,
} from "../../../tools/index.js";
import { fileLedger } from "./file-ledger.js";

const [dir = ".", phase = "start"] = process.argv.slice(2);
const log = join(dir, "executed.log");
const statePath = join(dir, "state.json");
const leaseMs = Number(process.env.LEASE_MS ?? 30_000);
// The clock the leases are read with, moved on by NOW_OFFSET_MS: time passing, without waiting.
const offset = Number(process.env.NOW_OFFSET_MS ?? 0);
const now = () => Date.now() + offset;

const vault: AgentComponent<{ wiped: boolean }> = {
  getSchema: () => ({
    commands: { read: { readOnly: true }, wipe: { destructive: true } },
  }),
  execute: (command) => {
    if (command === "wipe") appendFileSync(log, "wipe\n");
    return { state: { wiped: command === "wipe" }, events: [] };
  },
};

const approve: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");

async function model(request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> {
  appendFileSync(join(dir, "model.log"), `turn ${request.turn}\n`);
  if (request.turn === 1) {
    return {
      toolCalls: [
        { id: "r1", name: "read", input: {} },
        { id: "w1", name: "wipe", input: {} },
      ],
    };
  }
  return { text: "Done.", toolCalls: [] };
}

const durable = fileLedger(join(dir, "ledger"));
const ledger: CallLedger = {
  ...durable,
  finish: async (key, outcome) => {
    if (process.env.CRASH_AFTER_EXECUTE === "1" && !key.endsWith("/resume")) {
      process.stdout.write("EXECUTED\n");
      // Held open until the test kills this process.
      setInterval(() => undefined, 1_000);
      await new Promise(() => undefined);
    }
    await durable.finish(key, outcome);
  },
};

if (phase === "start") {
  const result = await runToolLoop({
    tools: igniteTools(vault, fakeDialect, { approve: approval(approve) }),
    model,
    messages: [{ role: "user", content: "Wipe it." }],
  });
  if (result.stop !== "approval") throw new Error(`not paused: ${result.stop}`);
  writeFileSync(statePath, JSON.stringify({ state: result.state, pending: result.pending }));
  process.stdout.write(`${JSON.stringify({ stop: result.stop })}\n`);
} else {
  const stored: {
    state: ToolLoopState<FakeResponse, never, FakeMessage>;
    pending: PendingCall[];
  } = JSON.parse(readFileSync(statePath, "utf8"));
  try {
    const result = await resumeToolLoop({
      tools: igniteTools(vault, fakeDialect, { approve: approval(approve) }),
      model,
      state: stored.state,
      decisions: stored.pending.map((call) => approveCall(call)),
      ledger,
      leaseMs,
      now,
    });
    const errors = result.steps.flatMap((step) => step.errors);
    process.stdout.write(`${JSON.stringify({ stop: result.stop, errors })}\n`);
  } catch (error) {
    if (!(error instanceof ApprovalError)) throw error;
    process.stdout.write(`${JSON.stringify({ refused: error.code, retryAt: error.retryAt })}\n`);
  }
}
