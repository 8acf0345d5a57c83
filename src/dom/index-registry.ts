/**
 * Element indexes for one document, stable across states: an element keeps its index for as long as it
 * is the same element (browser-use numbers by backendNodeId; we number 1, 2, 3... in order of first
 * sight). Each document gets a registry of its own; an index from an older document names nothing in the
 * new one, because its frames' worlds (part of every key) are gone.
 */
export class IndexRegistry {
  #byKey = new Map<string, number>();
  #next = 1;

  /** The index for an element key (`session|context|in-world id`), allocating one on first sight. */
  indexFor(key: string): number {
    let index = this.#byKey.get(key);
    if (index === undefined) {
      index = this.#next++;
      this.#byKey.set(key, index);
    }
    return index;
  }

  /** The index an element key already has, without giving one. */
  find(key: string): number | undefined {
    return this.#byKey.get(key);
  }

  /** How many elements have an index (a debug figure: the elements of the latest state). */
  get size(): number {
    return this.#byKey.size;
  }

  /** Forgets keys no longer on the page, so the map does not grow with every navigation. */
  retainOnly(keys: ReadonlySet<string>): void {
    for (const key of this.#byKey.keys()) {
      if (!keys.has(key)) {
        this.#byKey.delete(key);
      }
    }
  }
}

export function elementKey(sessionId: string, contextId: number, id: number): string {
  return `${sessionId}|${contextId}|${id}`;
}
