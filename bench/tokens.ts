/**
 * Section T (issue 44): what a turn costs in tokens. Each side's tool definitions, request by
 * request as its SDK sends them (token-sides.ts), counted with two real tokenizers — js-tiktoken's
 * o200k_base (OpenAI's GPT-4o/4.1/5 encoding) and @anthropic-ai/tokenizer (Claude's) — with the
 * prefix each request shares byte for byte with the previous one: what a provider's prompt
 * cache can reuse, since tools come first in a prompt — and, with tools on demand
 * (token-on-demand.ts), what the model reads of them. Ends with the `TOKENS:` line.
 */

import { readFileSync } from "node:fs";
import { getTokenizer } from "@anthropic-ai/tokenizer";
import { getEncoding } from "js-tiktoken";
import type { Row } from "./rows.js";
import {
  cacheableShare,
  cacheableToolShare,
  type Encode,
  percent,
  type SentRequest,
  type TurnTokens,
  tokenCounter,
  turnTokens,
} from "./token-count.js";
import { builtInConversation, onDemandConversation } from "./token-on-demand.js";
import {
  aiSdkConversation,
  type BridgeSide,
  bridgeConversation,
  bridgeMcpRequest,
  langchainRequest,
  mcpSdkRequest,
  TURNS,
} from "./token-sides.js";

/** The conversation the `TOKENS:` line and the per-turn table are about (the issue's). */
const CONVERSATION_SIZE = 100;

/** What section T hands bench/index.ts: its rows, its tables, and the `TOKENS:` line. */
export interface TokenSection {
  rows: Row[];
  table: string[];
  line: string;
}

interface Counters {
  openai: Encode;
  claude: Encode;
}

/** One side at one size: its requests, counted with both tokenizers. */
interface Measured {
  side: string;
  size: number;
  openai: TurnTokens[];
  claude: TurnTokens[];
}

/** An installed package's version, for the table's heading. */
const version = (name: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8"),
    ) as { version: string }
  ).version;

const int = (value: number) => value.toLocaleString("en").replaceAll(",", " ");
const both = (a: number, b: number) => `${int(a)} / ${int(b)}`;
const sum = (turns: readonly TurnTokens[], pick: (turn: TurnTokens) => number) =>
  turns.reduce((total, turn) => total + pick(turn), 0);

/** Columns padded to their widest cell, numbers to the right, each line prefixed `T  `. */
function tabulate(header: string[], lines: string[][]): string[] {
  const all = [header, ...lines];
  const widths = header.map((_, column) =>
    Math.max(...all.map((line) => (line[column] ?? "").length)),
  );
  const render = (line: string[]) =>
    `T  ${line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join(" | ")}`;
  return [
    render(header),
    `T  ${widths.map((width) => "-".repeat(width)).join("-|-")}`,
    ...all.slice(1).map(render),
  ];
}

export async function tokenRows(quick: boolean): Promise<TokenSection> {
  const o200k = getEncoding("o200k_base");
  const claudeTokenizer = getTokenizer();
  const count: Counters = {
    openai: tokenCounter((text) => o200k.encode(text).length),
    // As the package's own countTokens does it (NFKC first), with one tokenizer for the run.
    claude: tokenCounter((text) => claudeTokenizer.encode(text.normalize("NFKC"), "all").length),
  };
  const measure = (side: string, size: number, requests: SentRequest[]): Measured => ({
    side,
    size,
    openai: turnTokens(requests, count.openai),
    claude: turnTokens(requests, count.claude),
  });

  const sizes = quick ? [10, CONVERSATION_SIZE] : [10, 100, 1000, 10_000];
  const measured: Measured[] = [];
  const onDemand: {
    size: number;
    all: Measured;
    anthropic: Measured;
    openai: Measured;
    builtIn: Measured;
    chat: Measured;
  }[] = [];
  try {
    for (const size of sizes) {
      for (const side of ["available", "declared", "allowed"] as const satisfies BridgeSide[]) {
        const name =
          side === "allowed" ? "bridge, allowedTools(openai)" : `bridge, offer "${side}"`;
        measured.push(measure(name, size, await bridgeConversation(size, side)));
      }
      const single = async (side: string, request: SentRequest | Promise<SentRequest>) =>
        measured.push(measure(side, size, [await request]));
      measured.push(
        measure("AI SDK, activeTools = available", size, await aiSdkConversation(size, true)),
      );
      measured.push(measure("AI SDK, every tool", size, await aiSdkConversation(size, false)));
      await single("LangChain bindTools (one request)", langchainRequest(size));
      await single("MCP SDK, hand-written tools/list (one)", mcpSdkRequest(size));
      await single("bridge mcp dialect tools/list (one)", bridgeMcpRequest(size));
      const claude = await onDemandConversation(size, "anthropic");
      const gpt = await onDemandConversation(size, "openai");
      const builtIn = await builtInConversation(size);
      onDemand.push({
        size,
        all: measure("every tool", size, claude.all),
        anthropic: measure("toolsOnDemand(anthropic)", size, claude.read),
        openai: measure("toolsOnDemand(openaiResponses)", size, gpt.read),
        builtIn: measure("toolSearch({ onDemand })", size, builtIn.read),
        chat: measure("every tool, openai", size, builtIn.all),
      });
    }
  } finally {
    claudeTokenizer.free();
  }

  const find = (side: string, size: number) => {
    const found = measured.find((each) => each.side === side && each.size === size);
    if (!found) throw new Error(`section T measured no ${side} at ${size}`);
    return found;
  };
  const available = find('bridge, offer "available"', CONVERSATION_SIZE);
  const declared = find('bridge, offer "declared"', CONVERSATION_SIZE);
  const allowed = find("bridge, allowedTools(openai)", CONVERSATION_SIZE);

  const table: string[] = [
    `T  Tokenizers: js-tiktoken ${version("js-tiktoken")} (o200k_base, OpenAI), ` +
      `@anthropic-ai/tokenizer ${version("@anthropic-ai/tokenizer")} (Claude: exact before Claude 3, ` +
      "an approximation since); " +
      "each side's tool definitions as its SDK serializes them (JSON.stringify).",
    `T  ${CONVERSATION_SIZE} commands (half gated), a ${TURNS}-turn runToolLoop with the openai dialect; ` +
      "availability changes before requests 3, 5, 7, 9.",
    "T  Tool-definition tokens per request, o200k_base / Claude; cached = in the prefix " +
      "byte-identical to the previous request's; per-req = the per-request part (allowed tools' " +
      "tool_choice), never cached.",
    ...tabulate(
      [
        "turn",
        "available: tools",
        "cached",
        "declared: tools",
        "cached",
        "allowed: tools",
        "cached",
        "per-req",
      ],
      available.openai.map((turn, index) => {
        const at = (side: Measured) => [
          side.openai[index] as TurnTokens,
          side.claude[index] as TurnTokens,
        ];
        const [stable, stableClaude] = at(declared) as [TurnTokens, TurnTokens];
        const [subset, subsetClaude] = at(allowed) as [TurnTokens, TurnTokens];
        const claude = available.claude[index] as TurnTokens;
        return [
          String(index + 1),
          both(turn.tools, claude.tools),
          both(turn.cached, claude.cached),
          both(stable.tools, stableClaude.tools),
          both(stable.cached, stableClaude.cached),
          both(subset.tools, subsetClaude.tools),
          both(subset.cached, subsetClaude.cached),
          both(subset.perRequest, subsetClaude.perRequest),
        ];
      }),
    ),
    "",
    "T  Every side and size: tool-definition tokens (o200k_base / Claude) of the first request, " +
      `of all ${TURNS}, and the cacheable share of requests 2–${TURNS}.`,
    ...tabulate(
      ["side", "commands", "request 1", `all ${TURNS} requests`, `cacheable 2–${TURNS}`],
      measured.map((each) => {
        const first = (turns: TurnTokens[]) => turns[0]?.tools ?? 0;
        const conversation = each.openai.length > 1;
        return [
          each.side,
          int(each.size),
          both(first(each.openai), first(each.claude)),
          conversation
            ? both(
                sum(each.openai, (turn) => turn.tools + turn.perRequest),
                sum(each.claude, (turn) => turn.tools + turn.perRequest),
              )
            : "—",
          conversation
            ? `${percent(cacheableShare(each.openai))}% / ${percent(cacheableShare(each.claude))}%`
            : "—",
        ];
      }),
    ),
  ];

  const total = (side: Measured, pick: "openai" | "claude") =>
    sum(side[pick], (turn) => turn.tools);
  const share = (side: Measured, all: Measured, pick: "openai" | "claude") =>
    total(side, pick) / total(all, pick);
  table.push(
    "",
    `T  Tools on demand: the tool-definition tokens the model reads over the ${TURNS} requests ` +
      "(o200k_base / Claude), beside sending every tool whole; the model searches once and " +
      "the search loads 5 commands. Anthropic keeps a deferred tool out of the context until " +
      "a search loads it; OpenAI shows every deferred function's name and description. " +
      "The built-in search with Chat Completions offers the search, then what it found; its " +
      "share is of every tool in Chat Completions' own format.",
    ...tabulate(
      [
        "commands",
        "every tool",
        "toolsOnDemand(anthropic)",
        "share",
        "(openaiResponses)",
        "share",
        "toolSearch({ onDemand }), openai",
        "share",
      ],
      onDemand.map(({ size, all, anthropic, openai, builtIn, chat }) => [
        int(size),
        both(total(all, "openai"), total(all, "claude")),
        both(total(anthropic, "openai"), total(anthropic, "claude")),
        `${percent(share(anthropic, all, "openai"))}% / ${percent(share(anthropic, all, "claude"))}%`,
        both(total(openai, "openai"), total(openai, "claude")),
        `${percent(share(openai, all, "openai"))}% / ${percent(share(openai, all, "claude"))}%`,
        both(total(builtIn, "openai"), total(builtIn, "claude")),
        `${percent(share(builtIn, chat, "openai"))}% / ${percent(share(builtIn, chat, "claude"))}%`,
      ]),
    ),
  );

  // `<p>`: the tool definitions under the cache-stable option, allowedTools(openai); its
  // per-request part is printed beside it. `<q>`: what the model reads under
  // toolsOnDemand(anthropic), of every tool, at 1 000 commands (the largest size a quick run has).
  const stableShare = cacheableToolShare(allowed.openai);
  const availableShare = cacheableToolShare(available.openai);
  const demanded = onDemand.at(sizes.includes(1000) ? sizes.indexOf(1000) : -1);
  const demandShare = demanded ? share(demanded.anthropic, demanded.all, "openai") : 1;
  const line =
    `TOKENS: cacheable ${percent(stableShare)}% of tool-definition tokens over ${TURNS} turns ` +
    `(available ${percent(availableShare)}%); on demand ${percent(demandShare)}% of all tools ` +
    `at ${int(demanded?.size ?? 0)} commands`;

  const rows: Row[] = [
    {
      id: "T cache",
      what: `cacheable share of the tool definitions, requests 2–${TURNS}, ${CONVERSATION_SIZE} commands, allowedTools(openai), o200k`,
      value: `${percent(stableShare)} %`,
      range: `${percent(cacheableShare(allowed.openai))} % with the per-request part as uncached`,
      target: "100 %",
      verdict: stableShare === 1 ? "pass" : "FAIL",
    },
    {
      id: "T avail",
      what: `the same, offer "available" (the loop's default today)`,
      value: `${percent(availableShare)} %`,
      range: `Claude ${percent(cacheableToolShare(available.claude))} %`,
      target: "(reference)",
      verdict: "info",
    },
  ];
  rows.push({
    id: "T demand",
    what: `tool-definition tokens the model reads, toolsOnDemand(anthropic), ${int(demanded?.size ?? 0)} commands, of every tool, o200k`,
    value: `${percent(demandShare)} %`,
    range: demanded
      ? `openaiResponses ${percent(share(demanded.openai, demanded.all, "openai"))} %`
      : "—",
    target: "≤ 5 %",
    verdict: demandShare <= 0.05 ? "pass" : "FAIL",
  });
  const large = sizes.includes(1000) ? 1000 : CONVERSATION_SIZE;
  const perRequest = find('bridge, offer "declared"', large).openai[0]?.tools ?? 0;
  const aiSdk = find("AI SDK, every tool", large).openai[0]?.tools ?? 0;
  rows.push({
    id: `T ${large}`,
    what: `tool-definition tokens per request, ${int(large)} commands, offer "declared" / AI SDK, o200k`,
    value: `${(perRequest / aiSdk).toFixed(2)}×`,
    range: `${int(perRequest)} / ${int(aiSdk)}`,
    target: "(reference)",
    verdict: "info",
  });
  return { rows, table, line };
}
