/**
 * `ignite-element/tools`: any component that speaks the agent-runtime contract, as tools an LLM
 * can call, for any provider. Each capability is a layer its function brings in (`approval`,
 * `waitTool`, `observe`, `changeNotes`, …): a bundle carries only what the application imports.
 */
import * as chosen from "#compat";
import type { igniteTools as bridge } from "./bridge/ignite-tools.js";
import type { runToolLoop as loop } from "./loop/loop.js";
import type { resumeToolLoop as resume } from "./loop/resume.js";

export { type Approval, approval } from "./approval/approval.js";
export {
  type ApprovalDecision,
  ApprovalError,
  type ApprovalErrorCode,
  approveCall,
  denyCall,
} from "./approval/decisions.js";
export { type MemoryLedger, type MemoryLedgerOptions, memoryLedger } from "./approval/ledger.js";
export {
  type PausedAnswer,
  type PausedTurn,
  type PauseOptions,
  pauseToolCalls,
  type ResumeCallsOptions,
  resumeToolCalls,
  type SettlingBridge,
} from "./approval/pause.js";
export type { CallListeners } from "./bridge/context.js";
export { buildManifest, resolveCall } from "./bridge/defaults.js";
export type { BridgeParts, Layer, Pipeline } from "./bridge/pipeline.js";
export type {
  DialectToolBridge,
  IgniteToolsOptions,
  InvokeOptions,
  LedgerOptions,
  LoopToolBridge,
  ToolBridge,
  ToolCallAnswer,
} from "./bridge/types.js";
export { type ContentLayer, contentParts } from "./content/content.js";
export type {
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalVerdict,
  PendingCall,
  Question,
  QuestionSchema,
  Questions,
} from "./core/approval.js";
export type {
  AudioPart,
  ContentPart,
  EmbeddedResourcePart,
  ImagePart,
  ResourceLinkPart,
  TextPart,
} from "./core/content.js";
export type { InputLimits } from "./core/input-limits.js";
export type {
  Awaitable,
  CallLedger,
  LedgerEntry,
  LedgerLease,
  RecordedOutcome,
} from "./core/ledger.js";
export { readLedgerEntry } from "./core/ledger.js";
export type { CoreOptions } from "./core/manifest.js";
export { err, ok, type Result } from "./core/result.js";
export type { ToolTracer, TraceHandle, TraceUnit } from "./core/tracing.js";
export type {
  AbortSignalLike,
  AgentComponent,
  AgentSchema,
  Answer,
  Answers,
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
export type { UntilOptions } from "./live/live.js";
export { observe, until } from "./live/observe.js";
export { type WaitObservation, type WaitOptions, type WaitTool, waitTool } from "./live/wait.js";
export type { ToolLoopState } from "./loop/loop-state.js";
export type { ResumeToolLoopOptions } from "./loop/resume.js";
export {
  type ChangeNotes,
  type ChangeNotesOptions,
  changeNotes,
  type UntoldChanges,
} from "./loop/tell-changes.js";
export type {
  ModelRequest,
  StreamingToolLoopOptions,
  ToolLoopEnded,
  ToolLoopFailed,
  ToolLoopOptions,
  ToolLoopPaused,
  ToolLoopResult,
  ToolLoopStep,
  ToolLoopStop,
  ToolLoopTranscript,
} from "./loop/types.js";
export {
  type FoundCommand,
  type SearchAnswer,
  type ToolSearch,
  type ToolSearchOptions,
  toolSearch,
} from "./search/search.js";
export { type Tracing, tracing } from "./telemetry/tracing.js";
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

// The functions chosen by the runtime (package.json `imports`, `#compat`): on Node they also take
// the option forms before layers (compat/legacy.ts); in browsers and workers, the layers alone.

/**
 * Bridges a component to tool calls: neutral (`manifest`, `invoke`), in one provider's tool format
 * with a dialect, or carrying its conversation for `runToolLoop`. See its overloads.
 */
export const igniteTools: typeof bridge = chosen.igniteTools;
/** Runs the agent loop over a bridge until the model stops calling tools. See its overloads. */
export const runToolLoop: typeof loop = chosen.runToolLoop;
/** Settles a loop paused for approval with a person's decisions, and continues it. */
export const resumeToolLoop: typeof resume = chosen.resumeToolLoop;
