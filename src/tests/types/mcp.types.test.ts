import type {
  CallToolRequest,
  CallToolResult,
  ListToolsResult,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type {
  CallToolRequest as V2CallToolRequest,
  CallToolResult as V2CallToolResult,
  ListToolsResult as V2ListToolsResult,
} from "@modelcontextprotocol/server";
import { describe, expectTypeOf, it } from "vitest";
import {
  type McpCall,
  type McpDialect,
  type McpTool,
  type McpToolList,
  type McpToolResult,
  mcp,
} from "../../tools/dialects/mcp/dialect.js";
import { igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

describe("the mcp dialect's types against @modelcontextprotocol/sdk", () => {
  const bridge = igniteTools(new Counter(), mcp);

  it("lists tools the SDK accepts as a tools/list result", () => {
    expectTypeOf<McpToolList>().toExtend<ListToolsResult>();
    expectTypeOf<McpTool>().toExtend<Tool>();
    expectTypeOf(bridge.toToolDefs()).toExtend<ListToolsResult>();
  });

  it("reads the SDK's tools/call params and whole request without a cast", () => {
    expectTypeOf<CallToolRequest["params"]>().toExtend<Parameters<typeof mcp.parseToolCalls>[0]>();
    expectTypeOf<CallToolRequest>().toExtend<Parameters<typeof mcp.parseToolCalls>[0]>();
    expectTypeOf<CallToolRequest["params"]>().toExtend<
      Parameters<typeof bridge.handleToolCalls>[0]
    >();
    expectTypeOf<CallToolRequest>().toExtend<McpCall>();
  });

  it("answers with a result the SDK accepts as a CallToolResult", () => {
    expectTypeOf<McpToolResult>().toExtend<CallToolResult>();
    expectTypeOf(bridge.handleToolCalls).returns.resolves.toEqualTypeOf<McpToolResult[]>();
  });

  it("fits the SDK v2 types (@modelcontextprotocol/server) the same way", () => {
    expectTypeOf<McpToolList>().toExtend<V2ListToolsResult>();
    expectTypeOf<V2CallToolRequest["params"]>().toExtend<
      Parameters<typeof bridge.handleToolCalls>[0]
    >();
    expectTypeOf<McpToolResult>().toExtend<V2CallToolResult>();
  });

  it("is a plain ToolDialect: there is no conversation to append to", () => {
    expectTypeOf(bridge).not.toHaveProperty("appendTurn");
  });

  it("is both the dialect and a factory taking no options", () => {
    expectTypeOf(mcp()).toEqualTypeOf<McpDialect>();
    expectTypeOf(mcp).toExtend<McpDialect>();
    // @ts-expect-error mcp has no options yet
    mcp({ strict: true });
  });
});
