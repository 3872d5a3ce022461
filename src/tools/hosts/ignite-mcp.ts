#!/usr/bin/env node
/**
 * `ignite-mcp <module>`: serves the agent component a module exports as an MCP server — over stdio
 * (what a host's config starts), or over Streamable HTTP with `--http <port>` through
 * `serveMcpHttp`. It is the documented stdio and HTTP patterns, behind a command a host config can
 * name from any directory. The module is JavaScript or, where Node strips types, TypeScript; it
 * may export `options` beside its component (serveMcp's: an approval policy, a timeout, …), and
 * the flags win over them. A module that does not load is told in one line saying what to do.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { isRecord } from "../core/json.js";
import type { AgentComponent, RuntimeEvent, ToolOffer } from "../core/types.js";
import { waitTool } from "../live/wait.js";
import type { ServeMcpOptions } from "./mcp/server.js";
import { resolveTypeScriptSpecifiers } from "./typescript-specifiers.js";

const USAGE = `Usage: ignite-mcp <module> [options]

Serves the agent component exported by <module> (its default export, or else an
export named \`component\`: an object with getSchema() and execute()) as an MCP
server, over stdio unless --http is given. <module> is JavaScript, or TypeScript
(.ts, .mts) under a Node that strips types (22.18 and later). An export named
\`options\` beside it holds serveMcp's options (approve: approval(policy),
timeoutMs, project, …); a flag given on the command line wins over it.

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
  ignite-mcp ./tickets.ts --offer available
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
  const { component, options: exported } = await load(specifier);
  const name = basename(specifier, extname(specifier));
  const serverInfo = { name, version: "1.0.0" };
  // The module's options, and over them the flags given: the command line is the last word.
  const options: ServeMcpOptions = {
    ...exported,
    ...(offer === undefined ? {} : { offer }),
    ...(maxMs === undefined ? {} : { wait: waitTool({ maxMs }) }),
  };
  const sdk = await importSdk();

  if (port === undefined) {
    // Both revisions on stdio: the SDK reads the client's opening and pins a server of its era.
    const factory = sdk.mcpServerFactory(component, { ...options, serverInfo });
    const handle = sdk.serveStdio(factory);
    // The host ends the session by closing our stdin: stop, whatever the component keeps running.
    process.stdin.once("close", () => {
      factory.close();
      void handle.close().finally(() => process.exit(0));
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

/**
 * Every option of `serveMcp`, which a module may export as `options`: keyed by the type's own keys,
 * so an option added to `ServeMcpOptions` must be added here.
 */
const MODULE_OPTIONS: Record<keyof ServeMcpOptions, true> = {
  approve: true,
  wait: true,
  content: true,
  search: true,
  resources: true,
  view: true,
  offer: true,
  timeoutMs: true,
  project: true,
  onWarning: true,
  tracer: true,
  validator: true,
  maxInputBytes: true,
  maxInputDepth: true,
  maxResultChars: true,
  requestStateKey: true,
  approvalTtlSeconds: true,
  ledger: true,
  listTtlMs: true,
};

interface Served {
  component: AgentComponent<unknown, RuntimeEvent>;
  options: ServeMcpOptions;
}

/**
 * The module's component — its default export, or else its export named `component` — and the
 * serveMcp options it exports as `options`.
 */
async function load(specifier: string): Promise<Served> {
  const path = resolve(process.cwd(), specifier);
  // A TypeScript module imports its neighbours as NodeNext has it written: `./store.js`.
  if (/\.[cm]?ts$/.test(path)) resolveTypeScriptSpecifiers();
  let module: unknown;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    throw new Refusal(`cannot load ${specifier}: ${whyNotLoaded(error, specifier, path)}`);
  }
  const exports = isRecord(module) ? module : {};
  const options = optionsOf(specifier, exports.options);
  for (const name of ["default", "component"]) {
    const value = exports[name];
    if (isComponent(value)) return { component: value, options };
  }
  const found = Object.keys(exports);
  throw new Refusal(
    `${specifier} exports no component: expected a default export or an export named "component" with getSchema() and execute() (it exports ${found.length > 0 ? found.join(", ") : "nothing"}).`,
  );
}

/** The module's `options` export, checked to be serveMcp's options. */
function optionsOf(specifier: string, value: unknown): ServeMcpOptions {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    throw new Refusal(
      `${specifier} exports options that is not an object: export serveMcp's options, such as { approve: approval(policy) }.`,
    );
  }
  const unknown = Object.keys(value).filter((key) => !Object.hasOwn(MODULE_OPTIONS, key));
  if (unknown.length > 0) {
    throw new Refusal(
      `${specifier} exports options with ${unknown.map((key) => `"${key}"`).join(", ")}, which serveMcp does not take (it takes ${Object.keys(MODULE_OPTIONS).join(", ")}); where to listen is the flags' (--http, --host, --allowed-host).`,
    );
  }
  return value;
}

/** Syntax Node reads only in an ES module: the file was loaded as CommonJS. */
const ESM_SYNTAX =
  /^(Unexpected token 'export'|Cannot use import statement outside a module|Cannot use 'import\.meta' outside a module)/;

/** Why a module did not load, and what to do about it when the cause is a known trap. */
function whyNotLoaded(error: unknown, specifier: string, path: string): string {
  const message = messageOf(error);
  const code = isRecord(error) ? error.code : undefined;
  if (code === "ERR_UNKNOWN_FILE_EXTENSION" && /"\.[cm]?ts"/.test(message)) {
    const stripping = (process.features as { typescript?: unknown }).typescript;
    const node =
      stripping === false
        ? `Node ${process.version} runs TypeScript only with type stripping, which is off here`
        : `Node ${process.version} does not run TypeScript`;
    return `${node}. Run ignite-mcp under Node 22.18 or later with type stripping on (its default), compile the module to JavaScript, or load it through tsx: node --import tsx ${process.argv[1] ?? "ignite-mcp"} ${specifier}`;
  }
  if (!(error instanceof SyntaxError)) return message;
  const file = failingFile(error) ?? path;
  const other = file === path ? undefined : relative(process.cwd(), file);
  if (ESM_SYNTAX.test(message) && /\.[jt]s$/.test(file)) {
    const esm = `${basename(file, extname(file))}${extname(file) === ".ts" ? ".mts" : ".mjs"}`;
    const manifest = nearestManifest(dirname(file));
    const why =
      manifest === undefined
        ? "no package.json above it makes it a module"
        : `${manifest.path} ${manifest.type === undefined ? "sets no" : "has"} "type"${manifest.type === undefined ? "" : `: "${manifest.type}"`}`;
    return `${other ?? "it"} is written as an ES module (${message}), but Node loads it as CommonJS: ${why}. In a CommonJS project, rename it to ${esm}, or set "type": "module" in ${manifest?.path ?? "the project's package.json"}.`;
  }
  const missing = /does not provide an export named '([^']+)'/.exec(message);
  if (missing !== null && /\.[cm]?ts$/.test(file)) {
    return `${message}${other === undefined ? "" : ` (in ${other})`}. If ${missing[1]} is a type, import it with \`import type\`: Node strips types, it does not look them up.`;
  }
  if (code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") {
    return `${message}${other === undefined ? "" : ` (in ${other})`}. Node strips types but compiles nothing: write it without enums, namespaces and parameter properties, or compile the module to JavaScript.`;
  }
  return message;
}

/** The file a syntax or link error points at: its stack's first line is `path:line`. */
function failingFile(error: SyntaxError): string | undefined {
  const where = /^(.+):\d+$/m.exec(error.stack?.split("\n", 1)[0] ?? "")?.[1];
  if (where === undefined) return undefined;
  if (where.startsWith("file:")) return fileURLToPath(where);
  return where.startsWith("/") || /^[A-Za-z]:\\/.test(where) ? where : undefined;
}

/** The package.json nearest above `dir`, and its `type`: what decides how Node reads `.js`. */
function nearestManifest(dir: string): { path: string; type: unknown } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const path = join(at, "package.json");
    if (existsSync(path)) {
      try {
        const manifest: unknown = JSON.parse(readFileSync(path, "utf8"));
        return { path, type: isRecord(manifest) ? manifest.type : undefined };
      } catch {
        return { path, type: undefined };
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

function isComponent(value: unknown): value is AgentComponent<unknown, RuntimeEvent> {
  return (
    isRecord(value) && typeof value.getSchema === "function" && typeof value.execute === "function"
  );
}

/** The MCP SDK, an optional peer: loaded only now, so its absence is a sentence, not a trace. */
async function importSdk() {
  try {
    const [{ serveStdio }, { mcpServerFactory }, { serveMcpHttp }] = await Promise.all([
      import("@modelcontextprotocol/server/stdio"),
      import("./mcp/server.js"),
      import("./mcp/http.js"),
    ]);
    return { serveStdio, mcpServerFactory, serveMcpHttp };
  } catch (error) {
    throw new Refusal(
      `cannot load the MCP SDK (${messageOf(error)}): install @modelcontextprotocol/server and @modelcontextprotocol/node next to ignite-element.`,
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
