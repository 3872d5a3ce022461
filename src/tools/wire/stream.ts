/**
 * What every provider's stream accumulator shares: the progress it reports (`StreamDelta`), the
 * accumulator's shape, and the bookkeeping of a turn's tool calls — which have started, which have
 * complete arguments — in the model's order. Pure: events are pushed in, nothing is awaited.
 */

/**
 * Progress of a streamed model turn, the same for every provider. `index` is the call's position
 * among the turn's tool calls in model order, the same as in `parseToolCalls(response())`; `id` and
 * `name` are as the provider sent them (`parseToolCalls` maps the name back to the command).
 */
export type StreamDelta =
  /** Answer text, as it arrives. */
  | { readonly type: "text"; readonly text: string }
  /** Reasoning text (thinking, a reasoning summary, Gemini thoughts), as it arrives. */
  | { readonly type: "reasoning"; readonly text: string }
  /** The model began a tool call. */
  | {
      readonly type: "tool-call-start";
      readonly index: number;
      readonly id?: string;
      readonly name: string;
    }
  /** A fragment of a call's argument text, where the provider streams arguments as JSON text. */
  | { readonly type: "tool-call-delta"; readonly index: number; readonly arguments: string }
  /**
   * The call's arguments are complete, and so are those of every call before it: it may run now,
   * while later calls still stream. Reported once per call, in model order.
   */
  | {
      readonly type: "tool-call-ready";
      readonly index: number;
      readonly id?: string;
      readonly name: string;
    };

/**
 * Assembles one streamed model turn from a provider's stream events into the response that
 * provider returns for the same turn without streaming, which the dialect's `parseToolCalls` and
 * `appendTurn` take as they are. Make one per turn.
 *
 * @example
 * ```ts
 * const turn = anthropicStream();
 * for await (const event of client.messages.stream(request)) {
 *   for (const delta of turn.push(event)) if (delta.type === "text") show(delta.text);
 * }
 * const blocks = await bridge.handleToolCalls(turn.response());
 * ```
 */
export interface StreamAccumulator<Event, Response> {
  /**
   * Reads the stream's next event, in order, and returns the progress it made (often none).
   * Throws a `TypeError` only for something that is not an event object at all.
   */
  push(event: Event): StreamDelta[];
  /**
   * The response as it stands. After the provider's closing event, the complete response; before
   * it — a stream that broke off, or read mid-stream — the response cut off at this point, which
   * `parseToolCalls` reads as output cut off by the limit: a call whose arguments did not all
   * arrive is answered `InvalidInput` and never runs. Each call returns a new object.
   */
  response(): Response;
  /**
   * How many of the turn's tool calls, counted from the first in model order, have complete
   * arguments: `parseToolCalls(response())` reads the same for these calls now as it will for the
   * finished response, so they may run in order while later calls still stream.
   */
  readonly ready: number;
  /** Whether the provider's closing event arrived; `false` for a stream that broke off. */
  readonly finished: boolean;
}

/** One tool call of the turn, as the accumulator tracks it. */
export interface TrackedCall {
  /** Position among the turn's calls, in model order. */
  readonly index: number;
  /** Its position in the list the response lists it in: blocks, tool calls, output items. */
  readonly at: number;
  id: string | undefined;
  name: string;
  /** Its arguments are complete. */
  complete: boolean;
}

/** The turn's tool calls in model order, and how many of them, from the first, are complete. */
export interface CallLog {
  readonly ready: number;
  /**
   * The first call whose arguments are not complete, if any. A response read at this point — a
   * stream that broke off, the output limit, or mid-stream — ends at that call (`upToCut`): the
   * dialect answers it as cut, and the calls after it, which a provider may have streamed
   * interleaved with it, are left out as if the output had stopped there. Calls run in the
   * model's order, so none after a cut call ever runs.
   */
  readonly cut: TrackedCall | undefined;
  /** A call the model began, at its position `at` in the list the response lists it in. */
  start(at: number, id: string | undefined, name: string, out: StreamDelta[]): TrackedCall;
  /** The call at position `at`, if one began there. */
  get(at: number): TrackedCall | undefined;
  /** Marks a call complete and reports each call that became ready by it. */
  complete(call: TrackedCall | undefined, out: StreamDelta[]): void;
  /** Marks every call complete: the stream ended normally, so every argument text is final. */
  completeAll(out: StreamDelta[]): void;
}

/** A new, empty log of a turn's calls. */
export function callLog(): CallLog {
  const calls: TrackedCall[] = [];
  const byPosition = new Map<number, TrackedCall>();
  let ready = 0;
  // Calls run one at a time in the model's order, so only the complete prefix may start.
  const advance = (out: StreamDelta[]) => {
    for (let call = calls[ready]; call?.complete; call = calls[ready]) {
      out.push({ type: "tool-call-ready", index: ready, ...idOf(call.id), name: call.name });
      ready++;
    }
  };
  return {
    get ready() {
      return ready;
    },
    get cut() {
      // The complete calls are the first `ready`: the one after them is the first incomplete.
      return calls[ready];
    },
    start(at, id, name, out) {
      const call: TrackedCall = { index: calls.length, at, id, name, complete: false };
      calls.push(call);
      byPosition.set(at, call);
      out.push({ type: "tool-call-start", index: call.index, ...idOf(id), name });
      return call;
    },
    get: (at) => byPosition.get(at),
    complete(call, out) {
      if (call) call.complete = true;
      advance(out);
    },
    completeAll(out) {
      for (const call of calls) call.complete = true;
      advance(out);
    },
  };
}

/**
 * `list` (a response's blocks, tool calls or output items, in order) as a response read now lists
 * it: up to and including the turn's first call whose arguments are not complete, nothing after
 * it; the whole list when every call is complete. The one rule of every accumulator for a turn
 * cut off, however the provider cut it.
 */
export function upToCut<Item>(list: readonly Item[], calls: CallLog): Item[] {
  const { cut } = calls;
  return cut === undefined ? [...list] : list.slice(0, cut.at + 1);
}

/** `{ id }` when there is one. */
export function idOf(id: unknown): { id?: string } {
  return typeof id === "string" && id !== "" ? { id } : {};
}

/** A provider's index of a block, call or item: a whole number from 0, or -1 for anything else. */
export function positionOf(index: unknown): number {
  return Number.isInteger(index) && Number(index) >= 0 ? Number(index) : -1;
}

/**
 * Where a provider's index may put an item in `list`: on an item already there, or right after the
 * last; -1 for anything else. Providers number blocks, calls, items and parts from 0 without gaps,
 * so every index of a real stream qualifies. A corrupted one is ignored: as an array position,
 * `index: 4e9` would make an array of four billion holes that every later pass walks, and a call
 * begun out of order would be counted in an order the response does not list it in.
 */
export function slotOf(list: readonly unknown[], index: unknown): number {
  const position = positionOf(index);
  return position <= list.length ? position : -1;
}

/** Appends a text or reasoning delta, unless it is empty. */
export function textDelta(out: StreamDelta[], type: "text" | "reasoning", text: unknown): void {
  if (typeof text === "string" && text !== "") out.push({ type, text });
}

/**
 * How far JSON argument text written piece by piece has got: still `blank`, an `open` object,
 * `closed` (a whole object: the arguments are complete), or `broken` (not an object, or text after
 * it). Pieces may split anywhere, a string or an escape included.
 */
export interface JsonProgress {
  state: "blank" | "open" | "closed" | "broken";
  depth: number;
  inString: boolean;
  escaped: boolean;
}

/** A new progress, before any text. */
export function jsonProgress(): JsonProgress {
  return { state: "blank", depth: 0, inString: false, escaped: false };
}

const WHITESPACE = " \t\n\r";

/** Advances `progress` over the next piece of the text. */
export function scanJson(progress: JsonProgress, text: string): void {
  for (let i = 0; i < text.length && progress.state !== "broken"; i++) {
    const char = text.charAt(i);
    if (progress.inString) {
      if (progress.escaped) progress.escaped = false;
      else if (char === "\\") progress.escaped = true;
      else if (char === '"') progress.inString = false;
    } else if (!WHITESPACE.includes(char)) {
      if (progress.state === "closed" || (progress.state === "blank" && char !== "{")) {
        progress.state = "broken";
      } else if (char === '"') progress.inString = true;
      else if (char === "{" || char === "[") {
        progress.state = "open";
        progress.depth++;
      } else if ((char === "}" || char === "]") && --progress.depth === 0) {
        progress.state = "closed";
      }
    }
  }
}
