import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type AgentComponent, approval, type CallLedger } from "ignite-element/tools";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeStores, freshPostgresLedger, freshRedisLedger } from "./stores.js";

// Two server nodes behind one name, as a load balancer makes them: each its own process's
// component, one signing key, one durable ledger. A 2026-07-28 client's approval retry may reach
// either node; the approved call runs once, wherever it lands, and its state used again on the
// other node runs nothing (docs/serving.md, "Approval as an input_required result").

const running: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});
afterAll(() => closeStores());

const KEY = "a key every node of the service shares, 32+ bytes";

/** One node's own safe: `empty` asks a person; what it executes is recorded. */
function node() {
  const executed: string[] = [];
  const component: AgentComponent<{ coins: number }> = {
    getSchema: () => ({
      commands: { empty: { description: "Take every coin.", destructive: true } },
    }),
    execute(command) {
      executed.push(command);
      return { state: { coins: 0 }, events: [] };
    },
  };
  return { component, executed };
}

async function serveNode(ledger: CallLedger) {
  const { component, executed } = node();
  const server = await serveMcpHttp(component, {
    approve: approval(() => "ask"),
    requestStateKey: KEY,
    ledger,
  });
  running.push(server);
  return { url: server.url, executed };
}

describe.each([
  ["Redis", freshRedisLedger],
  ["PostgreSQL", freshPostgresLedger],
])("an approval retried on another node, over a %s ledger", (_name, freshLedger) => {
  it("runs the approved call once, on the node the retry reached, and its state sent again to the first node runs nothing", async () => {
    const ledger = await freshLedger();
    const first = await serveNode(ledger);
    const second = await serveNode(ledger);
    // The client's retry — the person's answer and the signed state — lands on the second node.
    const retries: { headers: Headers; body: string }[] = [];
    const balanced: typeof fetch = (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (!body.includes('"requestState"')) return fetch(input, init);
      retries.push({ headers: new Headers(init?.headers), body });
      return fetch(second.url, init);
    };
    const client = new Client(
      { name: "host", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: {} }));
    await client.connect(new StreamableHTTPClientTransport(first.url, { fetch: balanced }));
    clients.push(client);

    const result = await client.callTool({ name: "empty", arguments: {} });
    const [retry] = retries;
    if (retry === undefined) throw new Error("the client sent no retry");
    const replayed = await fetch(first.url, {
      method: "POST",
      headers: retry.headers,
      body: retry.body.replace(/"id":\d+/, '"id":900'),
    }).then((response) => response.json() as Promise<{ error?: { message: string } }>);

    expect(result.isError).toBeUndefined();
    expect(second.executed).toEqual(["empty"]);
    expect(replayed.error?.message).toContain("Invalid requestState: it was already used");
    expect(first.executed).toEqual([]);
  });
});
