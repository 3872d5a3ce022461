/**
 * A few words for what a value is, for messages: what a model sent instead of arguments, or what
 * an application passed instead of a provider response.
 */

/**
 * The `TypeError` a dialect throws when it is handed something that is not its provider's
 * response at all — a programming error, unlike anything a model writes. It says what to pass.
 */
export function shapeError(method: string, expected: string, value: unknown): TypeError {
  return new TypeError(
    `${method} expects ${expected}, got ${describeValue(value, "an object of another shape")}`,
  );
}

/** A few words for what a value is. */
export function describeValue(value: unknown, plainObject = "an object"): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  if (typeof Reflect.get(value, "then") === "function") return "a Promise (await it first)";
  const maker: unknown = Reflect.get(value, "constructor");
  if (typeof maker !== "function" || maker.name === "Object") return plainObject;
  // A fetch `Response` is the likeliest mistake: its body has not been read yet.
  if (maker.name === "Response") {
    return "a Response (pass `await response.json()`)";
  }
  return `a ${maker.name}`;
}
