/**
 * The bridge and the loop as they are, for browsers and workers (`#compat`'s `browser` and
 * `worker` conditions): the layers alone, none of the option forms before them (see
 * compat/legacy.ts), so a bundle carries nothing it does not use.
 */
export { igniteTools } from "../bridge/ignite-tools.js";
export { runToolLoop } from "../loop/loop.js";
export { resumeToolLoop } from "../loop/resume.js";

/** Options as they are: nothing to upgrade. */
export function upgrade<O>(options: O): O {
  return options;
}
