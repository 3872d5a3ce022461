/** OpenAI responses in the shapes OpenAI documents, for a recording server to answer with. */
import { chatCompletion } from "../clients/chat-completion.js";

let sequence = 0;

/** A tool call in an assistant message of the Chat Completions API. */
export function toolCall(id: string, name: string, args: string) {
  return { id, type: "function", function: { name, arguments: args } };
}

/** A Chat Completions response whose one choice asks for `calls`. */
export function callsCompletion(...calls: ReturnType<typeof toolCall>[]) {
  return completion(
    { role: "assistant", content: null, tool_calls: calls, refusal: null, annotations: [] },
    "tool_calls",
  );
}

/** A Chat Completions response whose one choice answers in text. */
export function textCompletion(text: string) {
  return completion({ role: "assistant", content: text, refusal: null, annotations: [] }, "stop");
}

function completion(message: Record<string, unknown>, finish_reason: string) {
  sequence += 1;
  // Each reply an id of its own, as the API gives.
  return {
    ...chatCompletion(message, finish_reason),
    id: `chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6P${sequence}`,
  };
}

/** A `function_call` output item of the Responses API. */
export function functionCall(callId: string, name: string, args: string) {
  return {
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: args,
    status: "completed",
  };
}

/** An assistant `message` output item of the Responses API. */
export function outputMessage(text: string) {
  return {
    type: "message",
    id: "msg_67ccd3acc8d48190a77525dc6de64b4104becb25c45c1d41",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/** A completed Responses API response with `output`. */
export function response(output: unknown[]) {
  sequence += 1;
  return {
    id: `resp_67ccd3a9da748190baa7f1570fe91ac6${sequence}`,
    object: "response",
    created_at: 1_741_476_777,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: "gpt-4o-2024-08-06",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: 81,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 121,
    },
    user: null,
    metadata: {},
  };
}
