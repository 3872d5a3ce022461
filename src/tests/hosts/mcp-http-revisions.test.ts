/**
 * `serveMcpHttp` as clients of both protocol revisions meet it on one endpoint: the SDK v2
 * `Client` (`@modelcontextprotocol/client`) negotiating `auto` (2026-07-28, no session) and
 * `legacy` (2025-11-25, a session), beside the v1 `Client` the other host tests use.
 */
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type AgentComponent, approval } from "ignite-element/tools";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { afterEach, describe, expect, it, vi } from "vitest";

const running: McpHttpServer[] = [];
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

interface Safe {
  open: boolean;
  coins: number;
}

/** A safe whose `empty` is destructive, with every command it executes recorded. */
function safe() {
  let state: Safe = { open: false, coins: 3 };
  const executed: string[] = [];
  const component: AgentComponent<Safe> = {
    getSchema: () => ({
      commands: {
        peek: { description: "Look inside.", readOnly: true },
        toggle: { description: "Open or close the door.", idempotent: false },
        empty: { description: "Take every coin.", destructive: true },
        count: { description: "Count the coins, slowly." },
      },
    }),
    execute(command, _input, context) {
      executed.push(command);
      if (command === "toggle") state = { ...state, open: !state.open };
      if (command === "empty") state = { ...state, coins: 0 };
      if (command === "count") {
        for (let coin = 1; coin <= state.coins; coin += 1) {
          context?.progress({ progress: coin, total: state.coins });
        }
        context?.log("debug", "counted slowly");
        context?.log("info", `${state.coins} coins`);
      }
      return { state, events: [] };
    },
  };
  return { component, executed };
}

const askBeforeEmptying = approval(({ flags }) => (flags.destructive ? "ask" : "allow"));

async function serve(component: AgentComponent<Safe>, options = {}) {
  const server = await serveMcpHttp(component, options);
  running.push(server);
  return server;
}

/**
 * A v2 `Client`, negotiating `mode`; `answer`, when given, is its person answering an
 * elicitation (and the client then declares the capability).
 */
async function v2(
  url: URL,
  mode: "auto" | "legacy",
  answer?: "accept" | "decline",
  wrapped: typeof fetch = fetch,
) {
  const client = new Client(
    { name: "host-v2", version: "1.0.0" },
    {
      versionNegotiation: { mode },
      ...(answer === undefined ? {} : { capabilities: { elicitation: {} } }),
    },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return { action: answer, ...(answer === "accept" ? { content: {} } : {}) };
    });
  }
  const transport = new StreamableHTTPClientTransport(url, { fetch: wrapped });
  await client.connect(transport);
  closing.push(client);
  return { client, transport, asked };
}

const structured = (result: object) =>
  "structuredContent" in result ? result.structuredContent : undefined;
const textOf = (result: { content?: unknown }) =>
  JSON.stringify((result.content as { text?: string }[] | undefined)?.map((block) => block.text));

describe("serveMcpHttp: a 2026-07-28 client (the v2 Client negotiating auto)", () => {
  it("is served the 2026-07-28 revision without a session, and lists and calls the tools", async () => {
    const { component } = safe();
    const { url } = await serve(component);
    const { client, transport } = await v2(url, "auto");

    expect(client.getProtocolEra()).toBe("modern");
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["count", "empty", "peek", "toggle"]);
    const result = await client.callTool({ name: "toggle", arguments: {} });
    expect(structured(result)).toEqual({ snapshot: { open: true, coins: 3 }, events: [] });
  });

  it("may cache the list of every declared command for a minute, and the list of those available now not at all", async () => {
    const { component } = safe();
    const declared = await v2((await serve(component)).url, "auto");
    const available = await v2((await serve(component, { offer: "available" })).url, "auto");

    expect(await declared.client.listTools()).toMatchObject({
      ttlMs: 60_000,
      cacheScope: "public",
    });
    expect(await available.client.listTools()).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });

  it("hears on its subscription that the tools available changed, after a call or when the application changes the state", async () => {
    let open = false;
    const listeners = new Set<() => void>();
    const door: AgentComponent<{ open: boolean }> = {
      getSchema: () => ({
        commands: { open: { gated: true }, close: { gated: true } },
      }),
      canExecute: (command) => (command === "open" ? !open : open),
      execute: (command) => {
        open = command === "open";
        return { state: { open }, events: [] };
      },
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const { url } = await serveMcpHttp(door, { offer: "available" }).then((served) => {
      running.push(served);
      return served;
    });
    const relisted: string[][] = [];
    const client = new Client(
      { name: "host-v2", version: "1.0.0" },
      {
        versionNegotiation: { mode: "auto" },
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (error, tools) => {
              if (error === null && tools !== null) relisted.push(tools.map((tool) => tool.name));
            },
          },
        },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    closing.push(client);

    await client.callTool({ name: "open", arguments: {} });
    await vi.waitFor(() => expect(relisted).toEqual([["close"]]));
    // The application closes the door itself.
    open = false;
    for (const listener of listeners) listener();

    await vi.waitFor(() => expect(relisted).toEqual([["close"], ["open"]]));
  });

  it("hears the command's progress on its call", async () => {
    const { component } = safe();
    const { url } = await serve(component);
    const { client } = await v2(url, "auto");
    const heard: number[] = [];

    await client.callTool(
      { name: "count", arguments: {} },
      { onprogress: ({ progress }) => heard.push(progress) },
    );

    expect(heard).toEqual([1, 2, 3]);
  });

  it("hears the command's log lines at the level its request names, and none when it names none", async () => {
    const { component } = safe();
    const { url } = await serve(component);
    const { client } = await v2(url, "auto");
    const heard: unknown[] = [];
    client.setNotificationHandler("notifications/message", ({ params }) => {
      heard.push(params.data);
    });

    await client.callTool({ name: "count", arguments: {} });
    const unnamed = [...heard];
    await client.callTool({
      name: "count",
      arguments: {},
      _meta: { [LOG_LEVEL_META_KEY]: "info" },
    });

    expect(unnamed).toEqual([]);
    expect(heard).toEqual(["3 coins"]);
  });

  it("is asked for a person's approval within its call, and the approved command runs once", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    const { client, asked } = await v2(url, "auto", "accept");

    const result = await client.callTool({ name: "empty", arguments: {} });

    expect(asked).toEqual([
      'Allow the agent to run "empty" with no input? It may destroy or overwrite data.',
    ]);
    expect(structured(result)).toEqual({ snapshot: { open: false, coins: 0 }, events: [] });
    expect(executed).toEqual(["empty"]);
  });

  /** The retry a v2 client sends of `empty` once the person answered `action`: its headers and body. */
  async function retryOf(url: URL, action: "accept" | "decline") {
    const retries: { headers: Headers; body: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"requestState"'))
        retries.push({ headers: new Headers(init?.headers), body });
      return fetch(input, init);
    };
    const { client } = await v2(url, "auto", action, recording);
    await client.callTool({ name: "empty", arguments: {} });
    const [retry] = retries;
    if (retry === undefined) throw new Error("the client sent no retry");
    return retry;
  }

  it("cannot run an approved command again by sending its approval again, nor with an approval it altered", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    // The client's retry, carrying the person's answer and the server's signed requestState.
    const retry = await retryOf(url, "accept");
    const send = async (body: string) => {
      const response = await fetch(url, { method: "POST", headers: retry.headers, body });
      return (await response.json()) as { error?: { code: number; message: string } };
    };

    const replayed = await send(retry.body.replace(/"id":\d+/, '"id":900'));
    const state = /"requestState":"([^"]+)"/.exec(retry.body)?.[1] ?? "";
    const altered = await send(
      retry.body.replace(state, `${state.slice(0, -4)}AAAA`).replace(/"id":\d+/, '"id":901'),
    );

    expect(replayed.error?.code).toBe(-32602);
    expect(replayed.error?.message).toContain("Invalid requestState: it was already used");
    const headers = new Headers(retry.headers);
    headers.set("mcp-name", "peek");
    const elsewhere = await fetch(url, {
      method: "POST",
      headers,
      body: retry.body.replace('"name":"empty"', '"name":"peek"').replace(/"id":\d+/, '"id":902'),
    }).then((response) => response.json() as Promise<{ error?: { message: string } }>);

    expect(altered.error?.code).toBe(-32602);
    expect(altered.error?.message).toContain("Invalid requestState: its signature does not match");
    expect(elsewhere.error?.message).toContain(
      "Invalid requestState: it was issued for another call",
    );
    expect(executed).toEqual(["empty"]);
  });

  it("asks again, under the same state, a retry that carries the state but not the person's answer", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    const retry = await retryOf(url, "decline");
    const message = JSON.parse(retry.body) as {
      id: number;
      params: { inputResponses?: unknown; requestState: string };
    };
    delete message.params.inputResponses;
    message.id = 903;

    const response = await fetch(url, {
      method: "POST",
      headers: retry.headers,
      body: JSON.stringify(message),
    });
    const answered = (await response.json()) as {
      result?: { resultType?: string; requestState?: string; inputRequests?: object };
    };

    expect(answered.result?.resultType).toBe("input_required");
    expect(answered.result?.requestState).toBe(message.params.requestState);
    expect(Object.keys(answered.result?.inputRequests ?? {})).toHaveLength(1);
    expect(executed).toEqual([]);
  });

  it("refuses an approval that comes back after approvalTtlSeconds, running nothing", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying, approvalTtlSeconds: 1 });
    const client = new Client(
      { name: "host-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: {} } },
    );
    // The person takes longer than the second the server allows.
    client.setRequestHandler("elicitation/create", async () => {
      await new Promise((resolve) => setTimeout(resolve, 2100));
      return { action: "accept", content: {} };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    closing.push(client);

    await expect(client.callTool({ name: "empty", arguments: {} })).rejects.toThrow(
      "Invalid requestState: it expired",
    );
    expect(executed).toEqual([]);
  });

  it("is answered Denied, running nothing, when the person declines", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    const { client } = await v2(url, "auto", "decline");

    const result = await client.callTool({ name: "empty", arguments: {} });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Error (Denied): Command \\"empty\\" was denied');
    expect(executed).toEqual([]);
  });

  it("is refused -32021 naming elicitation, running nothing, when the client cannot show a person a form", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    const { client } = await v2(url, "auto");

    const refused = await client.callTool({ name: "empty", arguments: {} }).catch((error) => error);

    expect(refused).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(String(refused.message)).toContain("needs a person's approval, which was not given");
    expect(executed).toEqual([]);
    expect(await client.callTool({ name: "count", arguments: {} })).not.toHaveProperty("isError");
  });
});

describe("serveMcpHttp: a 2025-11-25 client (the v2 Client negotiating legacy)", () => {
  it("gets a session, lists and calls the tools, and ends its session with DELETE", async () => {
    const { component } = safe();
    const { url } = await serve(component);
    const { client, transport } = await v2(url, "legacy");

    expect(client.getProtocolEra()).toBe("legacy");
    expect(transport.sessionId).toEqual(expect.any(String));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["count", "empty", "peek", "toggle"]);
    const result = await client.callTool({ name: "toggle", arguments: {} });
    expect(structured(result)).toEqual({ snapshot: { open: true, coins: 3 }, events: [] });

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  });

  it("is asked for a person's approval by elicitation on its session, and the approved command runs once", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component, { approve: askBeforeEmptying });
    const { client, asked } = await v2(url, "legacy", "accept");

    const result = await client.callTool({ name: "empty", arguments: {} });

    expect(asked).toHaveLength(1);
    expect(structured(result)).toEqual({ snapshot: { open: false, coins: 0 }, events: [] });
    expect(executed).toEqual(["empty"]);
  });
});

describe("serveMcpHttp: its options", () => {
  it("tells onWarning of no option it takes: where it listens, who may connect, the server's name", async () => {
    const warnings: string[] = [];
    const { component } = safe();

    await serve(component, {
      port: 0,
      path: "/tools",
      allowedHosts: ["localhost"],
      allowedOrigins: ["http://localhost"],
      idleTimeoutMs: 60_000,
      serverInfo: { name: "safe", version: "1.0.0" },
      maxResultChars: 1000,
      onWarning: (warning: { message: string }) => warnings.push(warning.message),
    });

    expect(warnings).toEqual([]);
  });
});

describe("serveMcpHttp: clients of both revisions on one endpoint", () => {
  it("drive the one component: what one client does, the other sees", async () => {
    const { component, executed } = safe();
    const { url } = await serve(component);
    const modern = await v2(url, "auto");
    const old = new V1Client({ name: "host-v1", version: "1.0.0" });
    await old.connect(new V1Transport(url));
    closing.push(old);

    await modern.client.callTool({ name: "toggle", arguments: {} });
    const seen = await old.callTool({ name: "peek", arguments: {} });
    await old.callTool({ name: "toggle", arguments: {} });
    const seenAgain = await modern.client.callTool({ name: "peek", arguments: {} });

    expect(structured(seen)).toEqual({ snapshot: { open: true, coins: 3 }, events: [] });
    expect(structured(seenAgain)).toEqual({ snapshot: { open: false, coins: 3 }, events: [] });
    expect(executed).toEqual(["toggle", "peek", "toggle", "peek"]);
  });
});
