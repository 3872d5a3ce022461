import type { StreamAccumulator, StreamDelta } from "../../tools/wire/stream.js";

/** What reading a whole stream into an accumulator gave: every delta, and how the stream ended. */
export interface Drained {
  deltas: StreamDelta[];
  /** What the stream threw, when it broke off. */
  error: unknown;
}

/** Pushes every event an SDK stream yields into `turn`, as an application's loop would. */
export async function drain<Event, Response>(
  stream: AsyncIterable<Event>,
  turn: StreamAccumulator<Event, Response>,
): Promise<Drained> {
  const deltas: StreamDelta[] = [];
  let error: unknown;
  try {
    for await (const event of stream) deltas.push(...turn.push(event));
  } catch (thrown) {
    error = thrown;
  }
  return { deltas, error };
}

/** Pushes recorded events, without a stream. */
export function feed<Event, Response>(
  turn: StreamAccumulator<Event, Response>,
  events: readonly Event[],
): StreamDelta[] {
  return events.flatMap((event) => turn.push(event));
}

/** The text of every delta of one kind, joined. */
export function joined(deltas: readonly StreamDelta[], type: "text" | "reasoning"): string {
  return deltas.map((delta) => (delta.type === type ? delta.text : "")).join("");
}

/** The tool-call deltas only, without argument pieces: starts and readiness, in order. */
export function callEvents(deltas: readonly StreamDelta[]): string[] {
  return deltas.flatMap((delta) =>
    delta.type === "tool-call-start" || delta.type === "tool-call-ready"
      ? [`${delta.type === "tool-call-start" ? "start" : "ready"} ${delta.index} ${delta.name}`]
      : [],
  );
}
