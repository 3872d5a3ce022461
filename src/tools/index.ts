/**
 * `ignite-element/tools`: any component that speaks the agent-runtime contract, as tools an LLM
 * can call, for any provider.
 */
export { fakeDialect, type FakeResponse, type FakeResultBlock, type FakeToolDefs } from "./fake.js";
export {
  type DialectToolBridge,
  type IgniteToolsOptions,
  igniteTools,
  type LoopToolBridge,
  type ToolBridge,
} from "./igniteTools.js";
export { buildManifest, type CoreOptions } from "./manifest.js";
export { err, ok, type Result } from "./result.js";
export { resolveCall } from "./route.js";
export type {
  AgentComponent,
  AgentSchema,
  CommandSchema,
  ExecuteResult,
  InputCheck,
  InputValidator,
  JsonSchema,
  LoopDialect,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolDialect,
  ToolError,
  ValidationIssue,
} from "./types.js";
export { ajvValidator } from "./validation.js";
