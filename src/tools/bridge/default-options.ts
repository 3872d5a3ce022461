/**
 * The one default of the options: the validator, chosen by the runtime through the package
 * import `#default-validator` (ajv on Node, `@cfworker/json-schema` in browsers and workers).
 *
 * A module of its own that imports nothing else of the package, and the bridge's option check
 * (checks.ts) fills the options in with it: an application's bundler then reaches the validator
 * early and writes `@cfworker/json-schema` ahead of the bridge's own code instead of in its
 * middle, where it held the bridge's modules further apart than gzip's 32 KB window reaches
 * (the `bridge alone` bundle of `npm run check:size` is about 300 B smaller so).
 */
import { defaultValidator } from "#default-validator";
import type { CheckedOptions, CoreOptions } from "../core/manifest.js";

// No options is the common case of `buildManifest` and `resolveCall`: one object serves it.
const DEFAULTS: CheckedOptions = Object.freeze({ validator: defaultValidator });

/** `options` with the default validator where none is given. */
export function withDefaults(options?: CoreOptions): CheckedOptions {
  if (options === undefined) return DEFAULTS;
  return options.validator === undefined
    ? { ...options, validator: defaultValidator }
    : { ...options, validator: options.validator };
}
