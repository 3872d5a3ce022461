/**
 * What the demos' tests share: a demo started as a reader starts it (`npm run demo:…`, on a free
 * port) and stopped with everything under it.
 */
import { type ChildProcess, spawn } from "node:child_process";

const root = new URL("../", import.meta.url);

/** Runs `npm run <script>` on a free port and resolves with what it printed once it is ready. */
export function startDemo(script: string): Promise<{ child: ChildProcess; output: string }> {
  // Its own process group, so the server under npm and tsx is stopped with it.
  const child = spawn("npm", ["run", "--silent", script], {
    cwd: root,
    env: { ...process.env, PORT: "0" },
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ctrl-C")) resolve({ child, output });
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}): ${output}`)));
  });
}

/** Stops a demo `startDemo` started, with its process group, if it still runs. */
export function stopDemo(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid);
}
