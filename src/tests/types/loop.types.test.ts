import type Anthropic from "@anthropic-ai/sdk";
import type { GenerateContentConfig, GoogleGenAI } from "@google/genai";
import type OpenAI from "openai";
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expectTypeOf, it } from "vitest";
import { type AnthropicMessage, anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import {
  type OpenAIChatMessage,
  type OpenAIChatTool,
  openai,
} from "../../tools/dialects/openai/dialect.js";
import {
  type AbortSignalLike,
  approval,
  approveCall,
  type ChangeNotes,
  changeNotes,
  type ExecuteFailedReason,
  type FakeMessage,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  type ResumeToolLoopOptions,
  type RuntimeEvent,
  resumeToolLoop,
  runToolLoop,
  type StreamingToolLoopOptions,
  scriptedModel,
  type ToolError,
  type ToolLoopOptions,
  type ToolLoopStep,
  type ToolLoopStop,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

// Type-only: the clients are declared, never constructed; nothing here calls a model.
declare const client: OpenAI;
declare const claude: Anthropic;
declare const ai: GoogleGenAI;
declare const history: OpenAIChatMessage[];
declare const conversation: AnthropicMessage[];

type OpenAIOptions = NonNullable<Parameters<OpenAI["chat"]["completions"]["create"]>[1]>;
type AnthropicOptions = NonNullable<Parameters<Anthropic["messages"]["create"]>[1]>;

describe("runToolLoop with the official SDK clients as the model function, no casts", () => {
  it("hands the model the application's own AbortSignal, which both SDKs take as it is", () => {
    expectTypeOf<ModelRequest<unknown, unknown, AbortSignal>["signal"]>().toExtend<
      OpenAIOptions["signal"]
    >();
    expectTypeOf<ModelRequest<unknown, unknown, AbortSignal>["signal"]>().toExtend<
      AnthropicOptions["signal"]
    >();
  });

  it("hands the model a real AbortSignal when the loop was given none", () => {
    const run = () =>
      runToolLoop({
        tools: igniteTools(new Counter(), openai),
        model: (request) => {
          expectTypeOf(request.signal).toEqualTypeOf<AbortSignal>();
          return client.chat.completions.create(
            { model: "gpt-4.1", tools: request.tools, messages: request.messages },
            { signal: request.signal },
          );
        },
        messages: history,
      });
    expectTypeOf(run).returns.resolves.toHaveProperty("stop").toEqualTypeOf<ToolLoopStop>();
  });

  it("gives Gemini's optional abortSignal the request's signal as it is, exact optional or not", () => {
    // `abortSignal?: AbortSignal` takes no `undefined` under exactOptionalPropertyTypes: the
    // request's signal must always be one.
    type GeminiSignal = NonNullable<GenerateContentConfig["abortSignal"]>;
    const run = (signal?: AbortSignal) =>
      runToolLoop({
        tools: igniteTools(new Counter(), gemini),
        model: ({ tools, messages, signal }) => {
          expectTypeOf(signal).toExtend<GeminiSignal>();
          return ai.models.generateContent({
            model: "gemini-2.5-flash",
            contents: messages,
            config: { tools, abortSignal: signal },
          });
        },
        messages: [],
        ...(signal ? { signal } : {}),
      });
    expectTypeOf(run).returns.resolves.toHaveProperty("stop").toEqualTypeOf<ToolLoopStop>();
  });

  it("runs over openai with client.chat.completions.create, and result.response is the ChatCompletion", () => {
    const run = (signal: AbortSignal) =>
      runToolLoop({
        tools: igniteTools(new Counter(), openai),
        model: ({ tools, messages, signal }) =>
          client.chat.completions.create({ model: "gpt-4.1", tools, messages }, { signal }),
        messages: history,
        signal,
      });
    type Result = Awaited<ReturnType<typeof run>>;
    // What create returned: the ChatCompletion (with the SDK's request id), not the dialect's type.
    expectTypeOf<NonNullable<Result["response"]>>().toExtend<ChatCompletion>();
    expectTypeOf<NonNullable<Result["response"]>["usage"]>().toEqualTypeOf<
      OpenAI.CompletionUsage | undefined
    >();
  });

  it("runs over openai without a signal as well", () => {
    const run = () =>
      runToolLoop({
        tools: igniteTools(new Counter(), openai),
        model: ({ tools, messages, signal }) =>
          client.chat.completions.create({ model: "gpt-4.1", tools, messages }, { signal }),
        messages: history,
      });
    type Result = Awaited<ReturnType<typeof run>>;
    expectTypeOf<NonNullable<Result["response"]>>().toExtend<ChatCompletion>();
  });

  it("runs over anthropic with client.messages.create, and result.response is the Message", () => {
    const run = (signal: AbortSignal) =>
      runToolLoop({
        tools: igniteTools(new Counter(), anthropic),
        model: ({ tools, messages, signal }) =>
          claude.messages.create(
            { model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages },
            { signal },
          ),
        messages: conversation,
        signal,
        onStep: (step) => {
          expectTypeOf(step.response).toExtend<Anthropic.Message>();
        },
      });
    type Result = Awaited<ReturnType<typeof run>>;
    expectTypeOf<NonNullable<Result["response"]>>().toExtend<Anthropic.Message>();
    expectTypeOf<NonNullable<Result["response"]>["usage"]>().toEqualTypeOf<Anthropic.Usage>();
  });

  it("keeps a model typed with ModelRequest<ToolDefs, Message> working, with the loop's signal or none", () => {
    const model = async (request: ModelRequest<FakeToolDefs, FakeMessage>) => {
      expectTypeOf(request.signal).toEqualTypeOf<AbortSignal>();
      return { toolCalls: [] };
    };
    const tools = igniteTools(new Counter(), fakeDialect);
    const run = (signal: AbortSignal) => runToolLoop({ tools, model, messages: [], signal });
    const unsignalled = () => runToolLoop({ tools, model, messages: [] });
    expectTypeOf<Awaited<ReturnType<typeof run>>["stop"]>().toEqualTypeOf<ToolLoopStop>();
    expectTypeOf<Awaited<ReturnType<typeof unsignalled>>["stop"]>().toEqualTypeOf<ToolLoopStop>();
  });

  it("takes a signal of the application's own making beside a model typed for AbortSignalLike", () => {
    const model = async (request: ModelRequest<FakeToolDefs, FakeMessage, AbortSignalLike>) => {
      expectTypeOf(request.signal).toEqualTypeOf<AbortSignalLike>();
      return { toolCalls: [] };
    };
    const run = (signal: AbortSignalLike) =>
      runToolLoop({ tools: igniteTools(new Counter(), fakeDialect), model, messages: [], signal });
    expectTypeOf<Awaited<ReturnType<typeof run>>["stop"]>().toEqualTypeOf<ToolLoopStop>();
    // A scripted model never reads its signal: it runs beside any.
    const scripted = (signal: AbortSignalLike) =>
      runToolLoop({
        tools: igniteTools(new Counter(), fakeDialect),
        model: scriptedModel([]).model,
        messages: [],
        signal,
      });
    expectTypeOf<Awaited<ReturnType<typeof scripted>>["stop"]>().toEqualTypeOf<ToolLoopStop>();
  });
});

describe("a model function typed once, for runToolLoop and resumeToolLoop", () => {
  // What a newcomer writes: the dialect's tools and the SDK's own message type, no signal type.
  const model = (request: ModelRequest<OpenAIChatTool[], ChatCompletionMessageParam>) =>
    client.chat.completions.create(
      { model: "gpt-4.1", tools: request.tools, messages: request.messages },
      { signal: request.signal },
    );

  it("hands the SDK's create the request's signal as it is: the platform's AbortSignal", () => {
    expectTypeOf<
      ModelRequest<OpenAIChatTool[], ChatCompletionMessageParam>["signal"]
    >().toEqualTypeOf<AbortSignal>();
    expectTypeOf<ModelRequest<OpenAIChatTool[], ChatCompletionMessageParam>["signal"]>().toExtend<
      OpenAIOptions["signal"]
    >();
    expectTypeOf(model).returns.resolves.toExtend<ChatCompletion>();
  });

  it("is taken by runToolLoop with a signal or none, and by resumeToolLoop, without a type argument", () => {
    const tools = igniteTools(new Counter(), openai, { approve: approval(() => "ask") });
    const run = async (signal?: AbortSignal) => {
      const paused = await runToolLoop({
        tools,
        model,
        messages: [{ role: "user", content: "Count to three." }],
        ...(signal ? { signal } : {}),
      });
      if (paused.stop !== "approval") return paused;
      return resumeToolLoop({
        tools,
        model,
        state: paused.state,
        decisions: paused.pending.map((call) => approveCall(call)),
        ...(signal ? { signal } : {}),
      });
    };
    expectTypeOf(run).returns.resolves.toHaveProperty("stop").toEqualTypeOf<ToolLoopStop>();
  });

  it("is a ResumeToolLoopOptions' and ToolLoopOptions' model without naming a signal type", () => {
    type Loop = ToolLoopOptions<
      unknown,
      RuntimeEvent,
      OpenAIChatTool[],
      ChatCompletion,
      unknown,
      ChatCompletionMessageParam
    >;
    type Resume = ResumeToolLoopOptions<
      unknown,
      RuntimeEvent,
      OpenAIChatTool[],
      ChatCompletion,
      unknown,
      ChatCompletionMessageParam
    >;
    expectTypeOf(model).toExtend<Loop["model"]>();
    expectTypeOf(model).toExtend<Resume["model"]>();
  });
});

describe("ToolError says why", () => {
  it("gives ExecuteFailed a machine-readable reason", () => {
    type Failed = Extract<ToolError, { kind: "ExecuteFailed" }>;
    expectTypeOf<Failed["reason"]>().toEqualTypeOf<ExecuteFailedReason | undefined>();
    expectTypeOf<ExecuteFailedReason>().toEqualTypeOf<
      | "threw"
      | "timeout"
      | "aborted"
      | "cancelled"
      | "malformed-result"
      | "schema"
      | "projection"
      | "output"
      | "reentrant"
      | "interrupted"
      | "ledger"
    >();
  });
});

describe("tellChanges", () => {
  it("takes what changeNotes makes, on runToolLoop and resumeToolLoop", () => {
    expectTypeOf<ToolLoopOptions<unknown, RuntimeEvent, unknown, unknown, unknown, unknown>>()
      .toHaveProperty("tellChanges")
      .toEqualTypeOf<ChangeNotes | undefined>();
    expectTypeOf<ResumeToolLoopOptions<unknown, RuntimeEvent, unknown, unknown, unknown, unknown>>()
      .toHaveProperty("tellChanges")
      .toEqualTypeOf<ChangeNotes | undefined>();
    expectTypeOf(changeNotes()).toEqualTypeOf<ChangeNotes>();
    expectTypeOf(changeNotes).parameter(0).toEqualTypeOf<{ maxChars?: number } | undefined>();
    expectTypeOf<true>().not.toExtend<ChangeNotes>();
    expectTypeOf<{ maxChars: 1000 }>().not.toExtend<ChangeNotes>();
  });

  it("keeps what was told on the step, as text", () => {
    expectTypeOf<ToolLoopStep<unknown, RuntimeEvent, unknown, unknown>>()
      .toHaveProperty("told")
      .toEqualTypeOf<string | undefined>();
  });

  it("is offered on the streaming loop too", () => {
    expectTypeOf<
      StreamingToolLoopOptions<
        unknown,
        RuntimeEvent,
        unknown,
        unknown,
        unknown,
        unknown,
        unknown,
        unknown
      >
    >()
      .toHaveProperty("tellChanges")
      .toEqualTypeOf<ChangeNotes | undefined>();
  });

  it("lets a bridge over any conversation dialect write a note, and still bridges a dialect written without one", () => {
    expectTypeOf(igniteTools(new Counter(), fakeDialect).appendNote).toEqualTypeOf<
      ((messages: readonly FakeMessage[], note: string) => FakeMessage[]) | undefined
    >();
    const { appendNote: _, ...withoutNotes } = fakeDialect;
    expectTypeOf(igniteTools(new Counter(), withoutNotes).appendTurn).toBeFunction();
  });
});
