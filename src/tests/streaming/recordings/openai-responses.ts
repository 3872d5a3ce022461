import type {
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ResponseStreamEvent,
  ResponseToolSearchCall,
  ResponseToolSearchOutputItem,
} from "openai/resources/responses/responses";

/**
 * Responses API streams as the API documents them: `response.created` and `.in_progress`, then
 * per output item `response.output_item.added`, its part and delta events and
 * `response.output_item.done`, and `response.completed` (or `.incomplete`) carrying the whole
 * response. Typed as the SDK's own `ResponseStreamEvent`.
 */

/** A response as the API sends it: without `output_text`, which the SDK computes. */
export type WireResponse = Omit<Response, "output_text">;

function response(status: Response["status"], output: ResponseOutputItem[]): WireResponse {
  return {
    id: "resp_67ccd2bed1ec8190",
    object: "response",
    created_at: 1_741_476_542,
    status,
    model: "gpt-5",
    output,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    top_p: 1,
    tool_choice: "auto",
    tools: [],
    // Counted once the response is done.
    ...(status === "in_progress"
      ? {}
      : {
          usage: {
            input_tokens: 40,
            input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
            output_tokens: 12,
            output_tokens_details: { reasoning_tokens: 8 },
            total_tokens: 52,
          },
        }),
  };
}

type Lifecycle =
  | "response.created"
  | "response.in_progress"
  | "response.completed"
  | "response.incomplete";

/** A lifecycle event; the SDK types its response with `output_text`, the wire has none. */
function lifecycle(type: Lifecycle, carried: WireResponse): ResponseStreamEvent {
  return { type, sequence_number: 0, response: carried as Response };
}

const reasoning: ResponseReasoningItem = {
  type: "reasoning",
  id: "rs_68af4030592c81938ec0a5fbab4a3e9f",
  summary: [{ type: "summary_text", text: "Count, note, reset." }],
  encrypted_content: "gAAAAABo-encrypted",
};

const message: ResponseOutputMessage = {
  type: "message",
  id: "msg_68af40337e5c8193a9a8f8e5c4b7d2f1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "On it.", annotations: [], logprobs: [] }],
};

function call(id: string, name: string, args: string): ResponseFunctionToolCall {
  return {
    type: "function_call",
    id: `fc_${id}`,
    call_id: `call_${id}`,
    name,
    arguments: args,
    status: "completed",
  };
}

function opened(item: ResponseFunctionToolCall, output_index: number): ResponseStreamEvent {
  return {
    type: "response.output_item.added",
    sequence_number: 0,
    output_index,
    item: { ...item, arguments: "", status: "in_progress" },
  };
}

function args(
  item: ResponseFunctionToolCall,
  output_index: number,
  delta: string,
): ResponseStreamEvent {
  return {
    type: "response.function_call_arguments.delta",
    sequence_number: 0,
    item_id: item.id ?? "",
    output_index,
    delta,
  };
}

function closed(item: ResponseFunctionToolCall, output_index: number): ResponseStreamEvent[] {
  return [
    {
      type: "response.function_call_arguments.done",
      sequence_number: 0,
      item_id: item.id ?? "",
      output_index,
      name: item.name,
      arguments: item.arguments,
    },
    { type: "response.output_item.done", sequence_number: 0, output_index, item },
  ];
}

/** The events numbered in order, as the API numbers them. */
function numbered(events: ResponseStreamEvent[]): ResponseStreamEvent[] {
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}

/** A reasoning item, a message, then three calls, two of them streaming interleaved. */
export function responsesToolTurn(todo: string): ResponseStreamEvent[] {
  const increment = call("Wd2k1", "increment", '{"by":2}');
  const note = call("Xf3m9", todo, '{"value":"buy \\"oat\\" milk \\u00e9"}');
  const reset = call("Yq8p4", "reset", "{}");
  const partRef = { item_id: message.id, output_index: 1, content_index: 0 };
  const summaryRef = { item_id: reasoning.id, output_index: 0, summary_index: 0 };
  return numbered([
    lifecycle("response.created", response("in_progress", [])),
    lifecycle("response.in_progress", response("in_progress", [])),
    {
      type: "response.output_item.added",
      sequence_number: 0,
      output_index: 0,
      item: { ...reasoning, summary: [], encrypted_content: null },
    },
    {
      type: "response.reasoning_summary_part.added",
      sequence_number: 0,
      ...summaryRef,
      part: { type: "summary_text", text: "" },
    },
    {
      type: "response.reasoning_summary_text.delta",
      sequence_number: 0,
      ...summaryRef,
      delta: "Count, note,",
    },
    {
      type: "response.reasoning_summary_text.delta",
      sequence_number: 0,
      ...summaryRef,
      delta: " reset.",
    },
    {
      type: "response.reasoning_summary_text.done",
      sequence_number: 0,
      ...summaryRef,
      text: "Count, note, reset.",
    },
    {
      type: "response.reasoning_summary_part.done",
      sequence_number: 0,
      ...summaryRef,
      part: { type: "summary_text", text: "Count, note, reset." },
    },
    { type: "response.output_item.done", sequence_number: 0, output_index: 0, item: reasoning },
    {
      type: "response.output_item.added",
      sequence_number: 0,
      output_index: 1,
      item: { ...message, status: "in_progress", content: [] },
    },
    {
      type: "response.content_part.added",
      sequence_number: 0,
      ...partRef,
      part: { type: "output_text", text: "", annotations: [], logprobs: [] },
    },
    {
      type: "response.output_text.delta",
      sequence_number: 0,
      ...partRef,
      delta: "On ",
      logprobs: [],
    },
    {
      type: "response.output_text.delta",
      sequence_number: 0,
      ...partRef,
      delta: "it.",
      logprobs: [],
    },
    {
      type: "response.output_text.done",
      sequence_number: 0,
      ...partRef,
      text: "On it.",
      logprobs: [],
    },
    {
      type: "response.content_part.done",
      sequence_number: 0,
      ...partRef,
      part: { type: "output_text", text: "On it.", annotations: [], logprobs: [] },
    },
    { type: "response.output_item.done", sequence_number: 0, output_index: 1, item: message },
    opened(increment, 2),
    args(increment, 2, '{"b'),
    opened(note, 3),
    args(note, 3, '{"value":"buy \\'),
    args(increment, 2, 'y":2}'),
    args(note, 3, '"oat\\" milk \\u00e9"'),
    ...closed(increment, 2),
    args(note, 3, "}"),
    ...closed(note, 3),
    opened(reset, 4),
    args(reset, 4, "{}"),
    ...closed(reset, 4),
    lifecycle("response.completed", responsesToolResponse(todo)),
  ]);
}

/** The same turn as `responses.create()` returns it without streaming. */
export function responsesToolResponse(todo: string): WireResponse {
  return response("completed", [
    reasoning,
    message,
    call("Wd2k1", "increment", '{"by":2}'),
    call("Xf3m9", todo, '{"value":"buy \\"oat\\" milk \\u00e9"}'),
    call("Yq8p4", "reset", "{}"),
  ]);
}

/** A turn `max_output_tokens` cut inside the second call's arguments: `response.incomplete`. */
export function responsesCutTurn(): ResponseStreamEvent[] {
  const first = call("a1", "increment", '{"by":2}');
  const second = call("b2", "increment", "");
  return numbered([
    lifecycle("response.created", response("in_progress", [])),
    opened(first, 0),
    args(first, 0, '{"by":2}'),
    ...closed(first, 0),
    opened(second, 1),
    args(second, 1, '{"by":'),
    lifecycle(
      "response.incomplete",
      response("incomplete", [first, { ...second, arguments: '{"by":', status: "incomplete" }]),
    ),
  ]);
}

/** The model's answer after the tools ran. */
export function responsesFinalTurn(): ResponseStreamEvent[] {
  return numbered([
    lifecycle("response.created", response("in_progress", [])),
    lifecycle(
      "response.completed",
      response("completed", [
        {
          ...message,
          content: [{ type: "output_text", text: "Done.", annotations: [], logprobs: [] }],
        },
      ]),
    ),
  ]);
}

/**
 * A turn of the Responses API's hosted tool search (`toolsOnDemand(openaiResponses)`): the
 * `tool_search_call` and `tool_search_output` items (each added, then done whole), loading
 * `found`, then the model's call of it, its arguments streamed.
 */
export function responsesSearchTurn(found: string, input: string): ResponseStreamEvent[] {
  const search: ResponseToolSearchCall = {
    type: "tool_search_call",
    id: "tsc_68af40",
    call_id: null,
    execution: "server",
    status: "completed",
    arguments: { query: "reserve product 12" },
  };
  const loaded: ResponseToolSearchOutputItem = {
    type: "tool_search_output",
    id: "tso_68af40",
    call_id: null,
    execution: "server",
    status: "completed",
    tools: [
      {
        type: "function",
        name: found,
        parameters: { type: "object", properties: {} },
        strict: false,
        defer_loading: true,
      },
    ],
  };
  const reserve = call("Zr5t2", found, input);
  const item = (output_index: number, done: ResponseOutputItem): ResponseStreamEvent[] => [
    {
      type: "response.output_item.added",
      sequence_number: 0,
      output_index,
      item: { ...done, status: "in_progress" } as ResponseOutputItem,
    },
    { type: "response.output_item.done", sequence_number: 0, output_index, item: done },
  ];
  return numbered([
    lifecycle("response.created", response("in_progress", [])),
    ...item(0, search),
    ...item(1, loaded),
    opened(reserve, 2),
    args(reserve, 2, input.slice(0, 4)),
    args(reserve, 2, input.slice(4)),
    ...closed(reserve, 2),
    lifecycle("response.completed", response("completed", [search, loaded, reserve])),
  ]);
}
