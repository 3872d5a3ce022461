/**
 * The XState media player (examples/xstate) served as a Model Context Protocol server over
 * Streamable HTTP by `serveMcpHttp`, to clients of both protocol revisions on one endpoint: a
 * 2026-07-28 client's every request, and a 2025-11-25 client's session, gets an SDK `Server` bound
 * to the one player, so a call from any client, or a send from the application itself, changes
 * what every client is offered. The `Host` and `Origin` of every request are checked (a web page
 * cannot drive it), sessions left idle are closed, and a 2025-11-25 client whose SSE stream drops
 * resumes it from the events its session kept.
 *
 *   node --import tsx examples/mcp-server/http.ts     # then point an MCP client at the URL
 */
import { pathToFileURL } from "node:url";
import { createActor } from "xstate";
// Relative, not "ignite-element/tools/…", for the reason given in server.ts.
import { serveMcpHttp } from "../../src/tools/hosts/mcp/http.js";
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
  const served = await serveMcpHttp(fromActor(actor, playerCommands), {
    port,
    serverInfo: { name: "ignite-player", version: "1.0.0" },
    // The tools follow the player's state, announced on each session's stream: for clients that
    // list the tools again when told (see docs/serving.md for the hosts that do not).
    offer: "available",
  });
  return {
    url: served.url,
    actor,
    async close() {
      await served.close();
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
