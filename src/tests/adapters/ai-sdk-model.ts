import { generateText, type ModelMessage, stepCountIs, streamText, type ToolSet } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";

// The provider-spec types, read off the AI SDK's own mock model (`@ai-sdk/provider` is the AI
// SDK's dependency, not ours).
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type LanguageModelV3Content = LanguageModelV3GenerateResult["content"][number];
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part>
    ? Part
    : never;

/** One call the scripted model makes: a provider-safe tool name and its JSON-text input. */
export interface ScriptedCall {
  toolName: string;
  input: string;
  toolCallId?: string;
}

/** One turn of the scripted model: tool calls (made in parallel), or a text answer. */
export type ScriptedTurn = ScriptedCall[] | string;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function contentOf(turn: ScriptedTurn, step: number): LanguageModelV3Content[] {
  if (typeof turn === "string") return [{ type: "text", text: turn }];
  return turn.map((call, index) => ({
    type: "tool-call",
    toolCallId: call.toolCallId ?? `call-${step}-${index}`,
    toolName: call.toolName,
    input: call.input,
  }));
}

function generated(turn: ScriptedTurn, step: number): LanguageModelV3GenerateResult {
  return {
    content: contentOf(turn, step),
    finishReason: {
      unified: typeof turn === "string" ? "stop" : "tool-calls",
      raw: typeof turn === "string" ? "stop" : "tool_calls",
    },
    usage: USAGE,
    warnings: [],
  };
}

/** The same turn as the stream parts a provider sends. */
function streamed(turn: ScriptedTurn, step: number): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const part of contentOf(turn, step)) {
    if (part.type === "text") {
      parts.push(
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: part.text },
        { type: "text-end", id: "t" },
      );
    } else if (part.type === "tool-call") {
      parts.push(
        { type: "tool-input-start", id: part.toolCallId, toolName: part.toolName },
        { type: "tool-input-delta", id: part.toolCallId, delta: part.input },
        { type: "tool-input-end", id: part.toolCallId },
        part,
      );
    }
  }
  const { finishReason } = generated(turn, step);
  parts.push({ type: "finish", finishReason, usage: USAGE });
  return parts;
}

/**
 * The AI SDK's own mock model playing `turns` in order, one per step, by `doGenerate` and by
 * `doStream`. A turn may be a function of the request, to answer what the model was just sent.
 */
export function scriptedModel(
  turns: Array<ScriptedTurn | ((request: LanguageModelV3CallOptions) => ScriptedTurn)>,
) {
  const requests: LanguageModelV3CallOptions[] = [];
  const next = (request: LanguageModelV3CallOptions): ScriptedTurn => {
    requests.push(request);
    const turn = turns[requests.length - 1] ?? "(the script has ended)";
    return typeof turn === "function" ? turn(request) : turn;
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (request) => generated(next(request), requests.length),
    doStream: async (request) => ({
      stream: convertArrayToReadableStream(streamed(next(request), requests.length)),
    }),
  });
  return { model, requests };
}

/** The names of the tools a request offered. */
export function offered(request: LanguageModelV3CallOptions | undefined): string[] {
  return (request?.tools ?? []).map((tool) => tool.name);
}

/** The tool results a request carries back to the model, as the provider is given them. */
export function toolResultsIn(request: LanguageModelV3CallOptions | undefined) {
  return (request?.prompt ?? []).flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => (part.type === "tool-result" ? [part] : []))
      : [],
  );
}

export type RunMode = "generateText" | "streamText";

/** Runs the whole multi-step call the way an application does, by either API. */
export async function run<TOOLS extends ToolSet>(
  mode: RunMode,
  settings: {
    model: MockLanguageModelV3;
    tools: TOOLS;
    prepareStep?: () => { activeTools: Array<keyof TOOLS> };
    abortSignal?: AbortSignal;
    messages?: ModelMessage[];
  },
) {
  const common = {
    ...settings,
    messages: settings.messages ?? [{ role: "user" as const, content: "Go." }],
    stopWhen: stepCountIs(10),
  };
  if (mode === "generateText") {
    const result = await generateText(common);
    return { text: result.text, steps: result.steps };
  }
  const result = streamText({ ...common, onError: () => {} });
  // Read the stream to its end, as an application does, then the settled results.
  for await (const _part of result.fullStream) {
  }
  return { text: await result.text, steps: await result.steps };
}
