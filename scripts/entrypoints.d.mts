// Types of scripts/entrypoints.mjs, for the TypeScript configs that import it.
export interface Entrypoint {
  subpath: string;
  source: string;
  out: string;
  budget: number;
  platform: "neutral" | "node";
  values?: string[];
  objects?: string[];
  types?: Record<string, string>;
  peers?: Record<string, string>;
}
export interface InternalModule {
  import: string;
  conditions: Record<string, { source: string; out: string }>;
}
/** A browser app's bundle the size gate builds: `code` imports the package by its public names. */
export interface BrowserBundle {
  name: string;
  code: string;
  budget: number;
  forbid: string[];
}
/**
 * One opt-in capability, as the size gate measures it: `code` is a whole browser app using it, and
 * what its bundle adds over the bundle of `over` (a `BrowserBundle`'s or an earlier feature's
 * name) must stay under `budget` bytes of min+gzip. `external`: packages the app brings itself.
 */
export interface BrowserFeature {
  name: string;
  over: string;
  code: string;
  budget: number;
  external?: string[];
}
/** A command package.json `bin` names, built from `source` to `dist/<out>.js`. */
export interface Command {
  name: string;
  source: string;
  out: string;
  peers?: Record<string, string>;
}
export function loadEntrypoints(): {
  entrypoints: Entrypoint[];
  internal: InternalModule[];
  bundles: BrowserBundle[];
  features: BrowserFeature[];
  bins: Command[];
};
/** Every source tsup builds, keyed by output path; `declared: true` leaves out the commands. */
export function buildEntries(options?: { declared?: boolean }): Record<string, string>;
