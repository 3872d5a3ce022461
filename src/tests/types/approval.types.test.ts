import { describe, expectTypeOf, it } from "vitest";
import { type OpenAIChatToolMessage, openai } from "../../tools/dialects/openai/dialect.js";
import {
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalVerdict,
  approval,
  approveCall,
  type EffectFlags,
  type FakeMessage,
  type FakeResponse,
  type FakeResultBlock,
  fakeDialect,
  igniteTools,
  type Observation,
  type PendingCall,
  pauseToolCalls,
  type Question,
  type Result,
  type Route,
  resumeToolCalls,
  resumeToolLoop,
  runToolLoop,
  type ToolError,
  type ToolLoopState,
} from "../../tools/index.js";
import { Counter, type CounterEvent, type CounterState } from "../fixtures.js";

declare const fakeModel: () => Promise<FakeResponse>;

describe("the approval policy's types", () => {
  it("sees the route, the schema's flags and the call, and may answer sync or async", () => {
    expectTypeOf<ApprovalRequest["route"]>().toEqualTypeOf<Route>();
    expectTypeOf<ApprovalRequest["flags"]>().toEqualTypeOf<EffectFlags>();
    expectTypeOf<ApprovalVerdict>().toEqualTypeOf<
      | "allow"
      | "deny"
      | "ask"
      | { readonly deny: string }
      | { readonly ask: Readonly<Record<string, Question | undefined>> }
    >();
    const sync: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");
    const async: ApprovalPolicy = async () => ({ deny: "closed" });
    igniteTools(new Counter(), fakeDialect, { approve: approval(sync) });
    igniteTools(new Counter(), undefined, { approve: approval(async) });
  });

  it("adds Denied to ToolError, with an optional reason", () => {
    type Denied = Extract<ToolError, { kind: "Denied" }>;
    expectTypeOf<Denied["reason"]>().toEqualTypeOf<string | undefined>();
  });

  it("gives an approval screen the paused call's title and description, read-only and optional", () => {
    expectTypeOf<PendingCall["title"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PendingCall["description"]>().toEqualTypeOf<string | undefined>();
    const screen = (call: PendingCall): string =>
      `${call.title ?? call.command}: ${call.description ?? ""}`;
    expectTypeOf(screen).returns.toEqualTypeOf<string>();
  });
});

describe("pause and resume keep the component's and the dialect's types", () => {
  // Type-only: declared, never called.
  it("returns the loop's state typed by the dialect, and resumes to the same result type", () => {
    const check = async () => {
      const tools = igniteTools(new Counter(), fakeDialect, { approve: approval(() => "ask") });
      const paused = await runToolLoop({ tools, model: fakeModel, messages: [] });
      expectTypeOf(paused.pending).toEqualTypeOf<PendingCall[] | undefined>();
      if (paused.stop !== "approval") {
        expectTypeOf(paused.state).toEqualTypeOf<undefined>();
        return;
      }
      // Narrowed by `stop`: nothing to assert away with `!` or `??`.
      expectTypeOf(paused.pending).toEqualTypeOf<PendingCall[]>();
      expectTypeOf(paused.state).toEqualTypeOf<
        ToolLoopState<FakeResponse, FakeResultBlock, FakeMessage>
      >();
      expectTypeOf(paused.state.runId).toEqualTypeOf<string>();
      const decisions: ApprovalDecision[] = paused.pending.map((call) => approveCall(call));
      const resumed = await resumeToolLoop({
        tools,
        model: fakeModel,
        state: paused.state,
        decisions,
      });
      expectTypeOf(resumed.snapshot).toEqualTypeOf<CounterState | undefined>();
      expectTypeOf(resumed.messages).toEqualTypeOf<FakeMessage[]>();
      if (resumed.stop === "error") expectTypeOf(resumed.error).toEqualTypeOf<unknown>();
      if (resumed.stop === "done") {
        expectTypeOf(resumed.pending).toEqualTypeOf<undefined>();
        expectTypeOf(resumed.state).toEqualTypeOf<undefined>();
      }
    };
    expectTypeOf(check).toBeFunction();
  });

  it("settles an own loop's turn into answers typed by the component and the dialect", async () => {
    const tools = igniteTools(new Counter(), openai, { approve: approval(() => "ask") });
    const answers = await tools.answerToolCalls({ choices: [] });
    const paused = pauseToolCalls(answers);
    const settled = await resumeToolCalls(tools, paused, []);
    expectTypeOf(settled[0]?.outcome).toEqualTypeOf<
      Result<Observation<CounterState, CounterEvent>, ToolError> | undefined
    >();
    expectTypeOf(settled.map((answer) => answer.block)).toEqualTypeOf<OpenAIChatToolMessage[]>();
  });
});
