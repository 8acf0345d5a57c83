import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { CdpConnection } from '../../cdp/connection';
import { SessionManager } from '../../cdp/session-manager';
import { WORLD_NAME } from '../../dom/page-bridge';
import type { SavedDatabase } from '../actions/in-page-api';
import { silentLogger } from '../../shared/logger';
import { pollUntil, sleep } from '../../shared/time';
import { IndexedDbRestorer } from './indexed-db-restore';

const ORIGIN = 'http://a.test';
const ADD = 'Page.addScriptToEvaluateOnNewDocument';
const REMOVE = 'Page.removeScriptToEvaluateOnNewDocument';

async function restorerOnBlankPage() {
  const browser = new FakeBrowser();
  const page = browser.addPage('about:blank');
  const targets = new SessionManager({ attachTimeoutMs: 1000 });
  await targets.start(new CdpConnection(browser.transport));
  let added = 0;
  browser.responders.set(ADD, () => ({ identifier: `script-${++added}` }));
  const navigated = (url: string) =>
    browser.emitOn(page, 'Page.frameNavigated', {
      frame: { id: page.targetId, loaderId: 'L', url, securityOrigin: '', mimeType: 'text/html' },
      type: 'Navigation',
    });
  return { browser, restorer: new IndexedDbRestorer(targets, silentLogger), navigated };
}

const removed = (browser: FakeBrowser) =>
  browser.sent.filter((message) => message.method === REMOVE).map((message) => message.params);

const removedSoon = (browser: FakeBrowser) =>
  pollUntil(() => (removed(browser).length > 0 ? removed(browser) : undefined), {
    timeoutMs: 1000,
    onTimeout: () => new Error('the restore script was never removed'),
  });

const database: SavedDatabase = { name: 'app', version: 1, stores: [] };

describe('IndexedDbRestorer', () => {
  it('takes the start-of-document script away once a document of the origin commits', async () => {
    const { browser, restorer, navigated } = await restorerOnBlankPage();
    expect(await restorer.restore(ORIGIN, [database], [])).toBe('pending');
    await pollUntil(() => (browser.sentMethods().includes(ADD) ? true : undefined), {
      timeoutMs: 1000,
      onTimeout: () => new Error('no restore script was added'),
    });
    // In the page bridge's world: one tabpilot world per frame.
    const added = browser.sent.find((message) => message.method === ADD);
    expect(added?.params).toMatchObject({ worldName: WORLD_NAME });
    navigated('http://other.test/');
    expect(removed(browser)).toEqual([]);
    navigated(`${ORIGIN}/page.html`);
    expect(await removedSoon(browser)).toEqual([{ identifier: 'script-1' }]);
  });

  it('takes the script away when Chromium answers its addition only after the document committed', async () => {
    const { browser, restorer, navigated } = await restorerOnBlankPage();
    browser.hold(ADD);
    expect(await restorer.restore(ORIGIN, [database], [])).toBe('pending');
    navigated(`${ORIGIN}/page.html`);
    await sleep(20);
    expect(removed(browser)).toEqual([]);
    browser.release(ADD);
    expect(await removedSoon(browser)).toEqual([{ identifier: 'script-1' }]);
  });
});
