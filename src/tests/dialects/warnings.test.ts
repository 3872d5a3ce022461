import { describe, expect, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { openai, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import {
  buildManifest,
  type CommandSchema,
  type NeutralManifest,
  type ToolDefsContext,
  type ToolWarning,
} from "../../tools/index.js";

// What a provider's format could not carry as it was — a name mapped, strict mode not applied,
// a keyword Gemini's OpenAPI schema lacks — reaches the application through one channel, the
// `warn` sink of the context, the same way for every dialect. The model never sees it.

type Offer = (manifest: NeutralManifest, context?: ToolDefsContext) => unknown;

const dialects: [string, Offer][] = [
  ["openai", (m, c) => openai.toToolDefs(m, c)],
  ["openaiResponses", (m, c) => openaiResponses.toToolDefs(m, c)],
  ["anthropic", (m, c) => anthropic.toToolDefs(m, c)],
  ["gemini", (m, c) => gemini.toToolDefs(m, c)],
  ["gemini openapi", (m, c) => gemini({ schema: "openapi" }).toToolDefs(m, c)],
  ["ollama", (m, c) => ollama.toToolDefs(m, c)],
  ["mcp", (m, c) => mcp.toToolDefs(m, c)],
];

function warningsOf(offer: Offer, commands: Record<string, CommandSchema>): ToolWarning[] {
  const warnings: ToolWarning[] = [];
  offer(buildManifest({ commands }), { warn: (warning) => warnings.push(warning) });
  return warnings;
}

describe.each(dialects)("the %s dialect's warnings", (_name, offer) => {
  it("reports a command offered under another name, once per tool defs", () => {
    expect(warningsOf(offer, { "set limit": {}, reset: {} })).toEqual([
      {
        code: "name-mapped",
        command: "set limit",
        message: expect.stringMatching(
          /^"set limit" is offered as "set_limit_[0-9a-z]+": the provider does not accept/,
        ),
      },
    ]);
  });

  it("reports nothing when nothing was downgraded, and works without a sink", () => {
    const commands = { reset: {}, add: { input: { type: "object", properties: {} } } };
    expect(warningsOf(offer, commands)).toEqual([]);
    expect(() => offer(buildManifest({ commands: { "set limit": {} } }))).not.toThrow();
  });

  it("ignores a sink that throws: the tool definitions are still made", () => {
    const manifest = buildManifest({ commands: { "set limit": {} } });
    const warn = () => {
      throw new Error("logger down");
    };
    expect(offer(manifest, { warn })).toEqual(offer(manifest));
  });
});

describe("strict-fallback", () => {
  const open = { input: { type: "object", additionalProperties: { type: "number" } } };

  it.each([
    ["openai", openai({ strict: true })],
    ["openaiResponses", openaiResponses({ strict: true })],
    ["anthropic", anthropic({ strict: true })],
  ] as const)(
    "reports each %s tool sent without the strict mode asked for, and why",
    (_, dialect) => {
      const warnings: ToolWarning[] = [];
      dialect.toToolDefs(buildManifest({ commands: { scores: open, reset: {} } }), {
        warn: (warning) => warnings.push(warning),
      });
      expect(warnings).toEqual([
        {
          code: "strict-fallback",
          command: "scores",
          message:
            '"scores" is sent non-strict: an object that allows other properties, or declares none, has no strict form.',
        },
      ]);
    },
  );

  it("says nothing about strict mode when it was not asked for", () => {
    const warnings: ToolWarning[] = [];
    openai.toToolDefs(buildManifest({ commands: { scores: open } }), {
      warn: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([]);
  });
});

describe("schema-downgraded", () => {
  it("lists each keyword Gemini's OpenAPI mode dropped, where it stood in the command's schema", () => {
    const warnings: ToolWarning[] = [];
    const commands = {
      pay: {
        input: {
          type: "object",
          properties: {
            amount: { type: "number", exclusiveMinimum: 0, multipleOf: 0.01 },
            note: { type: "string", format: "email" },
          },
          required: ["amount"],
          additionalProperties: false,
        },
      },
      tip: { input: { type: "number", multipleOf: 0.5 } },
      reset: {},
    };
    gemini({ schema: "openapi" }).toToolDefs(buildManifest({ commands }), {
      warn: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([
      {
        code: "schema-downgraded",
        command: "pay",
        message:
          '"pay": Gemini\'s OpenAPI schema cannot carry additionalProperties at the root, ' +
          "multipleOf at /properties/amount, exclusiveMinimum at /properties/amount, " +
          "format at /properties/note; the model is told a looser schema, and every call is " +
          "still validated against the full one.",
      },
      {
        code: "schema-downgraded",
        command: "tip",
        message: expect.stringMatching(/^"tip": .* cannot carry multipleOf at the root; /),
      },
    ]);
  });

  it("reports nothing in JSON Schema mode, which sends the schema as it is", () => {
    const warnings: ToolWarning[] = [];
    const input = { type: "number", multipleOf: 0.5 };
    gemini.toToolDefs(buildManifest({ commands: { tip: { input } } }), {
      warn: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([]);
  });
});
