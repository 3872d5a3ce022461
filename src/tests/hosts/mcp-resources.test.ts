/**
 * `resources`: what a server offers beside the tools, read by the v1 and v2 SDK clients, and the
 * arguments it refuses. The conformance suite's resources scenarios run against
 * examples/mcp-server/conformance.ts (conformance.test.ts, conformance-2026.test.ts).
 */
import { Client } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1Memory } from "@modelcontextprotocol/sdk/inMemory.js";
import { InMemoryTransport, Server } from "@modelcontextprotocol/server";
import { type AgentComponent, contentParts } from "ignite-element/tools";
import { type McpResourceEntry, mcpServerFactory, serveMcp } from "ignite-element/tools/mcp-server";
import { describe, expect, it } from "vitest";

const lamp: AgentComponent<{ on: boolean }> = {
  getSchema: () => ({ commands: { toggle: { description: "Switch it." } } }),
  execute: () => ({ state: { on: true }, events: [] }),
};

const manual: McpResourceEntry[] = [
  {
    uri: "lamp://manual",
    name: "manual",
    title: "The manual",
    description: "How to use the lamp.",
    mimeType: "text/markdown",
    read: () => ({ text: "# Lamp\nPress toggle." }),
  },
  {
    uriTemplate: "lamp://bulbs/{watts}",
    name: "bulb",
    read: (_uri, { watts }) =>
      watts === "60" ? { blob: btoa("bulb"), mimeType: "application/octet-stream" } : undefined,
  },
  {
    uri: "lamp://broken",
    name: "broken",
    read: () => Promise.reject(new Error("the disk is gone")),
  },
];

async function connected(resources?: McpResourceEntry[]) {
  const server = new Server({ name: "lamp", version: "1.0.0" });
  serveMcp(server, lamp, resources ? { resources } : {});
  const client = new Client({ name: "host", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe("resources: what a server offers beside the tools", () => {
  it("are listed and read, fixed ones and templates, each as the application described it", async () => {
    const client = await connected(manual);

    expect(client.getServerCapabilities()?.resources).toEqual({});
    expect((await client.listResources()).resources).toEqual([
      {
        uri: "lamp://manual",
        name: "manual",
        title: "The manual",
        description: "How to use the lamp.",
        mimeType: "text/markdown",
      },
      { uri: "lamp://broken", name: "broken" },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "lamp://bulbs/{watts}", name: "bulb" },
    ]);
    expect((await client.readResource({ uri: "lamp://manual" })).contents).toEqual([
      { uri: "lamp://manual", mimeType: "text/markdown", text: "# Lamp\nPress toggle." },
    ]);
    expect((await client.readResource({ uri: "lamp://bulbs/60" })).contents).toEqual([
      { uri: "lamp://bulbs/60", mimeType: "application/octet-stream", blob: btoa("bulb") },
    ]);
  });

  it("answer a URI nothing serves with resource-not-found, and a read that fails with its error", async () => {
    const client = await connected(manual);
    const code = (uri: string) =>
      client.readResource({ uri }).then(
        () => "read",
        (error: { code?: number; message?: string }) => `${error.code} ${error.message}`,
      );

    expect(await code("lamp://bulbs/100")).toMatch(/^-32602 .*lamp:\/\/bulbs\/100/);
    expect(await code("lamp://nothing")).toMatch(/^-32602 /);
    expect(await code("lamp://broken")).toMatch(/the disk is gone/);
  });

  it("are not declared when the application gives none", async () => {
    const client = await connected();
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    // The v2 Client, seeing no capability, does not ask: it answers an empty list itself.
    expect((await client.listResources()).resources).toEqual([]);
  });

  it("reach a v1 Client too, from mcpServerFactory", async () => {
    const server = mcpServerFactory(lamp, { resources: manual })();
    const client = new V1Client({ name: "old-host", version: "1.0.0" });
    const [clientSide, serverSide] = V1Memory.createLinkedPair();
    await Promise.all([server.connect(serverSide as never), client.connect(clientSide)]);
    const read = await client.readResource({ uri: "lamp://manual" });
    expect(read.contents[0]).toMatchObject({ text: "# Lamp\nPress toggle." });
  });

  it("include what a call returned whole, readable by its URI afterwards, the latest kept", async () => {
    let receipts = 0;
    const till: AgentComponent<{ receipts: number }> = {
      getSchema: () => ({ commands: { sell: { description: "Sell, and print a receipt." } } }),
      execute: () => {
        receipts += 1;
        const uri = `till://receipts/${receipts}`;
        return {
          state: { receipts },
          events: [],
          content: [
            { type: "resource", resource: { uri, mimeType: "text/plain", text: `#${receipts}` } },
          ],
        };
      },
    };
    const server = new Server({ name: "till", version: "1.0.0" });
    serveMcp(server, till, { content: contentParts() });
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    expect(client.getServerCapabilities()?.resources).toEqual({});
    await expect(client.readResource({ uri: "till://receipts/1" })).rejects.toThrow();
    for (let sale = 0; sale < 257; sale += 1)
      await client.callTool({ name: "sell", arguments: {} });

    expect((await client.readResource({ uri: "till://receipts/257" })).contents).toEqual([
      { uri: "till://receipts/257", mimeType: "text/plain", text: "#257" },
    ]);
    expect((await client.readResource({ uri: "till://receipts/2" })).contents[0]).toMatchObject({
      text: "#2",
    });
    // 256 are kept: the first is forgotten.
    await expect(client.readResource({ uri: "till://receipts/1" })).rejects.toThrow(
      /-32602|not found/i,
    );
    expect((await client.listResources()).resources).toEqual([]);
  });

  it("include a resource over the size cap, sent as a resource_link the client reads whole", async () => {
    const scan = "A".repeat(4_000);
    const scanner: AgentComponent<{ pages: number }> = {
      getSchema: () => ({ commands: { scan: { description: "Scan a page." } } }),
      execute: () => ({
        state: { pages: 1 },
        events: [],
        content: [
          { type: "text", text: "Scanned." },
          {
            type: "resource",
            resource: { uri: "scans://1/page.pdf", mimeType: "application/pdf", blob: scan },
          },
        ],
      }),
    };
    const server = new Server({ name: "scanner", version: "1.0.0" });
    serveMcp(server, scanner, { content: contentParts(), maxResultChars: 1_000 });
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const result = await client.callTool({ name: "scan", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: '{"snapshot":{"pages":1},"events":[]}' },
      { type: "text", text: "Scanned." },
      {
        type: "resource_link",
        uri: "scans://1/page.pdf",
        name: "page.pdf",
        mimeType: "application/pdf",
      },
    ]);
    expect((await client.readResource({ uri: "scans://1/page.pdf" })).contents).toEqual([
      { uri: "scans://1/page.pdf", mimeType: "application/pdf", blob: scan },
    ]);
  });

  it("are refused, naming the entry and what it lacks, before anything is served", () => {
    const serve = (resources: unknown) => () =>
      serveMcp(new Server({ name: "lamp", version: "1.0.0" }), lamp, {
        resources: resources as McpResourceEntry[],
      });
    expect(serve("lamp://manual")).toThrow(/serveMcp: resources must be a list of resources/);
    expect(serve([{ name: "manual", read: () => ({ text: "" }) }])).toThrow(
      /serveMcp: resources\[0\] must be a resource \{ uri, name, read \} or a template/,
    );
    expect(serve([{ uri: "lamp://x", name: "x" }])).toThrow(
      /serveMcp: resources\[0\].read must be a function, not undefined/,
    );
    expect(serve([{ uri: "", name: "x", read: () => ({ text: "" }) }])).toThrow(
      /serveMcp: resources\[0\].uri must be a non-empty string/,
    );
    expect(serve([{ uriTemplate: "lamp://{id}", name: 7, read: () => undefined }])).toThrow(
      /serveMcp: resources\[0\].name must be a non-empty string, not 7/,
    );
  });
});
