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
 * Then the room changes on its own: the model waits for the boost to warm the room (the bridge's
 * `waitFor` tool) and is told, in a note beside its results, that someone unlocked the front door
 * meanwhile — and locks it again. Everything it knows it reads from the messages it is sent.
 */
import type { ModelRequest } from "ignite-element/tools";
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTool,
  AnthropicToolResultBlockParam,
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
  ({ messages }, use) => {
    // Waiting only makes sense for a boost that started; one refused would never warm the room.
    const boost = results(messages)[0];
    if (boost === undefined || boost.is_error === true) {
      return [
        text(
          "I couldn't start the heating boost, so the room won't warm up quickly. The lights are " +
            "warm at 30 % and the front door is locked.",
        ),
      ];
    }
    // The run is the same every time: the boost's timers were set while turn 5's call ran, and
    // a scripted run answers only promises, so no timer fires before this wait is listening;
    // then both fire during it, in the order of their delays (the person first, then the warmth).
    return [
      text("The boost is running. I'll wait until the room is warm before I say it's ready."),
      use("waitFor", { event: "warmedUp" }),
    ];
  },
  ({ messages }, use) => {
    // What the wait answered, and what the loop told it happened outside its calls.
    const waited = results(messages)[0];
    const answer = waited?.is_error === true ? undefined : parse(waited?.content);
    const note = noteOf(messages);
    const warmedUp = answer?.events.some((event) => event.type === "warmedUp") === true;
    const warm =
      answer === undefined
        ? "The wait for the room to warm up did not work out."
        : warmedUp
          ? `The room has warmed up to ${answer.snapshot.thermostat.temperature} °C.`
          : `The room is not warm yet: ${answer.waited}`;
    // The note lists the events that happened outside its calls; it reacts to the door's.
    if (note === undefined || !note.includes("doorUnlocked")) {
      return [text(`${warm} All set for movie night: warm lights at 30 %, front door locked.`)];
    }
    return [
      text(`${warm} While I waited, someone unlocked the front door, so I'm locking it again.`),
      use("lockDoor", {}),
    ];
  },
  (_request, use) => [
    text("Door locked. Here is the room's temperature as it warmed up."),
    use("chart", {}),
  ],
  () => [
    text(
      "All set for movie night: warm lights at 30 %, the room warmed to 21.5 °C by a " +
        "30-minute boost (the chart shows the jump), and the front door is locked again after " +
        "someone came in. Enjoy the film!",
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

/** The `tool_result` blocks of the last message: what the model's last calls were answered. */
function results(messages: readonly AnthropicMessage[]): AnthropicToolResultBlockParam[] {
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return [];
  return last.content.flatMap((block) => (block.type === "tool_result" ? [block] : []));
}

/** The text the loop added beside the results (`tellChanges`): what changed outside the calls. */
function noteOf(messages: readonly AnthropicMessage[]): string | undefined {
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return undefined;
  const notes = last.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  return notes.length === 0 ? undefined : notes.join("\n");
}

/** What a wait answered, as the model reads it: the JSON text of its observation. */
interface WaitAnswer {
  waited: string;
  snapshot: { thermostat: { temperature: number } };
  events: { type: string }[];
}

function parse(content: AnthropicToolResultBlockParam["content"]): WaitAnswer | undefined {
  // The dialect writes every result as text.
  if (typeof content !== "string") return undefined;
  try {
    return JSON.parse(content) as WaitAnswer;
  } catch {
    return undefined;
  }
}

/** The first issue of the last failed call, as the model reads it in its `tool_result`. */
function firstIssue(messages: readonly AnthropicMessage[]): string | undefined {
  for (const block of results(messages)) {
    if (block.is_error !== true || typeof block.content !== "string") continue;
    // The dialect writes "Error (InvalidInput): …\nIssues: [{ path, message, keyword }]".
    const issues = block.content.split("\nIssues: ")[1];
    if (issues === undefined) continue;
    const [issue] = JSON.parse(issues) as { path: string; message: string }[];
    if (issue) return `${issue.path} ${issue.message}`;
  }
  return undefined;
}
