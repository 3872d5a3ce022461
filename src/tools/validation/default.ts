/**
 * The validator used when none is given, on runtimes without a browser condition (Node, Bun,
 * Deno): ajv. Reached through the package import `#default-validator`, so a browser bundle
 * resolves `default-browser.ts` instead and carries no ajv.
 */
import { ajvValidator } from "./ajv.js";
import type { InputValidator } from "./port.js";

/** One instance for the process, so its schema cache is shared. */
export const defaultValidator: InputValidator = /* @__PURE__ */ ajvValidator();
