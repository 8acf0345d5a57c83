import type { StorageArea } from '../../src/browser/actions/in-page/web-storage';

/** A localStorage or sessionStorage area in memory, refusing a value past `quota` characters as the browser does. */
export class MemoryStorage implements StorageArea {
  readonly #items = new Map<string, string>();
  readonly #quota: number;

  constructor(entries: Array<[string, string]> = [], quota = Infinity) {
    entries.forEach(([key, value]) => this.#items.set(key, value));
    this.#quota = quota;
  }

  get length(): number {
    return this.#items.size;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    if (value.length > this.#quota) {
      throw new Error(`Failed to execute 'setItem' on 'Storage': Setting the value of '${key}' exceeded the quota.`);
    }
    this.#items.set(key, value);
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  clear(): void {
    this.#items.clear();
  }
}
