/**
 * A media player as an XState v5 machine, and the events an agent may send it.
 *
 * idle ──load──► loaded.paused ◄──pause── loaded.playing
 *   ▲                   │  └─────────play──────────►  │
 *   └─────────stop──────┴────────────stop─────────────┘
 *
 * `setVolume` is accepted in every state; `seek` only with a track, and only within it.
 */
import type { EventCommands } from "ignite-element/tools/xstate";
import { assign, emit, setup } from "xstate";

/** A loaded track. */
export interface Track {
  title: string;
  /** Length in whole seconds. */
  duration: number;
}

export interface PlayerContext {
  track: Track | null;
  /** Seconds into the track. */
  position: number;
  /** 0–100. */
  volume: number;
}

export type PlayerEvent =
  | { type: "load"; title: string; duration: number }
  | { type: "play" }
  | { type: "pause" }
  | { type: "stop" }
  | { type: "seek"; seconds: number }
  | { type: "setVolume"; level: number };

/** What the player tells its listeners (and, through the bridge, the model). */
export type PlayerEmitted =
  | { type: "trackLoaded"; title: string; duration: number }
  | { type: "started"; title: string; position: number }
  | { type: "paused"; position: number }
  | { type: "stopped" }
  | { type: "seeked"; position: number }
  | { type: "volumeChanged"; volume: number };

export const playerMachine = setup({
  // XState's documented way to declare types: the objects are never read at runtime.
  types: {
    context: {} as PlayerContext,
    events: {} as PlayerEvent,
    emitted: {} as PlayerEmitted,
  },
  guards: {
    // Reads the payload, so whether `seek` is taken is known only with the position: it is
    // offered while a track is loaded and a position past the end is refused when it is sent.
    withinTrack: ({ context, event }) =>
      event.type === "seek" && context.track !== null && event.seconds <= context.track.duration,
  },
}).createMachine({
  id: "player",
  initial: "idle",
  context: { track: null, position: 0, volume: 50 },
  on: {
    setVolume: {
      actions: [
        assign({ volume: ({ event }) => event.level }),
        emit(({ event }) => ({ type: "volumeChanged" as const, volume: event.level })),
      ],
    },
  },
  states: {
    idle: {
      on: {
        load: {
          target: "loaded",
          actions: [
            assign({
              track: ({ event }) => ({ title: event.title, duration: event.duration }),
              position: 0,
            }),
            emit(({ event }) => ({
              type: "trackLoaded" as const,
              title: event.title,
              duration: event.duration,
            })),
          ],
        },
      },
    },
    loaded: {
      initial: "paused",
      on: {
        seek: {
          guard: "withinTrack",
          actions: [
            assign({ position: ({ event }) => event.seconds }),
            emit(({ event }) => ({ type: "seeked" as const, position: event.seconds })),
          ],
        },
        stop: {
          target: "idle",
          actions: [assign({ track: null, position: 0 }), emit({ type: "stopped" as const })],
        },
      },
      states: {
        paused: {
          on: {
            play: {
              target: "playing",
              actions: emit(({ context }) => ({
                type: "started" as const,
                title: context.track?.title ?? "",
                position: context.position,
              })),
            },
          },
        },
        // Playback itself (the position advancing) is outside this example: no timers.
        playing: {
          on: {
            pause: {
              target: "paused",
              actions: emit(({ context }) => ({
                type: "paused" as const,
                position: context.position,
              })),
            },
          },
        },
      },
    },
  },
});

/**
 * The player's events as commands. Each is offered only while the current state takes it, which
 * the machine itself decides: `play` only when paused, `seek` only with a track loaded.
 */
export const playerCommands: EventCommands<PlayerEvent> = {
  load: {
    description: "Load a track; the player must be idle (stop first).",
    input: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: 120 },
        duration: { type: "integer", minimum: 1, description: "Length in seconds." },
      },
      required: ["title", "duration"],
      additionalProperties: false,
    },
  },
  play: { description: "Start playing the loaded track." },
  pause: { description: "Pause playback." },
  stop: { description: "Stop and unload the track." },
  seek: {
    description: "Move to a position in the loaded track, in seconds from its start.",
    input: {
      type: "object",
      properties: { seconds: { type: "integer", minimum: 0 } },
      required: ["seconds"],
      additionalProperties: false,
    },
  },
  setVolume: {
    description: "Set the volume, 0 (mute) to 100.",
    idempotent: true,
    input: {
      type: "object",
      properties: { level: { type: "integer", minimum: 0, maximum: 100 } },
      required: ["level"],
      additionalProperties: false,
    },
  },
};
