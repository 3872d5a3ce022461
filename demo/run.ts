/**
 * The demo itself, independent of the command line: one room, one bridge, `runToolLoop`, and the
 * printer fed from the loop's steps. Which model it talks to is a `DemoSpec`; `pickDemo` chooses
 * one from an environment the caller passes in, so tests never touch `process.env`.
 */
import {
  type ApprovalPolicy,
  approval,
  approveCall,
  type ContentPart,
  changeNotes,
  contentParts,
  denyCall,
  igniteTools,
  type LoopDialect,
  type ModelRequest,
  type NeutralToolCall,
  type Observation,
  type PendingCall,
  resumeToolLoop,
  runToolLoop,
  type ToolLoopState,
  type ToolLoopStep,
  type ToolLoopStop,
  type Tracing,
  waitTool,
} from "ignite-element/tools";
import { type AnthropicMessage, anthropic } from "ignite-element/tools/anthropic";
import { type OpenAIChatMessage, openai } from "ignite-element/tools/openai";
import { howEachDialectCarries } from "./carried.js";
import {
  anthropicModel,
  anthropicText,
  DEFAULT_ANTHROPIC_MODEL,
  ModelError,
  openaiModel,
  openaiText,
} from "./models.js";
import {
  type CallRecord,
  formatApproval,
  formatCarried,
  formatFinal,
  formatHeader,
  formatOffered,
  formatTurn,
  style,
  type TurnRecord,
} from "./print.js";
import { createRoom, type Room, type RoomEvent, type RoomState } from "./room.js";
import { SCRIPTED_PROMPT, scriptedModel } from "./scripted.js";

/** How the demo talks to one kind of model. */
export interface DemoSpec<ToolDefs, Response, ResultBlock, Message> {
  /** Which model, for the banner. */
  label: string;
  /** The model's name, for the trace (`chat {model}`). */
  modelName: string;
  /** A scripted model plays a fixed conversation and ignores the user's prompt. */
  scripted: boolean;
  dialect: LoopDialect<ToolDefs, Response, ResultBlock, Message>;
  model: (request: ModelRequest<ToolDefs, Message>) => Promise<Response>;
  /** The conversation that starts the loop. */
  messages: (prompt: string) => Message[];
  /** What the model said in a response, for the printer. */
  textOf: (response: Response) => string;
}

export interface RunOptions {
  /** The user's request; a scripted demo always uses its own. */
  prompt?: string;
  /** Receives the output one line at a time. */
  write: (line: string) => void;
  color: boolean;
  signal?: AbortSignal;
  /** Default 10. */
  maxTurns?: number;
  /** Default: a new room. */
  room?: Room;
  /**
   * Asks the person at the terminal whether a call may run. Without it, every call the policy
   * asks about is approved automatically, and the output says so.
   */
  ask?: (call: PendingCall) => Promise<boolean>;
  /** Reports the run, its turns, requests and calls (`otelTracer` from ignite-element/tools/otel). */
  tracer?: Tracing;
}

export interface DemoOutcome {
  stop: ToolLoopStop;
  state: RoomState;
  turns: TurnRecord[];
}

/** A demo with its model's types sealed in, so the three kinds share one shape. */
export interface Demo {
  label: string;
  scripted: boolean;
  run(options: RunOptions): Promise<DemoOutcome>;
}

/** The prompt for a real model when the command line gives none. */
export const DEFAULT_PROMPT = SCRIPTED_PROMPT;

export const SYSTEM_PROMPT =
  "You control one room of a smart home through tools. Use only the tools you are offered now " +
  "(they change with the room's state). If a call is refused, read why, fix it and try again. " +
  "The room also changes on its own, and you are told when it did; to wait for something to " +
  "happen, use waitFor. When you are done, say briefly what you changed.";

/**
 * The longest the model may wait for the room. The demo's room changes in milliseconds (its
 * boost warms it in 40 ms), so a wait that reaches this bound waited for something that was not
 * going to happen.
 */
export const WAIT_MS = 5_000;

export function defineDemo<ToolDefs, Response, ResultBlock, Message>(
  spec: DemoSpec<ToolDefs, Response, ResultBlock, Message>,
): Demo {
  return {
    label: spec.label,
    scripted: spec.scripted,
    async run(options) {
      const s = style(options.color);
      const room = options.room ?? createRoom();
      const prompt = spec.scripted ? SCRIPTED_PROMPT : (options.prompt ?? DEFAULT_PROMPT);
      const notes = spec.scripted
        ? [
            "set ANTHROPIC_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL, to talk to a real model",
            ...(options.prompt === undefined ? [] : ["the scripted model ignores your prompt"]),
          ]
        : [];
      const write = (lines: string[]) => {
        for (const line of lines) options.write(line);
      };
      write(formatHeader(s, spec.label, prompt, notes));

      // A command that may destroy something waits for a person; everything else runs.
      const approve: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");
      const { tracer } = options;
      // The model may wait for the room (at most WAIT_MS), and is told what changed on its own.
      const tools = igniteTools(room, spec.dialect, {
        approve: approval(approve),
        tracer,
        wait: waitTool({ maxMs: WAIT_MS }),
        // `chart` answers with a PNG beside the state, sent in the provider's own form.
        content: contentParts(),
      });
      // The first answer with content parts, to show at the end how each dialect carries it.
      let pictured: [NeutralToolCall, Observation<RoomState, RoomEvent>] | undefined;

      const turns: TurnRecord[] = [];
      const label = spec.scripted ? "assistant (scripted)" : "assistant";
      // The tools offered are printed as the request goes out, before a real model's wait.
      const model = (request: ModelRequest<ToolDefs, Message>) => {
        write(
          formatOffered(
            s,
            request.turn,
            tools.manifest().map((tool) => tool.name),
          ),
        );
        return spec.model(request);
      };
      const common = {
        tools,
        model,
        signal: options.signal,
        tracer,
        agentName: "room",
        modelName: spec.modelName,
        tellChanges: changeNotes(),
        onStep: (step: ToolLoopStep<RoomState, RoomEvent, Response, ResultBlock>) => {
          const calls = step.answers.map(({ call, route, outcome }): CallRecord => {
            const waited = outcome.ok ? waitedOf(outcome.value) : undefined;
            const parts = outcome.ok ? outcome.value.content : undefined;
            if (parts !== undefined && outcome.ok) pictured ??= [call, outcome.value];
            return {
              name: call.name,
              input: call.input,
              ...(route ? { route } : {}),
              ...(outcome.ok ? {} : { error: outcome.error }),
              ...(waited === undefined ? {} : { waited }),
              events: outcome.ok ? outcome.value.events : [],
              ...(parts === undefined ? {} : { content: parts.map(partSummary) }),
            };
          });
          const record: TurnRecord = {
            turn: step.turn,
            ...(step.told === undefined ? {} : { told: step.told }),
            text: spec.textOf(step.response),
            calls,
          };
          turns.push(record);
          write(formatTurn(s, record, label));
        },
      };
      let result = await runToolLoop({
        ...common,
        messages: spec.messages(prompt),
        maxTurns: options.maxTurns ?? 10,
      });
      // A call waits for a person: ask, then resume from the state as it would be stored.
      while (result.stop === "approval" && result.state) {
        const stored: ToolLoopState<Response, ResultBlock, Message> = JSON.parse(
          JSON.stringify(result.state),
        );
        const decisions = [];
        for (const call of result.pending ?? []) {
          const approved = options.ask ? await options.ask(call) : true;
          write([formatApproval(s, call, approved, options.ask ? "asked" : "automatic")]);
          decisions.push(approved ? approveCall(call) : denyCall(call, "the user said no"));
        }
        result = await resumeToolLoop({ ...common, state: stored, decisions });
      }
      // The loop keeps the transcript and returns the model's failure; the demo reports it.
      if (result.stop === "error") throw result.error;
      write(formatFinal(s, room.state, result.stop, turns));
      if (pictured)
        write(formatCarried(s, pictured[0].name, howEachDialectCarries(room, ...pictured)));
      return { stop: result.stop, state: room.state, turns };
    },
  };
}

/** The scripted conversation, in the Anthropic format. */
export function scriptedDemo(): Demo {
  return defineDemo({
    label: "a scripted conversation in the Anthropic format (scripted — no model is called)",
    modelName: "scripted",
    scripted: true,
    dialect: anthropic,
    model: scriptedModel(),
    messages: (prompt): AnthropicMessage[] => [{ role: "user", content: prompt }],
    textOf: anthropicText,
  });
}

type Env = Record<string, string | undefined>;

/**
 * The demo the environment asks for: Anthropic when `ANTHROPIC_API_KEY` is set, an
 * OpenAI-compatible server when `OPENAI_BASE_URL` is, otherwise the scripted model. Throws a
 * `ModelError` for a configuration that cannot work.
 */
export function pickDemo(env: Env, options: { fetch?: typeof fetch } = {}): Demo {
  const apiKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey !== undefined) {
    const model = nonEmpty(env.ANTHROPIC_MODEL) ?? DEFAULT_ANTHROPIC_MODEL;
    const baseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
    if (baseUrl !== undefined) checkUrl("ANTHROPIC_BASE_URL", baseUrl, "https://api.anthropic.com");
    return defineDemo({
      label: `Anthropic ${model}${baseUrl === undefined ? "" : ` at ${baseUrl}`}`,
      modelName: model,
      scripted: false,
      dialect: anthropic,
      model: anthropicModel({ apiKey, model, baseUrl, system: SYSTEM_PROMPT, ...options }),
      messages: (prompt): AnthropicMessage[] => [{ role: "user", content: prompt }],
      textOf: anthropicText,
    });
  }
  const baseUrl = nonEmpty(env.OPENAI_BASE_URL);
  if (baseUrl !== undefined) {
    checkUrl("OPENAI_BASE_URL", baseUrl, "http://localhost:11434/v1");
    const model = nonEmpty(env.OPENAI_MODEL);
    if (model === undefined) {
      throw new ModelError(
        "OPENAI_MODEL is not set — name the model the server should run, e.g. OPENAI_MODEL=qwen2.5:7b",
      );
    }
    const key = nonEmpty(env.OPENAI_API_KEY);
    return defineDemo({
      label: `OpenAI-compatible ${model} at ${baseUrl}`,
      modelName: model,
      scripted: false,
      dialect: openai,
      model: openaiModel({ baseUrl, model, apiKey: key, system: SYSTEM_PROMPT, ...options }),
      messages: (prompt): OpenAIChatMessage[] => [{ role: "user", content: prompt }],
      textOf: openaiText,
    });
  }
  return scriptedDemo();
}

/** A content part in a few words: `image (image/png, 2148 bytes)`. */
function partSummary(part: ContentPart): string {
  if (part.type === "image" || part.type === "audio") {
    return `${part.type} (${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes)`;
  }
  return part.type;
}

/** What ended a wait, when `value` is a wait's answer (`WaitObservation`). */
function waitedOf(value: Observation<RoomState, RoomEvent>): string | undefined {
  return "waited" in value && typeof value.waited === "string" ? value.waited : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function checkUrl(name: string, value: string, example: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new ModelError(`${name} is not an http(s) URL: "${value}" (expected e.g. ${example})`);
  }
}
