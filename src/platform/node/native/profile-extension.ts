import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID } from '../../../protocol/native-messages';
import { fieldOf, isRecord } from '../../../shared/narrow';

export type ExtensionPresence =
  | { state: 'enabled'; profile: string; path: string | null }
  | { state: 'disabled'; profile: string; reasons: unknown }
  | { state: 'missing'; profiles: string[] }
  /** No profile of this user-data folder has been used yet (no Preferences file). */
  | { state: 'no_profile' };

interface ExtensionSettings {
  path?: string;
  state?: number;
  disable_reasons?: unknown;
}

/**
 * Whether the extension is installed in a browser profile, from each profile's Preferences (Chrome
 * lists unpacked and command-line extensions there too, under extensions.settings.<id>). Chrome
 * writes Preferences a few seconds after a change, so a just-loaded extension may show a moment later.
 */
export function extensionPresence(userDataDir: string): ExtensionPresence {
  const profiles = profileFolders(userDataDir);
  if (profiles.length === 0) {
    return { state: 'no_profile' };
  }
  for (const profile of profiles) {
    for (const file of ['Preferences', 'Secure Preferences']) {
      const settings = readSettings(join(userDataDir, profile, file));
      if (settings === undefined) {
        continue;
      }
      const disabled =
        settings.state === 0 ||
        (Array.isArray(settings.disable_reasons) && settings.disable_reasons.length > 0) ||
        (typeof settings.disable_reasons === 'number' && settings.disable_reasons !== 0);
      return disabled
        ? { state: 'disabled', profile, reasons: settings.disable_reasons ?? settings.state }
        : { state: 'enabled', profile, path: settings.path ?? null };
    }
  }
  return { state: 'missing', profiles };
}

function profileFolders(userDataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(userDataDir);
  } catch {
    // No such folder: no profile.
    return [];
  }
  return names.filter((name) => existsSync(join(userDataDir, name, 'Preferences'))).sort();
}

function readSettings(path: string): ExtensionSettings | undefined {
  try {
    const preferences: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const settings = fieldOf(fieldOf(fieldOf(preferences, 'extensions'), 'settings'), EXTENSION_ID);
    return isRecord(settings) ? settings : undefined;
  } catch {
    // Missing or half-written: this file does not say.
    return undefined;
  }
}
