import { describe, expect, it } from 'vitest';
import { isTabpilotError } from '../shared/errors';
import { fillSecrets, matchUrlWithDomainPattern, secretNames } from './secrets';

describe('domain patterns (browser-use matching)', () => {
  const cases: Array<[string, string, boolean]> = [
    ['https://example.com/login', '*.example.com', true],
    ['http://example.com/', '*.example.com', true],
    ['https://a.b.example.com/', '*.example.com', true],
    ['https://notexample.com/', '*.example.com', false],
    ['https://example.com.evil.test/', '*.example.com', false],
    ['https://example.com/', 'example.com', true],
    ['http://example.com/', 'example.com', true],
    ['https://www.example.com/', 'example.com', false],
    ['ftp://example.com/', 'example.com', false],
    ['http://localhost:5173/form', 'localhost', true],
    ['https://example.com:8443/', 'example.com:9999', true],
    ['http://example.com/', 'https://example.com', false],
    ['https://example.com/', 'https://example.com', true],
    ['http://example.com/', 'http*://example.com', true],
    ['chrome-extension://abcdef/page.html', 'chrome-extension://*', true],
    ['https://anything.test/', '*', true],
    ['https://EXAMPLE.com/', '*.Example.COM', true],
    // Patterns that would match too much never match.
    ['https://example.co/', 'example.*', false],
    ['https://a.b.example.com/', '*.*.example.com', false],
    ['https://agoogle.com/', '*google.com', false],
    ['https://example.com/', 'ex*mple.com', false],
    // New-tab pages and non-URLs match nothing.
    ['about:blank', '*', false],
    ['chrome://newtab/', '*', false],
    ['not a url', '*', false],
  ];
  it.each(cases)('%s against %s → %s', (url, pattern, expected) => {
    expect(matchUrlWithDomainPattern(url, pattern)).toBe(expected);
  });
});

describe('secret placeholders', () => {
  const data = {
    '*.bank.test': { password: 'p4ss-VALUE', pin: '0000-VALUE' },
    'https://mail.test': { password: 'mail-VALUE' },
  };

  it('fills every placeholder with the value of the pattern that matches the page', () => {
    expect(fillSecrets('<secret>password</secret> and <secret>pin</secret>', 'https://www.bank.test/x', data)).toBe(
      'p4ss-VALUE and 0000-VALUE',
    );
    expect(fillSecrets('<secret>password</secret>', 'https://mail.test/', data)).toBe('mail-VALUE');
    expect(fillSecrets('no secrets here', 'https://other.test/', data)).toBe('no secrets here');
    expect(secretNames('<secret>a</secret><secret>b</secret><secret>a</secret>')).toEqual(['a', 'b']);
  });

  it('refuses a secret on a page its pattern does not match, naming the secret but never a value', () => {
    for (const [text, url, code] of [
      ['<secret>pin</secret>', 'https://mail.test/', 'FORBIDDEN'],
      ['<secret>password</secret>', 'http://mail.test/', 'FORBIDDEN'],
      ['<secret>unknown</secret>', 'https://www.bank.test/', 'INVALID_PARAMS'],
    ] as const) {
      let caught: unknown;
      try {
        fillSecrets(text, url, data);
      } catch (error) {
        caught = error;
      }
      expect(isTabpilotError(caught) && caught.code).toBe(code);
      expect(JSON.stringify([String(caught), (caught as { details?: unknown }).details])).not.toMatch(/VALUE/);
    }
  });
});
