import { describe, expect, it } from "vitest";
import { igniteTools, type Observation } from "../../tools/index.js";
import { Counter } from "../fixtures.js";
import { everyDialect } from "./every-dialect.js";

// `project` is the application's code: whatever it returns or throws, every dialect answers
// every call, after execute ran exactly once.
const projections: [string, () => unknown][] = [
  ["undefined", () => undefined],
  ["null", () => null],
  ["a number", () => 42],
  [
    "a throw",
    () => {
      throw new Error("summary failed");
    },
  ],
  ["events that are not an array", () => ({ snapshot: 1, events: "many" })],
  [
    "an observation whose snapshot getter throws",
    () => ({
      get snapshot() {
        throw new Error("unreadable");
      },
      events: [],
    }),
  ],
];

describe.each(everyDialect)(
  "with $name, whatever project returns or throws",
  ({ dialect, respond, textOf }) => {
    it.each(projections)("answers the call after %s, which ran once", async (_case, project) => {
      const counter = new Counter();
      const tools = igniteTools(counter, dialect, {
        project: project as (observation: Observation) => Observation,
      });
      const blocks = await tools.handleToolCalls(
        respond({ id: "1", name: "increment", args: { by: 2 } }) as never,
      );
      expect(blocks).toHaveLength(1);
      expect(textOf(blocks[0])).toMatch(/Error \(ExecuteFailed\).*ran, but its result could not/);
      expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    });

    it("answers with the projection when it leaves out events", async () => {
      const tools = igniteTools(new Counter(), dialect, {
        project: ({ snapshot }) => ({ snapshot: { count: snapshot.count } }) as Observation,
      });
      const [block] = await tools.handleToolCalls(
        respond({ id: "1", name: "increment", args: { by: 2 } }) as never,
      );
      expect(textOf(block)).not.toMatch(/Error/);
      expect(textOf(block)).toMatch(/count/);
    });
  },
);
