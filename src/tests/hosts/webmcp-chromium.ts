/**
 * The real browser of the WebMCP tests: Debian's Chromium, headless, with WebMCP on, driven by
 * playwright-core, whose `page.webmcp` lists and calls a page's tools as the browser's agent does.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
