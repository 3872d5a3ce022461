/**
 * `npm run demo [prompt…]`: the agent loop over a smart-home room, against a real model when the
 * environment names one and against the scripted model otherwise.
 */
import { createInterface } from "node:readline/promises";
import type { PendingCall } from "ignite-element/tools";
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
      // With a person at the terminal, a call the policy asks about waits for their answer;
      // piped or in CI, it is approved automatically and the output says so.
      ...(process.stdin.isTTY === true ? { ask } : {}),
    });
    return outcome.stop === "aborted" ? 130 : 0;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error; // a bug in the demo: keep its stack
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
}

/** Asks on the terminal whether `call` may run; only "y" or "yes" approves. */
async function ask(call: PendingCall): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(
      `Allow ${call.command} ${JSON.stringify(call.input)}? It may not be undoable. [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

process.exitCode = await main();
