import { FunctionCallingConfigMode, GoogleGenAI } from "@google/genai";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  allowedFunctions,
  type GeminiTool,
  type GeminiToolRequest,
  gemini,
} from "../../tools/dialects/gemini/dialect.js";
import { igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";
import { useRecordingServer } from "./recording-server.js";

// Gemini's allowed function names (`toolConfig.functionCallingConfig`, mode VALIDATED: a call to
// one of them or text), as @google/genai sends them: the declarations stay the same request after
// request, the names callable now change.
const reply = {
  candidates: [
    { content: { role: "model", parts: [{ text: "Done." }] }, finishReason: "STOP", index: 0 },
  ],
  modelVersion: "gemini-2.5-flash",
  responseId: "r-1",
};
const server = useRecordingServer({ fallback: reply });
let client: GoogleGenAI;
beforeAll(() => {
  client = new GoogleGenAI({
    apiKey: "test-key",
    httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
  });
});

describe("allowedFunctions(gemini) with @google/genai over HTTP", () => {
  it("sends every declaration each request and the callable ones as allowedFunctionNames", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, allowedFunctions(gemini));
    const send = async () => {
      const { tools, toolConfig } = bridge.toToolDefs();
      const { functionCallingConfig: calling } = toolConfig;
      // The SDK types `mode` as an enum: its member of the same name.
      const functionCallingConfig = { ...calling, mode: FunctionCallingConfigMode[calling.mode] };
      await client.models.generateContent({
        model: "gemini-2.5-flash",
        contents: "Count.",
        config: { tools, toolConfig: { functionCallingConfig } },
      });
    };

    await send();
    counter.state = { count: 1, limit: 10, locked: true };
    await send();

    const [first, second] = server.received.map((request) => request.body);
    expect(second?.tools).toStrictEqual(first?.tools);
    expect(first?.toolConfig).toEqual({
      functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["increment", "setLimit"] },
    });
    expect(second?.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    expectTypeOf(bridge.toToolDefs()).toEqualTypeOf<GeminiToolRequest<GeminiTool>>();
  });

  it("says NONE when nothing is callable, and answers a call outside the names Unavailable", async () => {
    const closed = igniteTools(
      {
        getSchema: () => ({ commands: { open: { gated: true } } }),
        canExecute: () => false,
        execute: () => ({ state: {}, events: [] }),
      },
      allowedFunctions(gemini),
    );
    expect(closed.toToolDefs().toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
    const [answer] = await closed.answerToolCalls({
      candidates: [
        { content: { role: "model", parts: [{ functionCall: { name: "open", args: {} } }] } },
      ],
    });
    expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(() => Reflect.apply(allowedFunctions, undefined, [undefined])).toThrow(
      new TypeError("allowedFunctions: dialect must be gemini (configured or not), not undefined"),
    );
  });
});
