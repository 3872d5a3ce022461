#!/usr/bin/env node
/**
 * `ignite-mcp <module>`: serves the agent component a module exports as an MCP server — over stdio
 * (what a host's config starts), or over Streamable HTTP with `--http <port>` through
 * `serveMcpHttp`. It is the documented stdio and HTTP patterns, behind a command a host config can
 * name from any directory.
 */
import { basename, extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { isRecord } from "../core/json.js";
import type { AgentComponent, RuntimeEvent, ToolOffer } from "../core/types.js";
import { waitTool } from "../live/wait.js";
import type { ServeMcpOptions } from "./mcp-server.js";

const USAGE = `Usage: ignite-mcp <module> [options]

Serves the agent component exported by <module> (its default export, or else an
export named \`component\`: an object with getSchema() and execute()) as an MCP
server, over stdio unless --http is given.

Options:
  --http <port>           serve over Streamable HTTP at http://<host>:<port>/mcp
                          instead of stdio (0 picks a free port)
  --host <host>           the interface --http listens on (default: 127.0.0.1);
                          any but a loopback address needs --allowed-host
  --allowed-host <host>   a Host header value clients may use (repeatable;
                          default with a loopback host: localhost, 127.0.0.1
                          and [::1] at the port)
  --offer <which>         which commands tools/list shows: "available" (those
                          available now) or "declared" (every declared one)
  --wait <ms>             also offer the tool waitFor, with which the model
                          waits up to <ms> milliseconds for an event or a
                          command to become available (the component needs
                          subscribe() and getSnapshot())
  -h, --help              show this help

Examples:
  ignite-mcp ./thermostat.js
  ignite-mcp ./thermostat.js --http 3000
`;

/** What `--offer` takes, passed to serveMcp's `offer` option. */
const OFFERS: readonly ToolOffer[] = ["available", "declared"];

/** A failure the user can fix: printed as one line, exit code 1 (2 for a wrong command line). */
class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

async function main(argv: readonly string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new Refusal(`${messageOf(error)}. Run ignite-mcp --help for usage.`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [specifier, ...extra] = positionals;
  if (specifier === undefined || extra.length > 0) {
    throw new Refusal("expected one module to serve. Run ignite-mcp --help for usage.", 2);
  }
  const offer = values.offer;
  if (offer !== undefined && !isOffer(offer)) {
    throw new Refusal(`--offer takes "available" or "declared", not "${offer}".`, 2);
  }
  const maxMs = values.wait === undefined ? undefined : Number(values.wait);
  if (maxMs !== undefined && !(Number.isFinite(maxMs) && maxMs > 0)) {
    throw new Refusal(`--wait takes a number of milliseconds above 0, not "${values.wait}".`, 2);
  }
  const port = values.http === undefined ? undefined : Number(values.http);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new Refusal(`--http takes a port number (0 to 65535), not "${values.http}".`, 2);
  }

  // stdout carries the protocol over stdio: whatever the module logs goes to stderr instead.
  if (port === undefined) console.log = console.info = console.debug = console.error;
  const component = await load(specifier);
  const name = basename(specifier, extname(specifier));
  const serverInfo = { name, version: "1.0.0" };
  const options: ServeMcpOptions = {
    ...(offer === undefined ? {} : { offer }),
    ...(maxMs === undefined ? {} : { wait: waitTool({ maxMs }) }),
  };
  const sdk = await importSdk();

  if (port === undefined) {
    const server = new sdk.Server(serverInfo);
    sdk.serveMcp(server, component, options);
    await server.connect(new sdk.StdioServerTransport());
    // The host ends the session by closing our stdin: stop, whatever the component keeps running.
    process.stdin.once("close", () => {
      void server.close().finally(() => process.exit(0));
    });
    return;
  }
  const served = await sdk.serveMcpHttp(component, {
    ...options,
    port,
    serverInfo,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values["allowed-host"] === undefined ? {} : { allowedHosts: values["allowed-host"] }),
  });
  process.stdout.write(`ignite-mcp: serving ${specifier} over MCP at ${served.url}\n`);
  const stop = () => {
    void served.close().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      http: { type: "string" },
      host: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      offer: { type: "string" },
      wait: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function isOffer(value: string): value is ToolOffer {
  return OFFERS.some((offer) => offer === value);
}

/** The module's component: its default export, or else its export named `component`. */
async function load(specifier: string): Promise<AgentComponent<unknown, RuntimeEvent>> {
  const url = pathToFileURL(resolve(process.cwd(), specifier)).href;
  let module: unknown;
  try {
    module = await import(url);
  } catch (error) {
    throw new Refusal(`cannot load ${specifier}: ${messageOf(error)}`);
  }
  const exports = isRecord(module) ? module : {};
  for (const name of ["default", "component"]) {
    const value = exports[name];
    if (isComponent(value)) return value;
  }
  const found = Object.keys(exports);
  throw new Refusal(
    `${specifier} exports no component: expected a default export or an export named "component" with getSchema() and execute() (it exports ${found.length > 0 ? found.join(", ") : "nothing"}).`,
  );
}

function isComponent(value: unknown): value is AgentComponent<unknown, RuntimeEvent> {
  return (
    isRecord(value) && typeof value.getSchema === "function" && typeof value.execute === "function"
  );
}

/** The MCP SDK, an optional peer: loaded only now, so its absence is a sentence, not a trace. */
async function importSdk() {
  try {
    const [{ Server }, { StdioServerTransport }, { serveMcp }, { serveMcpHttp }] =
      await Promise.all([
        import("@modelcontextprotocol/sdk/server/index.js"),
        import("@modelcontextprotocol/sdk/server/stdio.js"),
        import("./mcp-server.js"),
        import("./mcp-http.js"),
      ]);
    return { Server, StdioServerTransport, serveMcp, serveMcpHttp };
  } catch (error) {
    throw new Refusal(
      `cannot load the MCP SDK (${messageOf(error)}): install @modelcontextprotocol/sdk next to ignite-element.`,
    );
  }
}

/** The first line of an error's message. */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] ?? text;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const refusal = error instanceof Refusal ? error : undefined;
  process.stderr.write(`ignite-mcp: ${refusal?.message ?? messageOf(error)}\n`);
  process.exit(refusal?.exitCode ?? 1);
});
