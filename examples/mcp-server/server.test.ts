import { fileURLToPath } from "node:url";
import { Client as V2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type CallToolRequest,
  CallToolResultSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todosStateSchema } from "../redux/todos.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const server = fileURLToPath(new URL("./server.ts", import.meta.url));

// Each list the client fetched after the server said its tools changed: none are expected, since
// every command is listed from the start.
const refreshed: Tool[][] = [];

const client = new Client(
  { name: "examples-test", version: "1.0.0" },
  {
    listChanged: {
      tools: {
        debounceMs: 0,
        onChanged: (error, tools) => {
          if (error === null && tools !== null) refreshed.push(tools);
        },
      },
    },
  },
);

const names = (tools: Tool[]) => tools.map((tool) => tool.name);

/** Calls a tool and reads the answer as a `CallToolResult` (the SDK types `content` loosely). */
async function call(params: CallToolRequest["params"]) {
  return CallToolResultSchema.parse(await client.callTool(params));
}

/** The text of a result that has exactly one text block. */
function textOf(content: { type: string; text?: unknown }[]): string {
  const [block, ...rest] = content;
  if (block?.type !== "text" || typeof block.text !== "string" || rest.length > 0) {
    throw new Error(`expected one text block, got ${JSON.stringify(content)}`);
  }
  return block.text;
}

describe("the todo list served as an MCP server over stdio, in a child process", () => {
  beforeAll(async () => {
    // `cwd: root` so that `--import tsx` resolves from this package's node_modules.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", server],
      cwd: root,
      stderr: "pipe",
    });
    // Kept quiet, but shown if the server fails to start: a broken import is reported there.
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      await client.connect(transport);
    } catch (error) {
      throw new Error(`The MCP server did not start:\n${stderr}`, { cause: error });
    }
  }, 30_000);

  afterAll(async () => {
    await client.close();
  });

  it("lists every command from the start, each gated one saying when it is available", async () => {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const { tools } = await client.listTools();
    expect(names(tools)).toEqual(["add", "clearCompleted", "remove", "toggle"]);
    const [add, clearCompleted, remove, toggle] = tools;
    expect(add).toEqual({
      name: "add",
      description: "Add a todo to the end of the list.",
      inputSchema: {
        type: "object",
        properties: { title: { type: "string", minLength: 1, maxLength: 80 } },
        required: ["title"],
        additionalProperties: false,
      },
      // What structuredContent holds: the state the command leaves, and its events.
      outputSchema: {
        type: "object",
        properties: { snapshot: todosStateSchema, events: { type: "array" } },
        required: ["snapshot", "events"],
      },
    });
    // A host that never lists again (Claude Desktop) still tells the model when to call it.
    expect(clearCompleted?.description).toBe(
      "Delete every todo that is done. Available only while a todo is done.",
    );
    // The command's effect flags, as MCP's hints.
    expect(remove?.annotations).toEqual({ destructiveHint: true });
    // A scalar input is wrapped as { value }: MCP tool inputs must be objects.
    expect(toggle?.inputSchema).toEqual({
      type: "object",
      properties: { value: { type: "integer", minimum: 1 } },
      required: ["value"],
      additionalProperties: false,
    });
  });

  it("answers a call to a command that is not available yet with when it will be", async () => {
    const early = await call({ name: "toggle", arguments: { value: 1 } });

    expect(early.isError).toBe(true);
    expect(textOf(early.content)).toBe(
      'Error (Unavailable): Command "toggle" is not available in the current state. It is available only while the list has a todo; until then, use another tool.',
    );
  });

  it("answers a valid call with the state and the dispatched action, and sends no list_changed: the list is the same", async () => {
    const result = await call({ name: "add", arguments: { title: "Buy milk" } });

    const observation = {
      snapshot: { items: [{ id: 1, title: "Buy milk", done: false }], nextId: 2 },
      events: [{ type: "todos/add", payload: { title: "Buy milk" } }],
    };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(observation);
    // The same observation as text, for clients that show the model only `content`.
    expect(JSON.parse(textOf(result.content))).toEqual(observation);
    await client.ping();
    expect(refreshed).toEqual([]);
  });

  it("answers an invalid call with isError and the InvalidInput text, changing nothing", async () => {
    const result = await call({ name: "add", arguments: { title: "" } });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    // The model reads what was wrong and how to fix it, then each issue as data.
    const [summary, issues] = textOf(result.content).split("\nIssues: ");
    expect(summary).toMatch(
      /^Error \(InvalidInput\): Invalid input for "add": \/title .+ Fix the input/,
    );
    expect(JSON.parse(issues ?? "null")).toEqual([
      { path: "/title", message: expect.any(String), keyword: "minLength" },
    ]);
  });

  it("runs a command once the state makes it available", async () => {
    const early = await call({ name: "clearCompleted", arguments: {} });
    expect(textOf(early.content)).toContain("It is available only while a todo is done");

    expect((await call({ name: "toggle", arguments: { value: 1 } })).isError).toBeUndefined();

    const cleared = await call({ name: "clearCompleted", arguments: {} });
    expect(cleared.structuredContent).toEqual({
      snapshot: { items: [], nextId: 2 },
      events: [{ type: "todos/clearCompleted" }],
    });
  });
});

/** The SDK v2 `Client` negotiating `mode`, on a server process of its own. */
async function v2Client(mode: "auto" | "legacy") {
  const v2 = new V2Client(
    { name: "examples-test-v2", version: "1.0.0" },
    { versionNegotiation: { mode } },
  );
  await v2.connect(
    new V2StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", server],
      cwd: root,
      stderr: "ignore",
    }),
  );
  return v2;
}

describe("the todo list over stdio, to clients of both protocol revisions", () => {
  it("serves a 2026-07-28 client (the v2 Client negotiating auto): a list it may cache, and calls", async () => {
    const v2 = await v2Client("auto");
    try {
      expect(v2.getProtocolEra()).toBe("modern");
      const listed = await v2.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        "add",
        "clearCompleted",
        "remove",
        "toggle",
      ]);
      expect(listed).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
      const result = await v2.callTool({ name: "add", arguments: { title: "Buy milk" } });
      expect(result.structuredContent).toEqual({
        snapshot: { items: [{ id: 1, title: "Buy milk", done: false }], nextId: 2 },
        events: [{ type: "todos/add", payload: { title: "Buy milk" } }],
      });
    } finally {
      await v2.close();
    }
  }, 30_000);

  it("serves a 2025-11-25 client (the v2 Client negotiating legacy) as before", async () => {
    const v2 = await v2Client("legacy");
    try {
      expect(v2.getProtocolEra()).toBe("legacy");
      const listed = await v2.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        "add",
        "clearCompleted",
        "remove",
        "toggle",
      ]);
      expect(listed).not.toHaveProperty("ttlMs");
      const early = await v2.callTool({ name: "toggle", arguments: { value: 1 } });
      expect(early.isError).toBe(true);
    } finally {
      await v2.close();
    }
  }, 30_000);
});
