import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

export interface StorageStateContractHooks {
  /** Where a file the actions name `name` is on disk. */
  fileOf(name: string): string;
  /** Loads a file Playwright wrote: Node by path (copied under output_dir), the extension by content. */
  load(driver: Driver, file: string): Promise<Record<string, unknown>>;
  /** A load of something that is not valid JSON, or undefined where the transport cannot be given one. */
  loadInvalidJson(driver: Driver): Promise<Record<string, unknown> | undefined>;
  /** Tests only this transport has (the extension's side panel), in the same browser. */
  more?: (env: StorageStateEnv) => void;
}

/** What the contract's own tests use, for a transport's further tests. */
export interface StorageStateEnv {
  driver(): Driver;
  server: FixtureServer;
  /** Navigates the tab to a check page and reads what it saw: cookies (server, fetch, page) and localStorage. */
  seen(url: string): Promise<{ server: string; fetched: string; page: string; greeting: string | null }>;
  /** Navigates the tab to the page that sets a cookie and localStorage (greeting "hello from <who>"). */
  set(who: string): Promise<void>;
}

const PLAYWRIGHT_LAUNCH = { executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] };

function addStatePages(server: FixtureServer): void {
  server.route('/state/set.html', (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html',
      'set-cookie': 'sid=from-server; Path=/; HttpOnly; SameSite=Strict',
      'cache-control': 'no-store',
    });
    res.end(`<!doctype html><title>setting</title><script>
document.cookie = 'theme=dark; path=/; max-age=3600';
localStorage.setItem('greeting', 'hello from ' + location.search.slice(1));
// document.cookie hands the cookie to the browser without waiting for it to be stored; a read through
// cookieStore goes the same way after it, so its answer means the browser holds the cookie.
cookieStore.get('theme').then(() => { document.title = 'set'; });
</script>`);
  });
  server.route('/state/blank.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end('<!doctype html><title>blank</title>');
  });
  // A sandboxed document runs with an opaque origin whatever its URL.
  server.route('/state/sandboxed.html', (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html',
      'content-security-policy': 'sandbox allow-scripts',
      'cache-control': 'no-store',
    });
    res.end('<!doctype html><title>sandboxed</title>');
  });
  server.route('/state/echo', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(req.headers.cookie ?? '');
  });
  server.route('/state/check.html', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>check</title><p id="server">${req.headers.cookie ?? ''}</p><script>
fetch('/state/echo').then((response) => response.text()).then((fetched) => {
  document.title = JSON.stringify({ server: document.getElementById('server').textContent, fetched, page: document.cookie, greeting: localStorage.getItem('greeting') });
});
</script>`);
  });
  // IndexedDB with what a real app keeps: an in-line keyed store with an index, and out-of-line keys
  // (an array key) holding values JSON cannot carry (a Date, a Map of bytes).
  server.route('/state/idb-set.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>setting</title><script>
const who = location.search.slice(1);
const open = indexedDB.open('app', 3);
open.onupgradeneeded = () => {
  const tokens = open.result.createObjectStore('tokens', { keyPath: 'id' });
  tokens.createIndex('by-kind', 'kind', { unique: false });
  open.result.createObjectStore('kv');
};
open.onsuccess = () => {
  const db = open.result;
  const tx = db.transaction(['tokens', 'kv'], 'readwrite');
  tx.objectStore('tokens').put({ id: 1, kind: 'auth', token: 't-' + who, expires: new Date(Date.UTC(2030, 0, 1)) });
  tx.objectStore('kv').put(new Map([['bytes', new Uint8Array([1, 2, 3])]]), ['a', 1]);
  tx.objectStore('kv').put({ n: 1 }, 'plain');
  tx.oncomplete = () => { db.close(); document.title = 'set'; };
};
</script>`);
  });
  server.route('/state/idb-write.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>writing</title><script>
const open = indexedDB.open('app');
open.onsuccess = () => {
  const db = open.result;
  const tx = db.transaction('tokens', 'readwrite');
  tx.objectStore('tokens').put({ id: 1, kind: 'auth', token: 't-page', expires: new Date(0) });
  tx.oncomplete = () => { db.close(); document.title = 'written'; };
};
</script>`);
  });
  server.route('/state/idb-check.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>check</title><script>
const report = (value) => { document.title = JSON.stringify(value); };
{
  const open = indexedDB.open('app');
  // No such database: leave none behind.
  open.onupgradeneeded = () => { open.transaction.abort(); report({ missing: true }); };
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction(['tokens', 'kv'], 'readonly');
    const out = { version: db.version };
    tx.objectStore('tokens').index('by-kind').get('auth').onsuccess = (e) => {
      const row = e.target.result;
      out.token = row.token;
      out.expires = row.expires instanceof Date ? row.expires.toISOString() : String(row.expires);
    };
    tx.objectStore('kv').get(['a', 1]).onsuccess = (e) => {
      const map = e.target.result;
      out.bytes = map instanceof Map ? Array.from(map.get('bytes')) : null;
    };
    tx.objectStore('kv').get('plain').onsuccess = (e) => { out.plain = e.target.result; };
    tx.oncomplete = () => { db.close(); report(out); };
  };
}
</script>`);
  });
  server.route('/state/idb-blob.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>setting</title><script>
const open = indexedDB.open('files', 1);
open.onupgradeneeded = () => open.result.createObjectStore('avatars');
open.onsuccess = () => {
  const db = open.result;
  const tx = db.transaction('avatars', 'readwrite');
  tx.objectStore('avatars').put(new Blob(['png']), 'me');
  tx.oncomplete = () => { db.close(); document.title = 'set'; };
};
</script>`);
  });
}

/**
 * Storage state in Playwright's format, the same over both transports, proven both ways: a file tabpilot
 * saved opens in Playwright's browser.newContext({ storageState }) with the cookies (httpOnly ones
 * included) and localStorage the page set; a file Playwright saved loads into tabpilot and the page sees
 * them; a malformed file is refused whole, naming it, and loads nothing.
 */
export function defineStorageStateContract(
  name: string,
  start: () => Promise<Driver>,
  hooks: StorageStateContractHooks,
): void {
  describe(`storage state over ${name}`, () => {
    const server = new FixtureServer();
    addStatePages(server);
    let driver: Driver;
    let tab: string;

    const seen = async (
      url: string,
    ): Promise<{ server: string; fetched: string; page: string; greeting: string | null }> => {
      await driver.ok('navigate', { url });
      const title = await pollUntil(
        async () => {
          const value = await driver.evaluateInTab<string>(tab, 'document.title');
          return value.startsWith('{') ? value : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error('the check page did not report') },
      );
      return JSON.parse(title) as { server: string; fetched: string; page: string; greeting: string | null };
    };

    const set = async (who: string): Promise<void> => {
      await driver.ok('navigate', { url: server.url(`/state/set.html?${who}`) });
      await pollUntil(async () => ((await driver.evaluateInTab(tab, 'document.title')) === 'set' ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 50,
        onTimeout: () => new Error('the page did not set its state'),
      });
    };

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tab = await driver.openTab('about:blank');
    });
    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    it("saves a file that Playwright's newContext({ storageState }) opens with the cookies and localStorage", async () => {
      await set('tabpilot');
      const saved = await driver.ok<{ path: string; cookies_count: number; origins_count: number }>(
        'save_storage_state',
        {
          path: 'states/tabpilot.json',
        },
      );
      expect(saved.cookies_count).toBeGreaterThanOrEqual(2);
      expect(saved.origins_count).toBe(1);
      const file = hooks.fileOf('states/tabpilot.json');
      const state = await pollUntil(
        () => {
          try {
            return JSON.parse(readFileSync(file, 'utf8')) as { cookies: Array<Record<string, unknown>> };
          } catch {
            // Not written yet (the extension's download completes a moment later).
            return undefined;
          }
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`${file} was not written`) },
      );
      expect(state.cookies.find((cookie) => cookie['name'] === 'sid')).toMatchObject({
        value: 'from-server',
        httpOnly: true,
        sameSite: 'Strict',
        expires: -1,
        path: '/',
      });
      const browser = await chromium.launch(PLAYWRIGHT_LAUNCH);
      try {
        const context = await browser.newContext({ storageState: file });
        const page = await context.newPage();
        await page.goto(server.url('/state/check.html'));
        // The page reports once its fetch answers, which can be after its load.
        await page.waitForFunction(() => document.title.startsWith('{'));
        const report = JSON.parse(await page.title()) as { server: string; page: string; greeting: string };
        expect(report.server).toContain('sid=from-server');
        expect(report.server).toContain('theme=dark');
        expect(report.page).not.toContain('sid=');
        expect(report.greeting).toBe('hello from tabpilot');
      } finally {
        await browser.close();
      }
    });

    it('loads a file Playwright saved, and the page sees its cookies and localStorage', async () => {
      const browser = await chromium.launch(PLAYWRIGHT_LAUNCH);
      const file = hooks.fileOf('states/from-playwright.json');
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        // The other site, so nothing tabpilot set above could pass for what Playwright saved.
        await page.goto(server.crossUrl('/state/set.html?playwright'));
        await page.waitForFunction(() => document.title === 'set');
        await context.storageState({ path: file });
      } finally {
        await browser.close();
      }
      expect(await seen(server.crossUrl('/state/check.html'))).toMatchObject({ fetched: '', greeting: null });
      const loaded = await hooks.load(driver, file);
      expect(loaded).toMatchObject({ cookies_count: 2, origins_count: 1 });
      const report = await seen(server.crossUrl('/state/check.html'));
      // The httpOnly SameSite=Strict cookie, as the page's own same-site request carries it (a navigation
      // the extension starts through chrome.debugger does not count as same-site, so Chrome leaves Strict
      // cookies off that one request).
      expect(report.fetched).toContain('sid=from-server');
      expect(report.page).toBe('theme=dark');
      expect(report.greeting).toBe('hello from playwright');
    });

    it('refuses a malformed state whole, naming it, and loads nothing of it', async () => {
      const bad = await driver.send('load_storage_state', {
        state: {
          cookies: [
            {
              name: 'half',
              value: 'loaded',
              domain: 'localhost',
              path: '/',
              expires: -1,
              httpOnly: false,
              secure: false,
              sameSite: 'Lax',
            },
          ],
          origins: [{ origin: 'http://localhost', localStorage: [{ name: 'x' }] }],
        },
      });
      expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      expect(bad.ok ? '' : bad.error.message).toMatch(/^state: .*origins\.0\.localStorage\.0\.value/);
      expect((await seen(server.url('/state/check.html'))).fetched).not.toContain('half=');
      const invalid = await hooks.loadInvalidJson(driver);
      if (invalid !== undefined) {
        expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
        expect(String((invalid['error'] as { message: string }).message)).toMatch(/broken\.json is not valid JSON/);
      }
      const outside = await driver.send('save_storage_state', { path: '../outside.json' });
      expect(outside).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      expect(outside.ok ? '' : outside.error.message).toMatch(/^path: /);
    });

    /** Navigates the tab to a page and waits for the title it sets when its script is done. */
    const visit = async (url: string, title: (value: string) => boolean): Promise<string> => {
      await driver.ok('navigate', { url });
      return pollUntil(
        async () => {
          const value = await driver.evaluateInTab<string>(tab, 'document.title');
          return title(value) ? value : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error(`${url} did not finish its script`) },
      );
    };
    const databaseSeen = async (url: string): Promise<Record<string, unknown>> =>
      JSON.parse(await visit(url, (value) => value.startsWith('{'))) as Record<string, unknown>;
    const restored = (who: string) => ({
      version: 3,
      token: `t-${who}`,
      expires: '2030-01-01T00:00:00.000Z',
      bytes: [1, 2, 3],
      plain: { n: 1 },
    });

    it("saves IndexedDB when asked, in the form Playwright's newContext({ storageState }) restores", async () => {
      await visit(server.url('/state/idb-set.html?tabpilot'), (value) => value === 'set');
      const without = await driver.ok<{ databases_count: number }>('save_storage_state', {
        path: 'states/no-databases.json',
      });
      expect(without.databases_count).toBe(0);
      const saved = await driver.ok<{ databases_count: number }>('save_storage_state', {
        path: 'states/databases.json',
        indexed_db: true,
      });
      expect(saved.databases_count).toBe(1);
      const written = (name: string) =>
        pollUntil(
          () => {
            try {
              return JSON.parse(readFileSync(hooks.fileOf(name), 'utf8')) as {
                origins: Array<{ origin: string; indexedDB?: Array<{ name: string; version: number }> }>;
              };
            } catch {
              // Not written yet (the extension's download completes a moment later).
              return undefined;
            }
          },
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`${name} was not written`) },
        );
      expect(
        (await written('states/no-databases.json')).origins.every((origin) => origin.indexedDB === undefined),
      ).toBe(true);
      const file = await written('states/databases.json');
      expect(file.origins.find((origin) => origin.origin === new URL(server.url('/')).origin)?.indexedDB).toMatchObject(
        [{ name: 'app', version: 3 }],
      );
      const browser = await chromium.launch(PLAYWRIGHT_LAUNCH);
      try {
        const context = await browser.newContext({ storageState: hooks.fileOf('states/databases.json') });
        const page = await context.newPage();
        await page.goto(server.url('/state/idb-check.html'));
        await page.waitForFunction(() => document.title.startsWith('{'));
        expect(JSON.parse(await page.title())).toEqual(restored('tabpilot'));
      } finally {
        await browser.close();
      }
    });

    it('loads IndexedDB Playwright saved: into an origin as its first page opens, then into an open page at once', async () => {
      const file = hooks.fileOf('states/databases-from-playwright.json');
      const browser = await chromium.launch(PLAYWRIGHT_LAUNCH);
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(server.crossUrl('/state/idb-set.html?playwright'));
        await page.waitForFunction(() => document.title === 'set');
        await context.storageState({ path: file, indexedDB: true });
      } finally {
        await browser.close();
      }
      await driver.ok('navigate', { url: 'about:blank' });
      const loaded = await hooks.load(driver, file);
      expect(loaded).toMatchObject({ databases_count: 1, pending_origins: [new URL(server.crossUrl('/')).origin] });
      expect(await databaseSeen(server.crossUrl('/state/idb-check.html'))).toEqual(restored('playwright'));
      // The restore ran once: what the page writes after it stays.
      await visit(server.crossUrl('/state/idb-write.html'), (value) => value === 'written');
      expect(await databaseSeen(server.crossUrl('/state/idb-check.html'))).toMatchObject({ token: 't-page' });
      // With a page of the origin open, the databases are replaced at once.
      const again = await hooks.load(driver, file);
      expect(again).toMatchObject({ databases_count: 1, pending_origins: [] });
      expect(await databaseSeen(server.crossUrl('/state/idb-check.html'))).toEqual(restored('playwright'));
    });

    it('refuses to save a Blob in IndexedDB rather than write it empty, naming where it is', async () => {
      await visit(server.url('/state/idb-blob.html'), (value) => value === 'set');
      const refused = await driver.send('save_storage_state', { path: 'states/blob.json', indexed_db: true });
      expect(refused).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
      expect(refused.ok ? '' : refused.error.message).toMatch(/database files: store avatars holds a Blob/);
      await driver.evaluateInTab(tab, `new Promise((done) => { indexedDB.deleteDatabase('files').onsuccess = done; })`);
    });

    it("lists, sets and deletes only the cookies of the tab's own page", async () => {
      interface Listed {
        cookies: Array<{ name: string; value: string; domain: string; http_only: boolean; expires: number | null }>;
        changed: number;
      }
      // A cookie of the other site (127.0.0.1), which the page on localhost is not sent.
      await driver.ok('navigate', { url: server.crossUrl('/state/echo') });
      await driver.evaluateInTab(tab, `document.cookie = 'elsewhere=1; path=/'`);
      await set('cookies');
      const listed = await driver.ok<Listed>('cookies', { op: 'list' });
      expect(listed.cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({
        value: 'from-server',
        domain: 'localhost',
        http_only: true,
        expires: null,
      });
      expect(listed.cookies.find((cookie) => cookie.name === 'theme')).toMatchObject({
        value: 'dark',
        http_only: false,
      });
      expect(listed.cookies.map((cookie) => cookie.name)).not.toContain('elsewhere');
      expect(listed.cookies.every((cookie) => cookie.domain === 'localhost')).toBe(true);

      const planted = await driver.ok<Listed>('cookies', { op: 'set', name: 'planted', value: 'yes' });
      expect(planted).toMatchObject({ changed: 1, cookies: [{ name: 'planted', value: 'yes', domain: 'localhost' }] });
      expect(await driver.evaluateInTab<string>(tab, 'document.cookie')).toContain('planted=yes');

      const deleted = await driver.ok<Listed>('cookies', { op: 'delete', name: 'theme' });
      expect(deleted).toMatchObject({ changed: 1, cookies: [{ name: 'theme', value: 'dark' }] });
      expect(await driver.evaluateInTab<string>(tab, 'document.cookie')).not.toContain('theme=');
      expect((await driver.ok<Listed>('cookies', { op: 'list', name: 'theme' })).cookies).toEqual([]);
      expect(await driver.ok<Listed>('cookies', { op: 'delete', name: 'planted' })).toMatchObject({ changed: 1 });

      // The other site's cookie is still there, for its own page (and goes, so later tests see none).
      await driver.ok('navigate', { url: server.crossUrl('/state/echo') });
      expect(await driver.ok<Listed>('cookies', { op: 'delete', name: 'elsewhere' })).toMatchObject({
        changed: 1,
        cookies: [{ name: 'elsewhere', domain: '127.0.0.1' }],
      });

      await driver.ok('navigate', { url: 'about:blank' });
      const blank = await driver.send('cookies', { op: 'list' });
      expect(blank).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      expect(blank.ok ? '' : blank.error.message).toMatch(/^tab_id: the tab is on about:blank/);
    });

    it("lists, gets, sets, deletes and clears only the web storage of the tab's own page", async () => {
      interface Stored {
        origin: string;
        entries: Array<{ key: string; value: string; value_length: number }>;
        total: number;
        changed: number;
      }
      const origin = new URL(server.url('/')).origin;
      const page = (expression: string): Promise<unknown> => driver.evaluateInTab(tab, expression);
      // The other site's storage (127.0.0.1), which the page on localhost cannot see.
      await driver.ok('navigate', { url: server.crossUrl('/state/blank.html') });
      await page(`localStorage.setItem('elsewhere', '1')`);
      await driver.ok('navigate', { url: server.url('/state/blank.html') });
      await page(
        `localStorage.clear(); sessionStorage.clear(); localStorage.setItem('by-page', 'hello'); localStorage.setItem('long', 'x'.repeat(1500)); sessionStorage.setItem('step', '2')`,
      );

      // Set by the page, listed by the action (a long value cut at 1,000 characters, whole in a get).
      expect(await driver.ok<Stored>('web_storage', { op: 'list' })).toEqual({
        origin,
        entries: [
          { key: 'by-page', value: 'hello', value_length: 5 },
          { key: 'long', value: `${'x'.repeat(1_000)}…`, value_length: 1_500 },
        ],
        total: 2,
        changed: 0,
      });
      expect((await driver.ok<Stored>('web_storage', { op: 'get', key: 'long' })).entries[0]?.value).toBe(
        'x'.repeat(1_500),
      );
      expect(await driver.ok<Stored>('web_storage', { op: 'get', key: 'missing' })).toEqual({
        origin,
        entries: [],
        total: 0,
        changed: 0,
      });

      // Set by the action, read back by the page's own localStorage, and not in its sessionStorage.
      expect(await driver.ok<Stored>('web_storage', { op: 'set', key: 'by-client', value: 'dark ☾' })).toEqual({
        origin,
        entries: [{ key: 'by-client', value: 'dark ☾', value_length: 6 }],
        total: 1,
        changed: 1,
      });
      expect(await page(`localStorage.getItem('by-client')`)).toBe('dark ☾');
      expect(await page(`sessionStorage.getItem('by-client')`)).toBeNull();

      // sessionStorage is the tab's own, apart from localStorage.
      expect(await driver.ok<Stored>('web_storage', { op: 'list', area: 'session' })).toMatchObject({
        entries: [{ key: 'step', value: '2' }],
        total: 1,
      });
      await driver.ok('web_storage', { op: 'set', area: 'session', key: 'step', value: '3' });
      expect(await page(`sessionStorage.getItem('step')`)).toBe('3');
      expect(await page(`localStorage.getItem('step')`)).toBeNull();

      expect(await driver.ok<Stored>('web_storage', { op: 'delete', key: 'by-page' })).toMatchObject({
        changed: 1,
        entries: [{ key: 'by-page', value: 'hello' }],
      });
      expect(await page(`localStorage.getItem('by-page')`)).toBeNull();
      expect(await driver.ok<Stored>('web_storage', { op: 'delete', key: 'by-page' })).toMatchObject({
        changed: 0,
        entries: [],
      });
      expect(await driver.ok<Stored>('web_storage', { op: 'clear', area: 'session' })).toMatchObject({ changed: 1 });
      expect(await page('sessionStorage.length')).toBe(0);
      expect(await page('localStorage.length')).toBe(2);

      // A value that is a configured secret reaches the client as its placeholder only.
      const secret = 'Storage-Secret-4711';
      await driver.setConfig({ sensitive_data: { localhost: { token: secret } } });
      try {
        await page(`localStorage.setItem('auth', ${JSON.stringify(secret)})`);
        const masked = await driver.send('web_storage', { op: 'get', key: 'auth' });
        expect(JSON.stringify(masked)).not.toContain(secret);
        expect(masked).toMatchObject({
          ok: true,
          result: { entries: [{ key: 'auth', value: '<secret>token</secret>' }] },
        });
      } finally {
        await driver.setConfig({ sensitive_data: {} });
      }

      expect(await driver.ok<Stored>('web_storage', { op: 'clear' })).toMatchObject({ changed: 3 });
      expect(await page('localStorage.length')).toBe(0);

      // The other site's storage is still there, for its own page (and goes, so later tests see none).
      await driver.ok('navigate', { url: server.crossUrl('/state/blank.html') });
      expect(await page(`localStorage.getItem('elsewhere')`)).toBe('1');
      expect(await driver.ok<Stored>('web_storage', { op: 'delete', key: 'elsewhere' })).toMatchObject({
        origin: new URL(server.crossUrl('/')).origin,
        changed: 1,
      });

      await driver.ok('navigate', { url: server.url('/state/sandboxed.html') });
      const sandboxed = await driver.send('web_storage', { op: 'set', key: 'k', value: 'v' });
      expect(sandboxed).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      expect(sandboxed.ok ? '' : sandboxed.error.message).toMatch(/^tab_id: the page at .* runs with origin null/);

      await driver.ok('navigate', { url: 'about:blank' });
      const blank = await driver.send('web_storage', { op: 'list' });
      expect(blank).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      expect(blank.ok ? '' : blank.error.message).toMatch(
        /^tab_id: the tab is on about:blank, which has no web storage/,
      );
    });

    hooks.more?.({ driver: () => driver, server, seen, set });
  });
}
