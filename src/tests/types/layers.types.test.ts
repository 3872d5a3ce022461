import { describe, expectTypeOf, it } from "vitest";
import {
  type Approval,
  type ApprovalPolicy,
  approval,
  type ChangeNotes,
  changeNotes,
  fakeDialect,
  type IgniteToolsOptions,
  igniteTools,
  type Layer,
  type Tracing,
  tracing,
  type WaitTool,
  waitTool,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

const policy: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");

describe("each capability's option takes its own layer, and only it", () => {
  it("types what each layer function makes", () => {
    expectTypeOf(approval(policy)).toEqualTypeOf<Approval>();
    expectTypeOf(approval()).toEqualTypeOf<Approval>();
    expectTypeOf(waitTool({ maxMs: 1_000 })).toEqualTypeOf<WaitTool>();
    expectTypeOf(changeNotes()).toEqualTypeOf<ChangeNotes>();
    expectTypeOf(
      tracing({ start: () => ({ phase: () => {}, end: () => {} }) }),
    ).toEqualTypeOf<Tracing>();
    expectTypeOf<Approval>().toExtend<Layer<"approval">>();
    expectTypeOf<WaitTool>().toExtend<Layer<"wait">>();
    expectTypeOf<Tracing>().toExtend<Layer<"tracing">>();
  });

  it("takes each layer under its own option, without a cast", () => {
    expectTypeOf(igniteTools).toBeCallableWith(new Counter(), fakeDialect, {
      approve: approval(policy),
      wait: waitTool({ maxMs: 1_000 }),
    });
  });

  it("refuses the forms before layers, and a layer under another's option", () => {
    expectTypeOf(policy).not.toExtend<NonNullable<IgniteToolsOptions["approve"]>>();
    expectTypeOf<{ maxMs: number }>().not.toExtend<NonNullable<IgniteToolsOptions["wait"]>>();
    expectTypeOf<WaitTool>().not.toExtend<NonNullable<IgniteToolsOptions["approve"]>>();
    expectTypeOf<Approval>().not.toExtend<NonNullable<IgniteToolsOptions["wait"]>>();
  });
});
