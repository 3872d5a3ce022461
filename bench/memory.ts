/**
 * Row 6, in a process of its own so nothing measured before it is on the heap:
 *   node --expose-gc --import tsx bench/memory.ts
 * Prints one line of JSON.
 */
import { openai } from "../src/tools/dialects/openai/dialect.js";
import { ajvValidator, igniteTools, type NeutralToolCall } from "../src/tools/index.js";
import { commandName, commands, stableComponent, ticketInput } from "./fixtures.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error("bench/memory.ts needs --expose-gc");
  process.exit(2);
}

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const n = 10_000;
const start = heap();
const schema = { commands: commands(n) };
const withSchema = heap();
const bridge = igniteTools(stableComponent(schema), openai, { validator: ajvValidator() });
const manifest = bridge.manifest();
const defs = bridge.toToolDefs();
if (manifest.length !== n || defs.length !== n) throw new Error("manifest of 10 000 commands");
const withManifest = heap();

const call: NeutralToolCall = { id: "call_1", name: commandName(42), input: ticketInput() };
async function invokes(count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const outcome = await bridge.invoke(call);
    if (!outcome.ok) throw new Error(`invoke failed: ${outcome.error.message}`);
  }
}

await invokes(10_000); // warm: the first call compiles its validator, the JIT settles
const segments: number[] = [];
const count = 100_000;
const before = heap();
const startedAt = performance.now();
let last = before;
for (let segment = 0; segment < 4; segment++) {
  await invokes(count / 4);
  const now = heap();
  segments.push(now - last);
  last = now;
}
const elapsed = performance.now() - startedAt;
const after = heap();

console.log(
  JSON.stringify({
    commands: n,
    schemaBytes: withSchema - start,
    bridgeAndManifestBytes: withManifest - withSchema,
    heapAfterManifest: withManifest,
    invokes: count,
    growthBytes: after - before,
    bytesPerInvoke: (after - before) / count,
    segmentGrowth: segments,
    usPerInvoke: (elapsed * 1000) / count,
    keep: manifest.length + defs.length,
  }),
);
