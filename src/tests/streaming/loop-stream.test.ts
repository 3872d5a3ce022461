import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { GoogleGenAI } from "@google/genai";
import { Ollama, type Message as OllamaMessageParam } from "ollama";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnthropicMessage,
  type AnthropicTool,
  anthropic,
} from "../../tools/dialects/anthropic/dialect.js";
import {
  type AnthropicStreamedMessage,
  anthropicStream,
} from "../../tools/dialects/anthropic/stream.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { geminiStream } from "../../tools/dialects/gemini/stream.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { ollamaStream } from "../../tools/dialects/ollama/stream.js";
import { allowedTools, openai, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import { openaiResponsesStream, openaiStream } from "../../tools/dialects/openai/stream.js";
import {
  type AgentComponent,
  igniteTools,
  type ModelRequest,
  type RuntimeEvent,
  runToolLoop,
  type ToolLoopResult,
} from "../../tools/index.js";
import type { StreamDelta } from "../../tools/wire/stream.js";
import { counterWithTodos } from "../fixtures.js";
import { anthropicCutTurn, anthropicFinalTurn, anthropicToolTurn } from "./recordings/anthropic.js";
import { geminiFinalTurn, geminiToolTurn } from "./recordings/gemini.js";
import { ollamaFinalTurn, ollamaToolTurn } from "./recordings/ollama.js";
import { chatFinalTurn, chatInterleavedCutTurn, chatToolTurn } from "./recordings/openai.js";
import { responsesFinalTurn, responsesToolTurn } from "./recordings/openai-responses.js";
import { brokenAfter, ndjson, type Replay, sse, useReplayServer } from "./replay-server.js";

const SAFE_TODO = "todo_add_10sxn00";
const DELAY_MS = 3;

const server = useReplayServer();

/** Each piece written a little after the one before, as a model writes its turn. */
const slow = (replay: Replay): Replay => ({ ...replay, delayMs: DELAY_MS });
const named = (events: readonly { type: string }[]) =>
  slow(sse(events.map((data) => ({ event: data.type, data }))));
const unnamed = (events: readonly object[], done?: string) =>
  slow(
    sse(
      events.map((data) => ({ data })),
      done,
    ),
  );

/**
 * The counter-and-todos component, with one log of what happened in order: each call run, and
 * each call reported ready by `onDelta` (`ready <turn>:<index>`).
 */
function harness() {
  const { component, counter, todos } = counterWithTodos("todo.add");
  const log: string[] = [];
  const deltas: StreamDelta[] = [];
  const logged: AgentComponent<unknown> = {
    ...component,
    execute: (command, input) => {
      log.push(`run ${command}`);
      return component.execute(command, input);
    },
  };
  const onDelta = (delta: StreamDelta, turn: number) => {
    deltas.push(delta);
    if (delta.type === "tool-call-ready") log.push(`ready ${turn}:${delta.index}`);
  };
  return { component: logged, counter, todos, log, deltas, onDelta };
}

type Harness = ReturnType<typeof harness>;

/** What every provider's streamed loop over the three-call recording must show. */
function expectStreamedRun(
  result: Pick<ToolLoopResult<unknown, RuntimeEvent, unknown, unknown, unknown>, "stop" | "steps">,
  { counter, todos, log, deltas }: Harness,
) {
  expect(result.stop).toBe("done");
  expect(result.steps).toHaveLength(2);
  // Each call ran once, in the model's order.
  expect(counter.calls).toEqual([
    { command: "increment", input: { by: 2 } },
    { command: "reset", input: undefined },
  ]);
  expect(todos).toEqual(['buy "oat" milk é']);
  expect(log.filter((entry) => entry.startsWith("run"))).toEqual([
    "run increment",
    "run todo.add",
    "run reset",
  ]);
  // The first call ran while the model was still streaming the last one.
  expect(log.indexOf("run increment")).toBeGreaterThan(log.indexOf("ready 1:0"));
  expect(log.indexOf("run increment")).toBeLessThan(log.indexOf("ready 1:2"));
  expect(result.steps[0]?.errors).toEqual([]);
  expect(result.steps[0]?.calls.map((call) => call.name)).toEqual([
    "increment",
    "todo.add",
    "reset",
  ]);
  expect(deltas.some((delta) => delta.type === "text")).toBe(true);
  expect(
    deltas.some((delta) => delta.type === "tool-call-delta" || delta.type === "tool-call-start"),
  ).toBe(true);
}

describe("runToolLoop streaming with @anthropic-ai/sdk from 127.0.0.1", () => {
  const client = () => new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
  const history: MessageParam[] = [{ role: "user", content: "Count two, note milk, reset." }];
  /** The SDK's `messages.stream` on a fresh client, as the loop's model function. */
  const streamed = (maxTokens = 1024) => {
    const sdk = client();
    return ({
      tools,
      messages,
      signal,
    }: ModelRequest<AnthropicTool[], AnthropicMessage, AbortSignal>) =>
      sdk.messages.stream(
        { model: "claude-sonnet-4-6", max_tokens: maxTokens, tools, messages },
        { signal },
      );
  };

  it("runs each call as it becomes ready, in order, over two streamed turns", async () => {
    const run = harness();
    server.play(named(anthropicToolTurn(SAFE_TODO)), named(anthropicFinalTurn));
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: streamed(),
      messages: history,
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
    expectTypeOf(result.response).toEqualTypeOf<AnthropicStreamedMessage | undefined>();
    expect(result.response?.stop_reason).toBe("end_turn");
    expect(server.received.map((request) => request.body.stream)).toEqual([true, true]);
    // The second request carries the streamed turn and its three results, as the API wants it.
    const sent = server.received[1]?.body.messages as MessageParam[];
    expect(sent).toHaveLength(3);
    expect(sent[2]?.content).toHaveLength(3);
    expect(JSON.parse(JSON.stringify(result.messages.slice(0, 3)))).toEqual(sent);
    expect(run.deltas.filter((delta) => delta.type === "reasoning").length).toBeGreaterThan(0);
  });

  it("answers the call max_tokens cut InvalidInput, never runs it, and goes on", async () => {
    const run = harness();
    server.play(named(anthropicCutTurn(SAFE_TODO)), named(anthropicFinalTurn));
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: streamed(64),
      messages: history,
    });

    expect(result.stop).toBe("done");
    expect(run.log).toEqual(["run increment"]);
    expect(run.todos).toEqual([]);
    expect(result.steps[0]?.errors.map((error) => error.kind)).toEqual(["InvalidInput"]);
    expect(result.steps[0]?.errors[0]?.message).toContain("cut off by the output limit");
  });

  it("answers a call cut by a lost connection InvalidInput, keeps the turn, and stops with error", async () => {
    const run = harness();
    const recorded = anthropicToolTurn(SAFE_TODO);
    // Dropped in the middle of the todo call's input, after `increment` was complete.
    const cutAt = recorded.findIndex(
      (event) => event.type === "content_block_delta" && event.index === 3,
    );
    server.play(brokenAfter(named(recorded), cutAt + 1));
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: streamed(),
      messages: history,
      onDelta: run.onDelta,
    });

    expect(result.stop).toBe("error");
    expect(result.error).toBeInstanceOf(Error);
    expect(run.log).toEqual(["ready 1:0", "run increment"]);
    expect(run.todos).toEqual([]);
    expect(server.received).toHaveLength(1);
    const [step] = result.steps;
    expect(step?.answers.map((answer) => answer.outcome.ok)).toEqual([true, false]);
    expect(step?.errors.map((error) => error.kind)).toEqual(["InvalidInput"]);
    // The transcript holds the interrupted turn and both answers, so the conversation can go on.
    expect(result.messages).toHaveLength(3);
    expect(result.messages[1]?.content.at(-1)).toMatchObject({ type: "tool_use", input: {} });
    expect(result.snapshot).toMatchObject({ count: 2 });
  });

  it("stops with aborted when the signal aborts mid-stream, every started call answered", async () => {
    const run = harness();
    const controller = new AbortController();
    server.play(named(anthropicToolTurn(SAFE_TODO)));
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: streamed(),
      messages: history,
      signal: controller.signal,
      onDelta: (delta, turn) => {
        run.onDelta(delta, turn);
        if (delta.type === "tool-call-ready" && delta.index === 0) controller.abort();
      },
    });

    expect(result.stop).toBe("aborted");
    // `increment` was ready before the abort; it is answered cancelled and nothing ran.
    expect(run.log).toEqual(["ready 1:0"]);
    expect(result.steps[0]?.answers.every((answer) => !answer.outcome.ok)).toBe(true);
    expect(result.steps[0]?.errors[0]).toMatchObject({
      kind: "ExecuteFailed",
      reason: "cancelled",
    });
  });
});

describe("runToolLoop streaming with openai Chat Completions from 127.0.0.1", () => {
  const client = () =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
  const history: ChatCompletionMessageParam[] = [
    { role: "user", content: "Count two, note milk, reset." },
  ];

  it("runs interleaved parallel calls in the model's order, the first before the stream ends", async () => {
    const run = harness();
    server.play(unnamed(chatToolTurn(SAFE_TODO), "[DONE]"), unnamed(chatFinalTurn, "[DONE]"));
    const sdk = client();
    const result = await runToolLoop({
      tools: igniteTools(run.component, openai),
      stream: openaiStream,
      model: ({ tools, messages, signal }) =>
        sdk.chat.completions.create({ model: "gpt-4o", tools, messages, stream: true }, { signal }),
      messages: history,
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
    expect(result.response?.choices[0]?.message.content).toBe("Done.");
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
    ]);
  });

  it("streams with allowedTools: every request the same tools, the allowed subset in tool_choice", async () => {
    const run = harness();
    server.play(unnamed(chatToolTurn(SAFE_TODO), "[DONE]"), unnamed(chatFinalTurn, "[DONE]"));
    const sdk = client();
    const result = await runToolLoop({
      tools: igniteTools(run.component, allowedTools(openai)),
      stream: openaiStream,
      model: ({ tools, messages, signal }) =>
        sdk.chat.completions.create(
          { model: "gpt-4.1", messages, ...tools, stream: true },
          { signal },
        ),
      messages: history,
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
    const [first, second] = server.received.map((request) => request.body);
    expect(second?.tools).toStrictEqual(first?.tools);
    expect(first?.tool_choice).toBeDefined();
    expect(second?.tool_choice).toBeDefined();
  });

  it("runs nothing after the call finish_reason length cut, though a later call had closed, and goes on", async () => {
    const run = harness();
    server.play(
      unnamed(chatInterleavedCutTurn(SAFE_TODO), "[DONE]"),
      unnamed(chatFinalTurn, "[DONE]"),
    );
    const sdk = client();
    const result = await runToolLoop({
      tools: igniteTools(run.component, openai),
      stream: openaiStream,
      model: ({ tools, messages, signal }) =>
        sdk.chat.completions.create({ model: "gpt-4o", tools, messages, stream: true }, { signal }),
      messages: history,
      onDelta: run.onDelta,
    });

    expect(result.stop).toBe("done");
    expect(run.log).toEqual([]);
    expect(result.steps[0]?.calls.map((call) => call.id)).toEqual(["call_1"]);
    expect(result.steps[0]?.errors.map((error) => error.kind)).toEqual(["InvalidInput"]);
    // The transcript holds the turn as cut: the first call and its answer, nothing after it.
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("answers calls a lost connection cut InvalidInput, never runs them, and stops with error", async () => {
    const run = harness();
    const recorded = chatToolTurn(SAFE_TODO);
    const cutAt = recorded.findIndex(
      (chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments === "{}",
    );
    server.play(brokenAfter(unnamed(recorded), cutAt + 1));
    const sdk = client();
    const result = await runToolLoop({
      tools: igniteTools(run.component, openai),
      stream: openaiStream,
      model: ({ tools, messages }) =>
        sdk.chat.completions.stream({ model: "gpt-4o", tools, messages }),
      messages: history,
    });

    expect(result.stop).toBe("error");
    expect(run.log).toEqual(["run increment"]);
    expect(result.steps[0]?.answers.map((answer) => answer.outcome.ok)).toEqual([true, false]);
    expect(result.steps[0]?.errors[0]?.kind).toBe("InvalidInput");
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
    ]);
  });
});

describe("runToolLoop streaming with openai Responses from 127.0.0.1", () => {
  it("runs each function_call once its arguments are done, over two streamed turns", async () => {
    const run = harness();
    server.play(unnamed(responsesToolTurn(SAFE_TODO)), unnamed(responsesFinalTurn()));
    const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
    const result = await runToolLoop({
      tools: igniteTools(run.component, openaiResponses),
      stream: openaiResponsesStream,
      model: ({ tools, messages, signal }) =>
        sdk.responses.stream({ model: "gpt-4.1", tools, input: messages }, { signal }),
      messages: [{ role: "user", content: "Count two, note milk, reset." }],
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
    expect(result.response?.status).toBe("completed");
  });
});

describe("runToolLoop streaming with @google/genai from 127.0.0.1", () => {
  it("runs each call as its chunk arrives, over two streamed turns", async () => {
    const run = harness();
    server.play(unnamed(geminiToolTurn("todo.add")), unnamed(geminiFinalTurn));
    const sdk = new GoogleGenAI({
      apiKey: "test-key",
      httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
    });
    const result = await runToolLoop({
      tools: igniteTools(run.component, gemini),
      stream: geminiStream,
      model: ({ tools, messages }) =>
        sdk.models.generateContentStream({
          model: "gemini-2.5-flash",
          contents: messages,
          config: { tools },
        }),
      messages: [{ role: "user", parts: [{ text: "Count two, note milk, reset." }] }],
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
    expect(server.received[1]?.path).toBe(
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
  });
});

describe("runToolLoop streaming with ollama from 127.0.0.1", () => {
  it("runs each call as its chunk arrives, over two streamed turns", async () => {
    const run = harness();
    server.play(slow(ndjson(ollamaToolTurn(SAFE_TODO))), slow(ndjson(ollamaFinalTurn)));
    const sdk = new Ollama({ host: server.url });
    const messages: OllamaMessageParam[] = [
      { role: "user", content: "Count two, note milk, reset." },
    ];
    const result = await runToolLoop({
      tools: igniteTools(run.component, ollama),
      stream: ollamaStream,
      model: (request) =>
        sdk.chat({
          model: "qwen3",
          messages: request.messages,
          tools: request.tools,
          stream: true,
        }),
      messages,
      onDelta: run.onDelta,
    });

    expectStreamedRun(result, run);
  });
});

describe("runToolLoop with a stream", () => {
  it("rejects with a TypeError when the model streams but no accumulator was given", async () => {
    const { component } = harness();
    async function* events() {
      yield { type: "message_start" };
    }
    await expect(
      // @ts-expect-error a model that streams needs `stream`
      runToolLoop({
        tools: igniteTools(component, anthropic),
        model: () => events(),
        messages: [],
      }),
    ).rejects.toThrow(/no `stream` accumulator was given/);
  });

  it("treats an onDelta that throws as a stream that broke off: calls answered, stop error", async () => {
    const run = harness();
    const thrown = new Error("the UI went away");
    async function* recorded() {
      yield* anthropicToolTurn(SAFE_TODO);
    }
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: () => recorded(),
      messages: [{ role: "user", content: "Go." }],
      onDelta: (delta, turn) => {
        run.onDelta(delta, turn);
        if (delta.type === "tool-call-ready" && delta.index === 1) throw thrown;
      },
    });

    expect(result).toMatchObject({ stop: "error", error: thrown });
    // The two calls that were ready ran; the third, still streaming, is cut and never runs.
    expect(run.log.filter((entry) => entry.startsWith("run"))).toEqual([
      "run increment",
      "run todo.add",
    ]);
    expect(result.steps[0]?.answers.map((answer) => answer.outcome.ok)).toEqual([
      true,
      true,
      false,
    ]);
    expect(result.messages).toHaveLength(3);
  });

  it("drops an interrupted turn without calls, as a failed request", async () => {
    const failure = new Error("connection reset");
    async function* broken() {
      yield* anthropicFinalTurn.slice(0, 3);
      throw failure;
    }
    const texts: string[] = [];
    const result = await runToolLoop({
      tools: igniteTools(harness().component, anthropic),
      stream: anthropicStream,
      model: () => broken(),
      messages: [{ role: "user", content: "Go." }],
      onDelta: (delta) => delta.type === "text" && texts.push(delta.text),
    });
    expect(result).toMatchObject({ stop: "error", error: failure, steps: [] });
    expect(result.messages).toHaveLength(1);
    expect(texts.length).toBeGreaterThan(0);
  });

  it("stops at once on abort while a stream that ignores the signal hangs, and closes it", async () => {
    const run = harness();
    const recorded = anthropicToolTurn(SAFE_TODO);
    // Hangs after the todo call began: `increment` was ready, the rest never comes.
    const hangAt = recorded.findIndex(
      (event) => event.type === "content_block_start" && event.index === 3,
    );
    let closed = false;
    const hanging: AsyncIterable<(typeof recorded)[number]> = {
      [Symbol.asyncIterator]: () => {
        let index = 0;
        return {
          next: () =>
            index <= hangAt
              ? Promise.resolve({
                  done: false as const,
                  value: recorded[index++] as (typeof recorded)[number],
                })
              : new Promise(() => undefined),
          return: async () => {
            closed = true;
            return { done: true as const, value: undefined };
          },
        };
      },
    };
    const controller = new AbortController();
    const result = await runToolLoop({
      tools: igniteTools(run.component, anthropic),
      stream: anthropicStream,
      model: () => hanging,
      messages: [{ role: "user", content: "Go." }],
      signal: controller.signal,
      onDelta: (delta, turn) => {
        run.onDelta(delta, turn);
        if (delta.type === "tool-call-ready") setTimeout(() => controller.abort(), 20);
      },
    });

    expect(result.stop).toBe("aborted");
    expect(closed).toBe(true);
    expect(run.log).toEqual(["ready 1:0", "run increment"]);
    expect(result.steps[0]?.answers.map((answer) => answer.outcome.ok)).toEqual([true, false]);
  });

  it("types the request as the dialect's and the response as the accumulator's", () => {
    const { component } = harness();
    const events: AsyncIterable<{ type: "ping" }> = {
      [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }),
    };
    const run = () =>
      runToolLoop({
        tools: igniteTools(component, anthropic),
        stream: anthropicStream,
        model: (request) => {
          expectTypeOf(request.messages).toEqualTypeOf<AnthropicMessage[]>();
          expectTypeOf(request.signal).toEqualTypeOf<AbortSignal>();
          return events;
        },
        messages: [],
      });
    expectTypeOf(run)
      .returns.resolves.toHaveProperty("response")
      .toEqualTypeOf<AnthropicStreamedMessage | undefined>();
  });
});
