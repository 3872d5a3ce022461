/**
 * The wait tool of `provideWebMcp` in a real browser: Chromium with WebMCP on, playwright-core's
 * `page.webmcp` as the browser's agent, and the page's own agent (`executeTool` with a signal)
 * for a cancelled call. The test fails (it never skips) when Chromium is not installed.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, chromiumForFile, openFixturePage, textOf } from "./webmcp-chromium.js";
import type { Fixture } from "./webmcp-fixture/oven-page.js";

// What the fixture page puts on `window`; `page.evaluate` callbacks run there.
declare const fixture: Fixture;

const browser = chromiumForFile();

describe("the wait tool, offered to the browser's agent", () => {
  let page: Page;
  let close = async () => {};
  beforeAll(async () => {
    const entry = new URL("./webmcp-fixture/oven-page.ts", import.meta.url);
    ({ page, close } = await openFixturePage(browser(), entry, { title: "oven" }));
  }, 60_000);
  afterAll(() => close());

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
