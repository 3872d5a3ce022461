/**
 * The scripted model: a stand-in for a real one that plays a fixed, realistic conversation.
 *
 * It speaks the Anthropic Messages format rather than the fake dialect's plain data, so the
 * scripted run goes through exactly the code a real Anthropic run does — the same dialect turns
 * the manifest into tool definitions, reads the `tool_use` blocks and writes the `tool_result`
 * text the model reads back. What the demo prints is what a real model would have been sent.
 *
 * The script makes the mistakes real models make: a brightness on the wrong scale (rejected
 * with the issue, which it reads and fixes) and a gated command called before it is available.
 */
import type { ModelRequest } from "ignite-element/tools";
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTool,
} from "ignite-element/tools/anthropic";
import type { MessagesResponse } from "./models.js";

/** The user's request the script answers. */
export const SCRIPTED_PROMPT =
  "Make it cosy for movie night: dim, warm lights, warm the room up quickly, and lock the front door.";

type Block = AnthropicContentBlock & { readonly text?: unknown };
type Use = (name: string, input: unknown) => Block;
type Turn = (request: ModelRequest<AnthropicTool[], AnthropicMessage>, use: Use) => Block[];

const text = (value: string): Block => ({ type: "text", text: value });

const SCRIPT: Turn[] = [
  (_request, use) => [
    text("Setting the scene: warm lights first, and I'll lock the front door."),
    use("setLights", { brightness: 150, colour: "warm" }),
    use("lockDoor", {}),
  ],
  ({ messages }, use) => [
    // It reads the issue the bridge sent back rather than knowing the answer in advance.
    text(
      `The lights refused that (${firstIssue(messages) ?? "invalid input"}) — brightness is a ` +
        "percentage. 30 % is cosier for a film anyway.",
    ),
    use("setLights", { brightness: 30, colour: "warm" }),
  ],
  (_request, use) => [text("Now a quick heat boost to take the chill off."), use("boost", {})],
  (_request, use) => [
    text("Boost is only available in heat mode, so: heating on, target 21.5 °C."),
    use("setMode", { mode: "heat" }),
    use("setTarget", { celsius: 21.5 }),
  ],
  ({ tools }, use) => [
    text(
      tools.some((tool) => tool.name === "boost")
        ? "Heating is on and boost is offered now."
        : "Trying the boost again.",
    ),
    use("boost", {}),
  ],
  () => [
    text(
      "All set for movie night: warm lights at 30 %, heating to 21.5 °C with a 30-minute " +
        "boost, and the front door is locked. Enjoy the film!",
    ),
  ],
];

/**
 * A model function for `runToolLoop` with the Anthropic dialect. Each call of `scriptedModel()`
 * starts the conversation from its first turn.
 */
export function scriptedModel(): (
  request: ModelRequest<AnthropicTool[], AnthropicMessage>,
) => Promise<MessagesResponse> {
  let ids = 0;
  // Ids look like the API's, and are unique within the conversation, as the API requires.
  const use: Use = (name, input) => ({
    type: "tool_use",
    id: `toolu_scripted_${String(++ids).padStart(2, "0")}`,
    name,
    input,
  });
  return async (request) => {
    const turn = SCRIPT[request.turn - 1];
    const content = turn ? turn(request, use) : [text("(The script has ended.)")];
    return {
      id: `msg_scripted_${request.turn}`,
      type: "message",
      role: "assistant",
      model: "scripted",
      content,
      stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
    };
  };
}

/** The first issue of the last failed call, as the model reads it in its `tool_result`. */
function firstIssue(messages: readonly AnthropicMessage[]): string | undefined {
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return undefined;
  for (const block of last.content) {
    if (block.type !== "tool_result" || block.is_error !== true) continue;
    if (typeof block.content !== "string") continue;
    // The dialect writes "Error (InvalidInput): …\nIssues: [{ path, message, keyword }]".
    const issues = block.content.split("\nIssues: ")[1];
    if (issues === undefined) continue;
    const [issue] = JSON.parse(issues) as { path: string; message: string }[];
    if (issue) return `${issue.path} ${issue.message}`;
  }
  return undefined;
}
