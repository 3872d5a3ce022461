import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// Real processes sharing one durable ledger (a directory of files, crash/file-ledger.ts): one
// pauses for approval and stores its state; others resume that stored state — killed with SIGKILL
// after `execute` and before the answer is recorded, or several at once, as a decision delivered
// twice would.

const CHILD = join(process.cwd(), "src/tests/shell/crash/child.ts");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ignite-approval-"));
  dirs.push(dir);
  return dir;
}

// Node itself, with tsx as a loader: the `tsx` command runs the script in a child process of its
// own, which a SIGKILL of the command leaves running for ever.
function start(dir: string, phase: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", CHILD, dir, phase], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs a phase to its end; resolves what it printed, parsed. */
function run(dir: string, phase: string, env: Record<string, string> = {}): Promise<Printed> {
  const child = start(dir, phase, env);
  let out = "";
  let errors = "";
  child.stdout?.on("data", (chunk) => (out += String(chunk)));
  child.stderr?.on("data", (chunk) => (errors += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out))
        : reject(new Error(`${phase} exited ${code}: ${errors}`)),
    );
  });
}

interface Printed {
  stop?: string;
  errors?: Array<{ reason?: string; message: string }>;
  refused?: string;
  retryAt?: number;
}

/** Runs a phase until it reports EXECUTED, then kills it with SIGKILL. */
function runAndKill(dir: string, phase: string, env: Record<string, string>) {
  const child = start(dir, phase, { ...env, CRASH_AFTER_EXECUTE: "1" });
  return new Promise<NodeJS.Signals | null>((resolve, reject) => {
    let errors = "";
    child.stderr?.on("data", (chunk) => (errors += String(chunk)));
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("EXECUTED")) child.kill("SIGKILL");
    });
    child.on("exit", (code, signal) =>
      signal
        ? resolve(signal)
        : reject(new Error(`exited ${code} without being killed: ${errors}`)),
    );
  });
}

const lines = (path: string) =>
  existsSync(path) ? readFileSync(path, "utf8").trim().split("\n") : [];

describe("exactly once across processes, with one durable ledger", () => {
  it("never reports a resume still within its lease as crashed, and recovers it once the lease ran out", async () => {
    const dir = tempDir();
    const env = { LEASE_MS: "60000" };
    expect(await run(dir, "start")).toEqual({ stop: "approval" });
    expect(await runAndKill(dir, "resume", env)).toBe("SIGKILL");
    expect(lines(join(dir, "executed.log"))).toEqual(["wipe"]);

    // At once, the dead resume's lease is still live: this is not taken for a crash.
    const early = await run(dir, "resume", env);
    expect(early).toEqual({ refused: "resuming-elsewhere", retryAt: expect.any(Number) });
    expect(lines(join(dir, "executed.log"))).toEqual(["wipe"]);

    // Retried once the lease ran out (the clock moved past it): the crash is recovered, the
    // started call answered interrupted.
    const later = { ...env, NOW_OFFSET_MS: String((early.retryAt ?? 0) - Date.now() + 1_000) };
    const recovered = await run(dir, "resume", later);
    expect(lines(join(dir, "executed.log"))).toEqual(["wipe"]);
    expect(recovered.stop).toBe("done");
    expect(recovered.errors).toEqual([
      {
        kind: "ExecuteFailed",
        name: "wipe",
        reason: "interrupted",
        message:
          'Command "wipe" failed: was started earlier but its outcome was never recorded (the process running it stopped). It may have taken effect: check the state before calling it again.',
      },
    ]);

    // And once more: a duplicate delivery now, refused; nothing runs, the model is not asked.
    expect(await run(dir, "resume", later)).toEqual({ refused: "already-resumed" });
    expect(lines(join(dir, "executed.log"))).toEqual(["wipe"]);
    expect(lines(join(dir, "model.log"))).toEqual(["turn 1", "turn 2"]);
  }, 60_000);

  it("lets one of four processes resuming the same state at once run it, and refuses the others", async () => {
    const dir = tempDir();
    await run(dir, "start");
    const results = await Promise.all([1, 2, 3, 4].map(() => run(dir, "resume")));
    const done = results.filter((result) => result.stop === "done");
    const refused = results.flatMap((result) => (result.refused ? [result.refused] : []));
    expect(done).toHaveLength(1);
    expect(done[0]?.errors).toEqual([]);
    expect(refused).toHaveLength(3);
    for (const code of refused) expect(["already-resumed", "resuming-elsewhere"]).toContain(code);
    expect(lines(join(dir, "executed.log"))).toEqual(["wipe"]);
    // One continuation: the model was asked for turn 2 once.
    expect(lines(join(dir, "model.log"))).toEqual(["turn 1", "turn 2"]);
  }, 60_000);
});
