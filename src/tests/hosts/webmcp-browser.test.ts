/**
 * `provideWebMcp` in a real browser: Chromium with WebMCP on, a page bundled from the package
 * source, and playwright-core's `page.webmcp` as the browser's agent. The test fails (it never
 * skips) when Chromium is not installed.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveWebDemo } from "../../../demo/web/serve.js";
import {
  call,
  chromiumForFile,
  openFixturePage,
  openServedPage,
  textOf,
} from "./webmcp-chromium.js";
import type { Fixture } from "./webmcp-fixture/page.js";

// What the fixture page puts on `window`; `page.evaluate` callbacks run there.
declare const fixture: Fixture;

const browser = chromiumForFile();

async function names(page: Page): Promise<string[]> {
  return (await page.webmcp.tools()).map((tool) => tool.name).sort();
}

describe("a page's component, offered to the browser's agent", () => {
  let page: Page;
  let close = async () => {};
  beforeAll(async () => {
    const entry = new URL("./webmcp-fixture/page.ts", import.meta.url);
    ({ page, close } = await openFixturePage(browser(), entry, { title: "fixture" }));
  }, 60_000);
  afterAll(() => close());

  it("lists every available command, with what the agent needs to call it", async () => {
    const tools = new Map((await page.webmcp.tools()).map((tool) => [tool.name, tool]));
    // No `boost`: it is gated and the heating is off. `set limit` is offered under a safe name.
    expect([...tools.keys()].sort()).toEqual([
      "chart",
      "schedule.clear",
      "setMode",
      "setTarget",
      expect.stringMatching(/^set_limit_[0-9a-z]+$/),
      "status",
    ]);
    expect(tools.get("setTarget")).toMatchObject({
      description: "Target temperature in °C.",
      inputSchema: {
        type: "object",
        properties: { value: { type: "number", minimum: 10, maximum: 30 } },
        required: ["value"],
      },
    });
    expect(tools.get("status")).toMatchObject({
      description: 'Runs the page\'s "status" command.',
      annotations: { readOnly: true },
    });
    expect(tools.get("schedule.clear")?.annotations).toMatchObject({ consequential: true });
    // schedule.clear has a title: Chromium 156 registers the tool with it, and its agent interface
    // does not report titles (only name, description, inputSchema and annotations).
    expect(Object.keys(tools.get("schedule.clear") ?? {}).sort()).toEqual([
      "annotations",
      "description",
      "inputSchema",
      "name",
    ]);
  });

  it("answers invalid input with the issues, as a result the agent reads", async () => {
    const tooHot = await call(page, "setTarget", { value: 35 });
    expect(tooHot.isError).toBe(true);
    expect(textOf(tooHot)).toMatch(/^Error \(InvalidInput\): Invalid input for "setTarget"/);
    expect(textOf(tooHot)).toContain('"keyword":"maximum"');
    const unwrapped = await call(page, "setTarget", { celsius: 22 });
    expect(textOf(unwrapped)).toMatch(/^Error \(InvalidInput\): .*\{ \\?"value\\?": \.\.\. \}/);
  });

  it("offers a gated command only once it is available, and registers it after the call that made it so", async () => {
    await expect(page.webmcp.callTool("boost", {})).rejects.toThrow(/No WebMCP tool named "boost"/);
    const heating = await call(page, "setMode", { value: "heat" });
    expect(heating.isError).toBeUndefined();
    expect(JSON.parse(textOf(heating))).toEqual({
      snapshot: { mode: "heat", celsius: 20, locked: false },
      events: [{ type: "setMode" }],
    });
    expect(await names(page)).toContain("boost");
  });

  it("answers a tool that became unavailable unannounced as Unavailable, and then withdraws it", async () => {
    await page.evaluate(() => fixture.lockQuietly());
    expect(await names(page)).toContain("boost");
    const refused = await call(page, "boost");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error \(Unavailable\): /);
    expect(await names(page)).not.toContain("boost");
  });

  it("follows changes the page announces, without any call", async () => {
    await page.evaluate(() => fixture.unlock());
    expect(await names(page)).toContain("boost");
    expect((await call(page, "boost")).isError).toBeUndefined();
    await page.evaluate(() => fixture.setMode("off"));
    expect(await names(page)).not.toContain("boost");
    await page.evaluate(() => fixture.setMaximum(25));
    const setTarget = (await page.webmcp.tools()).find((tool) => tool.name === "setTarget");
    expect(setTarget?.inputSchema).toMatchObject({ properties: { value: { maximum: 25 } } });
  });

  it("runs calls the browser makes at the same time one after another", async () => {
    const results = await Promise.all([
      call(page, "setTarget", { value: 21 }),
      call(page, "setTarget", { value: 22 }),
      call(page, "status"),
    ]);
    expect(results.map((result) => result.isError)).toEqual([undefined, undefined, undefined]);
    expect(await page.evaluate(() => fixture.overlapped())).toBe(false);
  });

  it("executed each accepted call exactly once, and nothing it refused", async () => {
    const executed = await page.evaluate(() => fixture.executed);
    expect(executed.slice(0, 2)).toEqual([
      { command: "setMode", input: "heat" },
      { command: "boost" },
    ]);
    expect(executed.slice(2)).toHaveLength(3);
    expect(executed.slice(2)).toEqual(
      expect.arrayContaining([
        { command: "setTarget", input: 21 },
        { command: "setTarget", input: 22 },
        { command: "status" },
      ]),
    );
    expect(await page.evaluate(() => fixture.errors)).toEqual([]);
  });

  it("asks the visitor with the page's dialog before a destructive call, and runs it once they accept", async () => {
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    const before = await page.evaluate(() => fixture.executed.length);

    const result = await call(page, "schedule.clear");

    expect(result.isError).toBeUndefined();
    expect(asked).toEqual(["Let the assistant run schedule.clear?"]);
    const ran = await page.evaluate(() => fixture.executed.map((run) => run.command));
    expect(ran.slice(before)).toEqual(["schedule.clear"]);
  });

  it("answers Denied, running nothing, when the visitor dismisses the dialog", async () => {
    page.once("dialog", (dialog) => void dialog.dismiss());
    const before = await page.evaluate(() => fixture.executed.length);

    const result = await call(page, "schedule.clear");

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("was denied: the visitor declined it");
    expect(await page.evaluate(() => fixture.executed.length)).toBe(before);
  });

  it("hands the agent a command's image and file as MCP content blocks after the text", async () => {
    const result = await call(page, "chart");
    expect(result.content.slice(1)).toEqual([
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "file:///history.csv", mimeType: "text/csv", text: "hour,celsius\n9,20" },
      },
    ]);
    expect(textOf(result)).toMatch(/^\{"snapshot":\{"mode":/);
  });

  it("withdraws every tool when stopped", async () => {
    await page.evaluate(() => fixture.stop());
    expect(await page.webmcp.tools()).toEqual([]);
  });
});

describe("npm run demo:web's page", () => {
  let page: Page;
  let close = async () => {};
  beforeAll(async () => {
    const ready = (opened: Page) => opened.locator("ignite-thermostat [data-target]").waitFor();
    ({ page, close } = await openServedPage(browser(), await serveWebDemo({ port: 0 }), ready));
  }, 60_000);
  afterAll(() => close());

  const activity = () => page.locator("ignite-thermostat [data-activity] li").allTextContents();

  it("offers the thermostat's commands, and says so on the page", async () => {
    expect(await names(page)).toEqual(["factoryReset", "setMode", "setTarget", "status"]);
    const tools = new Map((await page.webmcp.tools()).map((tool) => [tool.name, tool]));
    expect(tools.get("factoryReset")?.annotations).toMatchObject({ consequential: true });
    expect(tools.get("status")?.annotations).toMatchObject({ readOnly: true });
    await expect
      .poll(() => page.locator("ignite-thermostat [data-webmcp]").textContent())
      .toContain("offered to this browser's agent through WebMCP");
  });

  it("shows what the agent did, and offers boost once a person switches the heating on", async () => {
    expect((await call(page, "setTarget", { value: 21.5 })).isError).toBeUndefined();
    expect(await page.locator("ignite-thermostat [data-target]").textContent()).toBe("21.5");
    await page.getByRole("button", { name: "Heat" }).click();
    expect(await names(page)).toContain("boost");
    const boost = await call(page, "boost", {});
    expect(JSON.parse(textOf(boost))).toMatchObject({
      snapshot: { mode: "heat", boostMinutes: 30 },
      events: [{ type: "boostStarted", payload: { minutes: 30 } }],
    });
    expect(await names(page)).not.toContain("boost"); // a boost is running
    expect(await activity()).toEqual(["setTarget 21.5", 'boost {"minutes":30}']);
  });
});
