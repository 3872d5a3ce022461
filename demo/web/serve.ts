/**
 * Serving a page and its bundled script from `node:http`, on 127.0.0.1 by default: WebMCP needs a
 * secure context, and `http://127.0.0.1` is one.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { bundlePage } from "./bundle.js";

export interface PageServer {
  /** The page's address, e.g. `http://127.0.0.1:5175/`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface PageOptions {
  /** The page: an HTML document whose script is `<script type="module" src="/page.js">`. */
  html: string;
  /** The script served as `/page.js`. */
  script: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

/** Serves `html` at `/` and `script` at `/page.js`; anything else is a 404. */
export async function servePage({
  html,
  script,
  port = 0,
  host = "127.0.0.1",
}: PageOptions): Promise<PageServer> {
  const files: Record<string, [string, string]> = {
    "/": ["text/html; charset=utf-8", html],
    "/page.js": ["text/javascript; charset=utf-8", script],
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://page").pathname];
    if (!file) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    response.writeHead(200, { "content-type": file[0], "cache-control": "no-store" }).end(file[1]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo; // a TCP server's address is an AddressInfo
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The web demo: the thermostat page, its script bundled from the package source. */
export async function serveWebDemo(options: { port?: number; host?: string } = {}) {
  return servePage({
    html: readFileSync(here("index.html"), "utf8"),
    script: await bundlePage(here("page.ts")),
    ...options,
  });
}
