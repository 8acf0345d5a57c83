import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import type { ArtifactFiles } from '../artifacts/artifact-files';
import { LoadStorageStateEvent, SaveStorageStateEvent } from '../../protocol/events/artifacts.events';
import type { TabCondition } from '../guards/tab-conditions';
import { storageStateWatchdog } from './storage-state.watchdog';

/** Files kept in memory, under their names. */
function memoryFiles(): ArtifactFiles & { written: Map<string, string> } {
  const written = new Map<string, string>();
  return {
    written,
    check: (path) => Promise.resolve(path),
    folder: (path) => Promise.resolve(path),
    openRandomAccess: () => Promise.reject(new Error('not used')),
    writeFile: (path, bytes) => {
      written.set(path, new TextDecoder().decode(bytes));
      return Promise.resolve(path);
    },
    readFile: (path) => {
      const text = written.get(path);
      return text === undefined
        ? Promise.reject(new Error(`no ${path}`))
        : Promise.resolve(new TextEncoder().encode(text));
    },
  };
}

const STORAGE_CALLS = new Set(['readLocalStorage', 'restoreLocalStorage']);

/** The in-page function a bridge call names (its first argument; none for the bundle's install). */
function calledName(params: object | undefined): string {
  const args: unknown = params !== undefined && 'arguments' in params ? params.arguments : undefined;
  const first: unknown = Array.isArray(args) ? args[0] : undefined;
  const value: unknown = typeof first === 'object' && first !== null && 'value' in first ? first.value : undefined;
  return typeof value === 'string' ? value : '';
}

const stuck: TabCondition = {
  kind: 'unresponsive',
  status: 'unresponsive',
  reason: 'The page is not responding',
  since: 0,
  admit: () => {
    throw new Error('refused');
  },
};

async function twoTabs() {
  const browser = new FakeBrowser();
  const healthy = browser.addPage('https://a.test/');
  const hung = browser.addPage('https://b.test/');
  const files = memoryFiles();
  const { session } = await startedFakeSession({
    browser,
    watchdogs: [storageStateWatchdog],
    host: { tabControl: undefined, artifacts: files },
  });
  browser.responders.set('Storage.getCookies', () => ({
    cookies: [
      {
        name: 'sid',
        value: '1',
        domain: 'a.test',
        path: '/',
        expires: -1,
        size: 4,
        httpOnly: true,
        secure: false,
        session: true,
        sameSite: 'Lax',
        priority: 'Medium',
        sameParty: false,
        sourceScheme: 'NonSecure',
        sourcePort: 80,
      },
    ],
  }));
  // The page bridge's world, where the storage state's in-page functions run.
  browser.responders.set('Page.createIsolatedWorld', () => ({ executionContextId: 7 }));
  browser.responders.set('Runtime.callFunctionOn', (params, sessionId) => {
    const name = calledName(params);
    if (name === 'readLocalStorage') {
      return {
        result: {
          type: 'object',
          value: browser.sessionsOf(healthy.targetId).includes(sessionId ?? '')
            ? { origin: 'https://a.test', localStorage: [{ name: 'k', value: 'v' }] }
            : { origin: 'https://b.test', localStorage: [{ name: 'k', value: 'hung' }] },
        },
      };
    }
    // Installing the bundle, or restoreLocalStorage: done.
    return { result: { type: 'boolean', value: true } };
  });
  browser.responders.set('Network.setCookies', () => ({}));
  browser.responders.set('Page.addScriptToEvaluateOnNewDocument', () => ({ identifier: '1' }));
  session.conditions.set(hung.targetId, stuck);
  /** Calls of the storage state's in-page functions in a tab (installing the bundle is none). */
  const evaluatedOn = (targetId: string): number =>
    browser.sent.filter(
      (message) =>
        message.method === 'Runtime.callFunctionOn' &&
        STORAGE_CALLS.has(calledName(message.params)) &&
        browser.sessionsOf(targetId).includes(message.sessionId ?? ''),
    ).length;
  return { browser, session, files, healthy, hung, evaluatedOn };
}

describe('storage-state watchdog', () => {
  it('saves the cookies and the storage of the tabs that answer, leaving a stuck tab alone and naming it', async () => {
    const { session, files, hung, evaluatedOn } = await twoTabs();
    const saved = await session.bus.emit(SaveStorageStateEvent, { path: 'state.json' });
    expect(saved).toEqual({
      path: 'state.json',
      cookies_count: 1,
      origins_count: 1,
      databases_count: 0,
      skipped_target_ids: [hung.targetId],
    });
    expect(evaluatedOn(hung.targetId)).toBe(0);
    const file = JSON.parse(files.written.get('state.json') ?? '{}') as { origins: Array<{ origin: string }> };
    expect(file.origins.map((origin) => origin.origin)).toEqual(['https://a.test']);
  });

  it('loads into the tabs that answer only', async () => {
    const { session, files, healthy, hung, evaluatedOn } = await twoTabs();
    files.written.set(
      'in.json',
      JSON.stringify({
        cookies: [],
        origins: [{ origin: 'https://a.test', localStorage: [{ name: 'x', value: 'y' }] }],
      }),
    );
    const loaded = await session.bus.emit(LoadStorageStateEvent, { path: 'in.json' });
    expect(loaded?.skipped_target_ids).toEqual([hung.targetId]);
    expect(evaluatedOn(healthy.targetId)).toBe(1);
    expect(evaluatedOn(hung.targetId)).toBe(0);
  });

  it('refuses when no attached tab answers', async () => {
    const { session, healthy } = await twoTabs();
    session.conditions.set(healthy.targetId, stuck);
    await expect(session.bus.emit(SaveStorageStateEvent, { path: 'state.json' })).rejects.toMatchObject({
      code: 'NOT_ATTACHED',
    });
  });
});
