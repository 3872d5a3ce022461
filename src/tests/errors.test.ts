import { describe, expect, it } from "vitest";
import { type AgentComponent, buildManifest, igniteTools } from "../tools/index.js";

async function failureMessage(thrown: unknown): Promise<string> {
  const component: AgentComponent = {
    getSchema: () => ({ commands: { go: {} } }),
    execute: () => {
      throw thrown;
    },
  };
  const result = await igniteTools(component).invoke({ name: "go", input: {} });
  if (result.ok) throw new Error("expected a failure");
  return result.error.message;
}

describe("error messages a model reads", () => {
  it("name an error without a message by its class", async () => {
    expect(await failureMessage(new RangeError())).toBe('Command "go" failed: RangeError');
  });

  it("say so when the thrown string is empty", async () => {
    expect(await failureMessage("")).toBe('Command "go" failed: (empty message)');
  });

  it("clip a very long reason instead of flooding the model's context", async () => {
    const message = await failureMessage(new Error("x".repeat(10_000)));
    expect(message.length).toBeLessThan(300);
    expect(message.endsWith("…")).toBe(true);
  });

  it("describe a value that cannot be printed without throwing", async () => {
    expect(await failureMessage({ big: 1n })).toBe(
      'Command "go" failed: threw an unprintable value',
    );
  });

  it("describe other thrown values plainly", async () => {
    expect(await failureMessage(404)).toBe('Command "go" failed: 404');
    expect(await failureMessage(() => 1)).toBe('Command "go" failed: threw a function');
  });

  it("clip a very long command name", () => {
    const name = "n".repeat(5_000);
    const result = igniteTools({
      getSchema: () => ({ commands: {} }),
      execute: () => ({ state: 0, events: [] }),
    }).resolveCall(name, {});
    expect(!result.ok && result.error.message.length).toBeLessThan(300);
  });

  it("name the call whose schema could not be read, even when its name is not a string", async () => {
    let checked = false; // the first read is igniteTools checking the component
    const component: AgentComponent = {
      getSchema: () => {
        if (checked) throw "down";
        checked = true;
        return { commands: {} };
      },
      execute: () => ({ state: 0, events: [] }),
    };
    const result = await igniteTools(component).invoke({ name: 7 as unknown as string, input: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "schema", name: "(unnamed)" },
    });
  });

  it("explain a $schema whose meta-schema is not known", () => {
    const input = { $schema: "https://json-schema.org/draft-07/schema", type: "object" };
    expect(() => buildManifest({ commands: { x: { input } } })).toThrow(
      /"x" has an invalid input schema: no schema with key or ref/,
    );
  });

  it("explain a $schema that is not a string", () => {
    expect(() => buildManifest({ commands: { x: { input: { $schema: 7 } } } })).toThrow(
      /unsupported \$schema 7/,
    );
  });
});
