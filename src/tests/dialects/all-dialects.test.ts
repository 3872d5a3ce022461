import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { err, igniteTools, ok } from "../../tools/index.js";
import { Counter } from "../fixtures.js";
import { providers } from "../provider-responses.js";

// The same hostile and odd inputs, through every shipped dialect: whatever a model or provider
// sends, each call is answered once, in order, and only a value that is not the provider's shape
// at all throws — a TypeError.

const RUNS = { numRuns: 2_000 };

describe.each(providers)("the $name dialect", ({ dialect, text, respond, textOf }) => {
  const bridge = () => igniteTools(new Counter(), dialect);

  it("answers every call once and in order, even with duplicate ids or none", async () => {
    const args = text ? '{"by":1}' : { by: 1 };
    const response = respond([
      { id: "same", name: "increment", args },
      { id: "same", name: "increment", args },
      { name: "increment", args },
      { id: "last", name: "explode", args },
    ]);
    const counter = new Counter();
    const blocks = await igniteTools(counter, dialect).handleToolCalls(response as never);
    expect(blocks).toHaveLength(4);
    expect(counter.calls).toHaveLength(3);
    expect(textOf(blocks[3])).toMatch(/UnknownCommand/);
  });

  it.each(
    text ? ["null", "{bad", "[1]", '{"by":', "42", '"text"'] : [null, [1], "not an object", 42],
  )("answers arguments %j with an error the model can act on", async (args) => {
    const counter = new Counter();
    const blocks = await igniteTools(counter, dialect).handleToolCalls(
      respond([{ id: "1", name: "increment", args }]) as never,
    );
    expect(blocks).toHaveLength(1);
    // Gemini and Ollama read an absent (`null`) argument list as `{}`; everything else is refused.
    if (counter.calls.length === 0) expect(textOf(blocks[0])).toMatch(/InvalidInput/);
    else expect(counter.calls).toEqual([{ command: "increment", input: { by: 1 } }]);
  });

  it("answers a response with no calls with no blocks", async () => {
    expect(await bridge().handleToolCalls(respond([]) as never)).toEqual([]);
  });

  it("parses any JSON as a response or throws only a TypeError", () => {
    const tools = bridge();
    fc.assert(
      fc.property(fc.jsonValue(), (response) => {
        try {
          expect(Array.isArray(tools.parseToolCalls(response as never))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }),
      RUNS,
    );
  });

  it("parses any JSON as a call's arguments without throwing", () => {
    const tools = bridge();
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (name, args) => {
        const calls = tools.parseToolCalls(respond([{ id: "x", name, args }]) as never);
        expect(calls).toHaveLength(1);
      }),
      RUNS,
    );
  });

  it("encodes any JavaScript value in a snapshot or an error into a block JSON can carry", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true }),
        (value) => {
          const call = { id: "1", name: "go", input: {} };
          const success = dialect.toToolResult(call, ok({ snapshot: value, events: [] }));
          const failure = dialect.toToolResult(
            call,
            err({ kind: "ExecuteFailed", name: "go", message: "m", cause: value }),
          );
          expect(() => JSON.stringify([success, failure])).not.toThrow();
        },
      ),
      RUNS,
    );
  });
});

describe("the mcp dialect", () => {
  it("parses any JSON as tools/call params or throws only a TypeError", () => {
    const tools = igniteTools(new Counter(), mcp);
    fc.assert(
      fc.property(fc.jsonValue(), (params) => {
        try {
          expect(tools.parseToolCalls(params as never)).toHaveLength(1);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }),
      RUNS,
    );
  });

  it("encodes any JavaScript value in a snapshot into a result JSON can carry", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true }), (snapshot) => {
        const block = mcp.toToolResult({ name: "go", input: {} }, ok({ snapshot, events: [] }));
        expect(() => JSON.stringify(block)).not.toThrow();
      }),
      RUNS,
    );
  });
});
