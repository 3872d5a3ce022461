/// <reference lib="dom" />
/**
 * `<ignite-thermostat>`: a plain custom element that shows the thermostat, lets a person change
 * it, and offers its commands to the browser's agent through WebMCP while it is on the page.
 */
import type { AgentComponent } from "ignite-element/tools";
import { provideWebMcp } from "ignite-element/tools/webmcp";
import {
  createThermostat,
  type Mode,
  type Thermostat,
  type ThermostatEvent,
  type ThermostatState,
} from "./thermostat.js";
import { FACE, showState } from "./thermostat-face.js";

const TEMPLATE = `${FACE}  <p class="webmcp" data-webmcp></p>
  <h2>What the agent did</h2>
  <ol data-activity></ol>
`;

export class ThermostatElement extends HTMLElement {
  readonly thermostat: Thermostat = createThermostat();
  #stop: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;

  connectedCallback(): void {
    this.innerHTML = TEMPLATE;
    this.addEventListener("click", this.#onClick);
    this.#unsubscribe = this.thermostat.subscribe?.(() => this.#render());
    this.#render();
    const status = this.#part("[data-webmcp]");
    try {
      this.#stop = provideWebMcp(this.#agentView(), {
        onError: (error, tool) => {
          status.textContent = `WebMCP refused ${tool ?? "a change"}: ${String(error)}`;
        },
      });
      status.textContent =
        "Its commands are offered to this browser's agent through WebMCP: ask it to warm the room.";
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
      status.classList.add("missing");
    }
  }

  disconnectedCallback(): void {
    this.#stop?.();
    this.#unsubscribe?.();
    this.removeEventListener("click", this.#onClick);
  }

  /** The thermostat as the agent sees it: the same component, each call it runs logged. */
  #agentView(): AgentComponent<ThermostatState, ThermostatEvent> {
    const { thermostat } = this;
    return {
      getSchema: () => thermostat.getSchema(),
      canExecute: (command) => thermostat.canExecute?.(command) === true,
      subscribe: (listener) => thermostat.subscribe?.(listener) ?? (() => {}),
      execute: (command, input) => {
        const item = document.createElement("li");
        item.textContent = input === undefined ? command : `${command} ${JSON.stringify(input)}`;
        this.#part("[data-activity]").append(item);
        return thermostat.execute(command, input);
      },
    };
  }

  #onClick = (event: Event): void => {
    const button = event.target instanceof HTMLElement ? event.target.closest("button") : null;
    if (!button) return;
    const { mode, step } = button.dataset;
    if (mode !== undefined) this.thermostat.press({ mode: mode as Mode }); // one of the buttons above
    if (step !== undefined) this.thermostat.press({ step: Number(step) });
  };

  #render(): void {
    showState(this, this.thermostat.state);
  }

  #part(selector: string): HTMLElement {
    const part = this.querySelector<HTMLElement>(selector);
    if (!part) throw new Error(`<ignite-thermostat> lost its ${selector}`);
    return part;
  }
}
