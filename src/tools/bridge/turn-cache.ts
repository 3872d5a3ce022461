/**
 * What a bridge keeps from one turn to the next: the declared manifest (core/manifest-cache.ts
 * says when it is still exact), the commands available, and the tool definitions made from them.
 * A turn that changes nothing costs one pass over the declarations and returns the same tool
 * definitions; a call costs the same whatever the number of commands.
 */

import { listedAnyway } from "../core/availability.js";
import type { CheckedOptions } from "../core/manifest.js";
import { manifestCache } from "../core/manifest-cache.js";
import type {
  AgentComponent,
  AgentSchema,
  NeutralManifest,
  NeutralToolCall,
  RuntimeEvent,
  ToolDialect,
  ToolOffer,
  WarningSink,
} from "../core/types.js";
import { gatingWarnings } from "./checks.js";

export interface TurnCache<ToolDefs, Response> {
  /** Every declared command of `schema` (throws the schema's `TypeError`). */
  declaredIn(schema: AgentSchema): NeutralManifest;
  /** Every declared command, available or not: the same value while the declarations are. */
  declared(): NeutralManifest;
  /** The commands available now. */
  manifest(): NeutralManifest;
  /**
   * The commands the bridge's `offer` gives (available now, or every declared one), before a
   * layer's offer stage chooses among them: what a fixed tool list holds.
   */
  listed(): NeutralManifest;
  /**
   * The dialect's tool definitions for the commands offered (available now, or every declared
   * one with `offer: "declared"`): the same value while unchanged.
   */
  toToolDefs(): ToolDefs;
  /** The calls of `response`, mapped back through the names offered. */
  parseToolCalls(response: Response): NeutralToolCall[];
}

export function turnCache<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>(
  component: AgentComponent<S, E>,
  dialect: ToolDialect<ToolDefs, Response, ResultBlock> | undefined,
  checked: CheckedOptions,
  canExecute: () => ((name: string) => boolean) | undefined,
  warn: WarningSink,
  audit: boolean,
  // Checked by checkOptions, which gives "available" when none is set.
  offer: ToolOffer,
  // The component itself, for its `getSnapshot` (`component` is the schema as offered).
  own: AgentComponent<S, E>,
  // The pipeline's offer stage: which of the commands offered a request carries.
  shown: (offered: NeutralManifest, all: NeutralManifest) => NeutralManifest,
): TurnCache<ToolDefs, Response> {
  const cache = manifestCache(checked);
  const gatedAware = typeof component.canExecute === "function";
  const declaredIn = (schema: AgentSchema, settled?: () => boolean) => {
    const before = cache.last();
    const all = cache.declared(schema, settled);
    // The gating is audited when the declarations change; each warning is heard once anyway.
    if (audit && all !== before) gatingWarnings(all, gatedAware, warn);
    return all;
  };
  // The snapshot read when the commands object was last enumerated or found settled. While
  // `getSnapshot` returns the same value nothing changed (its contract), so no command can have
  // been added, removed or replaced: the keys, which V8 sorts anew for each enumeration of a
  // large object, are not read again. Each command's fields still are, every turn. It starts as
  // the cache itself, a value no snapshot can be, so the first turn enumerates.
  let seen: unknown = cache;
  // Without `getSnapshot` nothing is settled; one that is not a function throws, which is caught.
  const settled =
    own.getSnapshot &&
    (() => {
      try {
        const before = seen;
        seen = (own.getSnapshot as () => S).call(own);
        return Object.is(before, seen);
      } catch {
        return false; // the commands are enumerated, as without getSnapshot
      }
    });
  const declared = () => declaredIn(component.getSchema(), settled);
  // The last tool definitions, and the declared and offered commands they were made from.
  let defsAll: NeutralManifest | undefined;
  let defsOffered: NeutralManifest | undefined;
  let defs: ToolDefs | undefined;
  // Every declared command, each gated one saying when it is available: made once per change
  // of the declarations, so the definitions stay the same value from one turn to the next.
  let listedOf: NeutralManifest | undefined;
  let listed: NeutralManifest = [];
  const offered = (all: NeutralManifest): NeutralManifest => {
    if (offer === "available") return cache.available(all, canExecute());
    if (all !== listedOf) {
      listedOf = all;
      listed = Object.freeze(all.map(listedAnyway));
    }
    return listed;
  };

  // Only a bridge made with a dialect has toToolDefs and parseToolCalls (ignite-tools.ts): no
  // check here, which would be code no caller can reach.
  const wire = dialect as ToolDialect<ToolDefs, Response, ResultBlock>;
  return {
    declaredIn,
    declared,
    manifest: () => cache.available(declared(), canExecute()),
    listed: () => offered(declared()),
    toToolDefs() {
      const all = declared();
      const now = shown(offered(all), all);
      if (defsAll === all && defsOffered === now) return defs as ToolDefs;
      const value = wire.toToolDefs(now, { declared: all, warn });
      defsAll = all;
      defsOffered = now;
      defs = value;
      return value;
    },
    parseToolCalls(response) {
      let schema: AgentSchema;
      try {
        schema = component.getSchema();
      } catch {
        return wire.parseToolCalls(response, []); // invoke reports the broken schema
      }
      // Fast path: read the calls through last turn's names, then check each command called is
      // declared exactly as it was. A name that was offered as itself then means the same
      // command under the names of now (a name the provider accepts is always kept as it is),
      // whatever else changed. A mapped name depends on every other name: it takes the slow path.
      const last = cache.last();
      if (last !== undefined) {
        const calls = wire.parseToolCalls(response, last);
        if (
          calls.every((call) => call.toolName === undefined && cache.unchanged(schema, call.name))
        )
          return calls;
      }
      let all: NeutralManifest;
      try {
        all = declaredIn(schema);
      } catch {
        all = []; // each call is then answered by invoke, which reports the broken schema
      }
      return wire.parseToolCalls(response, all);
    },
  };
}
