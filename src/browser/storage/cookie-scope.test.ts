import { describe, expect, it } from 'vitest';
import { cookieSentTo, scopeState, sitesOf } from './cookie-scope';

const cookie = (name: string, domain: string) => ({
  name,
  value: 'v',
  domain,
  path: '/',
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: 'Lax' as const,
});

describe('cookie scope', () => {
  it('a host cookie goes to its host only; a domain cookie to the domain and its subdomains', () => {
    expect(cookieSentTo({ domain: 'a.com' }, 'a.com')).toBe(true);
    expect(cookieSentTo({ domain: 'a.com' }, 'www.a.com')).toBe(false);
    expect(cookieSentTo({ domain: '.a.com' }, 'www.a.com')).toBe(true);
    expect(cookieSentTo({ domain: '.a.com' }, 'a.com')).toBe(true);
    expect(cookieSentTo({ domain: '.a.com' }, 'evila.com')).toBe(false);
  });

  it('keeps only the cookies and origins of the hosts; null hosts keep everything', () => {
    const state = {
      cookies: [cookie('mine', '.a.com'), cookie('theirs', 'b.com')],
      origins: [
        { origin: 'https://www.a.com', localStorage: [] },
        { origin: 'https://b.com', localStorage: [] },
      ],
    };
    const scoped = scopeState(state, ['www.a.com']);
    expect(scoped.cookies.map((entry) => entry.name)).toEqual(['mine']);
    expect(scoped.origins.map((origin) => origin.origin)).toEqual(['https://www.a.com']);
    expect(scopeState(state, null)).toBe(state);
    expect(sitesOf(state.cookies)).toEqual(['a.com', 'b.com']);
  });
});
