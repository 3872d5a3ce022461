import { Agent, RunContext } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { aiSdkTools } from "../../tools/adapters/ai-sdk.js";
import { agentsTools } from "../../tools/adapters/openai-agents.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { type OllamaChatResponse, ollama } from "../../tools/dialects/ollama/dialect.js";
import { ollamaStream } from "../../tools/dialects/ollama/stream.js";
import { openai } from "../../tools/dialects/openai/dialect.js";
import { provideWebMcp } from "../../tools/hosts/webmcp.js";
import {
  type ApprovalPolicy,
  approval,
  approveCall,
  igniteTools,
  resumeToolLoop,
  runToolLoop,
  type ToolDialect,
  toolSearch,
} from "../../tools/index.js";
import { offered, run, scriptedModel } from "../adapters/ai-sdk-model.js";
import { FakeModelContext } from "../hosts/webmcp-model-context.js";
import { shop } from "./catalogue.js";

// toolSearch({ onDemand: true }): for a dialect whose provider has no tool search of its own, the
// bridge offers its search first and then only the commands a search found, appended.

type Call = [name: string, args: Record<string, unknown>];

interface Case {
  label: string;
  dialect: ToolDialect<unknown, unknown, unknown>;
  /** The tool definitions of a request, as the list the provider reads in order. */
  list: (defs: unknown) => { name: string }[];
  /** A response of the provider calling `calls`. */
  respond: (...calls: Call[]) => unknown;
}

const CASES: Case[] = [
  {
    label: "OpenAI Chat Completions (openai)",
    dialect: openai,
    list: (defs) => (defs as { function: { name: string } }[]).map((tool) => tool.function),
    respond: (...calls) => ({
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: calls.map(([name, args], index) => ({
              id: `call_${index}`,
              type: "function",
              function: { name, arguments: JSON.stringify(args) },
            })),
          },
        },
      ],
    }),
  },
  {
    label: "Gemini (gemini)",
    dialect: gemini,
    list: (defs) =>
      (defs as { functionDeclarations: { name: string }[] }[])[0]?.functionDeclarations ?? [],
    respond: (...calls) => ({
      candidates: [
        {
          content: {
            role: "model",
            parts: calls.map(([name, args]) => ({ functionCall: { name, args } })),
          },
        },
      ],
    }),
  },
  {
    label: "Ollama (ollama)",
    dialect: ollama,
    list: (defs) => (defs as { function: { name: string } }[]).map((tool) => tool.function),
    respond: (...calls) => ollamaReply(...calls),
  },
];

function ollamaReply(...calls: Call[]): OllamaChatResponse {
  return {
    message: {
      role: "assistant",
      content: "",
      tool_calls: calls.map(([name, args]) => ({ function: { name, arguments: args } })),
    },
    done_reason: "stop",
  };
}

const names = (list: { name: string }[]) => list.map((tool) => tool.name);
const onDemand = toolSearch({ onDemand: true, limit: 2 });

describe.each(CASES)("tools on demand with $label", ({ dialect, list, respond }) => {
  it("offers the search alone, then each search's finds appended, the earlier list byte for byte", async () => {
    const tools = igniteTools(shop().component, dialect, { search: onDemand });
    const first = tools.toToolDefs();
    expect(names(list(first))).toEqual(["search_tools"]);

    await tools.handleToolCalls(respond(["search_tools", { query: "refund an order" }]));
    const second = tools.toToolDefs();
    expect(names(list(second))).toEqual(["search_tools", "refundOrder", "refund_item"]);
    expect(tools.toToolDefs()).toBe(second);
    // The same finds again: the list stays the same value.
    await tools.handleToolCalls(respond(["search_tools", { query: "refund an order" }]));
    expect(tools.toToolDefs()).toBe(second);

    await tools.handleToolCalls(respond(["search_tools", { query: "print the shipping label" }]));
    const third = list(tools.toToolDefs());
    expect(names(third.slice(0, 4))).toEqual([
      "search_tools",
      "refundOrder",
      "refund_item",
      "printShippingLabel",
    ]);
    expect(third).toHaveLength(5);
    expect(JSON.stringify(third.slice(0, 3))).toBe(JSON.stringify(list(second)));
  });

  it("answers a command no search found with a hint to search, runs one found, and gates it", async () => {
    const { component, ran } = shop();
    const tools = igniteTools(component, dialect, { search: onDemand });
    tools.toToolDefs();

    const [early] = await tools.answerToolCalls(respond(["refundOrder", {}]));
    expect(early?.outcome).toEqual({
      ok: false,
      error: {
        kind: "UnknownCommand",
        name: "refundOrder",
        message:
          'Unknown command "refundOrder": it is not among the tools loaded. Call search_tools to find the tools for what you want to do, then call one it found.',
      },
    });
    expect(ran).toEqual([]);

    await tools.handleToolCalls(
      respond(
        ["search_tools", { query: "refund an order" }],
        ["search_tools", { query: "end the sale" }],
      ),
    );
    const [refunded, ended] = await tools.answerToolCalls(
      respond(["refundOrder", {}], ["endSale", {}]),
    );
    expect(refunded?.outcome.ok).toBe(true);
    expect(ran).toEqual(["refundOrder"]);
    // Found, but not available now: answered as any unavailable command, and not offered.
    expect(ended?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(names(list(tools.toToolDefs()))).not.toContain("endSale");
  });

  it("offers every command as before below the threshold, and calls them without a search", async () => {
    const { component, ran } = shop();
    const tools = igniteTools(component, dialect, {
      search: toolSearch({ onDemand: true, threshold: 100 }),
    });
    expect(list(tools.toToolDefs()).length).toBeGreaterThan(40);
    const [answer] = await tools.answerToolCalls(respond(["refundOrder", {}]));
    expect(answer?.outcome.ok).toBe(true);
    expect(ran).toEqual(["refundOrder"]);
  });
});

describe("tools on demand in the loop", () => {
  it("offers each request what the searches before it found, in runToolLoop", async () => {
    const { component, ran } = shop();
    const replies = [
      CASES[0]?.respond(["search_tools", { query: "refund an order" }]),
      CASES[0]?.respond(["refundOrder", {}]),
      {
        choices: [{ finish_reason: "stop", message: { role: "assistant", content: "Refunded." } }],
      },
    ];
    const offered: string[][] = [];
    const result = await runToolLoop({
      tools: igniteTools(component, openai, { search: onDemand }),
      messages: [{ role: "user", content: "Refund order 12." }],
      model: async ({ tools }) => {
        offered.push(tools.map((tool) => tool.function.name));
        return replies.shift() as never;
      },
    });
    expect(result.stop).toBe("done");
    expect(ran).toEqual(["refundOrder"]);
    expect(offered).toEqual([
      ["search_tools"],
      ["search_tools", "refundOrder", "refund_item"],
      ["search_tools", "refundOrder", "refund_item"],
    ]);
  });

  it("does the same in the streamed loop", async () => {
    const { component, ran } = shop();
    const replies = [
      ollamaReply(["search_tools", { query: "print the shipping label" }]),
      ollamaReply(["printShippingLabel", {}]),
      { message: { role: "assistant", content: "Printed." }, done_reason: "stop" },
    ];
    const offered: string[][] = [];
    const result = await runToolLoop({
      tools: igniteTools(component, ollama, { search: onDemand }),
      stream: ollamaStream,
      messages: [{ role: "user", content: "Print the label." }],
      async *model({ tools }) {
        offered.push(tools.map((tool) => tool.function.name));
        const reply = replies.shift();
        if (reply) yield { ...reply, done: true };
      },
    });
    expect(result.stop).toBe("done");
    expect(ran).toEqual(["printShippingLabel"]);
    expect(offered[1]?.slice(0, 2)).toEqual(["search_tools", "printShippingLabel"]);
    expect(offered[2]).toEqual(offered[1]);
  });

  it("runs a held call a person approved, resumed on a new bridge that found nothing yet", async () => {
    const { component, ran } = shop();
    const askRefunds: ApprovalPolicy = ({ route }) =>
      route.command === "refundOrder" ? "ask" : "allow";
    const layers = () => ({ search: onDemand, approve: approval(askRefunds) });
    const replies = [
      CASES[0]?.respond(["search_tools", { query: "refund an order" }]),
      CASES[0]?.respond(["refundOrder", {}]),
      { choices: [{ finish_reason: "stop", message: { role: "assistant", content: "Done." } }] },
    ];
    const model = async () => replies.shift() as never;
    const paused = await runToolLoop({
      tools: igniteTools(component, openai, layers()),
      messages: [{ role: "user", content: "Refund order 12." }],
      model,
    });
    if (paused.stop !== "approval") throw new Error("not paused");
    const { state, pending } = JSON.parse(JSON.stringify(paused));

    // Another process: a new bridge, which has offered the search alone and found nothing yet.
    const fresh = igniteTools(component, openai, layers());
    expect(fresh.toToolDefs().map((tool) => tool.function.name)).toEqual(["search_tools"]);
    const resumed = await resumeToolLoop({
      tools: fresh,
      model,
      state,
      decisions: pending.map(approveCall),
    });
    expect(resumed.stop).toBe("done");
    expect(ran).toEqual(["refundOrder"]);
  });
});

describe("tools on demand in the framework adapters", () => {
  it("gives the AI SDK every tool, and as activeTools the search and what it found", async () => {
    const { component, ran } = shop();
    const { tools, prepareStep } = aiSdkTools(component, { search: onDemand });
    expect(Object.keys(tools)).toHaveLength(49); // 48 commands and the search
    const { model, requests } = scriptedModel([
      [{ toolName: "search_tools", input: '{"query":"refund an order"}' }],
      [{ toolName: "refundOrder", input: "{}" }],
      "Refunded.",
    ]);

    await run("generateText", { model, tools, prepareStep });

    expect(offered(requests[0])).toEqual(["search_tools"]);
    expect(offered(requests[1]).sort()).toEqual(["refundOrder", "refund_item", "search_tools"]);
    expect(ran).toEqual(["refundOrder"]);
  });

  it("enables in the Agents SDK the search, then what it found", async () => {
    const { component } = shop();
    const tools = agentsTools(component, { search: onDemand });
    const agent = new Agent({ name: "shop" });
    const enabled = async () => {
      const on = await Promise.all(tools.map((tool) => tool.isEnabled(new RunContext(), agent)));
      return tools.flatMap((tool, index) => (on[index] ? [tool.name] : [])).sort();
    };
    expect(tools).toHaveLength(49);
    expect(await enabled()).toEqual(["search_tools"]);
    const search = tools.find((tool) => tool.name === "search_tools");
    if (search?.type !== "function") throw new Error("no search");
    await search.invoke(new RunContext(), '{"query":"refund an order"}');
    expect(await enabled()).toEqual(["refundOrder", "refund_item", "search_tools"]);
  });
});

describe("tools on demand in the visitor's browser (WebMCP)", () => {
  it("registers the search alone, then each command a search found, as soon as it answered", async () => {
    const context = new FakeModelContext();
    const { component, ran } = shop();
    const stop = provideWebMcp(component, { modelContext: context, search: onDemand });
    expect(context.names()).toEqual(["search_tools"]);

    await context.callTool("search_tools", { query: "refund an order" });
    expect(context.names()).toEqual(["refundOrder", "refund_item", "search_tools"]);
    await context.callTool("refundOrder", {});
    expect(ran).toEqual(["refundOrder"]);
    stop();
  });
});

describe("toolSearch's on-demand options", () => {
  it("are checked where they are given", () => {
    expect(() => toolSearch({ onDemand: "yes" as never })).toThrow(
      'toolSearch: options.onDemand must be true or false, not "yes" (a string)',
    );
    expect(() => toolSearch({ onDemand: true, threshold: -1 })).toThrow(
      "toolSearch: options.threshold must be a whole number from 0 up, not -1",
    );
    expect(() => toolSearch({ threshold: 10 })).toThrow(
      "toolSearch: options.threshold takes effect only with onDemand: true",
    );
    expect(toolSearch({ onDemand: true }).threshold).toBe(30);
    expect(toolSearch().threshold).toBeUndefined();
  });
});
