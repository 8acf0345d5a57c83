import type { KeyValueStore } from '../timeline-recorder';

const STORAGE_KEY = 'tabpilot.native.approved';

/**
 * The client names the person allowed (asked only when `native_clients.approve_new_clients` is on),
 * kept in chrome.storage.local so a client is asked once, not on every run. Disconnect in the panel
 * takes the approval back.
 */
export class ClientApprovals {
  readonly #store: KeyValueStore;
  readonly #approved = new Set<string>();

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  async load(): Promise<void> {
    const saved = await this.#store.get(STORAGE_KEY);
    if (Array.isArray(saved)) {
      for (const name of saved) {
        if (typeof name === 'string') {
          this.#approved.add(name);
        }
      }
    }
  }

  has(name: string): boolean {
    return this.#approved.has(name);
  }

  async approve(name: string): Promise<void> {
    this.#approved.add(name);
    await this.#store.set(STORAGE_KEY, [...this.#approved]);
  }

  async revoke(name: string): Promise<void> {
    if (this.#approved.delete(name)) {
      await this.#store.set(STORAGE_KEY, [...this.#approved]);
    }
  }
}
