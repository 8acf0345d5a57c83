import { describe, expect, it } from 'vitest';
import type { ElementSummary } from '../protocol/events/state.events';
import { identityOf, refindIndex } from './element-refind';

function element(
  index: number,
  tag: string,
  name: string,
  attributes: Record<string, string> = {},
  role: string | null = null,
): ElementSummary {
  return { index, tag, role, name, attributes, box: { x: 0, y: 0, width: 1, height: 1 }, is_new: false };
}

const before = [
  element(1, 'a', 'Home', { href: '/' }, 'link'),
  element(2, 'input', 'Your name', { name: 'name', placeholder: 'Your name' }),
  element(3, 'button', 'Add to cart', { type: 'submit' }, 'button'),
  element(4, 'button', 'Add to cart', { type: 'submit' }, 'button'),
  element(5, 'button', 'Create account', { type: 'submit' }, 'button'),
];

describe('identityOf and refindIndex', () => {
  it('finds the element at its new index once the page has more before it', () => {
    const identity = identityOf(5, before);
    const after = [
      element(1, 'div', 'Cookie banner', { role: 'dialog' }),
      ...before.map((e) => ({ ...e, index: e.index + 1 })),
    ];
    expect(identity).toBeDefined();
    expect(refindIndex(identity!, after)).toBe(6);
  });

  it('does not compare live state: a field with a typed value is the same field', () => {
    const identity = identityOf(2, before);
    const typed = before.map((e) => (e.index === 2 ? { ...e, attributes: { ...e.attributes, value: 'Ada' } } : e));
    expect(refindIndex(identity!, typed)).toBe(2);
  });

  it('tells twins apart by which of them it was', () => {
    const second = identityOf(4, before);
    expect(second?.occurrence).toBe(1);
    const after = [element(9, 'p', 'x'), ...before.map((e) => ({ ...e, index: e.index + 10 }))];
    expect(refindIndex(second!, after)).toBe(14);
    expect(refindIndex(identityOf(3, before)!, after)).toBe(13);
  });

  it('answers null, not a guess, when the element changed: another label, another attribute, or gone', () => {
    const identity = identityOf(5, before)!;
    const relabelled = before.map((e) => (e.index === 5 ? { ...e, name: 'Register' } : e));
    expect(refindIndex(identity, relabelled)).toBeNull();
    const retyped = before.map((e) => (e.index === 5 ? { ...e, attributes: { type: 'button' } } : e));
    expect(refindIndex(identity, retyped)).toBeNull();
    expect(refindIndex(identity, before.slice(0, 4))).toBeNull();
    expect(
      refindIndex(
        identityOf(4, before)!,
        before.filter((e) => e.index !== 3 && e.index !== 4),
      ),
    ).toBeNull();
  });

  it('has nothing to remember of an index the state did not have', () => {
    expect(identityOf(99, before)).toBeUndefined();
  });
});
