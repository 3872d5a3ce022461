import { configureStore, createSlice } from "@reduxjs/toolkit";
import {
  type FakeMessage,
  fakeDialect,
  igniteTools,
  lastResults,
  runToolLoop,
  type ScriptedTurn,
  scriptedModel,
} from "ignite-element/tools";
import { describe, expect, it } from "vitest";
import { fromSlice } from "./fromSlice.js";
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

  it("offers an action without a declared command as a no-argument command, over a store with other slices", async () => {
    const store = configureStore({
      reducer: { todos: todosSlice.reducer, user: (name: string = "ada") => name },
    });
    const { add, toggle, remove } = todoCommands.commands;
    const tools = igniteTools(
      fromSlice(store, todosSlice, {
        commands: { add, toggle: { ...toggle, gated: false }, remove: { ...remove, gated: false } },
      }),
    );

    expect(tools.manifest().find((tool) => tool.name === "clearCompleted")).toEqual({
      name: "clearCompleted",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      gated: false,
    });
    await tools.invoke({ name: "add", input: { title: "Read" } });
    const cleared = await tools.invoke({ name: "clearCompleted", input: {} });
    expect(cleared.ok && cleared.value.snapshot).toEqual({
      todos: { items: [{ id: 1, title: "Read", done: false }], nextId: 2 },
      user: "ada",
    });
  });

  it("answers ExecuteFailed when a reducer throws, and the store keeps its state", async () => {
    const stock = createSlice({
      name: "stock",
      initialState: { count: 1 },
      reducers: {
        take(state) {
          if (state.count === 0) throw new Error("out of stock");
          state.count -= 1;
        },
      },
    });
    const store = configureStore({ reducer: stock.reducer });
    const tools = igniteTools(fromSlice(store, stock, { commands: {} }));

    expect((await tools.invoke({ name: "take", input: {} })).ok).toBe(true);
    const second = await tools.invoke({ name: "take", input: {} });
    expect(!second.ok && second.error.message).toBe('Command "take" failed: out of stock');
    expect(store.getState()).toEqual({ count: 0 });
  });

  it("refuses, at construction, a gated command without canExecute and a command the slice lacks", () => {
    const store = createTodoStore();
    expect(() => fromSlice(store, todosSlice, { commands: todoCommands.commands })).toThrow(
      'Command "toggle" is gated, but no canExecute(state, command) was given',
    );
    const { add, toggle, remove } = todoCommands.commands;
    const unknownAction = () =>
      fromSlice(store, todosSlice, {
        // @ts-expect-error `archive` is not an action of the slice
        commands: { add, toggle, remove, archive: {} },
        canExecute: () => true,
      });
    expect(unknownAction).toThrow(
      'A command is declared for "archive", which is not an action of the slice',
    );
  });
});
