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

/** Throws a `TypeError` unless `component` has `getSchema()` and `execute()`. */
export function checkComponent(component: AgentComponent<unknown, RuntimeEvent>): void {
  // Whatever its type says: JavaScript callers pass anything.
  const value: unknown = component;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) {
    throw new TypeError(
      `igniteTools(component) expects an object with getSchema() and execute(), not ${String(value)}`,
    );
  }
  for (const method of ["getSchema", "execute"] as const) {
    if (typeof component[method] !== "function") {
      throw new TypeError(`igniteTools: the component has no ${method}() method`);
    }
  }
  const { canExecute } = component;
  if (canExecute !== undefined && canExecute !== null && typeof canExecute !== "function") {
    throw new TypeError("igniteTools: the component's canExecute is not a function");
  }
}

/** The shell's options, checked: a bad one is a `TypeError` at construction. */
export function checkOptions<Project>(options: {
  timeoutMs?: number;
  project?: Project;
  onWarning?: WarningSink;
}): { timeoutMs: number | undefined; project: Project | undefined } {
  const { timeoutMs, project, onWarning } = options;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs >= 0)) {
    throw new TypeError(
      `igniteTools: timeoutMs must be a number of milliseconds ≥ 0 (or Infinity for none), not ${String(timeoutMs)}`,
    );
  }
  for (const [key, value] of [
    ["project", project],
    ["onWarning", onWarning],
  ] as const) {
    if (value !== undefined && typeof value !== "function") {
      throw new TypeError(`igniteTools: ${key} must be a function`);
    }
  }
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
      message: `Command ${JSON.stringify(tool.name)} is gated, but the component has no canExecute(): it is offered in every state.`,
    });
  }
  if (hasCanExecute && !gated && declared.length > 0) {
    warn({
      code: "canExecute-without-gated",
      message:
        "The component has canExecute() but no gated command, so canExecute() is never asked. Mark the commands whose availability depends on the state with `gated: true`.",
    });
  }
}
