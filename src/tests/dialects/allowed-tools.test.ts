import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  allowedTools,
  type OpenAIChatResponse,
  type OpenAIChatToolRequest,
  type OpenAIResponsesToolRequest,
  openai,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import { igniteTools, runToolLoop } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

// OpenAI's allowed tools, as the SDK types them (`ChatCompletionAllowedToolChoice` and the
// Responses API's `ToolChoiceAllowed`) and the API reference shows them: the full list stays in
// `tools`, the subset the model may call goes in `tool_choice`.

/** The Counter: `reset` is available once the count is above 0, `unlock` while it is locked. */
function counter() {
  const component = new Counter();
  return { component, tools: igniteTools(component, allowedTools(openai)) };
}

describe("allowedTools(openai)", () => {
  it("sends every declared tool, byte for byte the same, while what is available changes", () => {
    const { component, tools } = counter();
    const before = tools.toToolDefs();
    component.state = { ...component.state, count: 3 };
    const after = tools.toToolDefs();

    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    expect(before.tools.map((tool) => tool.function.name)).toEqual([
      "increment",
      "reset",
      "setLimit",
      "unlock",
    ]);
    expect(before.tool_choice).toEqual({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: [
          { type: "function", function: { name: "increment" } },
          { type: "function", function: { name: "setLimit" } },
        ],
      },
    });
    expect(after.tool_choice).toMatchObject({
      allowed_tools: { tools: [{}, { function: { name: "reset" } }, {}] },
    });
  });

  it('says "auto" when every command is available and "none" when none is', () => {
    const { component, tools } = counter();
    component.state = { count: 3, limit: 10, locked: true };
    expect(tools.toToolDefs().tool_choice).toBe("auto");

    const none = igniteTools(
      {
        getSchema: () => ({ commands: { open: { gated: true }, close: { gated: true } } }),
        canExecute: () => false,
        execute: () => ({ state: {}, events: [] }),
      },
      allowedTools(openai),
    );
    expect(none.toToolDefs().tool_choice).toBe("none");
  });

  it("answers a call outside the allowed set Unavailable, and runs nothing", async () => {
    const { component, tools } = counter();
    const response: OpenAIChatResponse = {
      choices: [
        {
          message: {
            role: "assistant",
            tool_calls: [
              { id: "c1", type: "function", function: { name: "reset", arguments: "{}" } },
            ],
          },
        },
      ],
    };
    const [answer] = await tools.answerToolCalls(response);
    expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(component.calls).toEqual([]);
  });

  it("gives what the SDK's create() takes, spread, without a cast", () => {
    const { tools } = counter();
    const defs = tools.toToolDefs();
    expectTypeOf(defs).toEqualTypeOf<OpenAIChatToolRequest>();
    expectTypeOf(defs.tools).toMatchTypeOf<ChatCompletionTool[]>();
    expectTypeOf(defs.tool_choice).toMatchTypeOf<ChatCompletionToolChoiceOption>();
    const params: ChatCompletionCreateParamsNonStreaming = { model: "m", messages: [], ...defs };
    expect(params.tool_choice).toEqual(defs.tool_choice);
  });

  it("refuses what is no dialect, naming what it takes", () => {
    for (const [given, shown] of [
      [undefined, "undefined"],
      ["openai", '"openai" (a string)'],
    ] as const) {
      expect(() => Reflect.apply(allowedTools, undefined, [given])).toThrow(
        new TypeError(`allowedTools: dialect must be openai or openaiResponses, not ${shown}`),
      );
    }
  });

  it("leaves the dialect it is given a plain list", () => {
    expectTypeOf(igniteTools(new Counter(), openai).toToolDefs()).toMatchTypeOf<
      ChatCompletionTool[]
    >();
    expect(Array.isArray(igniteTools(new Counter(), openai({})).toToolDefs())).toBe(true);
  });
});

describe("allowedTools(openaiResponses)", () => {
  it("sends every declared tool unchanged and the available ones as the allowed tools", () => {
    const component = new Counter();
    const tools = igniteTools(component, allowedTools(openaiResponses));
    const before = tools.toToolDefs();
    component.state = { ...component.state, locked: true };
    const after = tools.toToolDefs();

    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    expect(before.tool_choice).toEqual({
      type: "allowed_tools",
      mode: "auto",
      tools: [
        { type: "function", name: "increment" },
        { type: "function", name: "setLimit" },
      ],
    });
    expect(after.tool_choice).toMatchObject({ tools: [{}, {}, { name: "unlock" }] });
    expectTypeOf(after).toEqualTypeOf<OpenAIResponsesToolRequest>();
    const params: ResponseCreateParamsNonStreaming = { model: "m", input: [], ...after };
    expect(params.tools).toHaveLength(4);
  });
});

describe("runToolLoop with allowed tools", () => {
  it("hands the model the same tool list every turn and the allowed subset of that turn", async () => {
    const component = new Counter();
    const tools = igniteTools(component, allowedTools(openai));
    const seen: OpenAIChatToolRequest[] = [];
    const call = (name: string, args: string): OpenAIChatResponse => ({
      choices: [
        {
          message: {
            role: "assistant",
            tool_calls: [{ id: name, type: "function", function: { name, arguments: args } }],
          },
        },
      ],
    });
    const replies = [call("increment", '{"by":2}'), call("reset", "{}")];
    const done: OpenAIChatResponse = {
      choices: [{ message: { role: "assistant", content: "Done" } }],
    };
    const result = await runToolLoop({
      tools,
      messages: [{ role: "user", content: "Count to two, then reset." }],
      model: async ({ tools: request }) => {
        seen.push(request);
        return replies.shift() ?? done;
      },
    });

    expect(result.stop).toBe("done");
    expect(new Set(seen.map((request) => JSON.stringify(request.tools))).size).toBe(1);
    expect(seen.map((request) => request.tool_choice !== "auto")).toEqual([true, true, true]);
    expect(JSON.stringify(seen[1]?.tool_choice)).toContain('"reset"');
    expect(JSON.stringify(seen[0]?.tool_choice)).not.toContain('"reset"');
    expect(component.calls.map(({ command }) => command)).toEqual(["increment", "reset"]);
  });
});
