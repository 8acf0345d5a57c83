import { describe, expect, it } from 'vitest';
import type { CollectResult } from './payload';
import { packCollectResult, unpackCollectResult } from './wire';

const RESULT: CollectResult = {
  version: 1,
  lines: [
    { kind: 'text', depth: 0, text: 'Welcome' },
    {
      kind: 'element',
      depth: 1,
      tag: 'a',
      id: 7,
      isNew: true,
      role: 'link',
      name: 'Home',
      attributes: [
        ['href', '/home'],
        ['title', ''],
      ],
      box: [1.5, 2, 30, 12.25],
      scroll: null,
      shadow: null,
      frame: null,
      frameOrigin: null,
    },
    {
      kind: 'element',
      depth: 0,
      tag: 'iframe',
      id: undefined,
      isNew: false,
      role: null,
      name: '',
      attributes: [],
      box: [0, 100, 500, 200],
      scroll: [0, 2.5, 0, 0],
      shadow: 'closed',
      frame: 'remote',
      frameOrigin: [2, 102],
    },
    { kind: 'closed-host', depth: 3, id: 12 },
  ],
  metrics: {
    url: 'https://example.com/',
    title: 'Example',
    pending: [{ url: 'https://example.com/a.js', resourceType: 'script', loadingMs: 12 }],
    viewportWidth: 1280,
    viewportHeight: 720,
    pageWidth: 1280,
    pageHeight: 3000,
    scrollX: 0,
    scrollY: 40,
  },
  stats: { elements: 10, interactive: 1, iframes: 1, shadowRoots: 1, images: 0, links: 1 },
  elapsedMs: 3.5,
};

describe('the collector wire format', () => {
  it('round-trips every kind of line and field, unindexed elements and empty values included', () => {
    expect(unpackCollectResult(packCollectResult(RESULT))).toEqual(RESULT);
  });

  it('sends well under half the bytes of the plain objects', () => {
    const plain = JSON.stringify({ ...RESULT, lines: Array.from({ length: 200 }, () => RESULT.lines[1]) });
    const packed = packCollectResult({ ...RESULT, lines: Array.from({ length: 200 }, () => RESULT.lines[1]!) });
    expect(packed.length).toBeLessThan(plain.length * 0.5);
  });
});
