/**
 * The real browser of the WebMCP tests: Debian's Chromium, headless, with WebMCP on, driven by
 * playwright-core, whose `page.webmcp` lists and calls a page's tools as the browser's agent does.
 * Besides launching it: the one Chromium of a test file, a page of it opened at a served page (a
 * fixture bundled from the package source, or the demo), and the agent's call.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { WebMcpToolResult } from "ignite-element/tools/webmcp";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { bundlePage } from "../../../demo/web/bundle.js";
import { type PageServer, servePage } from "../../../demo/web/serve.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The oldest Chromium major these tests pass on (.ci/run reads this line). Debian bookworm's
 * 150 reports no tool annotations to the agent and answers a call to a tool withdrawn meanwhile
 * with `UnknownError`; 156 (bookworm-security) passes. Nothing between was available to try.
 */
export const CHROMIUM_MAJOR = 156;

const HOW = "`apt-get update && apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH";

/**
 * Launches Chromium; fails, saying how to install it, when it is not there or is older than
 * `CHROMIUM_MAJOR`. Never skips.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The WebMCP browser tests need Chromium ${CHROMIUM_MAJOR} or later at ${CHROMIUM}, and it is missing. Install it with ${HOW}.`,
    );
  }
  const browser = await launch();
  const version = browser.version();
  if (Number.parseInt(version, 10) < CHROMIUM_MAJOR) {
    await browser.close();
    throw new Error(
      `The WebMCP browser tests need Chromium ${CHROMIUM_MAJOR} or later (older ones lack parts of WebMCP the tests use), and ${CHROMIUM} is ${version}. Upgrade it with ${HOW}.`,
    );
  }
  return browser;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--enable-features=WebMCP",
    ],
  });
}

/**
 * The one Chromium of a test file, closed after its tests. It is launched by a test of its own,
 * so a missing Chromium is a failed test with the reason, not a skipped file: call this before
 * the file's other tests, and the function it returns only in the hooks and tests after it.
 */
export function chromiumForFile(): () => Browser {
  let launched: Browser | undefined;
  afterAll(async () => {
    await launched?.close();
  });
  it("has a real Chromium with WebMCP to run in", async () => {
    launched = await launchChromium();
  }, 60_000);
  return () => {
    if (!launched) throw new Error("Chromium did not launch: see the first test of this file");
    return launched;
  };
}

/** A page open in Chromium at a served page; `close` closes the page, then the server. */
export interface OpenPage {
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * A new page of `browser` at `server`'s page, once `ready` resolves there. Whatever it opened is
 * closed again when it fails, the server included.
 */
export async function openServedPage(
  browser: Browser,
  server: PageServer,
  ready: (page: Page) => Promise<unknown>,
): Promise<OpenPage> {
  let page: Page | undefined;
  const close = async () => {
    await page?.close();
    await server.close();
  };
  try {
    page = await browser.newPage();
    await page.goto(server.url);
    await ready(page);
    return { page, close };
  } catch (error) {
    await close().catch(() => {}); // the error to report is the one that stopped the opening
    throw error;
  }
}

/**
 * The fixture page `entry` (a module of webmcp-fixture/, bundled from the package source), served
 * under `title` and open in a new page of `browser` once it has put `fixture` on `window`.
 */
export async function openFixturePage(
  browser: Browser,
  entry: URL,
  { title }: { title: string },
): Promise<OpenPage> {
  const script = await bundlePage(fileURLToPath(entry));
  const server = await servePage({
    html: `<!doctype html><title>${title}</title><script type="module" src="/page.js"></script>`,
    script,
  });
  return openServedPage(browser, server, (page) => page.waitForFunction(() => "fixture" in window));
}

/** The agent's call, its result checked to be a WebMCP tool result. */
export async function call(page: Page, name: string, input: Record<string, unknown> = {}) {
  const result: unknown = await page.webmcp.callTool(name, input);
  // A text block first, whatever content blocks follow it.
  expect(result).toMatchObject({ content: expect.any(Array) });
  expect((result as { content: unknown[] }).content[0]).toEqual({
    type: "text",
    text: expect.any(String),
  });
  return result as WebMcpToolResult; // its shape was checked just above
}

/** A tool result's text, its blocks joined by newlines. */
export function textOf(result: WebMcpToolResult): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
