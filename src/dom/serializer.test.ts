import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elementKey, IndexRegistry } from './index-registry';
import type { PageMetrics } from './payload';
import { serialize, type SerializeOptions, type SerializerInput } from './serializer';
import type { ElementExtra, PackedElement, PackedLine } from './wire';

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/dom');

interface Fixture extends SerializerInput {
  metrics: PageMetrics;
}

function load(page: string): Fixture {
  return JSON.parse(readFileSync(resolve(FIXTURES, `${page}.capture.json`), 'utf8')) as Fixture;
}

function render(fixture: Fixture, options: Partial<SerializeOptions> = {}): ReturnType<typeof serialize> {
  const indexes = new IndexRegistry();
  return serialize(
    fixture,
    fixture.metrics,
    'TARGET',
    (frame, id) => indexes.indexFor(elementKey(frame.sessionId, frame.contextId, id)),
    { maxChars: 0, wholePage: false, viewportExpansion: 1000, ...options },
  );
}

describe('serializer golden text (recorded collector payloads)', () => {
  for (const page of ['form', 'frames', 'occlusion']) {
    it(`renders ${page} exactly as recorded`, () => {
      const text = render(load(page)).text;
      const golden = resolve(FIXTURES, `${page}.golden.txt`);
      if (process.env['UPDATE_GOLDEN'] === '1') {
        writeFileSync(golden, `${text}\n`);
      }
      // A missing golden is a failure, not a file to write: a test that records its own expectation passes
      // whatever the serializer prints.
      if (!existsSync(golden)) {
        throw new Error(
          `${golden} is missing: record it with UPDATE_GOLDEN=1 npx vitest run src/dom/serializer.test.ts and review the text before committing it`,
        );
      }
      expect(`${text}\n`).toBe(readFileSync(golden, 'utf8'));
    });
  }
});

describe('serializer', () => {
  interface Fields {
    depth: number;
    tag: string;
    id: number | undefined;
    isNew: boolean;
    role: string | null;
    name: string;
    attributes: Array<[string, string]>;
    box: [number, number, number, number];
  }
  /** An element line in wire form, from named fields. */
  const base = (extra: Partial<Fields & ElementExtra>): PackedElement => {
    const f = {
      depth: 0,
      tag: 'button',
      id: 1,
      isNew: false,
      role: 'button',
      name: 'Go',
      attributes: [],
      box: [0, 0, 10, 10],
      ...extra,
    } as Fields;
    const line: PackedElement = [
      1,
      f.depth,
      f.tag,
      f.id ?? -1,
      f.isNew ? 1 : 0,
      f.role,
      f.name,
      f.attributes.flat(),
      ...f.box,
    ];
    const facts: ElementExtra = {
      scroll: extra.scroll ?? null,
      shadow: extra.shadow ?? null,
      frame: extra.frame ?? null,
      frameOrigin: extra.frameOrigin ?? null,
    };
    if (Object.values(facts).some((value) => value !== null)) {
      line.push(facts);
    }
    return line;
  };
  const textLine = (depth: number, value: string): PackedLine => [0, depth, value];
  /** Lines of one frame. */
  const capture = (lines: PackedLine[]): SerializerInput => ({
    lines,
    frameOf: lines.map(() => 0),
    frames: [{ sessionId: 'S', contextId: 1 }],
    cut: false,
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
  const indexOf = (_frame: unknown, id: number): number => id;

  it('marks new elements, shadow hosts, iframes and scroll containers with the prompt markers', () => {
    const lines: PackedLine[] = [
      base({ isNew: true }),
      base({ id: 2, shadow: 'open', attributes: [['aria-label', 'Menu']] }),
      base({ id: undefined, tag: 'div', scroll: [1, 2.5, 0, 0.5] }),
      textLine(1, 'inside'),
      base({ id: 9, tag: 'iframe', frame: 'remote', depth: 0 }),
    ];
    const { text, entries } = serialize(capture(lines), metrics, 'T', indexOf, {
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
    const lines: PackedLine[] = Array.from({ length: 50 }, (_, i) => base({ id: i + 1, name: `b${i}` }));
    const result = serialize(capture(lines), metrics, 'T', indexOf, {
      maxChars: 200,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(200 + 150);
    expect(result.text).toMatch(/truncated at 200 characters: \d+ more lines with \d+ more elements/);
    expect(result.entries.length).toBeLessThan(50);
    expect(result.text.startsWith('[Start of page]')).toBe(true);
  });

  it('says only that the page goes on when the walk stopped at the budget (what it did not read is not counted)', () => {
    const lines: PackedLine[] = Array.from({ length: 50 }, (_, i) => base({ id: i + 1, name: `b${i}` }));
    const result = serialize({ ...capture(lines), cut: true }, metrics, 'T', indexOf, {
      maxChars: 200,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(result.truncated).toBe(true);
    expect(result.text.split('\n').at(-1)).toBe(
      '... (truncated at 200 characters: more of the page follows; scroll, or use find_elements or search_page)',
    );
  });

  it("puts an element's only text on its line and drops a label that repeats its first text", () => {
    const lines: PackedLine[] = [
      base({ id: 1, attributes: [['aria-label', 'Save draft']] }),
      textLine(1, 'Save draft'),
      base({ id: 2, tag: 'aside', attributes: [['aria-label', 'Cart']] }),
      textLine(1, 'cart'),
      textLine(1, 'Two items'),
      base({ id: 3, depth: 1, attributes: [['title', 'Pay now']] }),
      textLine(2, 'Checkout'),
      base({ id: undefined, tag: 'div', scroll: [0, 1, 0, 0] }),
      textLine(1, 'Reviews'),
    ];
    const { text, entries } = serialize(capture(lines), metrics, 'T', indexOf, {
      maxChars: 0,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(text.split('\n')).toEqual([
      '[Start of page]',
      '[1]<button /> Save draft',
      '[2]<aside />',
      '\tcart',
      '\tTwo items',
      '\t[3]<button title=Pay now /> Checkout',
      '|SCROLL|<div /> (0.0 pages above, 1.0 pages below)',
      '\tReviews',
      '[End of page]',
    ]);
    expect(entries.map((entry) => [entry.index, entry.attributes])).toEqual([
      [1, { 'aria-label': 'Save draft' }],
      [2, { 'aria-label': 'Cart' }],
      [3, { title: 'Pay now' }],
    ]);
  });

  it('counts an element and its inlined text as one cut when the budget runs out', () => {
    const lines: PackedLine[] = [
      base({ id: 1 }),
      textLine(1, 'A fairly long button caption'),
      base({ id: 2 }),
      textLine(1, 'Another fairly long caption'),
    ];
    const result = serialize(capture(lines), metrics, 'T', indexOf, {
      maxChars: 60,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(result.text).toContain('[1]<button /> A fairly long button caption');
    expect(result.text).toContain('truncated at 60 characters: 2 more lines with 1 more elements');
    expect(result.entries.map((entry) => entry.index)).toEqual([1]);
  });

  it('prints empty attribute values visibly', () => {
    const { text } = serialize(capture([base({ attributes: [['value', '']] })]), metrics, 'T', indexOf, {
      maxChars: 0,
      wholePage: true,
      viewportExpansion: -1,
    });
    expect(text).toContain("[1]<button value='' />");
  });
});
