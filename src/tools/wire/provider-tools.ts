/**
 * The shared machinery of every provider dialect: the manifest as the provider must see it
 * (safe names, object-rooted schemas, optionally strict) and provider calls mapped back to it.
 */
import { isRecord } from "../core/json.js";
import type {
  JsonSchema,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  ToolDefsContext,
} from "../core/types.js";
import { type NameRule, providerNames } from "./names.js";
import type { StrictRule } from "./strict.js";
import { warnerOf } from "./warnings.js";

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
  /**
   * Whether a root of `type: "object"` keeps every keyword beside it (MCP's `inputSchema` is a
   * full JSON Schema 2020-12 object schema, SEP-2106); otherwise unions, conditions and
   * references at the root are wrapped as `{ value }`, as model providers require.
   */
  readonly objectRootKeywords?: boolean;
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

/**
 * The manifest with provider-safe names, wrapped scalar inputs and (optionally) strict schemas.
 *
 * Names are computed over `context.declared` (every declared command; the manifest itself when
 * it is absent), so a provider name means one command whatever is available: pass the same
 * declared commands when offering tools and when reading calls. With `context.warn`, each tool
 * sent under another name (`name-mapped`) or without the strict mode asked for
 * (`strict-fallback`) is reported.
 */
export function toWire(
  manifest: NeutralManifest,
  options: WireOptions,
  context?: ToolDefsContext,
): WireManifest {
  // A frozen manifest cannot change (the bridge freezes the ones it keeps between turns): its
  // wire form, read back call after call, is made once.
  const memo = context === undefined && Object.isFrozen(manifest);
  let byOptions = memo ? wires.get(manifest) : undefined;
  const known = byOptions?.get(options);
  if (known) return known;
  const wire = wireOf(manifest, options, context);
  if (memo) {
    if (!byOptions) {
      byOptions = new WeakMap();
      wires.set(manifest, byOptions);
    }
    byOptions.set(options, wire);
  }
  return wire;
}

const wires = new WeakMap<NeutralManifest, WeakMap<WireOptions, WireManifest>>();
const namesOf = new WeakMap<NeutralManifest, WeakMap<NameRule, Map<string, string>>>();

/** The provider names over `declared`, made once per frozen manifest and rule. */
function declaredNames(declared: NeutralManifest, rule: NameRule): Map<string, string> {
  if (!Object.isFrozen(declared)) return providerNames(declared, rule);
  let byRule = namesOf.get(declared);
  let names = byRule?.get(rule);
  if (!names) {
    names = providerNames(declared, rule);
    if (!byRule) {
      byRule = new WeakMap();
      namesOf.set(declared, byRule);
    }
    byRule.set(rule, names);
  }
  return names;
}

function wireOf(
  manifest: NeutralManifest,
  options: WireOptions,
  context: ToolDefsContext | undefined,
): WireManifest {
  const declared = context?.declared;
  let names = declaredNames(declared ?? manifest, options.names);
  // Offered commands are declared ones; anything else is named over both, as it always was.
  if (declared && !manifest.every((tool) => names.has(tool.name))) {
    names = providerNames([...declared, ...manifest], options.names);
  }
  const wired = manifest.map((tool) => ({ tool, object: objectSchema(tool.inputSchema, options) }));
  const forms = options.strict?.select(wired.map(({ object }) => object));
  const warn = warnerOf(context);
  const tools = wired.map(({ tool, object }, index): WireTool => {
    const name = names.get(tool.name) ?? tool.name;
    if (name !== tool.name) {
      warn("name-mapped", tool.name, `${quote(tool.name)} is offered as ${quote(name)}: ${MAPPED}`);
    }
    const form = forms?.[index];
    if (form && "reason" in form) {
      warn("strict-fallback", tool.name, `${quote(tool.name)} is sent non-strict: ${form.reason}.`);
    }
    const strict = form !== undefined && "schema" in form;
    const parameters = strict ? form.schema : object;
    return { tool, name, wrapped: object !== tool.inputSchema, strict, parameters };
  });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return { tools, byName, strict: options.strict };
}

const MAPPED = "the provider does not accept the command's own name as a tool name.";

function quote(name: string): string {
  return JSON.stringify(name);
}

// Providers take only an object at the root, and Anthropic rejects a root union even on one.
const ROOT_COMBINATORS = ["oneOf", "anyOf", "allOf", "not", "enum", "const", "if", "$ref"];

/**
 * Whether a schema's root is something other than a plain object and must be wrapped; with
 * `objectRoot`, any root of `type: "object"` is kept, whatever keywords stand beside it.
 */
export function needsWrapping(schema: JsonSchema, objectRoot?: boolean): boolean {
  return (
    schema.type !== "object" ||
    (!objectRoot && ROOT_COMBINATORS.some((keyword) => keyword in schema))
  );
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
    tool.strict && wire.strict
      ? wire.strict.restore(
          tool.wrapped ? wrap(tool.tool.inputSchema) : tool.tool.inputSchema,
          call.args,
        )
      : call.args;
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

/** The object-rooted schema a provider is given for `schema`: itself, or wrapped as `{ value }`. */
function objectSchema(schema: JsonSchema, options: WireOptions): JsonSchema {
  return needsWrapping(schema, options.objectRootKeywords) ? wrap(schema) : schema;
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
