/**
 * A storage state's localStorage in a document, from tabpilot's isolated world (which shares the page's
 * storage, while the page's scripts cannot change what `localStorage` is here): read for a save, and put
 * back, once per tab, into documents of its origin (at once in an open page, and at the start of every
 * document that opens later).
 */
import type { SavedLocalStorage } from '../in-page-api';
import type { StorageArea } from './web-storage';

/** The origin's entries (none for an opaque origin: about:blank, data:, a sandboxed page). */
export function readEntries(origin: string, storage: StorageArea): SavedLocalStorage | null {
  if (origin === 'null') {
    return null;
  }
  const items: SavedLocalStorage['localStorage'] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const name = storage.key(index);
    const value = name === null ? null : storage.getItem(name);
    if (name !== null && value !== null) {
      items.push({ name, value });
    }
  }
  return { origin, localStorage: items };
}

/**
 * Writes the saved entries into a document of `origin`, once per tab: a per-tab sessionStorage `mark`
 * says it was done, so the page's own later writes are not overwritten on every navigation.
 */
export function restoreEntries(
  where: { origin: string; local: StorageArea; session: StorageArea },
  saved: SavedLocalStorage,
  mark: string,
): boolean {
  if (where.origin !== saved.origin) {
    return false;
  }
  const key = `tabpilot.storage_state.${mark}`;
  if (where.session.getItem(key) !== null) {
    return false;
  }
  where.session.setItem(key, '1');
  for (const { name, value } of saved.localStorage) {
    where.local.setItem(name, value);
  }
  return true;
}

/** The document's origin as its URL says ('null' for about:blank, data:), as the saved state names it. */
export function readLocalStorage(): SavedLocalStorage | null {
  return readEntries(location.origin, localStorage);
}

export function restoreLocalStorage(saved: SavedLocalStorage, mark: string): boolean {
  let storages: { local: Storage; session: Storage };
  try {
    // Throws for an opaque origin or where the person blocked site data: nothing to restore there.
    storages = { local: localStorage, session: sessionStorage };
  } catch (error) {
    void error;
    return false;
  }
  return restoreEntries({ origin: location.origin, ...storages }, saved, mark);
}
