import { type Content, GenerateContentResponse, GoogleGenAI, type Tool } from "@google/genai";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type GeminiContent, gemini } from "../../tools/dialects/gemini/dialect.js";
import { type AgentComponent, changeNotes, igniteTools, runToolLoop } from "../../tools/index.js";
import { counterWithTodos } from "../fixtures.js";
import { oven } from "../shell/oven.js";
import { PREHEATED_NOTE } from "./preheated.js";
import { lastOf, useRecordingServer } from "./recording-server.js";

// What generateContent answers when the model stops with text.
const finalReply = {
  candidates: [
    {
      content: { role: "model", parts: [{ text: "The count is 2 and milk is on the list." }] },
      finishReason: "STOP",
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 80, candidatesTokenCount: 12, totalTokenCount: 92 },
  modelVersion: "gemini-2.5-flash",
  responseId: "r-final",
};

const server = useRecordingServer({ fallback: finalReply });
const received = server.received;
let client: GoogleGenAI;

beforeAll(() => {
  client = new GoogleGenAI({
    apiKey: "test-key",
    httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
  });
});

describe("gemini against @google/genai 2.32.0 over HTTP", () => {
  it("sends our declarations, runs the model's calls and sends back turn and results", async () => {
    const { component, counter, todos } = counterWithTodos("todo add");
    const bridge = igniteTools(component, gemini);
    const tools = bridge.toToolDefs();
    const sent = structuredClone(tools);
    const todoTool = tools[0]?.functionDeclarations.find((tool) => tool.name.startsWith("todo"));
    expect(todoTool?.name).toMatch(/^todo_add_[0-9a-z]+$/);

    // A recorded thinking-model turn: a thought summary, then two calls without ids, the first
    // carrying the thought signature the API requires back.
    const modelTurn = {
      role: "model",
      parts: [
        { text: "**Planning** Increment by two, then add the todo.", thought: true },
        { functionCall: { name: "increment", args: { by: 2 } }, thoughtSignature: "Cr8CAdHtim9=" },
        { functionCall: { name: todoTool?.name, args: { value: "milk" } } },
      ],
    };
    server.reply({
      candidates: [{ content: modelTurn, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70 },
      modelVersion: "gemini-2.5-flash",
      responseId: "r-1",
    });

    const history: Content[] = [{ role: "user", parts: [{ text: "Add two and put milk down." }] }];
    const start = received.length;
    const reply = await client.models.generateContent({
      model: "gemini-2.5-flash",
      contents: history,
      config: { tools },
    });
    expect(reply).toBeInstanceOf(GenerateContentResponse);
    expect(received[start]?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(received[start]?.body.tools).toEqual(sent);

    const results = await bridge.handleToolCalls(reply);
    expect(counter.state.count).toBe(2);
    expect(todos).toEqual(["milk"]);

    const contents: GeminiContent[] = bridge.appendTurn(history, reply, results);
    const final = await client.models.generateContent({
      model: "gemini-2.5-flash",
      contents,
      config: { tools: bridge.toToolDefs() },
    });
    expect(final.text).toBe("The count is 2 and milk is on the list.");
    expect(received[start + 1]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Add two and put milk down." }] },
      modelTurn,
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "increment",
              response: {
                output: { snapshot: { count: 2, limit: 10, locked: false, todos: [] }, events: [] },
              },
            },
          },
          {
            functionResponse: {
              name: todoTool?.name,
              response: {
                output: {
                  snapshot: { count: 2, limit: 10, locked: false, todos: ["milk"] },
                  events: [],
                },
              },
            },
          },
        ],
      },
    ]);
  });

  it("sends a note of what changed outside the calls as a text part beside the function responses", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, gemini);
    server.reply({
      candidates: [
        {
          content: {
            role: "model",
            parts: [{ functionCall: { name: "preheat", args: { target: 180 } } }],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 8, totalTokenCount: 48 },
      modelVersion: "gemini-2.5-flash",
      responseId: "r-preheat",
    });
    const start = received.length;

    const result = await runToolLoop({
      tools,
      model: ({ tools, messages, signal, turn }) => {
        if (turn === 1) world.preheated();
        return client.models.generateContent({
          model: "gemini-2.5-flash",
          contents: messages,
          config: { tools, abortSignal: signal },
        });
      },
      messages: [{ role: "user", parts: [{ text: "Bake bread." }] }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told).toBe(PREHEATED_NOTE);
    expect(lastOf(received[start + 1]?.body.contents, 1)).toEqual([
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "preheat",
              response: {
                output: {
                  snapshot: { temperature: 180, preheated: true, door: "closed" },
                  events: [],
                },
              },
            },
          },
          { text: PREHEATED_NOTE },
        ],
      },
    ]);
  });

  it("sends OpenAPI-mode parameters exactly as the dialect made them, and echoes call ids", async () => {
    const received0 = received.length;
    const booked: unknown[] = [];
    const component: AgentComponent<unknown[]> = {
      getSchema: () => ({
        commands: {
          book: {
            description: "Book a table.",
            input: {
              $schema: "https://json-schema.org/draft/2020-12/schema",
              type: "object",
              properties: {
                name: { $ref: "#/$defs/Name" },
                seats: { type: "integer", minimum: 1, exclusiveMaximum: 13 },
                when: { type: "string", format: "date-time" },
                seating: { enum: ["inside", "terrace"] },
                note: { anyOf: [{ type: "string", maxLength: 200 }, { type: "null" }] },
                tags: { type: "array", items: { type: "string" }, maxItems: 3 },
              },
              required: ["name", "seats"],
              additionalProperties: false,
              $defs: { Name: { type: "string", minLength: 1, description: "Who books." } },
            },
          },
          cancel: { description: "Cancel the booking." },
        },
      }),
      execute: (_command, input) => {
        booked.push(input);
        return { state: booked, events: [] };
      },
    };
    const bridge = igniteTools(component, gemini({ schema: "openapi" }));
    const tools = bridge.toToolDefs();
    const sent = structuredClone(tools);
    expect(sent[0]?.functionDeclarations).toEqual([
      {
        name: "book",
        description: "Book a table.",
        parameters: {
          type: "OBJECT",
          properties: {
            name: { type: "STRING", minLength: "1", description: "Who books." },
            seats: { type: "INTEGER", minimum: 1, maximum: 13 },
            when: { type: "STRING", format: "date-time" },
            seating: { type: "STRING", enum: ["inside", "terrace"] },
            note: { type: "STRING", maxLength: "200", nullable: true },
            tags: { type: "ARRAY", items: { type: "STRING" }, maxItems: "3" },
          },
          required: ["name", "seats"],
        },
      },
      { name: "cancel", description: "Cancel the booking." },
    ]);

    server.reply({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              {
                functionCall: { id: "fc-3q9", name: "book", args: { name: "Ada", seats: 13 } },
                thoughtSignature: "EjQKMgE=",
              },
              { functionCall: { id: "fc-3r1", name: "book", args: { name: "Ada", seats: 4 } } },
            ],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      modelVersion: "gemini-2.0-flash",
      responseId: "r-2",
    });
    const history: Content[] = [{ role: "user", parts: [{ text: "A table for Ada." }] }];
    // Gemini's SDK types `Schema.type` as an enum no string literal is assignable to.
    const reply = await client.models.generateContent({
      model: "gemini-2.0-flash",
      contents: history,
      config: { tools: tools as Tool[] },
    });
    expect(received[received0]?.body.tools).toEqual(sent);

    const results = await bridge.handleToolCalls(reply);
    expect(booked).toEqual([{ name: "Ada", seats: 4 }]);
    await client.models.generateContent({
      model: "gemini-2.0-flash",
      contents: bridge.appendTurn(history, reply, results),
    });
    const contents = received[received0 + 1]?.body.contents;
    expect(Array.isArray(contents) ? contents[2] : undefined).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "fc-3q9",
            name: "book",
            response: {
              error:
                'Error (InvalidInput): Invalid input for "book": /seats must be < 13. Fix the input and call again.\n' +
                'Issues: [{"path":"/seats","message":"must be < 13","keyword":"exclusiveMaximum"}]',
            },
          },
        },
        {
          functionResponse: {
            id: "fc-3r1",
            name: "book",
            response: { output: { snapshot: [{ name: "Ada", seats: 4 }], events: [] } },
          },
        },
      ],
    });
  });

  it("sends any OpenAPI-mode schema unchanged through the SDK's own schema pass", async () => {
    const type = fc.constantFrom(
      "string",
      "number",
      "integer",
      "boolean",
      "array",
      "object",
      "null",
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof(
        { depthSize: "small" },
        fc.constant({ type: "string" }),
        fc.record(
          {
            type: fc.oneof(type, fc.array(type, { maxLength: 3 })),
            enum: fc.array(fc.oneof(fc.string(), fc.constant(null)), { maxLength: 3 }),
            default: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
            maxLength: fc.nat(),
            items: tie("schema"),
            // Not `__proto__`: the SDK's own pass copies a schema by assignment, where that name
            // sets the prototype, so a property of that name never survives @google/genai 2.32.
            properties: fc.dictionary(
              fc.string({ minLength: 1 }).filter((name) => name !== "__proto__"),
              tie("schema"),
              { maxKeys: 3 },
            ),
            anyOf: fc.array(tie("schema"), { maxLength: 3 }),
            oneOf: fc.array(tie("schema"), { maxLength: 2 }),
            allOf: fc.array(tie("schema"), { maxLength: 2 }),
            $ref: fc.constantFrom("#", "#/$defs/a"),
          },
          { requiredKeys: [] },
        ),
      ),
    }));
    const openapi = gemini({ schema: "openapi" });
    await fc.assert(
      fc.asyncProperty(schema, async (input) => {
        // Built directly: these schemas need not be valid JSON Schema to be downgraded.
        const inputSchema = { type: "object", properties: { p: input }, $defs: { a: input } };
        const manifest = [{ name: "run", inputSchema, gated: false }];
        const tools = openapi.toToolDefs(manifest);
        const sent = structuredClone(tools);
        const start = received.length;
        await client.models.generateContent({
          model: "gemini-2.0-flash",
          contents: "hi",
          config: { tools: tools as Tool[] },
        });
        expect(received[start]?.body.tools ?? []).toEqual(sent);
      }),
      { numRuns: 60 },
    );
    // Sixty HTTP round trips through the SDK: seconds on a loaded CI machine, not a hang.
  }, 30_000);
});
