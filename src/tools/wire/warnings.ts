/**
 * How every dialect tells the application what a provider's format could not carry as it was: one
 * `ToolWarning` per tool and downgrade, sent to the `warn` sink of the `ToolDefsContext`. The
 * model never sees these; they are for logs and tests.
 */
import type { ToolDefsContext, ToolWarningCode } from "../core/types.js";

/** Reports one downgrade of one command. */
export type Warn = (code: ToolWarningCode, command: string, message: string) => void;

/**
 * The reporter for `context`: it forwards to `context.warn`, and does nothing without one. A
 * sink that throws is ignored — a broken logger must not take the tool definitions down with it.
 */
export function warnerOf(context: ToolDefsContext | undefined): Warn {
  const sink = context?.warn;
  if (!sink) return () => {};
  return (code, command, message) => {
    try {
      sink({ code, command, message });
    } catch {}
  };
}
