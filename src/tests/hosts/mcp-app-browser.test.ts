/**
 * The view in a real host page in real Chromium: the page connects to `serveMcpHttp` on
 * 127.0.0.1 with the SDK v2 client, renders the view a tool links to in a sandboxed iframe and
 * bridges it with the extension's `AppBridge`, as an MCP Apps host does. The element shows the
 * state of the model's call; a click in it runs its command once on the server, and the model is
 * told.
 */
import { fileURLToPath } from "node:url";
import { mcpAppView } from "ignite-element/tools/mcp-app";
import { type McpHttpServer, serveMcpHttp } from "ignite-element/tools/mcp-http";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePage } from "../../../demo/web/bundle.js";
import { type PageServer, servePage } from "../../../demo/web/serve.js";
import { thermostat as thermostatWithRuns } from "./mcp-app-fixture/thermostat.js";
import { CHROMIUM } from "./webmcp-chromium.js";

const fixture = (name: string) =>
  fileURLToPath(new URL(`./mcp-app-fixture/${name}`, import.meta.url));

const { component: thermostat, ran } = thermostatWithRuns();

let browser: Browser | undefined;
let page: PageServer | undefined;
let mcp: McpHttpServer | undefined;

beforeAll(async () => {
  page = await servePage({
    html: '<!doctype html><meta charset="utf-8"><title>host</title><script type="module" src="/page.js"></script>',
    script: await bundlePage(fixture("host.ts")),
  });
  const view = await mcpAppView({ element: "thermo-stat", module: fixture("thermo-stat.js") });
  // The host page is another origin: it is allowed, and the browser's CORS checks are off below
  // (the server answers no preflight; a host's own backend, not a page, usually reaches it).
  mcp = await serveMcpHttp(thermostat, {
    port: 0,
    view,
    allowedOrigins: [new URL(page.url).origin],
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-web-security"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await page?.close();
});

describe("an MCP App view in a host page in Chromium", () => {
  it("shows the model's result, runs a click once on the server, and tells the model", async () => {
    if (!browser || !page || !mcp) throw new Error("not started");
    const tab = await browser.newPage();
    await tab.goto(`${page.url}?mcp=${encodeURIComponent(mcp.url.href)}`);
    await tab.waitForFunction(() => window.ready === true || window.failed !== undefined, null, {
      timeout: 20_000,
    });
    expect(await tab.evaluate(() => window.failed)).toBeUndefined();
    expect(await tab.locator("iframe").getAttribute("sandbox")).toBe("allow-scripts");

    const view = tab.frameLocator("iframe");
    await expect.poll(() => view.locator("output").textContent()).toBe("22 °C");
    await view.locator("button").click();
    await expect.poll(() => view.locator("output").textContent()).toBe("22.5 °C");

    expect(ran).toEqual([22, 22.5]);
    expect(await tab.evaluate(() => window.told)).toEqual([
      {
        content: [
          {
            type: "text",
            text: 'The person ran setTarget {"celsius":22.5} in the view. The state is now {"target":22.5}.',
          },
        ],
      },
    ]);
  }, 60_000);
});
