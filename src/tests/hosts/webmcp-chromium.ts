/**
 * The real browser of the WebMCP tests: Debian's Chromium, headless, with WebMCP on, driven by
 * playwright-core, whose `page.webmcp` lists and calls a page's tools as the browser's agent does.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches Chromium; fails, saying how to install it, when it is not there. Never skips. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The WebMCP browser tests need Chromium at ${CHROMIUM}, and it is missing. Install it with ` +
        "`apt-get update && apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH.",
    );
  }
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
