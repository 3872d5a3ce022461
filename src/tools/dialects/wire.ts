/**
 * The shared machinery of every provider dialect: the manifest as the provider must see it
 * (safe names, object-rooted schemas, optionally strict) and provider calls mapped back to it.
 */
import type { JsonSchema, NeutralManifest, NeutralTool, NeutralToolCall } from "../types.js";
import { type NameRule, providerNames } from "./names.js";
import type { StrictRule } from "./strict.js";

export {
  capped,
  DEFAULT_MAX_RESULT_CHARS,
  errorText,
  resultText,
  toJsonText,
  toJsonValue,
} from "./encode.js";
export { GEMINI_NAMES, MCP_NAMES, type NameRule, OPENAI_NAMES } from "./names.js";
export type { StrictRule } from "./strict.js";

/** Options every dialect takes. */
export interface ResultOptions {
  /** The cap on the text of one result, in characters; default 20 000 (about 5 000 tokens). */
  maxResultChars?: number;
}

/** One tool as a provider sees it. */
export interface WireTool {
  readonly tool: NeutralTool;
  /** The provider-safe name. */
  readonly name: string;
  /** Whether the input is wrapped as `{ value }` because its root is not a plain object. */
  readonly wrapped: boolean;
  /** Whether `parameters` is in strict form. */
  readonly strict: boolean;
  /** The object-rooted schema the provider is given. */
  readonly parameters: JsonSchema;
}

/** How a dialect wants the manifest presented. */
export interface WireOptions {
  readonly names: NameRule;
  /** Emit strict-mode schemas, by this provider's rule, where strict mode can express them. */
  readonly strict?: StrictRule | undefined;
}

/** The manifest as a provider sees it, and the way back from a provider name. */
export interface WireManifest {
  readonly tools: readonly WireTool[];
  readonly byName: ReadonlyMap<string, WireTool>;
  /** The strict mode the tools were presented in, to read strict calls back. */
  readonly strict: StrictRule | undefined;
}

/** `{ description }` when the command has one, else nothing: no provider wants an empty one. */
export function descriptionOf(tool: WireTool): { description?: string } {
  return tool.tool.description === undefined ? {} : { description: tool.tool.description };
}

/** The manifest with provider-safe names, wrapped scalar inputs and (optionally) strict schemas. */
export function toWire(manifest: NeutralManifest, options: WireOptions): WireManifest {
  const names = providerNames(manifest, options.names);
  const tools = manifest.map((tool): WireTool => {
    const wrapped = needsWrapping(tool.inputSchema);
    const object = wrapped ? wrap(tool.inputSchema) : tool.inputSchema;
    const strict = options.strict?.toStrict(object);
    return {
      tool,
      name: names.get(tool.name) ?? tool.name,
      wrapped,
      strict: strict !== undefined,
      parameters: strict ?? object,
    };
  });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return { tools, byName, strict: options.strict };
}

// Providers take only an object at the root, and Anthropic rejects a root union even on one.
const ROOT_COMBINATORS = ["oneOf", "anyOf", "allOf", "not", "enum", "const", "if", "$ref"];

/** Whether a schema's root is something other than a plain object and must be wrapped. */
export function needsWrapping(schema: JsonSchema): boolean {
  return schema.type !== "object" || ROOT_COMBINATORS.some((keyword) => keyword in schema);
}

const cache = new WeakMap<JsonSchema, JsonSchema>();

function wrap(schema: JsonSchema): JsonSchema {
  let wrapped = cache.get(schema);
  if (!wrapped) {
    // Definitions stay at the root, where the schema's own `#/$defs/...` references point.
    const { $defs, definitions, $schema, ...value } = schema;
    wrapped = {
      ...($schema === undefined ? {} : { $schema }),
      type: "object",
      properties: { value },
      required: ["value"],
      additionalProperties: false,
      ...($defs === undefined ? {} : { $defs }),
      ...(definitions === undefined ? {} : { definitions }),
    };
    cache.set(schema, wrapped);
  }
  return wrapped;
}

/** A tool call as a provider wrote it. */
export interface ProviderCall {
  id?: string;
  name: string;
  /** The decoded arguments (always an object for a well-formed call). */
  args: unknown;
  /** Why the arguments could not be decoded, when they could not. */
  argsError?: string;
}

/**
 * The neutral call for a provider call: the command name mapped back through the manifest, a
 * wrapped input unwrapped, strict-mode nulls removed. A name that was never offered is kept as
 * it is, so it resolves to `UnknownCommand` — never to a neighbour.
 */
export function toNeutralCall(wire: WireManifest, call: ProviderCall): NeutralToolCall {
  const tool = wire.byName.get(call.name);
  if (!tool) return neutralCall(call.id, call.name, undefined, call.args, call.argsError);
  const { name } = tool.tool;
  const toolName = tool.name === name ? undefined : tool.name;
  if (call.argsError !== undefined) {
    return neutralCall(call.id, name, toolName, undefined, call.argsError);
  }
  // Optionality is read from the schema before strict mode rewrote it.
  const args =
    tool.strict && wire.strict ? wire.strict.restore(objectSchemaOf(tool), call.args) : call.args;
  if (!tool.wrapped) return neutralCall(call.id, name, toolName, args, undefined);
  if (isRecord(args) && Object.hasOwn(args, "value")) {
    return neutralCall(call.id, name, toolName, args.value, undefined);
  }
  const unwrapped = 'arguments must be an object { "value": ... }';
  return neutralCall(call.id, name, toolName, undefined, unwrapped);
}

// Assigned field by field rather than spread: a turn builds one per call, on the hot path. The
// optional fields are present only when set.
function neutralCall(
  id: string | undefined,
  name: string,
  toolName: string | undefined,
  input: unknown,
  inputError: string | undefined,
): NeutralToolCall {
  const call: NeutralToolCall = { name, input };
  if (id !== undefined) call.id = id;
  if (toolName !== undefined) call.toolName = toolName;
  if (inputError !== undefined) call.inputError = inputError;
  return call;
}

function objectSchemaOf(tool: WireTool): JsonSchema {
  return tool.wrapped ? wrap(tool.tool.inputSchema) : tool.tool.inputSchema;
}

/** How arguments sent as JSON text are read. */
export interface ArgumentOptions {
  /** The response hit its output limit during this call, so blank arguments are not `{}`. */
  cutOff?: boolean;
}

const CUT_OFF = "arguments were cut off by the output limit; send the call again in full";

/**
 * Arguments a provider sends as JSON text, as an object or the reason they are not one — never a
 * throw. `""` (sent for no-parameter tools by several servers) is `{}` unless the call was cut
 * off; arguments that arrive already decoded are read by `objectArguments`.
 */
export function decodeArguments(
  text: unknown,
  options: ArgumentOptions = {},
): Pick<ProviderCall, "args" | "argsError"> {
  if (typeof text !== "string") return objectArguments(text);
  if (text.trim() === "") {
    return options.cutOff ? { args: undefined, argsError: CUT_OFF } : { args: {} };
  }
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return {
      args: undefined,
      argsError: "arguments were not valid JSON (possibly cut off); send a complete JSON object",
    };
  }
  return objectArguments(args);
}

/**
 * Arguments a provider sends as an object. `absent: "empty"` is for providers that leave the
 * arguments out for a tool without parameters.
 */
export function objectArguments(
  value: unknown,
  absent?: "empty",
): Pick<ProviderCall, "args" | "argsError"> {
  if (isRecord(value)) return { args: value };
  if (value === undefined && absent === "empty") return { args: {} };
  return objectRequired(value);
}

/** The error for arguments that are missing or are something other than an object. */
export function objectRequired(args: unknown): Pick<ProviderCall, "args" | "argsError"> {
  if (args === undefined) {
    return { args: undefined, argsError: "arguments are missing; send a JSON object" };
  }
  return {
    args: undefined,
    argsError: `arguments must be a JSON object, not ${describeValue(args)}`,
  };
}

/**
 * The `TypeError` a dialect throws when it is handed something that is not its provider's
 * response at all — a programming error, unlike anything a model writes. It says what to pass.
 */
export function shapeError(method: string, expected: string, value: unknown): TypeError {
  return new TypeError(
    `${method} expects ${expected}, got ${describeValue(value, "an object of another shape")}`,
  );
}

/** A few words for what a value is. */
export function describeValue(value: unknown, plainObject = "an object"): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  if (typeof Reflect.get(value, "then") === "function") return "a Promise (await it first)";
  const maker: unknown = Reflect.get(value, "constructor");
  if (typeof maker !== "function" || maker.name === "Object") return plainObject;
  // A fetch `Response` is the likeliest mistake: its body has not been read yet.
  if (maker.name === "Response") {
    return "a Response (pass `await response.json()`)";
  }
  return `a ${maker.name}`;
}

/**
 * A dialect export that is both the default dialect and a factory for configured ones:
 * `igniteTools(c, openai)` and `igniteTools(c, openai({ strict: true }))` both work.
 */
export function configurable<Options, Dialect extends object>(
  make: (options?: Options) => Dialect,
): Dialect & ((options?: Options) => Dialect) {
  return Object.assign((options?: Options) => make(options), make());
}

/** Whether `value` is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
