import { describe, expect, it } from "vitest";
import { openai } from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type AgentSchema,
  fakeDialect,
  igniteTools,
} from "../../tools/index.js";

/** A heater whose `boost` is available only while it is on, and says so. */
function heater(schema?: AgentSchema) {
  let on = false;
  const component: AgentComponent<{ on: boolean }> = {
    getSchema: () =>
      schema ?? {
        commands: {
          switchOn: { title: "Switch on", description: "Turn the heating on." },
          boost: {
            title: "Boost",
            description: "Heat at full power for ten minutes.",
            gated: true,
            availableWhen: "only while the heating is on",
          },
          vent: { description: "Open the vent.", gated: true },
        },
      },
    canExecute: () => on,
    execute(command) {
      if (command === "switchOn") on = true;
      return { state: { on }, events: [] };
    },
  };
  return { component };
}

describe('offer: "declared"', () => {
  it("lists every declared command whatever the state, a gated one ending with when it is available", () => {
    const tools = igniteTools(heater().component, fakeDialect, { offer: "declared" });

    expect(tools.toToolDefs().map(({ name, description }) => ({ name, description }))).toEqual([
      {
        name: "boost",
        description: "Heat at full power for ten minutes. Available only while the heating is on.",
      },
      { name: "switchOn", description: "Turn the heating on." },
      { name: "vent", description: "Open the vent." },
    ]);
    // What can be called now is still what is available now.
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["switchOn"]);
  });

  it("gives the same tool definitions while only availability changes, and new ones when a declaration does", async () => {
    const commands: AgentSchema["commands"] = {
      switchOn: { description: "Turn the heating on." },
      boost: { description: "Full power.", gated: true, availableWhen: "only while on" },
    };
    const tools = igniteTools(heater({ commands }).component, openai, { offer: "declared" });
    const before = tools.toToolDefs();

    await tools.invoke({ name: "switchOn", input: {} });
    expect(tools.toToolDefs()).toBe(before);

    commands.boost = { ...commands.boost, availableWhen: "only while the heating is on" };
    const after = tools.toToolDefs();
    expect(after).not.toBe(before);
    expect(after[0]?.function.description).toBe(
      "Full power. Available only while the heating is on.",
    );
  });

  it("answers a call to a listed command that is unavailable now Unavailable, saying when it will be", async () => {
    const tools = igniteTools(heater().component, fakeDialect, { offer: "declared" });

    const result = await tools.invoke({ name: "boost", input: {} });

    expect(result).toEqual({
      ok: false,
      error: {
        kind: "Unavailable",
        name: "boost",
        message:
          'Command "boost" is not available in the current state. It is available only while the heating is on; until then, use another tool.',
      },
    });
  });

  it('is refused at construction when it is neither "available" nor "declared"', () => {
    expect(() =>
      igniteTools(heater().component, fakeDialect, {
        offer: "all" as unknown as "declared",
      }),
    ).toThrow('igniteTools: offer must be one of "available", "declared", not "all" (a string)');
  });
});

describe('offer: "available" (the default)', () => {
  it("lists only the commands available now, without the availableWhen sentence", async () => {
    const tools = igniteTools(heater().component, fakeDialect);
    expect(tools.toToolDefs().map((tool) => tool.name)).toEqual(["switchOn"]);

    await tools.invoke({ name: "switchOn", input: {} });

    expect(tools.toToolDefs().find((tool) => tool.name === "boost")?.description).toBe(
      "Heat at full power for ten minutes.",
    );
  });

  it("still says when a command is available in the Unavailable answer", async () => {
    const result = await igniteTools(heater().component).invoke({ name: "boost", input: {} });
    expect(result.ok ? "" : result.error.message).toContain(
      "It is available only while the heating is on",
    );
  });
});

describe("title and availableWhen in the manifest", () => {
  it("carries the title of every command that declares one, and availableWhen of gated ones", async () => {
    const tools = igniteTools(heater().component);
    await tools.invoke({ name: "switchOn", input: {} });

    const [boost, switchOn] = tools.manifest();
    expect(boost).toMatchObject({
      name: "boost",
      title: "Boost",
      description: "Heat at full power for ten minutes.",
      gated: true,
      availableWhen: "only while the heating is on",
    });
    expect(switchOn).toMatchObject({ name: "switchOn", title: "Switch on", gated: false });
    expect(switchOn).not.toHaveProperty("availableWhen");
  });

  it("refuses a title or an availableWhen that is not a string, naming the command", () => {
    const bad = (command: Record<string, unknown>) =>
      igniteTools(heater({ commands: { boost: command } }).component);
    expect(() => bad({ title: 3 })).toThrow('Command "boost" has a `title` that is not a string');
    expect(() => bad({ gated: true, availableWhen: ["on"] })).toThrow(
      'Command "boost" has a `availableWhen` that is not a string',
    );
  });
});
