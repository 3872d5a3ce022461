/**
 * `npm run demo:web`: serves a page whose thermostat offers its commands to the browser's agent
 * through WebMCP, and says how to try it. `PORT` and `HOST` choose where (default
 * 127.0.0.1:5175).
 */
import { serveWebDemo } from "./serve.js";

const server = await serveWebDemo({
  port: Number(process.env.PORT ?? 5175),
  host: process.env.HOST ?? "127.0.0.1",
});
process.stdout.write(
  [
    `WebMCP demo: ${server.url}`,
    "",
    "Open it in a Chrome with WebMCP on (Chromium 156 is tested): start Chrome with",
    "  --enable-features=WebMCP",
    'or turn on "WebMCP for testing" in chrome://flags and relaunch. The page registers its',
    "commands with document.modelContext; list and call them from the browser's agent, or from",
    "the Model Context Tool Inspector extension. Without WebMCP the page says so.",
    "",
    "Ctrl-C stops the server.",
    "",
  ].join("\n"),
);
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
