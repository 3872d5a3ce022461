/**
 * Pure core: the declared manifest kept from one turn to the next, so that a turn costs what
 * changed, not what exists. Nothing here trusts the component to say what changed; each answer is
 * checked against the live schema by a rule that is cheap and exact:
 *
 * - The commands are compared one by one, in their declaration order: the same own keys, each
 *   `commands[name]` the same object, and each of its fields (`title`, `description`, `input`,
 *   `output`, `availableWhen`, the four flags) the same value. Adding, removing or replacing a command, or setting any field
 *   of one in place, is seen at the next turn, whether `getSchema()` returns the same object or a
 *   new one. A command whose declaration is unchanged keeps its manifest entry; only the others
 *   are read again.
 * - Schema objects (`input`, `output`) are compared by identity, exactly as the validator cache
 *   keys them: to change a schema, give the command a new schema object. A schema object edited
 *   deep inside, in place, keeps its checked, compiled form (docs/performance.md says so).
 *
 * - A frozen `commands` object made of data properties (`Object.freeze(commands)`) cannot gain,
 *   lose or replace a command: for it the pass reads only each command's fields, from the kept
 *   entries, which costs the same per command at any size. So does the commands object last
 *   enumerated while the caller's `settled()` says the component's state is the one it was then
 *   (the bridge asks `getSnapshot`, whose contract says a new value follows every change). Any
 *   other object is enumerated: V8 sorts the keys of a large (dictionary-mode) object each time,
 *   which costs more per key the more keys there are.
 *
 * The arrays returned are frozen: they are shared between turns and must not change under them.
 */

import { isRecord } from "./json.js";
import {
  type CheckedOptions,
  commandsOf,
  type Declaration,
  declarationOf,
  isAvailable,
  NOT_A_SCHEMA,
  readCommand,
  sameDeclaration,
  toTool,
} from "./manifest.js";
import type { AgentSchema, NeutralManifest, NeutralTool } from "./types.js";

/** One declared command as last read: its declaration and its manifest entry. */
interface Entry {
  readonly declaration: Declaration;
  readonly tool: NeutralTool;
}

/** The declared manifest of a component, kept between turns. */
export interface ManifestCache {
  /**
   * Every declared command of `schema`, sorted by name: the same (frozen) array as last time when
   * no declaration changed. Throws the `TypeError` `buildManifest` throws for a malformed schema.
   * `settled`, asked only for the commands object last enumerated, says that no command can have
   * been added, removed or replaced in it since: its keys are then not enumerated again.
   */
  declared(schema: AgentSchema, settled?: () => boolean): NeutralManifest;
  /** The manifest `declared` last returned, or `undefined`. */
  last(): NeutralManifest | undefined;
  /**
   * Whether `name` is declared in `schema` exactly as `declared` last read it — the same object
   * with the same fields. O(1), whatever the number of commands. Never throws.
   */
  unchanged(schema: unknown, name: string): boolean;
  /**
   * The commands of `declared` available now: `declared` itself without `canExecute`, and the
   * same (frozen) array as last time when every gated command's availability is unchanged.
   */
  available(
    declared: NeutralManifest,
    canExecute: ((name: string) => boolean) | undefined,
  ): NeutralManifest;
}

export function manifestCache(options: CheckedOptions): ManifestCache {
  let keys: string[] = [];
  // The commands object whose keys `keys` are, and whether it is frozen with only data
  // properties: then its keys and values cannot change, so only each command's fields can.
  let read: object | undefined;
  let sealed = false;
  let entries: Entry[] = [];
  let byName = new Map<string, Entry>();
  let manifest: NeutralManifest | undefined;
  // Availability as last computed: of which manifest, each gated tool's answer, the result.
  let gatedOf: NeutralManifest | undefined;
  let gated: NeutralTool[] = [];
  let answers: boolean[] = [];
  let offered: NeutralManifest | undefined;

  const rebuild = (commands: Record<string, unknown>, now: string[]): NeutralManifest => {
    const fresh = new Map<string, Entry>();
    const inOrder: Entry[] = [];
    for (const name of now) {
      const raw = commands[name];
      const known = byName.get(name);
      let entry =
        known !== undefined && sameDeclaration(known.declaration, raw) ? known : undefined;
      entry ??= entryOf(name, raw, options);
      fresh.set(name, entry);
      inOrder.push(entry);
    }
    // Sorted once per change of the declarations, never per turn.
    const sorted = [...now].sort().map((name) => (fresh.get(name) as Entry).tool);
    keys = now;
    entries = inOrder;
    read = commands;
    sealed = Object.isFrozen(commands) && onlyData(commands);
    byName = fresh;
    manifest = Object.freeze(sorted);
    return manifest;
  };

  return {
    declared(schema, settled) {
      const commands = commandsOf(schema);
      if (!commands) throw new TypeError(NOT_A_SCHEMA);
      // `read` is set only by a rebuild, which sets `manifest`.
      if (commands === read && (sealed || settled?.())) {
        // No key to enumerate, no hash lookup: a pass over the kept entries, flat per command.
        for (const entry of entries)
          if (!sameDeclaration(entry.declaration, entry.declaration.raw))
            return rebuild(commands, keys);
        return manifest as NeutralManifest;
      }
      const now = Object.keys(commands);
      if (manifest === undefined || now.length !== keys.length) return rebuild(commands, now);
      // One pass, in declaration order; the first difference rebuilds what changed.
      for (let index = 0; index < now.length; index++) {
        const name = now[index] as string;
        const entry = entries[index] as Entry;
        if (name !== keys[index] || !sameDeclaration(entry.declaration, commands[name]))
          return rebuild(commands, now);
      }
      return manifest;
    },
    last: () => manifest,
    unchanged(schema, name) {
      try {
        // No commands object: Object.hasOwn throws, and the answer is `false`, as below.
        const commands = commandsOf(schema) as Record<string, unknown>;
        const entry = byName.get(name);
        return (
          Object.hasOwn(commands, name) &&
          entry !== undefined &&
          sameDeclaration(entry.declaration, commands[name])
        );
      } catch {
        return false; // a getter that throws: the caller reads the schema again, the slow way
      }
    },
    available(declared, canExecute) {
      if (canExecute === undefined) return declared;
      if (declared !== gatedOf) {
        gatedOf = declared;
        gated = declared.filter((tool) => tool.gated);
        answers = [];
        offered = undefined;
      }
      // Asked fresh every turn: availability is the component's state now, not last turn's.
      let changed = offered === undefined;
      for (let index = 0; index < gated.length; index++) {
        const tool = gated[index] as NeutralTool;
        const can = isAvailable(tool.name, tool, canExecute);
        if (answers[index] !== can) {
          answers[index] = can;
          changed = true;
        }
      }
      // `changed` is true while nothing was offered yet.
      if (!changed) return offered as NeutralManifest;
      // One pass: `gated` is `declared`'s gated commands in its order, so the answers line up.
      const open: NeutralTool[] = [];
      let next = 0;
      for (const tool of declared) if (!tool.gated || answers[next++]) open.push(tool);
      offered = Object.freeze(open);
      return offered;
    },
  };
}

function onlyData(commands: object): boolean {
  return Object.values(Object.getOwnPropertyDescriptors(commands)).every(
    (field) => "value" in field,
  );
}

/** The entry of command `name`, read from a snapshot of its declaration: exactly the fields it is kept against. */
function entryOf(name: string, raw: unknown, options: CheckedOptions): Entry {
  const declaration = isRecord(raw) ? declarationOf(raw) : undefined;
  const read = readCommand(declaration ?? raw, options.validator);
  if (!read.ok) throw new TypeError(`Command ${JSON.stringify(name)} ${read.error}`);
  // Nested, not spread into the entry: a spread copy made these objects slow to read (measured:
  // the unchanged turn went from 13 to 600 ns per command). readCommand refuses anything but an
  // object, so a reading always has its declaration.
  return { declaration: declaration as Declaration, tool: Object.freeze(toTool(name, read.value)) };
}
