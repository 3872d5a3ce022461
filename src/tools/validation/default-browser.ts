/**
 * The validator used when none is given, where the bundler or runtime resolves the `browser` or
 * `worker` condition of the package import `#default-validator`: `@cfworker/json-schema`, which
 * interprets schemas instead of generating code, so a Content Security Policy without
 * `unsafe-eval` (every Manifest V3 extension) allows it, and no ajv is bundled.
 */
import { cfworkerValidator } from "./cfworker.js";
import type { InputValidator } from "./port.js";

/** One instance for the page or worker, so its schema cache is shared. */
export const defaultValidator: InputValidator = /* @__PURE__ */ cfworkerValidator();
