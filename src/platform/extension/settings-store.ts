import { ConfigError } from '../../browser/config';
import { defaultConfig, parseConfig, type TabpilotConfig } from '../../agent/tabpilot-config';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import type { SettingsError } from '../../protocol/panel-messages';
import type { KeyValueStore } from './timeline-recorder';

const STORAGE_KEY = 'tabpilot.config';

export type SaveOutcome = { ok: true; config: TabpilotConfig } | { ok: false; error: SettingsError };

/**
 * The extension's settings: the config object, kept in chrome.storage.local and applied to
 * the running session without a reload. The worker validates; the panel only edits.
 */
export class SettingsStore {
  readonly #store: KeyValueStore;
  readonly #apply: (config: TabpilotConfig) => unknown;
  readonly #check: (config: TabpilotConfig) => SettingsError | undefined;
  #config: TabpilotConfig = defaultConfig();

  /**
   * `apply` resolves once the running session acts on the config (BrowserSession.applyConfig); `check`
   * refuses what this platform cannot do (a permission chrome.contentSettings cannot grant), naming the field.
   */
  constructor(
    store: KeyValueStore,
    apply: (config: TabpilotConfig) => unknown,
    check: (config: TabpilotConfig) => SettingsError | undefined = () => undefined,
  ) {
    this.#store = store;
    this.#apply = apply;
    this.#check = check;
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
    const refused = this.#check(config);
    if (refused !== undefined) {
      return { ok: false, error: refused };
    }
    return this.#use(config);
  }

  /** Validates, stores and applies; an invalid config changes nothing and names the field. */
  async save(input: unknown): Promise<SaveOutcome> {
    let config: TabpilotConfig;
    try {
      config = parseConfig(input);
    } catch (error) {
      return { ok: false, error: settingsErrorOf(error) };
    }
    const refused = this.#check(config);
    if (refused !== undefined) {
      return { ok: false, error: refused };
    }
    // Only what differs from the defaults is kept, so a later change of a default reaches everyone who
    // never set that field.
    await this.#store.set(STORAGE_KEY, differenceFrom(config, defaultConfig()));
    const applied = await this.#use(config);
    return applied.ok ? { ok: true, config } : applied;
  }

  /** Puts the config in force; a watchdog that could not act on it (a grant refused) is reported. */
  async #use(config: TabpilotConfig): Promise<{ ok: true } | { ok: false; error: SettingsError }> {
    this.#config = config;
    try {
      await this.#apply(config);
      return { ok: true };
    } catch (error) {
      const refused = settingsErrorOf(error);
      return { ok: false, error: { ...refused, message: `Saved and in force, but: ${refused.message}` } };
    }
  }
}

function settingsErrorOf(error: unknown): SettingsError {
  if (error instanceof ConfigError) {
    return { field: error.field, message: error.message };
  }
  const field = error instanceof TabpilotError ? error.details?.['field'] : undefined;
  return { field: typeof field === 'string' ? field : '', message: errorMessageOf(error) };
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
