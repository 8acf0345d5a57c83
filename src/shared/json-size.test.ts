import { describe, expect, it } from 'vitest';
import { estimateJsonBytes } from './json-size';

describe('estimateJsonBytes', () => {
  it('comes close to the JSON length of ordinary data', () => {
    const value = {
      url: 'https://example.com/a/b?c=d',
      elements: Array.from({ length: 200 }, (_, index) => ({
        index,
        tag: 'a',
        name: `Link ${index}`,
        attributes: { href: `/item/${index}` },
        box: [1.5, 2, 30, 40],
        is_new: index % 2 === 0,
        role: null,
      })),
    };
    const exact = JSON.stringify(value).length;
    const estimate = estimateJsonBytes(value, Infinity);
    expect(estimate).toBeGreaterThan(exact * 0.8);
    expect(estimate).toBeLessThan(exact * 1.5);
  });

  it('stops past the limit instead of walking the rest', () => {
    const text = 'z'.repeat(1_000_000);
    const value = { first: 'a'.repeat(300), rest: Array.from({ length: 1000 }, () => ({ text })) };
    const estimate = estimateJsonBytes(value, 1000);
    expect(estimate).toBeGreaterThan(1000);
    // It read the first items only: far below the 1e9 chars the whole value holds.
    expect(estimate).toBeLessThan(1_100_000);
  });

  it('ends on a cycle', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(estimateJsonBytes(cyclic, 10_000)).toBeGreaterThan(10_000);
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let depth = 0; depth < 1000; depth++) {
      const next: Record<string, unknown> = {};
      cursor['k'] = next;
      cursor = next;
    }
    expect(estimateJsonBytes(deep, Infinity)).toBeGreaterThan(0);
  });
});
