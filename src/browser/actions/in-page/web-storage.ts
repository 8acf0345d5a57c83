/**
 * localStorage or sessionStorage of the document tabpilot's isolated world runs in (a tab's top page): the
 * world shares the page's storage, and the page's scripts cannot change what `localStorage` is here. The
 * core (src/browser/storage/tab-web-storage.ts) checks the origin, bounds the answer and words it.
 */
import type { WebStorageOutcome, WebStorageRequest } from '../in-page-api';

/** What of a Storage the operations use (a test gives its own). */
export type StorageArea = Pick<Storage, 'length' | 'key' | 'getItem' | 'setItem' | 'removeItem' | 'clear'>;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function entriesOf(storage: StorageArea): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    const value = key === null ? null : storage.getItem(key);
    if (key !== null && value !== null) {
      entries.push([key, value]);
    }
  }
  return entries;
}

/** The operation on one storage area of a document of `origin` (apart from the globals, for tests). */
export function operate(storage: StorageArea, origin: string, request: WebStorageRequest): WebStorageOutcome {
  const { key } = request;
  switch (request.op) {
    case 'list':
      return { ok: true, origin, entries: entriesOf(storage), cleared: 0 };
    case 'get': {
      const value = storage.getItem(key);
      return { ok: true, origin, entries: value === null ? [] : [[key, value]], cleared: 0 };
    }
    case 'set': {
      try {
        storage.setItem(key, request.value);
      } catch (error) {
        // QuotaExceededError: the origin's storage (about 5 MB) is full.
        return { ok: false, reason: 'refused', origin, error: messageOf(error) };
      }
      const stored = storage.getItem(key);
      return { ok: true, origin, entries: stored === null ? [] : [[key, stored]], cleared: 0 };
    }
    case 'delete': {
      const value = storage.getItem(key);
      storage.removeItem(key);
      return { ok: true, origin, entries: value === null ? [] : [[key, value]], cleared: 0 };
    }
    case 'clear': {
      const cleared = storage.length;
      storage.clear();
      return { ok: true, origin, entries: [], cleared };
    }
  }
}

export function webStorage(request: WebStorageRequest): WebStorageOutcome {
  const origin = self.origin;
  let storage: Storage;
  try {
    // Throws for an opaque origin (a sandboxed page) or where the person blocked site data.
    storage = request.area === 'local' ? localStorage : sessionStorage;
  } catch (error) {
    return { ok: false, reason: 'denied', origin, error: messageOf(error) };
  }
  return operate(storage, origin, request);
}
