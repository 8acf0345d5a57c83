/**
 * An origin's IndexedDB read and written in Playwright's storageState form, from tabpilot's isolated
 * world (which shares the page's storage). Reading walks every database of the origin; writing replaces
 * the databases named in the file (deleted, then made again with their stores, indexes and records), as
 * Playwright's newContext({ storageState }) does, and leaves the origin's other databases alone.
 */
import type { IndexedDbOutcome, SavedDatabase } from '../in-page-api';
import { UnsavableValue, loadValue, saveValue } from './idb-values';

/** The page holds a database open past the bound a replacement waits for it. */
class BlockedDatabase extends Error {}

/** How long a replacement may wait for the page to close its connection (a page that ignores versionchange). */
const BLOCKED_BOUND_MS = 5_000;

function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.addEventListener('success', () => resolve(request.result));
    request.addEventListener('error', () => reject(request.error ?? new Error('IndexedDB request failed')));
  });
}

function keyPathOf(keyPath: string | string[] | null): { keyPath?: string; keyPathArray?: string[] } {
  if (keyPath === null) {
    return {};
  }
  return typeof keyPath === 'string' ? { keyPath } : { keyPathArray: [...keyPath] };
}

type SavedStore = SavedDatabase['stores'][number];
type SavedRecord = SavedStore['records'][number];

async function readStore(store: IDBObjectStore): Promise<SavedStore> {
  const records: SavedRecord[] = [];
  const outOfLine = store.keyPath === null;
  await new Promise<void>((resolve, reject) => {
    const cursor = store.openCursor();
    cursor.addEventListener('error', () => reject(cursor.error ?? new Error('IndexedDB cursor failed')));
    cursor.addEventListener('success', () => {
      const at = cursor.result;
      if (at === null) {
        resolve();
        return;
      }
      try {
        const record: SavedRecord = {};
        if (outOfLine) {
          const key = saveValue(at.primaryKey);
          if ('plain' in key) record.key = key.plain;
          else record.keyEncoded = key.encoded;
        }
        const value = saveValue(at.value);
        if ('plain' in value) record.value = value.plain;
        else record.valueEncoded = value.encoded;
        records.push(record);
      } catch (error) {
        reject(
          error instanceof UnsavableValue
            ? new UnsavableValue(`store ${store.name} holds ${error.message}`)
            : new Error(`reading store ${store.name} failed`, { cause: error }),
        );
        return;
      }
      at.continue();
    });
  });
  const indexes = [...store.indexNames].map((name) => {
    const index = store.index(name);
    return { name, ...keyPathOf(index.keyPath), multiEntry: index.multiEntry, unique: index.unique };
  });
  return { name: store.name, autoIncrement: store.autoIncrement, ...keyPathOf(store.keyPath), records, indexes };
}

async function readDatabase(name: string, version: number): Promise<SavedDatabase> {
  const db = await settled(indexedDB.open(name));
  try {
    const names = [...db.objectStoreNames];
    if (names.length === 0) {
      return { name, version, stores: [] };
    }
    const transaction = db.transaction(names, 'readonly');
    const stores: SavedStore[] = [];
    for (const storeName of names) {
      stores.push(await readStore(transaction.objectStore(storeName)));
    }
    return { name, version, stores };
  } catch (error) {
    throw error instanceof UnsavableValue ? new UnsavableValue(`database ${name}: ${error.message}`) : error;
  } finally {
    db.close();
  }
}

/** Every database of the origin, with its stores, indexes and records. */
export async function collectIndexedDb(): Promise<IndexedDbOutcome<SavedDatabase[]>> {
  try {
    const out: SavedDatabase[] = [];
    for (const info of await indexedDB.databases()) {
      if (info.name !== undefined && info.version !== undefined) {
        out.push(await readDatabase(info.name, info.version));
      }
    }
    return { ok: true, value: out };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return error instanceof UnsavableValue
      ? { ok: false, reason: 'unsavable', error: `${message}, which a storage state cannot hold` }
      : { ok: false, reason: 'failed', error: `reading IndexedDB failed: ${message}` };
  }
}

/**
 * Replaces a database: its deletion and its making again are asked for at once, so they come before any
 * request the page makes after this call (requests for one database run in the order they were made),
 * and the stores, indexes and records are all written in the upgrade that makes it, before anyone else
 * can open it. A page that keeps the old database open and ignores versionchange holds both back; past a
 * bound the caller is told, and the replacement happens when the page lets go.
 */
function writeDatabase(saved: SavedDatabase): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deletion = indexedDB.deleteDatabase(saved.name);
    deletion.addEventListener('blocked', () => {
      timer = setTimeout(
        () =>
          reject(
            new BlockedDatabase(
              `the page keeps database ${saved.name} open and does not close it; it is replaced when the page lets it go (reload or close its tabs)`,
            ),
          ),
        BLOCKED_BOUND_MS,
      );
    });
    deletion.addEventListener('success', () => clearTimeout(timer));
    const open = indexedDB.open(saved.name, saved.version);
    open.addEventListener('upgradeneeded', () => {
      for (const store of saved.stores) {
        const made = open.result.createObjectStore(store.name, {
          autoIncrement: store.autoIncrement,
          keyPath: store.keyPathArray ?? store.keyPath ?? null,
        });
        for (const index of store.indexes) {
          made.createIndex(index.name, index.keyPathArray ?? index.keyPath ?? '', {
            unique: index.unique,
            multiEntry: index.multiEntry,
          });
        }
        for (const record of store.records) {
          const value = record.valueEncoded !== undefined ? loadValue(record.valueEncoded) : record.value;
          const key = record.keyEncoded !== undefined ? loadValue(record.keyEncoded) : record.key;
          made.add(value, key as IDBValidKey | undefined);
        }
      }
    });
    open.addEventListener('success', () => {
      clearTimeout(timer);
      open.result.close();
      resolve();
    });
    open.addEventListener('error', () => {
      clearTimeout(timer);
      reject(open.error ?? new Error(`making database ${saved.name} failed`));
    });
  });
}

/** Replaces the origin's databases named in `databases` with their saved content. */
export async function restoreIndexedDb(databases: SavedDatabase[]): Promise<IndexedDbOutcome<number>> {
  try {
    // Every database's requests are made now, before the page's next ones.
    await Promise.all(databases.map(writeDatabase));
    return { ok: true, value: databases.length };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: error instanceof BlockedDatabase ? 'blocked' : 'failed', error: message };
  }
}

/**
 * The restore a new document of `origin` runs at its start (a start-of-document call in tabpilot's world),
 * before the page's own scripts open their databases. The core takes the script away once a document of
 * the origin committed, so later documents keep what the page writes. Only a top-level document: an
 * iframe of the origin inside another site has storage of its own (partitioned by the top site).
 */
export function restoreIndexedDbAtStart(origin: string, databases: SavedDatabase[]): boolean {
  if (location.origin !== origin || window.top !== window) {
    return false;
  }
  // It never rejects: a failure is its outcome, which no one waits for here.
  void restoreIndexedDb(databases);
  return true;
}
