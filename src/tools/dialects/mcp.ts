/**
 * The MCP dialect (`ignite-element/tools/mcp`): a component served as the tools of a Model Context
 * Protocol server. `toToolDefs` is the `tools/list` result, `parseToolCalls` reads a `tools/call`
 * request and `toToolResult` is its `CallToolResult`. There is no model conversation on the server
 * side, so this dialect has no `appendTurn`.
 */

import { isRecord } from "../core/json.js";
import type { Result } from "../core/result.js";
import type {
  NeutralManifest,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolDialect,
  ToolError,
} from "../core/types.js";
import { objectArguments } from "../wire/arguments.js";
import { shapeError } from "../wire/describe-value.js";
import { MCP_NAMES } from "../wire/names.js";
import {
  configurable,
  descriptionOf,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText, toJsonValue } from "../wire/result-text.js";

// Type aliases, not interfaces: the SDK's result types carry an index signature, which only an
// object type alias satisfies implicitly.

/** A tool's `inputSchema`: MCP requires an object-rooted JSON Schema. */
export type McpInputSchema = {
  type: "object";
  properties?: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
};

/** One entry of a `tools/list` result. */
export type McpTool = {
  name: string;
  description?: string;
  inputSchema: McpInputSchema;
};

/** The `tools/list` result: assignable to the SDK's `ListToolsResult`. */
export type McpToolList = {
  tools: McpTool[];
};

/** The `params` of a `tools/call` request (the SDK's `CallToolRequest["params"]`). */
export type McpCallParams = {
  name: string;
  // `| undefined`: the SDK's params type says so, which matters under exactOptionalPropertyTypes.
  arguments?: Readonly<Record<string, unknown>> | undefined;
};

/** A whole `tools/call` request (the SDK's `CallToolRequest`), accepted for convenience. */
export type McpCallRequest = {
  method: "tools/call";
  params: McpCallParams;
};

/** What `parseToolCalls` reads: a `tools/call` request or just its `params`. */
export type McpCall = McpCallParams | McpCallRequest;

/** A text content block of a `CallToolResult`. */
export type McpTextContent = {
  type: "text";
  text: string;
};

/** The answer to a `tools/call` request: assignable to the SDK's `CallToolResult`. */
export type McpToolResult = {
  content: McpTextContent[];
  /** The observation `{ snapshot, events }` as JSON data; present on success only. */
  structuredContent?: Record<string, unknown>;
  /** Set on every error, so the client shows the model a failed call. */
  isError?: true;
};

/** The MCP dialect: a plain `ToolDialect`, one call per `tools/call` request. */
export type McpDialect = ToolDialect<McpToolList, McpCall, McpToolResult>;

/** Options of `mcp(...)`; none yet, reserved so the export has the same shape as the others. */
export interface McpOptions extends ResultOptions {}

const WIRE: WireOptions = { names: MCP_NAMES };

function make(options: McpOptions = {}): McpDialect {
  const maxChars = maxCharsOf("mcp", options);
  return {
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): McpToolList {
      return {
        tools: toWire(manifest, WIRE, context).tools.map((tool) => ({
          name: tool.name,
          ...descriptionOf(tool),
          inputSchema: { ...tool.parameters, type: "object" as const },
        })),
      };
    },

    parseToolCalls(call: McpCall, manifest: NeutralManifest): NeutralToolCall[] {
      const { name, args } = paramsOf(call);
      // The JSON-RPC id is the transport's, not in `params`: the call has no id of its own.
      return [toNeutralCall(toWire(manifest, WIRE), { name, ...objectArguments(args, "empty") })];
    },

    toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): McpToolResult {
      const text = resultText(call, result, maxChars);
      const content: McpTextContent[] = [{ type: "text", text }];
      if (!result.ok) return { content, isError: true };
      const structured = toJsonValue(result.value);
      return isRecord(structured) ? { content, structuredContent: structured } : { content };
    },
  };
}

/**
 * Serves a component's commands as MCP tools. Use it as it is (`igniteTools(c, mcp)`) or call it
 * (`mcp()`); it takes no options yet.
 */
export const mcp = /* @__PURE__ */ configurable<McpOptions, McpDialect>(make);

const EXPECTED = "a tools/call request or its params ({ name: string, arguments? })";

function paramsOf(call: unknown): { name: string; args: unknown } {
  const params = isRecord(call) && "method" in call ? requestParams(call) : call;
  // The SDK's Server rejects a request without a string `name` before any handler runs, so one
  // that reaches us was not built as a tools/call at all.
  if (!isRecord(params) || typeof params.name !== "string") {
    throw shapeError("mcp.parseToolCalls", EXPECTED, call);
  }
  return { name: params.name, args: params.arguments };
}

function requestParams(request: Record<string, unknown>): unknown {
  if (request.method !== "tools/call") {
    throw new TypeError(
      `mcp.parseToolCalls expects ${EXPECTED}, got a ${JSON.stringify(request.method)} request`,
    );
  }
  return request.params;
}
