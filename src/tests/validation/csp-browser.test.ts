/**
 * The browser default, in a real browser under a Content Security Policy without `unsafe-eval`
 * (what every Manifest V3 extension has): an app bundled the way a bundler bundles it for the
 * browser validates with the CSP-safe adapter, while the same app with ajv cannot even read its
 * schema there. Chromium, driven by playwright-core, loads the bundle from 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEntrypoints } from "../../../scripts/entrypoints.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CSP = "script-src 'self'";

// The app: one command with a bounded input, called once wrongly and once rightly. It reports
// what it saw on `window.report`, or the error that stopped it.
const app = (validatorImport: string, validatorOption: string) => `
import { igniteTools } from "ignite-element/tools";
import { openai } from "ignite-element/tools/openai";
${validatorImport}
const lamp = {
  getSchema: () => ({ commands: { dim: { input: { type: "object", properties: {
    level: { type: "integer", minimum: 0, maximum: 100, default: 50 } } } } } }),
  execute: (_command, input) => ({ state: { dimmed: input }, events: [] }),
};
const misspelled = { ...lamp, getSchema: () => ({ commands: { dim: { input: { minimun: 1 } } } }) };
(async () => {
  try {
    const tools = igniteTools(lamp, openai${validatorOption});
    const wrong = await tools.invoke({ name: "dim", input: { level: 500 } });
    const right = await tools.invoke({ name: "dim", input: {} });
    let unknownKeyword = "";
    try { igniteTools(misspelled, openai${validatorOption}).manifest(); } catch (error) { unknownKeyword = String(error); }
    window.report = { wrong: wrong.ok ? "ok" : wrong.error.message, right: right.ok ? right.value.snapshot : right.error.message, unknownKeyword };
  } catch (error) {
    window.report = { stopped: String(error) };
  }
})();
`;

// Public names resolve to the sources, and `#…` imports to their browser module, as
// scripts/check-size.mjs bundles the built package.
const { entrypoints, internal } = loadEntrypoints();
const browserModules: Plugin = {
  name: "browser-modules",
  setup(bundle) {
    bundle.onResolve({ filter: /^#/ }, ({ path }) => {
      const item = internal.find((candidate) => candidate.import === path);
      const chosen = item?.conditions.browser;
      return chosen ? { path: `${ROOT}${chosen.source}` } : undefined;
    });
  },
};

async function bundle(code: string): Promise<string> {
  const result = await build({
    stdin: { contents: code, resolveDir: ROOT, loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    logLevel: "silent",
    alias: Object.fromEntries(
      entrypoints.map((entry) => [
        `ignite-element${entry.subpath.slice(1)}`,
        `${ROOT}${entry.source}`,
      ]),
    ),
    plugins: [browserModules],
  });
  return result.outputFiles[0]?.text ?? "";
}

describe("in a browser whose Content Security Policy forbids eval", () => {
  const scripts = new Map<string, string>();
  let server: Server;
  let origin = "";
  let browser: Browser;

  beforeAll(async () => {
    scripts.set("/default.js", await bundle(app("", "")));
    scripts.set(
      "/ajv.js",
      await bundle(
        app(
          'import { ajvValidator } from "ignite-element/tools/ajv";',
          ", { validator: ajvValidator() }",
        ),
      ),
    );
    server = createServer((request, response) => {
      const script = scripts.get(request.url ?? "");
      if (script !== undefined) {
        response.writeHead(200, { "content-type": "text/javascript" }).end(script);
        return;
      }
      const src = new URL(request.url ?? "/", "http://localhost").searchParams.get("app");
      response
        .writeHead(200, { "content-type": "text/html", "content-security-policy": CSP })
        .end(`<!doctype html><script src="/${src}.js"></script>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function reportOf(name: string): Promise<Record<string, unknown>> {
    const page = await browser.newPage();
    await page.goto(`${origin}/?app=${name}`);
    await page.waitForFunction(() => Reflect.has(globalThis, "report"), undefined, {
      timeout: 30_000,
    });
    const report = await page.evaluate(() => Reflect.get(globalThis, "report"));
    await page.close();
    return report;
  }

  it("the default validator of a browser bundle carries no ajv and no code generation", () => {
    const code = scripts.get("/default.js") ?? "";
    for (const needle of ["ajv", "new Function", "Function(", "eval("]) {
      expect(code).not.toContain(needle);
    }
  });

  it("validates, refuses, fills defaults and reads schemas with the default validator", async () => {
    expect(await reportOf("default")).toEqual({
      wrong:
        'Invalid input for "dim": /level 500 is greater than 100. Fix the input and call again.',
      right: { dimmed: { level: 50 } },
      unknownKeyword: expect.stringContaining(
        'TypeError: Command "dim" has an invalid input schema: unknown keyword "minimun"',
      ),
    });
  }, 60_000);

  it("while ajv, which generates code, cannot even read a schema there: igniteTools throws (the policy is on)", async () => {
    expect(await reportOf("ajv")).toEqual({
      stopped: expect.stringMatching(
        /^TypeError: Command "dim" has an invalid input schema: .*'unsafe-eval' is not an allowed source/,
      ),
    });
  }, 60_000);
});
