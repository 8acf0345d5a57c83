import { describe, expect, it } from 'vitest';
import { utf8 } from '../../shared/bytes';
import { harSecrets } from './har-secrets';
import type { HarEntry } from './har-types';

const SECRET = 'Hunter2-correct-horse';

function entry(): HarEntry {
  return {
    startedDateTime: new Date(0).toISOString(),
    time: 1,
    request: {
      method: 'POST',
      url: `https://a.com/login?token=${SECRET}`,
      httpVersion: 'HTTP/1.1',
      cookies: [{ name: 'auth', value: SECRET }],
      headers: [{ name: 'X-Password', value: encodeURIComponent(SECRET) }],
      queryString: [{ name: 'token', value: SECRET }],
      postData: { mimeType: 'application/x-www-form-urlencoded', text: `user=ada&password=${SECRET}` },
      headersSize: -1,
      bodySize: 10,
    },
    response: {
      status: 302,
      statusText: 'Found',
      httpVersion: 'HTTP/1.1',
      cookies: [{ name: 'auth', value: SECRET }],
      headers: [{ name: 'Set-Cookie', value: `auth=${SECRET}` }],
      content: { size: 10, mimeType: 'text/plain', text: `hello ${SECRET.toUpperCase()}` },
      redirectURL: `https://a.com/welcome?t=${SECRET}`,
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  } as HarEntry;
}

describe('harSecrets', () => {
  const secrets = harSecrets(() => ({ 'a.com': { password: SECRET } }));

  it('replaces a secret everywhere in an entry, percent-encoding the placeholder in its URLs', () => {
    const clean = secrets.entry(entry());
    const text = JSON.stringify(clean);
    expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());
    expect(clean.request.url).toBe('https://a.com/login?token=%3Csecret%3Epassword%3C/secret%3E');
    expect(clean.response.redirectURL).toBe('https://a.com/welcome?t=%3Csecret%3Epassword%3C/secret%3E');
    expect(clean.request.postData?.text).toBe('user=ada&password=<secret>password</secret>');
    expect(clean.request.cookies[0]?.value).toBe('<secret>password</secret>');
    expect(clean.request.headers[0]?.value).toBe('<secret>password</secret>');
    expect(clean.request.queryString[0]?.value).toBe('<secret>password</secret>');
    expect(clean.response.headers[0]?.value).toBe('auth=<secret>password</secret>');
  });

  it('replaces it in an attached text body, and leaves a binary one alone', () => {
    expect(new TextDecoder().decode(secrets.body(utf8(`{"pw":"${SECRET}"}`), 'application/json'))).toBe(
      '{"pw":"<secret>password</secret>"}',
    );
    const png = utf8(SECRET);
    expect(secrets.body(png, 'image/png')).toBe(png);
  });

  it('with no secrets configured, the entry is written as it is', () => {
    const original = entry();
    expect(harSecrets(() => ({})).entry(original)).toBe(original);
  });
});
