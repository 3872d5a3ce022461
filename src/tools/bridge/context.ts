/**
 * The context a running command is given (`execute(command, input, context)`): the call's signal,
 * the person's answers when the approval policy asked questions, and `progress` and `log`, which
 * reach whoever called — the per-call `onProgress`/`onLog`, and the call's span. Made only for a
 * call someone can hear, stop or tell; every other call shares one inert context, so a call costs
 * nothing more when nobody listens.
 */
import { describe } from "../core/errors.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  Answers,
  ExecuteContext,
  LogEntry,
  LogLevel,
  NeutralToolCall,
  ProgressUpdate,
} from "../core/types.js";

// Every runtime the package supports has it; the ES library types do not.
declare const AbortController: new () => {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
};

/** Who hears a call's progress and log lines: the per-call options of `invoke` and its kin. */
export interface CallListeners {
  /**
   * Hears each `context.progress(…)` of the call's command while it runs. A listener that throws
   * is ignored.
   *
   * @default undefined
   */
  onProgress?: (update: ProgressUpdate, call: NeutralToolCall) => void;
  /**
   * Hears each `context.log(…)` of the call's command while it runs. A listener that throws is
   * ignored.
   *
   * @default undefined
   */
  onLog?: (entry: LogEntry, call: NeutralToolCall) => void;
}

/** The bridge's side of a context: answering the call, and stopping it. */
export interface CallContext extends ExecuteContext {
  /** The call was answered: from now on `progress` and `log` do nothing. */
  settle(): void;
  /** The call was cancelled or timed out: the signal aborts with `reason`. */
  cancel(reason: unknown): void;
}

const LEVELS: ReadonlySet<string> = new Set<LogLevel>([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
]);

/**
 * The context of a call that someone can hear or stop. Its methods are made when first read, so
 * a command that never touches them costs one object; read, they are bound (a command may take
 * `{ signal, progress }` apart).
 */
class LiveContext implements CallContext {
  private done = false;
  private stopped: { reason: unknown } | undefined;
  private controller: InstanceType<typeof AbortController> | undefined;
  private progressOf: ((update: ProgressUpdate) => void) | undefined;
  private logOf: ((level: LogLevel, message: string, data?: unknown) => void) | undefined;

  constructor(
    private readonly call: NeutralToolCall,
    private readonly listeners: CallListeners | undefined,
    private readonly span: TraceHandle | undefined,
    readonly answers: Answers | undefined,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopped.reason);
    }
    return this.controller.signal;
  }

  get progress(): (update: ProgressUpdate) => void {
    this.progressOf ??= (update) => {
      if (this.done) return;
      const read = progressOf(update);
      if (read === undefined) return;
      isolated(() => this.span?.progress?.(read));
      const listener = this.listeners?.onProgress;
      if (listener) isolated(() => listener(read, this.call));
    };
    return this.progressOf;
  }

  get log(): (level: LogLevel, message: string, data?: unknown) => void {
    this.logOf ??= (level, message, data) => {
      if (this.done || !LEVELS.has(level)) return;
      const text = typeof message === "string" ? message : describe(message);
      const entry: LogEntry =
        data === undefined ? { level, message: text } : { level, message: text, data };
      isolated(() => this.span?.log?.(entry));
      const listener = this.listeners?.onLog;
      if (listener) isolated(() => listener(entry, this.call));
    };
    return this.logOf;
  }

  settle(): void {
    this.done = true;
  }

  cancel(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = { reason };
    this.controller?.abort(reason);
  }
}

let never: AbortSignal | undefined;
const nothing = () => undefined;

/**
 * The context of a call nobody can hear or stop: one for all of them. Its signal never aborts
 * (made at first use, so a runtime without `AbortController` fails only if a command reads it).
 */
const INERT: CallContext = Object.freeze({
  get signal() {
    never ??= new AbortController().signal;
    return never;
  },
  progress: nothing,
  log: nothing,
  settle: nothing,
  cancel: nothing,
});

/**
 * The context for one call: the shared inert one when there is nothing to hear, stop or tell (no
 * signal, no timeout, no listener, no span, no person's answers), a live one otherwise.
 */
export function callContext(
  call: NeutralToolCall,
  stoppable: boolean,
  listeners: CallListeners | undefined,
  span: TraceHandle | undefined,
  answers?: Answers,
): CallContext {
  const heard =
    span !== undefined || listeners?.onProgress !== undefined || listeners?.onLog !== undefined;
  return stoppable || heard || answers ? new LiveContext(call, listeners, span, answers) : INERT;
}

/** The listeners `options` has, and only those (an option left `undefined` is not copied). */
export function listenersOf(options: CallListeners): CallListeners {
  const { onProgress, onLog } = options;
  const listeners: CallListeners = {};
  if (onProgress !== undefined) listeners.onProgress = onProgress;
  if (onLog !== undefined) listeners.onLog = onLog;
  return listeners;
}

/** `update` as plain data, or `undefined` when it is not a progress update. */
function progressOf(update: unknown): ProgressUpdate | undefined {
  if (typeof update !== "object" || update === null) return undefined;
  try {
    const { progress, total, message } = update as Record<string, unknown>;
    if (typeof progress !== "number" || !Number.isFinite(progress)) return undefined;
    const read: { progress: number; total?: number; message?: string } = { progress };
    if (typeof total === "number" && Number.isFinite(total)) read.total = total;
    if (typeof message === "string") read.message = message;
    return read;
  } catch {
    return undefined; // a getter that throws: not an update
  }
}

/** Runs a listener's or tracer's code; what it throws is theirs and does not reach the command. */
function isolated(run: () => void): void {
  try {
    run();
  } catch {
    // ignored, as documented: a listener must not break the command that reports to it
  }
}
