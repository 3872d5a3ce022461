import { execFile } from "node:child_process";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { misprinted, typeErrors, writeSnippets } from "../docs/run.js";
import { snippetsOf } from "../docs/snippets.js";
import { node22 } from "../hosts/node22.js";
import { projectWith } from "../setup/packed.js";

// AI SDK 7 (`ai@7`) is ESM only and needs Node 22, while this repository's suite runs on Node 20
// with `ai@6` (its devDependency `ai`). So AI SDK 7 is tested as an application meets it: the
// packed package installed in a project of its own beside `ai` at the version of the `ai7`
// devDependency (an npm alias), type-checked there under a strict reader's tsconfig, and run with
// the Node 22 that scripts/node22.mjs installs. What runs: ai-sdk7-app/scenario.ts (generateText
// with ai@7's MockLanguageModelV4, calls through the bridge, the approval round trip by the tools'
// needsApproval and by AI SDK 7's toolApproval, a rejection, streamText's preliminary results),
// and the ```ts ai@7 blocks of docs/frameworks/ai-sdk.md, which must print what the page says.
const root = join(import.meta.dirname, "../../..");
const page = "docs/frameworks/ai-sdk.md";
const snippets = snippetsOf(page, readFileSync(join(root, page), "utf8")).filter(
  (snippet) => snippet.under === "ai@7",
);
const execFileAsync = promisify(execFile);

let consumer = "";

beforeAll(() => {
  consumer = projectWith(inject("tarball"), ["ai=ai7", "zod", "@types/node"]);
  copyFileSync(join(import.meta.dirname, "ai-sdk7-app/scenario.ts"), join(consumer, "scenario.ts"));
  writeSnippets(consumer, snippets);
}, 240_000);

afterAll(() => {
  if (consumer !== "") rmSync(consumer, { recursive: true, force: true });
}, 60_000);

/** Runs a TypeScript file of the project, transpiled, with Node 22: what it printed. */
async function run22(file: string): Promise<string> {
  const js = ts.transpileModule(readFileSync(join(consumer, file), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const script = join(consumer, file.replace(/\.ts$/, ".run.js"));
  writeFileSync(script, js);
  const { stdout } = await execFileAsync(node22(), [script], { cwd: consumer, timeout: 50_000 });
  return stdout;
}

describe("aiSdkTools on AI SDK 7 (Node 22)", () => {
  it("installs ai@7 beside the packed package, whose peer range takes it", () => {
    const installed = JSON.parse(
      readFileSync(join(consumer, "node_modules/ai/package.json"), "utf8"),
    ) as { version: string };
    expect(installed.version).toMatch(/^7\./);
  });

  it("type-checks the application and the page's AI SDK 7 examples against ai@7's types", () => {
    const files = ["scenario.ts", ...snippets.map((snippet) => `${snippet.name}.ts`)];
    const errors = typeErrors(
      consumer,
      files.map((file) => join(consumer, file)),
      snippets,
    );
    if (errors.length > 0) throw new Error(errors.join("\n"));
  }, 120_000);

  describe("the application", () => {
    let report: Record<string, Record<string, unknown>> = {};
    beforeAll(async () => {
      report = JSON.parse(await run22("scenario.ts"));
    }, 60_000);

    it("runs on Node 22", () => {
      expect(report.node).toMatch(/^22\./);
    });

    it.each(["needsApproval", "toolApproval"])(
      "holds the call the policy asks about until a person approves it (by %s), then runs it once",
      (how) => {
        const trip = report[how];
        // The first generateText: the call to `clear` held, the others answered through the bridge.
        expect(trip?.held).toEqual({ requested: ["clear"], items: ["milk", "eggs", "tea"] });
        expect(trip?.outputs).toEqual([
          ["add", { ok: false, error: expect.objectContaining({ kind: "InvalidInput" }) }],
          ["add", { ok: true, snapshot: ["milk", "eggs", "tea"], events: [] }],
          [
            "ping",
            { ok: false, error: expect.objectContaining({ kind: "Denied", reason: "no pings" }) },
          ],
        ]);
        // The second: the approved call ran, once, and the model read every answer.
        expect(trip?.text).toBe("The list is empty.");
        expect(trip?.items).toEqual([]);
        expect(trip?.ran).toEqual(["add", "clear"]);
        expect(trip?.read).toEqual([
          ["c2", { type: "text", value: '{"snapshot":["milk","eggs","tea"],"events":[]}' }],
          ["c4", { type: "error-text", value: expect.stringContaining("Error (Denied)") }],
          ["c3", { type: "text", value: '{"snapshot":[],"events":[]}' }],
        ]);
        // The policy was asked once per call that resolved (not the one with invalid input), though
        // AI SDK 7 asks again when it reads the approval back.
        expect(trip?.asked).toEqual(["c2", "c3", "c4"]);
        expect(trip?.turns).toBe(3);
      },
    );

    it("runs nothing the person rejected, and the model reads the AI SDK's own denial", () => {
      const trip = report.rejected;
      expect(trip?.text).toBe("I was not allowed to clear it.");
      expect(trip?.items).toEqual(["milk", "eggs", "tea"]);
      expect(trip?.ran).toEqual(["add"]);
      expect(trip?.read).toContainEqual(["c3", { type: "execution-denied", reason: "not today" }]);
    });

    it("streams a command's progress as preliminary results, then the final output", () => {
      const final = { ok: true, snapshot: { celsius: 100 }, events: [] };
      expect(report.preliminary).toEqual({
        parts: [
          [true, { running: true, progress: { progress: 40, total: 100 }, logs: [] }],
          [true, { running: true, progress: { progress: 100, total: 100 }, logs: [] }],
          [true, final],
          [false, final],
        ],
        text: "Boiling.",
        title: "Boil water",
      });
    });

    it("sends content parts as AI SDK 7's own file entries, which it takes without a deprecation warning", () => {
      expect(report.content).toEqual({
        read: [
          {
            type: "content",
            value: [
              { type: "text", text: '{"snapshot":{"drawn":true},"events":[]}' },
              {
                type: "file",
                data: { type: "data", data: "iVBORw0KGgo=" },
                mediaType: "image/png",
              },
              {
                type: "file",
                data: { type: "data", data: "JVBERi0xLjQK" },
                mediaType: "application/pdf",
                filename: "q3.pdf",
              },
            ],
          },
        ],
        warned: [],
      });
    });
  });

  it("loads from CommonJS too: Node 22 requires ai@7's ES module", async () => {
    const { stdout } = await execFileAsync(
      node22(),
      ["-e", 'console.log(typeof require("ignite-element/tools/ai-sdk").aiSdkTools)'],
      { cwd: consumer, timeout: 30_000 },
    );
    expect(stdout.trim()).toBe("function");
  });

  it("has examples on its page", () => {
    expect(snippets.length).toBeGreaterThan(0);
  });

  it.each(snippets.map((snippet) => [snippet.name, snippet] as const))(
    "%s runs under Node 22 and prints what its page says",
    async (_name, snippet) => {
      const wrong = await misprinted(consumer, snippet, node22());
      if (wrong.length > 0)
        throw new Error(`printed output differs from the page:\n${wrong.join("\n")}`);
    },
    60_000,
  );
});
