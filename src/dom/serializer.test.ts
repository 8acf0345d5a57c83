import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlacedElement, PlacedLine } from './capture';
import { elementKey, IndexRegistry } from './index-registry';
import type { PageMetrics } from './payload';
import { serialize, type SerializeOptions } from './serializer';

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/dom');

interface Fixture {
  metrics: PageMetrics;
  lines: PlacedLine[];
}

function load(page: string): Fixture {
  return JSON.parse(readFileSync(resolve(FIXTURES, `${page}.capture.json`), 'utf8')) as Fixture;
}

function render(fixture: Fixture, options: Partial<SerializeOptions> = {}): ReturnType<typeof serialize> {
  const indexes = new IndexRegistry();
  return serialize(
    fixture.lines,
    fixture.metrics,
    'TARGET',
    (line) =>
      line.id === undefined ? undefined : indexes.indexFor(elementKey(line.sessionId, line.contextId, line.id)),
    { maxChars: 0, wholePage: false, viewportExpansion: 1000, ...options },
  );
}

describe('serializer golden text (recorded collector payloads)', () => {
  for (const page of ['form', 'frames', 'occlusion']) {
    it(`renders ${page} exactly as recorded`, () => {
      const text = render(load(page)).text;
      const golden = resolve(FIXTURES, `${page}.golden.txt`);
      if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(golden)) {
        writeFileSync(golden, `${text}\n`);
      }
      expect(`${text}\n`).toBe(readFileSync(golden, 'utf8'));
    });
  }
});

describe('serializer', () => {
  const base = (extra: Partial<PlacedElement>): PlacedElement => ({
    kind: 'element',
    depth: 0,
    tag: 'button',
    id: 1,
    isNew: false,
    role: 'button',
    name: 'Go',
    attributes: [],
    box: [0, 0, 10, 10],
    scroll: null,
    shadow: null,
    frame: null,
    frameOrigin: null,
    sessionId: 'S',
    contextId: 1,
    frameOffset: [0, 0],
    ...extra,
  });
  const metrics: PageMetrics = {
    url: 'http://x/',
    title: 'x',
    pending: [],
    viewportWidth: 1000,
    viewportHeight: 500,
    pageWidth: 1000,
    pageHeight: 5000,
    scrollX: 0,
    scrollY: 2000,
  };
  const indexOf = (line: PlacedElement): number | undefined => line.id;

  it('marks new elements, shadow hosts, iframes and scroll containers with the prompt markers', () => {
    const lines: PlacedLine[] = [
      base({ isNew: true }),
      base({ id: 2, shadow: 'open', attributes: [['aria-label', 'Menu']] }),
      base({ id: undefined, tag: 'div', scroll: [1, 2.5, 0, 0.5] }),
      { kind: 'text', depth: 1, text: 'inside' },
      base({ id: 9, tag: 'iframe', frame: 'remote', depth: 0 }),
    ];
    const { text, entries } = serialize(lines, metrics, 'T', indexOf, {
      maxChars: 0,
      wholePage: false,
      viewportExpansion: 1000,
    });
    expect(text.split('\n')).toEqual([
      '... 2.0 pages above - scroll up to see more ...',
      '*[1]<button />',
      '|SHADOW(open)|[2]<button aria-label=Menu />',
      '|SCROLL|<div /> (1.0 pages above, 2.5 pages below, 0.0 pages left, 0.5 pages right)',
      '\tinside',
      '|IFRAME|<iframe />',
      '... 3.0 pages below - scroll down to see more ...',
    ]);
    expect(entries.map((entry) => entry.index)).toEqual([1, 2]);
  });

  it('cuts at the budget with a note, and keeps only the elements shown', () => {
    const lines: PlacedLine[] = Array.from({ length: 50 }, (_, i) => base({ id: i + 1, name: `b${i}` }));
    const result = serialize(lines, metrics, 'T', indexOf, { maxChars: 200, wholePage: true, viewportExpansion: -1 });
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(200 + 150);
    expect(result.text).toMatch(/truncated at 200 characters: \d+ more lines with \d+ more elements/);
    expect(result.entries.length).toBeLessThan(50);
    expect(result.text.startsWith('[Start of page]')).toBe(true);
  });

  it('prints empty attribute values visibly', () => {
    const { text } = serialize([base({ attributes: [['value', '']] })], metrics, 'T', indexOf, {
      maxChars: 0,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(text).toContain("[1]<button value='' />");
  });
});
