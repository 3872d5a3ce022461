/**
 * `toolSearch({ onDemand: true })` sent by the providers' own SDK clients to a recording server
 * on 127.0.0.1: each request carries the search and the commands found so far, the earlier
 * request's tools first and unchanged, as the provider receives them.
 */
import { type Content, GoogleGenAI } from "@google/genai";
import { Ollama } from "ollama";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { openai } from "../../tools/dialects/openai/dialect.js";
import { igniteTools, runToolLoop, toolSearch } from "../../tools/index.js";
import { shop } from "../search/catalogue.js";
import { chatCompletion } from "./chat-completion.js";
import { useRecordingServer } from "./recording-server.js";

const server = useRecordingServer();

const called = (id: string, name: string, args: unknown) =>
  chatCompletion(
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    },
    "tool_calls",
  );

/** The tool names of each request the server received, in order. */
const offered = () =>
  server.received.map((request) =>
    (request.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
  );

describe("the built-in tools on demand, sent by the SDKs", () => {
  it("the OpenAI SDK (Chat Completions): the search, then what it found, appended unchanged", async () => {
    server.clear();
    const { component, ran } = shop();
    const tools = igniteTools(component, openai, { search: toolSearch({ onDemand: true }) });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
    server.reply(
      called("call_1", "search_tools", { query: "refund an order" }),
      called("call_2", "refundOrder", {}),
      chatCompletion({ role: "assistant", content: "Refunded." }, "stop"),
    );
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Refund order 12." }];

    const result = await runToolLoop({
      tools,
      messages,
      model: ({ tools: defs, messages: history }) =>
        client.chat.completions.create({ model: "gpt-4o", messages: history, tools: defs }),
    });

    expect(result.stop).toBe("done");
    expect(ran).toEqual(["refundOrder"]);
    const [first, second, third] = offered();
    expect(first).toEqual(["search_tools"]);
    expect(second?.slice(0, 2)).toEqual(["search_tools", "refundOrder"]);
    expect(third).toEqual(second);
    const sent = server.received.map((request) => JSON.stringify(request.body.tools));
    expect(sent[1]?.startsWith(sent[0]?.slice(0, -1) ?? "-")).toBe(true);
  });

  it("the ollama SDK (/api/chat): a call before any search is answered with the hint to search", async () => {
    server.clear();
    const { component, ran } = shop();
    const tools = igniteTools(component, ollama, { search: toolSearch({ onDemand: true }) });
    const client = new Ollama({ host: server.url });
    const reply = (calls: { name: string; arguments: unknown }[]) => ({
      model: "llama3.2",
      created_at: "2025-01-01T00:00:00.000Z",
      message: {
        role: "assistant",
        content: "",
        tool_calls: calls.map((call) => ({ function: call })),
      },
      done: true,
      done_reason: "stop",
    });
    server.reply(
      reply([{ name: "printShippingLabel", arguments: {} }]),
      reply([{ name: "search_tools", arguments: { query: "print the shipping label" } }]),
      reply([{ name: "printShippingLabel", arguments: {} }]),
      { ...reply([]), message: { role: "assistant", content: "Printed." } },
    );

    const result = await runToolLoop({
      tools,
      messages: [{ role: "user", content: "Print the label." }],
      model: ({ tools: defs, messages }) =>
        client.chat({ model: "llama3.2", stream: false, messages, tools: defs }),
    });

    expect(result.stop).toBe("done");
    expect(ran).toEqual(["printShippingLabel"]);
    const [first, second, third] = offered();
    expect(first).toEqual(["search_tools"]);
    expect(second).toEqual(["search_tools"]);
    expect(third?.slice(0, 2)).toEqual(["search_tools", "printShippingLabel"]);
    const history = server.received[1]?.body.messages as { role: string; content: string }[];
    const hint = history.at(-1);
    expect(hint).toMatchObject({ role: "tool", tool_name: "printShippingLabel" });
    expect(hint?.content).toContain("Call search_tools to find the tools");
  });

  it("the Gemini SDK (generateContent): the search, then what it found, and a found command unavailable answered as such", async () => {
    server.clear();
    const { component, ran } = shop();
    const tools = igniteTools(component, gemini, { search: toolSearch({ onDemand: true }) });
    const client = new GoogleGenAI({
      apiKey: "test-key",
      httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
    });
    const turn = (...parts: object[]) => ({
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 20, totalTokenCount: 70 },
      modelVersion: "gemini-2.5-flash",
      responseId: "r-1",
    });
    const call = (name: string, args: object) => ({ functionCall: { name, args } });
    server.reply(
      turn(call("search_tools", { query: "end the sale" })),
      turn(call("endSale", {}), call("expireCoupon", {})),
      turn({ text: "The sale is not running; the coupon is expired." }),
    );
    const contents: Content[] = [{ role: "user", parts: [{ text: "End the sale." }] }];

    const result = await runToolLoop({
      tools,
      messages: contents,
      model: ({ tools: defs, messages }) =>
        client.models.generateContent({
          model: "gemini-2.5-flash",
          contents: messages,
          config: { tools: defs },
        }),
    });

    expect(result.stop).toBe("done");
    const declared = () =>
      server.received.map((request) =>
        (
          (request.body.tools as { functionDeclarations: { name: string }[] }[])[0]
            ?.functionDeclarations ?? []
        ).map((tool) => tool.name),
      );
    const [first, second] = declared();
    expect(first).toEqual(["search_tools"]);
    // endSale was found, but no sale is running: it is not offered, and its call is answered so.
    expect(second?.[0]).toBe("search_tools");
    expect(second).not.toContain("endSale");
    expect(second).toContain("expireCoupon");
    expect(ran).toEqual(["expireCoupon"]);
    const history = server.received[2]?.body.contents as {
      parts: { functionResponse?: { name: string; response: unknown } }[];
    }[];
    const answered = history.at(-1)?.parts.map((part) => part.functionResponse);
    expect(answered?.[0]?.name).toBe("endSale");
    expect(JSON.stringify(answered?.[0]?.response)).toContain("Unavailable");
  });
});
