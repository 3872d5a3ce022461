import { describe, expect, it } from "vitest";
import {
  type AgentComponent,
  approval,
  approveCall,
  type ExecuteContext,
  fakeDialect,
  igniteTools,
  type LogEntry,
  type NeutralToolCall,
  type ProgressUpdate,
  resumeToolLoop,
  runToolLoop,
  scriptedModel,
} from "../../tools/index.js";

/** A promise with its resolver outside, for execute calls the test releases by hand. */
function gate<T = void>() {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * A download the model can start: it reports each chunk as progress and logs as it goes, and it
 * keeps the context it was given so a test can use it after the call was answered.
 */
function downloader(chunks = 3) {
  const contexts: Array<ExecuteContext | undefined> = [];
  const component: AgentComponent<{ done: number }> = {
    getSchema: () => ({ commands: { download: { description: "Fetch the file." } } }),
    async execute(_command, _input, context) {
      contexts.push(context);
      context?.log("info", "starting");
      for (let done = 1; done <= chunks; done++) {
        await Promise.resolve();
        context?.progress({ progress: done, total: chunks, message: `chunk ${done}` });
      }
      context?.log("debug", "finished", { bytes: 3 * 1024 });
      return { state: { done: chunks }, events: [] };
    },
  };
  return { component, contexts };
}

describe("the execute context: progress and logs", () => {
  it("hands each progress update and log line to the call's listeners, with the call, in order", async () => {
    const { component } = downloader();
    const heard: Array<[string, ProgressUpdate | LogEntry, NeutralToolCall]> = [];
    const result = await igniteTools(component).invoke(
      { id: "call-1", name: "download", input: {} },
      {
        onProgress: (update, call) => heard.push(["progress", update, call]),
        onLog: (entry, call) => heard.push(["log", entry, call]),
      },
    );

    expect(result.ok).toBe(true);
    const call = { id: "call-1", name: "download", input: {} };
    expect(heard).toEqual([
      ["log", { level: "info", message: "starting" }, call],
      ["progress", { progress: 1, total: 3, message: "chunk 1" }, call],
      ["progress", { progress: 2, total: 3, message: "chunk 2" }, call],
      ["progress", { progress: 3, total: 3, message: "chunk 3" }, call],
      ["log", { level: "debug", message: "finished", data: { bytes: 3072 } }, call],
    ]);
  });

  it("makes progress and log no-ops once the call has been answered, never a throw", async () => {
    const { component, contexts } = downloader(1);
    const heard: unknown[] = [];
    await igniteTools(component).invoke(
      { name: "download", input: {} },
      { onProgress: (update) => heard.push(update), onLog: (entry) => heard.push(entry) },
    );
    const [context] = contexts;
    heard.length = 0;

    expect(() => context?.progress({ progress: 9 })).not.toThrow();
    expect(() => context?.log("error", "too late")).not.toThrow();
    expect(heard).toEqual([]);
  });

  it("goes quiet when a call times out, though its command is still running", async () => {
    const release = gate();
    let context: ExecuteContext | undefined;
    const slow: AgentComponent<string> = {
      getSchema: () => ({ commands: { wait: {} } }),
      async execute(_command, _input, given) {
        context = given;
        await release.promise;
        given?.progress({ progress: 1 });
        return { state: "late", events: [] };
      },
    };
    const heard: ProgressUpdate[] = [];
    const tools = igniteTools(slow, undefined, { timeoutMs: 5 });

    const result = await tools.invoke(
      { name: "wait", input: {} },
      { onProgress: (update) => heard.push(update) },
    );
    release.open();
    await Promise.resolve();

    expect(result).toMatchObject({ ok: false, error: { reason: "timeout" } });
    expect(context?.signal.aborted).toBe(true);
    expect(heard).toEqual([]);
  });

  it("isolates a listener that throws: the command runs on and the other listener still hears", async () => {
    const { component } = downloader(2);
    const logs: string[] = [];
    const result = await igniteTools(component).invoke(
      { name: "download", input: {} },
      {
        onProgress: () => {
          throw new Error("the progress bar broke");
        },
        onLog: (entry) => logs.push(entry.message),
      },
    );

    expect(result).toMatchObject({ ok: true, value: { snapshot: { done: 2 } } });
    expect(logs).toEqual(["starting", "finished"]);
  });

  it("passes on only what is a progress update or a log line: plain data, known levels", async () => {
    const noisy: AgentComponent<null> = {
      getSchema: () => ({ commands: { go: {} } }),
      execute(_command, _input, context) {
        const loose = context as unknown as {
          progress(update: unknown): void;
          log(level: unknown, message: unknown): void;
        };
        loose.progress({ progress: Number.NaN });
        loose.progress("half");
        loose.progress({ progress: 0.5, total: "all", message: 7, extra: true });
        loose.log("verbose", "not a level");
        loose.log("warning", "careful");
        return { state: null, events: [] };
      },
    };
    const heard: unknown[] = [];
    await igniteTools(noisy).invoke(
      { name: "go", input: {} },
      { onProgress: (update) => heard.push(update), onLog: (entry) => heard.push(entry) },
    );

    expect(heard).toEqual([{ progress: 0.5 }, { level: "warning", message: "careful" }]);
  });

  it("keeps progress and log working when the command takes them apart", async () => {
    const detached: AgentComponent<null> = {
      getSchema: () => ({ commands: { go: {} } }),
      execute(_command, _input, context) {
        const { progress, log } = context as ExecuteContext;
        progress({ progress: 1 });
        log("notice", "detached");
        return { state: null, events: [] };
      },
    };
    const heard: unknown[] = [];
    await igniteTools(detached).invoke(
      { name: "go", input: {} },
      { onProgress: (update) => heard.push(update), onLog: (entry) => heard.push(entry) },
    );

    expect(heard).toEqual([{ progress: 1 }, { level: "notice", message: "detached" }]);
  });
});

describe("the execute context: the signal", () => {
  it("aborts the command's signal, with the caller's reason, when the caller aborts a running call", async () => {
    const started = gate();
    let signal: AbortSignal | undefined;
    const stuck: AgentComponent<string> = {
      getSchema: () => ({ commands: { hang: {} } }),
      execute(_command, _input, context) {
        signal = context?.signal;
        started.open();
        return new Promise(() => undefined);
      },
    };
    const controller = new AbortController();
    const answered = igniteTools(stuck).invoke(
      { name: "hang", input: {} },
      { signal: controller.signal },
    );
    await started.promise;
    expect(signal?.aborted).toBe(false);

    controller.abort("the user gave up");

    expect(await answered).toMatchObject({ ok: false, error: { reason: "aborted" } });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe("the user gave up");
  });

  it("aborts with a TimeoutError when the call times out", async () => {
    let signal: AbortSignal | undefined;
    const stuck: AgentComponent<string> = {
      getSchema: () => ({ commands: { hang: {} } }),
      execute(_command, _input, context) {
        signal = context?.signal;
        return new Promise(() => undefined);
      },
    };
    await igniteTools(stuck, undefined, { timeoutMs: 1 }).invoke({ name: "hang", input: {} });

    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("gives a signal that the command can pass to anything that takes an AbortSignal", async () => {
    let seen: unknown;
    const fetching: AgentComponent<string> = {
      getSchema: () => ({ commands: { fetch: {} } }),
      execute(_command, _input, context) {
        seen = context?.signal;
        return { state: "ok", events: [] };
      },
    };
    // No signal, no timeout, no listener: the shared context, whose signal never aborts.
    await igniteTools(fetching).invoke({ name: "fetch", input: {} });

    expect(seen).toBeInstanceOf(AbortSignal);
    expect((seen as AbortSignal).aborted).toBe(false);
  });

  it("leaves a command that ignores the context working exactly as before", async () => {
    const received: unknown[][] = [];
    const plain: AgentComponent<number> = {
      getSchema: () => ({ commands: { add: { input: { type: "integer" } } } }),
      execute(command: string, input?: unknown) {
        received.push([command, input]);
        return { state: Number(input) + 1, events: [] };
      },
    };
    const controller = new AbortController();
    const result = await igniteTools(plain, undefined, { timeoutMs: 1_000 }).invoke(
      { name: "add", input: 41 },
      { signal: controller.signal, onProgress: () => undefined },
    );

    expect(result).toMatchObject({ ok: true, value: { snapshot: 42 } });
    expect(received).toEqual([["add", 41]]);
  });
});

describe("the execute context in runToolLoop", () => {
  it("hands the calls' progress and log lines to onProgress and onLog", async () => {
    const { component } = downloader(2);
    const heard: string[] = [];
    const result = await runToolLoop({
      tools: igniteTools(component, fakeDialect),
      model: scriptedModel([[{ id: "t1", name: "download", input: {} }]]).model,
      messages: [],
      onProgress: (update, call) => heard.push(`${call.id} ${update.progress}/${update.total}`),
      onLog: (entry, call) => heard.push(`${call.id} ${entry.level} ${entry.message}`),
    });

    expect(result.stop).toBe("done");
    expect(heard).toEqual(["t1 info starting", "t1 1/2", "t1 2/2", "t1 debug finished"]);
  });
});

describe("the execute context in resumeToolLoop", () => {
  it("hands onProgress and onLog the approved call's reports and those of the turns after it", async () => {
    const { component } = downloader(1);
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const { model } = scriptedModel([
      [{ id: "held", name: "download", input: {} }],
      [{ id: "later", name: "download", input: {} }],
    ]);
    const paused = await runToolLoop({ tools, model, messages: [] });
    if (paused.stop !== "approval") throw new Error(`not paused: ${paused.stop}`);

    const heard: string[] = [];
    const resumed = await resumeToolLoop({
      tools: igniteTools(component, fakeDialect, { approve: approval(() => "allow") }),
      model,
      state: paused.state,
      decisions: paused.pending.map((call) => approveCall(call)),
      onProgress: (update, call) => heard.push(`${call.id} ${update.progress}/${update.total}`),
      onLog: (entry, call) => heard.push(`${call.id} ${entry.level} ${entry.message}`),
    });

    expect(resumed.stop).toBe("done");
    expect(heard).toEqual([
      "held info starting",
      "held 1/1",
      "held debug finished",
      "later info starting",
      "later 1/1",
      "later debug finished",
    ]);
  });
});
