import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import {
  type AgentComponent,
  type ApprovalDecision,
  ApprovalError,
  type ApprovalPolicy,
  type ApprovalRequest,
  approval,
  approveCall,
  denyCall,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  memoryLedger,
  type PausedTurn,
  pauseToolCalls,
  resumeToolCalls,
  resumeToolLoop,
  runToolLoop,
  type ToolError,
  type ToolTracer,
} from "../../tools/index.js";
import { contentKey as canonicalJson } from "../../tools/validation/cache.js";
import { argsFor, providers } from "../provider-responses.js";

interface VaultState {
  balance: number;
  wiped: boolean;
}

/** A vault: `read` only reads, `deposit` adds, `wipe` destroys. Records every execute. */
function vault() {
  const ran: Array<{ command: string; input: unknown }> = [];
  let state: VaultState = { balance: 10, wiped: false };
  const component: AgentComponent<VaultState> = {
    getSchema: () => ({
      commands: {
        read: { description: "Read the balance.", readOnly: true, idempotent: true },
        deposit: {
          input: {
            type: "object",
            properties: {
              amount: { type: "integer", minimum: 1 },
              memo: { type: "string", default: "none" },
            },
            required: ["amount"],
            additionalProperties: false,
          },
        },
        wipe: {
          description: "Empty the vault.",
          destructive: true,
          gated: true,
          input: {
            type: "object",
            properties: { keep: { type: "integer", default: 0 } },
            additionalProperties: false,
          },
        },
      },
    }),
    canExecute: (command) => command !== "wipe" || !state.wiped,
    execute: (command, input) => {
      ran.push({ command, input });
      if (command === "deposit") {
        state = { ...state, balance: state.balance + (input as { amount: number }).amount };
      }
      if (command === "wipe") state = { balance: (input as { keep: number }).keep, wiped: true };
      return { state, events: [{ type: command }] };
    },
  };
  return { component, ran, state: () => state };
}

const askDestructive: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");

const turn = (...toolCalls: FakeResponse["toolCalls"]): FakeResponse => ({ toolCalls });

const errorOf = (result: { ok: boolean; error?: ToolError }) =>
  result.ok ? undefined : result.error;

describe("the approval policy", () => {
  it("sees the validated route with defaults applied, the command's schema, its flags and the call", async () => {
    const { component } = vault();
    const seen: ApprovalRequest[] = [];
    const tools = igniteTools(component, undefined, {
      approve: approval((request) => {
        seen.push(request);
        return "allow";
      }),
    });
    await tools.invoke({ id: "c1", name: "wipe", input: {} });
    expect(seen).toEqual([
      {
        route: { command: "wipe", input: { keep: 0 } },
        schema: component.getSchema().commands.wipe,
        flags: { destructive: true },
        call: { id: "c1", name: "wipe", input: {} },
      },
    ]);
  });

  it("runs a call it allows, and answers Denied without running a call it denies", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, undefined, {
      approve: approval(({ route }) => (route.command === "read" ? "allow" : "deny")),
    });
    expect((await tools.invoke({ name: "read", input: {} })).ok).toBe(true);
    const refused = await tools.invoke({ name: "deposit", input: { amount: 5 } });
    expect(errorOf(refused)).toEqual({
      kind: "Denied",
      name: "deposit",
      message:
        'Command "deposit" was denied. It did not run; do not call it again with the same input.',
    });
    expect(ran.map((run) => run.command)).toEqual(["read"]);
  });

  it("gives the model the reason of a { deny } verdict", async () => {
    const tools = igniteTools(vault().component, fakeDialect, {
      approve: approval(() => ({ deny: "deposits are closed until Monday" })),
    });
    const [block] = await tools.handleToolCalls(
      turn({ id: "1", name: "deposit", input: { amount: 1 } }),
    );
    expect(block).toMatchObject({
      ok: false,
      error: {
        kind: "Denied",
        reason: "deposits are closed until Monday",
        message:
          'Command "deposit" was denied: deposits are closed until Monday. It did not run; do not call it again with the same input.',
      },
    });
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("policy store down");
      },
    ],
    ["rejects", () => Promise.reject(new Error("policy store down"))],
  ])("denies when the policy %s (fails closed)", async (_how, approve: ApprovalPolicy) => {
    const { component, ran } = vault();
    const result = await igniteTools(component, undefined, { approve: approval(approve) }).invoke({
      name: "read",
      input: {},
    });
    expect(errorOf(result)?.kind).toBe("Denied");
    expect(errorOf(result)?.message).toContain("the approval policy could not decide");
    expect(ran).toEqual([]);
  });

  it("is asked only after validation and availability: a bad or unavailable call never reaches it", async () => {
    const { component } = vault();
    const asked: string[] = [];
    const tools = igniteTools(component, undefined, {
      approve: approval(({ route }) => {
        asked.push(route.command);
        return "allow";
      }),
    });
    expect(errorOf(await tools.invoke({ name: "deposit", input: { amount: 0 } }))?.kind).toBe(
      "InvalidInput",
    );
    expect(errorOf(await tools.invoke({ name: "explode", input: {} }))?.kind).toBe(
      "UnknownCommand",
    );
    await tools.invoke({ name: "wipe", input: {} });
    expect(errorOf(await tools.invoke({ name: "wipe", input: {} }))?.kind).toBe("Unavailable");
    expect(asked).toEqual(["wipe"]);
  });

  it("answers an asked call Denied through invoke and handleToolCalls, which cannot wait", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askDestructive) });
    const result = await tools.invoke({ name: "wipe", input: {} });
    expect(errorOf(result)?.message).toBe(
      `Command "wipe" was denied: it needs a person's approval, which was not given. It did not run; do not call it again with the same input.`,
    );
    const [block] = await tools.handleToolCalls(turn({ id: "1", name: "wipe", input: {} }));
    expect(block).toMatchObject({ ok: false, error: { kind: "Denied" } });
    expect(ran).toEqual([]);
  });

  it("is a TypeError at construction when it is not a function", () => {
    expect(() =>
      igniteTools(vault().component, undefined, { approve: approval("ask" as never) }),
    ).toThrow('approval: policy must be a function, not "ask" (a string)');
  });
});

describe("the canonical JSON a call is hashed over", () => {
  it("writes equal data as equal text whatever the order of its keys", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reversed = JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
          typeof item === "object" && item !== null && !Array.isArray(item)
            ? Object.fromEntries(Object.entries(item).reverse())
            : item,
        );
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: "x" }] })).toBe('{"a":[{"c":"x","d":2}],"b":1}');
  });
});

/** A turn with a read, a wipe the policy asks about, and a deposit, paused as JSON. */
async function pausedTurn() {
  const made = vault();
  const tools = igniteTools(made.component, fakeDialect, { approve: approval(askDestructive) });
  const answers = await tools.answerToolCalls(
    turn(
      { id: "r", name: "read", input: {} },
      { id: "w", name: "wipe", input: { keep: 3 } },
      { id: "d", name: "deposit", input: { amount: 2 } },
    ),
  );
  const paused: PausedTurn<unknown> = JSON.parse(JSON.stringify(pauseToolCalls(answers)));
  return { ...made, tools, answers, paused };
}

describe("pausing and resuming a turn with answerToolCalls", () => {
  it("reports each asked call as pending, bound to its id, command and validated input, and answers the rest", async () => {
    const { answers, ran, paused } = await pausedTurn();
    expect(ran.map((run) => run.command)).toEqual(["read", "deposit"]);
    expect(answers.map((answer) => answer.pending !== undefined)).toEqual([false, true, false]);
    expect(paused.pending).toEqual([
      {
        id: "w",
        command: "wipe",
        input: { keep: 3 },
        flags: { destructive: true },
        description: "Empty the vault.",
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
  });

  it("executes an approved call exactly once and answers the whole turn in order", async () => {
    const { tools, ran, paused } = await pausedTurn();
    const answers = await resumeToolCalls(
      tools,
      paused,
      paused.pending.map((call) => approveCall(call)),
    );
    expect(answers.map((answer) => answer.call.id)).toEqual(["r", "w", "d"]);
    expect(answers.map((answer) => answer.block)).toMatchObject([
      { id: "r", ok: true },
      { id: "w", ok: true, snapshot: { balance: 3, wiped: true } },
      { id: "d", ok: true },
    ]);
    expect(ran.map((run) => run.command)).toEqual(["read", "deposit", "wipe"]);
    expect(ran[2]).toEqual({ command: "wipe", input: { keep: 3 } });
  });

  it("answers a denied call Denied with the person's reason, and runs nothing", async () => {
    const { tools, ran, paused } = await pausedTurn();
    const [pending] = paused.pending;
    if (!pending) throw new Error("no pending call");
    const answers = await resumeToolCalls(tools, paused, [
      denyCall(pending, "the auditor is here"),
    ]);
    expect(answers[1]?.block).toMatchObject({
      ok: false,
      error: {
        kind: "Denied",
        message:
          'Command "wipe" was denied: the auditor is here. It did not run; do not call it again with the same input.',
      },
    });
    expect(ran.map((run) => run.command)).toEqual(["read", "deposit"]);
  });

  it("refuses a decision for another input, a duplicate, an expired one, an undecided call and a changed state, running nothing", async () => {
    const { tools, ran, paused } = await pausedTurn();
    const [pending] = paused.pending;
    if (!pending) throw new Error("no pending call");
    const other = await pausedTurnFor({ keep: 4 });
    const refusals: Array<[ApprovalDecision[], PausedTurn<unknown>, string]> = [
      [other.paused.pending.map((call) => approveCall(call)), paused, "not-pending"],
      [[approveCall(pending), approveCall(pending)], paused, "duplicate"],
      [[approveCall(pending, { expiresAt: Date.now() - 1 })], paused, "expired"],
      [[], paused, "undecided"],
      [[approveCall(pending)], withInput(paused, { keep: 99 }), "tampered"],
    ];
    for (const [decisions, state, code] of refusals) {
      const refused = resumeToolCalls(tools, state, decisions);
      await expect(refused).rejects.toBeInstanceOf(ApprovalError);
      await expect(refused).rejects.toMatchObject({ code });
    }
    expect(ran.map((run) => run.command)).toEqual(["read", "deposit"]);
  });

  it("refuses the same turn resumed again (already-resumed), and runs nothing twice", async () => {
    const { tools, ran, paused } = await pausedTurn();
    const decisions = paused.pending.map((call) => approveCall(call));
    await resumeToolCalls(tools, paused, decisions);
    const again = resumeToolCalls(tools, paused, decisions);
    await expect(again).rejects.toBeInstanceOf(ApprovalError);
    await expect(again).rejects.toMatchObject({ code: "already-resumed" });
    expect(ran.filter((run) => run.command === "wipe")).toHaveLength(1);
  });

  it("refuses a turn resumed again with other decisions, and never runs an approved call without an id twice", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askDestructive) });
    const paused = pauseToolCalls(await tools.answerToolCalls(turn({ name: "wipe", input: {} })));
    await resumeToolCalls(
      tools,
      paused,
      paused.pending.map((call) => approveCall(call)),
    );
    const denied = resumeToolCalls(
      tools,
      paused,
      paused.pending.map((call) => denyCall(call)),
    );
    await expect(denied).rejects.toMatchObject({ code: "already-resumed" });
    expect(ran).toEqual([{ command: "wipe", input: { keep: 0 } }]);
  });

  it("checks an approved call again: a command no longer available is answered Unavailable", async () => {
    const { tools, ran, paused, component } = await pausedTurn();
    await igniteTools(component).invoke({ name: "wipe", input: {} });
    const answers = await resumeToolCalls(
      tools,
      paused,
      paused.pending.map((call) => approveCall(call)),
    );
    expect(answers[1]?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(ran.filter((run) => run.command === "wipe")).toHaveLength(1);
  });
});

async function pausedTurnFor(input: unknown) {
  const made = vault();
  const tools = igniteTools(made.component, fakeDialect, { approve: approval(askDestructive) });
  const answers = await tools.answerToolCalls(turn({ id: "w", name: "wipe", input }));
  return { tools, paused: pauseToolCalls(answers) };
}

function withInput(paused: PausedTurn<unknown>, input: unknown): PausedTurn<unknown> {
  return {
    ...paused,
    answers: paused.answers.map((answer) =>
      answer.pending ? { ...answer, pending: { ...answer.pending, input } } : answer,
    ),
  };
}

describe("the ledger", () => {
  it("replays a call it holds as answered instead of running it again", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const response = turn({ id: "d1", name: "deposit", input: { amount: 4 } });
    const scope = "conversation-1/turn-1";
    const first = await tools.handleToolCalls(response, { ledger, scope });
    const again = await tools.handleToolCalls(response, { ledger, scope });
    expect(ran).toHaveLength(1);
    expect(again).toEqual(first);
    expect(Object.values(ledger.entries())).toEqual([
      {
        status: "answered",
        outcome: {
          ok: true,
          value: { snapshot: { balance: 14, wiped: false }, events: [{ type: "deposit" }] },
        },
      },
    ]);
  });

  it("answers a call it holds as started ExecuteFailed (interrupted) without running it", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const response = turn({ id: "d1", name: "deposit", input: { amount: 4 } });
    const scope = "conversation-1/turn-1";
    // What a process that died inside execute leaves behind: intent, no outcome, and a lease
    // that ran out (1 ms, never renewed again).
    await tools.handleToolCalls(response, {
      ledger: { ...ledger, finish: () => undefined },
      scope,
      leaseMs: 1,
    });
    const [block] = await tools.handleToolCalls(response, { ledger, scope });
    expect(ran).toHaveLength(1);
    expect(block).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "interrupted",
        message:
          'Command "deposit" failed: was started earlier but its outcome was never recorded (the process running it stopped). It may have taken effect: check the state before calling it again.',
      },
    });
  });

  it("runs a call again when its id is reused with another input", async () => {
    const { component, ran } = vault();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const scope = "conversation-1/turn-1";
    await tools.handleToolCalls(turn({ id: "call_0", name: "deposit", input: { amount: 1 } }), {
      ledger,
      scope,
    });
    await tools.handleToolCalls(turn({ id: "call_0", name: "deposit", input: { amount: 2 } }), {
      ledger,
      scope,
    });
    expect(ran).toHaveLength(2);
  });
});

describe("no sequence of decisions runs a call twice or runs what was not approved", () => {
  it("holds for any resumes, with any decisions, from the stored state", async () => {
    type Attempt = { kind: "approve" | "deny" | "expired" | "foreign" | "duplicate" | "none" };
    const attempt = fc.record({
      kind: fc.constantFrom("approve", "deny", "expired", "foreign", "duplicate", "none"),
    }) as fc.Arbitrary<Attempt>;
    const foreign = (await pausedTurnFor({ keep: 7 })).paused.pending;
    await fc.assert(
      fc.asyncProperty(
        fc.array(attempt, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (attempts, fresh) => {
          const { tools, ran, paused } = await pausedTurn();
          const ledger = memoryLedger();
          const [pending] = paused.pending;
          if (!pending) throw new Error("no pending call");
          let approvedFirst: boolean | undefined;
          for (const { kind } of attempts) {
            const decisions: ApprovalDecision[] =
              kind === "approve"
                ? [approveCall(pending)]
                : kind === "deny"
                  ? [denyCall(pending)]
                  : kind === "expired"
                    ? [approveCall(pending, { expiresAt: 0 })]
                    : kind === "foreign"
                      ? foreign.map((call) => approveCall(call))
                      : kind === "duplicate"
                        ? [approveCall(pending), approveCall(pending)]
                        : [];
            // Each resume starts from the stored JSON, as another process would.
            const state: PausedTurn<unknown> = JSON.parse(JSON.stringify(paused));
            try {
              await resumeToolCalls(tools, state, decisions, fresh ? {} : { ledger });
              approvedFirst ??= kind === "approve";
            } catch (error) {
              expect(error).toBeInstanceOf(ApprovalError);
            }
          }
          const wipes = ran.filter((run) => run.command === "wipe");
          expect(wipes.length).toBe(approvedFirst ? 1 : 0);
          for (const wipe of wipes) expect(wipe.input).toEqual(pending.input);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The model of a conversation that wipes the vault, then reads, then stops. */
async function wipingModel(request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> {
  if (request.turn === 1) {
    return turn(
      { id: "a", name: "read", input: {} },
      { id: "b", name: "wipe", input: {} },
      { id: "c", name: "deposit", input: { amount: 1 } },
    );
  }
  if (request.turn === 2) return turn({ id: "e", name: "read", input: {} });
  return { text: "Done.", toolCalls: [] };
}

describe("runToolLoop and resumeToolLoop", () => {
  it("stops with approval, resumes from the stored state in a new bridge, and goes on to done", async () => {
    const first = vault();
    const paused = await runToolLoop({
      tools: igniteTools(first.component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      messages: [{ role: "user", content: "Empty it." }],
    });
    expect(paused.stop).toBe("approval");
    if (paused.stop !== "approval") throw new Error("not paused");
    expect(paused.pending.map((call) => call.command)).toEqual(["wipe"]);
    expect(first.ran.map((run) => run.command)).toEqual(["read", "deposit"]);
    const stored = JSON.stringify({ state: paused.state, pending: paused.pending });

    // Another process: the same component (its state restored), a new bridge.
    const { state, pending } = JSON.parse(stored);
    const requests: ModelRequest<unknown, FakeMessage>[] = [];
    const resumed = await resumeToolLoop({
      tools: igniteTools(first.component, fakeDialect, { approve: approval(askDestructive) }),
      model: (request) => {
        requests.push(request);
        return wipingModel(request);
      },
      state,
      decisions: pending.map(approveCall),
    });
    expect(resumed.stop).toBe("done");
    expect(first.ran.map((run) => run.command)).toEqual(["read", "deposit", "wipe", "read"]);
    expect(resumed.steps.map((step) => step.turn)).toEqual([1, 2, 3]);
    expect(requests.map((request) => request.turn)).toEqual([2, 3]);
    const results = requests[0]?.messages.flatMap((message) =>
      message.role === "tool" ? [message.result.id] : [],
    );
    expect(results).toEqual(["a", "b", "c"]);
    expect(resumed.snapshot).toEqual({ balance: 0, wiped: true });
  });

  it("counts the paused turn against maxTurns", async () => {
    const { component } = vault();
    const paused = await runToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      messages: [],
      maxTurns: 1,
    });
    if (paused.stop !== "approval") throw new Error("not paused");
    const resumed = await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      state: paused.state,
      decisions: paused.pending.map((call) => approveCall(call)),
    });
    expect(resumed.stop).toBe("maxTurns");
    expect(resumed.steps).toHaveLength(1);
  });

  it("refuses an old state resumed again in the same process, with no ledger anywhere", async () => {
    const { component, ran } = vault();
    const paused = await runToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      messages: [],
    });
    if (paused.stop !== "approval") throw new Error("not paused");
    const { state, pending } = paused;
    const decisions = pending.map((call) => approveCall(call));
    let asked = 0;
    const options = {
      model: (request: ModelRequest<unknown, FakeMessage>) => {
        asked += 1;
        return wipingModel(request);
      },
      state,
      decisions,
    };
    const first = await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      ...options,
    });
    const again = resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      ...options,
    });
    await expect(again).rejects.toMatchObject({ code: "already-resumed" });
    expect(first.stop).toBe("done");
    expect(ran.filter((run) => run.command === "wipe")).toHaveLength(1);
    expect(asked).toBe(2);
  });

  it("ends the resumed run's spans with what onStep threw, and lets the throw reach the application", async () => {
    const { component } = vault();
    const paused = await runToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      messages: [],
    });
    if (paused.stop !== "approval") throw new Error("not paused");
    const ended: [string, boolean][] = [];
    const tracer: ToolTracer = {
      start: (unit) => ({ phase: () => {}, end: (result) => ended.push([unit.kind, result.ok]) }),
    };
    const bug = new RangeError("onStep broke");

    const resuming = resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askDestructive) }),
      model: wipingModel,
      state: paused.state,
      decisions: paused.pending.map((call) => approveCall(call)),
      tracer,
      onStep: () => {
        throw bug;
      },
    });

    await expect(resuming).rejects.toBe(bug);
    expect(ended.filter(([kind]) => kind !== "call")).toEqual([
      ["turn", false],
      ["run", false],
    ]);
  });
});

describe("approval over mcp", () => {
  it("answers a denied call as an error result the host shows the model", async () => {
    const tools = igniteTools(vault().component, mcp, {
      approve: approval(() => ({ deny: "read-only day" })),
    });
    const [result] = await tools.handleToolCalls({ name: "read", arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain(
      'Error (Denied): Command \\"read\\" was denied: read-only day.',
    );
  });
});

describe.each(providers)("approval over $name", (provider) => {
  it("pauses, resumes from JSON and sends the model every answer of the turn, a denial included", async () => {
    const { component, ran } = vault();
    const requests: ModelRequest<unknown, unknown>[] = [];
    const model = async (request: ModelRequest<unknown, unknown>): Promise<never> => {
      requests.push(request);
      const calls =
        request.turn === 1
          ? [
              { id: "t1", name: "read", args: argsFor(provider, {}) },
              { id: "t2", name: "wipe", args: argsFor(provider, { keep: 1 }) },
            ]
          : [];
      return provider.respond(calls, calls.length ? undefined : "Done.") as never;
    };
    const start = provider.dialect.appendTurn([], provider.respond([], "Empty it.") as never, []);
    const paused = await runToolLoop({
      tools: igniteTools(component, provider.dialect, { approve: approval(askDestructive) }),
      model,
      messages: start,
    });
    expect(paused.stop).toBe("approval");
    const { state, pending } = JSON.parse(JSON.stringify(paused));
    const resumed = await resumeToolLoop({
      tools: igniteTools(component, provider.dialect, { approve: approval(askDestructive) }),
      model,
      state,
      decisions: pending.map((call: never) => denyCall(call, "not today")),
    });
    expect(resumed.stop).toBe("done");
    expect(ran.map((run) => run.command)).toEqual(["read"]);
    const sent = JSON.stringify(requests[1]?.messages);
    expect(sent).toContain("was denied: not today");
    expect(resumed.steps[0]?.answers.map((answer) => provider.textOf(answer.block))).toEqual([
      expect.stringContaining("balance"),
      expect.stringContaining("Error (Denied)"),
    ]);
  });
});
