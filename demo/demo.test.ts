import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ModelRequest } from "ignite-element/tools";
import {
  type AnthropicMessage,
  type AnthropicTool,
  anthropic,
} from "ignite-element/tools/anthropic";
import { describe, expect, it } from "vitest";
import { anthropicModel, anthropicText, ModelError } from "./models.js";
import { shouldColor } from "./print.js";
import { createRoom } from "./room.js";
import { defineDemo, pickDemo, SYSTEM_PROMPT, scriptedDemo } from "./run.js";
import { scriptedModel } from "./scripted.js";

const ESC = "\u001b";
const SGR = new RegExp(`${ESC}\\[\\d+m`, "g");

interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

interface Reply {
  status: number;
  body: unknown;
}

/** A local HTTP server on 127.0.0.1 that answers each request with the next reply. */
async function serve(replies: Reply[]) {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    request.on("end", () => {
      requests.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(text) });
      const reply = replies[Math.min(requests.length, replies.length) - 1];
      response.writeHead(reply?.status ?? 500, { "content-type": "application/json" });
      response.end(JSON.stringify(reply?.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that accepts requests and never answers them. */
async function hang() {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: one the system just gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function capture() {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line), text: () => lines.join("\n") };
}

const lastMessage = (request: Recorded | undefined) => {
  const messages = request?.body.messages;
  return Array.isArray(messages) ? messages.at(-1) : undefined;
};

describe("the scripted demo", () => {
  it("fixes the brightness it got wrong, is refused the boost while heating is off, and ends cosy", async () => {
    const out = capture();
    const outcome = await scriptedDemo().run({ write: out.write, color: false });

    const calls = outcome.turns.flatMap((turn) => turn.calls);
    const [tooBright, , fixed] = calls;
    expect(tooBright?.error?.kind).toBe("InvalidInput");
    expect(tooBright?.error?.kind === "InvalidInput" && tooBright.error.issues).toEqual([
      { path: "/brightness", message: "must be <= 100", keyword: "maximum" },
    ]);
    expect(fixed?.route).toEqual({
      command: "setLights",
      input: { brightness: 30, colour: "warm" },
    });

    const boosts = calls.filter((call) => call.name === "boost");
    expect(boosts.map((call) => call.error?.kind ?? "ok")).toEqual(["Unavailable", "ok"]);
    // The second boost sent no minutes: its route shows the schema's default applied.
    expect(boosts[1]?.route).toEqual({ command: "boost", input: { minutes: 30 } });

    expect(outcome.stop).toBe("done");
    expect(outcome.state).toEqual({
      lights: { brightness: 30, colour: "warm" },
      thermostat: { mode: "heat", target: 21.5, temperature: 21.5, boostMinutes: 30 },
      door: "locked",
    });
  });

  it("waits for the boost to warm the room, and reads the wait's answer", async () => {
    const outcome = await scriptedDemo().run({ write: () => {}, color: false });
    const waits = outcome.turns
      .flatMap((turn) => turn.calls)
      .filter((call) => call.name === "waitFor");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({
      input: { event: "warmedUp" },
      waited: 'The event "warmedUp" happened.',
      events: [{ type: "warmedUp", payload: { celsius: 21.5 } }],
    });
    // The turn after the wait says what the answer said: the temperature the room reached.
    const after = outcome.turns.find((turn) => turn.turn === 7);
    expect(after?.text).toMatch(/^The room has warmed up to 21\.5 °C\./);
  });

  it("is told once, with the request after the wait, that someone unlocked the door, and locks it again", async () => {
    const outcome = await scriptedDemo().run({ write: () => {}, color: false });
    const told = outcome.turns.filter((turn) => turn.told !== undefined);
    expect(told.map((turn) => turn.turn)).toEqual([7]);
    const note = told[0]?.told ?? "";
    expect(note).toContain('{"type":"doorUnlocked"}');
    expect(note).toContain("Now available: lockDoor");
    // The wait already answered with the warm-up: the note does not tell it again.
    expect(note).not.toContain("warmedUp");
    expect(told[0]?.calls.map((call) => call.route)).toEqual([{ command: "lockDoor", input: {} }]);
    expect(
      outcome.turns.flatMap((turn) => turn.calls).filter((c) => c.name === "lockDoor"),
    ).toHaveLength(2);
    expect(outcome.state.door).toBe("locked");
  });

  it("sends the note as a text block after the wait's result, in the user message the model reads", async () => {
    const sent: AnthropicMessage[][] = [];
    const script = scriptedModel();
    const demo = defineDemo({
      label: "recorded",
      modelName: "scripted",
      scripted: true,
      dialect: anthropic,
      model: (request: ModelRequest<AnthropicTool[], AnthropicMessage>) => {
        sent.push(structuredClone(request.messages));
        return script(request);
      },
      messages: (prompt): AnthropicMessage[] => [{ role: "user", content: prompt }],
      textOf: anthropicText,
    });
    const outcome = await demo.run({ write: () => {}, color: false });
    const last = sent[6]?.at(-1);
    expect(last?.role).toBe("user");
    const content = Array.isArray(last?.content) ? last.content : [];
    expect(content.map((block) => block.type)).toEqual(["tool_result", "text"]);
    const [result, note] = content;
    expect(result?.type === "tool_result" && JSON.parse(String(result.content))).toMatchObject({
      waited: 'The event "warmedUp" happened.',
      available: expect.arrayContaining(["lockDoor"]),
    });
    expect(note).toEqual({ type: "text", text: outcome.turns[6]?.told });
  });

  it("acts on the note, not on the script: with nobody coming home it is told nothing and locks the door once", async () => {
    const room = createRoom({ homecomingMs: null });
    const outcome = await scriptedDemo().run({ write: () => {}, color: false, room });
    expect(outcome.turns.some((turn) => turn.told !== undefined)).toBe(false);
    const calls = outcome.turns.flatMap((turn) => turn.calls).map((call) => call.name);
    expect(calls.filter((name) => name === "lockDoor")).toHaveLength(1);
    expect(outcome.turns.at(-1)?.calls).toEqual([]);
    expect(outcome.state.door).toBe("locked");
    expect(outcome.state.thermostat.temperature).toBe(21.5);
  });

  it("asks before the destructive setMode runs, and approves it automatically, saying so, without a terminal", async () => {
    const out = capture();
    const outcome = await scriptedDemo().run({ write: out.write, color: false });
    expect(out.text()).toContain(
      'approval setMode {"mode":"heat"} [destructive] — approved (automatically: no terminal to ask on)',
    );
    const setMode = outcome.turns
      .flatMap((turn) => turn.calls)
      .find((call) => call.name === "setMode");
    expect(setMode?.route).toEqual({ command: "setMode", input: { mode: "heat" } });
  });

  it("runs nothing the person refuses, and the model reads the denial", async () => {
    const out = capture();
    const asked: string[] = [];
    const outcome = await scriptedDemo().run({
      write: out.write,
      color: false,
      ask: async (call) => {
        asked.push(call.command);
        return false;
      },
    });
    expect(asked).toEqual(["setMode"]);
    expect(out.text()).toContain('approval setMode {"mode":"heat"} [destructive] — denied');
    const setMode = outcome.turns
      .flatMap((turn) => turn.calls)
      .find((call) => call.name === "setMode");
    expect(setMode?.error?.kind).toBe("Denied");
    expect(outcome.state.thermostat.mode).toBe("off");
    // With no boost running there is nothing to wait for, and it does not wait.
    const names = outcome.turns.flatMap((turn) => turn.calls).map((call) => call.name);
    expect(names).not.toContain("waitFor");
    expect(outcome.stop).toBe("done");
  });

  it("offers boost only once the heating is on", async () => {
    const out = capture();
    await scriptedDemo().run({ write: out.write, color: false });
    const offered = out.lines.filter((line) => line.startsWith("turn "));
    expect(offered[2]).not.toContain("boost");
    expect(offered[4]).toContain("boost");
  });

  it("says it is scripted and prints each call, error, event, wait, note and the final state", async () => {
    const out = capture();
    await scriptedDemo().run({ write: out.write, color: false, prompt: "ignored" });
    const text = out.text();
    expect(text).toContain("(scripted — no model is called)");
    expect(text).toContain("the scripted model ignores your prompt");
    expect(text).toContain("✗ InvalidInput");
    expect(text).toContain("issue /brightness must be <= 100");
    expect(text).toContain("✗ Unavailable");
    expect(text).toContain('✓ route setTarget {"celsius":21.5}');
    expect(text).toContain('event targetChanged {"from":19,"to":21.5}');
    expect(text).toContain(
      'call waitFor {"event":"warmedUp"}\n    ✓ waited The event "warmedUp" happened.',
    );
    expect(text).toContain(
      'told Since your last request, this changed outside your own tool calls:\n    Events, oldest first:\n    - {"type":"doorUnlocked"}',
    );
    expect(text).toContain("thermostat  heat, target 21.5 °C, boost 30 min, room at 21.5 °C");
  });
});

describe("docs/demo.md", () => {
  it("shows the scripted run as it prints", async () => {
    const out = capture();
    await scriptedDemo().run({ write: out.write, color: false });
    const shown = /This is a real scripted run[^\n]*\n\n```text\n([\s\S]*?)```/.exec(
      readFileSync(fileURLToPath(new URL("../docs/demo.md", import.meta.url)), "utf8"),
    );
    expect(shown?.[1]).toBe(`${out.text()}\n`);
  });
});

describe("colour", () => {
  it("is used only on a terminal, and never when NO_COLOR is set", () => {
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({}, {})).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
  });

  it("leaves no ANSI codes in the output when it is off, and paints it when it is on", async () => {
    const plain = capture();
    await scriptedDemo().run({ write: plain.write, color: false });
    expect(plain.text()).not.toContain(ESC);

    const painted = capture();
    await scriptedDemo().run({ write: painted.write, color: true });
    expect(painted.text()).toContain(`${ESC}[`);
    expect(painted.text().replace(SGR, "")).toBe(plain.text());
  });
});

describe("a real model over fetch", () => {
  it("talks to the Anthropic Messages API with the key, the tools and the results", async () => {
    const server = await serve([
      {
        status: 200,
        body: {
          content: [
            { type: "text", text: "Dimming." },
            { type: "tool_use", id: "toolu_1", name: "setLights", input: { brightness: 40 } },
          ],
          stop_reason: "tool_use",
        },
      },
      {
        status: 200,
        body: { content: [{ type: "text", text: "Done." }], stop_reason: "end_turn" },
      },
    ]);
    try {
      const demo = pickDemo({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
      const out = capture();
      const outcome = await demo.run({ prompt: "Dim to 40", write: out.write, color: false });

      expect(outcome.state.lights.brightness).toBe(40);
      expect(outcome.stop).toBe("done");
      const [first, second] = server.requests;
      expect(first?.path).toBe("/v1/messages");
      expect(first?.headers["x-api-key"]).toBe("test-key");
      expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
      expect(first?.body).toMatchObject({
        model: "claude-sonnet-4-5",
        system: SYSTEM_PROMPT,
        messages: [{ role: "user", content: "Dim to 40" }],
      });
      const tools = first?.body.tools as { name: string }[];
      expect(tools.map((tool) => tool.name)).toContain("setLights");
      expect(lastMessage(second)).toEqual({
        role: "user",
        content: [expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1" })],
      });
      expect(out.text()).toContain("model  Anthropic claude-sonnet-4-5");
      expect(out.text()).toContain("assistant: Done.");
    } finally {
      await server.close();
    }
  });

  it("talks to an OpenAI-compatible server, sending the key only when there is one", async () => {
    const toolCall = {
      id: "call_1",
      type: "function",
      function: { name: "setMode", arguments: '{"mode":"heat"}' },
    };
    const server = await serve([
      {
        status: 200,
        body: { choices: [{ message: { role: "assistant", tool_calls: [toolCall] } }] },
      },
      {
        status: 200,
        body: { choices: [{ message: { role: "assistant", content: "Warm now." } }] },
      },
    ]);
    try {
      const demo = pickDemo({ OPENAI_BASE_URL: `${server.url}/v1/`, OPENAI_MODEL: "local-model" });
      const outcome = await demo.run({ prompt: "Heat, please", write: () => {}, color: false });

      expect(outcome.state.thermostat.mode).toBe("heat");
      const [first, second] = server.requests;
      expect(first?.path).toBe("/v1/chat/completions");
      expect(first?.headers.authorization).toBeUndefined();
      expect(first?.body).toMatchObject({
        model: "local-model",
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: "Heat, please" },
        ],
      });
      expect(lastMessage(second)).toMatchObject({ role: "tool", tool_call_id: "call_1" });

      const keyed = pickDemo({
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_MODEL: "local-model",
        OPENAI_API_KEY: "sk-local",
      });
      await keyed.run({ write: () => {}, color: false });
      expect(server.requests[2]?.headers.authorization).toBe("Bearer sk-local");
    } finally {
      await server.close();
    }
  });

  it("reports a rejected Anthropic key in one line", async () => {
    const server = await serve([
      {
        status: 401,
        body: {
          type: "error",
          error: { type: "authentication_error", message: "invalid x-api-key" },
        },
      },
    ]);
    try {
      const demo = pickDemo({ ANTHROPIC_API_KEY: "wrong", ANTHROPIC_BASE_URL: server.url });
      const run = demo.run({ write: () => {}, color: false });
      await expect(run).rejects.toBeInstanceOf(ModelError);
      await expect(run).rejects.toThrow(
        /^Anthropic rejected the API key \(401\) — check ANTHROPIC_API_KEY: invalid x-api-key$/,
      );
    } finally {
      await server.close();
    }
  });

  it("reports a rejected OpenAI-compatible key in one line, naming the server", async () => {
    const server = await serve([
      { status: 401, body: { error: { message: "Incorrect API key\nprovided." } } },
    ]);
    try {
      const demo = pickDemo({
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_MODEL: "m",
        OPENAI_API_KEY: "bad",
      });
      await expect(demo.run({ write: () => {}, color: false })).rejects.toThrow(
        `${server.url}/v1/chat/completions rejected the API key (401) — check OPENAI_API_KEY: Incorrect API key provided.`,
      );
    } finally {
      await server.close();
    }
  });

  it("reports another refusal with the server's own reason", async () => {
    const server = await serve([{ status: 404, body: { error: "model 'nope' not found" } }]);
    try {
      const demo = pickDemo({ OPENAI_BASE_URL: server.url, OPENAI_MODEL: "nope" });
      await expect(demo.run({ write: () => {}, color: false })).rejects.toThrow(
        `${server.url}/chat/completions answered 404 Not Found: model 'nope' not found`,
      );
    } finally {
      await server.close();
    }
  });

  it("reports a server that is not running in one line", async () => {
    const port = await closedPort();
    const demo = pickDemo({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: "m" });
    await expect(demo.run({ write: () => {}, color: false })).rejects.toThrow(
      `Cannot reach http://127.0.0.1:${port}/v1/chat/completions (ECONNREFUSED) — is the server running?`,
    );
  });
});

describe("a model that does not answer", () => {
  it("fails in one line once the timeout has passed", async () => {
    const server = await hang();
    try {
      const model = anthropicModel({ apiKey: "k", baseUrl: server.url, timeoutMs: 100 });
      await expect(
        model({ tools: [], messages: [], signal: new AbortController().signal, turn: 1 }),
      ).rejects.toThrow(new ModelError("Anthropic did not answer within 0.1 s"));
    } finally {
      await server.close();
    }
  });

  it("is abandoned when the run is aborted, and the room is reported as it is", async () => {
    const server = await hang();
    try {
      const controller = new AbortController();
      const demo = pickDemo({ OPENAI_BASE_URL: server.url, OPENAI_MODEL: "m" });
      const out = capture();
      const running = demo.run({ write: out.write, color: false, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      const outcome = await running;
      expect(outcome.stop).toBe("aborted");
      expect(outcome.state.door).toBe("unlocked");
      expect(out.text()).toContain("final state  (aborted;");
    } finally {
      await server.close();
    }
  });
});

describe("choosing the model", () => {
  it("falls back to the scripted model when no endpoint is configured", () => {
    expect(pickDemo({}).scripted).toBe(true);
    expect(pickDemo({ ANTHROPIC_API_KEY: " ", OPENAI_BASE_URL: "" }).scripted).toBe(true);
  });

  it("prefers Anthropic when both are configured", () => {
    const demo = pickDemo({
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_MODEL: "claude-opus-4-1",
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_MODEL: "m",
    });
    expect(demo.label).toBe("Anthropic claude-opus-4-1");
  });

  it("refuses an OpenAI-compatible server without a model, or with a URL that is not one", () => {
    expect(() => pickDemo({ OPENAI_BASE_URL: "http://localhost:11434/v1" })).toThrow(
      /^OPENAI_MODEL is not set/,
    );
    expect(() => pickDemo({ OPENAI_BASE_URL: "localhost:11434", OPENAI_MODEL: "m" })).toThrow(
      'OPENAI_BASE_URL is not an http(s) URL: "localhost:11434"',
    );
  });
});

describe("npm run demo", () => {
  const run = promisify(execFile);
  const root = fileURLToPath(new URL("..", import.meta.url));
  const tsx = fileURLToPath(new URL("../node_modules/tsx/dist/cli.mjs", import.meta.url));
  // The child must not pick up a key or server from the machine running the tests.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith("ANTHROPIC_") && !name.startsWith("OPENAI_"),
    ),
  );

  it("runs the scripted conversation and exits 0, in plain text when piped", async () => {
    const { stdout } = await run(process.execPath, [tsx, "demo/main.ts"], { cwd: root, env });
    expect(stdout).toContain("(scripted — no model is called)");
    expect(stdout).toContain("door        locked");
    expect(stdout).not.toContain(ESC);
  }, 30_000);

  it("prints only the one-line error and exits 1 when the server cannot be reached", async () => {
    const port = await closedPort();
    const failing = { ...env, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: "m" };
    const child = run(process.execPath, [tsx, "demo/main.ts", "Lights", "off"], {
      cwd: root,
      env: failing,
    });
    await expect(child).rejects.toMatchObject({
      code: 1,
      stderr: `Cannot reach http://127.0.0.1:${port}/v1/chat/completions (ECONNREFUSED) — is the server running?\n`,
    });
  }, 30_000);
});
