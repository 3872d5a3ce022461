/**
 * How the demo shows a run: per turn the tools offered, what the loop told the model changed
 * outside its calls, the model's words, every call with the route it was validated to (or, for a
 * wait, what ended it) or the error it got, and the events; at the end, the room. Pure
 * string building — the caller writes the lines — and ANSI colour only when asked, so piped
 * output and logs stay plain text.
 */
import type { PendingCall, Route, ToolError, ToolLoopStop } from "ignite-element/tools";
import type { RoomEvent, RoomState } from "./room.js";

/** One call as the demo reports it. */
export interface CallRecord {
  name: string;
  input: unknown;
  /** The validated command and input (declared defaults applied), when the call was executed. */
  route?: Route;
  error?: ToolError;
  /** What ended the model's wait (`waitFor`), in its words, when the call was one. */
  waited?: string;
  /** The events the call emitted; for a wait, the event it waited for, when it came. */
  events: RoomEvent[];
  /** The content parts it answered with beside its state, each in a few words. */
  content?: string[];
}

/** One model turn as the demo reports it. */
export interface TurnRecord {
  turn: number;
  /** What the loop told the model changed outside its calls, with this turn's request. */
  told?: string;
  /** The model's text beside (or instead of) its calls. */
  text: string;
  calls: CallRecord[];
}

type Paint = (text: string) => string;

export interface Style {
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  cyan: Paint;
  magenta: Paint;
}

/** Colour for a terminal that asked for none is noise; https://no-color.org says how to ask. */
export function shouldColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

/** The palette: SGR codes when `color`, identity functions otherwise. */
export function style(color: boolean): Style {
  const sgr =
    (open: number, close: number): Paint =>
    (text) =>
      color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}

/** The banner: what this is, which model, and how the user's request reads. */
export function formatHeader(s: Style, model: string, prompt: string, notes: string[]): string[] {
  return [
    s.bold("ignite-element/tools demo — an agent loop over a smart-home room"),
    `${s.dim("model")}  ${model}`,
    ...notes.map((note) => `${s.dim("note")}   ${note}`),
    `${s.dim("user")}   ${prompt}`,
  ];
}

/** The line that opens a turn: the tools the model is offered now. */
export function formatOffered(s: Style, turn: number, offered: readonly string[]): string[] {
  const names = offered.length === 0 ? s.dim("(none)") : offered.map(s.cyan).join(", ");
  return ["", `${s.bold(`turn ${turn}`)}  ${s.dim("offered:")} ${names}`];
}

/** What the model was told with its request, what it said, and every call it made, with its outcome. */
export function formatTurn(s: Style, record: TurnRecord, label: string): string[] {
  const lines: string[] = [];
  // Told before the model answered: it went out with the request.
  if (record.told !== undefined) {
    const [first = "", ...rest] = record.told.split("\n");
    lines.push(`  ${s.yellow("told")} ${first}`, ...rest.map((line) => `    ${s.dim(line)}`));
  }
  if (record.text !== "") {
    const [first = "", ...rest] = record.text.split("\n");
    lines.push(`  ${s.dim(`${label}:`)} ${first}`, ...rest.map((line) => `    ${line}`));
  }
  for (const call of record.calls) lines.push(...formatCall(s, call));
  if (record.calls.length === 0) lines.push(`  ${s.dim("(no tool calls: the loop is done)")}`);
  return lines;
}

function formatCall(s: Style, call: CallRecord): string[] {
  const lines = [`  ${s.bold("call")} ${s.cyan(call.name)} ${json(call.input)}`];
  // A wait runs no command: what it says of the wait is its outcome.
  if (call.waited !== undefined) lines.push(`    ${s.green("✓ waited")} ${call.waited}`);
  else if (call.route) {
    lines.push(`    ${s.green("✓ route")} ${call.route.command} ${json(call.route.input)}`);
  }
  if (call.error) {
    const paint = call.error.kind === "ExecuteFailed" ? s.red : s.yellow;
    lines.push(`    ${paint(`✗ ${call.error.kind}`)} ${call.error.message}`);
    if (call.error.kind === "InvalidInput") {
      for (const issue of call.error.issues) {
        lines.push(`      ${s.dim("issue")} ${issue.path || "(input)"} ${issue.message}`);
      }
    }
  }
  for (const event of call.events) {
    const payload = "payload" in event ? ` ${json(event.payload)}` : "";
    lines.push(`    ${s.magenta("event")} ${event.type}${payload}`);
  }
  for (const part of call.content ?? []) lines.push(`    ${s.magenta("content")} ${part}`);
  return lines;
}

/** How each dialect would send the same answer with content parts: one line each. */
export function formatCarried(
  s: Style,
  command: string,
  carried: readonly [dialect: string, block: string][],
): string[] {
  const width = Math.max(...carried.map(([dialect]) => dialect.length));
  return [
    "",
    `${s.bold("how each dialect carries")} ${s.cyan(command)}${s.bold("'s answer")}  ${s.dim("(payloads elided)")}`,
    ...carried.map(([dialect, block]) => `  ${dialect.padEnd(width)}  ${s.dim(block)}`),
  ];
}

/** A call the approval policy asked about, and what was decided. */
export function formatApproval(
  s: Style,
  call: PendingCall,
  approved: boolean,
  how: "asked" | "automatic",
): string {
  const flags = Object.entries(call.flags)
    .flatMap(([flag, on]) => (on ? [flag] : []))
    .join(", ");
  const verdict = approved ? s.green("approved") : s.red("denied");
  const by = how === "automatic" ? s.dim(" (automatically: no terminal to ask on)") : "";
  return `  ${s.yellow("approval")} ${call.command} ${json(call.input)}${flags ? ` [${flags}]` : ""} — ${verdict}${by}`;
}

const STOPS: Record<ToolLoopStop, string> = {
  done: "the model answered without calling a tool",
  maxTurns: "the turn budget ran out",
  aborted: "aborted",
  error: "the model call failed",
  approval: "a call waits for a person's approval",
};

/** The room as it ended, and why the loop stopped. */
export function formatFinal(
  s: Style,
  state: RoomState,
  stop: ToolLoopStop,
  turns: readonly TurnRecord[],
): string[] {
  const calls = turns.flatMap((turn) => turn.calls);
  const failed = calls.filter((call) => call.error).length;
  const { lights, thermostat, door } = state;
  const boost = thermostat.boostMinutes > 0 ? `, boost ${thermostat.boostMinutes} min` : "";
  const room = `, room at ${thermostat.temperature} °C`;
  const summary = `${turns.length} turns, ${calls.length} calls, ${failed} refused or failed`;
  return [
    "",
    `${s.bold("final state")}  ${s.dim(`(${STOPS[stop]}; ${summary})`)}`,
    `  lights      ${lights.brightness} % ${lights.colour}`,
    `  thermostat  ${thermostat.mode}, target ${thermostat.target} °C${boost}${room}`,
    `  door        ${door}`,
  ];
}

function json(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value);
}
