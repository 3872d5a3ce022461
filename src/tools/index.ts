/**
 * `ignite-element/tools`: any component that speaks the agent-runtime contract, as tools an LLM
 * can call, for any provider.
 */
export {
  type FakeMessage,
  type FakeResponse,
  type FakeResultBlock,
  type FakeToolDefs,
  fakeDialect,
  lastResults,
  type ScriptedTurn,
  scriptedModel,
} from "./fake.js";
export {
  type DialectToolBridge,
  type IgniteToolsOptions,
  type InvokeOptions,
  igniteTools,
  type LoopToolBridge,
  type ToolBridge,
  type ToolCallAnswer,
} from "./igniteTools.js";
export type { InputLimits } from "./limits.js";
export {
  type ModelRequest,
  runToolLoop,
  type ToolLoopOptions,
  type ToolLoopResult,
  type ToolLoopStep,
  type ToolLoopStop,
} from "./loop.js";
export { buildManifest, type CoreOptions } from "./manifest.js";
export { err, ok, type Result } from "./result.js";
export { resolveCall } from "./route.js";
export type {
  AbortSignalLike,
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
export { type AjvValidatorOptions, ajvValidator } from "./validation.js";
