import { defineConfig } from "tsup";

/**
 * One line per public subpath entrypoint. Keys are output paths under dist/
 * (without extension); add the matching "./tools/<name>" block to package.json
 * "exports" and a row to scripts/verify-exports.mjs when adding one.
 */
const entry = {
  "tools/index": "src/tools/index.ts",
  "tools/anthropic": "src/tools/dialects/anthropic.ts",
  "tools/openai": "src/tools/dialects/openai.ts",
  "tools/gemini": "src/tools/dialects/gemini.ts",
  "tools/mcp": "src/tools/dialects/mcp.ts",
  "tools/ollama": "src/tools/dialects/ollama.ts",
};

export default defineConfig({
  entry,
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  splitting: true,
  target: "es2022",
  platform: "neutral",
  outDir: "dist",
  external: ["ajv", "ajv-formats", /^ajv\//, /^ajv-formats\//],
  outExtension({ format }) {
    return { js: format === "cjs" ? ".cjs" : ".js" };
  },
});
