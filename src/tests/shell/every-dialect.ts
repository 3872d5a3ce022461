/**
 * Every dialect the package ships, each with a way to write a response carrying one call and to
 * read back the text the model gets: the recorded provider shapes, Gemini's OpenAPI mode, MCP and
 * the fake dialect.
 */
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { type FakeResultBlock, fakeDialect, type ToolDialect } from "../../tools/index.js";
import { providers, type SentCall } from "../provider-responses.js";

export interface DialectCase {
  name: string;
  dialect: ToolDialect<unknown, never, unknown>;
  /** A response in the dialect's shape carrying exactly this call. */
  respond(call: SentCall): unknown;
  /** The text (or data, as JSON) the model reads in a result block. */
  textOf(block: unknown): string;
}

const fakeText = (block: FakeResultBlock) =>
  block.ok ? JSON.stringify(block) : `Error (${block.error.kind}): ${block.error.message}`;

const geminiCase = providers.find((provider) => provider.name === "gemini");

export const everyDialect: DialectCase[] = [
  ...providers.map(
    (provider): DialectCase => ({
      name: provider.name,
      dialect: provider.dialect,
      respond: (call) =>
        provider.respond([
          { ...call, args: provider.text ? JSON.stringify(call.args) : call.args },
        ]),
      textOf: provider.textOf,
    }),
  ),
  {
    name: "gemini (openapi)",
    dialect: gemini({ schema: "openapi" }),
    respond: (call) => geminiCase?.respond([call]),
    textOf: (block) => geminiCase?.textOf(block) ?? "",
  },
  {
    name: "mcp",
    dialect: mcp,
    respond: (call) => ({ name: call.name, arguments: call.args }),
    textOf: (block) => JSON.stringify((block as { content: unknown }).content),
  },
  {
    name: "fake",
    dialect: fakeDialect,
    respond: (call) => ({ toolCalls: [{ id: call.id, name: call.name, input: call.args }] }),
    textOf: (block) => fakeText(block as FakeResultBlock),
  },
];

/** Every string `name` in a dialect's tool definitions: the tool names it offered. */
export function offeredNames(defs: unknown): string[] {
  if (Array.isArray(defs)) return defs.flatMap(offeredNames);
  if (typeof defs !== "object" || defs === null) return [];
  return Object.entries(defs).flatMap(([key, value]) =>
    key === "name" && typeof value === "string" ? [value] : offeredNames(value),
  );
}
