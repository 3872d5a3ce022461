/**
 * Measurement: every ratio is taken inside one tinybench run, subject and baseline side by side,
 * several rounds in a row (their order alternating), and reported as the median of the rounds'
 * ratios with the min–max spread. A burst of noise slows one round, not the median; and since
 * both sides of a ratio run within milliseconds of each other, a slow machine slows both.
 */
import { Bench } from "tinybench";

/** The median of a set of runs, with its spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error("spread of no runs");
  const sorted = [...values].sort((a, b) => a - b);
  const at = (index: number) => sorted[index] as number;
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
  return { median, min: at(0), max: at(sorted.length - 1), runs: sorted.length };
}

/** Keeps results alive, so the optimiser cannot drop the work that made them. */
export let sink: unknown;
export function keep(value: unknown): void {
  sink = value;
}

type Op = () => unknown;
type AsyncOp = () => Promise<unknown>;

/** How many calls of `op` make one sample of about `sampleMs`. */
async function batchFor(op: Op | AsyncOp, isAsync: boolean, sampleMs: number): Promise<number> {
  const deadline = performance.now() + 15;
  let calls = 0;
  const start = performance.now();
  while (performance.now() < deadline) {
    if (isAsync) keep(await op());
    else keep(op());
    calls++;
  }
  const perCall = (performance.now() - start) / calls;
  return Math.max(1, Math.round(sampleMs / perCall));
}

function batched(op: Op, batch: number): () => void {
  return () => {
    let last: unknown;
    for (let index = 0; index < batch; index++) last = op();
    keep(last);
  };
}

function batchedAsync(op: AsyncOp, batch: number): () => Promise<void> {
  return async () => {
    let last: unknown;
    for (let index = 0; index < batch; index++) last = await op();
    keep(last);
  };
}

export interface PairOptions {
  subject: Op | AsyncOp;
  baseline: Op | AsyncOp;
  /** Whether `subject` returns a promise to await. */
  async?: boolean;
  /** Whether `baseline` returns a promise to await (a peer's turn does). */
  baselineAsync?: boolean;
  /** Rounds; the median of their ratios is reported. */
  rounds?: number;
  /** Measuring time per side per round, in ms. */
  timeMs?: number;
  /** Length of one sample, in ms (calls are batched to reach it). */
  sampleMs?: number;
  /** Warm-up before the first round, in ms. */
  warmMs?: number;
}

export interface PairResult {
  /** subject / baseline, per round. */
  ratio: Spread;
  /** Nanoseconds per call. */
  subjectNs: Spread;
  baselineNs: Spread;
}

/**
 * The cost of `subject` relative to `baseline`. Each round is one tinybench run of both; the
 * median latency of a sample divided by its batch is the cost of one call. A sample is a batch
 * of calls lasting about `sampleMs`, long enough that the scavenges its garbage causes fall in
 * it, short enough that the median drops the samples another process preempted.
 */
export async function pair(options: PairOptions): Promise<PairResult> {
  const { subject, baseline } = options;
  const isAsync = options.async === true;
  const baselineIsAsync = options.baselineAsync === true;
  const rounds = options.rounds ?? 9;
  const timeMs = options.timeMs ?? 40;
  const sampleMs = options.sampleMs ?? 1;
  // Steady state first: both sides run, interleaved, until the JIT has settled on both.
  const warmUntil = performance.now() + (options.warmMs ?? 150);
  while (performance.now() < warmUntil) {
    keep(isAsync ? await subject() : subject());
    keep(baselineIsAsync ? await baseline() : baseline());
  }
  const subjectBatch = await batchFor(subject, isAsync, sampleMs);
  const baselineBatch = await batchFor(baseline, baselineIsAsync, sampleMs);
  const ratios: number[] = [];
  const subjectNs: number[] = [];
  const baselineNs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({
      time: timeMs,
      iterations: 5,
      warmupTime: 10,
      warmupIterations: 3,
      throws: true,
    });
    const tasks: [string, () => unknown, boolean][] = [
      [
        "subject",
        isAsync
          ? batchedAsync(subject as AsyncOp, subjectBatch)
          : batched(subject as Op, subjectBatch),
        isAsync,
      ],
      [
        "baseline",
        baselineIsAsync
          ? batchedAsync(baseline as AsyncOp, baselineBatch)
          : batched(baseline as Op, baselineBatch),
        baselineIsAsync,
      ],
    ];
    if (round % 2 === 1) tasks.reverse();
    for (const [name, fn, async] of tasks) bench.add(name, fn, { async });
    await bench.run();
    const perCall = (name: string, batch: number) => {
      const result = bench.getTask(name)?.result;
      if (!result || !("latency" in result)) throw new Error(`bench task ${name} did not finish`);
      return (result.latency.p50 * 1e6) / batch; // ms per sample → ns per call
    };
    const s = perCall("subject", subjectBatch);
    const b = perCall("baseline", baselineBatch);
    subjectNs.push(s);
    baselineNs.push(b);
    ratios.push(s / b);
  }
  return { ratio: spread(ratios), subjectNs: spread(subjectNs), baselineNs: spread(baselineNs) };
}

/** Milliseconds taken by `fn`, measured once. */
export function timeOnce(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export function gcIfExposed(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
}
