/**
 * A Chat Completions response as the API sends it (the API reference's example), with the
 * message and finish reason a test gives: what the recording server answers the OpenAI SDK.
 */
export function chatCompletion(message: Record<string, unknown>, finish_reason: string) {
  return {
    id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion",
    created: 1_741_570_283,
    model: "gpt-4o-2024-08-06",
    choices: [{ index: 0, message, logprobs: null, finish_reason }],
    usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    service_tier: "default",
    system_fingerprint: "fp_fc9f1d7035",
  };
}
