/**
 * `npm run demo [prompt…]`: the agent loop over a smart-home room, against a real model when the
 * environment names one and against the scripted model otherwise.
 */
import { ModelError } from "./models.js";
import { shouldColor } from "./print.js";
import { pickDemo } from "./run.js";

async function main(): Promise<number> {
  const prompt = process.argv.slice(2).join(" ").trim();
  const controller = new AbortController();
  // Ctrl-C stops the loop between calls (and aborts a request in flight) instead of killing it
  // halfway, so the final state printed is the state the room is really in.
  process.once("SIGINT", () => controller.abort());
  try {
    const demo = pickDemo(process.env);
    const outcome = await demo.run({
      ...(prompt === "" ? {} : { prompt }),
      write: (line) => process.stdout.write(`${line}\n`),
      color: shouldColor(process.stdout, process.env),
      signal: controller.signal,
    });
    return outcome.stop === "aborted" ? 130 : 0;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error; // a bug in the demo: keep its stack
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main();
