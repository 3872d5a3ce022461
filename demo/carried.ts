/**
 * How each dialect carries a command's content parts: the demo's `chart` answers with a PNG, and
 * this shows the result block each provider would be sent for that same answer — the image in
 * its own form where the provider takes images in a tool result, a text naming it where it does
 * not. Payloads are elided: the point is the shape.
 */
import {
  type AgentComponent,
  contentParts,
  igniteTools,
  type NeutralToolCall,
  type Observation,
  type RuntimeEvent,
  type ToolDialect,
} from "ignite-element/tools";
import { anthropic } from "ignite-element/tools/anthropic";
import { gemini } from "ignite-element/tools/gemini";
import { mcp } from "ignite-element/tools/mcp";
import { ollama } from "ignite-element/tools/ollama";
import { openai, openaiResponses } from "ignite-element/tools/openai";

const DIALECTS: [string, ToolDialect<unknown, unknown, unknown>][] = [
  ["mcp", mcp],
  ["anthropic", anthropic],
  ["openaiResponses", openaiResponses],
  ["gemini", gemini],
  ["openai", openai],
  ["ollama", ollama],
];

/** A string of the block, longer than this, is cut: the observation's JSON is not the point. */
const SHOWN = 36;

/**
 * One line per dialect: its name and the result block it sends for `call`'s `observation`, each
 * base64 payload replaced by its size and every long text cut.
 */
export function howEachDialectCarries<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  call: NeutralToolCall,
  observation: Observation<S, E>,
): [dialect: string, block: string][] {
  const payloads = (observation.content ?? []).flatMap((part) =>
    "data" in part ? [part.data] : [],
  );
  return DIALECTS.map(([name, dialect]) => {
    const tools = igniteTools(component, dialect, { content: contentParts() });
    const block = tools.toToolResult(call, { ok: true, value: observation });
    return [name, JSON.stringify(block, (key, value) => elided(key, value, payloads))];
  });
}

function elided(key: string, value: unknown, payloads: readonly string[]): unknown {
  // The room's state, which the text already shows the start of.
  if (key === "snapshot" && typeof value === "object") return "…";
  if (typeof value !== "string") return value;
  // A text-only provider: the observation's JSON, with the text that stands in for the image.
  const standIn = /\[[^[\]]* was left out: [^\]]*\]/.exec(value);
  if (standIn) return `…${standIn[0]}…`;
  for (const data of payloads) {
    if (value.includes(data)) {
      const bytes = Math.floor((data.length * 3) / 4);
      return value.replace(data, `<${bytes} bytes>`);
    }
  }
  return value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value;
}
