import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolRequest,
  CallToolResultSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Server } from "@modelcontextprotocol/server";
import { type AgentComponent, approval, type JsonSchema } from "ignite-element/tools";
import { type ServeMcpOptions, serveMcp } from "ignite-element/tools/mcp-server";
import { afterEach, describe, expect, it } from "vitest";

interface Vault {
  locked: boolean;
  items: string[];
}

const vaultState: JsonSchema = {
  type: "object",
  properties: { locked: { type: "boolean" }, items: { type: "array", items: { type: "string" } } },
  required: ["locked", "items"],
  additionalProperties: false,
};

/**
 * A vault the model can open and fill: `unlock` and `lock` follow the state, `peek` only reads,
 * `store` declares its output schema, and the application itself can lock it (`lockFromOutside`)
 * and tell its subscribers.
 */
function vault() {
  let state: Vault = { locked: true, items: [] };
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) listener();
  };
  const component: AgentComponent<Vault> = {
    getSchema: () => ({
      commands: {
        unlock: { description: "Unlock the vault.", gated: true, idempotent: true },
        lock: { description: "Lock the vault.", gated: true, idempotent: true },
        peek: { description: "Read what is inside.", readOnly: true },
        store: {
          description: "Put an item in; the vault must be unlocked.",
          input: { type: "string", minLength: 1 },
          output: vaultState,
          gated: true,
        },
        empty: {
          description: "Throw everything away.",
          destructive: true,
          idempotent: true,
          readOnly: false,
        },
      },
    }),
    canExecute: (command) => (command === "unlock" ? state.locked : !state.locked),
    execute(command, input) {
      if (command === "unlock" || command === "lock")
        state = { ...state, locked: command === "lock" };
      if (command === "store") state = { ...state, items: [...state.items, String(input)] };
      if (command === "empty") state = { ...state, items: [] };
      tell();
      return { state, events: [{ type: command }] };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    component,
    listeners,
    /** A change made by the application, not by a tool call: as many times as asked, in one tick. */
    lockFromOutside(times = 1) {
      for (let i = 0; i < times; i += 1) {
        state = { ...state, locked: true };
        tell();
      }
    },
  };
}

/** The tools listed follow the state: for the tests of what `offer: "available"` announces. */
const FOLLOWING = { offer: "available" } as const;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});

/** A person answering the host's elicitation requests, and what they were asked. */
interface Person {
  answer(request: ElicitRequest): ElicitResult | Promise<ElicitResult>;
}

/**
 * `serveMcp` on a fresh server, connected to the SDK's `Client` in the same process; with a
 * `person`, the client declares elicitation and puts each request to them.
 */
async function served<S>(
  component: AgentComponent<S>,
  options?: ServeMcpOptions<S>,
  person?: Person,
) {
  const server = new Server({ name: "vault", version: "1.0.0" });
  const detach = serveMcp(server, component, options);
  const capabilities = person ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities });
  if (person) client.setRequestHandler(ElicitRequestSchema, (request) => person.answer(request));
  let changes = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
    for (const waiter of waiting.filter((w) => w.count <= changes)) waiter.resolve();
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client, server);
  return {
    server,
    client,
    detach,
    /** The list_changed notifications the client has received, once everything sent has arrived. */
    async changes() {
      await client.ping();
      return changes;
    },
    /** Resolves once the client has received `count` list_changed notifications in all. */
    heard: (count: number) =>
      new Promise<void>((resolve) => {
        if (changes >= count) resolve();
        else waiting.push({ count, resolve });
      }),
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (params: CallToolRequest["params"]) =>
      CallToolResultSchema.parse(await client.callTool(params)),
  };
}

const textOf = (result: { content: { type: string; text?: unknown }[] }) =>
  result.content.map((block) => (block.type === "text" ? block.text : block.type)).join("\n");

/** A promise with its resolver outside, for execute calls the test releases by hand. */
function gate<T = void>() {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("serveMcp: what the client is offered", () => {
  it("declares tools.listChanged and lists the commands offered now, with output schemas and effect hints", async () => {
    const { client } = await served(vault().component, FOLLOWING);

    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "empty",
        description: "Throw everything away.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      },
      {
        name: "peek",
        description: "Read what is inside.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true },
      },
      {
        name: "unlock",
        description: "Unlock the vault.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { idempotentHint: true },
      },
    ]);
  });

  it("answers with structuredContent the client validates against the tool's outputSchema", async () => {
    const { client, call } = await served(vault().component);
    await call({ name: "unlock", arguments: {} });
    const store = (await client.listTools()).tools.find((tool) => tool.name === "store");
    expect(store?.outputSchema).toEqual({
      type: "object",
      properties: { snapshot: vaultState, events: { type: "array" } },
      required: ["snapshot", "events"],
    });

    // The SDK's Client checks structuredContent against the listed outputSchema and throws if not.
    const stored = await call({ name: "store", arguments: { value: "ring" } });

    expect(stored.isError).toBeUndefined();
    expect(stored.structuredContent).toEqual({
      snapshot: { locked: false, items: ["ring"] },
      events: [{ type: "store" }],
    });
    expect(JSON.parse(textOf(stored))).toEqual(stored.structuredContent);
  });
});

describe("serveMcp: every failure is a result the model reads, never a protocol error", () => {
  it("answers an unknown tool, an unavailable one and invalid input with isError and the bridge's message", async () => {
    const { call } = await served(vault().component);

    const unknown = await call({ name: "explode", arguments: {} });
    const locked = await call({ name: "store", arguments: { value: "ring" } });
    await call({ name: "unlock", arguments: {} });
    const invalid = await call({ name: "store", arguments: { value: "" } });

    expect(unknown).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (UnknownCommand): Unknown command "explode". Call one of the tools you were offered.',
        },
      ],
      isError: true,
    });
    expect(locked.isError).toBe(true);
    expect(textOf(locked)).toBe(
      'Error (Unavailable): Command "store" is not available in the current state. Use one of the tools offered now.',
    );
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Error \(InvalidInput\): Invalid input for "store": /);
  });

  it("answers a result that does not match the declared output schema with isError, saying it ran", async () => {
    let runs = 0;
    const liar: AgentComponent<{ count: string }> = {
      getSchema: () => ({
        commands: {
          count: {
            output: { type: "object", properties: { count: { type: "integer" } } },
          },
          total: { output: { type: "integer" } },
          "grand total": { output: { type: "integer" } },
        },
      }),
      execute: () => {
        runs += 1;
        return { state: { count: "seven" }, events: [] };
      },
    };
    const { call, client } = await served(liar);

    const counted = await call({ name: "count", arguments: {} });

    expect(counted.isError).toBe(true);
    expect(counted.structuredContent).toBeUndefined();
    expect(textOf(counted)).toBe(
      'Error (ExecuteFailed): Command "count" failed: ran, but its result does not match its declared output schema (/count must be integer), so it cannot be shown to you. It took effect: do not call it again to retry.',
    );
    const total = await call({ name: "total", arguments: {} });
    expect(textOf(total)).toMatch(/declared output schema \(snapshot must be integer\)/);
    expect(runs).toBe(2);
    // A name MCP does not accept is quoted as the model knows it.
    const [mapped] = (await client.listTools()).tools.filter((tool) => tool.name !== "count");
    expect(mapped?.name).toMatch(/^grand_total_/);
    const grand = await call({ name: mapped?.name ?? "", arguments: {} });
    expect(textOf(grand)).toMatch(
      new RegExp(`^Error \\(ExecuteFailed\\): Command "${mapped?.name}" failed: ran, but`),
    );
    expect(runs).toBe(3);
  });

  it("answers an output schema that cannot be compiled with isError, saying it ran", async () => {
    const broken: AgentComponent<number> = {
      getSchema: () => ({
        commands: { read: { output: { $ref: "#/$defs/missing" } } },
      }),
      execute: () => ({ state: 1, events: [] }),
    };
    const server = new Server({ name: "broken", version: "1.0.0" });
    serveMcp(server, broken);
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    open.push(client, server);

    // Not listed first: the client then has no schema of its own to check against.
    const read = CallToolResultSchema.parse(await client.callTool({ name: "read", arguments: {} }));

    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(
      /^Error \(ExecuteFailed\): Command "read" failed: ran, but its output schema does not compile: .+It took effect: do not call it again to retry\.$/,
    );
  });
});

describe("serveMcp: the result size cap", () => {
  const big: AgentComponent<{ rows: string[] }> = {
    getSchema: () => ({
      commands: {
        rows: { description: "Every row." },
        typedRows: {
          description: "Every row, typed.",
          output: { type: "object", properties: { rows: { type: "array" } } },
        },
      },
    }),
    execute: () => ({
      state: { rows: Array.from({ length: 50 }, (_, i) => `row ${i}`) },
      events: [],
    }),
  };

  it("leaves structuredContent out when its JSON is over maxResultChars, and cuts the text with a marker", async () => {
    const { call } = await served(big, { maxResultChars: 300 });

    const rows = await call({ name: "rows", arguments: {} });

    expect(rows.isError).toBeUndefined();
    expect(rows.structuredContent).toBeUndefined();
    expect(textOf(rows).length).toBeLessThanOrEqual(300);
    expect(JSON.parse(textOf(rows))).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of \d+ characters$/,
      ),
      partial: expect.stringMatching(/^\{"snapshot":\{"rows":\["row 0",/),
    });
  });

  it("answers isError, saying the command ran, when a tool with an outputSchema has a result over the cap", async () => {
    const { client, call } = await served(big, { maxResultChars: 300 });
    await client.listTools();

    const rows = await call({ name: "typedRows", arguments: {} });

    expect(rows.isError).toBe(true);
    expect(textOf(rows)).toBe(
      'Error (ExecuteFailed): Command "typedRows" failed: ran, but its result is larger than the 300 characters this server sends, so it cannot be shown to you. It took effect: do not call it again to retry.',
    );
  });

  it("sends structuredContent within the cap", async () => {
    const { call } = await served(big, { maxResultChars: 10_000 });
    const rows = await call({ name: "typedRows", arguments: {} });
    expect(rows.structuredContent).toMatchObject({ snapshot: { rows: expect.any(Array) } });
  });
});

describe("serveMcp: tools/list_changed", () => {
  it("sends list_changed once when a call changes the offered tools, and none when it does not", async () => {
    const { call, changes, names } = await served(vault().component, FOLLOWING);

    await call({ name: "peek", arguments: {} });
    expect(await changes()).toBe(0);
    await call({ name: "unlock", arguments: {} });
    expect(await changes()).toBe(1);
    expect(await names()).toEqual(["empty", "lock", "peek", "store"]);
    await call({ name: "store", arguments: { value: "coin" } });
    expect(await changes()).toBe(1);
  });

  it("announces a change made outside any call once, however many times the component says it moved", async () => {
    const box = vault();
    const { call, changes, names } = await served(box.component, FOLLOWING);
    await call({ name: "unlock", arguments: {} });
    expect(await changes()).toBe(1);

    box.lockFromOutside(3);

    expect(await changes()).toBe(2);
    expect(await names()).toEqual(["empty", "peek", "unlock"]);
    box.lockFromOutside();
    expect(await changes()).toBe(2);
  });

  it("announces each change again, so a change and its reversal are two notifications", async () => {
    const box = vault();
    const { call, changes } = await served(box.component, FOLLOWING);

    await call({ name: "unlock", arguments: {} });
    box.lockFromOutside();
    await changes();
    await call({ name: "unlock", arguments: {} });

    expect(await changes()).toBe(3);
  });

  it("does not announce a change the client has already seen by listing the tools", async () => {
    // No subscribe: a change made outside a call is seen only when the tools are read again.
    let on = false;
    const lamp: AgentComponent<boolean> = {
      getSchema: () => ({ commands: { read: { readOnly: true }, dim: { gated: true } } }),
      canExecute: () => on,
      execute: () => ({ state: on, events: [] }),
    };
    const { call, changes, names } = await served(lamp, FOLLOWING);
    on = true;

    expect(await names()).toEqual(["dim", "read"]);
    await call({ name: "read", arguments: {} });

    expect(await changes()).toBe(0);
  });

  it("is not an error to change before any client is connected", async () => {
    const box = vault();
    const server = new Server({ name: "vault", version: "1.0.0" });
    serveMcp(server, box.component);

    box.lockFromOutside();
    box.component.execute("unlock");
    await Promise.resolve();

    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    open.push(client, server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("lock");
  });
});

describe("serveMcp: cancellation", () => {
  it("answers a running call at once when the client cancels it, so the next call does not wait for it", async () => {
    const started = gate();
    const never = gate<{ state: string; events: [] }>();
    const slow: AgentComponent<string> = {
      getSchema: () => ({ commands: { hang: {}, quick: {} } }),
      execute: (command) => {
        if (command === "quick") return { state: "quick", events: [] };
        started.open();
        return never.promise;
      },
    };
    const { client, call } = await served(slow);
    const controller = new AbortController();

    const hung = client.callTool({ name: "hang", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await started.promise;
    controller.abort("the user gave up");

    await expect(hung).rejects.toThrow();
    // Without the abort reaching the bridge, this call would queue behind the hung one forever.
    const quick = await call({ name: "quick", arguments: {} });
    expect(quick.structuredContent).toEqual({ snapshot: "quick", events: [] });
  });

  it("still announces the change a cancelled call made before it was cancelled", async () => {
    const started = gate();
    let armed = false;
    const alarm: AgentComponent<boolean> = {
      getSchema: () => ({ commands: { arm: {}, disarm: { gated: true } } }),
      canExecute: () => armed,
      execute: () => {
        armed = true; // takes effect at once, then never finishes
        started.open();
        return new Promise(() => undefined);
      },
    };
    const { client, changes, heard, names } = await served(alarm, FOLLOWING);
    const controller = new AbortController();

    const arming = client.callTool({ name: "arm", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await started.promise;
    controller.abort();

    await expect(arming).rejects.toThrow();
    await heard(1);
    expect(await changes()).toBe(1);
    expect(await names()).toEqual(["arm", "disarm"]);
  });

  it("never executes a queued call the client cancelled", async () => {
    const started = gate();
    const release = gate<{ state: string[]; events: [] }>();
    const ran: string[] = [];
    const queued: AgentComponent<string[]> = {
      getSchema: () => ({ commands: { first: {}, second: {} } }),
      execute: (command) => {
        ran.push(command);
        if (command === "second") return { state: ran, events: [] };
        started.open();
        return release.promise;
      },
    };
    const { client } = await served(queued);
    const controller = new AbortController();

    const first = client.callTool({ name: "first", arguments: {} });
    await started.promise;
    const second = client.callTool({ name: "second", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await client.ping(); // the second request has reached the server and is queued
    controller.abort();
    await expect(second).rejects.toThrow();
    release.open({ state: ["first"], events: [] });

    expect((await first).isError).toBeUndefined();
    await client.ping();
    expect(ran).toEqual(["first"]);
  });
});

describe("serveMcp: a call the approval policy asks about", () => {
  const askBeforeEmptying: ServeMcpOptions<Vault> = {
    approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
  };
  /** The vault, with every command it executes recorded. */
  function countedVault() {
    const { component, lockFromOutside } = vault();
    const executed: string[] = [];
    const counted: AgentComponent<Vault> = {
      ...component,
      execute: (command, input) => {
        executed.push(command);
        return component.execute(command, input);
      },
    };
    return { component: counted, executed, lockFromOutside };
  }

  it("asks the person through elicitation, showing the tool and its effect, and runs it once they accept", async () => {
    const { component, executed } = countedVault();
    const asked: ElicitRequest["params"][] = [];
    const { call } = await served(component, askBeforeEmptying, {
      answer: (request) => {
        asked.push(request.params);
        return { action: "accept", content: {} };
      },
    });

    const result = await call({ name: "empty", arguments: {} });

    expect(result.isError).toBeUndefined();
    expect(executed).toEqual(["empty"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe(
      'Allow the agent to run "empty" with no input? It may destroy or overwrite data.',
    );
    expect(asked[0]).toMatchObject({ requestedSchema: { type: "object", properties: {} } });
  });

  it("shows the exact input the call will run with", async () => {
    const { component, executed } = countedVault();
    const asked: string[] = [];
    const { call } = await served(
      component,
      { approve: approval(({ route }) => (route.command === "store" ? "ask" : "allow")) },
      {
        answer: (request) => {
          asked.push(request.params.message);
          return { action: "accept", content: {} };
        },
      },
    );
    await call({ name: "unlock", arguments: {} });

    const result = await call({ name: "store", arguments: { value: "gold" } });

    expect(textOf(result)).toContain('"items":["gold"]');
    expect(asked).toEqual(['Allow the agent to run "store" with this input: "gold"?']);
    expect(executed).toEqual(["unlock", "store"]);
  });

  it.each([
    ["declines", { action: "decline" } as const, "the person declined it"],
    ["dismisses the request", { action: "cancel" } as const, "the person dismissed the request"],
  ])("answers Denied, running nothing, when the person %s", async (_how, reply, why) => {
    const { component, executed } = countedVault();
    const { call } = await served(component, askBeforeEmptying, { answer: () => reply });

    const result = await call({ name: "empty", arguments: {} });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Error (Denied): Command "empty" was denied: ${why}`);
    expect(executed).toEqual([]);
  });

  it("stops waiting for the person when the client cancels the call, runs nothing, and goes on announcing changes", async () => {
    const { component, executed, lockFromOutside } = countedVault();
    const asked = gate();
    const { client, call, heard } = await served(
      component,
      { ...askBeforeEmptying, ...FOLLOWING },
      {
        answer: () => {
          asked.open();
          return new Promise<never>(() => undefined); // the person never answers
        },
      },
    );
    await call({ name: "unlock", arguments: {} });
    await heard(1);
    const controller = new AbortController();
    const calling = client.callTool({ name: "empty", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await asked.promise;

    controller.abort();
    await expect(calling).rejects.toThrow();

    // A call still waiting for its person would hold back every announcement for ever.
    lockFromOutside();
    await heard(2);
    expect(executed).toEqual(["unlock"]);
  });

  it("answers Denied when the client cannot ask a person (no elicitation capability)", async () => {
    const { component, executed } = countedVault();
    const { call } = await served(component, askBeforeEmptying);

    const result = await call({ name: "empty", arguments: {} });

    expect(textOf(result)).toContain("needs a person's approval, which was not given");
    expect(executed).toEqual([]);
  });

  it("answers Denied when the person's client fails to answer the elicitation", async () => {
    const { component, executed } = countedVault();
    const { call } = await served(component, askBeforeEmptying, {
      answer: () => {
        throw new Error("the dialog crashed");
      },
    });

    const result = await call({ name: "empty", arguments: {} });

    expect(textOf(result)).toContain("needs a person's approval, which was not given");
    expect(executed).toEqual([]);
  });
});

describe("serveMcp: binding and unbinding", () => {
  it("passes the bridge's options through: timeoutMs and project", async () => {
    const hang: AgentComponent<{ secret: string; shown: string }> = {
      getSchema: () => ({ commands: { slow: {}, read: {} } }),
      execute: (command) =>
        command === "slow"
          ? new Promise(() => undefined)
          : { state: { secret: "s3cret", shown: "hello" }, events: [] },
    };
    const { call } = await served(hang, {
      timeoutMs: 20,
      project: ({ snapshot, events }) => ({ snapshot: { shown: snapshot.shown }, events }),
    });

    const slow = await call({ name: "slow", arguments: {} });
    const read = await call({ name: "read", arguments: {} });

    expect(textOf(slow)).toMatch(
      /^Error \(ExecuteFailed\): Command "slow" failed: did not finish within 20 ms/,
    );
    expect(read.structuredContent).toEqual({ snapshot: { shown: "hello" }, events: [] });
  });

  it("tells onWarning of no option it takes, the dialect's and the 2026-07-28 ones included", () => {
    const warnings: string[] = [];

    serveMcp(new Server({ name: "t", version: "1" }), vault().component, {
      maxResultChars: 1000,
      listTtlMs: 5000,
      requestStateKey: "k".repeat(32),
      approvalTtlSeconds: 60,
      onWarning: (warning) => warnings.push(warning.message),
    });

    expect(warnings).toEqual([]);
  });

  it("detaches: the tool handlers are gone and the component is no longer watched", async () => {
    const box = vault();
    const { client, detach } = await served(box.component);
    expect(box.listeners.size).toBe(1);

    detach();
    detach();

    expect(box.listeners.size).toBe(0);
    await expect(client.listTools()).rejects.toThrow(/Method not found/);
    await expect(client.callTool({ name: "peek", arguments: {} })).rejects.toThrow(
      /Method not found/,
    );
  });

  it("refuses, with a TypeError, a server that is already connected", async () => {
    const server = new Server({ name: "late", version: "1.0.0" });
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    open.push(server);

    expect(() => serveMcp(server, vault().component)).toThrow(
      /^serveMcp must be called before server\.connect\(\): MCP fixes a server's capabilities when the client connects/,
    );
    expect(() => serveMcp(server, vault().component)).toThrow(TypeError);
  });

  it("refuses, with a TypeError naming the command, a malformed schema", () => {
    const server = new Server({ name: "bad", version: "1.0.0" });
    const bad: AgentComponent = {
      getSchema: () => ({ commands: { "todo.add": { input: { type: "strnig" } } } }),
      execute: () => ({ state: null, events: [] }),
    };
    expect(() => serveMcp(server, bad)).toThrow(/^Command "todo\.add" has an invalid input schema/);
  });

  it("answers a call through a component whose getSchema() breaks after it ran, without a protocol error", async () => {
    let broken = false;
    const fragile: AgentComponent<number> = {
      getSchema: () => {
        if (broken) throw new Error("schema store offline");
        return { commands: { shatter: { output: { type: "integer" } } } };
      },
      execute: () => {
        broken = true;
        return { state: 1, events: [] };
      },
    };
    const { call } = await served(fragile);

    const shattered = await call({ name: "shatter", arguments: {} });
    const after = await call({ name: "shatter", arguments: {} });

    expect(shattered.structuredContent).toEqual({ snapshot: 1, events: [] });
    expect(after.isError).toBe(true);
    expect(textOf(after)).toBe(
      'Error (ExecuteFailed): Command "shatter" failed: getSchema() threw: schema store offline',
    );
  });

  it("works with a component that has no subscribe: changes are announced after calls", async () => {
    let on = false;
    const lamp: AgentComponent<boolean> = {
      getSchema: () => ({ commands: { toggle: {}, dim: { gated: true } } }),
      canExecute: () => on,
      execute: () => {
        on = !on;
        return { state: on, events: [] };
      },
    };
    const { call, changes, names } = await served(lamp, FOLLOWING);

    await call({ name: "toggle", arguments: {} });

    expect(await changes()).toBe(1);
    expect(await names()).toEqual(["dim", "toggle"]);
  });
});
