import { describe, expect, it } from 'vitest';
import { attributesOf, extraOf, idOf, isElementLine, type PackedElement, type PackedLine } from './wire';

const LINK: PackedElement = [1, 1, 'a', 7, 1, 'link', 'Home', ['href', '/home', 'title', ''], 1.5, 2, 30, 12.25];
const FRAME: PackedElement = [
  1,
  0,
  'iframe',
  -1,
  0,
  null,
  '',
  [],
  0,
  100,
  500,
  200,
  { scroll: [0, 2.5, 0, 0], shadow: 'closed', frame: 'remote', frameOrigin: [2, 102] },
];
const LINES: PackedLine[] = [[0, 0, 'Welcome'], LINK, FRAME, [2, 3, 12]];

describe('the collector wire format', () => {
  it('reads back every field, unindexed elements and empty values included, from the JSON that crosses CDP', () => {
    const [text, link, frame, host] = JSON.parse(JSON.stringify(LINES)) as PackedLine[];
    expect(text).toEqual([0, 0, 'Welcome']);
    expect(host).toEqual([2, 3, 12]);
    if (link === undefined || !isElementLine(link) || frame === undefined || !isElementLine(frame)) {
      throw new Error('element lines lost their kind');
    }
    expect(idOf(link)).toBe(7);
    expect(idOf(frame)).toBeUndefined();
    expect(attributesOf(link)).toEqual([
      ['href', '/home'],
      ['title', ''],
    ]);
    expect(extraOf(link)).toEqual({ scroll: null, shadow: null, frame: null, frameOrigin: null });
    expect(extraOf(frame)).toEqual({
      scroll: [0, 2.5, 0, 0],
      shadow: 'closed',
      frame: 'remote',
      frameOrigin: [2, 102],
    });
  });

  it('sends well under half the bytes of the same lines as objects', () => {
    const asObject = {
      kind: 'element',
      depth: 1,
      tag: 'a',
      id: 7,
      isNew: true,
      role: 'link',
      name: 'Home',
      attributes: attributesOf(LINK),
      box: [1.5, 2, 30, 12.25],
      scroll: null,
      shadow: null,
      frame: null,
      frameOrigin: null,
    };
    const plain = JSON.stringify(Array.from({ length: 200 }, () => asObject));
    const packed = JSON.stringify(Array.from({ length: 200 }, () => LINK));
    expect(packed.length).toBeLessThan(plain.length * 0.5);
  });
});
