/**
 * The peers, side by side in this process: the same validated work done by the bridge and by the
 * Vercel AI SDK, LangChain.js and the MCP SDK, at component sizes 10 to 10 000. A turn is "the
 * tool definitions for the model + one call validated, executed and answered". Each side's answer
 * is checked before it is timed.
 */

import { tool as langchainTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { mcp } from "../src/tools/dialects/mcp/dialect.js";
import { openai } from "../src/tools/dialects/openai/dialect.js";
import { type AgentSchema, igniteTools, type JsonSchema } from "../src/tools/index.js";
import {
  commandName,
  commands,
  openaiResponse,
  RESULT,
  stableComponent,
  ticketInput,
} from "./fixtures.js";
import { keep, pair, type Spread } from "./harness.js";
import type { Row, RowOptions } from "./rows.js";

const x = (value: number) => `${value.toFixed(2)}×`;
const us = (ns: number) =>
  ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
const range = (s: Spread) => `${x(s.min)}–${x(s.max)}`;

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}

/** Ajv as a careful peer would use it: compiled lazily, once per schema. */
function lazyAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (name: string, schema: JsonSchema): ValidateFunction => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(name, validate);
    }
    return validate;
  };
}

interface Side {
  name: string;
  turn: () => Promise<unknown>;
}

/** The bridge with the `openai` dialect: tool definitions, then one call parsed and answered. */
async function bridgeSide(schema: AgentSchema, called: string): Promise<Side> {
  const bridge = igniteTools(stableComponent(schema), openai);
  const response = openaiResponse([called]);
  const [block] = await bridge.handleToolCalls(response);
  check(
    block?.content === JSON.stringify({ snapshot: RESULT.state, events: RESULT.events }),
    "the bridge answers the call with the observation",
  );
  return {
    name: "bridge",
    turn: async () => {
      keep(bridge.toToolDefs());
      return bridge.handleToolCalls(response);
    },
  };
}

/** `generateText` with one step: the AI SDK prepares every tool, validates and executes one. */
async function aiSdkSide(schema: AgentSchema, called: string): Promise<Side> {
  const validatorFor = lazyAjv();
  const tools: ToolSet = {};
  for (const [name, command] of Object.entries(schema.commands)) {
    const input = command.input ?? {};
    tools[name] = tool({
      description: command.description,
      inputSchema: jsonSchema(input, {
        validate: (value) => {
          const validate = validatorFor(name, input);
          return validate(value)
            ? { success: true, value }
            : { success: false, error: new Error(JSON.stringify(validate.errors)) };
        },
      }),
      execute: async () => RESULT,
    });
  }
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [
        {
          type: "tool-call",
          toolCallId: "call_0",
          toolName: called,
          input: JSON.stringify(ticketInput()),
        },
      ],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 10, text: 10, reasoning: undefined },
      },
      warnings: [],
    }),
  });
  const turn = async () => {
    model.doGenerateCalls.length = 0; // the mock records every call; keep memory flat
    return generateText({ model, tools, prompt: "File it.", stopWhen: stepCountIs(1) });
  };
  const result = await turn();
  check(
    JSON.stringify(result.toolResults[0]?.output) === JSON.stringify(RESULT),
    "the AI SDK executes the call once and returns its result",
  );
  return { name: "AI SDK", turn };
}

/** LangChain: `bindTools`' conversion of every tool, then one `ToolCall` invoked. */
async function langchainSide(schema: AgentSchema, called: string): Promise<Side> {
  const validatorFor = lazyAjv();
  const tools = Object.entries(schema.commands).map(([name, command]) =>
    langchainTool(
      async (input: unknown) => {
        const validate = validatorFor(name, command.input ?? {});
        if (!validate(input)) return `Error: ${JSON.stringify(validate.errors)}`;
        return JSON.stringify(RESULT);
      },
      { name, description: command.description ?? name, schema: command.input ?? {} },
    ),
  );
  const target = tools.find((candidate) => candidate.name === called);
  if (!target) throw new Error(`no LangChain tool ${called}`);
  const call = { name: called, args: ticketInput(), id: "call_0", type: "tool_call" as const };
  const turn = async () => {
    keep(tools.map((candidate) => convertToOpenAITool(candidate)));
    return target.invoke(call);
  };
  const message: unknown = await turn();
  const content =
    typeof message === "object" && message !== null ? Reflect.get(message, "content") : undefined;
  check(content === JSON.stringify(RESULT), "LangChain answers the call with the result");
  return { name: "LangChain", turn };
}

/** An MCP server and client over the SDK's in-memory transport: `tools/list` + `tools/call`. */
async function mcpServer(
  register: (server: Server) => void,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
  register(server);
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

async function mcpTurnOf(client: Client, called: string) {
  const turn = async () => {
    keep(await client.listTools());
    return client.callTool({ name: called, arguments: ticketInput() });
  };
  const result = (await turn()) as CallToolResult;
  check(result.isError !== true, "the MCP server answers the call without an error");
  return turn;
}

/** A hand-written MCP server: the SDK's low-level `Server`, validating with ajv. */
async function handWrittenMcp(schema: AgentSchema, called: string) {
  const validatorFor = lazyAjv();
  const tools = Object.entries(schema.commands).map(([name, command]) => ({
    name,
    description: command.description,
    inputSchema: (command.input ?? { type: "object" }) as { type: "object" },
  }));
  const { client, close } = await mcpServer((server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const command = schema.commands[request.params.name];
      if (!command) return { content: [{ type: "text", text: "Unknown tool." }], isError: true };
      const validate = validatorFor(request.params.name, command.input ?? {});
      if (!validate(request.params.arguments ?? {})) {
        return {
          content: [{ type: "text", text: JSON.stringify(validate.errors) }],
          isError: true,
        };
      }
      const observation = { snapshot: RESULT.state, events: RESULT.events };
      return {
        content: [{ type: "text", text: JSON.stringify(observation) }],
        structuredContent: observation,
      };
    });
  });
  return { side: { name: "MCP SDK", turn: await mcpTurnOf(client, called) }, close };
}

/** The same server with the bridge and the `mcp` dialect behind the two handlers. */
async function bridgeMcp(schema: AgentSchema, called: string) {
  const bridge = igniteTools(stableComponent(schema), mcp);
  const { client, close } = await mcpServer((server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => bridge.toToolDefs());
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const [result] = await bridge.handleToolCalls(request.params);
      return result ?? { content: [], isError: true };
    });
  });
  return { side: { name: "bridge (mcp)", turn: await mcpTurnOf(client, called) }, close };
}

/** The bridge's turn over each peer's, per size; the AI SDK rows carry the target. */
export async function peerRows(
  options: RowOptions,
  sizes: readonly number[] = [10, 100, 1000, 10_000],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const schema: AgentSchema = { commands: commands(size) };
    const called = commandName(size >> 1);
    const bridge = await bridgeSide(schema, called);
    // Fewer rounds at 10 000 commands, where one turn of a peer takes milliseconds.
    const rounds = size >= 10_000 ? Math.max(3, options.rounds >> 2) : options.rounds;
    for (const peer of [await aiSdkSide(schema, called), await langchainSide(schema, called)]) {
      const result = await pair({
        rounds,
        timeMs: options.timeMs,
        async: true,
        subject: bridge.turn,
        baseline: peer.turn,
        baselineAsync: true,
      });
      const isAiSdk = peer.name === "AI SDK";
      const targeted = isAiSdk && size >= 100;
      rows.push({
        id: `P ${peer.name === "AI SDK" ? "ai" : "lc"} ${size}`,
        what: `turn, ${size} commands: bridge / ${peer.name}`,
        value: x(result.ratio.median),
        range: range(result.ratio),
        target: targeted ? "≤ 0.50×" : "(reference)",
        verdict: targeted ? (result.ratio.median <= 0.5 ? "pass" : "FAIL") : "info",
        details: [
          `P  ${size} commands: bridge ${us(result.subjectNs.median)} per turn, ` +
            `${peer.name} ${us(result.baselineNs.median)}`,
        ],
      });
    }
    if (size <= 1000) {
      const ours = await bridgeMcp(schema, called);
      const theirs = await handWrittenMcp(schema, called);
      const result = await pair({
        rounds,
        timeMs: options.timeMs,
        async: true,
        subject: ours.side.turn,
        baseline: theirs.side.turn,
        baselineAsync: true,
      });
      await Promise.all([ours.close(), theirs.close()]);
      rows.push({
        id: `P mcp ${size}`,
        what: `MCP list + call, ${size} commands: bridge / hand-written server`,
        value: x(result.ratio.median),
        range: range(result.ratio),
        target: "≤ 1.00×",
        verdict: result.ratio.median <= 1 ? "pass" : "FAIL",
        details: [
          `P  mcp ${size}: bridge ${us(result.subjectNs.median)}, hand-written ` +
            `${us(result.baselineNs.median)} per list + call`,
        ],
      });
    }
  }
  return rows;
}
