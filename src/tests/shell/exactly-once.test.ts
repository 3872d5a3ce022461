import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callDigest } from "../../tools/approval/decisions.js";
import { DEFAULT_LEDGER_ENTRIES, defaultLedger } from "../../tools/approval/ledger.js";
import {
  type AgentComponent,
  type ApprovalDecision,
  ApprovalError,
  type ApprovalPolicy,
  approval,
  approveCall,
  type CallLedger,
  denyCall,
  type FakeMessage,
  type FakeResponse,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  memoryLedger,
  pauseToolCalls,
  readLedgerEntry,
  resumeToolCalls,
  resumeToolLoop,
  runToolLoop,
  type ToolError,
} from "../../tools/index.js";

/** An account: `balance` reads, `pay` moves money and is asked about. Counts every execute. */
function account() {
  const paid: unknown[] = [];
  const component: AgentComponent<{ paid: number }> = {
    getSchema: () => ({
      commands: {
        balance: { readOnly: true },
        pay: {
          destructive: true,
          input: {
            type: "object",
            properties: { amount: { type: "integer" } },
            required: ["amount"],
            additionalProperties: false,
          },
        },
      },
    }),
    execute: (command, input) => {
      if (command === "pay") paid.push(input);
      return { state: { paid: paid.length }, events: [] };
    },
  };
  return { component, paid };
}

const askPay: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");

/** A model that pays in turn 1 (ids numbered from call_0, as Gemini and Ollama do), then stops. */
function payingModel(amount = 5) {
  const asked: number[] = [];
  const model = async (request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> => {
    asked.push(request.turn);
    if (request.turn === 1) {
      return {
        toolCalls: [
          { id: "call_0", name: "balance", input: {} },
          { id: "call_1", name: "pay", input: { amount } },
        ],
      };
    }
    return { text: "Paid.", toolCalls: [] };
  };
  return { model, asked };
}

async function pausedRun(options: { ledger?: CallLedger; approve?: ApprovalPolicy } = {}) {
  const made = account();
  const { model, asked } = payingModel();
  const paused = await runToolLoop({
    tools: igniteTools(made.component, fakeDialect, {
      approve: approval(options.approve ?? askPay),
    }),
    model,
    messages: [],
    ...(options.ledger ? { ledger: options.ledger } : {}),
  });
  if (paused.stop !== "approval") throw new Error(`not paused: ${paused.stop}`);
  // Stored and read back, as an application does.
  const stored = JSON.parse(JSON.stringify({ state: paused.state, pending: paused.pending }));
  return { ...made, model, asked, state: paused.state, stored };
}

const errorOf = (outcome: { ok: boolean; error?: ToolError }) =>
  outcome.ok ? undefined : outcome.error;

afterEach(() => {
  vi.useRealTimers();
});

describe("a paused state resumed twice in one process, with no ledger anywhere", () => {
  it("runs each approved call once and asks the model once, whatever the interleaving of duplicate resumes and their decisions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("approve", "deny"), { minLength: 2, maxLength: 5 }),
        fc.array(fc.nat(3), { minLength: 5, maxLength: 5 }),
        async (verdicts, delays) => {
          const { component, paid, model, asked, stored } = await pausedRun();
          const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
          // Each duplicate starts after its own number of ticks: concurrent, in any order.
          const resumes = verdicts.map(async (verdict, index) => {
            for (let tick = 0; tick < (delays[index] ?? 0); tick++) await Promise.resolve();
            const decisions: ApprovalDecision[] = stored.pending.map(
              verdict === "approve" ? approveCall : denyCall,
            );
            return resumeToolLoop({ tools, model, state: stored.state, decisions });
          });
          const settled = await Promise.allSettled(resumes);
          const done = settled.filter((result) => result.status === "fulfilled");
          expect(done).toHaveLength(1);
          for (const result of settled) {
            if (result.status === "fulfilled") continue;
            expect(result.reason).toBeInstanceOf(ApprovalError);
            expect(["already-resumed", "resuming-elsewhere"]).toContain(result.reason.code);
          }
          const winner = settled.findIndex((result) => result.status === "fulfilled");
          expect(paid).toHaveLength(verdicts[winner] === "approve" ? 1 : 0);
          // Turn 1 before the pause, turn 2 once: one continuation.
          expect(asked).toEqual([1, 2]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses a resume delivered again after the first finished (already-resumed), before the model is asked", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const resume = () =>
      resumeToolLoop({
        tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
        model,
        state: stored.state,
        decisions: stored.pending.map(approveCall),
      });
    const first = await resume();
    const again = resume();
    await expect(again).rejects.toThrow(
      "This paused turn was already resumed: its result is the only continuation. Nothing ran.",
    );
    await expect(again).rejects.toMatchObject({ code: "already-resumed" });
    expect(first.stop).toBe("done");
    expect(paid).toEqual([{ amount: 5 }]);
    expect(asked).toEqual([1, 2]);
  });

  it("checks the decisions before the claim: refused decisions leave the state resumable", async () => {
    const { component, paid, model, stored } = await pausedRun();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
    const late = resumeToolLoop({
      tools,
      model,
      state: stored.state,
      decisions: stored.pending.map((call: never) => approveCall(call, { expiresAt: 0 })),
    });
    await expect(late).rejects.toMatchObject({ code: "expired" });
    const done = await resumeToolLoop({
      tools,
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
    });
    expect(done.stop).toBe("done");
    expect(paid).toHaveLength(1);
  });
});

describe("the process's own ledger", () => {
  it("keeps a bounded number of entries, dropping the oldest answered ones first", async () => {
    const ledger = memoryLedger({}, { maxEntries: 3 });
    const outcome = { ok: true as const, value: { snapshot: null, events: [] } };
    const lease = { holder: "h", until: Number.MAX_SAFE_INTEGER };
    await ledger.begin("running", lease);
    for (const key of ["a", "b", "c", "d"]) {
      await ledger.begin(key, lease);
      await ledger.finish(key, outcome);
    }
    // The started entry is kept however old: dropping it would let a duplicate run it.
    expect(Object.keys(ledger.entries())).toEqual(["running", "c", "d"]);
    expect(() => memoryLedger({}, { maxEntries: 0 })).toThrow(TypeError);
  });

  it("is one ledger per process, bounded to DEFAULT_LEDGER_ENTRIES", async () => {
    expect(defaultLedger()).toBe(defaultLedger());
    const ledger = defaultLedger();
    const outcome = { ok: true as const, value: { snapshot: null, events: [] } };
    for (let index = 0; index < DEFAULT_LEDGER_ENTRIES + 50; index++) {
      const key = `bounded-test/${index}`;
      await ledger.begin(key, { holder: "h", until: 0 });
      await ledger.finish(key, outcome);
    }
    expect(Object.keys(ledger.entries()).length).toBe(DEFAULT_LEDGER_ENTRIES);
    expect(await ledger.get("bounded-test/0")).toBeUndefined();
  });

  it("records the claim of a resume, and not the calls: a run's outcomes are not kept", async () => {
    const { component, model, stored } = await pausedRun();
    await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
    });
    const mine = Object.entries(defaultLedger().entries()).filter(([key]) =>
      key.startsWith(stored.state.runId),
    );
    expect(mine).toEqual([
      [
        `${stored.state.runId}/turn-1/resume`,
        {
          status: "answered",
          outcome: { ok: true, value: { snapshot: { resumed: "done" }, events: [] } },
        },
      ],
    ]);
  });
});

describe("keys scoped to the run", () => {
  it("never mixes two conversations whose calls share id, command and input in one shared ledger", async () => {
    const ledger = memoryLedger();
    const one = await pausedRun({ ledger });
    const two = await pausedRun({ ledger });
    expect(one.state.runId).not.toBe(two.state.runId);
    for (const run of [one, two]) {
      await resumeToolLoop({
        tools: igniteTools(run.component, fakeDialect, { approve: approval(askPay) }),
        model: run.model,
        state: run.stored.state,
        decisions: run.stored.pending.map(approveCall),
        ledger,
      });
    }
    expect(one.paid).toEqual([{ amount: 5 }]);
    expect(two.paid).toEqual([{ amount: 5 }]);
    expect(Object.keys(ledger.entries())).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${one.state.runId}/turn-1/[0-9a-f]{64}$`)),
        expect.stringMatching(new RegExp(`^${two.state.runId}/turn-1/[0-9a-f]{64}$`)),
      ]),
    );
  });

  it("takes the run's id from the application when it gives one", async () => {
    const { component } = account();
    const { model } = payingModel();
    const paused = await runToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      messages: [],
      runId: "conversation-42",
    });
    if (paused.stop !== "approval") throw new Error("not paused");
    expect(paused.state.runId).toBe("conversation-42");
    expect(paused.state.paused.scope).toBe("conversation-42/turn-1");
  });

  it("gives an own loop's paused turns scopes of their own, so two turns with call_0 never meet", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
    const ledger = memoryLedger();
    const response = { toolCalls: [{ id: "call_0", name: "pay", input: { amount: 1 } }] };
    for (let turn = 0; turn < 2; turn++) {
      const paused = pauseToolCalls(await tools.answerToolCalls(response, { ledger }));
      await resumeToolCalls(
        tools,
        paused,
        paused.pending.map((call) => approveCall(call)),
        {
          ledger,
        },
      );
    }
    expect(paid).toHaveLength(2);
  });

  it("replays the same response answered again under the same scope, and only then", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const response = { toolCalls: [{ id: "call_0", name: "pay", input: { amount: 1 } }] };
    await tools.handleToolCalls(response, { ledger, scope: "chat-1/turn-1" });
    await tools.handleToolCalls(response, { ledger, scope: "chat-1/turn-1" });
    expect(paid).toHaveLength(1);
    await tools.handleToolCalls(response, { ledger });
    await tools.handleToolCalls(response, { ledger });
    expect(paid).toHaveLength(3);
  });
});

/** A ledger whose `method` fails as a store that is down does. */
function failing(method: keyof CallLedger, ledger: CallLedger = memoryLedger()): CallLedger {
  return {
    ...ledger,
    [method]: () => Promise.reject(new Error("connection refused")),
  };
}

describe("a ledger that fails", () => {
  const response = { toolCalls: [{ id: "p1", name: "pay", input: { amount: 3 } }] };
  const scope = "chat-1/turn-1";

  it.each([
    ["get", "was not run: the ledger could not be read (connection refused)."],
    ["begin", "was not run: the ledger could not record that it starts (connection refused)."],
  ] as const)(
    "answers the call ExecuteFailed (ledger) and runs nothing when %s fails",
    async (method, detail) => {
      const { component, paid } = account();
      const tools = igniteTools(component, fakeDialect);
      const [outcome] = (
        await tools.answerToolCalls(response, { ledger: failing(method), scope })
      ).map((answer) => answer.outcome);
      expect(errorOf(outcome ?? { ok: true })).toMatchObject({
        kind: "ExecuteFailed",
        reason: "ledger",
        message: `Command "pay" failed: ${detail}`,
      });
      expect(paid).toEqual([]);
    },
  );

  it("says the call ran when only recording its outcome failed", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect);
    const outcome = await tools.invoke(
      { id: "p1", name: "pay", input: { amount: 3 } },
      { ledger: failing("finish"), scope },
    );
    expect(errorOf(outcome)).toMatchObject({
      reason: "ledger",
      message:
        'Command "pay" failed: ran, but its outcome could not be recorded: the ledger failed (connection refused). It ran: check the state before calling it again.',
    });
    expect(paid).toHaveLength(1);
  });

  it("reports a corrupted entry instead of trusting it", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect);
    const corrupted: CallLedger = {
      ...memoryLedger(),
      get: () => readLedgerEntry({ status: "answered", outcome: "yes" }),
    };
    const outcome = await tools.invoke(
      { id: "p1", name: "pay", input: { amount: 3 } },
      { ledger: corrupted, scope },
    );
    expect(errorOf(outcome)?.message).toMatch(
      /^Command "pay" failed: was not run: the ledger could not be read \(not a ledger entry/,
    );
    expect(paid).toEqual([]);
  });

  it("never throws out of invoke or handleToolCalls, even when a method throws synchronously", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect);
    const ledger: CallLedger = {
      ...memoryLedger(),
      begin: () => {
        throw new Error("broken");
      },
    };
    const [block] = await tools.handleToolCalls(response, { ledger, scope });
    expect(block).toMatchObject({ ok: false, error: { reason: "ledger" } });
    expect(paid).toEqual([]);
  });

  it("refuses a resume whose claim cannot be recorded (ledger-failed), before anything runs", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const resuming = resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
      ledger: failing("begin"),
    });
    await expect(resuming).rejects.toMatchObject({
      code: "ledger-failed",
      message:
        "The ledger failed while this resume was being claimed (connection refused). Nothing ran.",
    });
    expect(paid).toEqual([]);
    expect(asked).toEqual([1]);
  });
});

describe("leases", () => {
  it("refuses a resume while another's lease is live (resuming-elsewhere, with retryAt), and recovers it once it ran out", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const ledger = memoryLedger();
    let time = 1_000_000;
    const now = () => time;
    // What a resume whose process died leaves: its claim, and its payment started.
    const claim = `${stored.state.paused.scope}/resume`;
    const payKey = `${stored.state.paused.scope}/${stored.pending[0].digest}`;
    await ledger.begin(claim, { holder: "dead", until: time + 30_000 });
    await ledger.begin(payKey, { holder: "dead", until: time + 30_000 });
    const resume = () =>
      resumeToolLoop({
        tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
        model,
        state: stored.state,
        decisions: stored.pending.map(approveCall),
        ledger,
        now,
      });
    const early = resume();
    await expect(early).rejects.toMatchObject({
      code: "resuming-elsewhere",
      retryAt: 1_030_000,
    });
    time += 30_001;
    const recovered = await resume();
    expect(recovered.stop).toBe("done");
    expect(recovered.steps[0]?.errors).toMatchObject([{ reason: "interrupted" }]);
    expect(paid).toEqual([]);
    expect(asked).toEqual([1, 2]);
    await expect(resume()).rejects.toMatchObject({ code: "already-resumed" });
  });

  it("waits for a call running elsewhere and answers its real outcome, never interrupted", async () => {
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const call = { id: "p1", name: "pay", input: { amount: 3 } };
    const scope = "chat-1/turn-1";
    // Another holder is running the call, with a live lease.
    const key = `${scope}/${await callDigest(call.id, call.name, call.input)}`;
    await ledger.begin(key, { holder: "other", until: Date.now() + 60_000 });
    let looked = 0;
    const watching: CallLedger = {
      ...ledger,
      get: (at) => {
        looked += 1;
        return ledger.get(at);
      },
    };
    const answering = tools.invoke(call, { ledger: watching, scope });
    // It looks, sees the live lease, and looks again later: still waiting, not interrupted.
    await vi.waitFor(() => expect(looked).toBeGreaterThan(1));
    await ledger.finish(key, {
      ok: true,
      value: { snapshot: { paid: 7 }, events: [] },
    });
    expect(await answering).toEqual({ ok: true, value: { snapshot: { paid: 7 }, events: [] } });
    expect(paid).toEqual([]);
  });

  it("runs again, once, an idempotent command whose process died before recording its outcome; answers any other interrupted", async () => {
    const runs: string[] = [];
    const component = {
      getSchema: () => ({
        commands: {
          charge: { idempotent: true, input: { type: "object" } },
          ship: { input: { type: "object" } },
        },
      }),
      execute: (command: string) => {
        runs.push(command);
        return { state: runs.length, events: [] };
      },
    };
    const ledger = memoryLedger();
    const scope = "chat-1/turn-1";
    // A process began both calls, then died: their leases ran out.
    for (const name of ["charge", "ship"]) {
      const key = `${scope}/${await callDigest(`c-${name}`, name, {})}`;
      await ledger.begin(key, { holder: "dead", until: Date.now() - 1 });
    }
    const tools = igniteTools(component, fakeDialect);
    const response = {
      toolCalls: [
        { id: "c-charge", name: "charge", input: {} },
        { id: "c-ship", name: "ship", input: {} },
      ],
    };
    const [charged, shipped] = await Promise.all([
      tools.handleToolCalls(response, { ledger, scope }),
      tools.handleToolCalls(response, { ledger, scope }),
    ]).then(([first]) => first);
    expect(runs).toEqual(["charge"]);
    expect(charged).toMatchObject({ ok: true });
    expect(shipped).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "interrupted" },
    });
    // Its outcome is recorded now: delivered again, it is replayed.
    const [again] = await tools.handleToolCalls(response, { ledger, scope });
    expect(again).toEqual(charged);
    expect(runs).toEqual(["charge"]);
  });

  it("runs an idempotent command whose holder dies while this call waits on it, instead of answering interrupted", async () => {
    let runs = 0;
    const component = {
      getSchema: () => ({ commands: { charge: { idempotent: true } } }),
      execute: () => ({ state: ++runs, events: [] }),
    };
    const ledger = memoryLedger();
    const scope = "chat-2/turn-1";
    const call = { id: "c1", name: "charge" };
    const key = `${scope}/${await callDigest(call.id, call.name, {})}`;
    // Live when the call arrives; its holder never renews it nor records an outcome.
    await ledger.begin(key, { holder: "dying", until: Date.now() + 300 });
    const answer = await igniteTools(component, fakeDialect).invoke(call, { ledger, scope });
    expect(answer).toEqual({ ok: true, value: { snapshot: 1, events: [] } });
    expect(runs).toBe(1);
  });

  it("answers a denied call Denied, never interrupted, when the process recording the denial died", async () => {
    const runs: string[] = [];
    const component = {
      getSchema: () => ({ commands: { ship: {}, other: {} } }),
      execute: (command: string) => {
        runs.push(command);
        return { state: runs.length, events: [] };
      },
    };
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const ledger = memoryLedger();
    const response = {
      toolCalls: [
        { id: "s1", name: "ship", input: {} },
        { id: "o1", name: "other", input: {} },
      ],
    };
    const paused = pauseToolCalls(await tools.answerToolCalls(response), {
      scope: "chat-3/turn-1",
    });
    const [ship, other] = paused.pending;
    if (!ship || !other) throw new Error("not pending");
    // A first resume began recording both denials and died: nothing of either call ran.
    for (const call of [ship, other]) {
      const key = `chat-3/turn-1/${call.digest}`;
      await ledger.begin(key, { holder: "denying:dead/1", until: Date.now() - 1 });
    }
    // Recovered: one denial again, and the other approved this time — it never ran, so it runs.
    const answers = await resumeToolCalls(
      tools,
      paused,
      [denyCall(ship, "not today"), approveCall(other)],
      { ledger },
    );
    expect(answers.map((answer) => answer.outcome)).toMatchObject([
      { ok: false, error: { kind: "Denied", reason: "not today" } },
      { ok: true },
    ]);
    expect(runs).toEqual(["other"]);
  });

  it("renews a call's lease while execute runs, and leaves no timer behind", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const renewed: number[] = [];
    const ledger = memoryLedger();
    const counting: CallLedger = {
      ...ledger,
      renew: (key, lease) => {
        renewed.push(lease.until);
        return ledger.renew(key, lease);
      },
    };
    let release: () => void = () => undefined;
    const component: AgentComponent<string> = {
      getSchema: () => ({ commands: { slow: {} } }),
      execute: () =>
        new Promise((resolve) => {
          release = () => resolve({ state: "done", events: [] });
        }),
    };
    const tools = igniteTools(component, fakeDialect);
    const answering = tools.invoke(
      { id: "s1", name: "slow", input: {} },
      {
        ledger: counting,
        scope: "chat-1/turn-1",
        leaseMs: 300,
      },
    );
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    // Every third of the lease: three renewals per lease.
    vi.advanceTimersByTime(300);
    await vi.waitFor(() => expect(renewed.length).toBeGreaterThanOrEqual(3));
    release();
    expect((await answering).ok).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    const after = renewed.length;
    vi.advanceTimersByTime(3_000);
    expect(renewed).toHaveLength(after);
    expect(Object.values(ledger.entries())).toMatchObject([{ status: "answered" }]);
  });
});

describe('a resume that meets another one running (whenElsewhere: "wait")', () => {
  /** A model whose continuation (turn 2) waits until `finish` is called: a resume still running. */
  function slowModel() {
    let finish = () => {};
    let continuing = () => {};
    const asked: number[] = [];
    const continued = new Promise<void>((resolve) => (continuing = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const model = async (request: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> => {
      asked.push(request.turn);
      continuing();
      await finished;
      return { text: "Paid.", toolCalls: [] };
    };
    return { model, asked, continued, finish: () => finish() };
  }

  it("waits for the other resume and rejects already-resumed as soon as it finished, long before its lease ran out", async () => {
    const { component, paid, stored } = await pausedRun();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
    const ledger = memoryLedger();
    const slow = slowModel();
    const resume = (whenElsewhere?: "refuse" | "wait") =>
      resumeToolLoop({
        tools,
        model: slow.model,
        state: stored.state,
        decisions: stored.pending.map(approveCall),
        ledger,
        ...(whenElsewhere ? { whenElsewhere } : {}),
      });
    const winner = resume();
    await slow.continued; // the winner holds the claim and asks the model for its continuation
    const started = Date.now();

    // Refused at once, by default, with retryAt at the end of the winner's 30 s lease.
    const refused = resume().catch((error: unknown) => error);
    await expect(refused).resolves.toMatchObject({ code: "resuming-elsewhere" });
    const { retryAt } = (await refused) as ApprovalError;
    expect(retryAt).toBeGreaterThan(started + 29_000);

    const waiting = resume("wait").catch((error: unknown) => error);
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(settled).toBe(false); // still waiting: the winner is still running
    slow.finish();
    expect((await winner).stop).toBe("done");
    const error = await waiting;
    expect(error).toBeInstanceOf(ApprovalError);
    expect(error).toMatchObject({ code: "already-resumed" });
    // One look at the ledger after the winner finished, at most 250 ms later: not 30 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(paid).toEqual([{ amount: 5 }]);
    expect(slow.asked).toEqual([2]);
  });

  it("waits for as long as the other resume renews its claim", async () => {
    const { component, paid, stored } = await pausedRun();
    const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
    const ledger = memoryLedger();
    const slow = slowModel();
    const resume = (whenElsewhere?: "wait") =>
      resumeToolLoop({
        tools,
        model: slow.model,
        state: stored.state,
        decisions: stored.pending.map(approveCall),
        ledger,
        leaseMs: 600,
        ...(whenElsewhere ? { whenElsewhere } : {}),
      });
    const winner = resume();
    await slow.continued;
    const waiting = resume("wait").catch((error: unknown) => error);
    // Two and a half of the winner's leases go by: each renewed, none taken for a crash.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    slow.finish();
    expect((await winner).stop).toBe("done");
    await expect(waiting).resolves.toMatchObject({ code: "already-resumed" });
    expect(paid).toEqual([{ amount: 5 }]);
    expect(slow.asked).toEqual([2]);
  });

  it("recovers the turn once the other resume's lease ran out: its process died", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const ledger = memoryLedger();
    // What a resume whose process died just now leaves: its claim, and its payment started.
    const claim = `${stored.state.paused.scope}/resume`;
    const payKey = `${stored.state.paused.scope}/${stored.pending[0].digest}`;
    await ledger.begin(claim, { holder: "dead", until: Date.now() + 300 });
    await ledger.begin(payKey, { holder: "dead", until: Date.now() + 300 });

    const recovered = await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
      ledger,
      whenElsewhere: "wait",
    });

    expect(recovered.stop).toBe("done");
    expect(recovered.steps[0]?.errors).toMatchObject([{ reason: "interrupted" }]);
    expect(paid).toEqual([]);
    expect(asked).toEqual([1, 2]);
  });

  it("stops waiting when its signal aborts: resuming-elsewhere, nothing run, the model not asked", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const ledger = memoryLedger();
    await ledger.begin(`${stored.state.paused.scope}/resume`, {
      holder: "other",
      until: Date.now() + 60_000,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the user left")), 50);

    const resuming = resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
      ledger,
      whenElsewhere: "wait",
      signal: controller.signal,
    });

    await expect(resuming).rejects.toMatchObject({
      name: "ApprovalError",
      code: "resuming-elsewhere",
      retryAt: expect.any(Number),
      cause: new Error("the user left"),
    });
    await expect(resuming).rejects.toThrow("the wait for it was aborted. Nothing ran");
    expect(paid).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it("waits the same way in resumeToolCalls", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = () => {};
    const started = new Promise<void>((resolve) => (running = resolve));
    const paid: unknown[] = [];
    const component: AgentComponent<{ paid: number }> = {
      getSchema: () => ({ commands: { pay: { destructive: true, input: { type: "object" } } } }),
      execute: async (_command, input) => {
        running();
        await released;
        paid.push(input);
        return { state: { paid: paid.length }, events: [] };
      },
    };
    const tools = igniteTools(component, fakeDialect, { approve: approval(askPay) });
    const ledger = memoryLedger();
    const answers = await tools.answerToolCalls({
      toolCalls: [{ id: "p1", name: "pay", input: { amount: 2 } }],
    });
    const paused = pauseToolCalls(answers);
    const decisions = paused.pending.map((call) => approveCall(call));

    const first = resumeToolCalls(tools, paused, decisions, { ledger });
    await started;
    const second = resumeToolCalls(tools, paused, decisions, { ledger, whenElsewhere: "wait" });
    setTimeout(release, 100);

    expect((await first).map((answer) => answer.outcome.ok)).toEqual([true]);
    await expect(second).rejects.toMatchObject({ code: "already-resumed" });
    expect(paid).toEqual([{ amount: 2 }]);
  });

  it("refuses a whenElsewhere that is neither refuse nor wait, before anything runs", async () => {
    const { component, paid, model, asked, stored } = await pausedRun();
    const resuming = resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(askPay) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
      whenElsewhere: "waiting" as never,
    });
    await expect(resuming).rejects.toThrow(
      new TypeError(
        'resumeToolLoop: whenElsewhere must be one of "refuse", "wait", not "waiting" (a string)',
      ),
    );
    expect(paid).toEqual([]);
    expect(asked).toEqual([1]);
  });
});

describe("the approval policy is asked once per call", () => {
  function counting() {
    const asked: string[] = [];
    const policy: ApprovalPolicy = (request) => {
      asked.push(`${request.call.id}:${request.route.command}`);
      return request.flags.destructive ? "ask" : "allow";
    };
    return { asked, policy };
  }

  it("across runToolLoop and resumeToolLoop", async () => {
    const { asked, policy } = counting();
    const { component, model, stored } = await pausedRun({ approve: policy });
    await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(policy) }),
      model,
      state: stored.state,
      decisions: stored.pending.map(approveCall),
    });
    expect(asked).toEqual(["call_0:balance", "call_1:pay"]);
  });

  it("across answerToolCalls and resumeToolCalls, with a ledger", async () => {
    const { asked, policy } = counting();
    const { component, paid } = account();
    const tools = igniteTools(component, fakeDialect, { approve: approval(policy) });
    const ledger = memoryLedger();
    const answers = await tools.answerToolCalls(
      { toolCalls: [{ id: "p1", name: "pay", input: { amount: 2 } }] },
      { ledger },
    );
    const paused = pauseToolCalls(answers);
    await resumeToolCalls(
      tools,
      paused,
      paused.pending.map((call) => approveCall(call)),
      {
        ledger,
      },
    );
    expect(asked).toEqual(["p1:pay"]);
    expect(paid).toHaveLength(1);
  });
});
