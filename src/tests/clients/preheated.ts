/**
 * What the client tests' oven run (../shell/oven.ts, with `tellChanges`) expects the model to be
 * sent: the oven reports it is preheated while the model thinks, after its call to preheat.
 */

/** What the model is told when the oven reports it is preheated while the model thinks. */
export const PREHEATED_NOTE = [
  "Since your last request, this changed outside your own tool calls:",
  "Events, oldest first:",
  '- {"type":"preheated"}',
  'State now: {"temperature":180,"preheated":true,"door":"closed"}',
  "Now available: bake",
].join("\n");

/** The result of the model's call to preheat to 180, sent back beside that note. */
export const PREHEATED_RESULT =
  '{"snapshot":{"temperature":180,"preheated":true,"door":"closed"},"events":[]}';
