import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { CookiesEvent } from '../../protocol/actions/storage.actions';
import { storageStateWatchdog } from './storage-state.watchdog';
import { cookieOrigin } from './tab-cookies';

interface JarCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
}

/** A profile's cookie jar behind the fake browser: two sites, of which the tab is on one. */
async function tabOn(url: string) {
  const browser = new FakeBrowser();
  const page = browser.addPage(url);
  const other = browser.addPage('https://other.test/');
  const { session } = await startedFakeSession({ browser, watchdogs: [storageStateWatchdog] });
  const jar: JarCookie[] = [
    { name: 'sid', value: 'mine', domain: 'a.test', path: '/' },
    { name: 'sid', value: 'theirs', domain: 'other.test', path: '/' },
  ];
  const hostOf = (params: Record<string, unknown>, field: string): string => {
    const value = params[field];
    const first = Array.isArray(value) ? String(value[0]) : String(value);
    return new URL(first).hostname;
  };
  const cdp = (cookie: JarCookie) => ({
    ...cookie,
    expires: -1,
    size: 1,
    httpOnly: false,
    secure: false,
    session: true,
  });
  browser.responders.set('Network.getCookies', (params) => ({
    cookies: jar.filter((cookie) => cookie.domain === hostOf(params, 'urls')).map(cdp),
  }));
  browser.responders.set('Network.setCookie', (params) => {
    jar.push({
      name: String(params['name']),
      value: String(params['value']),
      domain: hostOf(params, 'url'),
      path: String(params['path']),
    });
    return { success: true };
  });
  browser.responders.set('Network.deleteCookies', (params) => {
    const host = hostOf(params, 'url');
    jar.splice(0, jar.length, ...jar.filter((cookie) => !(cookie.name === params['name'] && cookie.domain === host)));
    return {};
  });
  const sentOn = (method: string) =>
    browser.sent
      .filter((message) => message.method === method)
      .map((message) => ({
        params: message.params,
        ownSession: browser.sessionsOf(page.targetId).includes(message.sessionId ?? ''),
      }));
  return { session, page, other, jar, sentOn };
}

describe('cookies', () => {
  it("lists only what the tab's page URL is sent, asked on the tab's own session", async () => {
    const { session, page, sentOn } = await tabOn('https://a.test/app?x=1');
    const listed = await session.bus.emit(CookiesEvent, { target_id: page.targetId, op: 'list' });
    expect(listed).toEqual({
      cookies: [
        {
          name: 'sid',
          value: 'mine',
          domain: 'a.test',
          path: '/',
          expires: null,
          http_only: false,
          secure: false,
          same_site: null,
        },
      ],
      changed: 0,
    });
    expect(sentOn('Network.getCookies')).toEqual([{ params: { urls: ['https://a.test/app?x=1'] }, ownSession: true }]);
    expect(sentOn('Storage.getCookies')).toEqual([]);
  });

  it("sets a cookie only for the page's own origin, naming no domain", async () => {
    const { session, page, jar, sentOn } = await tabOn('https://a.test/app');
    const set = await session.bus.emit(CookiesEvent, {
      target_id: page.targetId,
      op: 'set',
      name: 'theme',
      value: 'dark',
      expires: 2_000_000_000,
    });
    expect(set).toMatchObject({ changed: 1, cookies: [{ name: 'theme', value: 'dark', domain: 'a.test', path: '/' }] });
    const [sent] = sentOn('Network.setCookie');
    expect(sent).toEqual({
      params: { name: 'theme', value: 'dark', url: 'https://a.test/', path: '/', expires: 2_000_000_000 },
      ownSession: true,
    });
    expect(jar.filter((cookie) => cookie.name === 'theme').map((cookie) => cookie.domain)).toEqual(['a.test']);
  });

  it("deletes by name what the page is sent, leaving another site's cookie of that name", async () => {
    const { session, page, jar, sentOn } = await tabOn('https://a.test/app');
    const deleted = await session.bus.emit(CookiesEvent, { target_id: page.targetId, op: 'delete', name: 'sid' });
    expect(deleted).toMatchObject({ changed: 1, cookies: [{ name: 'sid', value: 'mine' }] });
    expect(sentOn('Network.deleteCookies')[0]?.params).toEqual({ name: 'sid', url: 'https://a.test/app' });
    expect(jar).toEqual([{ name: 'sid', value: 'theirs', domain: 'other.test', path: '/' }]);
  });

  it('refuses a tab that is not on an http(s) page, asking the browser for no cookie', async () => {
    const { session, page, sentOn } = await tabOn('about:blank');
    await expect(session.bus.emit(CookiesEvent, { target_id: page.targetId, op: 'list' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^tab_id: the tab is on about:blank/),
    });
    expect(sentOn('Network.getCookies')).toEqual([]);
    expect(() => cookieOrigin('file:///etc/passwd')).toThrow(/which has no cookies/);
    expect(() => cookieOrigin('not a url')).toThrow(/which has no cookies/);
    expect(cookieOrigin('http://localhost:8080/x?y')).toBe('http://localhost:8080');
  });

  it.each([
    [{ op: 'set', value: 'v' }, 'name'],
    [{ op: 'set', name: 'n' }, 'value'],
    [{ op: 'delete' }, 'name'],
    [{ op: 'delete', name: 'n', value: 'v' }, 'value'],
    [{ op: 'list', http_only: true }, 'http_only'],
    [{ op: 'list', path: '/' }, 'path'],
    [{ op: 'set', name: 'n', value: 'v', path: 'relative' }, 'path'],
    [{ op: 'set', name: 'n', value: 'v', domain: 'other.test' }, 'domain'],
    [{ op: 'peek' }, 'op'],
  ])('refuses %j naming %s', (payload, field) => {
    const parsed = CookiesEvent.payloadSchema.safeParse({ target_id: 'T', ...payload });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(field);
  });

  it('accepts each op with what it takes', () => {
    for (const payload of [
      { op: 'list' },
      { op: 'list', name: 'sid' },
      { op: 'set', name: 'n', value: '', path: '/a', expires: 1, http_only: true, secure: true, same_site: 'Lax' },
      { op: 'delete', name: 'n', path: '/a' },
    ]) {
      expect(CookiesEvent.payloadSchema.safeParse({ target_id: 'T', ...payload }).success).toBe(true);
    }
  });
});
