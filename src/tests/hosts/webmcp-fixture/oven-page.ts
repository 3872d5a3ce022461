/// <reference lib="dom" />
/**
 * The wait test's page: an oven offered through `provideWebMcp` with the wait tool, a thermostat
 * on the page that reports it is preheated a moment after the agent starts waiting, and the
 * page's own agent (`document.modelContext.executeTool`), which can cancel a call.
 */
import { waitTool } from "ignite-element/tools";
import { provideWebMcp } from "ignite-element/tools/webmcp";
import { oven } from "../../shell/oven.js";

const { component, world } = oven();
const errors: string[] = [];
provideWebMcp(component, {
  wait: waitTool({ maxMs: 30_000 }),
  onError: (error) => errors.push(String(error)),
});
// What provideWebMcp holds itself (its subscription, to follow availability): a wait adds to it.
const idle = world.held();
/** The listeners a wait holds on the oven now: 2 while one waits (subscribe and onEvent). */
const waitHeld = () => world.held() - idle;

/** Resolves once a wait holds the oven: its subscribe and onEvent listeners. */
async function waitHolds(): Promise<void> {
  while (waitHeld() < 2) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The consumer half of WebMCP that Chromium gives the page's own agent. */
interface PageAgent {
  getTools(): Promise<Array<{ name: string }>>;
  executeTool(
    tool: { name: string },
    input: unknown,
    options: { signal: AbortSignal },
  ): Promise<unknown>;
}

const fixture = {
  errors,
  held: waitHeld,
  /** The thermostat reports, on a timer, once the agent waits. */
  async preheatOnceWaited(): Promise<void> {
    await waitHolds();
    setTimeout(() => world.preheated(), 20);
  },
  openDoor: () => world.openDoor(),
  /**
   * The page's agent calls the wait tool and cancels the call once it waits: how the call ended,
   * and the listeners the oven holds afterwards.
   */
  async cancelledWait(): Promise<{ ended: string; held: number }> {
    const agent = Reflect.get(document, "modelContext") as PageAgent;
    const tool = (await agent.getTools()).find((candidate) => candidate.name === "waitFor");
    if (!tool) throw new Error("no waitFor tool");
    const controller = new AbortController();
    const call = agent.executeTool(tool, { event: "preheated" }, { signal: controller.signal });
    await waitHolds();
    controller.abort("the agent moved on");
    const ended = await call.then(
      (result) => `resolved ${JSON.stringify(result)}`,
      (reason) => `rejected ${String(reason)}`,
    );
    // Released when the page's execute settles, a task after the browser gives up the call.
    while (waitHeld() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { ended, held: waitHeld() };
  },
};
Object.assign(window, { fixture });
export type Fixture = typeof fixture;
