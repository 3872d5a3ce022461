/**
 * `ignite-element/tools`: any component that speaks the agent-runtime contract, as tools an LLM
 * can call, for any provider.
 */
export type { InputLimits } from "./core/input-limits.js";
export type { CoreOptions } from "./core/manifest.js";
export { err, ok, type Result } from "./core/result.js";
export type { ToolTracer, TraceHandle, TraceUnit } from "./core/tracing.js";
export type {
  AbortSignalLike,
  AgentComponent,
  AgentSchema,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalVerdict,
  CommandSchema,
  EffectFlags,
  ExecuteContext,
  ExecuteFailedReason,
  ExecuteResult,
  JsonSchema,
  LiveChange,
  LogEntry,
  LogLevel,
  LoopDialect,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  ProgressUpdate,
  Route,
  RuntimeEvent,
  ToolDefsContext,
  ToolDialect,
  ToolError,
  ToolOffer,
  ToolWarning,
  ToolWarningCode,
  ValidationIssue,
  WarningSink,
} from "./core/types.js";
export {
  type ApprovalDecision,
  ApprovalError,
  type ApprovalErrorCode,
  approveCall,
  denyCall,
  type PendingCall,
} from "./shell/approval.js";
export {
  type DialectToolBridge,
  type IgniteToolsOptions,
  type InvokeOptions,
  igniteTools,
  type LoopToolBridge,
  type ToolBridge,
  type ToolCallAnswer,
} from "./shell/bridge.js";
export type { CallListeners } from "./shell/context.js";
export {
  type PausedAnswer,
  type PausedTurn,
  type PauseOptions,
  pauseToolCalls,
  type ResumeCallsOptions,
  resumeToolCalls,
  type SettlingBridge,
} from "./shell/decisions.js";
export { buildManifest, resolveCall } from "./shell/defaults.js";
export {
  type Awaitable,
  type CallLedger,
  type LedgerEntry,
  type LedgerLease,
  type MemoryLedger,
  type MemoryLedgerOptions,
  memoryLedger,
  type RecordedOutcome,
  readLedgerEntry,
} from "./shell/ledger.js";
export type { UntilOptions } from "./shell/live.js";
export {
  type ModelRequest,
  runToolLoop,
  type StreamingToolLoopOptions,
  type ToolLoopEnded,
  type ToolLoopFailed,
  type ToolLoopOptions,
  type ToolLoopPaused,
  type ToolLoopResult,
  type ToolLoopStep,
  type ToolLoopStop,
  type ToolLoopTranscript,
} from "./shell/loop.js";
export type { ToolLoopState } from "./shell/loop-state.js";
export { type ResumeToolLoopOptions, resumeToolLoop } from "./shell/resume.js";
export type { TellChanges } from "./shell/tell-changes.js";
export type { WaitObservation, WaitOptions } from "./shell/wait.js";
export {
  type FakeMessage,
  type FakeResponse,
  type FakeResultBlock,
  type FakeToolDefs,
  fakeDialect,
} from "./testing/fake-dialect.js";
export { lastResults, type ScriptedTurn, scriptedModel } from "./testing/scripted-model.js";
export { type AjvValidatorOptions, ajvValidator } from "./validation/ajv.js";
export type { InputCheck, InputValidator } from "./validation/port.js";
