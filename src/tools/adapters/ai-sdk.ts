/**
 * `ignite-element/tools/ai-sdk`: a component as the tools of the Vercel AI SDK (5, 6 and 7), for
 * `generateText` and `streamText`. Every call goes through one bridge — validated, availability
 * re-checked at call time, one at a time in the order the AI SDK starts them — and every outcome,
 * an error included, reaches the model as the tool's output.
 */

import * as aiSdk from "ai";
import {
  type JSONSchema7,
  jsonSchema,
  type Tool,
  type ToolExecutionOptions,
  type ToolResultPart,
} from "ai";
import { err, ok, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
  AgentComponent,
  LogEntry,
  Observation,
  ProgressUpdate,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import type { WaitObservation } from "../live/wait.js";
import { PORTABLE_NAMES } from "../wire/names.js";
import type { WireTool } from "../wire/provider-tools.js";
import { AI_SDK_CARRIES, type AiSdkMajor, aiSdkContentItem } from "./ai-sdk-content.js";
import {
  type AdapterOptions,
  type AdapterTools,
  adapterTools,
  type FrameworkCall,
  frameworkCall,
} from "./shared.js";

/**
 * What a tool's `execute` returns, and so what `toolResults[].output` holds: the call's full
 * outcome as data — a command's snapshot and events, the wait tool's answer (with `wait`), or the
 * `ToolError`. The model reads it as text (`project`ed when set), an error as an error.
 */
export type AiSdkToolOutput<S = unknown, E extends RuntimeEvent = RuntimeEvent> =
  | { ok: true; snapshot: S; events: E[] }
  | AiSdkWaitOutput<S, E>
  | { ok: false; error: ToolError };

/**
 * The wait tool's output (`aiSdkTools(component, { wait: { maxMs } })`): what ended the wait, in
 * the words the model reads, the snapshot, the event waited for when one came, and the tools
 * available now. `"waited" in output` tells it from a command's.
 */
export interface AiSdkWaitOutput<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends WaitObservation<S, E> {
  ok: true;
}

/**
 * What the tools of `aiSdkTools(component, { preliminary: true })` yield: the final output, and
 * before it an `AiSdkToolRunning` each time the command reports.
 */
export type AiSdkStreamedOutput<S = unknown, E extends RuntimeEvent = RuntimeEvent> =
  | AiSdkToolOutput<S, E>
  | AiSdkToolRunning;

/**
 * A preliminary output, while the command runs: its latest progress and every log line so far.
 * AI SDK 6 and 7 stream each as a `tool-result` part with `preliminary: true` (a UI's tool part,
 * with `preliminary: true`, until the final output replaces it); the model never reads one.
 */
export interface AiSdkToolRunning {
  readonly ok?: undefined;
  readonly running: true;
  /** The last `context.progress(…)`, once there has been one. */
  readonly progress?: ProgressUpdate;
  /** Every `context.log(…)` of the call so far, in order. */
  readonly logs: readonly LogEntry[];
}

/** One command as an AI SDK tool. Its input is read by the bridge, so it is typed `unknown`. */
export type AiSdkTool<
  S = unknown,
  E extends RuntimeEvent = RuntimeEvent,
  Output extends AiSdkStreamedOutput<S, E> = AiSdkToolOutput<S, E>,
> = Tool<unknown, Output>;

/** What the model reads of one call: the AI SDK's tool output (text, or error text). */
export type AiSdkModelOutput = ToolResultPart["output"];

/** One entry of a `{ type: "content" }` output, as the AI SDK this package compiles against has it. */
type ContentItem = Extract<AiSdkModelOutput, { type: "content" }>["value"][number];

/** Options of `aiSdkTools`: those of `igniteTools`, and the cap on what the model reads back. */
export interface AiSdkToolsOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends AdapterOptions<S, E> {
  /**
   * Stream the command's progress and log lines as preliminary tool results (an async-iterable
   * `execute`, which AI SDK 6 and 7 turn into `tool-result` parts with `preliminary: true`), each
   * an `AiSdkToolRunning`; the tools' output type is then `AiSdkStreamedOutput`. Every call also
   * yields its final output once as a preliminary result first: that is how the AI SDK reads an
   * iterable.
   *
   * @default false
   */
  preliminary?: boolean;
}

/**
 * AI SDK 7's approval status for one call, as its `toolApproval` setting takes it: the policy's
 * `"ask"` is `"user-approval"`; anything else is `"not-applicable"` (a denial is the bridge's to
 * answer, as the tool's `Denied` error output).
 */
export type AiSdkApprovalStatus = "user-approval" | "not-applicable";

/**
 * One tool's entry of AI SDK 7's `toolApproval`: asks the approval policy about the call, once
 * per call (the verdict is kept for the call's run).
 */
export type AiSdkToolApproval = (
  input: unknown,
  options: { toolCallId: string },
) => Promise<AiSdkApprovalStatus>;

/** The things `generateText` and `streamText` take. */
export interface AiSdkTools<
  S = unknown,
  E extends RuntimeEvent = RuntimeEvent,
  Output extends AiSdkStreamedOutput<S, E> = AiSdkToolOutput<S, E>,
> {
  /**
   * Every declared command, keyed by a name every provider accepts (`todo.add` becomes
   * `todo_add_…`). Pass it as `tools`.
   */
  readonly tools: Record<string, AiSdkTool<S, E, Output>>;
  /**
   * The tools available now, by the live manifest: pass it as `prepareStep`, so a gated command
   * is offered only while it is available. To keep tools of your own active, add their names.
   */
  readonly prepareStep: () => { activeTools: string[] };
  /**
   * AI SDK 7's `toolApproval`, one entry per tool, from `approve`'s policy (empty without one,
   * and on AI SDK 5). The tools' own `needsApproval` asks the same policy, and AI SDK 7 honours
   * it for every tool its `toolApproval` does not name; pass this when you set `toolApproval`
   * yourself (`{ ...ignite.toolApproval, ...yours }`), since AI SDK 7 then reads that setting
   * first. On AI SDK 6, leave it out: `needsApproval` is its way.
   */
  readonly toolApproval: Record<string, AiSdkToolApproval>;
}

/**
 * A component as AI SDK tools: `generateText({ model, tools, prepareStep, stopWhen })`. Each
 * tool's `execute` goes through one `igniteTools` bridge with the AI SDK's `toolCallId` and
 * `abortSignal`; a `ToolError` is returned to the model as the tool's error output, never
 * thrown. The AI SDK's own schema check is passed through, so the model reads the bridge's
 * issues. With `approve`, a call the policy asks about is held by the AI SDK (6 and 7: the tools'
 * `needsApproval`, and on 7 `toolApproval` as well) with a `tool-approval-request`, and runs once
 * a `tool-approval-response` approves it; a call the policy denies is answered `Denied`. Throws a
 * `TypeError` here when the component's schema is malformed.
 *
 * @example
 * ```ts
 * const { tools, prepareStep } = aiSdkTools(thermostat);
 * const result = await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(5), prompt });
 * ```
 */
export function aiSdkTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: AiSdkToolsOptions<S, E> & { preliminary: false },
): AiSdkTools<S, E>;
/**
 * `aiSdkTools` whose tools stream the command's progress and log lines as preliminary results
 * (`AiSdkToolRunning`) before the final output.
 *
 * @example
 * ```ts
 * const { tools } = aiSdkTools(deploy, { preliminary: true });
 * for await (const part of streamText({ model, tools, prompt }).fullStream) {
 *   if (part.type === "tool-result" && part.preliminary) showProgress(part.output);
 * }
 * ```
 */
export function aiSdkTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: AiSdkToolsOptions<S, E> & { preliminary: boolean },
): AiSdkTools<S, E, AiSdkStreamedOutput<S, E>>;
/** A component as AI SDK tools: see the first signature. */
export function aiSdkTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options?: AiSdkToolsOptions<S, E>,
): AiSdkTools<S, E>;
export function aiSdkTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: AiSdkToolsOptions<S, E> = {},
): AiSdkTools<S, E> | AiSdkTools<S, E, AiSdkStreamedOutput<S, E>> {
  // AI SDK 6 and 7 ask the person themselves (`needsApproval`; on 7 `toolApproval` too) before
  // they run a call; the bridge then takes the policy's "ask" as approved, and still answers
  // "deny".
  // AI SDK 5 has no approvals: there "ask" stays a denial, never a call run unasked.
  const adapter = adapterTools(
    component,
    options,
    { names: PORTABLE_NAMES },
    HAS_APPROVALS,
    AI_SDK_CARRIES,
    "aiSdkTools",
  );
  const approve = HAS_APPROVALS ? options.approve : undefined;
  const preliminary = options.preliminary === true;
  // The AI SDK hands over the input already decoded.
  const callOf = (input: unknown, id: string | undefined) => frameworkCall(input, id, "empty");

  const tools: Record<string, AiSdkTool<S, E, AiSdkStreamedOutput<S, E>>> = {};
  const toolApproval: Record<string, AiSdkToolApproval> = {};
  for (const wire of adapter.tools) {
    const { description, title } = wire.tool;
    // The AI SDK's type for a JSON Schema object; `parameters` passed the meta-schema check.
    const schema = wire.parameters as JSONSchema7;
    tools[wire.name] = {
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      // Accept whatever the model sent: the bridge validates, and its issues are what the model
      // must read to fix its call.
      inputSchema: jsonSchema<unknown>(schema, { validate: (value) => ({ success: true, value }) }),
      ...(approve === undefined
        ? {}
        : {
            needsApproval: (input: unknown, { toolCallId }: { toolCallId: string }) =>
              adapter.asks(wire, callOf(input, toolCallId)),
          }),
      execute: preliminary
        ? (input: unknown, { toolCallId, abortSignal }: ToolExecutionOptions) =>
            running(adapter, wire, callOf(input, toolCallId), abortSignal)
        : async (input: unknown, { toolCallId, abortSignal }: ToolExecutionOptions) =>
            outputOf(
              await adapter.invoke(wire, callOf(input, toolCallId), { signal: abortSignal }),
            ),
      toModelOutput: (given: ModelOutputOptions<S, E> | AiSdkStreamedOutput<S, E>) => {
        const { output, input, toolCallId } = readModelOutputOptions(given);
        // The AI SDK gives the model only final outputs; a preliminary one is said as such.
        if (output.ok === undefined) return { type: "text", value: STILL_RUNNING };
        const { text, isError, parts } = adapter.text(
          wire,
          callOf(input, toolCallId),
          resultOf(output),
        );
        if (parts === undefined) return { type: isError ? "error-text" : "text", value: text };
        // With content parts (`contentParts()`): the text, then each part in this major's form.
        // AI SDK 7's `file` entry is not among those of the AI SDK this package compiles against
        // (6), so the entries take 6's type here; an application on 7 reads them through 7's.
        const value = parts.map((part) =>
          aiSdkContentItem(part, MAJOR),
        ) as unknown as ContentItem[];
        return { type: "content", value: [{ type: "text", text }, ...value] };
      },
    };
    if (approve !== undefined) {
      toolApproval[wire.name] = async (input, { toolCallId }) =>
        (await adapter.asks(wire, callOf(input, toolCallId))) ? "user-approval" : "not-applicable";
    }
  }
  return {
    tools,
    prepareStep: () => ({ activeTools: adapter.availableNames() }),
    toolApproval,
  };
}

/** Whether this AI SDK asks for approvals (`needsApproval`, AI SDK 6 and 7): it has its errors. */
const HAS_APPROVALS = "InvalidToolApprovalError" in aiSdk;

/** The installed major: 7 is the first with `uploadFile`, 6 the first with approvals. */
const MAJOR: AiSdkMajor = "uploadFile" in aiSdk ? 7 : HAS_APPROVALS ? 6 : 5;

/** What AI SDK 6 and 7 pass to `toModelOutput`; AI SDK 5 passes the output alone. */
interface ModelOutputOptions<S, E extends RuntimeEvent> {
  toolCallId: string;
  input: unknown;
  output: AiSdkStreamedOutput<S, E>;
}

function readModelOutputOptions<S, E extends RuntimeEvent>(
  given: ModelOutputOptions<S, E> | AiSdkStreamedOutput<S, E>,
): { output: AiSdkStreamedOutput<S, E>; input?: unknown; toolCallId?: string } {
  // An output never has a `toolCallId`: that key means AI SDK 6's (and 7's) options object.
  return "toolCallId" in given ? given : { output: given };
}

function outputOf<S, E extends RuntimeEvent>(
  outcome: Result<Observation<S, E>, ToolError>,
): AiSdkToolOutput<S, E> {
  return outcome.ok ? { ok: true, ...outcome.value } : { ok: false, error: outcome.error };
}

const STILL_RUNNING = "The command is still running.";

/**
 * One call as the AI SDK reads an async-iterable `execute`: an `AiSdkToolRunning` each time the
 * command reports progress or a log line (only the latest waits, when they come faster than the
 * AI SDK reads), then the final output.
 */
async function* running<S, E extends RuntimeEvent>(
  adapter: AdapterTools<S, E>,
  wire: WireTool,
  call: FrameworkCall,
  signal: AbortSignalLike | undefined,
): AsyncGenerator<AiSdkStreamedOutput<S, E>> {
  let progress: ProgressUpdate | undefined;
  const logs: LogEntry[] = [];
  let latest: AiSdkToolRunning | undefined;
  let wake: (() => void) | undefined;
  const report = () => {
    latest =
      progress === undefined
        ? { running: true, logs: [...logs] }
        : { running: true, progress, logs: [...logs] };
    wake?.();
  };
  let final: AiSdkToolOutput<S, E> | undefined;
  const answered = adapter
    .invoke(wire, call, {
      signal,
      onProgress: (update) => {
        progress = update;
        report();
      },
      onLog: (entry) => {
        logs.push(entry);
        report();
      },
    })
    .then((outcome) => {
      final = outputOf(outcome);
      wake?.();
    });
  while (final === undefined) {
    if (latest !== undefined) {
      const now = latest;
      latest = undefined;
      yield now;
      continue;
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  await answered;
  yield final;
}

/** The outcome an output was made from: a wait's answer keeps what it says of the wait. */
function resultOf<S, E extends RuntimeEvent>(
  output: AiSdkToolOutput<S, E>,
): Result<Observation<S, E>, ToolError> {
  if (!output.ok) return err(output.error);
  const { ok: _ok, ...observation } = output;
  return ok(observation);
}
