import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolResultSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Server } from "@modelcontextprotocol/server";
import type { AgentComponent } from "ignite-element/tools";
import { type ServeMcpOptions, serveMcp } from "ignite-element/tools/mcp-server";
import { afterEach, describe, expect, it } from "vitest";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((closable) => closable.close()));
});

/** `serveMcp` on a fresh server, connected to the SDK's `Client`, which records every log line. */
async function served<S>(component: AgentComponent<S>, options?: ServeMcpOptions<S>) {
  const server = new Server({ name: "oven", version: "1.0.0" });
  serveMcp(server, component, options);
  const client = new Client({ name: "host", version: "1.0.0" });
  const logs: LoggingMessageNotification["params"][] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // Every method the server sent, as it arrived on the wire, before the client read it.
  const methods: string[] = [];
  const read = clientSide.onmessage;
  clientSide.onmessage = (message, extra) => {
    if ("method" in message) methods.push(message.method);
    read?.(message, extra);
  };
  open.push(client, server);
  return { server, client, logs, methods };
}

/** A promise with its resolver outside, for execute calls the test releases by hand. */
function gate<T = void>() {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * An oven that preheats in three steps, reporting each, logging at three levels, and that can
 * only bake once it is hot.
 */
function oven() {
  let hot = false;
  const component: AgentComponent<{ hot: boolean }> = {
    getSchema: () => ({
      commands: {
        preheat: { title: "Preheat the oven", description: "Heat the oven to 200 °C." },
        bake: {
          title: "Bake",
          description: "Bake what is inside.",
          gated: true,
          availableWhen: "only once the oven is preheated",
        },
      },
    }),
    canExecute: () => hot,
    async execute(command, _input, context) {
      if (command === "preheat") {
        context?.log("debug", "igniting");
        for (const degrees of [100, 150, 200]) {
          await Promise.resolve();
          context?.progress({ progress: degrees, total: 200, message: `${degrees} °C` });
        }
        context?.log("warning", "the door is warm", { celsius: 45 });
        hot = true;
      }
      return { state: { hot }, events: [] };
    },
  };
  return component;
}

describe("serveMcp: progress", () => {
  it("sends the command's progress as notifications/progress against the request's token", async () => {
    const { client } = await served(oven());
    const heard: Progress[] = [];

    const result = await client.callTool({ name: "preheat", arguments: {} }, CallToolResultSchema, {
      onprogress: (progress) => heard.push(progress),
    });

    expect(result.isError).toBeUndefined();
    expect(heard).toEqual([
      { progress: 100, total: 200, message: "100 °C" },
      { progress: 150, total: 200, message: "150 °C" },
      { progress: 200, total: 200, message: "200 °C" },
    ]);
  });

  it("sends no progress notification for a request that carried no progressToken", async () => {
    const { client, methods } = await served(oven());

    await client.callTool({ name: "preheat", arguments: {} });
    await client.ping();

    expect(methods).not.toContain("notifications/progress");
    expect(methods).toContain("notifications/message");
  });

  it("does not send progress that does not grow, as MCP requires", async () => {
    const stepping: AgentComponent<null> = {
      getSchema: () => ({ commands: { step: {} } }),
      execute(_command, _input, context) {
        for (const progress of [1, 3, 2, 3, 4]) context?.progress({ progress });
        return { state: null, events: [] };
      },
    };
    const { client } = await served(stepping);
    const heard: number[] = [];

    await client.callTool({ name: "step", arguments: {} }, CallToolResultSchema, {
      onprogress: ({ progress }) => heard.push(progress),
    });

    expect(heard).toEqual([1, 3, 4]);
  });
});

describe("serveMcp: logging", () => {
  it("declares the logging capability and sends the command's log lines as notifications/message", async () => {
    const { client, logs } = await served(oven());
    expect(client.getServerCapabilities()?.logging).toEqual({});

    await client.callTool({ name: "preheat", arguments: {} });
    await client.ping();

    expect(logs).toEqual([
      { level: "debug", logger: "preheat", data: "igniting" },
      {
        level: "warning",
        logger: "preheat",
        data: { message: "the door is warm", data: { celsius: 45 } },
      },
    ]);
  });

  it("sends only the lines at or above the level the client set with logging/setLevel", async () => {
    const { client, logs } = await served(oven());

    await client.setLoggingLevel("info");
    await client.callTool({ name: "preheat", arguments: {} });
    await client.ping();

    expect(logs.map((log) => log.level)).toEqual(["warning"]);
  });
});

describe("serveMcp: cancellation", () => {
  it("aborts the command's signal when the client cancels the call", async () => {
    const started = gate();
    const stopped = gate<unknown>();
    const download: AgentComponent<string> = {
      getSchema: () => ({ commands: { download: {} } }),
      execute(_command, _input, context) {
        context?.signal.addEventListener("abort", () => stopped.open(context.signal.reason));
        started.open();
        return new Promise(() => undefined);
      },
    };
    const { client } = await served(download);
    const controller = new AbortController();

    const calling = client.callTool({ name: "download", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await started.promise;
    controller.abort("the user closed the chat");

    await expect(calling).rejects.toThrow();
    // The SDK sends notifications/cancelled with the reason, and the server aborts with it.
    expect(await stopped.promise).toBe("the user closed the chat");
  });
});

describe("serveMcp: what a host that never lists again is given", () => {
  it("lists every declared command by default, a gated one saying when it is available", async () => {
    const { client } = await served(oven());

    const { tools } = await client.listTools();

    expect(tools).toEqual([
      {
        name: "bake",
        title: "Bake",
        description: "Bake what is inside. Available only once the oven is preheated.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { title: "Bake" },
      },
      {
        name: "preheat",
        title: "Preheat the oven",
        description: "Heat the oven to 200 °C.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { title: "Preheat the oven" },
      },
    ]);
  });

  it("answers a listed command called before it is available with when it will be, then runs it once it is", async () => {
    const { client } = await served(oven());

    const early = CallToolResultSchema.parse(
      await client.callTool({ name: "bake", arguments: {} }),
    );
    await client.callTool({ name: "preheat", arguments: {} });
    const baked = CallToolResultSchema.parse(
      await client.callTool({ name: "bake", arguments: {} }),
    );

    expect(early).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'Error (Unavailable): Command "bake" is not available in the current state. It is available only once the oven is preheated; until then, use another tool.',
        },
      ],
    });
    expect(baked.structuredContent).toEqual({ snapshot: { hot: true }, events: [] });
  });

  it("sends no list_changed when only availability changes, since the list has not", async () => {
    const { client } = await served(oven());
    const before = await client.listTools();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });

    await client.callTool({ name: "preheat", arguments: {} });
    await client.ping();

    expect(changes).toBe(0);
    expect(await client.listTools()).toEqual(before);
  });
});
