/**
 * A process of the kill-and-resume test (approval-crash.test.ts), run with tsx:
 *
 *   child.ts <dir> start    runs the loop until it pauses for approval; stores the state
 *   child.ts <dir> resume   resumes the stored state, approving every pending call
 *
 * The component appends a line to <dir>/executed.log each time `wipe` executes, and the ledger
 * is a JSON file, <dir>/ledger.json. With CRASH_AFTER_EXECUTE=1, recording an outcome announces
 * "EXECUTED" and hangs, so the test can SIGKILL the process after execute and before the answer.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import {
  type AgentComponent,
  type ApprovalPolicy,
  approveCall,
  type CallLedger,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type LedgerEntry,
  type ModelRequest,
  type PendingCall,
  resumeToolLoop,
  runToolLoop,
  type ToolLoopState,
} from "../../../tools/index.js";

const [dir = ".", phase = "start"] = process.argv.slice(2);
const log = join(dir, "executed.log");
const statePath = join(dir, "state.json");
const ledgerPath = join(dir, "ledger.json");

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

/** Writes `text` to `path` and flushes it to disk before returning. */
function durable(path: string, text: string): void {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const entries = (): Record<string, LedgerEntry> =>
  existsSync(ledgerPath) ? JSON.parse(readFileSync(ledgerPath, "utf8")) : {};

/** A ledger in one JSON file: intent is on disk before execute runs. */
const fileLedger: CallLedger = {
  get: (key) => entries()[key],
  begin: (key, lease) => {
    const held = entries();
    if (key in held) return false;
    durable(ledgerPath, JSON.stringify({ ...held, [key]: { status: "started", ...lease } }));
    return true;
  },
  renew: () => true,
  finish: async (key, outcome) => {
    if (process.env.CRASH_AFTER_EXECUTE === "1") {
      process.stdout.write("EXECUTED\n");
      // Held open until the test kills this process.
      setInterval(() => undefined, 1_000);
      await new Promise(() => undefined);
    }
    durable(ledgerPath, JSON.stringify({ ...entries(), [key]: { status: "answered", outcome } }));
  },
};

if (phase === "start") {
  const result = await runToolLoop({
    tools: igniteTools(vault, fakeDialect, { approve }),
    model,
    messages: [{ role: "user", content: "Wipe it." }],
  });
  durable(statePath, JSON.stringify({ state: result.state, pending: result.pending }));
  process.stdout.write(`${JSON.stringify({ stop: result.stop })}\n`);
} else {
  const stored: {
    state: ToolLoopState<FakeResponse, never, FakeMessage>;
    pending: PendingCall[];
  } = JSON.parse(readFileSync(statePath, "utf8"));
  const result = await resumeToolLoop({
    tools: igniteTools(vault, fakeDialect, { approve }),
    model,
    state: stored.state,
    decisions: stored.pending.map((call) => approveCall(call)),
    ledger: fileLedger,
  });
  const errors = result.steps.flatMap((step) => step.errors);
  process.stdout.write(`${JSON.stringify({ stop: result.stop, errors })}\n`);
}
