/**
 * Remembers keys for a while, to tell the first sighting from a repeat: a page that polls a refused URL
 * every second is announced once per window, not once per request. Bounded: old keys go first.
 */
export class RecentKeys {
  readonly #windowMs: number;
  readonly #seen = new Map<string, number>();
  readonly #max: number;

  constructor(windowMs: number, max = 256) {
    this.#windowMs = windowMs;
    this.#max = max;
  }

  /** True the first time `key` is seen within the window (and it is remembered from now). */
  first(key: string, now = Date.now()): boolean {
    const last = this.#seen.get(key);
    if (last !== undefined && now - last < this.#windowMs) {
      return false;
    }
    this.#seen.delete(key);
    this.#seen.set(key, now);
    if (this.#seen.size > this.#max) {
      const oldest = this.#seen.keys().next();
      if (oldest.done !== true) {
        this.#seen.delete(oldest.value);
      }
    }
    return true;
  }
}
