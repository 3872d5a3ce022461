/**
 * The XState media player (examples/xstate) served as a Model Context Protocol server over
 * Streamable HTTP, with `node:http` and the SDK's `StreamableHTTPServerTransport`. Each client
 * session gets its own SDK `Server`, all bound by `serveMcp` to the one player: a call from any
 * client, or a send from the application itself, changes what every client is offered.
 *
 *   node --import tsx examples/mcp-server/http.ts     # then point an MCP client at the URL
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createActor } from "xstate";
// Relative, not "ignite-element/tools/…", for the reason given in server.ts.
import { serveMcp } from "../../src/tools/hosts/mcp-server.js";
import { fromActor } from "../../src/tools/sources/xstate.js";
import { playerCommands, playerMachine } from "../xstate/player.js";

/** A running player server: its endpoint, the player itself, and how to stop it all. */
export interface PlayerServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** The player the sessions share: the application may send it events too. */
  readonly actor: ReturnType<typeof createPlayer>;
  close(): Promise<void>;
}

function createPlayer() {
  return createActor(playerMachine).start();
}

/** Serves one player on 127.0.0.1 (`port` 0 picks a free one) at `/mcp`. */
export async function startPlayerServer(port = 0): Promise<PlayerServer> {
  const actor = createPlayer();
  const component = fromActor(actor, playerCommands);
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  /** A new session: its own transport and SDK `Server`, bound to the shared player. */
  async function openSession(): Promise<StreamableHTTPServerTransport> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    const server = new Server({ name: "ignite-player", version: "1.0.0" });
    // The tools follow the player's state, announced on each session's stream: for clients that
    // list the tools again when told (see docs/serving.md for the hosts that do not).
    const detach = serveMcp(server, component, { offer: "available" });
    // The session ends (the client's DELETE, or `close()` below): stop watching the player for it.
    transport.onclose = () => {
      detach();
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const transport = sessions.get(id);
      if (transport === undefined) response.writeHead(404).end("Unknown session");
      else await transport.handleRequest(request, response);
      return;
    }
    // No session yet: only an initialize request may open one, which the transport checks.
    const transport = await openSession();
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await transport.close();
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("not a TCP server");

  return {
    url: new URL(`http://127.0.0.1:${address.port}/mcp`),
    actor,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
      actor.stop();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 3000);
  const { url } = await startPlayerServer(port);
  console.log(`The media player is served over MCP at ${url}`);
  console.log("Point any MCP client that speaks Streamable HTTP at it; Ctrl-C stops it.");
}
