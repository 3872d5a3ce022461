/**
 * The model's wait tool in every dialect: its definition in the provider's own format (typed by
 * the provider's SDK), a provider's call to it parsed and answered with what the wait says, and
 * what strict modes and schema subsets make of its optional properties.
 */
import type { Tool as AnthropicTool } from "@anthropic-ai/sdk/resources/messages";
import type { FunctionDeclaration } from "@google/genai";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Tool as OllamaTool } from "ollama";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { FunctionTool as ResponsesFunctionTool } from "openai/resources/responses/responses";
import { describe, expect, it, vi } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { openai, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import { igniteTools, type JsonSchema, type ToolWarning, waitTool } from "../../tools/index.js";
import { everyDialect, offeredNames } from "../shell/every-dialect.js";
import { oven } from "../shell/oven.js";

const WAIT = { wait: waitTool({ maxMs: 30_000 }) };

const DESCRIPTION =
  "Wait, without acting, until something happens: the event you name, or the command you name becoming available, whichever comes first; name neither to wait for any change. Answers with what happened, the state now and the tools available now, or says that nothing happened in time. Your other tool calls still run while it waits.";

const EVENT = {
  type: "string",
  enum: ["preheated", "doorOpened", "doorClosed", "baking"],
  description: "Wait for this event.",
};
const AVAILABLE = {
  type: "string",
  enum: ["bake"],
  description: "Wait until this command is available.",
};
const SECONDS = {
  type: "number",
  minimum: 0,
  maximum: 30,
  description: "How long to wait at most, in seconds (the default and the most: 30).",
};

/** The wait tool's input schema as a JSON Schema dialect receives it: every property optional. */
const INPUT: JsonSchema = {
  type: "object",
  properties: { event: EVENT, available: AVAILABLE, seconds: SECONDS },
  additionalProperties: false,
};

/** What the model reads once the oven reports it is preheated. */
const ANSWER = {
  waited: 'The event "preheated" happened.',
  snapshot: { temperature: 20, preheated: true, door: "closed" },
  events: [{ type: "preheated" }],
  available: ["bake", "preheat"],
};

/** The wait's answer inside a result block's text, however many envelopes of JSON it is in. */
function observationIn(value: unknown): unknown {
  if (typeof value === "string") {
    try {
      return observationIn(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object" || value === null) return undefined;
  if ("waited" in value) return value;
  for (const inner of Object.values(value)) {
    const found = observationIn(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A bridge over a fresh oven with the wait tool, and the warnings it reported. */
function bridged<ToolDefs, Response, ResultBlock>(
  dialect: Parameters<typeof igniteTools<never, never, ToolDefs, Response, ResultBlock>>[1],
) {
  const warnings: ToolWarning[] = [];
  const { component, world } = oven();
  const tools = igniteTools(component, dialect, {
    ...WAIT,
    onWarning: (warning) => warnings.push(warning),
  });
  return { tools, world, warnings };
}

describe.each(everyDialect)(
  "the wait tool in the $name dialect",
  ({ dialect, respond, textOf }) => {
    it("is offered beside the commands", () => {
      const { tools } = bridged(dialect);
      expect(offeredNames(tools.toToolDefs())).toEqual(["preheat", "waitFor"]);
    });

    it("is called as the provider calls a tool, and answered with what happened", async () => {
      const { tools, world } = bridged(dialect);
      const response = respond({ id: "call_1", name: "waitFor", args: { event: "preheated" } });

      const answered = tools.handleToolCalls(response as never);
      await vi.waitFor(() => expect(world.held()).toBe(2));
      world.preheated();
      const [block] = await answered;

      // Every dialect carries the same observation, each in its own envelope (the fake dialect's
      // block is the observation itself, beside the call's id and name).
      expect(observationIn(textOf(block))).toMatchObject(ANSWER);
      expect(world.held()).toBe(0);
    });
  },
);

describe("the wait tool's definition, as each provider's SDK types it", () => {
  it("is a Chat Completions function tool", () => {
    const defs: ChatCompletionFunctionTool[] = bridged(openai).tools.toToolDefs();
    expect(defs[1]).toEqual({
      type: "function",
      function: { name: "waitFor", description: DESCRIPTION, parameters: INPUT },
    });
  });

  it("is an Anthropic tool", () => {
    const defs: AnthropicTool[] = bridged(anthropic).tools.toToolDefs();
    expect(defs[1]).toEqual({ name: "waitFor", description: DESCRIPTION, input_schema: INPUT });
  });

  it("is a Gemini function declaration, by JSON Schema", () => {
    const [declarations] = bridged(gemini).tools.toToolDefs();
    const declaration: FunctionDeclaration | undefined = declarations?.functionDeclarations?.[1];
    expect(declaration).toEqual({
      name: "waitFor",
      description: DESCRIPTION,
      parametersJsonSchema: INPUT,
    });
  });

  it("is a Gemini function declaration in its OpenAPI subset, which has no additionalProperties", () => {
    const { tools, warnings } = bridged(gemini({ schema: "openapi" }));
    const [declarations] = tools.toToolDefs();
    // The SDK types `type` as its `Type` enum, whose values are these strings.
    expect(declarations?.functionDeclarations?.[1]).toEqual({
      name: "waitFor",
      description: DESCRIPTION,
      parameters: {
        type: "OBJECT",
        properties: {
          event: { ...EVENT, type: "STRING" },
          available: { ...AVAILABLE, type: "STRING" },
          seconds: { ...SECONDS, type: "NUMBER" },
        },
      },
    });
    // The same loss every command with a closed object has; each call is still validated whole.
    expect(warnings.map((warning) => [warning.code, warning.command])).toEqual([
      ["schema-downgraded", "preheat"],
      ["schema-downgraded", "waitFor"],
    ]);
  });

  it("is an Ollama tool", () => {
    const defs: OllamaTool[] = bridged(ollama).tools.toToolDefs();
    expect(defs[1]).toEqual({
      type: "function",
      function: { name: "waitFor", description: DESCRIPTION, parameters: INPUT },
    });
  });

  it("is an MCP tool the SDK's schema accepts, read-only and idempotent", () => {
    const listed = ListToolsResultSchema.parse(bridged(mcp).tools.toToolDefs());
    expect(listed.tools[1]).toEqual({
      name: "waitFor",
      title: "Wait",
      description: DESCRIPTION,
      inputSchema: INPUT,
      annotations: { title: "Wait", readOnlyHint: true, idempotentHint: true },
    });
  });
});

describe("the wait tool in OpenAI's strict mode", () => {
  /** Every optional property required and nullable: how strict mode says "optional". */
  const STRICT_INPUT = {
    type: "object",
    properties: {
      event: { anyOf: [EVENT, { type: "null" }] },
      available: { anyOf: [AVAILABLE, { type: "null" }] },
      seconds: { anyOf: [SECONDS, { type: "null" }] },
    },
    additionalProperties: false,
    required: ["event", "available", "seconds"],
  };

  it("is sent strict, its optional properties nullable, without a warning", () => {
    const chat = bridged(openai({ strict: true }));
    const chatDefs: ChatCompletionFunctionTool[] = chat.tools.toToolDefs();
    expect(chatDefs[1]).toEqual({
      type: "function",
      function: {
        name: "waitFor",
        description: DESCRIPTION,
        parameters: STRICT_INPUT,
        strict: true,
      },
    });
    const responses = bridged(openaiResponses({ strict: true }));
    const responsesDefs: ResponsesFunctionTool[] = responses.tools.toToolDefs();
    expect(responsesDefs[1]).toEqual({
      type: "function",
      name: "waitFor",
      description: DESCRIPTION,
      parameters: STRICT_INPUT,
      strict: true,
    });
    expect([...chat.warnings, ...responses.warnings]).toEqual([]);
  });

  it("reads the nulls a strict model sends as properties left out, and answers the wait", async () => {
    const { tools, world } = bridged(openai({ strict: true }));
    const response = {
      choices: [
        {
          finish_reason: "tool_calls" as const,
          message: {
            role: "assistant" as const,
            content: null,
            refusal: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function" as const,
                function: {
                  name: "waitFor",
                  arguments: '{"event":"preheated","available":null,"seconds":null}',
                },
              },
            ],
          },
        },
      ],
    };

    expect(tools.parseToolCalls(response)).toMatchObject([
      { id: "call_1", name: "waitFor", input: { event: "preheated" } },
    ]);
    const answered = tools.handleToolCalls(response);
    await vi.waitFor(() => expect(world.held()).toBe(2));
    world.preheated();
    const [block] = await answered;

    expect(block).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: JSON.stringify(ANSWER),
    });
  });
});

describe("the wait tool in Anthropic's strict mode", () => {
  it("is sent without strict mode, which cannot carry its bound on seconds, and says so", () => {
    const { tools, warnings } = bridged(anthropic({ strict: true }));
    const defs: AnthropicTool[] = tools.toToolDefs();

    expect(defs[1]).toEqual({ name: "waitFor", description: DESCRIPTION, input_schema: INPUT });
    expect(warnings).toContainEqual({
      code: "strict-fallback",
      command: "waitFor",
      message: '"waitFor" is sent non-strict: Anthropic\'s strict mode does not accept `minimum`.',
    });
  });
});
