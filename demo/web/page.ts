/// <reference lib="dom" />
/** The demo page's script: defines `<ignite-thermostat>`, which offers itself to the agent. */
import { ThermostatElement } from "./thermostat-element.js";

customElements.define("ignite-thermostat", ThermostatElement);
