import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './url-guards';

describe('normalizeUrl', () => {
  it('keeps a URL with a scheme however the URL parser would still read one', () => {
    expect(normalizeUrl('\u0001javascript:alert(1) ')).toBe('javascript:alert(1)');
    expect(normalizeUrl('  java\tscript:x')).toBe('java\tscript:x');
    expect(normalizeUrl('HTTP://example.com')).toBe('HTTP://example.com');
  });

  it('adds https:// to a bare host', () => {
    expect(normalizeUrl(' example.com/x ')).toBe('https://example.com/x');
  });
});
