/**
 * Section T's sides: the tool definitions each one sends, request by request, serialized as its
 * SDK puts them on the wire. The bridge through `runToolLoop` and the `openai` dialect (both
 * offers), the AI SDK through `generateText` and its own OpenAI provider (the request body its
 * `fetch` is given), LangChain's `bindTools` format, and an MCP `tools/list` result, from a
 * hand-written MCP SDK server and from the bridge's `mcp` dialect. Public APIs only.
 */

import { createOpenAI } from "@ai-sdk/openai";
import { tool as langchainTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from "ai";
import { mcp } from "../src/tools/dialects/mcp/dialect.js";
import {
  allowedTools,
  type OpenAIChatMessage,
  type OpenAIChatResponse,
  openai,
} from "../src/tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type CommandSchema,
  igniteTools,
  type JsonSchema,
  runToolLoop,
  type ToolOffer,
} from "../src/tools/index.js";
import { commandName, commands, RESULT, ticketInput } from "./fixtures.js";
import type { SentRequest } from "./token-count.js";

/** Model requests in a conversation: the model calls a tool in the first 9 and answers in the 10th. */
export const TURNS = 10;
/** What the scripted model calls every turn: an ungated command, available throughout. */
const CALLED = commandName(1);

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}

const indexOf = (name: string) => Number(name.slice("command_".length));

/**
 * `size` commands, the even-numbered half gated. A phase moves after every second call: in one
 * phase the gated commands numbered 0 mod 4 are available, in the other those numbered 2 mod 4.
 * So availability changes before requests 3, 5, 7 and 9, and `command_00000`, first in the
 * sorted list, is among the commands that change.
 */
export function shiftingComponent(size: number): {
  component: AgentComponent;
  available: (name: string) => boolean;
  declared: Record<string, CommandSchema>;
} {
  const declared = commands(size);
  for (const [name, command] of Object.entries(declared)) {
    if (indexOf(name) % 2 === 0) declared[name] = { ...command, gated: true };
  }
  const schema = { commands: declared };
  let calls = 0;
  const available = (name: string) => {
    const index = indexOf(name);
    return index % 2 === 1 || index % 4 === (Math.floor(calls / 2) % 2) * 2;
  };
  const component: AgentComponent = {
    getSchema: () => schema,
    canExecute: available,
    execute: () => {
      calls++;
      return RESULT;
    },
  };
  return { component, available, declared };
}

/** An OpenAI Chat Completions response: a call of `CALLED` before the last turn, text in it. */
function chatCompletion(turn: number) {
  const message =
    turn < TURNS
      ? {
          role: "assistant" as const,
          content: null,
          tool_calls: [
            {
              id: `call_${turn}`,
              type: "function" as const,
              function: { name: CALLED, arguments: JSON.stringify(ticketInput()) },
            },
          ],
        }
      : { role: "assistant" as const, content: "Filed them all." };
  return {
    id: `chatcmpl-${turn}`,
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1",
    choices: [{ index: 0, message, finish_reason: turn < TURNS ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** How the bridge offers the tools: one of its two offers, or `allowedTools(openai)`. */
export type BridgeSide = ToolOffer | "allowed";

/** The bridge: a 10-turn `runToolLoop`, the `tools` each request hands the model function. */
export async function bridgeConversation(size: number, side: BridgeSide): Promise<SentRequest[]> {
  const { component } = shiftingComponent(size);
  const messages: OpenAIChatMessage[] = [{ role: "user", content: "File the tickets." }];
  const sent: SentRequest[] = [];
  // What the OpenAI SDK sends: `JSON.stringify` of the request body, `tools` in it (and with
  // allowed tools `tool_choice` after it, which changes from request to request).
  const result =
    side === "allowed"
      ? await runToolLoop({
          tools: igniteTools(component, allowedTools(openai)),
          messages,
          maxTurns: TURNS,
          model: async ({ tools, turn }) => {
            sent.push({
              tools: JSON.stringify(tools.tools),
              perRequest: JSON.stringify(tools.tool_choice),
            });
            return chatCompletion(turn) satisfies OpenAIChatResponse;
          },
        })
      : await runToolLoop({
          tools: igniteTools(component, openai, { offer: side }),
          messages,
          maxTurns: TURNS,
          model: async ({ tools, turn }) => {
            sent.push({ tools: JSON.stringify(tools) });
            return chatCompletion(turn) satisfies OpenAIChatResponse;
          },
        });
  check(
    result.stop === "done" &&
      sent.length === TURNS &&
      result.steps.every((step) => step.errors.length === 0),
    `the ${size}-command loop (${side}) runs ${TURNS} turns, every call answered`,
  );
  return sent;
}

/**
 * The AI SDK: `generateText` over 10 steps with `@ai-sdk/openai`'s Chat Completions model, the
 * `tools` of each request body it sends. `follow`: `prepareStep` returns the available commands
 * as `activeTools` (the AI SDK's way to gate); otherwise every tool, every step.
 */
export async function aiSdkConversation(size: number, follow: boolean): Promise<SentRequest[]> {
  const { component, available, declared } = shiftingComponent(size);
  const tools: ToolSet = {};
  for (const [name, command] of Object.entries(declared)) {
    tools[name] = tool({
      description: command.description ?? name,
      inputSchema: jsonSchema(command.input ?? { type: "object" }),
      execute: async (input: unknown) => component.execute(name, input),
    });
  }
  const names = Object.keys(declared);
  const sent: SentRequest[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { tools?: unknown };
    sent.push({ tools: JSON.stringify(body.tools ?? []) });
    return new Response(JSON.stringify(chatCompletion(sent.length)), {
      headers: { "content-type": "application/json" },
    });
  };
  const model = createOpenAI({ apiKey: "bench", fetch }).chat("gpt-4.1");
  const result = await generateText({
    model,
    tools,
    prompt: "File the tickets.",
    stopWhen: stepCountIs(TURNS),
    ...(follow ? { prepareStep: () => ({ activeTools: names.filter(available) }) } : {}),
  });
  check(
    result.steps.length === TURNS && sent.length === TURNS && result.text === "Filed them all.",
    `the AI SDK runs ${TURNS} steps over ${size} commands`,
  );
  return sent;
}

/** LangChain: the tools as `bindTools` sends them to OpenAI (`convertToOpenAITool`). */
export function langchainRequest(size: number): SentRequest {
  const tools = Object.entries(shiftingComponent(size).declared).map(([name, command]) =>
    langchainTool(async () => JSON.stringify(RESULT), {
      name,
      description: command.description ?? name,
      schema: command.input ?? {},
    }),
  );
  return { tools: JSON.stringify(tools.map((each) => convertToOpenAITool(each))) };
}

/** MCP: `tools/list` as an MCP SDK client receives it, from a server set up by `register`. */
async function listed(register: (server: Server) => void): Promise<SentRequest> {
  const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
  register(server);
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const result = await client.listTools();
  await client.close();
  await server.close();
  return { tools: JSON.stringify(result.tools) };
}

/** A hand-written MCP SDK server listing every declared command. */
export function mcpSdkRequest(size: number): Promise<SentRequest> {
  const tools = Object.entries(shiftingComponent(size).declared).map(([name, command]) => ({
    name,
    description: command.description,
    inputSchema: (command.input ?? { type: "object" }) as JsonSchema & { type: "object" },
  }));
  return listed((server) => {
    server.setRequestHandler(ListToolsRequestSchema, (): ListToolsResult => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [] }));
  });
}

/** The bridge's `mcp` dialect behind the same server, every declared command listed. */
export function bridgeMcpRequest(size: number): Promise<SentRequest> {
  const bridge = igniteTools(shiftingComponent(size).component, mcp, { offer: "declared" });
  return listed((server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => bridge.toToolDefs());
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [] }));
  });
}
