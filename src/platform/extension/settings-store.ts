import { ConfigError, defaultConfig, parseConfig, type TabpilotConfig } from '../../browser/config';
import { errorMessageOf } from '../../shared/errors';
import type { SettingsError } from '../../protocol/panel-messages';
import type { KeyValueStore } from './timeline-recorder';

const STORAGE_KEY = 'tabpilot.config';

export type SaveOutcome = { ok: true; config: TabpilotConfig } | { ok: false; error: SettingsError };

/**
 * The extension's settings: the config object (DESIGN §6), kept in chrome.storage.local and applied to
 * the running session without a reload. The worker validates; the panel only edits.
 */
export class SettingsStore {
  readonly #store: KeyValueStore;
  readonly #apply: (config: TabpilotConfig) => void;
  #config: TabpilotConfig = defaultConfig();

  constructor(store: KeyValueStore, apply: (config: TabpilotConfig) => void) {
    this.#store = store;
    this.#apply = apply;
  }

  get config(): TabpilotConfig {
    return this.#config;
  }

  /**
   * Applies the saved config. A saved config that no longer parses (a field renamed since) is left in
   * storage for the person to fix and the defaults run meanwhile; the error says which field.
   */
  async load(): Promise<{ ok: true } | { ok: false; error: SettingsError }> {
    const saved = await this.#store.get(STORAGE_KEY);
    if (saved === undefined) {
      return { ok: true };
    }
    try {
      this.#use(parseConfig(saved));
      return { ok: true };
    } catch (error) {
      return { ok: false, error: settingsErrorOf(error) };
    }
  }

  /** Validates, stores and applies; an invalid config changes nothing and names the field. */
  async save(input: unknown): Promise<SaveOutcome> {
    let config: TabpilotConfig;
    try {
      config = parseConfig(input);
    } catch (error) {
      return { ok: false, error: settingsErrorOf(error) };
    }
    await this.#store.set(STORAGE_KEY, config);
    this.#use(config);
    return { ok: true, config };
  }

  #use(config: TabpilotConfig): void {
    this.#config = config;
    this.#apply(config);
  }
}

function settingsErrorOf(error: unknown): SettingsError {
  return error instanceof ConfigError
    ? { field: error.field, message: error.message }
    : { field: '', message: errorMessageOf(error) };
}
