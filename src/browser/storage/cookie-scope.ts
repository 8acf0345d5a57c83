import type { StorageCookie, StorageState } from './storage-state';

/**
 * Which cookies and storage belong to a set of hosts: what a program may read is what the sites of its
 * own tabs could read themselves. A cookie belongs when the browser would send it to one of the hosts
 * (its domain is the host, or a parent of it for a domain cookie); an origin's storage when its host is
 * one of them.
 */
export function cookieSentTo(cookie: Pick<StorageCookie, 'domain'>, host: string): boolean {
  const domain = cookie.domain.toLowerCase();
  const bare = domain.startsWith('.') ? domain.slice(1) : domain;
  const lower = host.toLowerCase();
  return lower === bare || (domain.startsWith('.') && lower.endsWith(`.${bare}`));
}

export function cookiesFor<C extends Pick<StorageCookie, 'domain'>>(
  cookies: readonly C[],
  hosts: readonly string[],
): C[] {
  return cookies.filter((cookie) => hosts.some((host) => cookieSentTo(cookie, host)));
}

export function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    // An origin that is not a URL (opaque) belongs to no host.
    return undefined;
  }
}

/** Only what the hosts may read; null hosts: everything. */
export function scopeState(state: StorageState, hosts: readonly string[] | null): StorageState {
  if (hosts === null) {
    return state;
  }
  const wanted = new Set(hosts.map((host) => host.toLowerCase()));
  return {
    cookies: cookiesFor(state.cookies, hosts),
    origins: state.origins.filter((origin) => {
      const host = originHost(origin.origin);
      return host !== undefined && wanted.has(host);
    }),
  };
}

/** The sites cookies are for (their domains without the leading dot), each once, in order. */
export function sitesOf(cookies: ReadonlyArray<Pick<StorageCookie, 'domain'>>): string[] {
  return [...new Set(cookies.map((cookie) => cookie.domain.replace(/^\./, '').toLowerCase()))];
}
