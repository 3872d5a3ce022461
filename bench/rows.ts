/**
 * The rows of `npm run bench`. Each checks its result once before timing it (a benchmark of a
 * wrong answer measures nothing), then measures.
 */
import { Validator as CfValidator } from "@cfworker/json-schema";
import type { ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { z } from "zod";
import { limitIssue } from "../src/tools/core/input-limits.js";
import { openai } from "../src/tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type AgentSchema,
  ajvValidator,
  igniteTools,
  type JsonSchema,
  resolveCall,
  runToolLoop,
} from "../src/tools/index.js";
import {
  commandName,
  commands,
  counting,
  openaiResponse,
  RESULT,
  stableComponent,
  ticketInput,
  ticketSchema,
  ticketSchemaWithDefaults,
} from "./fixtures.js";
import { keep, pair, type Spread, spread, timeOnce } from "./harness.js";

/** One line of the table. */
export interface Row {
  id: string;
  what: string;
  /** The median, formatted. */
  value: string;
  /** Its spread (min–max over the runs), formatted. */
  range: string;
  target: string;
  verdict: "pass" | "FAIL" | "info";
  /** Supporting figures printed under the table. */
  details?: string[];
}

export interface RowOptions {
  rounds: number;
  timeMs: number;
}

const x = (value: number) => `${value.toFixed(2)}×`;
const ns = (value: number) =>
  value >= 1e6
    ? `${(value / 1e6).toFixed(2)} ms`
    : value >= 1e3
      ? `${(value / 1e3).toFixed(2)} µs`
      : `${value.toFixed(0)} ns`;
const ratioRange = (s: Spread) => `${x(s.min)}–${x(s.max)}`;
const nsRange = (s: Spread) => `${ns(s.min)}–${ns(s.max)}`;
const costs = (label: string, s: Spread, b: Spread, baseline: string) =>
  `${label}: ${ns(s.median)} per call vs ${baseline} ${ns(b.median)} (medians of ${s.runs} rounds)`;

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}

/** An ajv configured as the library configures it, for the "limit" side of row 1 and row 5. */
function directAjv(useDefaults = false) {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    logger: false,
    multipleOfPrecision: 10,
    useDefaults,
  });
  addFormats(ajv);
  return ajv;
}

// ---------------------------------------------------------------------------------------------
// Row 1: validation vs the limit
// ---------------------------------------------------------------------------------------------

export async function validationRows(options: RowOptions): Promise<Row[]> {
  const name = "file_ticket";
  const inputSchema = ticketSchema();
  const schema: AgentSchema = {
    commands: { [name]: { description: "File.", input: inputSchema } },
  };
  const input = ticketInput();
  const validate: ValidateFunction = directAjv().compile(inputSchema);

  const route = resolveCall(schema, name, input);
  check(route.ok && route.value.input === input, "resolveCall routes the input, uncopied");
  check(validate(input) === true, "ajv accepts the input");
  check(limitIssue(input) === undefined, "the input is within the limits");

  const whole = await pair({
    ...options,
    subject: () => resolveCall(schema, name, input),
    baseline: () => validate(input),
  });
  const limits = await pair({
    ...options,
    subject: () => limitIssue(input),
    baseline: () => validate(input),
  });
  // A cheap input: 8 small properties that ajv checks in a few tens of nanoseconds, so what the
  // library adds around the validator is most of the cost.
  const cheapSchema: JsonSchema = {
    type: "object",
    properties: Object.fromEntries(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((key, index) => [
        key,
        index % 2 === 0 ? { type: "integer" } : { type: "boolean" },
      ]),
    ),
    additionalProperties: false,
  };
  const cheapInput = { a: 1, b: true, c: 2, d: false, e: 3, f: true, g: 4, h: false };
  const cheapCommands: AgentSchema = { commands: { [name]: { input: cheapSchema } } };
  const validateCheap = directAjv().compile(cheapSchema);
  check(resolveCall(cheapCommands, name, cheapInput).ok, "the cheap input routes");
  check(validateCheap(cheapInput) === true, "ajv accepts the cheap input");
  const cheap = await pair({
    ...options,
    subject: () => resolveCall(cheapCommands, name, cheapInput),
    baseline: () => validateCheap(cheapInput),
  });

  // Declared defaults: the library validates a copy (it must not mutate the caller's input),
  // while ajv called directly fills them into the input in place. Both sides parse the input
  // from JSON text first, as a model's arguments arrive, so ajv fills a realistic object.
  const defaultsSchema = ticketSchemaWithDefaults();
  const withDefaults: AgentSchema = { commands: { [name]: { input: defaultsSchema } } };
  const validateDefaults = directAjv(true).compile(defaultsSchema);
  const partialText = JSON.stringify({ title: "Gift card checkout", priority: "high" });
  const partial = JSON.parse(partialText) as Record<string, unknown>;
  const defaulted = resolveCall(withDefaults, name, partial);
  check(
    defaulted.ok && (defaulted.value.input as { notify?: unknown }).notify === false,
    "defaults are applied to a copy",
  );
  check(!("notify" in partial), "the caller's input is not mutated");
  const defaults = await pair({
    ...options,
    subject: () => resolveCall(withDefaults, name, JSON.parse(partialText)),
    baseline: () => validateDefaults(JSON.parse(partialText)),
  });

  // A fresh, equal schema object every call: the content-key path of the cache.
  const freshSchema = (): AgentSchema => ({
    commands: { [name]: { description: "File.", input: ticketSchema() } },
  });
  const fresh = await pair({
    ...options,
    subject: () => resolveCall(freshSchema(), name, input),
    baseline: () => {
      keep(freshSchema());
      return validate(input);
    },
  });

  // The same schema object every call: the identity path of the cache, one compilation. Counted
  // after the timings, so that a second validator does not reshape the code they measured.
  const validator = counting(ajvValidator());
  for (let index = 0; index < 1001; index++) {
    resolveCall(schema, name, input, undefined, { validator });
  }
  check(
    validator.counts.checkSchema === 1 && validator.counts.compile === 1,
    `one schema check and one compilation for 1001 calls (got ${JSON.stringify(validator.counts)})`,
  );

  return [
    {
      id: "1",
      what: "resolveCall (8-property input) / ajv validate",
      value: x(whole.ratio.median),
      range: ratioRange(whole.ratio),
      target: "≤ 1.15×",
      verdict: whole.ratio.median <= 1.15 ? "pass" : "FAIL",
      details: [
        costs("1  resolveCall", whole.subjectNs, whole.baselineNs, "ajv"),
        `1  in units of ajv's own cost: the input-limits walk ${x(limits.ratio.median)}, the ` +
          `rest (lookup, availability, results) ${x(Math.max(0, whole.ratio.median - 1 - limits.ratio.median))}`,
        `1  cache: ${validator.counts.checkSchema} schema check, ${validator.counts.compile} ` +
          "compilation for 1 001 calls on the same schema object (identity path)",
      ],
    },
    {
      id: "1d",
      what: "resolveCall (cheap 8-property input) / ajv validate",
      value: x(cheap.ratio.median),
      range: ratioRange(cheap.ratio),
      target: "≤ 2.00×",
      verdict: cheap.ratio.median <= 2 ? "pass" : "FAIL",
      details: [costs("1d resolveCall", cheap.subjectNs, cheap.baselineNs, "ajv")],
    },
    {
      id: "1a",
      what: "  input-limits walk alone / ajv validate",
      value: x(limits.ratio.median),
      range: ratioRange(limits.ratio),
      target: "(part of 1)",
      verdict: "info",
    },
    {
      id: "1b",
      what: "  declared defaults (copy) / ajv in place, both after JSON.parse",
      value: x(defaults.ratio.median),
      range: ratioRange(defaults.ratio),
      target: "(reference)",
      verdict: "info",
      details: [costs("1b resolveCall", defaults.subjectNs, defaults.baselineNs, "ajv")],
    },
    {
      id: "1c",
      what: "  fresh equal schema per call (content key) / ajv",
      value: x(fresh.ratio.median),
      range: ratioRange(fresh.ratio),
      target: "(reference)",
      verdict: "info",
      details: [
        `${costs("1c resolveCall", fresh.subjectNs, fresh.baselineNs, "ajv")}; both sides ` +
          "build the schema object",
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Row 2: a whole turn vs its payload
// ---------------------------------------------------------------------------------------------

export async function turnRows(options: RowOptions): Promise<Row[]> {
  const schema: AgentSchema = { commands: commands(8) };
  const called = [0, 2, 5, 7].map(commandName);
  const response = openaiResponse(called);
  const bridge = igniteTools(stableComponent(schema), openai);
  const argumentTexts = (response.choices[0]?.message.tool_calls ?? []).map((call) =>
    call.type === "function" ? call.function.arguments : "",
  );
  const observed = { snapshot: RESULT.state, events: RESULT.events };

  const blocks = await bridge.handleToolCalls(response);
  check(blocks.length === 4, "four result blocks");
  check(
    blocks.every((block, index) => block.tool_call_id === `call_${index}`),
    "blocks answer the calls in order",
  );
  check(
    blocks.every((block) => block.content === JSON.stringify(observed)),
    `each block is the observation as JSON (got ${blocks[0]?.content.slice(0, 80)})`,
  );

  // What no implementation can skip: read each call's arguments, validate them, write each
  // result. The validators are ajv's, compiled for the commands called.
  const validators = called.map((command) =>
    directAjv().compile(schema.commands[command]?.input ?? {}),
  );
  const floor = () => {
    let last: unknown;
    for (let index = 0; index < argumentTexts.length; index++) {
      last = (validators[index] as ValidateFunction)(JSON.parse(argumentTexts[index] as string));
    }
    for (let index = 0; index < argumentTexts.length; index++) last = JSON.stringify(observed);
    return last;
  };
  check(floor() !== undefined, "the floor validates");
  const turn = await pair({
    ...options,
    async: true,
    subject: () => bridge.handleToolCalls(response),
    baseline: floor,
  });

  // Where the turn's time goes: each step on its own, against the same floor.
  const calls = bridge.parseToolCalls(response);
  const outcome = await bridge.invoke(calls[0] ?? { name: "", input: undefined });
  const parse = await pair({
    ...options,
    subject: () => bridge.parseToolCalls(response),
    baseline: floor,
  });
  const invoke = await pair({
    ...options,
    async: true,
    subject: async () => {
      for (const call of calls) await bridge.invoke(call);
    },
    baseline: floor,
  });
  const results = await pair({
    ...options,
    subject: () => calls.map((call) => bridge.toToolResult(call, outcome)),
    baseline: floor,
  });

  // A 10-turn agent loop: 10 model responses of one call each, then one without a call; the
  // loop asks for the tool definitions every turn and carries the conversation. Its floor is
  // the same work per call: parse the arguments, validate them, write the result.
  const single = called.map((command) => openaiResponse([command]));
  const done = {
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: "Done.", refusal: null },
      },
    ],
  };
  const loop = () => {
    let at = 0;
    return runToolLoop({
      tools: bridge,
      messages: [{ role: "user", content: "File them." }],
      maxTurns: 11,
      model: async () => (at < 10 ? single[at++ % single.length] : done) as typeof response,
    });
  };
  const looped = await loop();
  check(looped.stop === "done" && looped.steps.length === 11, "the loop runs 10 calls and stops");
  const loopFloor = () => {
    let last: unknown;
    for (let index = 0; index < 10; index++) {
      const at = index % argumentTexts.length;
      last = (validators[at] as ValidateFunction)(JSON.parse(argumentTexts[at] as string));
      last = JSON.stringify(observed);
    }
    return last;
  };
  const loopPair = await pair({ ...options, async: true, subject: loop, baseline: loopFloor });

  return [
    {
      id: "2b",
      what: "runToolLoop, 10 turns of 1 call / floor (parse+ajv+stringify ×10)",
      value: x(loopPair.ratio.median),
      range: ratioRange(loopPair.ratio),
      target: "≤ 2.00×",
      verdict: loopPair.ratio.median <= 2 ? "pass" : "FAIL",
      details: [costs("2b runToolLoop", loopPair.subjectNs, loopPair.baselineNs, "the floor")],
    },
    {
      id: "2",
      what: "OpenAI turn, 4 calls (parse→invoke→result) / floor (parse+ajv+stringify)",
      value: x(turn.ratio.median),
      range: ratioRange(turn.ratio),
      target: "≤ 1.30×",
      verdict: turn.ratio.median <= 1.3 ? "pass" : "FAIL",
      details: [
        costs(
          "2  handleToolCalls",
          turn.subjectNs,
          turn.baselineNs,
          "JSON.parse×4 + ajv×4 + stringify×4",
        ),
        `2  steps, as multiples of the same floor: parseToolCalls ${x(parse.ratio.median)}, ` +
          `4 invokes ${x(invoke.ratio.median)}, 4 toToolResult ${x(results.ratio.median)} ` +
          `(${ns(parse.subjectNs.median)} + ${ns(invoke.subjectNs.median)} + ` +
          `${ns(results.subjectNs.median)})`,
        `2  payload: 4 argument texts of ${argumentTexts[0]?.length} chars, results of ` +
          `${JSON.stringify(observed).length} chars; a component of 8 commands`,
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Row 3: per-turn manifest rebuild
// ---------------------------------------------------------------------------------------------

export function manifestRows(options: RowOptions): Row[] {
  const n = 100;
  const later = 50;
  const ratios: number[] = [];
  const firsts: number[] = [];
  const laters: number[] = [];
  let counts = { afterFirst: "", afterLater: "" };
  for (let run = 0; run < Math.max(5, options.rounds); run++) {
    // Fresh, equal schema objects, built before timing so only the bridge is measured.
    // One more than the turns: igniteTools reads the schema once to check the component.
    const pool = Array.from({ length: later + 2 }, () => ({ commands: commands(n) }));
    let turn = 0;
    const component: AgentComponent = {
      getSchema: () => pool[turn++] as AgentSchema,
      execute: () => ({ state: null, events: [] }),
    };
    const validator = counting(ajvValidator());
    warm(validator);
    const base = { ...validator.counts };
    let toToolDefs: () => unknown = () => undefined;
    let defs: unknown;
    // The first turn includes construction, where the schema is first read and checked.
    const first = timeOnce(() => {
      toToolDefs = igniteTools(component, openai, { validator }).toToolDefs;
      defs = toToolDefs();
    });
    check(Array.isArray(defs) && defs.length === n, "100 tool definitions");
    const afterFirst = delta(validator.counts, base);
    const rest = timeOnce(() => {
      for (let index = 0; index < later; index++) keep(toToolDefs());
    });
    const afterLater = delta(validator.counts, base);
    check(
      afterFirst.checkSchema === n && afterFirst.compile === 0,
      `first call: ${n} schema checks, no compilation (got ${JSON.stringify(afterFirst)})`,
    );
    check(
      afterLater.checkSchema === n && afterLater.compile === 0,
      `later calls: no new schema check, no compilation (got ${JSON.stringify(afterLater)})`,
    );
    counts = { afterFirst: JSON.stringify(afterFirst), afterLater: JSON.stringify(afterLater) };
    firsts.push(first);
    laters.push(rest / later);
    ratios.push(first / (rest / later));
  }
  const ratio = spread(ratios);
  const laterMs = spread(laters);
  const firstMs = spread(firsts);
  return [
    {
      id: "3",
      what: "toToolDefs(), 100 commands, fresh equal schema: first / later",
      value: x(ratio.median),
      range: ratioRange(ratio),
      target: "later: 0 compilations",
      verdict: "pass",
      details: [
        `3  first call ${ns(firstMs.median * 1e6)} (${nsRange(spread(firsts.map((v) => v * 1e6)))}), ` +
          `later calls ${ns(laterMs.median * 1e6)} each = ${ns((laterMs.median * 1e6) / n)} ` +
          `per command (${nsRange(spread(laters.map((v) => (v * 1e6) / n)))})`,
        `3  validator calls after the first turn ${counts.afterFirst}, after ${later} more ` +
          `${counts.afterLater}: later turns never check or compile again`,
      ],
    },
  ];
}

/** Creates the validator's ajv instances, a per-process cost, on a schema no row uses. */
function warm(validator: ReturnType<typeof counting>): void {
  const schema: JsonSchema = { type: "object", properties: { warm: { type: "string" } } };
  validator.checkSchema(schema);
  validator.compile(schema)({});
}

function delta(
  now: { checkSchema: number; compile: number },
  base: { checkSchema: number; compile: number },
) {
  return { checkSchema: now.checkSchema - base.checkSchema, compile: now.compile - base.compile };
}

// ---------------------------------------------------------------------------------------------
// Row 4: scale
// ---------------------------------------------------------------------------------------------

export function scaleRows(options: RowOptions): Row[] {
  const sizes = [10, 100, 1000, 10_000];
  const perCommand = new Map<number, number[]>(sizes.map((size) => [size, []]));
  const ratios: number[] = [];
  const compiles = new Map<number, number>();
  const schemas = new Map(sizes.map((size) => [size, { commands: commands(size) }]));
  const input = ticketInput();
  const rounds = Math.max(5, options.rounds);
  for (let round = 0; round < rounds; round++) {
    const inRound = new Map<number, number>();
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      // A structurally fresh schema each run, so no cache of an earlier run is reused.
      const schema = structuredClone(schemas.get(size)) as AgentSchema;
      const validator = counting(ajvValidator());
      warm(validator);
      const base = { ...validator.counts };
      const name = commandName(size >> 1);
      let ok = false;
      let tools = 0;
      const ms = timeOnce(() => {
        const bridge = igniteTools(stableComponent(schema), undefined, { validator });
        tools = bridge.manifest().length;
        ok = bridge.resolveCall(name, input).ok;
      });
      check(ok && tools === size, `the ${size}-command component routes a call`);
      const counts = delta(validator.counts, base);
      check(counts.compile === 1, `first turn compiles one validator (got ${counts.compile})`);
      compiles.set(size, counts.compile);
      perCommand.get(size)?.push((ms * 1e6) / size);
      inRound.set(size, (ms * 1e6) / size);
    }
    ratios.push((inRound.get(10_000) ?? 0) / (inRound.get(1000) ?? 1));
  }
  const ratio = spread(ratios);
  const detail = sizes
    .map((size) => {
      const s = spread(perCommand.get(size) ?? []);
      return `${size}: ${ns(s.median)} (${nsRange(s)})`;
    })
    .join("; ");
  return [
    {
      id: "4",
      what: "first turn per command, 10 000 / 1 000 commands",
      value: x(ratio.median),
      range: ratioRange(ratio),
      target: "≤ 1.50×",
      verdict: ratio.median <= 1.5 ? "pass" : "FAIL",
      details: [
        `4  construction + first manifest() + first resolveCall, per command — ${detail}`,
        `4  validators compiled by that first turn: ${sizes
          .map((size) => `${size} commands → ${compiles.get(size)}`)
          .join(", ")} (lazy)`,
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Row 5: alternatives side by side
// ---------------------------------------------------------------------------------------------

export async function alternativeRows(options: RowOptions): Promise<Row[]> {
  const inputSchema = ticketSchema();
  const input = ticketInput();
  const validate = directAjv().compile(inputSchema);
  const cf = new CfValidator(inputSchema as never, "2020-12", false);
  const zodSchema = z
    .object({
      title: z.string().min(1).max(200),
      body: z.string().max(5000).optional(),
      priority: z.enum(["low", "normal", "high", "urgent"]),
      assignee: z
        .string()
        .regex(/^[a-z][a-z0-9._-]*$/u)
        .optional(),
      tags: z.array(z.string().max(32)).max(10).optional(),
      estimateHours: z.number().min(0).max(1000).optional(),
      dueDate: z.iso.date().optional(),
      notify: z.boolean().optional(),
    })
    .strict();
  // The three agree on the valid input and on a few invalid ones.
  const invalid = [
    { ...input, priority: "someday" },
    { ...input, extra: 1 },
    { ...input, dueDate: "2025-13-40" },
    { ...input, tags: ["x".repeat(40)] },
    { title: "" },
  ];
  for (const value of [input, ...invalid]) {
    const expected = validate(value);
    check(cf.validate(value).valid === expected, `cfworker agrees on ${JSON.stringify(value)}`);
    check(
      zodSchema.safeParse(value).success === expected,
      `zod agrees on ${JSON.stringify(value)}`,
    );
  }
  check(validate(input) === true, "the input is valid");
  const cfPair = await pair({
    ...options,
    subject: () => cf.validate(input),
    baseline: () => validate(input),
  });
  const zodPair = await pair({
    ...options,
    subject: () => zodSchema.safeParse(input),
    baseline: () => validate(input),
  });
  return [
    {
      id: "5a",
      what: "@cfworker/json-schema validate / ajv validate",
      value: x(cfPair.ratio.median),
      range: ratioRange(cfPair.ratio),
      target: "(reference)",
      verdict: "info",
      details: [costs("5a cfworker", cfPair.subjectNs, cfPair.baselineNs, "ajv")],
    },
    {
      id: "5b",
      what: "zod safeParse (equivalent schema) / ajv validate",
      value: x(zodPair.ratio.median),
      range: ratioRange(zodPair.ratio),
      target: "(reference)",
      verdict: "info",
      details: [costs("5b zod", zodPair.subjectNs, zodPair.baselineNs, "ajv")],
    },
  ];
}

export { ns, x };
