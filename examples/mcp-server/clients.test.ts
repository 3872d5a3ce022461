import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { node22 } from "../../src/tests/hosts/node22.js";
import { type PlayerServer, startPlayerServer } from "./http.js";

// The clients people point at these examples, beside the v1 `Client` of http.test.ts and the
// clients of server.test.ts: the SDK v2 `Client` of both negotiations over Streamable HTTP, and
// the MCP Inspector's CLI (under the Node 22 it requires) over stdio and over HTTP.
const root = join(import.meta.dirname, "../..");
const inspector = join(
  root,
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);

let player: PlayerServer;
beforeAll(async () => {
  player = await startPlayerServer();
});
afterAll(() => player.close());

describe("the media player over Streamable HTTP, to the SDK v2 Client", () => {
  it.each([
    ["auto", "modern"],
    ["legacy", "legacy"],
  ] as const)(
    "negotiating %s, lists the tools of the player's state and calls one",
    async (mode, era) => {
      const client = new Client(
        { name: "examples-v2", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      await client.connect(new StreamableHTTPClientTransport(player.url));
      try {
        expect(client.getProtocolEra()).toBe(era);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain("load");
        const result = await client.callTool({
          name: "load",
          arguments: { title: "Blue in Green", duration: 337 },
        });
        expect(result.isError).toBeUndefined();
        expect(JSON.stringify(result.structuredContent)).toContain("Blue in Green");
      } finally {
        await client.close();
        player.actor.send({ type: "stop" });
      }
    },
  );
});

describe("the MCP Inspector's CLI against the examples", () => {
  /** The Inspector's `--cli` mode, run from the repository (where `tsx` resolves); its JSON. */
  async function inspect(...args: string[]): Promise<{ tools?: { name: string }[] }> {
    const { stdout } = await promisify(execFile)(node22(), [inspector, "--cli", ...args], {
      cwd: root,
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  }

  it("lists the todo list's tools over stdio (examples/mcp-server/server.ts)", async () => {
    const listed = await inspect(
      process.execPath,
      "--import",
      "tsx",
      "examples/mcp-server/server.ts",
      "--method",
      "tools/list",
    );
    expect(listed.tools?.map((tool) => tool.name)).toEqual([
      "add",
      "clearCompleted",
      "remove",
      "toggle",
    ]);
  }, 60_000);

  it("lists the player's tools over Streamable HTTP (examples/mcp-server/http.ts)", async () => {
    const listed = await inspect(player.url.href, "--method", "tools/list");
    expect(listed.tools?.map((tool) => tool.name)).toContain("load");
  }, 60_000);
});
