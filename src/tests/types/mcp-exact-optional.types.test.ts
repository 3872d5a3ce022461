import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

// The MCP snippets of docs/dialects/mcp.md and docs/serving.md, compiled as a project with `exactOptionalPropertyTypes` would
// compile them: the SDK's `CallToolRequest["params"]` (whose `arguments` may be `undefined`) goes
// into `handleToolCalls` without a cast; the SDK v2 snippets of serving.md take the same flag.
const root = join(import.meta.dirname, "../../..");
// Beside the docs test's snippets, in the directory git ignores.
const out = join(import.meta.dirname, "../.snippets", `exact-optional-${process.pid}`);
const snippets = ["dialects/mcp.md", "serving.md"].flatMap((page) =>
  [...readFileSync(join(root, "docs", page), "utf8").matchAll(/```ts(?: no-run)?\n([\s\S]*?)```/g)]
    .filter((match) => match[1]?.includes("@modelcontextprotocol/"))
    .map((match, index) => ({
      path: join(out, `${page.replace(/\W/g, "_")}_${index + 1}.ts`),
      source: `${match[1] ?? ""}\nexport {};\n`,
    })),
);

mkdirSync(out, { recursive: true });
for (const snippet of snippets) writeFileSync(snippet.path, snippet.source);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the MCP doc snippets under exactOptionalPropertyTypes", () => {
  it("type-check without a cast", () => {
    expect(snippets.length).toBeGreaterThan(1);
    const config = ts.readConfigFile(join(root, "tsconfig.json"), (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const program = ts.createProgram(
      snippets.map((snippet) => snippet.path),
      { ...options, exactOptionalPropertyTypes: true },
    );
    // Only the snippets are the user's code; the library is checked by its own build.
    const diagnostics = snippets.flatMap((snippet) => {
      const file = program.getSourceFile(snippet.path);
      return file ? ts.getPreEmitDiagnostics(program, file) : [];
    });
    expect(
      diagnostics.map(
        (diagnostic) =>
          `${relative(out, diagnostic.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
      ),
    ).toEqual([]);
  }, 60_000);
});
