import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// Real processes: one pauses for approval and stores its state, one resumes it and is killed with
// SIGKILL after `execute` and before the answer is recorded, one resumes the same stored state.

const CHILD = join(process.cwd(), "src/tests/shell/crash/child.ts");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Node itself, with tsx as a loader: the `tsx` command runs the script in a child process of its
// own, which a SIGKILL of the command leaves running for ever.
function start(dir: string, phase: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", CHILD, dir, phase], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs a phase to its end; resolves its stdout. */
function run(dir: string, phase: string): Promise<string> {
  const child = start(dir, phase);
  let out = "";
  let errors = "";
  child.stdout?.on("data", (chunk) => (out += String(chunk)));
  child.stderr?.on("data", (chunk) => (errors += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${phase} exited ${code}: ${errors}`)),
    );
  });
}

/** Runs a phase until it reports EXECUTED, then kills it with SIGKILL. */
function runAndKill(dir: string, phase: string): Promise<NodeJS.Signals | null> {
  const child = start(dir, phase, { CRASH_AFTER_EXECUTE: "1" });
  return new Promise((resolve, reject) => {
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

describe("exactly once across a crash", () => {
  it("never runs an approved call again after the process running it was killed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ignite-approval-"));
    dirs.push(dir);

    expect(JSON.parse(await run(dir, "start"))).toEqual({ stop: "approval" });
    expect(await runAndKill(dir, "resume")).toBe("SIGKILL");
    expect(readFileSync(join(dir, "executed.log"), "utf8")).toBe("wipe\n");

    const resumed = JSON.parse(await run(dir, "resume"));
    expect(readFileSync(join(dir, "executed.log"), "utf8")).toBe("wipe\n");
    expect(resumed.stop).toBe("done");
    expect(resumed.errors).toEqual([
      {
        kind: "ExecuteFailed",
        name: "wipe",
        reason: "interrupted",
        message:
          'Command "wipe" failed: was started earlier but its outcome was never recorded (the process running it stopped). It may have taken effect: check the state before calling it again.',
      },
    ]);

    // And once more: the ledger still answers, nothing runs.
    await run(dir, "resume");
    expect(readFileSync(join(dir, "executed.log"), "utf8")).toBe("wipe\n");
  }, 60_000);
});
