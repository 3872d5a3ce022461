import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startDemo, stopDemo } from "../started.js";
import { createThermostat } from "./thermostat.js";

let running: ChildProcess | undefined;
afterEach(() => {
  stopDemo(running);
  running = undefined;
});

describe("npm run demo:web", () => {
  it("serves the thermostat page and its script, and prints how to try it", async () => {
    const { child, output } = await startDemo("demo:web");
    running = child;
    const url = /WebMCP demo: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
    expect(url).toBeDefined();
    expect(output).toContain("--enable-features=WebMCP");
    expect(output).toContain("chrome://flags");

    const page = await fetch(url ?? "");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain("<ignite-thermostat></ignite-thermostat>");
    expect(html).toContain('<script type="module" src="/page.js"></script>');

    const script = await fetch(new URL("page.js", url));
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const code = await script.text();
    expect(code).toContain('customElements.define("ignite-thermostat"');
    expect(code).toContain("modelContext");
    expect((await fetch(new URL("elsewhere", url))).status).toBe(404);
  }, 60_000);
});

describe("the demo's thermostat", () => {
  it("offers boost only while heating and not boosting", () => {
    const thermostat = createThermostat();
    expect(thermostat.canExecute?.("boost")).toBe(false);
    thermostat.press({ mode: "heat" });
    expect(thermostat.canExecute?.("boost")).toBe(true);
    thermostat.execute("boost", { minutes: 15 });
    expect(thermostat.canExecute?.("boost")).toBe(false);
    thermostat.press({ mode: "off" });
    expect(thermostat.state).toEqual({ mode: "off", target: 19, boostMinutes: 0 });
  });

  it("announces a change to its subscribers, and only a real one", () => {
    const thermostat = createThermostat();
    let heard = 0;
    const stop = thermostat.subscribe?.(() => heard++);
    thermostat.press({ step: 0.5 });
    thermostat.press({ step: 20 }); // clamped to 30
    thermostat.press({ step: 1 }); // already 30: nothing changes
    expect(thermostat.state.target).toBe(30);
    expect(heard).toBe(2);
    expect(thermostat.execute("setTarget", 30)).toEqual({ state: thermostat.state, events: [] });
    thermostat.execute("factoryReset");
    expect(heard).toBe(3);
    stop?.();
    thermostat.execute("setMode", "cool");
    expect(heard).toBe(3);
  });
});
