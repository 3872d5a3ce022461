/**
 * Architecture rules, by folder: a file is checked by the layer it stands in. Run with
 * `npm run check:arch`. The layers of src/tools, inside out:
 *
 *   core/        pure: the manifest, resolving a call, errors, limits, the ports (tracing, ledger)
 *   validation/  the validator port, its cache, and one adapter per validator library
 *   wire/        pure: what every provider format shares (names, strict mode, arguments, text)
 *   dialects/    pure format translators, one per provider
 *   bridge/      igniteTools and its call pipeline: the one place `execute()` runs; names no
 *                capability, which each joins the pipeline as a layer from a room of its own:
 *   approval/      approval and exactly-once (the policy, pending calls, decisions, the ledger)
 *   live/          live state (observe, until) and the model's wait
 *   telemetry/     OpenTelemetry-shaped spans of the units the bridge and the loop report
 *   loop/        the agent loop, streamed turns, pause and resume, change notes
 *   compat/      the option forms before layers, on Node (chosen by `#compat`)
 *   testing/     the fake dialect and the scripted model
 *   adapters/    framework edges (AI SDK, Agents SDK, LangChain, OpenTelemetry)
 *   sources/     components made from real libraries (XState, Redux)
 *   hosts/       serving a component (MCP server: the rooms of hosts/mcp/; WebMCP)
 *   ledgers/     durable CallLedgers on the application's own store client (Redis, PostgreSQL)
 *
 * Arrows point only down this list (a room may also import its own folder): the rooms of
 * capabilities import the bridge, never the bridge them, and never one another.
 *
 * Which npm packages a file may import comes from entrypoints.json: an edge imports only the
 * optional peers its own entrypoint declares.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const { entrypoints, bins = [] } = require("./entrypoints.json");
/** The sources that run only on Node: node-platform entrypoints and the commands. */
const NODE_ONLY = [...entrypoints.filter((entry) => entry.platform === "node"), ...bins];

const TOOLS = "^src/tools/";
const layer = (...names) => `^src/tools/(${names.join("|")})/`;
const NPM = [
  "npm",
  "npm-dev",
  "npm-optional",
  "npm-peer",
  "npm-bundled",
  "npm-no-pkg",
  "npm-unknown",
  "unknown",
  "undetermined",
];
/** `text` as a regular expression matches it, literally. */
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const exactly = (path) => `^${escaped(path)}$`;
const pkg = (...names) => `(^|node_modules/)(${names.map(escaped).join("|")})(/|$)`;

/** Who may import which layers (besides its own). */
const BELOW_ROOMS = ["core", "validation", "wire", "bridge"];
const ALLOWED = {
  core: ["core", "validation/(port|cache)\\.ts$"],
  validation: ["core", "validation"],
  wire: ["core", "wire"],
  dialects: ["core", "wire", "dialects"],
  bridge: ["core", "validation", "wire", "bridge"],
  approval: [...BELOW_ROOMS, "approval"],
  live: [...BELOW_ROOMS, "live"],
  content: [...BELOW_ROOMS, "content"],
  telemetry: [...BELOW_ROOMS, "telemetry"],
  loop: [...BELOW_ROOMS, "approval", "live", "loop"],
  compat: [...BELOW_ROOMS, "approval", "live", "telemetry", "loop", "compat"],
  testing: ["core", "bridge", "loop", "testing"],
  adapters: [...BELOW_ROOMS, "dialects", "approval", "live", "telemetry", "compat", "adapters"],
  sources: ["core", "sources"],
  hosts: [...BELOW_ROOMS, "dialects", "approval", "live", "compat", "hosts"],
  // The ledger port and its entry types are the core's; the client is the application's.
  ledgers: ["core", "ledgers"],
};

const layerRules = Object.entries(ALLOWED).map(([name, allowed]) => ({
  name: `${name}-imports-only-${allowed.length}-layers`,
  severity: "error",
  comment: `${name}/ may import only ${allowed.join(", ")}.`,
  from: { path: layer(name) },
  to: { path: TOOLS, pathNot: allowed.map((target) => `^src/tools/${target}`) },
}));

/** The one validator library each validation adapter wraps. */
const VALIDATORS = {
  "src/tools/validation/ajv.ts": ["ajv", "ajv-formats"],
  "src/tools/validation/cfworker.ts": ["@cfworker/json-schema"],
};
const EDGES = Object.fromEntries(
  [...entrypoints, ...bins]
    .filter((entry) => entry.peers)
    .map((entry) => [entry.source, Object.keys(entry.peers)]),
);
/**
 * Folders of rooms: an edge that grew past one file is a folder, one room per concern, headed by
 * the entrypoints whose sources are in it (issue 43). Every room in it may import the optional
 * peers those entrypoints declare; each entry file still imports only its own.
 */
const ROOM_FOLDERS = ["src/tools/hosts/mcp/"];
const peersIn = (folder) => [
  ...new Set(
    entrypoints
      .filter((entry) => entry.source.startsWith(folder))
      .flatMap((entry) => Object.keys(entry.peers ?? {})),
  ),
];
/** Who may import npm packages (the files `path` matches), and which. */
const MAY_IMPORT = [
  ...Object.entries({ ...VALIDATORS, ...EDGES }).map(([source, packages]) => ({
    name: source,
    path: exactly(source),
    packages,
  })),
  ...ROOM_FOLDERS.map((folder) => ({
    name: `${folder}*`,
    path: `^${escaped(folder)}[^/]+$`,
    packages: peersIn(folder),
  })),
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Circular imports are not allowed.",
      from: { path: TOOLS },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "npm-only-where-declared",
      severity: "error",
      comment:
        "Only a validation adapter imports its validator library, and only an edge entrypoint imports its declared optional peers; everything else imports no npm package.",
      from: { path: TOOLS, pathNot: MAY_IMPORT.map(({ path }) => path) },
      to: { dependencyTypes: NPM },
    },
    ...MAY_IMPORT.map(({ name, path, packages }) => ({
      name: `only-its-own-packages:${name}`,
      severity: "error",
      comment: `${name} imports only ${packages.join(", ")}.`,
      from: { path },
      to: { dependencyTypes: NPM, pathNot: pkg(...packages) },
    })),
    {
      name: "no-node-builtins",
      severity: "error",
      comment:
        "src/tools stays runtime-neutral (browsers, workers): no Node built-ins, except in an entrypoint whose platform is node and in a command.",
      from: { path: TOOLS, pathNot: NODE_ONLY.map((e) => exactly(e.source)) },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "no-node-prefixed",
      severity: "error",
      comment: "No node:* imports in runtime-neutral code (even unresolvable ones).",
      from: { path: TOOLS, pathNot: NODE_ONLY.map((e) => exactly(e.source)) },
      to: { path: "^node:" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "Imports in src/tools must resolve.",
      from: { path: TOOLS },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/tests/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".d.ts", ".js", ".cjs", ".mjs", ".json"],
    },
  },
};
