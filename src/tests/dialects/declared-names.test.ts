import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRecord } from "../../tools/core/json.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import {
  buildManifest,
  igniteTools,
  type NeutralManifest,
  type NeutralToolCall,
  type ToolDefsContext,
} from "../../tools/index.js";
import { argsFor, type ProviderCase, providers } from "../provider-responses.js";

// Names offered and names read back come from one mapping over every declared command, whatever
// is available this turn: a command literally named like another one's provider-safe name can
// never take the calls meant for that other command.

/** A dialect under test: how to offer tools, read the names offered, and read calls back. */
interface Case {
  name: string;
  offer(manifest: NeutralManifest, context?: ToolDefsContext): { name: string; command: string }[];
  parse(names: string[], declared: NeutralManifest): NeutralToolCall[];
}

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** `{ name, description }` of each tool definition, wherever the provider's format puts it. */
function declarations(provider: string, defs: unknown): Record<string, unknown>[] {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(record) : []);
  if (provider === "gemini") return list(record(list(defs)[0]).functionDeclarations);
  if (provider === "mcp") return list(record(defs).tools);
  return list(defs).map((def) => (isRecord(def.function) ? def.function : def));
}

function caseOf(provider: ProviderCase): Case {
  return {
    name: provider.name,
    offer: (manifest, context) =>
      declarations(provider.name, provider.dialect.toToolDefs(manifest, context)).map((def) => ({
        name: String(def.name),
        // Each test command's description is its own name.
        command: String(def.description),
      })),
    parse: (names, declared) =>
      provider.dialect.parseToolCalls(
        provider.respond(
          names.map((name, index) => ({ id: `call_${index}`, name, args: argsFor(provider, {}) })),
        ) as never,
        declared,
      ),
  };
}

const cases: Case[] = [
  ...providers.map(caseOf),
  {
    name: "mcp",
    offer: (manifest, context) =>
      declarations("mcp", mcp.toToolDefs(manifest, context)).map((def) => ({
        name: String(def.name),
        command: String(def.description),
      })),
    parse: (names, declared) =>
      names.flatMap((name) => mcp.parseToolCalls({ name, arguments: {} }, declared)),
  },
];

/** Every command declared, each described by its own name; `gated` ones are unavailable. */
function declare(names: string[], gated: ReadonlySet<string> = new Set()) {
  const commands = Object.fromEntries(
    names.map((name) => [name, { description: name, gated: gated.has(name) }]),
  );
  const declared = buildManifest({ commands });
  return { commands, declared, available: declared.filter((tool) => !gated.has(tool.name)) };
}

describe.each(cases)("the $name dialect's provider names", (dialect) => {
  /** The name `command` is offered under when it is the only command. */
  const alone = (command: string) => dialect.offer(declare([command]).declared)[0]?.name ?? "";

  it("never routes a call meant for one command to another literally named like its safe name", () => {
    const mapped = alone("set limit");
    expect(mapped).not.toBe("set limit");
    // `set_limit_…` is declared too, gated and unavailable now: it is not offered.
    const { declared, available } = declare(["set limit", mapped], new Set([mapped]));
    const offered = dialect.offer(available, { declared });
    expect(offered).toHaveLength(1);
    const [setLimit] = offered;
    expect(setLimit?.command).toBe("set limit");
    expect(setLimit?.name).not.toBe(mapped);
    const calls = dialect.parse([setLimit?.name ?? "", mapped], declared);
    expect(calls.map((call) => call.name)).toEqual(["set limit", mapped]);
  });

  it("answers a call to the literal command Unavailable, never running the other one", async () => {
    const mapped = alone("set limit");
    const { commands, declared } = declare(["set limit", mapped], new Set([mapped]));
    const ran: string[] = [];
    const bridge = igniteTools({
      getSchema: () => ({ commands }),
      canExecute: () => false,
      execute: (command) => {
        ran.push(command);
        return { state: null, events: [] };
      },
    });
    const [call] = dialect.parse([mapped], declared);
    const outcome = call ? await bridge.invoke(call) : undefined;
    expect(outcome?.ok === false && outcome.error.kind).toBe("Unavailable");
    expect(ran).toEqual([]);
  });

  it("keeps one mapping whatever the names and whatever is available", () => {
    const piece = fc.constantFrom(
      "set",
      " ",
      "limit",
      ".",
      "_",
      "-",
      "/",
      "a",
      "é",
      "x".repeat(70),
    );
    const name = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(""));
    const scenario = fc.record({
      names: fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
      // Which names also get a command literally named like their safe name when alone.
      shadowed: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      gated: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    });
    fc.assert(
      fc.property(scenario, ({ names, shadowed, gated }) => {
        const shadows = names.filter((_, index) => shadowed[index]).map(alone);
        const all = [...new Set([...names, ...shadows])];
        const { declared, available } = declare(
          all,
          new Set(all.filter((_, index) => gated[index])),
        );
        const offered = dialect.offer(available, { declared });
        const everything = dialect.offer(declared, { declared });
        // Offered names are distinct, and each is the one its command has when all are offered.
        expect(new Set(offered.map((tool) => tool.name)).size).toBe(offered.length);
        for (const tool of offered) expect(everything).toContainEqual(tool);
        // Each name read back is the command it was offered for; a command's own safe name is
        // always itself.
        const calls = dialect.parse(
          everything.map((tool) => tool.name),
          declared,
        );
        expect(calls.map((call) => call.name)).toEqual(everything.map((tool) => tool.command));
      }),
      { numRuns: 300 },
    );
  });
});
