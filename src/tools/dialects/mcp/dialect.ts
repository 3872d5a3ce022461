/**
 * The MCP dialect (`ignite-element/tools/mcp`): a component served as the tools of a Model Context
 * Protocol server. `toToolDefs` is the `tools/list` result, `parseToolCalls` reads a `tools/call`
 * request and `toToolResult` is its `CallToolResult`. There is no model conversation on the server
 * side, so this dialect has no `appendTurn`.
 */

import { aFunction, checkOptional } from "../../core/checks.js";
import type { ContentPart } from "../../core/content.js";
import { isJsonObject, isRecord, type JsonValue } from "../../core/json.js";
import type { Result } from "../../core/result.js";
import type {
  JsonSchema,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolDialect,
  ToolError,
} from "../../core/types.js";
import { objectArguments } from "../../wire/arguments.js";
import { fileName, partBlocks, withoutParts } from "../../wire/content-parts.js";
import { shapeError } from "../../wire/describe-value.js";
import { MCP_NAMES } from "../../wire/names.js";
import {
  configurable,
  descriptionOf,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../../wire/provider-tools.js";
import {
  cappedJson,
  maxCharsOf,
  NOT_PLAIN,
  plainCopy,
  type ResultOptions,
  resultText,
  toJsonText,
} from "../../wire/result-text.js";

// Type aliases, not interfaces: the SDK's result types carry an index signature, which only an
// object type alias satisfies implicitly.

/** A tool's `inputSchema`: MCP requires an object-rooted JSON Schema. */
export type McpInputSchema = {
  type: "object";
  properties?: Record<string, { [key: string]: JsonValue }>;
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * A tool's `outputSchema`: the shape of its `structuredContent`, the observation
 * `{ snapshot, events }` with `snapshot` described by the command's declared `output`.
 */
export type McpOutputSchema = {
  type: "object";
  properties?: Record<string, { [key: string]: JsonValue }>;
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * What a tool states about its effects, from the command's flags: `readOnly` → `readOnlyHint`,
 * `destructive` → `destructiveHint`, `idempotent` → `idempotentHint`. Only declared flags are
 * sent; a host reads a missing hint by MCP's defaults (not read-only, destructive, not idempotent).
 * `title` is the command's `title`, also sent as the tool's own `title` (hosts read either).
 */
export type McpToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
};

/** One entry of a `tools/list` result. */
export type McpTool = {
  name: string;
  /** The command's `title`: the name a host shows a person. */
  title?: string;
  description?: string;
  inputSchema: McpInputSchema;
  /** Present when the command declares an `output` schema. */
  outputSchema?: McpOutputSchema;
  /** Present when the command declares a `title` or any effect flag. */
  annotations?: McpToolAnnotations;
  /** Set by a host, never by the dialect: an MCP App view's link (`ui.resourceUri`). */
  _meta?: Record<string, unknown>;
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

/** An image or audio content block: base64 bytes and their MIME type. */
export type McpMediaContent = {
  type: "image" | "audio";
  data: string;
  mimeType: string;
};

/** A link to a resource the client may read. */
export type McpResourceLink = {
  type: "resource_link";
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
};

/** A resource carried whole: its text, or its bytes base64-encoded (`blob`). */
export type McpEmbeddedResource = {
  type: "resource";
  resource:
    | { uri: string; mimeType?: string; text: string }
    | { uri: string; mimeType?: string; blob: string };
};

/** Any content block of a `CallToolResult` this dialect sends. */
export type McpContent = McpTextContent | McpMediaContent | McpResourceLink | McpEmbeddedResource;

/** The answer to a `tools/call` request: assignable to the SDK's `CallToolResult`. */
export type McpToolResult = {
  /**
   * The observation's JSON text first, then the call's content parts (`contentParts()`), each an
   * MCP content block as it came.
   */
  content: [McpTextContent, ...McpContent[]];
  /**
   * The observation `{ snapshot, events }` as JSON data; present on success only, and only when
   * its JSON text is within `maxResultChars` (structured data cannot be cut and stay valid).
   */
  structuredContent?: Record<string, unknown>;
  /** Set on every error, so the client shows the model a failed call. */
  isError?: true;
};

const textBlock = (text: string): McpTextContent => ({ type: "text", text });

/** The MCP dialect: a plain `ToolDialect`, one call per `tools/call` request. */
export type McpDialect = ToolDialect<McpToolList, McpCall, McpToolResult>;

/**
 * Options of `mcp(...)`: `maxResultChars` caps the text of a result and, on success, leaves
 * `structuredContent` out when its JSON text is over the cap.
 */
export interface McpOptions extends ResultOptions {
  /**
   * Where an embedded resource over `maxResultChars` is kept: given it, the dialect hands each
   * such resource to it and sends a `resource_link` to its URI in its place (instead of a text
   * naming it), for the client to read with `resources/read` — serve what it was handed there.
   * The MCP hosts give their own with `content: contentParts()`: docs/serving.md#resources.
   */
  keepOverCap?: (resource: McpEmbeddedResource["resource"]) => void;
}

// An object schema is listed whole, keywords at its root included (SEP-2106): MCP asks only that
// the root be an object. Providers reached through a host may refuse a root `anyOf`, `oneOf` or
// `allOf` (Anthropic's API does): docs/serving.md says to keep them below the root for those.
const WIRE: WireOptions = { names: MCP_NAMES, objectRootKeywords: true };

function make(options: McpOptions = {}): McpDialect {
  const maxChars = maxCharsOf("mcp", options);
  checkOptional("mcp", "keepOverCap", options.keepOverCap, aFunction);
  const keep = options.keepOverCap;
  // A resource over the cap, kept where the client can read it, and linked to.
  const over =
    keep &&
    ((part: ContentPart): McpResourceLink | undefined => {
      if (part.type !== "resource") return undefined;
      const { uri, mimeType } = part.resource;
      keep(part.resource);
      const link: McpResourceLink = { type: "resource_link", uri, name: fileName(uri) };
      return mimeType === undefined ? link : { ...link, mimeType };
    });
  return {
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): McpToolList {
      return {
        tools: toWire(manifest, WIRE, context).tools.map((tool) => ({
          name: tool.name,
          ...(tool.tool.title === undefined ? {} : { title: tool.tool.title }),
          ...descriptionOf(tool),
          inputSchema: { ...tool.parameters, type: "object" as const },
          ...outputSchemaOf(tool.tool),
          ...annotationsOf(tool.tool),
        })),
      };
    },

    carries: ["text", "image", "audio", "resource_link", "resource"],

    // A 2026-07-28 server's list MUST NOT vary per connection or as a side effect of requests.
    fixedList: true,

    parseToolCalls(call: McpCall, manifest: NeutralManifest): NeutralToolCall[] {
      const { name, args } = paramsOf(call);
      // The JSON-RPC id is the transport's, not in `params`: the call has no id of its own.
      return [toNeutralCall(toWire(manifest, WIRE), { name, ...objectArguments(args, "empty") })];
    },

    toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): McpToolResult {
      if (!result.ok) {
        return {
          content: [{ type: "text", text: resultText(call, result, maxChars) }],
          isError: true,
        };
      }
      // Plain JSON data, the common case, is copied once and the text written from the copy;
      // anything else is encoded by the shared rule and read back from its text. Either way
      // the structured content is the text's data, and shares nothing with the component's state.
      const value = withoutParts(result.value);
      const plain = plainCopy(value);
      const json = plain === NOT_PLAIN ? toJsonText(value) : JSON.stringify(plain);
      const text: McpTextContent = { type: "text", text: cappedJson(json, maxChars) };
      const parts = result.value?.content;
      // MCP's content blocks are the parts' own vocabulary: each goes as it came, while it fits.
      const content: McpToolResult["content"] = parts
        ? [
            text,
            ...partBlocks<McpContent>(
              parts,
              maxChars - text.text.length,
              (part) => part,
              textBlock,
              over,
            ),
          ]
        : [text];
      // The same data as the text: over the cap, the text is cut and the structured copy, which
      // cannot be cut and stay valid, is left out.
      if (json.length > maxChars) return { content };
      const structured: unknown = plain === NOT_PLAIN ? JSON.parse(json) : plain;
      return isRecord(structured) ? { content, structuredContent: structured } : { content };
    },
  };
}

/**
 * Serves a component's commands as MCP tools. Use it as it is (`igniteTools(c, mcp)`) or call it
 * with options (`mcp({ maxResultChars: 50_000 })`). To bind it to the MCP SDK's `Server`, use
 * `serveMcp` from `ignite-element/tools/mcp-server`.
 */
export const mcp = /* @__PURE__ */ configurable<McpOptions, McpDialect>(make);

const observationSchemas = new WeakMap<JsonSchema, McpOutputSchema>();

/**
 * `{ outputSchema }` for a command that declares its snapshot's schema. MCP's `structuredContent`
 * is the observation, so the schema is the observation's, with `snapshot` the declared one;
 * definitions stay at the root, where the declared schema's own `#/$defs/...` references point.
 */
function outputSchemaOf(tool: NeutralTool): { outputSchema?: McpOutputSchema } {
  const output = tool.outputSchema;
  if (output === undefined) return {};
  let schema = observationSchemas.get(output);
  if (schema === undefined) {
    const { $defs, definitions, $schema, ...declared } = output;
    // A schema the component declared is JSON; one that is not (a function in it, say) is
    // described as no schema at all rather than sent as something a client cannot read.
    const snapshot = isJsonObject(declared) ? declared : {};
    schema = {
      ...($schema === undefined ? {} : { $schema }),
      type: "object",
      properties: { snapshot, events: { type: "array" } },
      required: ["snapshot", "events"],
      ...($defs === undefined ? {} : { $defs }),
      ...(definitions === undefined ? {} : { definitions }),
    };
    observationSchemas.set(output, schema);
  }
  return { outputSchema: schema };
}

/** `{ annotations }` with the title and a hint for each effect flag declared, or nothing. */
function annotationsOf(tool: NeutralTool): { annotations?: McpToolAnnotations } {
  const annotations: McpToolAnnotations = {};
  if (tool.title !== undefined) annotations.title = tool.title;
  if (tool.readOnly !== undefined) annotations.readOnlyHint = tool.readOnly;
  if (tool.destructive !== undefined) annotations.destructiveHint = tool.destructive;
  if (tool.idempotent !== undefined) annotations.idempotentHint = tool.idempotent;
  return Object.keys(annotations).length === 0 ? {} : { annotations };
}

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
