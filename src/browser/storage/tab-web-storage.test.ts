import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { WEB_STORAGE_LIST_CHARS, WebStorageEvent } from '../../protocol/actions/content.actions';
import { storageStateWatchdog } from '../watchdogs/storage-state.watchdog';
import { cutValue, webStorageOrigin } from './tab-web-storage';

/** Each origin's areas behind the fake browser, keyed `${origin} ${local|session}`. */
async function tabOn(url: string) {
  const browser = new FakeBrowser();
  const page = browser.addPage(url);
  const { session } = await startedFakeSession({ browser, watchdogs: [storageStateWatchdog] });
  const areas = new Map<string, Map<string, string>>([
    [
      'https://a.test local',
      new Map([
        ['theme', 'dark'],
        ['token', 'x'.repeat(WEB_STORAGE_LIST_CHARS + 5)],
      ]),
    ],
    ['https://a.test session', new Map([['step', '2']])],
    ['https://other.test local', new Map([['theme', 'light']])],
  ]);
  const areaOf = (params: Record<string, unknown>): Map<string, string> => {
    const { securityOrigin, isLocalStorage } = params['storageId'] as {
      securityOrigin: string;
      isLocalStorage: boolean;
    };
    const name = `${securityOrigin} ${isLocalStorage ? 'local' : 'session'}`;
    const area = areas.get(name) ?? new Map<string, string>();
    areas.set(name, area);
    return area;
  };
  browser.responders.set('DOMStorage.getDOMStorageItems', (params) => ({ entries: [...areaOf(params)] }));
  browser.responders.set('DOMStorage.setDOMStorageItem', (params) => {
    if (String(params['value']).length > 50) {
      throw new Error('QuotaExceededError');
    }
    areaOf(params).set(String(params['key']), String(params['value']));
    return {};
  });
  browser.responders.set('DOMStorage.removeDOMStorageItem', (params) => {
    areaOf(params).delete(String(params['key']));
    return {};
  });
  browser.responders.set('DOMStorage.clear', (params) => {
    areaOf(params).clear();
    return {};
  });
  const sent = (prefix: string) =>
    browser.sent
      .filter((message) => message.method.startsWith(prefix))
      .map((message) => ({
        method: message.method,
        storageId: (message.params as Record<string, unknown> | undefined)?.['storageId'],
        ownSession: browser.sessionsOf(page.targetId).includes(message.sessionId ?? ''),
      }));
  const emit = (payload: Omit<Parameters<typeof WebStorageEvent.payloadSchema.parse>[0], 'target_id'>) =>
    session.bus.emit(WebStorageEvent, WebStorageEvent.payloadSchema.parse({ target_id: page.targetId, ...payload }));
  return { areas, sent, emit };
}

describe('web_storage', () => {
  it("lists the top page's origin's localStorage by key on the tab's own session, values cut at the bound", async () => {
    const { sent, emit } = await tabOn('https://a.test/app?x=1');
    const listed = await emit({ op: 'list' });
    expect(listed).toEqual({
      origin: 'https://a.test',
      entries: [
        { key: 'theme', value: 'dark', value_length: 4 },
        { key: 'token', value: `${'x'.repeat(WEB_STORAGE_LIST_CHARS)}…`, value_length: WEB_STORAGE_LIST_CHARS + 5 },
      ],
      total: 2,
      changed: 0,
    });
    expect(sent('DOMStorage.')).toEqual([
      {
        method: 'DOMStorage.getDOMStorageItems',
        storageId: { securityOrigin: 'https://a.test', isLocalStorage: true },
        ownSession: true,
      },
    ]);
    expect(await emit({ op: 'list', max_results: 1 })).toMatchObject({ entries: [{ key: 'theme' }], total: 2 });
  });

  it('gets one whole value, and answers no entry for a missing key', async () => {
    const { emit } = await tabOn('https://a.test/');
    expect(await emit({ op: 'get', key: 'token' })).toMatchObject({
      entries: [{ key: 'token', value: 'x'.repeat(WEB_STORAGE_LIST_CHARS + 5) }],
    });
    expect(await emit({ op: 'get', key: 'missing' })).toEqual({
      origin: 'https://a.test',
      entries: [],
      total: 0,
      changed: 0,
    });
  });

  it('sets, deletes and clears only the chosen area of the page origin', async () => {
    const { areas, emit } = await tabOn('https://a.test/');
    expect(await emit({ op: 'set', area: 'session', key: 'step', value: '3' })).toMatchObject({
      entries: [{ key: 'step', value: '3' }],
      changed: 1,
    });
    expect(areas.get('https://a.test session')?.get('step')).toBe('3');
    expect(areas.get('https://a.test local')?.has('step')).toBe(false);
    expect(await emit({ op: 'delete', key: 'theme' })).toMatchObject({
      entries: [{ key: 'theme', value: 'dark' }],
      changed: 1,
    });
    expect(await emit({ op: 'delete', key: 'theme' })).toMatchObject({ entries: [], changed: 0 });
    expect(await emit({ op: 'clear', area: 'session' })).toMatchObject({ entries: [], changed: 1 });
    expect(areas.get('https://a.test session')?.size).toBe(0);
    expect(areas.get('https://a.test local')?.size).toBe(1);
    expect(areas.get('https://other.test local')?.get('theme')).toBe('light');
  });

  it("reports a write the page's storage refused as INVALID_PARAMS naming value", async () => {
    const { emit } = await tabOn('https://a.test/');
    await expect(emit({ op: 'set', key: 'big', value: 'y'.repeat(51) })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^value: https:\/\/a\.test did not store it: QuotaExceededError/),
    });
  });

  it('refuses a tab not on an http(s) page, asking the browser for no storage', async () => {
    const { sent, emit } = await tabOn('about:blank');
    await expect(emit({ op: 'list' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^tab_id: the tab is on about:blank, which has no web storage/),
    });
    expect(sent('DOMStorage.')).toEqual([]);
    for (const url of ['data:text/html,x', 'file:///etc/passwd', 'chrome://settings/', 'blob:https://a.test/1', '']) {
      expect(() => webStorageOrigin(url)).toThrow(/which has no web storage/);
    }
    expect(webStorageOrigin('http://localhost:8080/x?y')).toBe('http://localhost:8080');
  });

  it('cuts a value at the bound, never inside a surrogate pair', () => {
    expect(cutValue('abc', 3)).toBe('abc');
    expect(cutValue('abcd', 3)).toBe('abc…');
    expect(cutValue('ab😀', 3)).toBe('ab…');
  });

  it.each([
    [{ op: 'get' }, 'key'],
    [{ op: 'set', key: 'k' }, 'value'],
    [{ op: 'set', value: 'v' }, 'key'],
    [{ op: 'delete' }, 'key'],
    [{ op: 'delete', key: 'k', value: 'v' }, 'value'],
    [{ op: 'list', key: 'k' }, 'key'],
    [{ op: 'get', key: 'k', max_results: 5 }, 'max_results'],
    [{ op: 'clear', key: 'k' }, 'key'],
    [{ op: 'list', area: 'indexeddb' }, 'area'],
    [{ op: 'list', origin: 'https://other.test' }, 'origin'],
    [{ op: 'list', max_results: 0 }, 'max_results'],
    [{ op: 'peek' }, 'op'],
  ])('refuses %j naming %s', (payload, field) => {
    const parsed = WebStorageEvent.payloadSchema.safeParse({ target_id: 'T', ...payload });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(field);
  });

  it('accepts each op with what it takes, localStorage by default', () => {
    for (const payload of [
      { op: 'list' },
      { op: 'list', area: 'session', max_results: 1_000 },
      { op: 'get', key: '' },
      { op: 'set', key: 'k', value: '' },
      { op: 'delete', key: 'k', area: 'local' },
      { op: 'clear', area: 'session' },
    ]) {
      expect(WebStorageEvent.payloadSchema.safeParse({ target_id: 'T', ...payload }).success).toBe(true);
    }
    expect(WebStorageEvent.payloadSchema.parse({ target_id: 'T', op: 'list' }).area).toBe('local');
  });
});
