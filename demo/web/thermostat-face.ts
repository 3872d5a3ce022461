/// <reference lib="dom" />
/**
 * What every `<ignite-thermostat>` shows a person, wherever it runs (the WebMCP page, the MCP App
 * view): the reading and the buttons, and the state drawn into them. Each element adds its own
 * parts below and says what a click does.
 */
import type { ThermostatState } from "./thermostat.js";

/** The reading and the buttons: a click names a mode (`data-mode`) or a step (`data-step`). */
export const FACE = `
  <p class="reading"><strong data-target>…</strong> °C · <span data-mode></span><span data-boost></span></p>
  <p class="buttons">
    <button data-mode="heat">Heat</button>
    <button data-mode="cool">Cool</button>
    <button data-mode="off">Off</button>
    <button data-step="-0.5" aria-label="Colder">−</button>
    <button data-step="0.5" aria-label="Warmer">+</button>
  </p>
`;

/** Draws `state` into the face under `root` (a part it does not find is passed over). */
export function showState(root: ParentNode, { mode, target, boostMinutes }: ThermostatState): void {
  const write = (selector: string, text: string) => {
    const part = root.querySelector(selector);
    if (part) part.textContent = text;
  };
  write("[data-target]", target.toFixed(1));
  write("[data-mode]", mode);
  write("[data-boost]", boostMinutes > 0 ? ` · boost ${boostMinutes} min` : "");
  root.querySelectorAll<HTMLButtonElement>("button[data-mode]").forEach((button) => {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  });
}
