/**
 * Architecture rules for ignite-element. Run with `npm run check:arch`.
 * Test files (src/tests/**) are not checked by the tools/ layering rules.
 * @type {import('dependency-cruiser').IConfiguration}
 */
// Matches the bare specifier (when not installed) and the resolved path (when installed).
const PROVIDER_SDKS =
  "(^|node_modules/)(openai|@anthropic-ai/sdk|@modelcontextprotocol/sdk|@google/genai|ollama)(/|$)";
const TESTS = "^src/tests/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Circular imports are not allowed.",
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: "core-imports-only-leaf-modules",
      severity: "error",
      comment:
        "The pure core (manifest, route, errors, validation) imports only itself, types.ts and result.ts: never the shell, the fake dialect or a dialect.",
      from: { path: "^src/tools/(manifest|route|errors|validation|limits)\\.ts$" },
      to: {
        path: "^src/tools/",
        pathNot: "^src/tools/(types|result|validation|errors|manifest|limits)\\.ts$",
      },
    },
    {
      name: "dialects-no-runtime-or-validation",
      severity: "error",
      comment: "Dialects must not import igniteTools.ts or validation.ts.",
      from: { path: "^src/tools/dialects/" },
      to: { path: "^src/tools/(igniteTools|validation)\\.ts$" },
    },
    {
      name: "dialects-no-npm-packages",
      severity: "error",
      comment: "Dialects must not import any npm package.",
      from: { path: "^src/tools/dialects/" },
      to: {
        dependencyTypes: [
          "npm",
          "npm-dev",
          "npm-optional",
          "npm-peer",
          "npm-bundled",
          "npm-no-pkg",
          "npm-unknown",
          "unknown",
          "undetermined",
        ],
      },
    },
    {
      name: "tools-no-node-builtins",
      severity: "error",
      comment: "src/tools must stay runtime-neutral: no Node built-ins.",
      from: { path: "^src/tools/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "tools-no-node-prefixed",
      severity: "error",
      comment: "src/tools must stay runtime-neutral: no node:* imports (even unresolvable ones).",
      from: { path: "^src/tools/" },
      to: { path: "^node:" },
    },
    {
      name: "tools-no-provider-sdks",
      severity: "error",
      comment: "src/tools must not import provider SDKs.",
      from: { path: "^src/tools/" },
      to: { path: PROVIDER_SDKS },
    },
    {
      name: "only-validation-imports-ajv",
      severity: "error",
      comment: "Only src/tools/validation.ts may import ajv / ajv-formats.",
      from: { path: "^src/", pathNot: ["^src/tools/validation\\.ts$", TESTS] },
      to: { path: "(^|node_modules/)(ajv|ajv-formats)(/|$)" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "Imports in src/tools must resolve.",
      from: { path: "^src/tools/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/tests/" },
    includeOnly: undefined,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".d.ts", ".js", ".cjs", ".mjs", ".json"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
