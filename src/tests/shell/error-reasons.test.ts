import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AgentComponent,
  type AgentSchema,
  fakeDialect,
  igniteTools,
  type Observation,
  type Result,
  type ToolError,
} from "../../tools/index.js";
import { everyDialect, offeredNames } from "./every-dialect.js";

afterEach(() => {
  vi.useRealTimers();
});

function reasonOf(result: Result<unknown, ToolError>) {
  if (result.ok || result.error.kind !== "ExecuteFailed") return undefined;
  return result.error.reason;
}

/** A component with one command `go` whose execute is `execute`. */
function going(execute: () => unknown, schema: AgentSchema = { commands: { go: {} } }) {
  // Whatever the types say: these components return what a careless JavaScript one would.
  return { getSchema: () => schema, execute } as AgentComponent;
}

const call = { name: "go", input: {} };

describe("ExecuteFailed says why, for the application, in `reason`", () => {
  it("threw: execute threw or rejected, and cause is what it threw, with or without a deadline", async () => {
    const cause = new Error("disk full");
    for (const execute of [
      () => {
        throw cause;
      },
      () => Promise.reject(cause),
    ]) {
      for (const options of [{}, { timeoutMs: 1_000 }]) {
        const tools = igniteTools(going(execute), undefined, options);
        for (const signal of [undefined, new AbortController().signal]) {
          const result = await tools.invoke(call, { signal });
          expect(result).toMatchObject({ ok: false, error: { reason: "threw", cause } });
        }
      }
    }
  });

  it("timeout: execute did not settle within timeoutMs", async () => {
    vi.useFakeTimers();
    const result = igniteTools(
      going(() => new Promise(() => {})),
      undefined,
      {
        timeoutMs: 50,
      },
    ).invoke(call);
    await vi.advanceTimersByTimeAsync(50);
    expect(reasonOf(await result)).toBe("timeout");
  });

  it("aborted while running, cancelled before its turn", async () => {
    let started = 0;
    const tools = igniteTools(
      going(() => {
        started++;
        return new Promise(() => {});
      }),
    );
    const controller = new AbortController();
    const running = tools.invoke(call, { signal: controller.signal });
    const queued = tools.invoke(call, { signal: controller.signal });
    await vi.waitFor(() => expect(started).toBe(1));
    controller.abort();
    expect([reasonOf(await running), reasonOf(await queued)]).toEqual(["aborted", "cancelled"]);
    const already = await tools.invoke(call, { signal: AbortSignal.abort() });
    expect(reasonOf(already)).toBe("cancelled");
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 7],
    ["an object without state (`execute: () => state`)", { count: 1 }],
    ["events that are not an array", { state: 1, events: "added" }],
    [
      "a state that cannot be read",
      new Proxy(
        {},
        {
          has: () => {
            throw new Error("trap");
          },
        },
      ),
    ],
  ])("malformed-result: execute resolved %s", async (_case, value) => {
    const result = await igniteTools(going(async () => value)).invoke(call);
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "malformed-result" },
    });
  });

  it("accepts a result whose state is present but undefined, and one without events", async () => {
    const result = await igniteTools(going(() => ({ state: undefined }))).invoke(call);
    expect(result).toEqual({ ok: true, value: { snapshot: undefined, events: [] } });
  });

  it("schema: getSchema throws, a declaration turns malformed, an input schema does not compile", async () => {
    let schema: AgentSchema = { commands: { go: {} } };
    let throws = false;
    const tools = igniteTools({
      getSchema: () => {
        if (throws) throw new Error("not ready");
        return schema;
      },
      execute: () => ({ state: null, events: [] }),
    });
    throws = true;
    expect(reasonOf(await tools.invoke(call))).toBe("schema");
    throws = false;
    schema = { commands: { go: { description: 7 } } } as unknown as AgentSchema;
    expect(reasonOf(await tools.invoke(call))).toBe("schema");
    schema = { commands: { go: { input: { $ref: "#/$defs/missing" } } } };
    expect(reasonOf(await tools.invoke(call))).toBe("schema");
  });

  it("projection: the command ran, but project threw or returned no observation", async () => {
    for (const project of [
      () => {
        throw new Error("summary failed");
      },
      () => undefined as unknown as Observation,
    ]) {
      const tools = igniteTools(
        going(() => ({ state: 1, events: [] })),
        fakeDialect,
        { project },
      );
      const [block] = await tools.handleToolCalls({ toolCalls: [{ id: "1", ...call }] });
      expect(block).toMatchObject({
        ok: false,
        error: {
          reason: "projection",
          message: expect.stringContaining("Do not call it again"),
        },
      });
    }
  });
});

describe("messages quote the name the model called", () => {
  // Three commands whose names are longer than any provider accepts and than the 200 characters
  // a message used to show; a provider offers each under a shortened name.
  const long = (last: string) => `${"x".repeat(250)}${last}`;
  const [INVALID, FAILING, GATED] = [long("a"), long("b"), long("c")];

  function component() {
    let open = true;
    const tools: AgentComponent = {
      getSchema: () => ({
        commands: {
          [INVALID]: {
            input: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
          },
          [FAILING]: {},
          [GATED]: { gated: true },
        },
      }),
      canExecute: () => open,
      execute: () => {
        throw new Error("disk full");
      },
    };
    return { tools, close: () => (open = false) };
  }

  it.each(everyDialect)(
    "with $name, quotes the offered name whole, for every kind of error",
    async ({ dialect, respond, textOf }) => {
      const { tools: component_, close } = component();
      const tools = igniteTools(component_, dialect);
      const offered = offeredNames(tools.toToolDefs());
      expect(offered).toHaveLength(3);
      close(); // GATED was offered and is unavailable now
      const expected: Record<string, string> = {
        [INVALID]: "InvalidInput",
        [FAILING]: "ExecuteFailed",
        [GATED]: "Unavailable",
      };
      for (const name of offered) {
        const [block] = await tools.handleToolCalls(respond({ id: "1", name, args: {} }) as never);
        const [parsed] = tools.parseToolCalls(respond({ id: "1", name, args: {} }) as never);
        const text = textOf(block);
        expect(text).toContain(`Error (${expected[parsed?.name ?? ""]})`);
        // The name as offered, whole, escaped as the message quotes it (and as JSON text re-escapes
        // it where the block is JSON).
        expect(text).toContain(JSON.stringify(name).slice(1, -1));
        expect(text).not.toContain("xxxxx…");
      }
    },
  );
});
