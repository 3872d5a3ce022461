/**
 * What the bridge checks of the application's own code: the component and the options at
 * construction (a mistake there is a `TypeError`, never a model's problem; the options it runs
 * with come back with the default validator filled in), the gating the component declares, and
 * the warnings channel that reports what is odd but not fatal.
 */
import {
  aCount,
  aFunction,
  anObject,
  aTimeLimit,
  badArgument,
  check,
  checkOptional,
  hasMethods,
  oneOf,
} from "../core/checks.js";
import { describe } from "../core/errors.js";
import type { CheckedOptions, CoreOptions } from "../core/manifest.js";
import type { ToolTracer } from "../core/tracing.js";
import type {
  AgentComponent,
  NeutralManifest,
  RuntimeEvent,
  ToolOffer,
  ToolWarning,
  WarningSink,
} from "../core/types.js";
import { describeValue } from "../wire/describe-value.js";
import { withDefaults } from "./default-options.js";
import { isLayer, type Layer } from "./pipeline.js";
import { LAYER_OPTIONS } from "./types.js";

const WHO = "igniteTools";

/** The application's mistake, found at construction. */
export function misuse(problem: string): never {
  throw new TypeError(`${WHO}: ${problem}`);
}

/** Throws a `TypeError` unless `component` has `getSchema()`, `execute()` and no odd `canExecute`. */
export function checkComponent(component: AgentComponent<unknown, RuntimeEvent>): void {
  // Whatever its type says: JavaScript callers pass anything.
  const value: unknown = component;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) {
    misuse("the component must be an object with getSchema() and execute()");
  }
  for (const method of ["getSchema", "execute", "canExecute"] as const) {
    const found = component[method];
    if (typeof found !== "function" && (method !== "canExecute" || found != null)) {
      misuse(`component.${method} is not a function`);
    }
  }
}

/** The bridge's own options, checked, and the layers it is given, in the order they join. */
export interface CheckedBridgeOptions<Project> {
  timeoutMs: number | undefined;
  project: Project | undefined;
  offer: ToolOffer;
  layers: Layer[];
  /** The options the core runs with: the input limits and the validator, the default if none. */
  checked: CheckedOptions;
}

/** What `igniteTools` takes second: a dialect, or nothing for neutral calls. */
const DIALECT = hasMethods<object>(
  "a dialect (such as openai, from its entrypoint) or undefined",
  "toToolDefs",
  "parseToolCalls",
  "toToolResult",
);

/** What `validator` takes: a validator adapter of the package, or one of your own. */
const VALIDATOR = hasMethods<object>("an InputValidator", "checkSchema", "compile");

/**
 * The dialect `igniteTools` is given, checked; options given in its place (a common slip when
 * no dialect is wanted) are told where they go.
 */
export function checkDialect(dialect: unknown): void {
  if (dialect === undefined || DIALECT.test(dialect)) return;
  const options = typeof dialect === "object" && dialect !== null && !("toToolDefs" in dialect);
  throw badArgument(
    "igniteTools",
    "dialect",
    dialect,
    `${DIALECT.allowed}${options ? " (options go third: igniteTools(component, undefined, options))" : ""}`,
  );
}

/** The options of `igniteTools`, checked: a bad one is a `TypeError` at construction. */
export function checkOptions<Project>(
  options: CoreOptions & {
    timeoutMs?: number;
    project?: Project;
    onWarning?: WarningSink;
    offer?: unknown;
  },
): CheckedBridgeOptions<Project> {
  check(WHO, "options", options satisfies unknown, anObject);
  const { timeoutMs, project, onWarning, offer } = options;
  checkOptional(WHO, "timeoutMs", timeoutMs, aTimeLimit);
  checkOptional(WHO, "project", project, aFunction);
  checkOptional(WHO, "onWarning", onWarning, aFunction);
  const read = (key: string): unknown => Reflect.get(options, key);
  checkOptional(WHO, "maxInputBytes", read("maxInputBytes"), aCount);
  checkOptional(WHO, "maxInputDepth", read("maxInputDepth"), aCount);
  checkOptional(WHO, "validator", read("validator"), VALIDATOR);
  return {
    // No limit at all needs no timer at all.
    timeoutMs: timeoutMs === Number.POSITIVE_INFINITY ? undefined : timeoutMs,
    project,
    offer: offerOf(offer),
    layers: layersOf(options),
    checked: withDefaults(options),
  };
}

/**
 * The layers among `options`, in the order of `LAYER_OPTIONS`; a value that is not the layer its
 * option takes (a plain policy, `{ maxMs }`: the forms before layers) is a `TypeError` saying
 * which function makes it.
 */
function layersOf(options: object): Layer[] {
  const layers: Layer[] = [];
  for (const [key, { layer, madeBy }] of Object.entries(LAYER_OPTIONS)) {
    const value: unknown = Reflect.get(options, key);
    if (value === undefined) continue;
    if (!isLayer(value) || value.layer !== layer) {
      misuse(`${key} takes what ${madeBy} makes, not ${describeValue(value)} (see CHANGELOG.md)`);
    }
    layers.push(value);
  }
  return layers;
}

/** The `offer` option, checked: anything else is the application's mistake, said now. */
function offerOf(offer: unknown): ToolOffer {
  return checkOptional(WHO, "offer", offer, oneOf("available", "declared")) ?? "available";
}

/**
 * Whether a command is available now, read fresh on every use — availability is a property of
 * the component's state right now — or `undefined` for a component without `canExecute`. A throw
 * fails closed, and the application hears of it.
 */
export function gateOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  warn: WarningSink,
): () => ((name: string) => boolean) | undefined {
  const gate = (name: string) => {
    try {
      return component.canExecute?.(name) === true;
    } catch (error) {
      warn({
        code: "canExecute-threw",
        command: name,
        message: `canExecute(${JSON.stringify(name)}) threw (${describe(error)}): the command is unavailable.`,
      });
      return false;
    }
  };
  return () => (typeof component.canExecute === "function" ? gate : undefined);
}

/**
 * `sink`, hearing each distinct warning once: a warning raised every turn (a dialect's fallback,
 * a `canExecute` that keeps throwing) reaches the application the first time only. A sink that
 * throws is ignored: a log must not break a call.
 */
export function onceEach(sink: WarningSink | undefined): WarningSink {
  if (sink === undefined) return () => undefined;
  const heard = new Set<string>();
  return (warning: ToolWarning) => {
    // A throw's message varies from call to call; the command that throws does not.
    const key =
      warning.code === "canExecute-threw"
        ? `${warning.code}\u0000${warning.command}`
        : `${warning.code}\u0000${warning.command ?? ""}\u0000${warning.message}`;
    if (heard.has(key)) return;
    heard.add(key);
    try {
      sink(warning);
    } catch {
      // ignored, as documented
    }
  };
}

/**
 * Reports gating that cannot work as declared: a gated command without `canExecute` (offered in
 * every state) and a `canExecute` without any gated command (never asked).
 */
export function gatingWarnings(
  declared: NeutralManifest,
  hasCanExecute: boolean,
  warn: WarningSink,
): void {
  let gated = false;
  for (const tool of declared) {
    if (!tool.gated) continue;
    gated = true;
    if (hasCanExecute) return;
    warn({
      code: "gated-without-canExecute",
      command: tool.name,
      message: `Command ${JSON.stringify(tool.name)} is gated but there is no canExecute(): it is always offered.`,
    });
  }
  if (hasCanExecute && !gated && declared.length > 0) {
    warn({
      code: "canExecute-without-gated",
      message: "canExecute() is never asked: no command is `gated: true`.",
    });
  }
}

/** A `tracer` option of `who`: a `ToolTracer` (an OpenTelemetry `Tracer` goes in through `otelTracer`). */
export function checkTracer(tracer: unknown, who = WHO): ToolTracer {
  if (TOOL_TRACER.test(tracer)) return tracer;
  if (hasMethods<object>("", "startSpan").test(tracer)) {
    throw new TypeError(
      `${who}: tracer is an OpenTelemetry Tracer as it is: give otelTracer(tracer), from "ignite-element/tools/otel"`,
    );
  }
  throw badArgument(who, "tracer", tracer, TOOL_TRACER.allowed);
}

const TOOL_TRACER = /* @__PURE__ */ hasMethods<ToolTracer>(
  "a ToolTracer (an object with start)",
  "start",
);
