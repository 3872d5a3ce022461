/**
 * Which invoke options carry a person's approval: marked by the approval layer when a resume runs
 * a call held in an earlier turn, read by a layer that must let such a call through whatever it
 * decides for new calls (the search's on-demand guard: the held call was offered when it was
 * made). A mark only: what was approved, and the check of it, stay in approval/.
 */

const approved = /* @__PURE__ */ new WeakSet<object>();

/** Marks `options` as carrying a person's approval of the calls it runs. */
export function markApproved(options: object): void {
  approved.add(options);
}

/** Whether `options` carries a person's approval (`markApproved`). */
export function isApproved(options: object | undefined): boolean {
  return options !== undefined && approved.has(options);
}
