import { describe, expect, it } from "vitest";
import { sessionEvents } from "../../tools/hosts/mcp/event-store.js";

/** The events replayed after `lastEventId`, and the stream they belong to. */
async function replay(store: ReturnType<typeof sessionEvents<string>>, lastEventId: string) {
  const sent: [string, string][] = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { stream, sent };
}

describe("a session's stored events", () => {
  it("replays, after the last event a client saw, the later events of that stream only, in order", async () => {
    const store = sessionEvents<string>();
    const primed = await store.storeEvent("call-1", "priming");
    await store.storeEvent("GET", "list_changed");
    const progress = await store.storeEvent("call-1", "progress");
    const result = await store.storeEvent("call-1", "result");

    expect(await replay(store, primed)).toEqual({
      stream: "call-1",
      sent: [
        [progress, "progress"],
        [result, "result"],
      ],
    });
    expect(await store.getStreamIdForEventId(progress)).toBe("call-1");
  });

  it("forgets the oldest events beyond its limit, so a resume from one of them is refused", async () => {
    const store = sessionEvents<string>(2);
    const first = await store.storeEvent("call-1", "priming");
    const second = await store.storeEvent("call-1", "progress");
    const third = await store.storeEvent("call-1", "result");

    // No stream for a forgotten id: the SDK answers the resume 400, and the client knows.
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    expect(await replay(store, first)).toEqual({ stream: "", sent: [] });
    expect(await replay(store, second)).toEqual({ stream: "call-1", sent: [[third, "result"]] });
  });
});
