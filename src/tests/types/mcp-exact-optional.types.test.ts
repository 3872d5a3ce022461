import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

// docs/dialects/mcp.md's snippets, compiled as a project with `exactOptionalPropertyTypes` would
// compile them: the SDK's `CallToolRequest["params"]` (whose `arguments` may be `undefined`) goes
// into `handleToolCalls` without a cast.
const root = join(import.meta.dirname, "../../..");
// Beside the docs test's snippets, in the directory git ignores.
const out = join(import.meta.dirname, "../.snippets", `exact-optional-${process.pid}`);
const doc = readFileSync(join(root, "docs/dialects/mcp.md"), "utf8");
const snippets = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, index) => ({
  path: join(out, `mcp_${index + 1}.ts`),
  source: `${match[1] ?? ""}\nexport {};\n`,
}));

mkdirSync(out, { recursive: true });
for (const snippet of snippets) writeFileSync(snippet.path, snippet.source);
afterAll(() =>
  rmSync(join(import.meta.dirname, ".exact-optional"), { recursive: true, force: true }),
);

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
