import type { KeyValueStore } from '../timeline-recorder';
import { isRecord } from '../../../shared/narrow';

/** v2: grants bound to a key and an executable. The v1 list of bare names is no longer read. */
const STORAGE_KEY = 'tabpilot.native.grants';

/** An "allow until revoked": the name, the executable the system saw, the hash of the key issued. */
export interface ClientGrant {
  readonly name: string;
  /** Null when the system did not vouch for the caller (no peer credentials on this platform). */
  readonly exe: string | null;
  readonly key_hash: string;
}

/**
 * The programs the person allowed until revoked, kept in chrome.storage.local. A name alone lets
 * nobody in: a grant holds only for a hello that presents the key issued with it (its sha-256 here,
 * never the key) from the same executable. Disconnect in the panel forgets every grant of the name.
 */
export class ClientApprovals {
  readonly #store: KeyValueStore;
  #grants: ClientGrant[] = [];

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  async load(): Promise<void> {
    const saved = await this.#store.get(STORAGE_KEY);
    this.#grants = Array.isArray(saved) ? saved.filter(isGrant) : [];
  }

  /** Whether this caller holds a grant: its name, its executable and its key's hash all match one. */
  allows(name: string, exe: string | null, keyHash: string | null): boolean {
    return (
      keyHash !== null &&
      this.#grants.some((grant) => grant.name === name && grant.exe === exe && grant.key_hash === keyHash)
    );
  }

  async grant(grant: ClientGrant): Promise<void> {
    // One grant per name and executable: allowing again replaces the key.
    this.#grants = [...this.#grants.filter((kept) => kept.name !== grant.name || kept.exe !== grant.exe), grant];
    await this.#store.set(STORAGE_KEY, this.#grants);
  }

  async revoke(name: string): Promise<void> {
    const kept = this.#grants.filter((grant) => grant.name !== name);
    if (kept.length !== this.#grants.length) {
      this.#grants = kept;
      await this.#store.set(STORAGE_KEY, this.#grants);
    }
  }
}

function isGrant(value: unknown): value is ClientGrant {
  if (!isRecord(value)) {
    return false;
  }
  const grant = value;
  return (
    typeof grant['name'] === 'string' &&
    (grant['exe'] === null || typeof grant['exe'] === 'string') &&
    typeof grant['key_hash'] === 'string'
  );
}
