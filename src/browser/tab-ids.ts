/**
 * Short tab ids for the protocol (`tab_id`). browser-use uses the last 4 characters of the CDP target id;
 * we do too, lengthening an id only where two live targets would share it, so an id stays unique and
 * stays the same for the tab's life.
 */
export class TabIds {
  readonly #byTarget = new Map<string, string>();
  readonly #byTab = new Map<string, string>();

  idFor(targetId: string): string {
    const existing = this.#byTarget.get(targetId);
    if (existing !== undefined) {
      return existing;
    }
    let length = Math.min(4, targetId.length);
    let candidate = targetId.slice(-length);
    while (this.#byTab.has(candidate.toLowerCase()) && length < targetId.length) {
      length++;
      candidate = targetId.slice(-length);
    }
    this.#byTarget.set(targetId, candidate);
    this.#byTab.set(candidate.toLowerCase(), targetId);
    return candidate;
  }

  /** The target a tab id names (case-insensitive), or undefined. A full target id is accepted too. */
  targetFor(tabId: string): string | undefined {
    return this.#byTab.get(tabId.toLowerCase()) ?? (this.#byTarget.has(tabId) ? tabId : undefined);
  }

  forget(targetId: string): void {
    const tabId = this.#byTarget.get(targetId);
    if (tabId !== undefined) {
      this.#byTarget.delete(targetId);
      this.#byTab.delete(tabId.toLowerCase());
    }
  }
}
