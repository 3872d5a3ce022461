/**
 * A model-agnostic agent loop: ask the model with the tools available now, answer every call it
 * makes, append both in the dialect's message format, and repeat until it stops calling tools.
 * The application owns the model call (client, credentials, retries); the loop owns the order.
 */

import type { AbortSignalLike, NeutralToolCall, RuntimeEvent, ToolError } from "../core/types.js";
import type { LoopToolBridge, ToolCallAnswer } from "./bridge.js";

/** What the loop hands the application's model function each turn. */
export interface ModelRequest<ToolDefs, Message> {
  /** The tools available in the component's state now. */
  tools: ToolDefs;
  /** The conversation so far, in the dialect's message format. */
  messages: Message[];
  /** Pass it to your client so aborting the loop also aborts the request in flight. */
  signal?: AbortSignalLike;
  /** 1 for the first request. */
  turn: number;
}

/** One model turn and everything it caused. */
export interface ToolLoopStep<S, E extends RuntimeEvent, Response, ResultBlock> {
  turn: number;
  response: Response;
  calls: NeutralToolCall[];
  answers: ToolCallAnswer<S, E, ResultBlock>[];
  /** The errors among the answers, in call order. */
  errors: ToolError[];
}

/** Why the loop stopped: the model answered without tools, the turn budget ran out, or abort. */
export type ToolLoopStop = "done" | "maxTurns" | "aborted";

/** Options of `runToolLoop`. */
export interface ToolLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
> {
  /** A bridge made with a dialect that carries conversations (`appendTurn`). */
  tools: LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
  /** The application's own model call. A rejection (other than by abort) rejects the loop. */
  model: (request: ModelRequest<ToolDefs, Message>) => Promise<Response>;
  /** The conversation to start from (the user's request, a system prompt). Not mutated. */
  messages: readonly Message[];
  /** The most model requests to make. Default 10. */
  maxTurns?: number;
  signal?: AbortSignalLike;
  /** Called after each turn is answered. */
  onStep?: (step: ToolLoopStep<S, E, Response, ResultBlock>) => void;
}

/** The conversation, how it ended, and what the component last observed. */
export interface ToolLoopResult<S, E extends RuntimeEvent, Response, ResultBlock, Message> {
  stop: ToolLoopStop;
  /** The whole transcript: the starting messages, every model turn and every result. */
  messages: Message[];
  steps: ToolLoopStep<S, E, Response, ResultBlock>[];
  /** The snapshot of the last successful call, if any call succeeded. */
  snapshot: S | undefined;
  /** The model's last response, when there was one. */
  response: Response | undefined;
}

/** Runs the agent loop over `tools` until the model stops calling tools, `maxTurns`, or abort. */
export async function runToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
>(
  options: ToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message>,
): Promise<ToolLoopResult<S, E, Response, ResultBlock, Message>> {
  const { tools, model, maxTurns = 10, signal, onStep } = options;
  let messages = [...options.messages];
  const steps: ToolLoopStep<S, E, Response, ResultBlock>[] = [];
  let snapshot: S | undefined;
  let response: Response | undefined;
  const end = (stop: ToolLoopStop) => ({ stop, messages, steps, snapshot, response });

  for (let turn = 1; turn <= maxTurns; turn++) {
    if (signal?.aborted) return end("aborted");
    try {
      response = await model({ tools: tools.toToolDefs(), messages: [...messages], signal, turn });
    } catch (error) {
      if (signal?.aborted) return end("aborted");
      throw error;
    }
    // Every call is answered, even after an abort, so the transcript stays one a provider accepts.
    const answers = await tools.answerToolCalls(response, { signal });
    const blocks = answers.map((answer) => answer.block);
    messages = tools.appendTurn(messages, response, blocks);
    for (const { outcome } of answers) if (outcome.ok) snapshot = outcome.value.snapshot;
    const step = {
      turn,
      response,
      calls: answers.map((answer) => answer.call),
      answers,
      errors: answers.flatMap((answer) => (answer.outcome.ok ? [] : [answer.outcome.error])),
    };
    steps.push(step);
    onStep?.(step);
    if (answers.length === 0) return end("done");
    if (signal?.aborted) return end("aborted");
  }
  return end("maxTurns");
}
