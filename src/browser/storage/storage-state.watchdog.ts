import type { CdpSession } from '../../cdp/session';
import { utf8 } from '../../shared/bytes';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import {
  LoadStorageStateEvent,
  SaveStorageStateEvent,
  StorageStateLoadedEvent,
  StorageStateSavedEvent,
} from '../../protocol/events/artifacts.events';
import { BrowserConnectedEvent } from '../../protocol/events/lifecycle.events';
import { requireArtifacts } from '../host';
import type { BrowserSessionView } from '../session-view';
import {
  cookieFromCdp,
  cookieToCdp,
  parseStorageState,
  parseStorageStateBytes,
  type StorageOrigin,
  type StorageState,
} from './storage-state';
import { scopeState } from './cookie-scope';
import { tabCookies } from './tab-cookies';
import { CookiesEvent, WebStorageEvent } from '../../protocol/actions/storage.actions';
import { tabWebStorage } from './tab-web-storage';
import { IndexedDbRestorer } from './indexed-db-restore';
import type { SavedDatabase } from '../actions/in-page-api';
import { atDocumentStart, callInFrame } from '../actions/in-page-call';

const CONFIG_FIELD = 'storage_state';

const databasesIn = (state: StorageState): number =>
  state.origins.reduce((sum, origin) => sum + (origin.indexedDB ?? []).length, 0);

/** An origin's IndexedDB databases, read through its page (a value no storage state can hold is refused, naming it). */
async function readDatabases(session: CdpSession, origin: string): Promise<SavedDatabase[]> {
  const outcome = await callInFrame(session, 'collectIndexedDb');
  if (!outcome.ok) {
    throw new TabpilotError(
      outcome.reason === 'unsavable' ? 'UNSUPPORTED' : 'INTERNAL',
      `IndexedDB of ${origin}: ${outcome.error}; nothing was saved`,
      { details: { origin } },
    );
  }
  return outcome.value;
}

/**
 * A page that answers: not crashed, main thread not stuck (a challenge page answers). The storage state is
 * the browser's, not one tab's, so these actions pass the tab gate and leave such pages alone themselves.
 */
function answers(session: BrowserSessionView, targetId: string): boolean {
  return session.conditions.of(targetId).every((condition) => condition.kind === 'captcha');
}

/** The controlled tabs whose pages answer, and those left alone. */
function pagesOf(session: BrowserSessionView): { live: string[]; skipped: string[] } {
  const all = session.targets.pages().map((page) => page.targetId);
  return {
    live: all.filter((targetId) => answers(session, targetId)),
    skipped: all.filter((targetId) => !answers(session, targetId)),
  };
}

/** A live page session: cookie commands (Storage.*, Network.setCookies) act on the whole browser profile. */
function cookieSession(session: BrowserSessionView, live: readonly string[]): CdpSession {
  const focused = session.targets.focusedTargetId;
  const page = focused !== undefined && live.includes(focused) ? focused : live[0];
  if (page === undefined) {
    throw new TabpilotError(
      'NOT_ATTACHED',
      'No attached tab answers: the storage state is read and written through a tab',
    );
  }
  return session.targets.requireSession(page);
}

/**
 * StorageStateWatchdog: save_storage_state / load_storage_state in Playwright's storageState format
 * (cookies with every attribute, origins with their localStorage, and their IndexedDB when asked), so one
 * file moves between tabpilot, Playwright and browser-use. The config's `storage_state` is loaded on connect and saved on stop (the
 * session asks for that save before it disconnects). A save
 * writes a temporary file and renames it (a kill mid-write leaves the old file whole); a file that is not
 * valid JSON or not a storage state is refused whole, naming it, before anything is loaded. Unlike
 * browser-use, a save holds exactly the browser's state (no merge with an older file that would bring back
 * cookies since deleted), and localStorage reaches every controlled tab of its origin, not only the one
 * focused at load time. `cookies` reads and writes one tab's own page's cookies only (storage/tab-cookies.ts),
 * `web_storage` its own page's localStorage and sessionStorage only (storage/tab-web-storage.ts).
 */
export const storageStateWatchdog = defineWatchdog({
  name: 'storage-state',
  listensTo: [BrowserConnectedEvent, SaveStorageStateEvent, LoadStorageStateEvent, CookiesEvent, WebStorageEvent],
  emits: [LoadStorageStateEvent, StorageStateSavedEvent, StorageStateLoadedEvent],
  setup: (ctx) => {
    let loads = 0;
    const databases = new IndexedDbRestorer(ctx.session.targets, ctx.log);
    const disposers: Array<() => void> = [() => databases.dispose()];
    ctx.signal.addEventListener('abort', () => disposers.splice(0).forEach((dispose) => dispose()), { once: true });

    const pathOf = (path: string | null): { path: string; field: string } => {
      if (path !== null) {
        return { path, field: 'path' };
      }
      const configured = ctx.session.config.storage_state;
      if (configured === null) {
        throw new TabpilotError('INVALID_PARAMS', 'path: give a file, or set storage_state in the config', {
          details: { field: 'path' },
        });
      }
      return { path: configured, field: CONFIG_FIELD };
    };

    const read = async (live: readonly string[], withDatabases: boolean): Promise<StorageState> => {
      const page = cookieSession(ctx.session, live);
      const { cookies } = await page.send('Storage.getCookies', {});
      const origins = new Map<string, StorageOrigin>();
      for (const targetId of live) {
        const session = ctx.session.targets.sessionFor(targetId);
        if (session === undefined) {
          continue;
        }
        const origin: StorageOrigin | null = await callInFrame(session, 'readLocalStorage');
        if (origin === null || origins.has(origin.origin)) {
          continue;
        }
        if (withDatabases) {
          origin.indexedDB = await readDatabases(session, origin.origin);
        }
        if (origin.localStorage.length > 0 || (origin.indexedDB ?? []).length > 0) {
          origins.set(origin.origin, origin);
        }
      }
      return { cookies: cookies.map(cookieFromCdp), origins: [...origins.values()] };
    };

    const apply = async (state: StorageState, live: readonly string[]): Promise<string[]> => {
      const page = cookieSession(ctx.session, live);
      if (state.cookies.length > 0) {
        await page.send('Network.setCookies', { cookies: state.cookies.map(cookieToCdp) });
      }
      loads += 1;
      const mark = `${Date.now()}-${loads}`;
      const pending: string[] = [];
      for (const origin of state.origins) {
        if (
          origin.indexedDB !== undefined &&
          (await databases.restore(origin.origin, origin.indexedDB, live)) === 'pending'
        ) {
          pending.push(origin.origin);
        }
        if (origin.localStorage.length === 0) {
          continue;
        }
        const saved = { origin: origin.origin, localStorage: origin.localStorage };
        // Documents opening later (every frame of every page session, now and after), and the pages already there.
        disposers.push(
          ctx.session.targets.addSessionSetup(async (session, target) => {
            if (target.type === 'page' || target.type === 'iframe') {
              await atDocumentStart(session, 'all', 'restoreLocalStorage', saved, mark);
            }
          }),
        );
        for (const targetId of live) {
          const session = ctx.session.targets.sessionFor(targetId);
          if (session !== undefined) {
            await bestEffort(
              callInFrame(session, 'restoreLocalStorage', saved, mark),
              ctx.log,
              'applying localStorage',
            );
          }
        }
      }
      return pending;
    };

    return {
      CookiesEvent: (event) => tabCookies(ctx.session.targets.requireSession(event.payload.target_id), event.payload),
      WebStorageEvent: (event) =>
        tabWebStorage(ctx.session.targets.requireSession(event.payload.target_id), event.payload),
      BrowserConnectedEvent: async (_event, hctx) => {
        if (ctx.session.config.storage_state === null) {
          return;
        }
        const files = requireArtifacts(ctx.session.host);
        await files.check(ctx.session.config.storage_state, CONFIG_FIELD);
        try {
          await files.readFile(ctx.session.config.storage_state, CONFIG_FIELD);
        } catch (error) {
          // A configured file that does not exist yet is where the first stop will save.
          ctx.log.info('no storage state to load yet', { error: errorMessageOf(error) });
          return;
        }
        if (ctx.session.targets.pages().length === 0) {
          ctx.log.info('no tab to load the storage state through yet');
          return;
        }
        await hctx.emit(LoadStorageStateEvent, { path: null });
      },
      SaveStorageStateEvent: async (event, hctx) => {
        const { path, field } = pathOf(event.payload.path);
        const { live, skipped } = pagesOf(ctx.session);
        const state = scopeState(await read(live, event.payload.indexed_db), event.payload.hosts);
        const location = await requireArtifacts(ctx.session.host).writeFile(
          path,
          utf8(`${JSON.stringify(state, null, 2)}\n`),
          { field, atomic: true, mimeType: 'application/json' },
        );
        const counts = { path: location, cookies_count: state.cookies.length, origins_count: state.origins.length };
        hctx.emit(StorageStateSavedEvent, counts);
        return { ...counts, databases_count: databasesIn(state), skipped_target_ids: skipped };
      },
      LoadStorageStateEvent: async (event, hctx) => {
        let state: StorageState;
        let location: string;
        if (event.payload.state !== undefined) {
          state = parseStorageState(event.payload.state, 'the state given', 'state');
          location = '(given)';
        } else {
          const { path, field } = pathOf(event.payload.path);
          const files = requireArtifacts(ctx.session.host);
          location = await files.check(path, field);
          state = parseStorageStateBytes(await files.readFile(path, field), location, field);
        }
        const { live, skipped } = pagesOf(ctx.session);
        const pending = await apply(state, live);
        const counts = { path: location, cookies_count: state.cookies.length, origins_count: state.origins.length };
        hctx.emit(StorageStateLoadedEvent, counts);
        return {
          ...counts,
          databases_count: databasesIn(state),
          skipped_target_ids: skipped,
          pending_origins: pending,
        };
      },
    };
  },
});
