/**
 * The model's wait tool served over MCP, driven by the MCP SDK's `Client`: `serveMcp` over the
 * SDK's in-memory transport and `serveMcpHttp` over Streamable HTTP on 127.0.0.1. A wait is
 * listed, answers when the component changes, lets the client's other calls through, and ends
 * when the client cancels it, releasing the component.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Server } from "@modelcontextprotocol/server";
import { type AgentComponent, waitTool } from "ignite-element/tools";
import { serveMcpHttp } from "ignite-element/tools/mcp-http";
import { type ServeMcpOptions, serveMcp } from "ignite-element/tools/mcp-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type OvenEvent, type OvenState, oven } from "../shell/oven.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});

type Oven = AgentComponent<OvenState, OvenEvent>;
type Options = ServeMcpOptions<OvenState, OvenEvent>;

/** How a client reaches the served oven. */
interface Transport {
  name: string;
  connect(component: Oven, options: Options): Promise<Client>;
}

const transports: Transport[] = [
  {
    name: "serveMcp over the SDK's in-memory transport",
    async connect(component, options) {
      const server = new Server({ name: "oven", version: "1.0.0" });
      serveMcp(server, component, options);
      const client = new Client({ name: "host", version: "1.0.0" });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      open.push(client, server);
      return client;
    },
  },
  {
    name: "serveMcpHttp over Streamable HTTP",
    async connect(component, options) {
      const served = await serveMcpHttp(component, options);
      const client = new Client({ name: "host", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(served.url));
      open.push(served);
      open.unshift(client); // closed before its server
      return client;
    },
  },
];

const WAIT: Options = { wait: waitTool({ maxMs: 30_000 }) };

/** What the wait answers once the oven reports it is preheated. */
const preheated = (temperature = 20) => ({
  waited: 'The event "preheated" happened.',
  snapshot: { temperature, preheated: true, door: "closed" },
  events: [{ type: "preheated" }],
  available: ["bake", "preheat"],
});

describe.each(transports)("the wait tool through $name", ({ connect }) => {
  /** The oven served, and the listeners it holds with no wait running (the server's own). */
  async function served(options: Options = WAIT) {
    const made = oven();
    const client = await connect(made.component, options);
    await client.listTools();
    return { ...made, client, idle: made.world.held() };
  }

  /** Resolves once a wait holds the oven (its subscribe and onEvent listeners). */
  const waiting = (held: () => number, idle: number) =>
    vi.waitFor(() => expect(held()).toBe(idle + 2));

  it("is listed, read-only and idempotent", async () => {
    const { client } = await served();

    const { tools } = await client.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(["bake", "preheat", "waitFor"]);
    expect(tools[2]).toMatchObject({
      title: "Wait",
      annotations: { readOnlyHint: true, idempotentHint: true },
      inputSchema: {
        properties: { event: { enum: ["preheated", "doorOpened", "doorClosed", "baking"] } },
      },
    });
  });

  it("answers a wait when the component changes, with what happened", async () => {
    const { client, world, idle } = await served();

    const answer = client.callTool({ name: "waitFor", arguments: { event: "preheated" } });
    await waiting(world.held, idle);
    world.preheated();

    expect(await answer).toEqual({
      content: [{ type: "text", text: JSON.stringify(preheated()) }],
      structuredContent: preheated(),
    });
    expect(world.held()).toBe(idle);
  });

  it("answers another call made while a wait waits first", async () => {
    const { client, world, idle } = await served();
    let waited = false;

    const answer = client
      .callTool({ name: "waitFor", arguments: { event: "preheated" } })
      .finally(() => {
        waited = true;
      });
    await waiting(world.held, idle);
    const preheat = await client.callTool({ name: "preheat", arguments: { target: 200 } });

    expect(preheat.structuredContent).toEqual({
      snapshot: { temperature: 200, preheated: false, door: "closed" },
      events: [],
    });
    expect(waited).toBe(false);
    world.preheated();
    expect((await answer).structuredContent).toEqual(preheated(200));
  });

  it("ends a wait the client cancels, and releases the component", async () => {
    const { client, world, idle } = await served();
    const controller = new AbortController();

    const answer = client.callTool({ name: "waitFor", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await waiting(world.held, idle);
    controller.abort("the user gave up");

    await expect(answer).rejects.toThrow();
    await vi.waitFor(() => expect(world.held()).toBe(idle));
    // The server goes on: the next wait waits and answers.
    const next = client.callTool({ name: "waitFor", arguments: {} });
    await waiting(world.held, idle);
    world.openDoor();
    expect((await next).structuredContent).toMatchObject({
      waited: 'The event "doorOpened" happened.',
    });
  });

  it("announces a change of the tools available while a wait waits, without waiting for it", async () => {
    const { client, world, idle } = await served({ ...WAIT, offer: "available" });
    const announced = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
    });
    const listed = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await listed()).toEqual(["preheat", "waitFor"]);

    const answer = client.callTool({ name: "waitFor", arguments: { event: "doorOpened" } });
    await waiting(world.held, idle);
    world.preheated(); // `bake` becomes available; the wait, for the door, goes on

    await announced;
    expect(await listed()).toEqual(["bake", "preheat", "waitFor"]);
    world.openDoor();
    expect((await answer).structuredContent).toMatchObject({
      waited: 'The event "doorOpened" happened.',
    });
  });
});
