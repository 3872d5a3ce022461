/**
 * Section S: what a turn costs as the component grows (issue 15). Every figure is a ratio of two
 * sizes measured side by side in one run: a call, the tool definitions of an unchanged turn, of a
 * turn whose availability changed, and the first turn.
 */
import { openai } from "../src/tools/dialects/openai/dialect.js";
import { type AgentComponent, type AgentSchema, igniteTools } from "../src/tools/index.js";
import { commandName, commands, openaiResponse, RESULT, stableComponent } from "./fixtures.js";
import { keep, pair, spread, timeOnce } from "./harness.js";
import { ns, type Row, type RowOptions, x } from "./rows.js";

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}

const observed = JSON.stringify({ snapshot: RESULT.state, events: RESULT.events });

/** A bridge over `size` commands, checked to answer one call. */
async function bridgeOf(component: AgentComponent, size: number) {
  const bridge = igniteTools(component, openai);
  const response = openaiResponse([commandName(size >> 1)]);
  const [block] = await bridge.handleToolCalls(response);
  check(block?.content === observed, `the ${size}-command bridge answers a call`);
  check(bridge.toToolDefs().length > 0, "tool definitions");
  return { bridge, response };
}

/** The turn `flipping` components answer for; the row moves it on before each turn. */
let turn = 0;

/** Half the commands gated; `canExecute` answers differently every turn (every other command). */
function flipping(size: number): AgentComponent {
  const declared = commands(size);
  for (const [index, name] of Object.keys(declared).entries()) {
    if (index % 2 === 0) (declared[name] as { gated?: boolean }).gated = true;
  }
  const schema = { commands: declared };
  return {
    getSchema: () => schema,
    execute: () => RESULT,
    canExecute: (name) => (name.charCodeAt(name.length - 1) + turn) % 2 === 0,
  };
}

export async function scaleRows(options: RowOptions): Promise<Row[]> {
  const rows: Row[] = [];
  const small = await bridgeOf(stableComponent({ commands: commands(10) }), 10);
  const large = await bridgeOf(stableComponent({ commands: commands(10_000) }), 10_000);

  // A warm call: parse, validate, execute, answer, one call at 10 000 and at 10 commands.
  const call = await pair({
    ...options,
    async: true,
    baselineAsync: true,
    subject: () => large.bridge.handleToolCalls(large.response),
    baseline: () => small.bridge.handleToolCalls(small.response),
  });
  rows.push({
    id: "S call",
    what: "warm handleToolCalls (1 call): 10 000 / 10 commands",
    value: x(call.ratio.median),
    range: `${x(call.ratio.min)}–${x(call.ratio.max)}`,
    target: "≤ 1.50×",
    verdict: call.ratio.median <= 1.5 ? "pass" : "FAIL",
    details: [
      `S  a warm call: ${ns(call.subjectNs.median)} at 10 000 commands, ` +
        `${ns(call.baselineNs.median)} at 10`,
    ],
  });

  // An unchanged turn's tool definitions, per command: 10 000 against 1 000.
  const perCommand = async (
    id: string,
    what: string,
    make: (size: number) => AgentComponent,
    next?: () => void,
  ) => {
    const [thousand, tenThousand] = [make(1000), make(10_000)];
    const [a, b] = [
      (await bridgeOf(thousand, 1000)).bridge,
      (await bridgeOf(tenThousand, 10_000)).bridge,
    ];
    const before = a.toToolDefs();
    const same = a.toToolDefs() === before;
    const result = await pair({
      ...options,
      subject: () => {
        next?.();
        return b.toToolDefs();
      },
      baseline: () => {
        next?.();
        return a.toToolDefs();
      },
    });
    const ratio = result.ratio.median / 10;
    rows.push({
      id,
      what,
      value: x(ratio),
      range: `${x(result.ratio.min / 10)}–${x(result.ratio.max / 10)}`,
      target: "≤ 1.20×",
      verdict: ratio <= 1.2 ? "pass" : "FAIL",
      details: [
        `${id.padEnd(3)} ${ns(result.baselineNs.median)} per turn at 1 000 commands ` +
          `(${ns(result.baselineNs.median / 1000)} per command), ${ns(result.subjectNs.median)} ` +
          `at 10 000 (${ns(result.subjectNs.median / 10_000)} per command)` +
          (next ? "" : `; same definitions returned: ${same}`),
      ],
    });
  };
  await perCommand("S defs", "toToolDefs, nothing changed, per command: 10 000 / 1 000", (size) =>
    stableComponent({ commands: commands(size) }),
  );
  await perCommand("S defs frozen", "  the same, commands object frozen", (size) =>
    stableComponent({ commands: Object.freeze(commands(size)) }),
  );
  await perCommand(
    "S defs snap",
    "  the same, the component has getSnapshot (unchanged)",
    (size) => ({
      ...stableComponent({ commands: commands(size) }),
      getSnapshot: () => RESULT.state,
    }),
  );
  await perCommand(
    "S avail",
    "toToolDefs, availability changed, per command: 10 000 / 1 000",
    flipping,
    () => {
      turn++;
    },
  );

  // Cold start: construction and the first toToolDefs, once per run, at 1 000 and 10 000.
  const colds = new Map<number, number[]>([
    [1000, []],
    [10_000, []],
  ]);
  const ratios: number[] = [];
  const schemas = new Map([...colds.keys()].map((size) => [size, commands(size)]));
  for (let run = 0; run < Math.max(3, options.rounds >> 1); run++) {
    const times = new Map<number, number>();
    for (const size of run % 2 === 0 ? [1000, 10_000] : [10_000, 1000]) {
      const schema: AgentSchema = { commands: structuredClone(schemas.get(size) ?? {}) };
      const ms = timeOnce(() => keep(igniteTools(stableComponent(schema), openai).toToolDefs()));
      times.set(size, ms);
      colds.get(size)?.push(ms);
    }
    ratios.push((times.get(10_000) ?? 0) / 10_000 / ((times.get(1000) ?? 1) / 1000));
  }
  const cold = spread(ratios);
  const cold10k = spread(colds.get(10_000) ?? []);
  rows.push({
    id: "S cold",
    what: "first toToolDefs per command (new bridge, new schema): 10 000 / 1 000",
    value: x(cold.median),
    range: `${x(cold.min)}–${x(cold.max)}`,
    target: "linear (≤ 1.50×)",
    verdict: cold.median <= 1.5 ? "pass" : "FAIL",
    details: [
      `S cold: construction + first toToolDefs at 10 000 commands ${ns(cold10k.median * 1e6)} ` +
        `(${ns(cold10k.min * 1e6)}–${ns(cold10k.max * 1e6)}), at 1 000 ` +
        `${ns(spread(colds.get(1000) ?? []).median * 1e6)}; no validator compiled`,
    ],
  });
  return rows;
}
