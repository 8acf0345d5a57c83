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
  readonly #apply: (config: TabpilotConfig) => unknown;
  #config: TabpilotConfig = defaultConfig();

  /** `apply` resolves once the running session acts on the config (BrowserSession.applyConfig). */
  constructor(store: KeyValueStore, apply: (config: TabpilotConfig) => unknown) {
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
    let config: TabpilotConfig;
    try {
      config = parseConfig(saved);
    } catch (error) {
      return { ok: false, error: settingsErrorOf(error) };
    }
    await this.#use(config);
    return { ok: true };
  }

  /** Validates, stores and applies; an invalid config changes nothing and names the field. */
  async save(input: unknown): Promise<SaveOutcome> {
    let config: TabpilotConfig;
    try {
      config = parseConfig(input);
    } catch (error) {
      return { ok: false, error: settingsErrorOf(error) };
    }
    // Only what differs from the defaults is kept, so a later change of a default reaches everyone who
    // never set that field.
    await this.#store.set(STORAGE_KEY, differenceFrom(config, defaultConfig()));
    await this.#use(config);
    return { ok: true, config };
  }

  async #use(config: TabpilotConfig): Promise<void> {
    this.#config = config;
    await this.#apply(config);
  }
}

function settingsErrorOf(error: unknown): SettingsError {
  return error instanceof ConfigError
    ? { field: error.field, message: error.message }
    : { field: '', message: errorMessageOf(error) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of `value` that are not equal to `base` (objects compared field by field). */
export function differenceFrom(value: Record<string, unknown>, base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const baseField = base[key];
    if (isPlainObject(field) && isPlainObject(baseField) && Object.keys(baseField).length > 0) {
      const nested = differenceFrom(field, baseField);
      if (Object.keys(nested).length > 0) {
        out[key] = nested;
      }
    } else if (JSON.stringify(field) !== JSON.stringify(baseField)) {
      out[key] = field;
    }
  }
  return out;
}
