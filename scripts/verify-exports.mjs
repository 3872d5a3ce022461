#!/usr/bin/env node
// Verifies the *packed* package from a consumer's point of view.
// Assumes dist/ is already built (`npm run build`).
//
// Checks: ESM import, CJS require, TypeScript type imports (NodeNext + Bundler),
// publint, and @arethetypeswrong/cli.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { loadEntrypoints } from "./entrypoints.mjs";

// ---------------------------------------------------------------------------
// The entrypoints come from entrypoints.json: per subpath, `values` (runtime exports that must be
// functions), `objects` (runtime exports that must be non-null objects) and `types` (type-only
// exports -> a type expression that uses it). SMOKE adds JS statements run against the module
// `m` in both formats for the subpaths that need more than presence; throw on failure.
// ---------------------------------------------------------------------------
const SMOKE = {
  // Validation really runs (the default validator loads in this module format).
  "ignite-element/tools": `
      const schema = { commands: { a: { input: { type: "string", format: "email", maxLength: 9 } } } };
      const r = m.resolveCall(schema, "a", "not an email address");
      const got = r.ok ? [] : r.error.issues.map((i) => i.keyword).sort().join(",");
      if (got !== "format,maxLength") throw new Error("validation broken: " + JSON.stringify(r));`,
  // Each dialect translates a manifest in both module formats (names mapped, scalars wrapped).
  "ignite-element/tools/anthropic": dialectSmoke(
    "anthropic",
    "[0].input_schema.properties.value.type",
    "[0].name",
  ),
  "ignite-element/tools/openai": dialectSmoke(
    "openai",
    "[0].function.parameters.properties.value.type",
    "[0].function.name",
  ),
  "ignite-element/tools/gemini": dialectSmoke(
    "gemini",
    "[0].functionDeclarations[0].parametersJsonSchema.properties.value.type",
    "[0].functionDeclarations[0].name",
  ),
  "ignite-element/tools/mcp": dialectSmoke(
    "mcp",
    ".tools[0].inputSchema.properties.value.type",
    ".tools[0].name",
  ),
  "ignite-element/tools/ollama": dialectSmoke(
    "ollama",
    "[0].function.parameters.properties.value.type",
    "[0].function.name",
  ),
  "ignite-element/tools/mapping": `
      const mapping = m.toolMapping([{ name: "set limit", inputSchema: { type: "number" }, gated: false }], { names: "openai" });
      const [tool] = mapping.tools;
      if (!/^set_limit_/.test(tool.name) || tool.parameters.properties.value.type !== "number") throw new Error("not mapped: " + JSON.stringify(tool));
      if (mapping.toCall({ name: tool.name, arguments: '{"value":3}' }).input !== 3) throw new Error("not unwrapped");`,
  // The adapter builds AI SDK tools with the installed \`ai\` in this module format.
  "ignite-element/tools/ai-sdk": `
      const component = { getSchema: () => ({ commands: { "set limit": { input: { type: "number" } } } }), execute: (_c, n) => ({ state: n, events: [] }) };
      const { tools, prepareStep } = m.aiSdkTools(component);
      const [name] = Object.keys(tools);
      if (!/^set_limit_/.test(name) || prepareStep().activeTools[0] !== name) throw new Error("not mapped: " + name);
      if (tools[name].inputSchema.jsonSchema.properties.value.type !== "number") throw new Error("not wrapped");`,
  // Each framework adapter makes its tools with the real framework in both module formats.
  "ignite-element/tools/openai-agents": adapterSmoke("agentsTools", ".parameters"),
  "ignite-element/tools/langchain": adapterSmoke("langchainTools", ".schema"),
  // The ledgers run on a stand-in client in both module formats, without loading their peer.
  "ignite-element/tools/ledger-redis": `
      const ledger = m.redisLedger({ call: async () => "OK" }, { prefix: "p:" });
      if (typeof ledger.begin("k", { holder: "h", until: 1 }).then !== "function") throw new Error("not a promise");`,
  "ignite-element/tools/ledger-postgres": `
      if (!m.ledgerTableSql().startsWith("CREATE TABLE IF NOT EXISTS ignite_ledger (")) throw new Error("no table SQL");
      if (typeof m.postgresLedger({ query: async () => ({ rows: [], rowCount: 1 }) }).get !== "function") throw new Error("no ledger");`,
};

const ENTRYPOINTS = Object.fromEntries(
  loadEntrypoints().entrypoints.map((entry) => {
    const spec = `ignite-element${entry.subpath.slice(1)}`;
    return [
      spec,
      {
        values: entry.values ?? [],
        objects: entry.objects ?? [],
        types: entry.types ?? {},
        peers: Object.keys(entry.peers ?? {}),
        smoke: SMOKE[spec],
      },
    ];
  }),
);
for (const spec of Object.keys(SMOKE)) {
  if (!(spec in ENTRYPOINTS))
    throw new Error(`verify-exports: SMOKE names ${spec}, which entrypoints.json does not list`);
}

/** JS that runs `m[exported].toToolDefs` on a one-command manifest and checks the two paths. */
function dialectSmoke(exported, valueTypePath, namePath) {
  return `
      const defs = m.${exported}.toToolDefs([{ name: "set limit", inputSchema: { type: "number" }, gated: false }]);
      if (defs${valueTypePath} !== "number") throw new Error("scalar not wrapped: " + JSON.stringify(defs));
      if (!/^set_limit_/.test(defs${namePath})) throw new Error("name not mapped: " + JSON.stringify(defs));`;
}

/** JS that makes `m[exported]`'s tools for a one-command component and checks the first. */
function adapterSmoke(exported, schemaPath) {
  return `
      const component = {
        getSchema: () => ({ commands: { "set limit": { input: { type: "number" } } } }),
        execute: () => ({ state: 1, events: [] }),
      };
      const [tool] = m.${exported}(component);
      if (tool${schemaPath}.properties.value.type !== "number") throw new Error("scalar not wrapped: " + tool.name);
      if (!/^set_limit_/.test(tool.name)) throw new Error("name not mapped: " + tool.name);`;
}

function smokeOf(i) {
  const smoke = Object.values(ENTRYPOINTS)[i].smoke;
  return smoke ? `{ const m = m${i};${smoke}\n}` : "";
}

const ATTW_FLAGS = ["--profile", "node16"];

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(repo, "node_modules", ".bin", name);
const tempDirs = [];
let failures = 0;

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
}

function check(name, fn) {
  process.stdout.write(`\n== check: ${name}\n`);
  try {
    const out = fn();
    if (out) process.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
    process.stdout.write(`PASS: ${name}\n`);
  } catch (error) {
    failures += 1;
    const e = /** @type {any} */ (error);
    if (e.stdout) process.stdout.write(String(e.stdout));
    if (e.stderr) process.stderr.write(String(e.stderr));
    process.stderr.write(`FAIL: ${name}: ${e.message ?? e}\n`);
  }
}

function tmp(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function cleanup() {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
process.on("exit", cleanup);

try {
  if (!existsSync(join(repo, "dist"))) {
    throw new Error("dist/ not found: run `npm run build` first");
  }

  // --- pack + install into a scratch consumer project -----------------------
  const packDir = tmp("ignite-pack-");
  const consumer = tmp("ignite-consumer-");
  let tarball = "";
  check("npm pack", () => {
    run("npm", ["pack", "--silent", "--pack-destination", packDir], repo);
    const tgz = readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
    if (tgz.length !== 1) throw new Error(`expected one tarball, got ${tgz.join(", ")}`);
    tarball = join(packDir, tgz[0]);
    return tarball;
  });
  if (!tarball) throw new Error("npm pack failed; cannot continue");

  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", version: "0.0.0", private: true, type: "module" }, null, 2),
  );
  // The optional peers of every entrypoint, at the versions this repo tests against, so each
  // entrypoint loads; npm also checks them against the ranges the package declares. The Node
  // types come too: the peers' own declarations need them, as in every application using them.
  const { devDependencies } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
  const peers = [...new Set(Object.values(ENTRYPOINTS).flatMap((entry) => entry.peers))];
  if (peers.length > 0) peers.push("@types/node");
  // The MCP client that plays the host of the ignite-mcp check below (2b).
  peers.push("@modelcontextprotocol/client");
  check("npm install <tarball> and the optional peers in temp project", () =>
    run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        tarball,
        ...peers.map((name) => `${name}@${devDependencies[name]}`),
      ],
      consumer,
    ),
  );

  const entries = Object.entries(ENTRYPOINTS);

  // --- (1) ESM ---------------------------------------------------------------
  const esm = entries
    .map(([spec, { values, objects }], i) => {
      const names = [...values, ...objects];
      return [
        `import * as m${i} from ${JSON.stringify(spec)};`,
        `import { ${names.map((name) => `${name} as ${name}_${i}`).join(", ")} } from ${JSON.stringify(spec)};`,
        `void [${names.map((name) => `${name}_${i}`).join(", ")}];`,
        `check(${JSON.stringify(spec)}, m${i}, ${JSON.stringify(values)}, ${JSON.stringify(objects)});`,
        smokeOf(i),
      ].join("\n");
    })
    .join("\n");
  writeFileSync(join(consumer, "esm-check.mjs"), `${assertHelper()}\n${esm}\n`);
  check("ESM import", () => run(process.execPath, ["esm-check.mjs"], consumer));

  // --- (2) CJS ---------------------------------------------------------------
  const cjs = entries
    .map(
      ([spec, { values, objects }], i) =>
        `const m${i} = require(${JSON.stringify(spec)});\n` +
        `check(${JSON.stringify(spec)}, m${i}, ${JSON.stringify(values)}, ${JSON.stringify(objects)});\n` +
        smokeOf(i),
    )
    .join("\n");
  writeFileSync(join(consumer, "cjs-check.cjs"), `${assertHelper()}\n${cjs}\n`);
  check("CJS require", () => run(process.execPath, ["cjs-check.cjs"], consumer));

  // --- (2b) the commands, run from the installed tarball ----------------------
  // Each command answers --help, and ignite-mcp serves a module's component over stdio to the
  // SDK v2 Client negotiating auto (2026-07-28, or 2025-11-25 if that fails), started from the
  // consumer's node_modules/.bin as npx would.
  for (const { name } of loadEntrypoints().bins) {
    check(
      `bin ${name} --help`,
      () => run(join(consumer, "node_modules", ".bin", name), ["--help"], consumer).split("\n")[0],
    );
  }
  writeFileSync(
    join(consumer, "lamp.mjs"),
    `export default { getSchema: () => ({ commands: { toggle: { description: "Switch the lamp." } } }), execute: () => ({ state: true, events: [] }) };\n`,
  );
  writeFileSync(
    join(consumer, "bin-check.mjs"),
    `import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
const client = new Client({ name: "verify", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await client.connect(new StdioClientTransport({ command: "node_modules/.bin/ignite-mcp", args: ["./lamp.mjs"] }));
const { tools } = await client.listTools();
const called = await client.callTool({ name: "toggle", arguments: {} });
await client.close();
if (tools.map((tool) => tool.name).join() !== "toggle" || called.isError) throw new Error("not served: " + JSON.stringify({ tools, called }));
console.log("ignite-mcp: lamp.mjs served over stdio, toggle listed and called");
`,
  );
  check("bin ignite-mcp serves a module's component over stdio", () =>
    run(process.execPath, ["bin-check.mjs"], consumer),
  );

  // --- (2c) the bridge alone, as a user's bundler builds it --------------------
  // The size gate bundles dist/ with its own settings; an application's bundler starts from the
  // installed package, with its defaults (esbuild: --bundle --minify --platform=browser). Both
  // must fit the same budget, so a figure in the docs is one a user meets.
  const [bridgeAlone] = loadEntrypoints().bundles;
  writeFileSync(join(consumer, "bridge-alone.mjs"), bridgeAlone.code);
  check("the bridge alone, bundled from the tarball for a browser, within its budget", () => {
    const { outputFiles } = buildSync({
      entryPoints: [join(consumer, "bridge-alone.mjs")],
      absWorkingDir: consumer,
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const bytes = gzipSync(outputFiles[0].contents, { level: 9 }).byteLength;
    const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
    if (bytes > bridgeAlone.budget) {
      throw new Error(`${kb(bytes)} min+gzip, over the gate's budget of ${kb(bridgeAlone.budget)}`);
    }
    return `${kb(bytes)} min+gzip (budget ${kb(bridgeAlone.budget)})`;
  });

  // --- (3) TypeScript types (NodeNext + Bundler) ----------------------------
  // One file per entrypoint: two subpaths may export the same name.
  const typeFiles = entries.map(([spec, { values, objects, types, peers: own }], i) => {
    const lines = [];
    const typeNames = Object.keys(types);
    if (typeNames.length) {
      lines.push(`import type { ${typeNames.join(", ")} } from ${JSON.stringify(spec)};`);
      lines.push(`export type Uses${i} = [${Object.values(types).join(", ")}];`);
      for (const [name, expr] of Object.entries(types)) {
        lines.push(`export declare const use${i}_${name}: ${expr};`);
      }
    }
    const names = [...values, ...objects];
    if (names.length) {
      lines.push(`import { ${names.join(", ")} } from ${JSON.stringify(spec)};`);
      lines.push(`export const values${i} = [${names.join(", ")}] as const;`);
    }
    const file = `types-check-${i}.ts`;
    writeFileSync(join(consumer, file), `${lines.join("\n")}\nexport {};\n`);
    return { file, edge: own.length > 0 };
  });
  // The core and dialects must type-check with no DOM and no Node types. An edge entrypoint's
  // declarations import its peers, whose own declarations need the DOM and Node globals every
  // application of those frameworks has: those are checked with them, and with skipLibCheck, as
  // their applications build (the AI SDK's declarations import `json-schema`, whose types it
  // does not install). Our declarations are still checked in full through the first group, which
  // shares every chunk, and each edge export is used in a file of our own. Not under Node10: the
  // peers' own declarations do not resolve there (the AI SDK's need exports-only subpaths).
  const groups = [
    { suffix: "", lib: ["ES2022"], types: [], files: typeFiles.filter((t) => !t.edge) },
    {
      suffix: ".edges",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      types: ["node"],
      files: typeFiles.filter((t) => t.edge),
    },
  ].filter((group) => group.files.length > 0);
  // Node10 is TypeScript's default for `module: commonjs`; it reads `typesVersions`, not exports.
  for (const [moduleResolution, module] of [
    ["NodeNext", "NodeNext"],
    ["Bundler", "ESNext"],
    ["Node10", "CommonJS"],
  ]) {
    for (const group of groups) {
      if (group.suffix && moduleResolution === "Node10") continue;
      const tsconfig = `tsconfig.${moduleResolution.toLowerCase()}${group.suffix}.json`;
      writeFileSync(
        join(consumer, tsconfig),
        JSON.stringify(
          {
            compilerOptions: {
              strict: true,
              noEmit: true,
              target: "ES2022",
              lib: group.lib,
              types: group.types,
              module,
              moduleResolution,
              // The MCP SDK's declarations default-import CommonJS modules, as its users allow.
              ...(group.suffix ? { esModuleInterop: true } : {}),
              skipLibCheck: group.suffix !== "",
            },
            files: group.files.map((t) => t.file),
          },
          null,
          2,
        ),
      );
      const what = group.suffix ? ", edge entrypoints" : "";
      check(`TypeScript types (moduleResolution ${moduleResolution}${what})`, () =>
        run(bin("tsc"), ["-p", tsconfig], consumer),
      );
    }
  }

  // --- (4) publint + attw (run from the repo with its own binaries) ---------
  check("publint", () => run(bin("publint"), ["--strict"], repo));
  check(`attw --pack . ${ATTW_FLAGS.join(" ")}`, () =>
    run(bin("attw"), ["--pack", ".", ...ATTW_FLAGS], repo),
  );
} catch (error) {
  failures += 1;
  process.stderr.write(`FAIL: ${/** @type {Error} */ (error).message}\n`);
}

if (failures > 0) {
  process.stderr.write(`\nverify-exports: ${failures} check(s) failed\n`);
  process.exit(1);
}
process.stdout.write("\nverify-exports: all checks passed\n");

function assertHelper() {
  return `function check(spec, mod, fns, objs) {
  for (const n of fns) {
    if (typeof mod[n] !== "function") throw new Error(spec + ": expected export '" + n + "' to be a function, got " + typeof mod[n]);
  }
  for (const n of objs) {
    if (typeof mod[n] !== "object" || mod[n] === null) throw new Error(spec + ": expected export '" + n + "' to be an object, got " + typeof mod[n]);
  }
  console.log(spec + ": ok (" + [...fns, ...objs].join(", ") + ")");
}`;
}
