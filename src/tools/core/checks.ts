/**
 * How the package refuses a bad argument of the application's (never a model's: those are
 * answered as values). Called as a JavaScript caller calls it — values from environment
 * variables, a wrong object in the right place — an exported function checks each argument where
 * it is given, before anything starts (no timer armed, no listener added, no server listening, no
 * `execute` run), and refuses it with one `TypeError` that names the function, the option, what
 * was given and what is allowed: `runToolLoop: maxTurns must be a whole number from 1 up, not "3"
 * (a string)`. One module, so every function says it the same way, and small, because every
 * bundle carries it.
 */
import type { AbortSignalLike } from "./types.js";

/** What an argument must be: the words that say it, and the test. */
export interface Expect<T> {
  /** What is allowed, as it reads after "must be": `a whole number from 1 up`. */
  readonly allowed: string;
  readonly test: (value: unknown) => value is T;
}

/**
 * What was given, in words precise enough to see the mistake: `"3" (a string)`, `NaN`, `-1`,
 * `null`, `an empty list`, `an object`, `a function`.
 */
export function given(value: unknown): string {
  if (typeof value === "string") return `${JSON.stringify(value)} (a string)`;
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "function") return "a function";
  if (typeof value !== "object" || value === null) return String(value);
  if (typeof Reflect.get(value, "then") === "function") return "a Promise (await it first)";
  const maker: unknown = Reflect.get(value, "constructor");
  return typeof maker === "function" && maker.name !== "Object" && maker.name !== ""
    ? `a ${maker.name}`
    : "an object";
}

/** The `TypeError` for `name` of `where` given `value`, where `allowed` is what it must be. */
export function badArgument(where: string, name: string, value: unknown, allowed: string) {
  return new TypeError(`${where}: ${name} must be ${allowed}, not ${given(value)}`);
}

/** `value` if it is what `expect` allows; a `TypeError` by {@link badArgument} if not. */
export function check<T>(where: string, name: string, value: unknown, expect: Expect<T>): T {
  if (expect.test(value)) return value;
  throw badArgument(where, name, value, expect.allowed);
}

/** {@link check}, where leaving the argument out (`undefined`) is allowed too. */
export function checkOptional<T>(
  where: string,
  name: string,
  value: unknown,
  expect: Expect<T>,
): T | undefined {
  return value === undefined ? undefined : check(where, name, value, expect);
}

/** A whole number from `min` up (to `max` when given). */
export function wholeNumber(min: number, max?: number): Expect<number> {
  return {
    allowed: `a whole number ${max === undefined ? `from ${min} up` : `from ${min} to ${max}`}`,
    test: (value): value is number =>
      typeof value === "number" &&
      Number.isSafeInteger(value) &&
      value >= min &&
      (max === undefined || value <= max),
  };
}

/** A count: a whole number from 1 up (turns, bytes, levels, a lease's milliseconds). */
export const aCount: Expect<number> = /* @__PURE__ */ wholeNumber(1);

/** The longest time a timer waits as it is: 2³¹−1 ms (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A number of milliseconds from `min` up, or `Infinity` for no limit. */
export function milliseconds(min = 0): Expect<number> {
  return {
    allowed: `a number of milliseconds from ${min} up (Infinity for none)`,
    test: (value): value is number =>
      typeof value === "number" && value >= min && !Number.isNaN(value),
  };
}

/** A time limit: milliseconds from 0 up, `Infinity` for none. */
export const aTimeLimit: Expect<number> = /* @__PURE__ */ milliseconds();

/** A function. */
export const aFunction: Expect<(...args: never[]) => unknown> = {
  allowed: "a function",
  test: (value): value is (...args: never[]) => unknown => typeof value === "function",
};

/** `true` or `false`. */
export const aBoolean: Expect<boolean> = {
  allowed: "true or false",
  test: (value): value is boolean => typeof value === "boolean",
};

/** A plain object of options (not a list, not a string). */
export const anObject: Expect<object> = {
  allowed: "an object",
  test: (value): value is object =>
    typeof value === "object" && value !== null && !Array.isArray(value),
};

/** An `AbortSignal` (or an object with its `aborted`, `addEventListener`, `removeEventListener`). */
export const aSignal: Expect<AbortSignalLike> = {
  allowed: "an AbortSignal",
  test: (value): value is AbortSignalLike =>
    typeof value === "object" &&
    value !== null &&
    typeof Reflect.get(value, "aborted") === "boolean" &&
    typeof Reflect.get(value, "addEventListener") === "function" &&
    typeof Reflect.get(value, "removeEventListener") === "function",
};

/** A string that is not empty: a key, an id, a name. */
export const aName: Expect<string> = {
  allowed: "a non-empty string",
  test: (value): value is string => typeof value === "string" && value !== "",
};

/** A non-empty list of non-empty strings: host names, origins. */
export const names: Expect<readonly string[]> = {
  allowed: "a non-empty list of non-empty strings",
  test: (value): value is readonly string[] =>
    Array.isArray(value) && value.length > 0 && value.every((item) => aName.test(item)),
};

/** One of `values`. */
export function oneOf<const T extends string>(...values: T[]): Expect<T> {
  return {
    allowed: `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`,
    test: (value): value is T => values.some((allowed) => allowed === value),
  };
}

/**
 * Whether `value` has each of `methods` as a function: the shape of a port (a ledger, a tracer,
 * a dialect), as far as it can be checked without calling it.
 */
export function hasMethods<T extends object>(
  allowed: string,
  ...methods: readonly string[]
): Expect<T> {
  return {
    allowed,
    test: (value): value is T =>
      (typeof value === "object" || typeof value === "function") &&
      value !== null &&
      methods.every((method) => typeof Reflect.get(value, method) === "function"),
  };
}

/**
 * The keys of `options` that are none of `known`, each with what it was likely meant to be: a
 * typo such as `timeoutMS` or `maxTurn` would otherwise leave the default in place without a word.
 * The caller reports them through `onWarning`; TypeScript callers meet them at compile time.
 */
export function unknownOptions(
  who: string,
  options: object,
  known: ReadonlySet<string>,
): { key: string; message: string }[] {
  return Object.keys(options)
    .filter((key) => !known.has(key))
    .map((key) => {
      const lower = key.toLowerCase();
      const meant = [...known].find((name) => {
        const other = name.toLowerCase();
        return other === lower || other.startsWith(lower) || lower.startsWith(other);
      });
      return {
        key,
        message: `${who}: ignored the option ${JSON.stringify(key)}, which it does not take${meant === undefined ? "" : ` (did you mean ${JSON.stringify(meant)}?)`}.`,
      };
    });
}
