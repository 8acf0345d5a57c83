import type { ChromeApi } from './chrome-api';
import type { PersistedTabs } from './tab-router';
import { fieldOf, isRecord } from '../../shared/narrow';

const KEY = 'tabpilot.session';

/** The minimum that must survive a service-worker restart: the controlled tabs, the focus, the person's hold. */
export interface PersistedSession {
  tabs: PersistedTabs;
  focus_target_id: string | null;
  /** Why the person holds the clients back (client-hold.ts); absent in a session saved before holds. */
  hold?: string | null;
}

export async function loadSession(chrome: ChromeApi): Promise<PersistedSession | undefined> {
  const value = await chrome.storage.get(KEY);
  return isPersistedSession(value) ? value : undefined;
}

/** What an earlier worker saved, recognised by its list of tabs (each tab is checked as it is restored). */
function isPersistedSession(value: unknown): value is PersistedSession {
  return isRecord(value) && Array.isArray(fieldOf(value['tabs'], 'tabs'));
}

/** Saves the latest state, one write at a time (a burst of changes ends in one final write). */
export function createSessionSaver(
  chrome: ChromeApi,
  read: () => PersistedSession,
  onError: (error: unknown) => void,
): () => void {
  let writing: Promise<void> | undefined;
  let dirty = false;
  const flush = (): void => {
    dirty = false;
    writing = chrome.storage
      .set(KEY, read())
      .catch(onError)
      .finally(() => {
        writing = undefined;
        if (dirty) {
          flush();
        }
      });
  };
  return () => {
    dirty = true;
    if (writing === undefined) {
      flush();
    }
  };
}
