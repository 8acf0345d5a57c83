import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { MemoryStorage } from '../../../test/fakes/memory-storage';
import type { WebStorageRequest } from '../actions/in-page-api';
import { operate } from '../actions/in-page/web-storage';
import { WEB_STORAGE_LIST_CHARS, WebStorageEvent } from '../../protocol/actions/storage.actions';
import type { PayloadOf } from '../../protocol/define-event';
import { storageStateWatchdog } from './storage-state.watchdog';
import { cutValue, webStorageOrigin } from './tab-web-storage';

type Asked = Omit<PayloadOf<typeof WebStorageEvent>, 'target_id' | 'area'> & { area?: 'local' | 'session' };

/**
 * A tab on `url` whose page answers tabpilot's in-page webStorage call from storage areas in memory, by
 * the origin the document reports (`documentOrigin`: a sandboxed page reports 'null').
 */
async function tabOn(url: string, documentOrigin = new URL(url).origin) {
  const browser = new FakeBrowser();
  const page = browser.addPage(url);
  const { session } = await startedFakeSession({ browser, watchdogs: [storageStateWatchdog] });
  const areas = new Map<string, MemoryStorage>([
    [
      'https://a.test local',
      new MemoryStorage([
        ['token', 'x'.repeat(WEB_STORAGE_LIST_CHARS + 5)],
        ['theme', 'dark'],
      ]),
    ],
    ['https://a.test session', new MemoryStorage([['step', '2']])],
    ['https://other.test local', new MemoryStorage([['theme', 'light']], 50)],
  ]);
  const calls: Array<{ request: WebStorageRequest; ownSession: boolean }> = [];
  browser.responders.set('Page.createIsolatedWorld', () => ({ executionContextId: 7 }));
  browser.responders.set('Runtime.callFunctionOn', (params, sessionId) => {
    const args = Array.isArray(params['arguments']) ? params['arguments'] : [];
    const [name, json] = args.map((arg: { value?: unknown }) => String(arg.value));
    if (name !== 'webStorage') {
      return { result: { type: 'boolean', value: true } };
    }
    const [request] = JSON.parse(json ?? '[]') as [WebStorageRequest];
    calls.push({ request, ownSession: browser.sessionsOf(page.targetId).includes(sessionId ?? '') });
    const name_ = `${documentOrigin} ${request.area}`;
    const area = areas.get(name_) ?? new MemoryStorage([], 50);
    areas.set(name_, area);
    return { result: { type: 'object', value: operate(area, documentOrigin, request) } };
  });
  const emit = (payload: Asked) =>
    session.bus.emit(WebStorageEvent, WebStorageEvent.payloadSchema.parse({ target_id: page.targetId, ...payload }));
  return { areas, calls, emit };
}

describe('web_storage', () => {
  it("lists the top page's localStorage by key through the tab's own session, values cut at the bound", async () => {
    const { calls, emit } = await tabOn('https://a.test/app?x=1');
    expect(await emit({ op: 'list' })).toEqual({
      origin: 'https://a.test',
      entries: [
        { key: 'theme', value: 'dark', value_length: 4 },
        { key: 'token', value: `${'x'.repeat(WEB_STORAGE_LIST_CHARS)}…`, value_length: WEB_STORAGE_LIST_CHARS + 5 },
      ],
      total: 2,
      changed: 0,
    });
    expect(calls).toEqual([{ request: { area: 'local', op: 'list', key: '', value: '' }, ownSession: true }]);
    expect(await emit({ op: 'list', max_results: 1 })).toMatchObject({ entries: [{ key: 'theme' }], total: 2 });
  });

  it('gets one whole value, and answers no entry for a missing key', async () => {
    const { emit } = await tabOn('https://a.test/');
    expect(await emit({ op: 'get', key: 'token' })).toMatchObject({
      entries: [{ key: 'token', value: 'x'.repeat(WEB_STORAGE_LIST_CHARS + 5) }],
      total: 1,
      changed: 0,
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
    expect(areas.get('https://a.test session')?.getItem('step')).toBe('3');
    expect(areas.get('https://a.test local')?.getItem('step')).toBeNull();
    expect(await emit({ op: 'delete', key: 'theme' })).toMatchObject({
      entries: [{ key: 'theme', value: 'dark' }],
      changed: 1,
    });
    expect(await emit({ op: 'delete', key: 'theme' })).toMatchObject({ entries: [], changed: 0 });
    expect(await emit({ op: 'clear', area: 'session' })).toMatchObject({ entries: [], changed: 1 });
    expect(areas.get('https://a.test session')?.length).toBe(0);
    expect(areas.get('https://a.test local')?.length).toBe(1);
    expect(areas.get('https://other.test local')?.getItem('theme')).toBe('light');
  });

  it("reports a write the page's storage refused as INVALID_PARAMS naming value", async () => {
    const { emit } = await tabOn('https://other.test/');
    await expect(emit({ op: 'set', key: 'big', value: 'y'.repeat(51) })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^value: https:\/\/other\.test did not store it: .*exceeded the quota/),
    });
  });

  it('refuses a tab not on an http(s) page without calling into it', async () => {
    const { calls, emit } = await tabOn('about:blank', 'null');
    await expect(emit({ op: 'list' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^tab_id: the tab is on about:blank, which has no web storage/),
    });
    expect(calls).toEqual([]);
    for (const url of ['data:text/html,x', 'file:///etc/passwd', 'chrome://settings/', 'blob:https://a.test/1', '']) {
      expect(() => webStorageOrigin(url)).toThrow(/which has no web storage/);
    }
    expect(webStorageOrigin('http://localhost:8080/x?y')).toBe('http://localhost:8080');
  });

  it("refuses a page whose document runs with another origin than its URL's (a sandboxed page)", async () => {
    const { areas, emit } = await tabOn('https://a.test/', 'null');
    await expect(emit({ op: 'set', key: 'k', value: 'v' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^tab_id: the page at https:\/\/a\.test\/ runs with origin null/),
    });
    expect(areas.get('https://a.test local')?.getItem('k')).toBeNull();
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
