/**
 * Section T's tools on demand (issue 41): the same 10-turn conversation through
 * `toolsOnDemand(anthropic)` and `toolsOnDemand(openaiResponses)`, each request's tool definitions
 * split into what the model reads of them and what stays deferred, as each provider documents it.
 * Anthropic: a deferred tool is out of the context until a search's `tool_reference` loads it
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool). OpenAI: the
 * model still sees each deferred function's name and description, and a search's
 * `tool_search_output` loads its parameters (https://developers.openai.com/api/docs/guides/tools-tool-search).
 * The scripted model searches once, in the first turn, and finds the command it calls with four
 * others (a search answers with a handful), then calls it every turn: what it reads is the search
 * tool, what the search loaded, and — for OpenAI — every name and description.
 */

import {
  type AnthropicMessage,
  type AnthropicResponse,
  anthropic,
  toolsOnDemand as anthropicOnDemand,
} from "../src/tools/dialects/anthropic/dialect.js";
import {
  type OpenAIResponsesItem,
  openai,
  toolsOnDemand as openaiOnDemand,
  openaiResponses,
} from "../src/tools/dialects/openai/dialect.js";
import { igniteTools, runToolLoop, toolSearch } from "../src/tools/index.js";
import { commandName, ticketInput } from "./fixtures.js";
import type { SentRequest } from "./token-count.js";
import { shiftingComponent, TURNS } from "./token-sides.js";

/** The command the scripted model calls every turn, and the four others its search also finds. */
const CALLED = commandName(1);
const FOUND = [CALLED, commandName(3), commandName(5), commandName(7), commandName(9)];

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}

interface Tool {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly defer_loading?: unknown;
}

/**
 * What the model reads of `tools`: each tool that is not deferred whole; a deferred one whole once
 * `loaded` has it, otherwise — where the provider shows it — its name and description.
 */
function inContext(tools: readonly Tool[], loaded: ReadonlySet<string>, showsNames: boolean) {
  return tools.flatMap((tool) => {
    if (tool.defer_loading !== true || loaded.has(String(tool.name))) return [tool];
    return showsNames ? [{ name: tool.name, description: tool.description }] : [];
  });
}

/** An Anthropic message: the search and the call in turn 1, the call until the last, then text. */
function claudeTurn(turn: number): AnthropicResponse {
  const call = {
    type: "tool_use" as const,
    id: `toolu_${turn}`,
    name: CALLED,
    input: ticketInput(),
  };
  const search = [
    {
      type: "server_tool_use" as const,
      id: "srvtoolu_1",
      name: "tool_search_tool_bm25",
      input: { query: "file ticket" },
    },
    {
      type: "tool_search_tool_result" as const,
      tool_use_id: "srvtoolu_1",
      content: {
        type: "tool_search_tool_search_result" as const,
        tool_references: FOUND.map((name) => ({
          type: "tool_reference" as const,
          tool_name: name,
        })),
      },
    },
  ];
  const last = turn >= TURNS;
  return {
    id: `msg_${turn}`,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: last
      ? [{ type: "text", text: "Filed them all." }]
      : [...(turn === 1 ? search : []), call],
    stop_reason: last ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  } as AnthropicResponse;
}

/** The names the searches in `messages` loaded (their `tool_reference` blocks). */
function referenced(messages: readonly AnthropicMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content as readonly Record<string, unknown>[]) {
      const content = block.content as { tool_references?: { tool_name: string }[] } | undefined;
      for (const reference of content?.tool_references ?? []) names.add(reference.tool_name);
    }
  }
  return names;
}

/** A Responses output: the search and its output in turn 1, a function call until the last. */
function responsesTurn(turn: number, tools: readonly Tool[]) {
  const call = {
    type: "function_call",
    id: `fc_${turn}`,
    call_id: `call_${turn}`,
    name: CALLED,
    arguments: JSON.stringify(ticketInput()),
    status: "completed",
  };
  const search = [
    {
      type: "tool_search_call",
      id: "tsc_1",
      call_id: null,
      execution: "server",
      status: "completed",
      arguments: { query: "file ticket" },
    },
    {
      type: "tool_search_output",
      id: "tso_1",
      call_id: null,
      execution: "server",
      status: "completed",
      tools: tools.filter((tool) => FOUND.includes(String(tool.name))),
    },
  ];
  const last = turn >= TURNS;
  const text = {
    type: "message",
    id: `msg_${turn}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Filed them all.", annotations: [] }],
  };
  return {
    id: `resp_${turn}`,
    object: "response",
    status: "completed",
    output: last ? [text] : [...(turn === 1 ? search : []), call],
  };
}

/** The names the searches in `input` loaded (their `tool_search_output` items' tools). */
function searched(input: readonly OpenAIResponsesItem[]): Set<string> {
  const names = new Set<string>();
  // Re-sent as they came: the search's items are not among the kinds the dialect types.
  for (const item of input as readonly { type?: unknown; tools?: readonly Tool[] }[]) {
    if (item.type !== "tool_search_output") continue;
    for (const tool of item.tools ?? []) names.add(String(tool.name));
  }
  return names;
}

/**
 * The conversation through `toolsOnDemand(anthropic)` (`"anthropic"`) or
 * `toolsOnDemand(openaiResponses)`: per request, what the model reads of the tool definitions
 * (`read`), and the same tools sent whole without tools on demand (`all`).
 */
export async function onDemandConversation(
  size: number,
  provider: "anthropic" | "openai",
): Promise<{ read: SentRequest[]; all: SentRequest[] }> {
  const { component } = shiftingComponent(size);
  const read: SentRequest[] = [];
  const all: SentRequest[] = [];
  const record = (tools: readonly Tool[], loaded: ReadonlySet<string>) => {
    read.push({ tools: JSON.stringify(inContext(tools, loaded, provider === "openai")) });
    all.push({ tools: JSON.stringify(sentAll(tools)) });
  };
  const result =
    provider === "anthropic"
      ? await runToolLoop({
          tools: igniteTools(component, anthropicOnDemand(anthropic)),
          messages: [{ role: "user", content: "File the tickets." }],
          maxTurns: TURNS,
          model: async ({ tools, messages, turn }) => {
            record(tools as readonly Tool[], referenced(messages));
            return claudeTurn(turn);
          },
        })
      : await runToolLoop({
          tools: igniteTools(component, openaiOnDemand(openaiResponses)),
          messages: [
            {
              type: "message",
              role: "user",
              content: [{ type: "input_text", text: "File the tickets." }],
            },
          ],
          maxTurns: TURNS,
          model: async ({ tools, messages, turn }) => {
            record(tools as readonly Tool[], searched(messages));
            return responsesTurn(turn, tools as readonly Tool[]) as never;
          },
        });
  check(
    result.stop === "done" &&
      read.length === TURNS &&
      result.steps.every((step) => step.errors.length === 0),
    `the ${size}-command loop on demand (${provider}) runs ${TURNS} turns, every call answered`,
  );
  return { read, all };
}

/** The same tools without tools on demand: no search tool, none deferred. */
function sentAll(tools: readonly Tool[]): Tool[] {
  return tools.flatMap((tool) => {
    if (String((tool as { type?: unknown }).type).startsWith("tool_search")) return [];
    const { defer_loading: _deferred, ...whole } = tool;
    return [whole];
  });
}

/**
 * The same conversation through the built-in search, `toolSearch({ onDemand: true })`, with
 * Chat Completions (`openai`, no tool search of its own): the first request offers the search
 * alone, the model searches for the command it calls by name (the search answers five), and from
 * then on each request offers the search and what it found, available now — every tool sent is
 * read. Returns each request's tools as sent (`read`), and the tools the same bridge without the
 * search would have sent then (`all`).
 */
export async function builtInConversation(
  size: number,
): Promise<{ read: SentRequest[]; all: SentRequest[] }> {
  const { component } = shiftingComponent(size);
  const read: SentRequest[] = [];
  const all: SentRequest[] = [];
  const whole = igniteTools(component, openai);
  const reply = (turn: number, name: string, args: object) => ({
    choices: [
      {
        finish_reason: "tool_calls",
        message: {
          role: "assistant" as const,
          content: null,
          tool_calls: [
            {
              id: `call_${turn}`,
              type: "function" as const,
              function: { name, arguments: JSON.stringify(args) },
            },
          ],
        },
      },
    ],
  });
  const result = await runToolLoop({
    tools: igniteTools(component, openai, { search: toolSearch({ onDemand: true }) }),
    messages: [{ role: "user", content: "File the tickets." }],
    maxTurns: TURNS,
    model: async ({ tools, turn }) => {
      read.push({ tools: JSON.stringify(tools) });
      all.push({ tools: JSON.stringify(whole.toToolDefs()) });
      if (turn === 1) return reply(turn, "search_tools", { query: CALLED });
      if (turn < TURNS) return reply(turn, CALLED, ticketInput());
      return {
        choices: [
          {
            finish_reason: "stop",
            message: { role: "assistant" as const, content: "Filed them all." },
          },
        ],
      };
    },
  });
  check(
    result.stop === "done" &&
      read.length === TURNS &&
      result.steps.every((step) => step.errors.length === 0) &&
      (size < 30 || read[1]?.tools.includes(`"${CALLED}"`) === true),
    `the ${size}-command loop with the built-in search runs ${TURNS} turns, the command found offered and every call answered`,
  );
  return { read, all };
}
