/**
 * The wait tool of `provideWebMcp` in a real browser: Chromium with WebMCP on, playwright-core's
 * `page.webmcp` as the browser's agent, and the page's own agent (`executeTool` with a signal)
 * for a cancelled call. The test fails (it never skips) when Chromium is not installed.
 */
import { fileURLToPath } from "node:url";
import type { WebMcpToolResult } from "ignite-element/tools/webmcp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePage } from "../../../demo/web/bundle.js";
import { type PageServer, servePage } from "../../../demo/web/serve.js";
import { launchChromium } from "./webmcp-chromium.js";
import type { Fixture } from "./webmcp-fixture/oven-page.js";

// What the fixture page puts on `window`; `page.evaluate` callbacks run there.
declare const fixture: Fixture;

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

// A test of its own, so a missing Chromium is a failed test with the reason, not a skipped file.
it("has a real Chromium with WebMCP to run in", async () => {
  browser = await launchChromium();
}, 60_000);

/** The agent's call, its result checked to be a WebMCP tool result. */
async function call(page: Page, name: string, input: Record<string, unknown> = {}) {
  const result: unknown = await page.webmcp.callTool(name, input);
  expect(result).toMatchObject({ content: [{ type: "text", text: expect.any(String) }] });
  return result as WebMcpToolResult; // its shape was checked just above
}

const textOf = (result: WebMcpToolResult) => result.content.map((block) => block.text).join("\n");

describe("the wait tool, offered to the browser's agent", () => {
  let server: PageServer;
  let page: Page;
  beforeAll(async () => {
    if (!browser) throw new Error("Chromium did not launch: see the first test of this file");
    const script = await bundlePage(
      fileURLToPath(new URL("./webmcp-fixture/oven-page.ts", import.meta.url)),
    );
    server = await servePage({
      html: '<!doctype html><title>oven</title><script type="module" src="/page.js"></script>',
      script,
    });
    page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => "fixture" in window);
  }, 60_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it("is listed beside the commands, read-only", async () => {
    const tools = new Map((await page.webmcp.tools()).map((tool) => [tool.name, tool]));

    expect([...tools.keys()].sort()).toEqual(["preheat", "waitFor"]);
    expect(tools.get("waitFor")).toMatchObject({
      annotations: { readOnly: true },
      inputSchema: {
        type: "object",
        properties: { event: { enum: ["preheated", "doorOpened", "doorClosed", "baking"] } },
      },
    });
  });

  it("answers the agent's wait with the event the page's thermostat reports on a timer", async () => {
    const reporting = page.evaluate(() => fixture.preheatOnceWaited());

    const result = await call(page, "waitFor", { event: "preheated" });
    await reporting;

    expect(result.isError).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({
      waited: 'The event "preheated" happened.',
      snapshot: { temperature: 20, preheated: true, door: "closed" },
      events: [{ type: "preheated" }],
      available: ["bake", "preheat"],
    });
    // `bake` became available: the page registered it for the agent.
    expect((await page.webmcp.tools()).map((tool) => tool.name).sort()).toEqual([
      "bake",
      "preheat",
      "waitFor",
    ]);
    expect(await page.evaluate(() => fixture.held())).toBe(0);
  });

  it("answers the agent's other call while a wait waits", async () => {
    let waited = false;
    const waiting = call(page, "waitFor", { event: "doorOpened" }).finally(() => {
      waited = true;
    });
    await page.waitForFunction(() => fixture.held() === 2);

    const preheat = await call(page, "preheat", { target: 180 });

    expect(preheat.isError).toBeUndefined();
    expect(waited).toBe(false);
    await page.evaluate(() => fixture.openDoor());
    expect(JSON.parse(textOf(await waiting))).toMatchObject({
      waited: 'The event "doorOpened" happened.',
      snapshot: { temperature: 180, door: "open" },
    });
  });

  it("ends a wait the agent cancels, and releases the component", async () => {
    const { ended, held } = await page.evaluate(() => fixture.cancelledWait());

    // Chromium rejects the cancelled call with the signal's reason; the page's execute, told by
    // the signal it passed, stopped waiting.
    expect(ended).toBe("rejected the agent moved on");
    expect(held).toBe(0);
    expect(await page.evaluate(() => fixture.errors)).toEqual([]);
  });
});
