/**
 * Installs the Node 22 that the MCP conformance suite and the MCP Inspector need, before any test
 * starts, from scripts/node22's lockfile (scripts/pinned-node.mjs says why it is kept apart).
 */
import { installNode22 } from "../../../scripts/node22.mjs";

export default function setup(): void {
  installNode22();
}
