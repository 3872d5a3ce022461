import { type ChildProcess, spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);

/** Runs `npm run demo:app` on a free port and resolves with what it printed once it is ready. */
function startDemo(): Promise<{ child: ChildProcess; output: string }> {
  // Its own process group, so the server under npm and tsx is stopped with it.
  const child = spawn("npm", ["run", "--silent", "demo:app"], {
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
    child.once("exit", (code) => reject(new Error(`demo:app exited (${code}): ${output}`)));
  });
}

let running: ChildProcess | undefined;
afterEach(() => {
  if (running?.pid !== undefined && running.exitCode === null) process.kill(-running.pid);
  running = undefined;
});

describe("npm run demo:app", () => {
  it("serves the thermostat as an MCP App and prints the address and a host configuration", async () => {
    const { child, output } = await startDemo();
    running = child;
    const url = /MCP App demo: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output)?.[1] ?? "";
    expect(url).not.toBe("");
    expect(output).toContain(`claude mcp add --transport http thermostat ${url}`);
    expect(output).toContain(JSON.stringify({ servers: { thermostat: { type: "http", url } } }));

    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { resources } = await client.listResources();
    // The view, and the thermostat's state beside it, which the view reads between calls.
    expect(resources.map((resource) => resource.mimeType)).toEqual([
      "text/html;profile=mcp-app",
      "application/json",
    ]);
    await client.close();
  }, 60_000);
});
