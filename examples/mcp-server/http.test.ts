import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolRequest,
  CallToolResultSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PlayerServer, startPlayerServer } from "./http.js";

/** An SDK client of the player server, recording each tool list it fetched after list_changed. */
class Listener {
  readonly refreshed: Tool[][] = [];
  readonly client: Client;
  private wake: (() => void) | undefined;
  /** Resolves once the client holds its GET stream, where the server's own notifications go. */
  readonly streaming: Promise<void>;

  /** `listens: false` plays a client that never holds a GET stream: the server refuses it. */
  constructor(
    readonly url: URL,
    readonly listens = true,
  ) {
    let opened: () => void = () => undefined;
    this.streaming = new Promise((resolve) => {
      opened = resolve;
    });
    this.client = new Client(
      { name: "http-test", version: "1.0.0" },
      {
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (error, tools) => {
              if (error === null && tools !== null) this.refreshed.push(tools);
              this.wake?.();
            },
          },
        },
      },
    );
    // The SDK client opens its GET stream on its own after initializing; this `fetch` only notes
    // when the server has answered it, so a test never races it.
    const watched: typeof fetch = async (input, init) => {
      if (init?.method === "GET" && !listens) return new Response(null, { status: 405 });
      const response = await fetch(input, init);
      if (init?.method === "GET" && response.ok) opened();
      return response;
    };
    this.transport = new StreamableHTTPClientTransport(url, { fetch: watched });
  }

  readonly transport: StreamableHTTPClientTransport;

  async connect() {
    await this.client.connect(this.transport);
    if (this.listens) await this.streaming;
  }

  /** Resolves once the client has refreshed its tool list `count` times in all. */
  refreshes(count: number): Promise<Tool[]> {
    return new Promise((resolve) => {
      const check = () => {
        const latest = this.refreshed[count - 1];
        if (latest !== undefined) resolve(latest);
      };
      this.wake = check;
      check();
    });
  }

  async call(params: CallToolRequest["params"]) {
    return CallToolResultSchema.parse(await this.client.callTool(params));
  }
}

const names = (tools: Tool[]) => tools.map((tool) => tool.name);

describe("the XState player served over Streamable HTTP on 127.0.0.1", () => {
  let player: PlayerServer;
  let alice: Listener;
  let bob: Listener;
  let carol: Listener;

  beforeAll(async () => {
    player = await startPlayerServer();
    alice = new Listener(player.url);
    bob = new Listener(player.url);
    carol = new Listener(player.url, false);
    await Promise.all([alice.connect(), bob.connect(), carol.connect()]);
  });

  afterAll(async () => {
    const all = [alice, bob, carol];
    await Promise.all(all.map((listener) => listener.transport.terminateSession()));
    await Promise.all(all.map((listener) => listener.client.close()));
    await player.close();
  });

  it("lists what the idle player takes: a track to load, and the volume", async () => {
    const { tools } = await alice.client.listTools();
    expect(names(tools)).toEqual(["load", "setVolume"]);
    expect(tools[1]?.annotations).toEqual({ idempotentHint: true });
  });

  it("answers a call not offered now with isError and the reason, as a result", async () => {
    const early = await alice.call({ name: "play", arguments: {} });
    expect(early).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (Unavailable): Command "play" is not available in the current state. Use one of the tools offered now.',
        },
      ],
      isError: true,
    });
  });

  it("tells the client, once, that its tools changed when a call made a gated command available", async () => {
    const loaded = await alice.call({
      name: "load",
      arguments: { title: "So What", duration: 562 },
    });

    expect(loaded.structuredContent).toEqual({
      snapshot: {
        value: { loaded: "paused" },
        context: { track: { title: "So What", duration: 562 }, position: 0, volume: 50 },
      },
      events: [{ type: "trackLoaded", title: "So What", duration: 562 }],
    });
    expect(names(await alice.refreshes(1))).toEqual(["play", "seek", "setVolume", "stop"]);
    // Bob shares the player: his session heard it too, through his own stream.
    expect(names(await bob.refreshes(1))).toEqual(["play", "seek", "setVolume", "stop"]);
  });

  it("tells every client when the application changes the player outside any call", async () => {
    player.actor.send({ type: "play" });

    expect(names(await alice.refreshes(2))).toEqual(["pause", "seek", "setVolume", "stop"]);
    expect(names(await bob.refreshes(2))).toEqual(["pause", "seek", "setVolume", "stop"]);
  });

  it("answers a seek past the end of the track with isError, sending nothing to the machine", async () => {
    const past = await bob.call({ name: "seek", arguments: { seconds: 600 } });

    expect(past.isError).toBe(true);
    expect(past.content).toEqual([
      {
        type: "text",
        text: 'Error (ExecuteFailed): Command "seek" failed: the machine does not take "seek" with this input in state {"loaded":"playing"}; nothing was sent. Change the input or use another tool',
      },
    ]);
    expect(player.actor.getSnapshot().context.position).toBe(0);
    expect(alice.refreshed).toHaveLength(2);
  });

  it("tells a client without a GET stream of the change its own call made, on the call's stream", async () => {
    // Carol heard nothing of the earlier changes: the server had no stream of hers to use.
    expect(carol.refreshed).toHaveLength(0);

    const stopped = await carol.call({ name: "stop", arguments: {} });

    expect(stopped.isError).toBeUndefined();
    expect(names(await carol.refreshes(1))).toEqual(["load", "setVolume"]);
    expect(names(await alice.refreshes(3))).toEqual(["load", "setVolume"]);
  });
});
