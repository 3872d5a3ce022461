/**
 * Questions the approval policy asks a person before a call runs (`{ ask: { key: question } }`):
 * the call is held with them, approved with the person's answers, and the policy reads those
 * answers — asking more, round after round, or letting the call run once with them.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AgentComponent,
  type Answers,
  type ApprovalError,
  type ApprovalPolicy,
  approval,
  approveCall,
  denyCall,
  type ExecuteContext,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  type PendingCall,
  pauseToolCalls,
  type Question,
  resumeToolCalls,
  resumeToolLoop,
  runToolLoop,
  type ToolWarning,
} from "../../tools/index.js";

interface Parcel {
  readonly parcel: string;
  readonly fragile?: boolean;
}

/** A courier whose `ship` needs an address, and for a fragile parcel a word on insurance. */
function courier() {
  const shipped: { input: unknown; answers: Answers | undefined }[] = [];
  const component: AgentComponent<{ shipped: number }> = {
    getSchema: () => ({
      commands: {
        ship: {
          description: "Ship a parcel.",
          input: {
            type: "object",
            properties: { parcel: { type: "string" }, fragile: { type: "boolean" } },
            required: ["parcel"],
            additionalProperties: false,
          },
        },
        track: { description: "Where the parcels are.", readOnly: true },
      },
    }),
    execute(command, input, context) {
      if (command === "ship") shipped.push({ input, answers: context?.answers });
      return { state: { shipped: shipped.length }, events: [] };
    },
  };
  return { component, shipped };
}

const ADDRESS: Question = {
  message: "Where should the parcel go?",
  schema: { type: "object", properties: { street: { type: "string" } }, required: ["street"] },
};
const INSURANCE: Question = {
  message: "It is fragile: insure it?",
  schema: { type: "object", properties: { insure: { type: "boolean" } }, required: ["insure"] },
};

/** Asks the address first, then — for a fragile parcel — about insurance; then lets it run. */
const askFirst: ApprovalPolicy = ({ route }) => {
  if (route.command !== "ship") return "allow";
  if (route.answers?.address === undefined) return { ask: { address: ADDRESS } };
  const { fragile } = route.input as Parcel;
  if (fragile && route.answers.insurance === undefined) return { ask: { insurance: INSURANCE } };
  return "allow";
};

const shipCall = (input: Parcel) => ({ id: "s1", name: "ship", input });

/** A courier's bridge asking `askFirst`, and its `ship` of a book held for the address. */
async function shipHeld() {
  const { component, shipped } = courier();
  const tools = igniteTools(component, fakeDialect, { approve: approval(askFirst) });
  const [held] = await tools.answerToolCalls({ toolCalls: [shipCall({ parcel: "book" })] });
  const paused = pauseToolCalls(held ? [held] : []);
  const [pending] = paused.pending;
  if (pending === undefined) throw new Error("nothing held");
  return { tools, shipped, held, paused, pending };
}

describe("questions the approval policy asks before a call runs", () => {
  it("hold the call with the questions, and run it once with the person's answers", async () => {
    const { tools, shipped, held, paused, pending } = await shipHeld();

    expect(pending.questions).toEqual({ address: ADDRESS });
    expect(held?.outcome.ok).toBe(false);
    expect(shipped).toEqual([]);

    const answers = { address: { street: "1 Quay Street" } };
    const [answer] = await resumeToolCalls(tools, paused, [approveCall(pending, { answers })]);

    expect(answer?.outcome.ok).toBe(true);
    expect(answer?.pending).toBeUndefined();
    expect(shipped).toEqual([{ input: { parcel: "book" }, answers }]);
  });

  it("ask round after round: each round pauses the loop, an old round's state is spent, and the last answers run the command once", async () => {
    const { component, shipped } = courier();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askFirst) });
    const requests: ModelRequest<unknown, FakeMessage>[] = [];
    const model = async (request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> => {
      requests.push(request);
      return request.turn === 1
        ? { text: "", toolCalls: [shipCall({ parcel: "vase", fragile: true })] }
        : { text: "Shipped.", toolCalls: [] };
    };

    const first = await runToolLoop({ tools, model, messages: [] });
    if (first.stop !== "approval") throw new Error("not paused");
    const [asked] = first.pending;
    if (asked === undefined) throw new Error("nothing held");
    expect(asked.questions).toEqual({ address: ADDRESS });

    const address = { street: "1 Quay Street" };
    const decisions = [approveCall(asked, { answers: { address } })];
    const second = await resumeToolLoop({ tools, model, state: first.state, decisions });
    if (second.stop !== "approval") throw new Error("not paused again");
    const [again] = second.pending;
    expect(again?.questions).toEqual({ insurance: INSURANCE });
    expect(again?.answers).toEqual({ address });
    expect(shipped).toEqual([]);
    expect(requests).toHaveLength(1);
    // The first round's state was settled: resumed again, it is refused, and nothing runs.
    await expect(
      resumeToolLoop({ tools, model, state: first.state, decisions }),
    ).rejects.toMatchObject({ code: "already-resumed" });

    if (again === undefined) throw new Error("nothing held");
    const insured = approveCall(again, { answers: { insurance: { insure: true } } });
    const done = await resumeToolLoop({ tools, model, state: second.state, decisions: [insured] });

    expect(done.stop).toBe("done");
    expect(shipped).toEqual([
      {
        input: { parcel: "vase", fragile: true },
        answers: { address, insurance: { insure: true } },
      },
    ]);
    const told = requests[1]?.messages.find((message) => message.role === "tool");
    expect(told).toMatchObject({
      role: "tool",
      result: { id: "s1", ok: true, snapshot: { shipped: 1 } },
    });
  });

  it("answer a call Denied when the person declines to answer, and nothing runs", async () => {
    const { tools, shipped, paused, pending } = await shipHeld();

    const [answer] = await resumeToolCalls(tools, paused, [denyCall(pending, "no address given")]);

    expect(answer?.outcome).toMatchObject({
      ok: false,
      error: { kind: "Denied", reason: "no address given" },
    });
    expect(shipped).toEqual([]);
  });

  it("are told apart from what is not a question: the call is denied, saying so, and onWarning hears it", async () => {
    const warnings: ToolWarning[] = [];
    const { component, shipped } = courier();
    const unfit = [{}, { address: { message: "Where?" } }, { address: "Where?" }];
    for (const ask of unfit) {
      const tools = igniteTools(component, fakeDialect, {
        approve: approval(() => ({ ask }) as never),
        onWarning: (warning) => warnings.push(warning),
      });
      const [answer] = await tools.answerToolCalls({ toolCalls: [shipCall({ parcel: "book" })] });
      expect(answer?.pending).toBeUndefined();
      expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "Denied" } });
    }
    expect(warnings.map((warning) => warning.code)).toEqual(Array(3).fill("policy-not-a-verdict"));
    expect(warnings[0]?.message).toContain("{ ask: questions }");
    expect(shipped).toEqual([]);
  });
});

describe("approveCall on a call the policy asked questions about", () => {
  const pending: PendingCall = {
    id: "s1",
    command: "ship",
    input: { parcel: "book" },
    flags: {},
    questions: { address: ADDRESS },
    digest: "d".repeat(64),
  };

  it("carries the answers, one per question", () => {
    const answers = { address: { street: "1 Quay Street" } };
    expect(approveCall(pending, { answers })).toEqual({
      digest: pending.digest,
      verdict: "allow",
      answers,
    });
  });

  it("refuses, naming the question, answers that are missing, not a form's values, or to what was not asked", () => {
    expect(() => approveCall(pending)).toThrow(
      'approveCall: answers for "ship" (call s1) must be an object of answers by question key, not undefined',
    );
    expect(() => approveCall(pending, { answers: { address: "1 Quay Street" } as never })).toThrow(
      'the answer to "address" must be an object of the form\'s values, not "1 Quay Street" (a string)',
    );
    expect(() =>
      approveCall(pending, { answers: { address: { street: "x" }, phone: { n: "1" } } }),
    ).toThrow('"phone" was not asked (asked: "address")');
  });

  it("refuses answers to a call that was asked no questions", () => {
    const { questions: _questions, ...confirm } = pending;
    expect(() => approveCall(confirm, { answers: { address: { street: "x" } } })).toThrow(
      "it was asked no questions, so it takes no answers",
    );
  });
});

describe("the types of questions and answers", () => {
  it("give the policy the answers so far, the command its context's answers, approveCall its answers", () => {
    expectTypeOf<ExecuteContext["answers"]>().toEqualTypeOf<Answers | undefined>();
    expectTypeOf<Parameters<ApprovalPolicy>[0]["route"]["answers"]>().toEqualTypeOf<
      Answers | undefined
    >();
    expectTypeOf<PendingCall["questions"]>().toEqualTypeOf<
      Readonly<Record<string, Question>> | undefined
    >();
    expectTypeOf(approveCall)
      .parameter(1)
      .toEqualTypeOf<{ expiresAt?: number; answers?: Answers } | undefined>();
    expectTypeOf<ApprovalError["code"]>().toBeString();
  });
});
