import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type AgentComponent, igniteTools } from "ignite-element/tools";
import { type McpTool, type McpToolResult, mcp } from "ignite-element/tools/mcp";
import { describe, expect, expectTypeOf, it } from "vitest";

// What the mcp dialect adds for hosts, with or without serveMcp: outputSchema, annotations and the
// size cap on structuredContent.

const tree = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { root: { $ref: "#/$defs/node" } },
  required: ["root"],
  $defs: {
    node: {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/node" } },
      },
      required: ["name"],
    },
  },
};

const garden: AgentComponent<{ root: { name: string; children?: unknown[] } }> = {
  getSchema: () => ({
    commands: {
      plant: { description: "Plant the tree.", output: tree, idempotent: true },
      water: { description: "Water it.", input: { type: "integer", minimum: 1 } },
    },
  }),
  execute: () => ({
    state: { root: { name: "oak", children: [{ name: "branch ".repeat(30) }] } },
    events: [],
  }),
};

describe("the mcp dialect's tool definitions for hosts", () => {
  it("declares the observation's schema as outputSchema, with the command's output as its snapshot and definitions kept at the root", () => {
    const [plant, water] = igniteTools(garden, mcp).toToolDefs().tools;

    expect(plant?.outputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        snapshot: { type: "object", properties: tree.properties, required: ["root"] },
        events: { type: "array" },
      },
      required: ["snapshot", "events"],
      $defs: tree.$defs,
    });
    expect(plant?.annotations).toEqual({ idempotentHint: true });
    expect(water).not.toHaveProperty("outputSchema");
    expect(water).not.toHaveProperty("annotations");
  });

  it("keeps draft-07 definitions at the root of the outputSchema too", () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { id: { type: "integer" } },
      type: "object",
      properties: { id: { $ref: "#/definitions/id" } },
    };
    const component: AgentComponent = {
      getSchema: () => ({ commands: { read: { output: draft7, readOnly: true } } }),
      execute: () => ({ state: { id: 1 }, events: [] }),
    };

    const [read] = igniteTools(component, mcp).toToolDefs().tools;

    expect(read?.outputSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        snapshot: { type: "object", properties: { id: { $ref: "#/definitions/id" } } },
        events: { type: "array" },
      },
      required: ["snapshot", "events"],
      definitions: { id: { type: "integer" } },
    });
  });

  it("sends structuredContent that a JSON Schema validator accepts against the outputSchema it declared", async () => {
    const bridge = igniteTools(garden, mcp);
    const [plant] = bridge.toToolDefs().tools;
    const [result] = await bridge.handleToolCalls({ name: "plant", arguments: {} });

    const validate = new Ajv2020().compile(plant?.outputSchema ?? {});
    expect(validate(result?.structuredContent)).toBe(true);
    expect(validate({ snapshot: { root: { children: [] } }, events: [] })).toBe(false);
  });

  it("caches the outputSchema, so an unchanged command lists the very same object", () => {
    const bridge = igniteTools(garden, mcp);
    expect(bridge.toToolDefs().tools[0]?.outputSchema).toBe(
      bridge.toToolDefs().tools[0]?.outputSchema,
    );
  });

  it("leaves structuredContent out of a success whose JSON is over maxResultChars, and keeps it at the cap", async () => {
    const text = JSON.stringify({
      snapshot: { root: { name: "oak", children: [{ name: "branch ".repeat(30) }] } },
      events: [],
    });
    const over = igniteTools(garden, mcp({ maxResultChars: text.length - 1 }));
    const at = igniteTools(garden, mcp({ maxResultChars: text.length }));

    const [cut] = await over.handleToolCalls({ name: "plant", arguments: {} });
    const [whole] = await at.handleToolCalls({ name: "plant", arguments: {} });

    expect(cut?.structuredContent).toBeUndefined();
    expect(JSON.parse(cut?.content[0]?.text ?? "")).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of \d+ characters$/,
      ),
      partial: expect.any(String),
    });
    expect(whole?.structuredContent).toBeDefined();
    expect(whole?.content[0]?.text).toBe(text);
  });

  it("keeps its tool definitions and results assignable to the SDK's own types", () => {
    expectTypeOf<McpTool>().toExtend<Tool>();
    expectTypeOf<McpToolResult>().toExtend<CallToolResult>();
  });
});
