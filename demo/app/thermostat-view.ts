/// <reference lib="dom" />
/**
 * `<ignite-thermostat>` as an MCP App view shows it: the demo room's thermostat, drawn from the
 * server's component the view's runtime gives it (`component`), its buttons running the same
 * commands the model calls — through the host, the bridge on the server, exactly once.
 */
import type { ViewComponent } from "../../src/tools/hosts/mcp-app/runtime.js";
import type { Mode, ThermostatEvent, ThermostatState } from "../web/thermostat.js";
import { FACE, showState } from "../web/thermostat-face.js";

const TEMPLATE = `${FACE}  <p data-said></p>
`;

class ThermostatView extends HTMLElement {
  #component: ViewComponent<ThermostatState, ThermostatEvent> | undefined;
  #stop: (() => void) | undefined;

  /** The server's thermostat, as the view's runtime hands it over. */
  set component(component: ViewComponent<ThermostatState, ThermostatEvent>) {
    this.#stop?.();
    this.#component = component;
    this.#stop = component.subscribe(() => this.#render());
    this.#render();
  }

  connectedCallback(): void {
    this.innerHTML = TEMPLATE;
    this.addEventListener("click", this.#onClick);
    this.#render();
  }

  disconnectedCallback(): void {
    this.#stop?.();
    this.removeEventListener("click", this.#onClick);
  }

  #onClick = (event: Event): void => {
    const button = event.target instanceof HTMLElement ? event.target.closest("button") : null;
    const state = this.#component?.getSnapshot();
    if (!button || !state) return;
    const { mode, step } = button.dataset;
    // A command whose input is not an object takes `{ value }` as its MCP tool does.
    const call =
      mode !== undefined
        ? this.#component?.execute("setMode", { value: mode as Mode })
        : this.#component?.execute("setTarget", { value: state.target + Number(step) });
    call?.then(
      () => this.#say(""),
      (error: unknown) => this.#say(error instanceof Error ? error.message : String(error)),
    );
  };

  #say(text: string): void {
    const said = this.querySelector("[data-said]");
    if (said) said.textContent = text;
  }

  #render(): void {
    const state = this.#component?.getSnapshot();
    if (state) showState(this, state);
  }
}

customElements.define("ignite-thermostat", ThermostatView);
