import { describe, expect, it } from 'vitest';
import { contextLine, joinPieces, matchPieces, patternOf, pieceAt } from './text-matches';

describe('patternOf', () => {
  it('matches plain text literally, case-insensitively unless asked', () => {
    expect('Price: $5.00 (net)'.match(patternOf({ text: '$5.00 (net)', caseSensitive: false }))).toEqual([
      '$5.00 (net)',
    ]);
    expect('a.c abc'.match(patternOf({ text: 'a.c', caseSensitive: false }))).toEqual(['a.c']);
    expect('Apple apple APPLE'.match(patternOf({ text: 'apple', caseSensitive: false }))).toHaveLength(3);
    expect('Apple apple APPLE'.match(patternOf({ text: 'apple', caseSensitive: true }))).toEqual(['apple']);
  });

  it('takes a regex as a regex', () => {
    expect('order 12, order 345'.match(patternOf({ regex: 'order \\d+', caseSensitive: false }))).toEqual([
      'order 12',
      'order 345',
    ]);
  });
});

describe('joinPieces', () => {
  it('collapses whitespace and puts exactly one space between pieces', () => {
    const { whole, starts } = joinPieces(['Hello\n   ', 'world', ' again  ', 'end']);
    expect(whole).toBe('Hello world again end');
    expect(starts).toEqual([0, 6, 12, 18]);
  });
});

describe('pieceAt', () => {
  it('finds the piece holding a position', () => {
    const starts = [0, 6, 12, 18];
    expect([0, 5, 6, 11, 12, 17, 18, 40].map((at) => pieceAt(starts, at))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});

describe('contextLine', () => {
  it('cuts the given number of characters either side, whitespace collapsed', () => {
    const whole = `${'x'.repeat(100)}NEEDLE${'y'.repeat(100)}`;
    expect(contextLine(whole, 100, 6, 40)).toBe(`${'x'.repeat(40)}NEEDLE${'y'.repeat(40)}`);
    expect(contextLine('  at   the start NEEDLE', 17, 6, 40)).toBe('at the start NEEDLE');
  });
});

describe('matchPieces', () => {
  it('counts every match, returns up to the limit, with the pieces each spans', () => {
    const pieces = ['Add to ', 'cart', ' — first item', 'Add to cart', 'add TO CART again'];
    const { matches, total } = matchPieces(pieces, patternOf({ text: 'add to cart', caseSensitive: false }), 2, 40);
    expect(total).toBe(3);
    expect(matches).toHaveLength(2);
    // Across two text nodes ("Add to <b>cart</b>"): the match spans both pieces.
    expect(matches[0]).toMatchObject({ text: 'Add to cart', first: 0, last: 1 });
    expect(matches[1]).toMatchObject({ text: 'Add to cart', first: 3, last: 3 });
    expect(matches[1]?.context).toBe('Add to cart — first item Add to cart add TO CART again');
  });

  it('skips empty regex matches instead of counting them', () => {
    const { matches, total } = matchPieces(['abc'], patternOf({ regex: 'x*', caseSensitive: false }), 20, 40);
    expect(total).toBe(0);
    expect(matches).toEqual([]);
  });

  it('finds nothing in no pieces', () => {
    expect(matchPieces([], patternOf({ text: 'a', caseSensitive: false }), 20, 40)).toEqual({ matches: [], total: 0 });
  });
});
