import {
  type FakeMessage,
  fakeDialect,
  igniteTools,
  lastResults,
  runToolLoop,
  type ScriptedTurn,
  scriptedModel,
} from "ignite-element/tools";
import { fromSlice } from "ignite-element/tools/redux";
import { describe, expect, it } from "vitest";
import { createTodoStore, todoCommands, todosSlice } from "./todos.js";

const scripted = (...turns: ScriptedTurn[]) => scriptedModel(turns, "One todo left: walk the dog.");

const start: FakeMessage[] = [
  { role: "user", content: "Add 'Buy milk' and 'Walk the dog', I bought the milk, tidy up." },
];

describe("a Redux todo slice driven by a scripted model", () => {
  it("answers Unavailable and InvalidInput, takes the corrections, and observes each dispatched action", async () => {
    const store = createTodoStore();
    const { model, offered } = scripted(
      [
        { id: "1", name: "clearCompleted", input: {} },
        { id: "2", name: "add", input: { title: "" } },
      ],
      (request) => {
        const [clear, add] = lastResults(request.messages);
        expect(clear).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
        expect(add).toMatchObject({
          ok: false,
          error: { kind: "InvalidInput", issues: [{ path: "/title", keyword: "minLength" }] },
        });
        return {
          toolCalls: [
            { id: "3", name: "add", input: { title: "Buy milk" } },
            { id: "4", name: "add", input: { title: "Walk the dog" } },
          ],
        };
      },
      [{ id: "5", name: "toggle", input: 1 }],
      [{ id: "6", name: "clearCompleted", input: {} }],
    );

    const result = await runToolLoop({
      tools: igniteTools(fromSlice(store, todosSlice, todoCommands), fakeDialect),
      model,
      messages: start,
    });

    expect(result.stop).toBe("done");
    expect(offered()).toEqual([
      ["add"],
      ["add"],
      ["add", "remove", "toggle"],
      ["add", "clearCompleted", "remove", "toggle"],
      ["add", "remove", "toggle"],
    ]);
    expect(result.steps.map((step) => step.errors.map((error) => error.kind))).toEqual([
      ["Unavailable", "InvalidInput"],
      [],
      [],
      [],
      [],
    ]);

    const dispatched = result.steps.map((step) =>
      step.answers.map((answer) => (answer.outcome.ok ? answer.outcome.value.events : [])),
    );
    expect(dispatched).toEqual([
      [[], []],
      [
        [{ type: "todos/add", payload: { title: "Buy milk" } }],
        [{ type: "todos/add", payload: { title: "Walk the dog" } }],
      ],
      [[{ type: "todos/toggle", payload: 1 }]],
      [[{ type: "todos/clearCompleted", payload: undefined }]],
      [],
    ]);

    const final = { items: [{ id: 2, title: "Walk the dog", done: false }], nextId: 3 };
    expect(result.snapshot).toEqual(final);
    expect(store.getState()).toEqual(final);
  });
});
