/**
 * Questions the approval policy asks before a call runs, as MCP clients of both revisions meet
 * them on `serveMcpHttp`: a 2026-07-28 client gets an `input_required` result per round, whose
 * forms are the questions under their own keys; a 2025-11-25 client is asked each form by
 * elicitation on its connection. Either way the command runs once, with the person's answers.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  type AgentComponent,
  type Answers,
  type ApprovalPolicy,
  approval,
} from "ignite-element/tools";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { afterEach, describe, expect, it } from "vitest";

const running: McpHttpServer[] = [];
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((client) => client.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A courier whose `ship` runs with the person's answers, each run recorded. */
function courier() {
  const shipped: (Answers | undefined)[] = [];
  const component: AgentComponent<{ shipped: number }> = {
    getSchema: () => ({
      commands: {
        ship: {
          description: "Ship a parcel.",
          input: {
            type: "object",
            properties: { fragile: { type: "boolean" } },
            additionalProperties: false,
          },
        },
      },
    }),
    execute(_command, _input, context) {
      shipped.push(context?.answers);
      return { state: { shipped: shipped.length }, events: [] };
    },
  };
  return { component, shipped };
}

/** The address first; for a fragile parcel, a second round about insurance. */
const policy: ApprovalPolicy = ({ route }) => {
  if (route.answers?.address === undefined) {
    const street = { type: "string", description: "Street and number" };
    return {
      ask: {
        address: {
          message: "Where should the parcel go?",
          schema: { type: "object", properties: { street }, required: ["street"] },
        },
      },
    };
  }
  const fragile = (route.input as { fragile?: boolean }).fragile === true;
  if (fragile && route.answers.insurance === undefined) {
    const insure = { type: "boolean" };
    return {
      ask: {
        insurance: {
          message: "It is fragile: insure it?",
          schema: { type: "object", properties: { insure }, required: ["insure"] },
        },
      },
    };
  }
  return "allow";
};

type Said = { action: "accept" | "decline"; content?: Record<string, string | boolean> };

/** What the person types into each form, by its message; a form they do not know, they decline. */
const person = (asked: string[], decline = false) => {
  return (params: { message: string }): Said => {
    asked.push(params.message);
    if (decline) return { action: "decline" };
    if (params.message.startsWith("Where")) {
      return { action: "accept", content: { street: "1 Quay Street" } };
    }
    return { action: "accept", content: { insure: true } };
  };
};

async function serve() {
  const { component, shipped } = courier();
  const server = await serveMcpHttp(component, { approve: approval(policy) });
  running.push(server);
  return { url: server.url, shipped };
}

/** A v2 `Client` negotiating `mode`, whose person answers each form. */
async function v2(url: URL, mode: "auto" | "legacy", asked: string[], decline = false) {
  const client = new Client(
    { name: "host-v2", version: "1.0.0" },
    { versionNegotiation: { mode }, capabilities: { elicitation: {} } },
  );
  const answer = person(asked, decline);
  client.setRequestHandler("elicitation/create", (request) => answer(request.params));
  await client.connect(new StreamableHTTPClientTransport(url));
  closing.push(client);
  return client;
}

const ADDRESS = { address: { street: "1 Quay Street" } };
const BOTH = { ...ADDRESS, insurance: { insure: true } };

describe("serveMcpHttp: questions the approval policy asks", () => {
  it("reach a 2026-07-28 client as input_required rounds, each its own form, and the command runs once with the answers", async () => {
    const { url, shipped } = await serve();
    const asked: string[] = [];
    const client = await v2(url, "auto", asked);

    const result = await client.callTool({ name: "ship", arguments: { fragile: true } });

    expect(asked).toEqual(["Where should the parcel go?", "It is fragile: insure it?"]);
    expect(result.isError).toBeFalsy();
    expect(shipped).toEqual([BOTH]);
  });

  it("are put under their own keys in the input_required result, with a new state each round", async () => {
    const { url, shipped } = await serve();
    const states: string[] = [];
    const keys: string[][] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.clone().text();
      const match = /"resultType":"input_required"/.test(text)
        ? (JSON.parse(text.replace(/^[^{]*/, "")) as {
            result: { inputRequests: object; requestState: string };
          })
        : undefined;
      if (match) {
        keys.push(Object.keys(match.result.inputRequests));
        states.push(match.result.requestState);
      }
      return response;
    };
    const client = new Client(
      { name: "host-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: {} } },
    );
    const answer = person([]);
    client.setRequestHandler("elicitation/create", (request) => answer(request.params));
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
    closing.push(client);

    await client.callTool({ name: "ship", arguments: { fragile: true } });

    expect(keys).toEqual([["address"], ["insurance"]]);
    expect(new Set(states).size).toBe(2);
    expect(shipped).toEqual([BOTH]);
  });

  it("reach a 2025-11-25 client (the v2 Client negotiating legacy) by elicitation on its session, round after round", async () => {
    const { url, shipped } = await serve();
    const asked: string[] = [];
    const client = await v2(url, "legacy", asked);

    const result = await client.callTool({ name: "ship", arguments: { fragile: true } });

    expect(asked).toEqual(["Where should the parcel go?", "It is fragile: insure it?"]);
    expect(result.isError).toBeFalsy();
    expect(shipped).toEqual([BOTH]);
  });

  it("reach the v1 Client by elicitation, and one round is enough when the policy asks no more", async () => {
    const { url, shipped } = await serve();
    const asked: string[] = [];
    const client = new V1Client(
      { name: "host-v1", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    const answer = person(asked);
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params));
    await client.connect(new V1Transport(url));
    closing.push(client);

    const result = await client.callTool({ name: "ship", arguments: {} });

    expect(asked).toEqual(["Where should the parcel go?"]);
    expect(result.isError).toBeFalsy();
    expect(shipped).toEqual([ADDRESS]);
  });

  it("carry to the command only the values a form gives: strings, numbers, booleans and lists of strings", async () => {
    const { url, shipped } = await serve();
    const content = { street: "1 Quay Street", floor: 3, lift: false, bells: ["A", "B"] };
    // The v2 Client checks a form's values itself: the retry it sends is given others on the way.
    const tampering: typeof fetch = (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (!body.includes('"requestState"')) return fetch(input, init);
      const message = JSON.parse(body) as {
        params: { inputResponses: { address: { content: object } } };
      };
      const odd = { nested: { not: "a field" }, mixed: ["A", 1], nothing: null };
      message.params.inputResponses.address.content = { ...content, ...odd };
      return fetch(input, { ...init, body: JSON.stringify(message) });
    };
    const client = new Client(
      { name: "host-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler("elicitation/create", () => ({ action: "accept", content }));
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: tampering }));
    closing.push(client);

    await client.callTool({ name: "ship", arguments: {} });

    expect(shipped).toEqual([{ address: content }]);
  });

  it("answer the call Denied, running nothing, when the person declines to answer", async () => {
    const { url, shipped } = await serve();
    for (const mode of ["auto", "legacy"] as const) {
      const client = await v2(url, mode, [], true);
      const result = await client.callTool({ name: "ship", arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("the person declined it");
    }
    expect(shipped).toEqual([]);
  });
});
