/** How long a tab a controlled tab opened stays held by the opened-tab rules, unless attached before. */
export const OPENED_TAB_GRACE_MS = 3_000;

/**
 * The tabs the opened-tab rules leave alone (session-rule-guard.ts): every tab there was when the worker
 * started and every tab opened since, but for a while not one a controlled tab opened. That one is held
 * until tabpilot attaches it (then it is controlled, and its requests go through CDP's Fetch domain) or, if
 * it is not a popup after all (the person's Ctrl+T beside a controlled tab gets it as opener too), for a
 * grace period, after which it is the person's like any other.
 */
export class SettledTabs {
  readonly #ids = new Set<number>();
  readonly #held = new Set<number>();
  readonly #isControlled: (tabId: number) => boolean;
  readonly #onSettled: () => void;
  readonly #graceMs: number;

  /** `onSettled`: a held tab's grace ran out, so the rules should be written again. */
  constructor(isControlled: (tabId: number) => boolean, onSettled: () => void, graceMs = OPENED_TAB_GRACE_MS) {
    this.#isControlled = isControlled;
    this.#onSettled = onSettled;
    this.#graceMs = graceMs;
  }

  /** The tabs there are when the worker starts. */
  seed(tabIds: Iterable<number>): void {
    for (const tabId of tabIds) {
      this.#ids.add(tabId);
    }
  }

  /** A new tab; answers whether it is held (a controlled tab opened it). */
  created(tabId: number, openerTabId: number | undefined): boolean {
    if (openerTabId === undefined || !this.#isControlled(openerTabId)) {
      this.#ids.add(tabId);
      return false;
    }
    this.#held.add(tabId);
    setTimeout(() => {
      if (this.#held.delete(tabId)) {
        this.#ids.add(tabId);
        this.#onSettled();
      }
    }, this.#graceMs);
    return true;
  }

  removed(tabId: number): void {
    this.#ids.delete(tabId);
    this.#held.delete(tabId);
  }

  ids(): number[] {
    return [...this.#ids];
  }
}
