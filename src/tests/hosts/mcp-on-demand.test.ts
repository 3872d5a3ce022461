/**
 * Tools on demand over MCP (`toolSearch({ onDemand: true })` given to the hosts): MCP 2026-07-28
 * says a server's tool list MUST NOT vary per connection or as a side effect of other requests,
 * so the list stays `search_tools` and `call_tool`, whatever was found, and the commands found
 * are called through `call_tool` — met by the SDK v2 client of both revisions and the v1 client,
 * on 127.0.0.1.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type AgentComponent,
  approval,
  igniteTools,
  type ToolSearch,
  toolSearch,
} from "ignite-element/tools";
import { mcp } from "ignite-element/tools/mcp";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { afterEach, describe, expect, it } from "vitest";
import { shopCommands } from "../search/catalogue.js";

const running: McpHttpServer[] = [];
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/**
 * The shop's back office (48 commands): `refundOrder` takes an order number, `blockCustomer` is
 * destructive, `endSale` is unavailable (no sale is running); every command run is recorded.
 */
function backOffice() {
  const ran: [string, unknown][] = [];
  const commands = shopCommands();
  commands.refundOrder = {
    ...commands.refundOrder,
    input: {
      type: "object",
      properties: { orderId: { type: "string", description: "The order's number." } },
      required: ["orderId"],
      additionalProperties: false,
    },
  };
  commands.blockCustomer = { ...commands.blockCustomer, destructive: true };
  const component: AgentComponent<{ ran: number }> = {
    getSchema: () => ({ commands }),
    canExecute: (command) => command !== "endSale",
    execute: (command, input) => {
      ran.push([command, input]);
      return { state: { ran: ran.length }, events: [] };
    },
  };
  return { component, ran };
}

async function serve(
  component: AgentComponent<{ ran: number }>,
  options: Parameters<typeof serveMcpHttp>[1] = {},
) {
  const server = await serveMcpHttp(component, options);
  running.push(server);
  return server;
}

/** A v2 `Client` negotiating `mode`, whose person accepts every form when `accepts`. */
async function v2(url: URL, mode: "auto" | "legacy", accepts = false) {
  const client = new Client(
    { name: "host-v2", version: "1.0.0" },
    { versionNegotiation: { mode }, ...(accepts ? { capabilities: { elicitation: {} } } : {}) },
  );
  const asked: string[] = [];
  if (accepts) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: {} };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(url));
  closing.push(client);
  return { client, asked };
}

async function v1(url: URL) {
  const client = new V1Client({ name: "host-v1", version: "1.0.0" });
  await client.connect(new V1Transport(url));
  closing.push(client);
  return client;
}

/** What this test asks of a client, whichever SDK made it. */
interface Caller {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<object>;
}

const onDemand: ToolSearch = toolSearch({ onDemand: true });
const names = async (client: Pick<Caller, "listTools">) =>
  (await client.listTools()).tools.map((tool) => tool.name);
const textOf = (result: object): string =>
  "content" in result && Array.isArray(result.content)
    ? result.content.map((block: { text?: string }) => block.text ?? "").join("")
    : "";
const structured = (result: object) =>
  "structuredContent" in result ? result.structuredContent : undefined;

describe("tools on demand over MCP: the list stays the search and call_tool", () => {
  it("lists search_tools and call_tool alone, the same list before and after a search and a call", async () => {
    const { component } = backOffice();
    const { client } = await v2((await serve(component, { search: onDemand })).url, "auto");

    const before = await client.listTools();
    expect(before.tools.map((tool) => tool.name).sort()).toEqual(["call_tool", "search_tools"]);
    // The list is the same for every caller, so a 2026-07-28 client may cache it.
    expect(before).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    const callTool = before.tools.find((tool) => tool.name === "call_tool");
    expect(callTool?.inputSchema).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, arguments: { type: "object" } },
    });

    await client.callTool({ name: "search_tools", arguments: { query: "refund an order" } });
    await client.callTool({
      name: "call_tool",
      arguments: { name: "refundOrder", arguments: { orderId: "A-17" } },
    });
    expect((await client.listTools()).tools).toEqual(before.tools);
  });

  it("answers a search with each command found and its input schema, which call_tool then runs once as the command", async () => {
    const { component, ran } = backOffice();
    const { client } = await v2((await serve(component, { search: onDemand })).url, "auto");

    const search = await client.callTool({
      name: "search_tools",
      arguments: { query: "refund an order" },
    });
    const { found } = (structured(search) as { snapshot: { found: object[] } }).snapshot;
    expect(found[0]).toEqual({
      name: "refundOrder",
      description: "Refund an order in full to the original payment method.",
      available: true,
      inputSchema: {
        type: "object",
        properties: { orderId: { type: "string", description: "The order's number." } },
        required: ["orderId"],
        additionalProperties: false,
      },
    });
    // The text a model reads says the same.
    expect(textOf(search)).toContain('"inputSchema"');

    const result = await client.callTool({
      name: "call_tool",
      arguments: { name: "refundOrder", arguments: { orderId: "A-17" } },
    });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toEqual({ snapshot: { ran: 1 }, events: [] });
    expect(ran).toEqual([["refundOrder", { orderId: "A-17" }]]);

    // A command that takes no input is called without arguments.
    await client.callTool({ name: "call_tool", arguments: { name: "salesReport" } });
    expect(ran.at(-1)?.[0]).toBe("salesReport");
  });

  it("answers what call_tool cannot run as a value a model can act on, and runs nothing", async () => {
    const { component, ran } = backOffice();
    const { client } = await v2((await serve(component, { search: onDemand })).url, "auto");
    const call = (args: Record<string, unknown>) =>
      client.callTool({ name: "call_tool", arguments: args });

    const unknown = await call({ name: "refundEverything", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain(
      'Unknown command "refundEverything": no tool of this application has that name. Call search_tools to find the tools for what you want to do, then call_tool with a name it found.',
    );
    // The search itself and call_tool are no commands to call through it.
    expect(textOf(await call({ name: "call_tool" }))).toContain('Unknown command "call_tool"');
    expect(textOf(await call({ name: "search_tools", arguments: { query: "x" } }))).toContain(
      'Unknown command "search_tools"',
    );

    const invalid = await call({ name: "refundOrder", arguments: { order: 17 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('Invalid input for "refundOrder"');

    const unavailable = await call({ name: "endSale" });
    expect(unavailable.isError).toBe(true);
    expect(textOf(unavailable)).toContain(
      'Command "endSale" is not available in the current state. It is available a sale is running',
    );

    // call_tool's own input is checked against its declaration.
    const malformed = await call({ tool: "refundOrder" });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toContain('Invalid input for "call_tool"');
    expect(textOf(await call({ name: "refundOrder", arguments: ["A-17"] }))).toContain(
      'Invalid input for "call_tool"',
    );
    expect(ran).toEqual([]);
  });

  it("asks the person about a command called through call_tool, naming it, and runs it once on their answer", async () => {
    const { component, ran } = backOffice();
    const server = await serve(component, {
      search: onDemand,
      approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
    });
    for (const mode of ["auto", "legacy"] as const) {
      const { client, asked } = await v2(server.url, mode, true);
      const result = await client.callTool({
        name: "call_tool",
        arguments: { name: "blockCustomer", arguments: {} },
      });
      expect(result.isError).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("blockCustomer");
    }
    expect(ran.map(([command]) => command)).toEqual(["blockCustomer", "blockCustomer"]);
  });

  it("serves a 2025-11-25 session and the v1 client the same fixed list, and runs what they call through call_tool", async () => {
    const { component, ran } = backOffice();
    const { url } = await serve(component, { search: onDemand });
    const clients: Caller[] = [(await v2(url, "legacy")).client, await v1(url)];
    for (const client of clients) {
      expect((await names(client)).sort()).toEqual(["call_tool", "search_tools"]);
      const search = await client.callTool({
        name: "search_tools",
        arguments: { query: "where is my parcel" },
      });
      expect(textOf(search)).toContain('"name":"trackShipment"');
      await client.callTool({ name: "call_tool", arguments: { name: "trackShipment" } });
      expect((await names(client)).sort()).toEqual(["call_tool", "search_tools"]);
    }
    expect(ran.map(([command]) => command)).toEqual(["trackShipment", "trackShipment"]);
  });

  it("lists every command beside the search, and no call_tool, below the threshold", async () => {
    const { component } = backOffice();
    const search = toolSearch({ onDemand: true, threshold: 100 });
    const { client } = await v2((await serve(component, { search })).url, "auto");
    const listed = await names(client);
    expect(listed).toHaveLength(49);
    expect(listed).toContain("search_tools");
    expect(listed).not.toContain("call_tool");
  });
});

describe("the mcp dialect's tools on demand, without a host", () => {
  it("answers a command called through call_tool as the command: project sees its name", async () => {
    const { component } = backOffice();
    const seen: string[] = [];
    const tools = igniteTools(component, mcp, {
      search: toolSearch({ onDemand: true, threshold: 0 }),
      project: (observation, call) => {
        seen.push(call.name);
        return observation;
      },
    });
    const [answer] = await tools.answerToolCalls({
      name: "call_tool",
      arguments: { name: "refundOrder", arguments: { orderId: "B-2" } },
    });
    expect(answer?.route).toEqual({ command: "refundOrder", input: { orderId: "B-2" } });
    expect(answer?.block.isError).toBeFalsy();
    expect(seen).toEqual(["refundOrder"]);
    // Called by its own name (as an MCP App view does), it is answered as itself too.
    await tools.answerToolCalls({ name: "salesReport", arguments: {} });
    expect(seen).toEqual(["refundOrder", "salesReport"]);
    expect(mcp.fixedList).toBe(true);
  });
});
