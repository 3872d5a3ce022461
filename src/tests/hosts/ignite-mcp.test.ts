import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client as V2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { projectWith } from "../setup/packed.js";
import { node22 } from "./node22.js";

// `ignite-mcp` as a host runs it: from the packed package installed in a project outside this
// repository, started from yet another directory, with the commands docs/serving.md gives.
const root = join(import.meta.dirname, "../../..");
const docs = readFileSync(join(root, "docs/serving.md"), "utf8");
const PLACEHOLDER = "/path/to/your-project";
const inspector = join(
  root,
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);

/** The fenced block of docs/serving.md whose info string is `info`. */
function block(info: string): string {
  const found = docs.match(new RegExp(`\`\`\`${info}\\n([\\s\\S]*?)\`\`\``));
  if (found?.[1] === undefined) throw new Error(`docs/serving.md has no \`\`\`${info} block`);
  return found[1];
}

interface Launch {
  command: string;
  args: string[];
}

/** The command each host configuration of docs/serving.md starts. */
const HOSTS: Record<string, () => Launch> = {
  "Claude Desktop": () => JSON.parse(block("json claude-desktop")).mcpServers.thermostat,
  "Claude Code": () => {
    const [add, launch = ""] = block("sh claude-code").trim().split(" -- ");
    expect(add).toBe("claude mcp add thermostat");
    const [command = "", ...args] = launch.split(/\s+/);
    return { command, args };
  },
  Cursor: () => JSON.parse(block("json cursor")).mcpServers.thermostat,
  "VS Code": () => {
    const { type, ...launch } = JSON.parse(block("json vscode")).servers.thermostat;
    expect(type).toBe("stdio");
    return launch;
  },
};

let project: string;
let elsewhere: string;
let bin: string;
const run = promisify(execFile);

beforeAll(() => {
  project = projectWith(inject("tarball"), [
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/node",
    // A module's MCP App view (mcp-app's peers).
    "@modelcontextprotocol/ext-apps",
    "esbuild",
  ]);
  writeFileSync(join(project, "thermostat.js"), block("js thermostat.js"));
  writeFileSync(join(project, "tickets.ts"), block("ts tickets.ts"));
  elsewhere = mkdtempSync(join(tmpdir(), "a-host-"));
  bin = join(project, "node_modules/.bin/ignite-mcp");
}, 600_000);

afterAll(() => {
  rmSync(elsewhere, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

/** A person answering a host's elicitation requests. */
type Person = (request: ElicitRequest) => ElicitResult;

/**
 * The SDK's Client over stdio, the server started as `launch` says, from `elsewhere`; with a
 * `person`, a host that supports elicitation and puts each request to them.
 */
async function stdioClient(launch: Launch, person?: Person) {
  const client = new Client(
    { name: "host", version: "1.0.0" },
    person === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (person !== undefined) client.setRequestHandler(ElicitRequestSchema, person);
  const args = launch.args.map((arg) => arg.replaceAll(PLACEHOLDER, project));
  await client.connect(
    new StdioClientTransport({ command: launch.command, args, cwd: elsewhere, stderr: "pipe" }),
  );
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

describe("ignite-mcp in the host configurations of docs/serving.md", () => {
  it.each(Object.keys(HOSTS))(
    "starts from the %s configuration in another directory and serves the thermostat over stdio",
    async (host) => {
      const client = await stdioClient(HOSTS[host]?.() ?? { command: "", args: [] });
      try {
        expect(client.getServerVersion()?.name).toBe("thermostat");
        expect(await names(client)).toEqual(expect.arrayContaining(["setTarget", "startHeating"]));
        const set = await client.callTool({ name: "setTarget", arguments: { value: 22 } });
        expect(set.structuredContent).toEqual({
          snapshot: { target: 22, heating: false },
          events: [],
        });
        // The gate holds whichever commands are listed: stopping is refused until heating starts.
        const early = await client.callTool({ name: "stopHeating", arguments: {} });
        await client.callTool({ name: "startHeating", arguments: {} });
        const stopped = await client.callTool({ name: "stopHeating", arguments: {} });
        expect([early.isError, stopped.isError]).toEqual([true, undefined]);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it.each(["auto", "legacy"] as const)(
    "serves the SDK v2 Client negotiating %s over stdio, from the Claude Desktop configuration",
    async (mode) => {
      const launch = HOSTS["Claude Desktop"]?.() ?? { command: "", args: [] };
      const args = launch.args.map((arg) => arg.replaceAll(PLACEHOLDER, project));
      const client = new V2Client(
        { name: "host", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      await client.connect(
        new V2StdioClientTransport({
          command: launch.command,
          args,
          cwd: elsewhere,
          stderr: "ignore",
        }),
      );
      try {
        expect(client.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(["setTarget", "startHeating"]),
        );
        const set = await client.callTool({ name: "setTarget", arguments: { value: 22 } });
        expect(set.structuredContent).toEqual({
          snapshot: { target: 22, heating: false },
          events: [],
        });
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe("ignite-mcp on the command line", () => {
  /** Runs the installed command from `elsewhere`: its exit code and output. */
  function ignite(...args: string[]) {
    const child = spawn(bin, args, { cwd: elsewhere });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.once("close", (code) => resolve({ code, stdout, stderr })),
    );
  }

  it("prints its usage with --help", async () => {
    const { code, stdout } = await ignite("--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: ignite-mcp <module> \[options\]\n/);
    expect(stdout).toContain("--http <port>");
    expect(stdout).toContain("--offer <which>");
    expect(stdout).toContain("--wait <ms>");
  });

  it("refuses a module without a component in one line, naming what it exports, with exit code 1", async () => {
    writeFileSync(
      join(elsewhere, "helpers.mjs"),
      "export const celsius = 20;\nexport default 42;\n",
    );

    const { code, stdout, stderr } = await ignite("./helpers.mjs");

    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'ignite-mcp: ./helpers.mjs exports no component: expected a default export or an export named "component" with getSchema() and execute() (it exports celsius, default).\n',
    });
  });

  it("serves an export named component when there is no default one", async () => {
    writeFileSync(
      join(elsewhere, "named.mjs"),
      'export const component = { getSchema: () => ({ commands: { ping: { description: "Ping." } } }), execute: () => ({ state: "pong", events: [] }) };\n',
    );
    const client = await stdioClient({ command: bin, args: ["./named.mjs"] });
    try {
      expect(await names(client)).toEqual(["ping"]);
    } finally {
      await client.close();
    }
  });

  it("refuses a wrong command line in one line, with exit code 2", async () => {
    const offer = await ignite(join(project, "thermostat.js"), "--offer", "all");
    const port = await ignite(join(project, "thermostat.js"), "--http", "web");
    const none = await ignite();

    expect([offer, port, none].map(({ code, stderr }) => ({ code, stderr }))).toEqual([
      { code: 2, stderr: 'ignite-mcp: --offer takes "available" or "declared", not "all".\n' },
      { code: 2, stderr: 'ignite-mcp: --http takes a port number (0 to 65535), not "web".\n' },
      {
        code: 2,
        stderr: "ignite-mcp: expected one module to serve. Run ignite-mcp --help for usage.\n",
      },
    ]);
  });

  it("passes --offer to serveMcp: every declared command listed, or only those available now", async () => {
    const listed: Record<string, string[]> = {};
    for (const offer of ["declared", "available"]) {
      const client = await stdioClient({
        command: bin,
        args: [join(project, "thermostat.js"), "--offer", offer],
      });
      try {
        listed[offer] = await names(client);
      } finally {
        await client.close();
      }
    }

    expect(listed).toEqual({
      declared: ["setTarget", "startHeating", "stopHeating"],
      available: ["setTarget", "startHeating"],
    });
  });

  it("tells a 2026-07-28 client over stdio that the tools available changed, on its subscription", async () => {
    const relisted: string[][] = [];
    const client = new V2Client(
      { name: "host", version: "1.0.0" },
      {
        versionNegotiation: { mode: "auto" },
        listChanged: {
          tools: {
            debounceMs: 0,
            onChanged: (error, tools) => {
              if (error === null && tools !== null) relisted.push(tools.map((tool) => tool.name));
            },
          },
        },
      },
    );
    const args = [join(project, "thermostat.js"), "--offer", "available"];
    await client.connect(new V2StdioClientTransport({ command: bin, args, stderr: "ignore" }));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      await client.callTool({ name: "startHeating", arguments: {} });

      await vi.waitFor(() => expect(relisted).toEqual([["setTarget", "stopHeating"]]), {
        timeout: 10_000,
      });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("offers the wait tool with --wait, answered when the component's event comes", async () => {
    // A bell whose ring is an event: the wait hears it while the ring call runs beside it.
    writeFileSync(
      join(elsewhere, "bell.mjs"),
      `const listeners = new Set();
const heard = new Set();
let state = { rings: 0 };
export default {
  getSchema: () => ({ commands: { ring: { description: "Ring the bell." } }, events: ["rang"] }),
  execute: () => {
    state = { rings: state.rings + 1 };
    for (const listener of heard) listener({ type: "rang" });
    for (const listener of listeners) listener();
    return { state, events: [{ type: "rang" }] };
  },
  subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
  getSnapshot: () => state,
  onEvent: (listener) => (heard.add(listener), () => heard.delete(listener)),
};
`,
    );
    const client = await stdioClient({ command: bin, args: ["./bell.mjs", "--wait", "60000"] });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["ring", "waitFor"]);
      expect(tools[1]?.inputSchema).toMatchObject({
        properties: { event: { enum: ["rang"] }, seconds: { maximum: 60 } },
      });
      const idle = await client.callTool({ name: "waitFor", arguments: { seconds: 0 } });
      expect(idle.structuredContent).toMatchObject({
        waited: "Nothing you waited for happened within 0 s (you waited for any change).",
      });

      // The wait is taken first; the ring, made after it, runs while it waits.
      const [waited] = await Promise.all([
        client.callTool({ name: "waitFor", arguments: { event: "rang" } }),
        client.callTool({ name: "ring", arguments: {} }),
      ]);

      expect(waited.structuredContent).toEqual({
        waited: 'The event "rang" happened.',
        snapshot: { rings: 1 },
        events: [{ type: "rang" }],
        available: ["ring"],
      });
    } finally {
      await client.close();
    }
  });

  it("refuses --wait that is not a time, and a component that cannot be waited on, in one line", async () => {
    const word = await ignite(join(project, "thermostat.js"), "--wait", "soon");
    const plain = await ignite(join(project, "thermostat.js"), "--wait", "1000");

    expect([word, plain].map(({ code, stderr }) => ({ code, stderr }))).toEqual([
      {
        code: 2,
        stderr: 'ignite-mcp: --wait takes a number of milliseconds above 0, not "soon".\n',
      },
      {
        code: 1,
        stderr:
          "ignite-mcp: igniteTools: wait needs a component with subscribe() and getSnapshot(): without them nothing can be waited for\n",
      },
    ]);
  });

  it("exits when the host closes its stdin", async () => {
    const child = spawn(bin, [join(project, "thermostat.js")], { cwd: elsewhere });
    const exited = new Promise((resolve) => child.once("exit", resolve));

    child.stdin.end();

    expect(await exited).toBe(0);
  });
});

/** A call's one text block. */
const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result as CallToolResult).content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");

/**
 * Runs `node` (with `flags`) on the installed command, from `cwd`: its exit code and output.
 * What the command writes last is its own line; Node may warn on stderr before it.
 */
function igniteUnder(node: string, flags: string[], args: string[], cwd = elsewhere) {
  const child = spawn(node, [...flags, bin, ...args], { cwd });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdout.resume();
  return new Promise<{ code: number | null; stderr: string; last: string }>((resolve) =>
    child.once("close", (code) =>
      resolve({ code, stderr, last: stderr.trimEnd().split("\n").at(-1) ?? "" }),
    ),
  );
}

/** Whether this Node strips TypeScript's types (22.18 and later, by default). */
const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);

describe("ignite-mcp and the modules a project has", () => {
  const CLOSE_ALL =
    'Allow the agent to run "closeAll" with no input? It may destroy or overwrite data.';

  it("serves docs/serving.md's tickets.ts under Node 22, which strips its types, and asks the person through elicitation before closeAll runs", async () => {
    const asked: string[] = [];
    let answer: ElicitResult["action"] = "decline";
    const client = await stdioClient(
      { command: node22(), args: [bin, join(project, "tickets.ts")] },
      (request) => {
        asked.push(request.params.message);
        return { action: answer, content: {} };
      },
    );
    try {
      expect(await names(client)).toEqual(["close", "closeAll", "list"]);
      const closed = await client.callTool({ name: "close", arguments: { value: "vpn down" } });
      expect(closed.structuredContent).toEqual({ snapshot: { open: ["printer jam"] }, events: [] });
      expect(asked).toEqual([]);

      const declined = await client.callTool({ name: "closeAll", arguments: {} });
      const still = await client.callTool({ name: "list", arguments: {} });
      answer = "accept";
      const accepted = await client.callTool({ name: "closeAll", arguments: {} });

      expect(asked).toEqual([CLOSE_ALL, CLOSE_ALL]);
      expect([declined.isError, textOf(declined)]).toEqual([
        true,
        'Error (Denied): Command "closeAll" was denied: the person declined it. It did not run; do not call it again with the same input.',
      ]);
      expect(still.structuredContent).toEqual({ snapshot: { open: ["printer jam"] }, events: [] });
      expect(accepted.structuredContent).toEqual({ snapshot: { open: [] }, events: [] });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("serves a TypeScript module written the NodeNext way, importing its neighbours by their .js and .mjs names, under Node 22", async () => {
    // What `tsc` with `module: NodeNext` requires: `./store.js` for store.ts, `./words.mjs` for words.mts.
    const app = join(project, "nodenext");
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "words.mts"), 'export const SHELVE: string = "Shelve a book.";\n');
    writeFileSync(
      join(app, "store.ts"),
      'import { SHELVE } from "./words.mjs";\nexport const books: string[] = [];\nexport const described: string = SHELVE;\n',
    );
    writeFileSync(
      join(app, "inbox-mcp.ts"),
      `import type { AgentComponent } from "ignite-element/tools";
import { books, described } from "./store.js";
const shelf: AgentComponent<{ books: string[] }> = {
  getSchema: () => ({ commands: { shelve: { description: described, input: { type: "string" } } } }),
  execute: (_command, input) => {
    books.push(String(input));
    return { state: { books: [...books] }, events: [] };
  },
};
export default shelf;
`,
    );
    const client = await stdioClient({ command: node22(), args: [bin, join(app, "inbox-mcp.ts")] });
    try {
      const { tools } = await client.listTools();
      expect(tools.map(({ name, description }) => ({ name, description }))).toEqual([
        { name: "shelve", description: "Shelve a book." },
      ]);
      const shelved = await client.callTool({ name: "shelve", arguments: { value: "Dune" } });
      expect(shelved.structuredContent).toEqual({ snapshot: { books: ["Dune"] }, events: [] });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("takes a module's options, under the flags, which win over them, and asks a host that can ask", async () => {
    // A shelf whose module asks before the destructive clear, and lists only what is available.
    writeFileSync(
      join(project, "shelf.mjs"),
      `import { approval } from "ignite-element/tools";
let books = [];
export const component = {
  getSchema: () => ({
    commands: {
      shelve: { description: "Shelve a book.", input: { type: "string" } },
      clear: { description: "Clear the shelf.", gated: true, destructive: true },
    },
  }),
  canExecute: (command) => command !== "clear" || books.length > 0,
  execute: (command, input) => {
    books = command === "shelve" ? [...books, input] : [];
    return { state: { books }, events: [] };
  },
};
export const options = {
  approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
  offer: "available",
};
`,
    );
    const shelf = join(project, "shelf.mjs");
    const asked: string[] = [];
    const own = await stdioClient({ command: bin, args: [shelf] }, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: {} };
    });
    const flagged = await stdioClient({ command: bin, args: [shelf, "--offer", "declared"] });
    try {
      // The module's offer: only what is available now; --offer declared wins over it.
      expect(await names(own)).toEqual(["shelve"]);
      expect(await names(flagged)).toEqual(["clear", "shelve"]);

      await own.callTool({ name: "shelve", arguments: { value: "Dune" } });
      const cleared = await own.callTool({ name: "clear", arguments: {} });
      // A host without elicitation (Claude Desktop today) cannot ask anyone: nothing runs.
      await flagged.callTool({ name: "shelve", arguments: { value: "Emma" } });
      const refused = await flagged.callTool({ name: "clear", arguments: {} });

      expect(asked).toEqual([
        'Allow the agent to run "clear" with no input? It may destroy or overwrite data.',
      ]);
      expect(cleared.structuredContent).toEqual({ snapshot: { books: [] }, events: [] });
      expect(textOf(refused)).toBe(
        'Error (Denied): Command "clear" was denied: it needs a person\'s approval, which was not given. It did not run; do not call it again with the same input.',
      );
    } finally {
      await Promise.all([own.close(), flagged.close()]);
    }
  }, 60_000);

  it("refuses module options it does not take, in one line, with exit code 1", async () => {
    writeFileSync(
      join(elsewhere, "listens.mjs"),
      "export default { getSchema: () => ({ commands: {} }), execute: () => ({ state: null, events: [] }) };\nexport const options = { port: 3000 };\n",
    );

    const { code, stderr } = await igniteUnder(process.execPath, [], ["./listens.mjs"]);

    expect({ code, stderr }).toEqual({
      code: 1,
      stderr:
        'ignite-mcp: ./listens.mjs exports options with "port", which serveMcp does not take (it takes approve, wait, content, search, resources, view, offer, timeoutMs, project, onWarning, tracer, validator, maxInputBytes, maxInputDepth, maxResultChars, requestStateKey, approvalTtlSeconds, ledger, listTtlMs); where to listen is the flags\' (--http, --host, --allowed-host).\n',
    });
  });

  it("refuses a TypeScript module in one line where Node does not strip types (Node 20), saying how to run it", async () => {
    // Node 20 cannot strip types; a later Node is made to behave as it does.
    const flags = stripsTypes ? ["--no-experimental-strip-types"] : [];
    const why = stripsTypes
      ? `Node ${process.version} runs TypeScript only with type stripping, which is off here`
      : `Node ${process.version} does not run TypeScript`;

    const { code, stderr } = await igniteUnder(process.execPath, flags, ["./tickets.ts"], project);

    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `ignite-mcp: cannot load ./tickets.ts: ${why}. Run ignite-mcp under Node 22.18 or later with type stripping on (its default), compile the module to JavaScript, or load it through tsx: node --import tsx ${bin} ./tickets.ts\n`,
    });
  });

  it("says what a CommonJS project does with a .js module written as an ES module, and the way out works", async () => {
    // A project as `npm init` makes it: "type": "commonjs", so its .js files are CommonJS.
    const app = join(elsewhere, "cjs-app");
    mkdirSync(app, { recursive: true });
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "cjs-app", version: "1.0.0", main: "index.js", type: "commonjs" }),
    );
    writeFileSync(join(app, "thermostat.js"), block("js thermostat.js"));
    writeFileSync(join(app, "thermostat.mjs"), block("js thermostat.js"));
    const manifest = join(app, "package.json");

    const { code, last } = await igniteUnder(process.execPath, [], ["./cjs-app/thermostat.js"]);
    const renamed = await stdioClient({ command: bin, args: ["./cjs-app/thermostat.mjs"] });

    expect({ code, last }).toEqual({
      code: 1,
      last: `ignite-mcp: cannot load ./cjs-app/thermostat.js: it is written as an ES module (Unexpected token 'export'), but Node loads it as CommonJS: ${manifest} has "type": "commonjs". In a CommonJS project, rename it to thermostat.mjs, or set "type": "module" in ${manifest}.`,
    });
    try {
      expect(await names(renamed)).toEqual(["setTarget", "startHeating", "stopHeating"]);
    } finally {
      await renamed.close();
    }
  });

  it("says to import a type with import type when a TypeScript module imports it as a value", async () => {
    writeFileSync(
      join(project, "typed.ts"),
      'import { AgentComponent } from "ignite-element/tools";\nconst none: AgentComponent = { getSchema: () => ({ commands: {} }), execute: () => ({ state: null, events: [] }) };\nexport default none;\n',
    );

    const { code, stderr } = await igniteUnder(node22(), [], ["./typed.ts"], project);

    expect({ code, stderr }).toEqual({
      code: 1,
      stderr:
        "ignite-mcp: cannot load ./typed.ts: The requested module 'ignite-element/tools' does not provide an export named 'AgentComponent'. If AgentComponent is a type, import it with `import type`: Node strips types, it does not look them up.\n",
    });
  });
});

/** Starts `ignite-mcp … --http 0` and resolves with the endpoint it prints. */
async function serveHttp(): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(bin, [join(project, "thermostat.js"), "--http", "0"], { cwd: elsewhere });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`ignite-mcp exited ${code}`)));
  });
  const found = line.match(/at (http:\S+)/)?.[1];
  if (found === undefined) throw new Error(`no URL in ${JSON.stringify(line)}`);
  return { url: new URL(found), child };
}

describe("ignite-mcp with a module's MCP App view", () => {
  it("serves the view the module makes from the installed package, and links its tools to it", async () => {
    writeFileSync(
      join(project, "thermo-view.mjs"),
      'customElements.define("thermo-stat", class extends HTMLElement {});\n',
    );
    writeFileSync(
      join(project, "viewed.mjs"),
      `import { mcpAppView } from "ignite-element/tools/mcp-app";
export const component = {
  getSchema: () => ({ commands: { warmer: { description: "Half a degree warmer." } } }),
  execute: () => ({ state: { target: 21.5 }, events: [] }),
};
export const options = {
  view: await mcpAppView({ element: "thermo-stat", module: new URL("./thermo-view.mjs", import.meta.url) }),
};
`,
    );
    const client = await stdioClient({ command: bin, args: [join(project, "viewed.mjs")] });
    try {
      const uri = "ui://ignite-element/thermo-stat.html";
      const [tool] = (await client.listTools()).tools;
      expect(tool?._meta?.ui).toEqual({ resourceUri: uri });
      const [view] = (await client.readResource({ uri })).contents;
      const html = view && "text" in view ? view.text : "";
      expect(view?.mimeType).toBe("text/html;profile=mcp-app");
      expect(html).toContain('customElements.define("thermo-stat"');
      // The view's runtime, bundled from the installed package and its peers.
      expect(html).toContain('"ui/initialize"');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("ignite-mcp --http", () => {
  it("serves over Streamable HTTP, refuses a request under another Host, and stops on SIGTERM", async () => {
    const { url, child } = await serveHttp();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    expect(url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    expect(await names(client)).toEqual(expect.arrayContaining(["setTarget", "startHeating"]));
    await client.close();

    const status = await new Promise((resolve, reject) => {
      request(url, { method: "POST", headers: { Host: "evil.example.com" } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on("error", reject)
        .end("{}");
    });
    child.kill("SIGTERM");

    expect(status).toBe(403);
    expect(await exited).toBe(0);
  });
});

describe("the MCP Inspector's CLI against ignite-mcp", () => {
  /** The Inspector's `--cli` mode, under the Node 22 it requires; its JSON answer. */
  async function inspect(...args: string[]): Promise<unknown> {
    const { stdout } = await run(node22(), [inspector, "--cli", ...args], {
      cwd: elsewhere,
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  }

  it("lists the tools over stdio", async () => {
    const listed = await inspect(bin, join(project, "thermostat.js"), "--method", "tools/list");

    expect(listed).toMatchObject({
      tools: expect.arrayContaining([
        expect.objectContaining({
          name: "setTarget",
          inputSchema: expect.objectContaining({ properties: { value: expect.anything() } }),
        }),
        expect.objectContaining({ name: "startHeating" }),
      ]),
    });
  }, 60_000);

  it("calls a tool over Streamable HTTP", async () => {
    const { url, child } = await serveHttp();
    try {
      const called = await inspect(
        url.href,
        "--method",
        "tools/call",
        "--tool-name",
        "setTarget",
        "--tool-arg",
        "value=22",
      );

      expect(called).toMatchObject({
        structuredContent: { snapshot: { target: 22, heating: false }, events: [] },
      });
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);
});
