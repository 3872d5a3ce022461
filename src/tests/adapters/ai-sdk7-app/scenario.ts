/**
 * An application on AI SDK 7 (`ai@7`, ESM only, Node 22), written as a reader writes one: it
 * imports the packed package and `ai`, and is type-checked and run by ai-sdk7.test.ts in a project
 * of its own where `ai` is version 7, under Node 22. It prints one JSON report of what happened;
 * the test reads it. (Left out of this repository's tsconfig, where `ai` is version 6.)
 */
import { generateText, type ModelMessage, stepCountIs, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { type ApprovalPolicy, approval, contentParts } from "ignite-element/tools";
import { aiSdkTools } from "ignite-element/tools/ai-sdk";

type Result = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type Part = Result["content"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P>
    ? P
    : never;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const calls = (...parts: [id: string, toolName: string, input: object][]): Result => ({
  content: parts.map(
    ([toolCallId, toolName, input]): Part => ({
      type: "tool-call",
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    }),
  ),
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const text = (said: string): Result => ({
  content: [{ type: "text", text: said }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

/** A list whose `clear` destroys; `ping` the policy refuses. */
function shoppingList() {
  const items = ["milk", "eggs"];
  const ran: string[] = [];
  const component = {
    getSchema: () => ({
      commands: {
        add: { input: { type: "string", maxLength: 10 } },
        clear: { description: "Empty the list.", destructive: true },
        ping: {},
      },
    }),
    execute(command: string, input?: unknown) {
      ran.push(command);
      if (command === "add") items.push(String(input));
      if (command === "clear") items.length = 0;
      return { state: [...items], events: [] };
    },
  };
  return { component, items, ran };
}

/**
 * One approval round trip: the model adds (once too long, then corrected), clears and pings; the
 * first `generateText` stops at the approval request; the person answers `approved`; the second
 * runs what was approved. With `withToolApproval`, both calls are given AI SDK 7's `toolApproval`
 * as aiSdkTools makes it; without, the tools' own `needsApproval` is all there is.
 */
async function roundTrip(approved: boolean, withToolApproval: boolean) {
  const list = shoppingList();
  const asked: Array<string | undefined> = [];
  const policy: ApprovalPolicy = ({ route, flags, call }) => {
    asked.push(call.id);
    if (route.command === "ping") return { deny: "no pings" };
    return flags.destructive ? "ask" : "allow";
  };
  const ignite = aiSdkTools(list.component, { approve: approval(policy) });
  const model = new MockLanguageModelV4({
    doGenerate: [
      calls(["c1", "add", { value: "a very long name" }]),
      calls(["c2", "add", { value: "tea" }], ["c3", "clear", {}], ["c4", "ping", {}]),
      text(approved ? "The list is empty." : "I was not allowed to clear it."),
    ],
  });
  const { tools, prepareStep, toolApproval } = ignite;
  const common = {
    model,
    tools,
    prepareStep,
    stopWhen: stepCountIs(5),
    ...(withToolApproval ? { toolApproval } : {}),
  };
  const messages: ModelMessage[] = [{ role: "user", content: "Add tea, then clear my list." }];
  const first = await generateText({ ...common, messages });
  const requests = first.content.flatMap((part) =>
    part.type === "tool-approval-request" ? [part] : [],
  );
  const outputs = first.steps.flatMap((step) =>
    step.toolResults.map((result) =>
      result.dynamic ? [result.toolName] : [result.toolName, result.output],
    ),
  );
  const held = {
    requested: requests.map((part) => part.toolCall.toolName),
    items: [...list.items],
  };
  const second = await generateText({
    ...common,
    messages: [
      ...messages,
      ...first.response.messages,
      {
        role: "tool",
        content: requests.map((part) => ({
          type: "tool-approval-response" as const,
          approvalId: part.approvalId,
          approved,
          ...(approved ? {} : { reason: "not today" }),
        })),
      },
    ],
  });
  const sent = model.doGenerateCalls.map((call) =>
    call.prompt.flatMap((message) =>
      message.role === "tool"
        ? message.content.flatMap((part) =>
            part.type === "tool-result" ? [[part.toolCallId, part.output]] : [],
          )
        : [],
    ),
  );
  return {
    held,
    outputs,
    text: second.text,
    items: list.items,
    ran: list.ran,
    asked,
    // What the model read back of each call, at its last turn.
    read: sent.at(-1),
    turns: model.doGenerateCalls.length,
  };
}

/** A command reporting its progress, by streamText with `preliminary: true`. */
async function preliminary() {
  const kettle = {
    getSchema: () => ({ commands: { boil: { title: "Boil water" } } }),
    async execute(
      _command: string,
      _input: unknown,
      context?: { progress(update: { progress: number; total?: number }): void },
    ) {
      for (const celsius of [40, 100]) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        context?.progress({ progress: celsius, total: 100 });
      }
      return { state: { celsius: 100 }, events: [] };
    },
  };
  const { tools } = aiSdkTools(kettle, { preliminary: true });
  const turns: StreamPart[][] = [
    [
      { type: "stream-start", warnings: [] },
      { type: "tool-call", toolCallId: "k1", toolName: "boil", input: "{}" },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ],
    [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Boiling." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ],
  ];
  const model = new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(turns.shift() ?? []) }),
  });
  const result = streamText({ model, tools, prompt: "Boil water.", stopWhen: stepCountIs(3) });
  const parts: Array<[boolean, unknown]> = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-result") parts.push([part.preliminary === true, part.output]);
  }
  return { parts, text: await result.text, title: tools.boil?.title };
}

/** A command answering with an image and a PDF (`contentParts()`): what the model reads of it. */
async function content() {
  // AI SDK 7 reports what it finds deprecated in a prompt through this global logger.
  const warned: unknown[] = [];
  Object.assign(globalThis, {
    AI_SDK_LOG_WARNINGS: (given: { warnings: unknown[] }) => {
      warned.push(...given.warnings);
    },
  });
  const chart = {
    getSchema: () => ({ commands: { draw: {} } }),
    execute: () => ({
      state: { drawn: true },
      events: [],
      content: [
        { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
        {
          type: "resource" as const,
          resource: { uri: "file:///q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
        },
      ],
    }),
  };
  const { tools } = aiSdkTools(chart, { content: contentParts() });
  const model = new MockLanguageModelV4({
    doGenerate: [calls(["d1", "draw", {}]), text("Here it is.")],
  });
  await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "Draw." });
  const read = model.doGenerateCalls
    .at(-1)
    ?.prompt.flatMap((message) =>
      message.role === "tool"
        ? message.content.flatMap((part) => (part.type === "tool-result" ? [part.output] : []))
        : [],
    );
  return { read, warned };
}

const report = {
  node: process.versions.node,
  // The tools' own `needsApproval`, which AI SDK 7 still honours: nothing more to pass.
  needsApproval: await roundTrip(true, false),
  // AI SDK 7's own setting, as aiSdkTools gives it.
  toolApproval: await roundTrip(true, true),
  rejected: await roundTrip(false, true),
  preliminary: await preliminary(),
  content: await content(),
};
console.log(JSON.stringify(report));
