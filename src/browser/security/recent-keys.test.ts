import { describe, expect, it } from 'vitest';
import { RecentKeys } from './recent-keys';

describe('RecentKeys', () => {
  it('tells the first sighting within the window from a repeat, and forgets after it', () => {
    const keys = new RecentKeys(1_000);
    expect(keys.first('a', 0)).toBe(true);
    expect(keys.first('a', 999)).toBe(false);
    expect(keys.first('b', 999)).toBe(true);
    expect(keys.first('a', 1_000)).toBe(true);
  });

  it('keeps at most max keys, dropping the oldest', () => {
    const keys = new RecentKeys(10_000, 2);
    keys.first('a', 0);
    keys.first('b', 1);
    keys.first('c', 2);
    expect(keys.first('a', 3)).toBe(true);
    expect(keys.first('c', 4)).toBe(false);
  });
});
