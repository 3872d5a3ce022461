/**
 * A todo list as a Redux Toolkit slice and store, and what an agent may do with it.
 */
import { configureStore, createSlice, type PayloadAction } from "@reduxjs/toolkit";
import type { JsonSchema } from "ignite-element/tools";
import type { SliceOptions } from "ignite-element/tools/redux";

export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

export interface TodosState {
  items: Todo[];
  nextId: number;
}

const initialState: TodosState = { items: [], nextId: 1 };

export const todosSlice = createSlice({
  name: "todos",
  initialState,
  reducers: {
    add(state, action: PayloadAction<{ title: string }>) {
      state.items.push({ id: state.nextId, title: action.payload.title, done: false });
      state.nextId += 1;
    },
    toggle(state, action: PayloadAction<number>) {
      const todo = state.items.find((item) => item.id === action.payload);
      if (todo) todo.done = !todo.done;
    },
    remove(state, action: PayloadAction<number>) {
      state.items = state.items.filter((item) => item.id !== action.payload);
    },
    clearCompleted(state) {
      state.items = state.items.filter((item) => !item.done);
    },
  },
});

/** A fresh store holding only the todo list. */
export function createTodoStore() {
  return configureStore({ reducer: todosSlice.reducer });
}

/** The list as every command leaves it: hosts that can declare a tool's output (MCP) do. */
export const todosStateSchema: JsonSchema = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer" },
          title: { type: "string" },
          done: { type: "boolean" },
        },
        required: ["id", "title", "done"],
      },
    },
    nextId: { type: "integer" },
  },
  required: ["items", "nextId"],
};

/**
 * The slice's actions as commands. `toggle` and `remove` need a todo to act on, and
 * `clearCompleted` a completed one, so they are available only then, and say so
 * (`availableWhen`) to a model that sees them listed anyway.
 */
export const todoCommands: SliceOptions<TodosState, typeof todosSlice.actions> = {
  commands: {
    add: {
      description: "Add a todo to the end of the list.",
      input: {
        type: "object",
        properties: { title: { type: "string", minLength: 1, maxLength: 80 } },
        required: ["title"],
        additionalProperties: false,
      },
      output: todosStateSchema,
    },
    toggle: {
      description: "Mark a todo done, or not done again, by its id.",
      input: { type: "integer", minimum: 1 },
      output: todosStateSchema,
      gated: true,
      availableWhen: "only while the list has a todo",
    },
    remove: {
      description: "Delete a todo by its id.",
      input: { type: "integer", minimum: 1 },
      output: todosStateSchema,
      gated: true,
      availableWhen: "only while the list has a todo",
      destructive: true,
    },
    clearCompleted: {
      description: "Delete every todo that is done.",
      output: todosStateSchema,
      gated: true,
      availableWhen: "only while a todo is done",
      destructive: true,
    },
  },
  canExecute: ({ items }, command) => {
    if (command === "clearCompleted") return items.some((item) => item.done);
    return items.length > 0;
  },
};
