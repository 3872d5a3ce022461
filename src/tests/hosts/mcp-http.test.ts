import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LATEST_PROTOCOL_VERSION,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { AgentComponent } from "ignite-element/tools";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { afterEach, describe, expect, it, vi } from "vitest";

const running: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(...args: Parameters<typeof serveMcpHttp<unknown, never>>) {
  const server = await serveMcpHttp(...args);
  running.push(server);
  return server;
}

/** A lamp the application can switch outside any call; `dim` is offered only while it is on. */
function lamp() {
  let on = false;
  const listeners = new Set<() => void>();
  let peak = 0;
  const component: AgentComponent<{ on: boolean }, never> = {
    getSchema: () => ({
      commands: {
        read: { description: "Read the lamp.", readOnly: true },
        dim: { description: "Dim the lamp.", gated: true },
      },
    }),
    canExecute: (command) => command !== "dim" || on,
    execute: () => ({ state: { on }, events: [] }),
    subscribe(listener) {
      listeners.add(listener);
      peak = Math.max(peak, listeners.size);
      return () => listeners.delete(listener);
    },
  };
  return {
    component,
    /** The application switches the lamp. */
    switch() {
      on = !on;
      for (const listener of listeners) listener();
    },
    /** Sessions watching the lamp now, and at most at once. */
    watchers: () => ({ now: listeners.size, peak }),
  };
}

/** An SDK client; `stream: false` plays a host that never opens the GET stream. */
async function connect(url: URL, { stream = true, fetch: wrapped = fetch } = {}) {
  const client = new Client({ name: "host", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) =>
      !stream && init?.method === "GET"
        ? Promise.resolve(new Response(null, { status: 405 }))
        : wrapped(input, init),
  });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

interface Raw {
  status: number;
  body: unknown;
}

/** One HTTP request, with any Host header (fetch sets its own). */
function raw(
  url: URL,
  {
    method = "POST",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "curl", version: "1.0.0" },
  },
});
const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};
const rpcError = (code: number, message: string) => ({
  jsonrpc: "2.0",
  error: { code, message },
  id: null,
});

describe("serveMcpHttp: Host and Origin (DNS-rebinding protection)", () => {
  it("refuses, 403, a request whose Host is not the server's own, as a page under another domain sends", async () => {
    const { url } = await serve(lamp().component);

    const rebound = await raw(url, {
      headers: { ...MCP_HEADERS, Host: "evil.example.com" },
      body: INITIALIZE,
    });

    expect(rebound).toEqual({
      status: 403,
      body: rpcError(-32000, "Invalid Host header: evil.example.com"),
    });
  });

  it("refuses, 403, a request from a web page of another origin, even with a loopback Host", async () => {
    const { url } = await serve(lamp().component);

    const crossSite = await raw(url, {
      headers: { ...MCP_HEADERS, Origin: "https://evil.example.com" },
      body: INITIALIZE,
    });

    expect(crossSite).toEqual({
      status: 403,
      body: rpcError(-32000, "Invalid Origin header: https://evil.example.com"),
    });
  });

  it("accepts localhost, 127.0.0.1 and [::1] at its port, with or without a same-site Origin", async () => {
    const { url } = await serve(lamp().component);
    const hosts = ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${url.port}`);

    const answers = await Promise.all(
      hosts.flatMap((host) => [
        raw(url, { headers: { ...MCP_HEADERS, Host: host }, body: INITIALIZE }),
        raw(url, {
          headers: { ...MCP_HEADERS, Host: host, Origin: `http://${host}` },
          body: INITIALIZE,
        }),
      ]),
    );

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("takes the hosts and origins a deployment allows instead", async () => {
    const { url } = await serve(lamp().component, {
      allowedHosts: ["mcp.example.com"],
      allowedOrigins: ["https://app.example.com"],
    });

    const proxied = await raw(url, {
      headers: { ...MCP_HEADERS, Host: "mcp.example.com", Origin: "https://app.example.com" },
      body: INITIALIZE,
    });
    const direct = await raw(url, { headers: MCP_HEADERS, body: INITIALIZE });

    expect(proxied.status).toBe(200);
    expect(direct).toEqual({
      status: 403,
      body: rpcError(-32000, `Invalid Host header: 127.0.0.1:${url.port}`),
    });
  });

  it("will not listen beyond the loopback interface without the hosts clients may use", async () => {
    await expect(serveMcpHttp(lamp().component, { host: "0.0.0.0" })).rejects.toThrow(
      new TypeError(
        'serveMcpHttp: listening on 0.0.0.0 needs allowedHosts, the Host header values clients use (e.g. "mcp.example.com"): without them any web page could drive this server through DNS rebinding',
      ),
    );
  });
});

describe("serveMcpHttp: sessions expire", () => {
  it("closes every session its client left without ending it, releasing its watch on the component, and keeps the live one", async () => {
    const light = lamp();
    const idleTimeoutMs = 60_000;
    const { url } = await serve(light.component, { idleTimeoutMs });
    // Counts the GET streams whose response has begun: the server holds each one open.
    let streams = 0;
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "GET" && response.ok) streams += 1;
      return response;
    };
    const openStreams = () => streams;
    const live = await connect(url, { fetch: counting });
    const gone = await Promise.all(
      Array.from({ length: 20 }, () => connect(url, { fetch: counting })),
    );
    const goneId = gone[0]?.transport.sessionId ?? "";
    // One watch per 2025-11-25 session, and one for the 2026-07-28 clients' subscriptions.
    expect(light.watchers().peak).toBe(22);

    // Every host's GET stream is open first: a client closed while its GET request is still on
    // its way leaves a stream the server opens after the client is gone, which holds its session
    // (so it went under Node 22, whose fetch is slower to start the twenty-first stream).
    await vi.waitFor(() => expect(openStreams()).toBe(21), { timeout: 15_000 });
    // The hosts vanish: their GET streams drop, and no DELETE ends their sessions. The clock is
    // the test's from here.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await Promise.all(gone.map(({ client }) => client.close()));
    // Once a dropped stream has closed, its session waits out its idle time: an idle minute
    // passes at each look until every one has.
    // Patience, not a deadline: on a loaded machine a dropped stream takes a while to close.
    await vi.waitFor(
      () => {
        vi.advanceTimersByTime(idleTimeoutMs);
        expect(light.watchers().now).toBe(2);
      },
      { timeout: 15_000 },
    );
    vi.useRealTimers();
    // The live client holds its GET stream open, so it is never idle.
    expect((await live.client.callTool({ name: "read", arguments: {} })).isError).toBeUndefined();
    const late = await raw(url, {
      headers: { ...MCP_HEADERS, "mcp-session-id": goneId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(late).toEqual({ status: 404, body: rpcError(-32001, "Session not found") });
  }, 30_000);
});

describe("serveMcpHttp: a client without a GET stream", () => {
  it("hears, on its next call's own stream and before the result, of a change made while it was not listening", async () => {
    const light = lamp();
    // Listed by availability (serveMcp's `offer: "available"`), the tools change with the lamp.
    const { url } = await serve(light.component, { port: 0, offer: "available" });
    const { client } = await connect(url, { stream: false });
    const heard: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard.push("tools/list_changed");
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["read"]);

    // The application switches the lamp on: the server has no stream of this client's to use.
    light.switch();
    await client.callTool({ name: "read", arguments: {} });
    heard.push("result");
    await client.callTool({ name: "read", arguments: {} });
    heard.push("result");

    expect(heard).toEqual(["tools/list_changed", "result", "result"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["dim", "read"]);
  });
});

describe("serveMcpHttp: resumability", () => {
  it("answers a call whose SSE stream dropped once the client resumes it with Last-Event-ID, running it once", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    const oven: AgentComponent<string, never> = {
      getSchema: () => ({ commands: { preheat: { description: "Preheat the oven." } } }),
      execute: async () => {
        runs += 1;
        await released;
        return { state: "hot", events: [] };
      },
    };
    const { url } = await serve(oven);
    const resumedFrom: string[] = [];
    // The network drops the call's stream right after its first event (the priming event, which
    // carries the id to resume from); then the call finishes while nobody is listening.
    const flaky: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const lastEventId = new Headers(init?.headers).get("last-event-id");
      if (lastEventId !== null) resumedFrom.push(lastEventId);
      if (init?.method !== "POST" || !String(init.body).includes('"tools/call"')) return response;
      const reader = response.body?.getReader();
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const first = await reader?.read();
          if (first?.value) controller.enqueue(first.value);
          await reader?.cancel();
          controller.close();
          release();
        },
      });
      return new Response(cut, { status: response.status, headers: response.headers });
    };
    const { client } = await connect(url, { fetch: flaky });

    const result = await client.callTool({ name: "preheat", arguments: {} });

    expect(result.structuredContent).toEqual({ snapshot: "hot", events: [] });
    expect(resumedFrom).toHaveLength(1);
    expect(runs).toBe(1);
  });
});

describe("serveMcpHttp: size limits and malformed requests are the SDK transport's", () => {
  it("answers each with the status and JSON-RPC error the SDK gives", async () => {
    const { url } = await serve(lamp().component);
    const { transport } = await connect(url);
    const session = { ...MCP_HEADERS, "mcp-session-id": transport.sessionId ?? "" };
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });

    const answers = {
      tooLarge: await raw(url, { headers: session, body: `"${"x".repeat(4 * 1024 * 1024)}"` }),
      notJson: await raw(url, { headers: session, body: "{" }),
      notJsonRpc: await raw(url, { headers: session, body: '{"hello":"world"}' }),
      notJsonContentType: await raw(url, {
        headers: { ...session, "Content-Type": "text/plain" },
        body: list,
      }),
      noEventStreamAccept: await raw(url, {
        headers: { ...session, Accept: "application/json" },
        body: list,
      }),
      noSession: await raw(url, { headers: MCP_HEADERS, body: list }),
      unknownSession: await raw(url, {
        headers: { ...MCP_HEADERS, "mcp-session-id": "no-such-session" },
        body: list,
      }),
      put: await raw(url, { method: "PUT", headers: session, body: list }),
      otherPath: await raw(new URL("/other", url), { headers: MCP_HEADERS, body: INITIALIZE }),
    };

    expect(answers).toEqual({
      tooLarge: {
        status: 413,
        body: rpcError(-32000, "Payload Too Large: Request body must not exceed 4194304 bytes"),
      },
      notJson: { status: 400, body: rpcError(-32700, "Parse error: Invalid JSON") },
      notJsonRpc: {
        status: 400,
        body: rpcError(-32600, "Bad Request: the request body is not a valid JSON-RPC message"),
      },
      notJsonContentType: {
        status: 415,
        body: rpcError(-32000, "Unsupported Media Type: Content-Type must be application/json"),
      },
      noEventStreamAccept: {
        status: 406,
        body: rpcError(
          -32000,
          "Not Acceptable: Client must accept both application/json and text/event-stream",
        ),
      },
      noSession: { status: 400, body: rpcError(-32000, "Bad Request: Server not initialized") },
      unknownSession: { status: 404, body: rpcError(-32001, "Session not found") },
      put: { status: 405, body: rpcError(-32000, "Method not allowed.") },
      otherPath: { status: 404, body: "" },
    });
  });
});
