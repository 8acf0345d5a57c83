import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import type { CookiesEvent } from '../../protocol/actions/storage.actions';
import type { PayloadOf, ResultOf } from '../../protocol/define-event';
import { TabpilotError } from '../../shared/errors';
import { httpOrigin, pageUrlOf } from './page-origin';

type CookiesPayload = PayloadOf<typeof CookiesEvent>;
type CookiesResult = ResultOf<typeof CookiesEvent>;
type TabCookie = CookiesResult['cookies'][number];

/**
 * The origin a tab's cookies belong to: its page's, when that page is on http(s). Anything else (about:blank,
 * a file, chrome://) is sent no cookies, and a cookie "for" it would be one for no site the client owns.
 */
export function cookieOrigin(pageUrl: string): string {
  return httpOrigin(pageUrl, 'has no cookies; cookies are those of an http(s) page');
}

function fromCdp(cookie: Protocol.Network.Cookie): TabCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.session ? null : cookie.expires,
    http_only: cookie.httpOnly,
    secure: cookie.secure,
    same_site: cookie.sameSite ?? null,
  };
}

/** The cookies the browser would send to these URLs: never the profile's others. */
async function sentTo(session: CdpSession, url: string): Promise<Protocol.Network.Cookie[]> {
  const { cookies } = await session.send('Network.getCookies', { urls: [url] });
  return cookies;
}

const same = (a: Protocol.Network.Cookie, b: Protocol.Network.Cookie): boolean =>
  a.name === b.name && a.domain === b.domain && a.path === b.path;

/**
 * list, set or delete the cookies of the page a tab is on, through its own session. Reads name a URL
 * (Network.getCookies' urls), writes name the page's origin (Network.setCookie's and deleteCookies' url,
 * never a domain): a cookie set is host-only for the page's host, and only cookies the page is sent can be
 * deleted.
 */
export async function tabCookies(session: CdpSession, payload: CookiesPayload): Promise<CookiesResult> {
  const pageUrl = await pageUrlOf(session);
  const origin = cookieOrigin(pageUrl);
  const named = (cookie: Protocol.Network.Cookie): boolean =>
    payload.name === undefined || cookie.name === payload.name;
  if (payload.op === 'list') {
    return { cookies: (await sentTo(session, pageUrl)).filter(named).map(fromCdp), changed: 0 };
  }
  const name = payload.name ?? '';
  if (payload.op === 'set') {
    const path = payload.path ?? '/';
    const url = `${origin}${path}`;
    await session.send('Network.setCookie', {
      name,
      value: payload.value ?? '',
      url,
      path,
      ...(payload.expires === undefined ? {} : { expires: payload.expires }),
      ...(payload.http_only === undefined ? {} : { httpOnly: payload.http_only }),
      ...(payload.secure === undefined ? {} : { secure: payload.secure }),
      ...(payload.same_site === undefined ? {} : { sameSite: payload.same_site }),
    });
    const host = new URL(origin).hostname;
    const stored = (await sentTo(session, url)).find(
      (cookie) => cookie.name === name && cookie.path === path && cookie.domain === host,
    );
    if (stored === undefined) {
      // Chrome refuses some without saying why here (SameSite=None without secure, secure on plain http).
      throw new TabpilotError('INVALID_PARAMS', `name: the browser did not keep the cookie ${name} for ${url}`, {
        details: { field: 'name' },
      });
    }
    return { cookies: [fromCdp(stored)], changed: 1 };
  }
  const url = payload.path === undefined ? pageUrl : `${origin}${payload.path}`;
  const matching = (cookie: Protocol.Network.Cookie): boolean =>
    cookie.name === name && (payload.path === undefined || cookie.path === payload.path);
  const before = (await sentTo(session, url)).filter(matching);
  await session.send('Network.deleteCookies', {
    name,
    url,
    ...(payload.path === undefined ? {} : { path: payload.path }),
  });
  const after = (await sentTo(session, url)).filter(matching);
  const removed = before.filter((cookie) => !after.some((left) => same(cookie, left)));
  return { cookies: removed.map(fromCdp), changed: removed.length };
}
