/**
 * The events of one MCP session over Streamable HTTP, kept so that a client whose SSE stream
 * dropped can resume it (`Last-Event-ID`) and still receive what was sent meanwhile: the SDK's
 * `EventStore`, in memory, bounded, and released with the session.
 */

/** Events kept per session: older ones are forgotten, and a resume from them is refused. */
export const STORED_EVENTS = 128;

/** One session's stored events. `M` is the SDK's `JSONRPCMessage`. */
export interface SessionEvents<M> {
  storeEvent(streamId: string, message: M): Promise<string>;
  getStreamIdForEventId(eventId: string): Promise<string | undefined>;
  replayEventsAfter(
    lastEventId: string,
    options: { send: (eventId: string, message: M) => Promise<void> },
  ): Promise<string>;
}

/**
 * A bounded in-memory event store for one session. Event ids are the session's own sequence
 * numbers (the SDK asks only that they be unique within it); the stream an id belongs to is looked
 * up rather than encoded in it. An id that was forgotten, or never given, has no stream, which the
 * SDK answers `400` — the client then knows it cannot resume.
 */
export function sessionEvents<M>(limit = STORED_EVENTS): SessionEvents<M> {
  // Insertion order is the order the events were sent.
  const events = new Map<string, { readonly streamId: string; readonly message: M }>();
  let next = 0;
  return {
    async storeEvent(streamId, message) {
      next += 1;
      const id = String(next);
      events.set(id, { streamId, message });
      if (events.size > limit) {
        const [oldest] = events.keys();
        if (oldest !== undefined) events.delete(oldest);
      }
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (last === undefined) return "";
      let after = false;
      for (const [id, { streamId, message }] of events) {
        if (after && streamId === last.streamId) await send(id, message);
        if (id === lastEventId) after = true;
      }
      return last.streamId;
    },
  };
}
