import { describe, expect, it } from 'vitest';
import { downloadsItself } from './download-link';

describe('downloadsItself', () => {
  it('is true of a link with a download attribute and a URL, named or not', () => {
    expect(downloadsItself('a', { href: '/notes.txt', download: 'notes.txt' })).toBe(true);
    expect(downloadsItself('a', { href: 'https://example.com/a.pdf', download: 'true' })).toBe(true);
  });

  it('is true of a link to a blob: or data: URL without the attribute', () => {
    expect(downloadsItself('a', { href: 'blob:https://example.com/1f0c' })).toBe(true);
    expect(downloadsItself('a', { href: 'data:text/plain;base64,aGk=' })).toBe(true);
  });

  it('is false of a link that fetches nothing, whatever its attribute says', () => {
    expect(downloadsItself('a', { download: 'true' })).toBe(false);
    expect(downloadsItself('a', { href: 'javascript:void 0', download: 'true' })).toBe(false);
    expect(downloadsItself('a', { href: 'JavaScript:save()', download: 'x.csv' })).toBe(false);
  });

  it('is false of a plain link and of an element that is not a link', () => {
    expect(downloadsItself('a', { href: '/next.html' })).toBe(false);
    expect(downloadsItself('button', { href: '/notes.txt', download: 'notes.txt' })).toBe(false);
  });
});
