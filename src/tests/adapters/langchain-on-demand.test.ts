import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { langchainActiveTools, langchainTools } from "ignite-element/tools/langchain";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { toolSearch } from "../../tools/index.js";
import { shop, shopCommands } from "../search/catalogue.js";
import { ScriptedChatModel } from "./scripted-chat-model.js";

// toolSearch({ onDemand: true }) in LangChain v1's `createAgent`: the agent holds every tool, and
// the middleware `langchainActiveTools(tools)` gives each model call the search and what it found.

type Call = [name: string, args: Record<string, unknown>];

/** A model turn that calls `calls`, with ids `<turn>_<index>`. */
function turn(id: string, ...calls: Call[]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: calls.map(([name, args], index) => ({
      id: `${id}_${index}`,
      name,
      args,
      type: "tool_call" as const,
    })),
  });
}

/** The names of the tools each model call was bound to, in the order bound. */
function offered(model: ScriptedChatModel): string[][] {
  return model.requests.map(({ tools }) =>
    (tools ?? []).map((bound) => (bound as { function: { name: string } }).function.name),
  );
}

/** The ToolMessages of a run, by call id: what the model read, and whether it was an error. */
function answers(messages: readonly unknown[]) {
  return Object.fromEntries(
    messages.flatMap((message) =>
      ToolMessage.isInstance(message)
        ? [[message.tool_call_id, { status: message.status, text: message.text }]]
        : [],
    ),
  );
}

const onDemand = toolSearch({ onDemand: true, limit: 2 });

/** Runs an agent over `tools` with the middleware, the model answering with `script`. */
async function run(tools: ReturnType<typeof langchainTools>, script: AIMessage[]) {
  const model = new ScriptedChatModel(script);
  const agent = createAgent({ model, tools, middleware: [langchainActiveTools(tools)] });
  const { messages } = await agent.invoke({ messages: [new HumanMessage("Refund order 12.")] });
  return { offered: offered(model), answers: answers(messages), last: messages.at(-1)?.text };
}

describe("langchainActiveTools with toolSearch({ onDemand: true })", () => {
  it("gives the first model call the search alone, then the search and each search's finds appended in the order found", async () => {
    const { component, ran } = shop();
    const tools = langchainTools(component, { search: onDemand });
    const result = await run(tools, [
      turn("a", ["search_tools", { query: "refund an order" }]),
      turn("b", ["search_tools", { query: "print the shipping label" }]),
      turn("c", ["refundOrder", {}]),
      new AIMessage("Refunded."),
    ]);

    expect(result.offered[0]).toEqual(["search_tools"]);
    expect(result.offered[1]).toEqual(["search_tools", "refundOrder", "refund_item"]);
    expect(result.offered[2]?.slice(0, 4)).toEqual([
      "search_tools",
      "refundOrder",
      "refund_item",
      "printShippingLabel",
    ]);
    expect(result.offered[2]).toHaveLength(5);
    expect(result.offered[3]).toEqual(result.offered[2]);
    expect(result.answers.c_0?.status).toBe("success");
    expect(ran).toEqual(["refundOrder"]);
    expect(result.last).toBe("Refunded.");
  });

  it("answers a command no search found UnknownCommand with a hint to search, as a ToolMessage, and runs nothing", async () => {
    const { component, ran } = shop();
    const tools = langchainTools(component, { search: onDemand });
    const result = await run(tools, [
      turn("a", ["refundOrder", {}]),
      new AIMessage("I will search."),
    ]);

    expect(result.answers.a_0).toEqual({
      status: "error",
      text: expect.stringContaining(
        'Unknown command "refundOrder": it is not among the tools loaded. Call search_tools to find the tools for what you want to do, then call one it found.',
      ),
    });
    expect(ran).toEqual([]);
    expect(result.last).toBe("I will search.");
  });

  it("does not offer a found command that is unavailable now, and answers a call to it Unavailable", async () => {
    const { component, ran } = shop();
    const tools = langchainTools(component, { search: onDemand });
    const result = await run(tools, [
      turn("a", ["search_tools", { query: "end the sale" }]),
      turn("b", ["endSale", {}]),
      new AIMessage("No sale is running."),
    ]);

    expect(result.answers.a_0?.text).toContain("endSale");
    expect(result.offered[1]).toContain("search_tools");
    expect(result.offered[1]).not.toContain("endSale");
    expect(result.answers.b_0).toEqual({
      status: "error",
      text: expect.stringContaining("Error (Unavailable)"),
    });
    expect(ran).toEqual([]);
  });

  it("offers every available command below the threshold, a gated unavailable one left out, and runs one called without a search", async () => {
    const { component, ran } = shop();
    const tools = langchainTools(component, {
      search: toolSearch({ onDemand: true, threshold: 100 }),
    });
    const result = await run(tools, [turn("a", ["refundOrder", {}]), new AIMessage("Refunded.")]);

    const available = Object.keys(shopCommands()).filter((name) => name !== "endSale");
    expect(result.offered[0]?.slice().sort()).toEqual([...available, "search_tools"].sort());
    expect(result.answers.a_0?.status).toBe("success");
    expect(ran).toEqual(["refundOrder"]);
  });

  it("keeps every tool of another origin, in the order given, ahead of the search and its finds", async () => {
    const { component } = shop();
    const other = (name: string) =>
      tool(() => "Sunny.", {
        name,
        description: `The ${name}.`,
        schema: { type: "object", properties: {} },
      });
    const tools = [
      other("weather"),
      ...langchainTools(component, { search: onDemand }),
      other("forecast"),
    ];
    const result = await run(tools, [
      turn("a", ["search_tools", { query: "refund an order" }], ["weather", {}]),
      new AIMessage("Sunny; I can refund it."),
    ]);

    expect(result.offered).toEqual([
      ["weather", "forecast", "search_tools"],
      ["weather", "forecast", "search_tools", "refundOrder", "refund_item"],
    ]);
    expect(result.answers.a_1).toEqual({ status: "success", text: "Sunny." });
  });
});

describe("langchainActiveTools without onDemand", () => {
  it("offers every available command, a gated unavailable one left out", async () => {
    const { component } = shop();
    const result = await run(langchainTools(component), [new AIMessage("Nothing to do.")]);

    const available = Object.keys(shopCommands()).filter((name) => name !== "endSale");
    expect(result.offered[0]?.slice().sort()).toEqual(available.sort());
  });
});

describe("langchainTools with toolSearch({ onDemand: true })", () => {
  it("still gives the agent every declared command and the search, a fixed list", () => {
    const tools = langchainTools(shop().component, { search: onDemand });
    expect(tools.map((made) => made.name).sort()).toEqual(
      [...Object.keys(shopCommands()), "search_tools"].sort(),
    );
  });
});
