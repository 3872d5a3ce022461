import * as nodeModule from "node:module";
import { describe, expect, it } from "vitest";
import {
  resolveTypeScriptSpecifiers,
  typescriptSpecifier,
} from "../../tools/hosts/typescript-specifiers.js";

// ignite-mcp.test.ts serves a NodeNext-style module through the packed command under Node 22;
// these pin the rule itself: which specifier is tried as TypeScript, and from where.
describe("a NodeNext specifier read as TypeScript", () => {
  const fromTs = "file:///app/inbox-mcp.ts";

  it("maps a relative .js, .mjs or .cjs import of a TypeScript module to .ts, .mts or .cts", () => {
    expect(typescriptSpecifier("./store.js", fromTs)).toBe("./store.ts");
    expect(typescriptSpecifier("../lib/words.mjs", "file:///app/src/a.mts")).toBe(
      "../lib/words.mts",
    );
    expect(typescriptSpecifier("./legacy.cjs", "file:///app/b.cts")).toBe("./legacy.cts");
  });

  it("leaves packages, absolute URLs, other extensions and JavaScript importers alone", () => {
    expect(typescriptSpecifier("ignite-element/tools", fromTs)).toBeUndefined();
    expect(typescriptSpecifier("file:///app/store.js", fromTs)).toBeUndefined();
    expect(typescriptSpecifier("./store.json", fromTs)).toBeUndefined();
    expect(typescriptSpecifier("./store", fromTs)).toBeUndefined();
    expect(typescriptSpecifier("./store.js", "file:///app/main.js")).toBeUndefined();
    expect(typescriptSpecifier("./store.js", undefined)).toBeUndefined();
  });

  it("registers only where Node has synchronous module hooks (22.15 and later)", () => {
    const has = typeof Reflect.get(nodeModule, "registerHooks") === "function";
    expect(resolveTypeScriptSpecifiers()).toBe(has);
  });
});
