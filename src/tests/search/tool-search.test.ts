import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnthropicMessage,
  type AnthropicResponse,
  anthropic,
  toolsOnDemand,
} from "../../tools/dialects/anthropic/dialect.js";
import {
  type AnthropicStreamEvent,
  anthropicStream,
} from "../../tools/dialects/anthropic/stream.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { openai } from "../../tools/dialects/openai/dialect.js";
import {
  fakeDialect,
  igniteTools,
  type RuntimeEvent,
  runToolLoop,
  type SearchAnswer,
  type ToolBridge,
  type ToolSearch,
  toolSearch,
} from "../../tools/index.js";
import { shop } from "./catalogue.js";

/** What the model reads of a search: the answer's state. */
const foundBy = async (
  tools: Pick<ToolBridge<{ ran: string[] }, RuntimeEvent>, "invoke">,
  query: unknown,
) => {
  const outcome = await tools.invoke({ id: "s", name: "search_tools", input: { query } });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return (outcome.value.snapshot as unknown as SearchAnswer).found;
};

describe("toolSearch(): the built-in search tool", () => {
  it("is declared beside the commands, read-only, taking a query", () => {
    const tools = igniteTools(shop().component, fakeDialect, { search: toolSearch() });
    const search = tools.manifest().find((tool) => tool.name === "search_tools");
    expect(search).toMatchObject({
      readOnly: true,
      inputSchema: { required: ["query"] },
    });
    expect(tools.toToolDefs().some((tool) => tool.name === "search_tools")).toBe(true);
  });

  it("answers the best matches with their descriptions, and whether each can be called now", async () => {
    const { component, ran } = shop();
    const tools = igniteTools(component, undefined, { search: toolSearch({ limit: 2 }) });

    expect(await foundBy(tools, "refund an order")).toEqual([
      {
        name: "refundOrder",
        description: "Refund an order in full to the original payment method.",
        available: true,
      },
      { name: "refund_item", description: "Refund one item of an order.", available: true },
    ]);
    expect((await foundBy(tools, "end the sale"))[0]).toEqual({
      name: "endSale",
      description: "End a running sale.",
      available: false,
      availableWhen: "a sale is running",
    });
    expect(await foundBy(tools, "spaceship")).toEqual([]);
    expect(ran).toEqual([]);
  });

  it("is answered as the search, not projected as the component's state", async () => {
    const tools = igniteTools(shop().component, fakeDialect, {
      search: toolSearch(),
      project: ({ snapshot }) => ({ snapshot: { runs: snapshot.ran.length }, events: [] }),
    });
    expect((await foundBy(tools, "track shipment"))[0]?.name).toBe("trackShipment");
    // A command's own answer is still projected.
    const call = { id: "t", name: "trackShipment", input: {} };
    const block = tools.toToolResult(call, await tools.invoke(call));
    expect(JSON.stringify(block)).toContain('{"runs":1}');
  });

  it("refuses a query that is not one, as any tool's input", async () => {
    const tools = igniteTools(shop().component, undefined, { search: toolSearch() });
    const outcome = await tools.invoke({ name: "search_tools", input: { query: "" } });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "InvalidInput" } });
  });

  it("refuses options it does not take, naming them", () => {
    expect(() => toolSearch({ limit: 0 })).toThrow(
      /toolSearch: options.limit must be a whole number from 1 to 50, not 0/,
    );
    expect(() => toolSearch("5" as never)).toThrow(/toolSearch: options must be an object/);
    expect(() => igniteTools(shop().component, undefined, { search: "yes" as never })).toThrow(
      /search/,
    );
    expectTypeOf(toolSearch()).toExtend<ToolSearch>();
  });

  it("refuses a component with a command of its own tools' names, rather than hide the command", () => {
    const named = (name: string) => ({
      getSchema: () => ({ commands: { [name]: { description: "The application's own." } } }),
      execute: () => ({ state: {}, events: [] }),
    });
    expect(() => igniteTools(named("search_tools"), openai, { search: toolSearch() })).toThrow(
      'toolSearch: the component declares a command named "search_tools", the name of the search\'s own tool: rename the command',
    );
    // call_tool is the search's own only where the list is fixed (MCP), on demand.
    const onDemand = toolSearch({ onDemand: true });
    expect(() => igniteTools(named("call_tool"), mcp, { search: onDemand })).toThrow(
      'toolSearch: the component declares a command named "call_tool"',
    );
    expect(() => igniteTools(named("call_tool"), openai, { search: onDemand })).not.toThrow();
  });
});

describe("toolSearch() behind the MCP host", () => {
  it("is listed and answered like any tool, with the commands found as structured content", async () => {
    const { Client } = await import("@modelcontextprotocol/client");
    const { InMemoryTransport, Server } = await import("@modelcontextprotocol/server");
    const { serveMcp } = await import("../../tools/hosts/mcp/server.js");
    const server = new Server({ name: "shop", version: "1.0.0" });
    serveMcp(server, shop().component, { search: toolSearch({ limit: 1 }) });
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "search_tools")?.annotations?.readOnlyHint).toBe(
      true,
    );
    const found = await client.callTool({
      name: "search_tools",
      arguments: { query: "print a label" },
    });
    expect(found.structuredContent).toEqual({
      snapshot: {
        found: [
          {
            name: "printShippingLabel",
            description: "Print the shipping label of a parcel.",
            available: true,
          },
        ],
      },
      events: [],
    });
    await client.close();
  });
});

describe('toolsOnDemand(anthropic, { search: "client" }) in a streamed runToolLoop', () => {
  it("loads what the search found with tool_reference blocks, and runs the command found once", async () => {
    const { component, ran } = shop();
    const turns: AnthropicResponse[] = [
      {
        content: [
          { type: "tool_use", id: "t1", name: "search_tools", input: { query: "print a label" } },
        ],
      },
      { content: [{ type: "tool_use", id: "t2", name: "printShippingLabel", input: {} }] },
      { content: [{ type: "text", text: "Printed." }] },
    ];
    const events = (turn: AnthropicResponse): AnthropicStreamEvent[] => [
      { type: "message_start", message: { role: "assistant", content: [] } },
      ...turn.content.flatMap((block, index): AnthropicStreamEvent[] => [
        { type: "content_block_start", index, content_block: block },
        { type: "content_block_stop", index },
      ]),
      { type: "message_delta", delta: { stop_reason: turns.length > 0 ? "tool_use" : "end_turn" } },
      { type: "message_stop" },
    ];
    const seen: AnthropicMessage[][] = [];
    const tools = igniteTools(component, toolsOnDemand(anthropic, { search: "client" }), {
      search: toolSearch({ limit: 2 }),
    });

    const result = await runToolLoop({
      tools,
      stream: anthropicStream,
      messages: [{ role: "user", content: "Print the label." }],
      async *model({ messages }) {
        seen.push(messages);
        const turn = turns.shift();
        if (turn) yield* events(turn);
      },
    });

    expect(result.stop).toBe("done");
    expect(ran).toEqual(["printShippingLabel"]);
    expect(seen[1]?.[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: [
            { type: "tool_reference", tool_name: "printShippingLabel" },
            expect.objectContaining({ type: "tool_reference" }),
          ],
        },
      ],
    });
  });
});
