import { z } from 'zod';
import type { AgentConfig } from '../../../agent/agent.config';
import type { Secret } from '../../../shared/redact';
import type { KeyValueStore } from '../timeline-recorder';

const STORAGE_KEY = 'tabpilot.agent_keys';

export type AgentProvider = AgentConfig['provider'];

const SavedKeys = z.partialRecord(z.enum(['openai', 'anthropic']), z.string().min(1));

/** Which providers have a key, as the panel may be told: never the key itself. */
export interface AgentKeysPresent {
  readonly openai: boolean;
  readonly anthropic: boolean;
}

/**
 * The agent's API keys, one per provider, in chrome.storage.local under a key of their own: never synced,
 * never part of the config (so never in a config the panel shows or exports), and never sent back to a
 * panel. Their values count as secrets, so the logs, the timeline and every client's output hide them.
 */
export class AgentKeyStore {
  readonly #store: KeyValueStore;
  #keys: Partial<Record<AgentProvider, string>> = {};

  constructor(store: KeyValueStore) {
    this.#store = store;
  }

  /** Reads the saved keys; a saved value that does not parse counts as no key (the person saves a new one). */
  async load(): Promise<void> {
    const parsed = SavedKeys.safeParse((await this.#store.get(STORAGE_KEY)) ?? {});
    this.#keys = parsed.success ? parsed.data : {};
  }

  key(provider: AgentProvider): string | null {
    return this.#keys[provider] ?? null;
  }

  /** Stores a provider's key; null or an empty text forgets it. */
  async set(provider: AgentProvider, key: string | null): Promise<void> {
    const next = { ...this.#keys };
    const trimmed = key?.trim() ?? '';
    if (trimmed === '') {
      delete next[provider];
    } else {
      next[provider] = trimmed;
    }
    await this.#store.set(STORAGE_KEY, next);
    this.#keys = next;
  }

  present(): AgentKeysPresent {
    return { openai: this.#keys.openai !== undefined, anthropic: this.#keys.anthropic !== undefined };
  }

  secrets(): Secret[] {
    return Object.entries(this.#keys).map(([provider, value]) => ({ name: `${provider}_api_key`, value }));
  }
}
