import type { ChildProcess } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { startDemo, stopDemo } from "../started.js";

let running: ChildProcess | undefined;
afterEach(() => {
  stopDemo(running);
  running = undefined;
});

describe("npm run demo:app", () => {
  it("serves the thermostat as an MCP App and prints the address and a host configuration", async () => {
    const { child, output } = await startDemo("demo:app");
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
