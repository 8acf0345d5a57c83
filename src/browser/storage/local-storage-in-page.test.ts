import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../test/fakes/memory-storage';
import { readEntries, restoreEntries } from '../actions/in-page/saved-local-storage';

const ORIGIN = 'https://a.test';
const saved = {
  origin: ORIGIN,
  localStorage: [
    { name: 'theme', value: 'dark' },
    { name: 'token', value: 'x' },
  ],
};

describe("a storage state's localStorage in the page", () => {
  it('reads every entry of the origin, and nothing of an opaque one', () => {
    const storage = new MemoryStorage([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect(readEntries(ORIGIN, storage)).toEqual({
      origin: ORIGIN,
      localStorage: [
        { name: 'b', value: '2' },
        { name: 'a', value: '1' },
      ],
    });
    expect(readEntries('null', storage)).toBeNull();
  });

  it("restores into a document of the origin once per tab, so the page's later writes stay", () => {
    const local = new MemoryStorage([['theme', 'light']]);
    const session = new MemoryStorage();
    const where = { origin: ORIGIN, local, session };
    expect(restoreEntries(where, saved, 'm1')).toBe(true);
    expect(local.getItem('theme')).toBe('dark');
    expect(local.getItem('token')).toBe('x');
    local.setItem('theme', 'page');
    // The next document of the tab (a navigation) finds the mark and leaves the page's write alone.
    expect(restoreEntries(where, saved, 'm1')).toBe(false);
    expect(local.getItem('theme')).toBe('page');
    // A later load (another mark) restores again.
    expect(restoreEntries(where, saved, 'm2')).toBe(true);
    expect(local.getItem('theme')).toBe('dark');
  });

  it('leaves a document of another origin alone', () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    expect(restoreEntries({ origin: 'https://b.test', local, session }, saved, 'm1')).toBe(false);
    expect(local.length).toBe(0);
    expect(session.length).toBe(0);
  });
});
