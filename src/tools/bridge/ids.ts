/**
 * Ids the shell makes: a run's id (the scope of its keys in a ledger) and a lease holder's.
 * `crypto.randomUUID` exists in Node 20, browsers (secure contexts) and workers alike.
 */

// Declared rather than taken from a platform's type library (DOM or Node): only this is used.
declare const crypto: { randomUUID(): string };

/** A new random id (a UUID v4). */
export function newId(): string {
  return crypto.randomUUID();
}

let processId: string | undefined;
let held = 0;

/**
 * A new lease holder: this process's (or page's) id and a count, so every claim this process
 * makes has its own holder — a second claim of the same key in the same process is someone else.
 */
export function newHolder(): string {
  processId ??= newId();
  held += 1;
  return `${processId}/${held}`;
}
