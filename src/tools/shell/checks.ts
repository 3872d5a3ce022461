/**
 * What the shell checks of the application's own code: the component and the options at
 * construction (a mistake there is a `TypeError`, never a model's problem), the gating the
 * component declares, and the warnings channel that reports what is odd but not fatal.
 */
import type {
  AgentComponent,
  NeutralManifest,
  RuntimeEvent,
  ToolWarning,
  WarningSink,
} from "../core/types.js";

/** The application's mistake, found at construction. */
export function misuse(problem: string): never {
  throw new TypeError(`igniteTools: ${problem}`);
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

/** The shell's options, checked: a bad one is a `TypeError` at construction. */
export function checkOptions<Project>(options: {
  timeoutMs?: number;
  project?: Project;
  onWarning?: WarningSink;
  approve?: unknown;
  tracer?: unknown;
}): { timeoutMs: number | undefined; project: Project | undefined } {
  const { timeoutMs, project, onWarning, approve, tracer } = options;
  if (approve !== undefined && typeof approve !== "function") misuse("approve is not a function");
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs >= 0)) {
    misuse(`timeoutMs must be a number ≥ 0 (Infinity for none), not ${String(timeoutMs)}`);
  }
  if (project !== undefined && typeof project !== "function") misuse("project is not a function");
  if (onWarning !== undefined && typeof onWarning !== "function") {
    misuse("onWarning is not a function");
  }
  if (tracer !== undefined) checkTracer(tracer);
  // No limit at all needs no timer at all.
  return { timeoutMs: timeoutMs === Number.POSITIVE_INFINITY ? undefined : timeoutMs, project };
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

/** A `tracer` option: a `ToolTracer`, or an OpenTelemetry `Tracer` as it is. */
export function checkTracer(tracer: unknown): void {
  const has = (method: string) =>
    typeof tracer === "object" &&
    tracer !== null &&
    typeof Reflect.get(tracer, method) === "function";
  if (!has("start") && !has("startSpan")) {
    misuse(
      "tracer is neither an OpenTelemetry Tracer (no startSpan method) nor a ToolTracer (no start method)",
    );
  }
}
