import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpToolResult, mcp } from "../../tools/dialects/mcp/dialect.js";
import { type AgentComponent, igniteTools } from "../../tools/index.js";

interface Todos {
  items: string[];
  limit: number;
}

/** A component with dotted command names, a scalar command and a gated one. */
function todoList(): AgentComponent<Todos> {
  let state: Todos = { items: [], limit: 3 };
  return {
    getSchema: () => ({
      commands: {
        "todo.add": {
          description: "Add an item.",
          input: {
            type: "object",
            properties: { title: { type: "string", minLength: 1 } },
            required: ["title"],
            additionalProperties: false,
          },
        },
        "todo.limit": {
          description: "Set the most items kept.",
          input: { type: "integer", minimum: 1 },
        },
        "todo.clear": { description: "Remove every item.", gated: true },
      },
    }),
    canExecute: (command) => command !== "todo.clear" || state.items.length > 0,
    execute(command, input) {
      if (command === "todo.add") {
        const { title } = input as { title: string };
        state = { ...state, items: [...state.items, title].slice(-state.limit) };
        return { state, events: [{ type: "added", payload: title }] };
      }
      if (command === "todo.limit") state = { ...state, limit: input as number };
      if (command === "todo.clear") state = { ...state, items: [] };
      return { state, events: [] };
    },
  };
}

const INFO = { name: "ignite-todos", version: "1.0.0" };
const CLIENT = { name: "test-client", version: "1.0.0" };
const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});

/** The one result `handleToolCalls` gives for a tools/call request: one request is one call. */
async function only(results: Promise<McpToolResult[]>): Promise<McpToolResult> {
  const [result] = await results;
  return result ?? { content: [{ type: "text", text: "no answer" }], isError: true };
}

/**
 * Serves `component` through the SDK's low-level Server, as a user would: availability follows
 * the state, so the server tells the client when a call changed the list.
 */
function serve(component: AgentComponent<Todos>): Server {
  const bridge = igniteTools(component, mcp);
  const server = new Server(INFO, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => bridge.toToolDefs());
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const before = JSON.stringify(bridge.toToolDefs());
    const result = await only(bridge.handleToolCalls(request.params));
    if (JSON.stringify(bridge.toToolDefs()) !== before) await server.sendToolListChanged();
    return result;
  });
  return server;
}

async function connect(server: Server, client = new Client(CLIENT)): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client, server);
  return client;
}

describe("a component served through the MCP SDK's Server", () => {
  it("lists our tools, dotted names as they are", async () => {
    const client = await connect(serve(todoList()));
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "todo.add",
        description: "Add an item.",
        inputSchema: {
          type: "object",
          properties: { title: { type: "string", minLength: 1 } },
          required: ["title"],
          additionalProperties: false,
        },
      },
      {
        name: "todo.limit",
        description: "Set the most items kept.",
        inputSchema: {
          type: "object",
          properties: { value: { type: "integer", minimum: 1 } },
          required: ["value"],
          additionalProperties: false,
        },
      },
    ]);
  });

  it("answers a valid call with the observation as text and structuredContent", async () => {
    const client = await connect(serve(todoList()));
    const result = await client.callTool({ name: "todo.add", arguments: { title: "milk" } });
    const observation = {
      snapshot: { items: ["milk"], limit: 3 },
      events: [{ type: "added", payload: "milk" }],
    };
    const expected: CallToolResult = {
      content: [{ type: "text", text: JSON.stringify(observation) }],
      structuredContent: observation,
    };
    expect(result).toEqual(expected);
  });

  it("unwraps a scalar command's { value }", async () => {
    const client = await connect(serve(todoList()));
    const result = await client.callTool({ name: "todo.limit", arguments: { value: 1 } });
    expect(result.structuredContent).toEqual({ snapshot: { items: [], limit: 1 }, events: [] });
  });

  it("answers an invalid call with isError and the InvalidInput text", async () => {
    const client = await connect(serve(todoList()));
    const result = await client.callTool({ name: "todo.add", arguments: { title: "" } });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (InvalidInput): Invalid input for "todo.add": /title must NOT have fewer than 1 characters. Fix the input and call again.\nIssues: [{"path":"/title","message":"must NOT have fewer than 1 characters","keyword":"minLength"}]',
        },
      ],
      isError: true,
    });
  });

  it("answers an unknown tool with isError and UnknownCommand", async () => {
    const client = await connect(serve(todoList()));
    const result = await client.callTool({ name: "todo.explode", arguments: {} });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (UnknownCommand): Unknown command "todo.explode". Call one of the tools you were offered.',
        },
      ],
      isError: true,
    });
  });

  it("lists what the state allows now, and refuses a gated tool that is hidden", async () => {
    const client = await connect(serve(todoList()));
    const hidden = await client.callTool({ name: "todo.clear" });
    expect(hidden).toMatchObject({ isError: true });
    expect(JSON.stringify(hidden.content)).toContain("Error (Unavailable)");
    await client.callTool({ name: "todo.add", arguments: { title: "milk" } });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["todo.add", "todo.clear", "todo.limit"]);
    const cleared = await client.callTool({ name: "todo.clear" });
    expect(cleared.structuredContent).toEqual({ snapshot: { items: [], limit: 3 }, events: [] });
  });

  it("notifies the client when a call changed which tools are available", async () => {
    const lists: string[][] = [];
    let changed = () => {};
    const refreshed = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const client = new Client(CLIENT, {
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (_error, tools) => {
            lists.push((tools ?? []).map((tool) => tool.name));
            changed();
          },
        },
      },
    });
    await connect(serve(todoList()), client);
    await client.callTool({ name: "todo.limit", arguments: { value: 5 } }); // same list: no notice
    await client.callTool({ name: "todo.add", arguments: { title: "milk" } });
    await refreshed;
    expect(lists).toEqual([["todo.add", "todo.clear", "todo.limit"]]);
  });
});

describe("a component served through the MCP SDK's McpServer", () => {
  it("cannot be registered with registerTool: it takes zod schemas, not JSON Schema", () => {
    const server = new McpServer(INFO);
    const [tool] = mcp.toToolDefs(igniteTools(todoList()).manifest()).tools;
    expect(() =>
      server.registerTool(
        "todo.add",
        // @ts-expect-error its types reject a JSON Schema as well
        { inputSchema: tool?.inputSchema },
        () => ({ content: [] }),
      ),
    ).toThrow(/Zod schema or raw shape/);
  });

  it("serves our tools through its underlying Server instead", async () => {
    const bridge = igniteTools(todoList(), mcp);
    const server = new McpServer(INFO, { capabilities: { tools: {} } });
    server.server.setRequestHandler(ListToolsRequestSchema, () => bridge.toToolDefs());
    server.server.setRequestHandler(CallToolRequestSchema, (request) =>
      only(bridge.handleToolCalls(request.params)),
    );
    const client = await connect(server.server);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "todo.add",
      "todo.limit",
    ]);
    const result = await client.callTool({ name: "todo.add", arguments: { title: "tea" } });
    expect(result.structuredContent).toEqual({
      snapshot: { items: ["tea"], limit: 3 },
      events: [{ type: "added", payload: "tea" }],
    });
  });
});
