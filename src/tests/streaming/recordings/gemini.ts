import { FinishReason, type GenerateContentResponse, type Part } from "@google/genai";

/**
 * `streamGenerateContent?alt=sse` streams as the Gemini API documents them: each event a whole
 * `GenerateContentResponse` with the parts generated since the last one (a function call always
 * whole in one part), `usageMetadata`, `modelVersion` and `responseId`; the last one carries
 * `finishReason`. Typed as the SDK's own response (its fields, as the JSON has them).
 */
export type GeminiChunk = Omit<
  GenerateContentResponse,
  | "text"
  | "data"
  | "functionCalls"
  | "executableCode"
  | "codeExecutionResult"
  | "initialPromptTokenCount"
>;

const usage = { promptTokenCount: 80, candidatesTokenCount: 24, totalTokenCount: 104 };

function chunk(parts: Part[], finishReason?: FinishReason): GeminiChunk {
  return {
    candidates: [
      { content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) },
    ],
    usageMetadata: finishReason ? usage : { promptTokenCount: 80, totalTokenCount: 80 },
    modelVersion: "gemini-2.5-flash",
    responseId: "r-stream-1",
  };
}

/** A thought summary in two chunks, answer text in two, then three calls, the first signed. */
export function geminiToolTurn(todo: string): GeminiChunk[] {
  return [
    chunk([{ text: "**Planning** Count,", thought: true }]),
    chunk([{ text: " note, reset.", thought: true }]),
    chunk([{ text: "On " }]),
    chunk([{ text: "it." }]),
    chunk([
      { functionCall: { name: "increment", args: { by: 2 } }, thoughtSignature: "Cr8CAdHtim9=" },
    ]),
    chunk(
      [
        { functionCall: { name: todo, args: { value: 'buy "oat" milk é' } } },
        { functionCall: { name: "reset" } },
      ],
      FinishReason.STOP,
    ),
  ];
}

/** The same turn as `generateContent` returns it without streaming. */
export function geminiToolResponse(todo: string): GeminiChunk {
  return chunk(
    [
      { text: "**Planning** Count, note, reset.", thought: true },
      { text: "On it." },
      { functionCall: { name: "increment", args: { by: 2 } }, thoughtSignature: "Cr8CAdHtim9=" },
      { functionCall: { name: todo, args: { value: 'buy "oat" milk é' } } },
      { functionCall: { name: "reset" } },
    ],
    FinishReason.STOP,
  );
}

/** The model's answer after the tools ran; its signature comes last, on an empty text part. */
export const geminiFinalTurn: GeminiChunk[] = [
  chunk([{ text: "Done: count " }]),
  chunk([{ text: "2." }]),
  chunk([{ text: "", thoughtSignature: "EjQKMgEM=" }], FinishReason.STOP),
];
