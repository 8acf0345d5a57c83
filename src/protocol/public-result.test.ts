import { describe, expect, it } from 'vitest';
import { publicResult } from './public-result';

const tabIdOf = (targetId: string): string => targetId.slice(-4);

describe('publicResult', () => {
  it('names tabs by tab_id at any depth and leaves everything else alone', () => {
    expect(
      publicResult(
        {
          target_id: 'AAAA1111',
          opened_target_id: null,
          focused_target_id: 'BBBB2222',
          released_target_ids: ['CCCC3333'],
          tabs: [{ target_id: 'DDDD4444', url: 'u', title: 't' }],
          text: 'target_id stays in text',
          index: 3,
        },
        tabIdOf,
      ),
    ).toEqual({
      tab_id: '1111',
      opened_tab_id: null,
      focused_tab_id: '2222',
      released_tab_ids: ['3333'],
      tabs: [{ tab_id: '4444', url: 'u', title: 't' }],
      text: 'target_id stays in text',
      index: 3,
    });
  });

  it('passes plain values through', () => {
    expect(publicResult(null, tabIdOf)).toBeNull();
    expect(publicResult('x', tabIdOf)).toBe('x');
    expect(publicResult([1, { target_id: 'EEEE5555' }], tabIdOf)).toEqual([1, { tab_id: '5555' }]);
  });
});

describe('publicResult without tab keys', () => {
  it('answers the same objects rather than copies, and leaves the input unchanged when it maps', () => {
    const elements = [{ index: 1, box: { x: 1 } }];
    const result = { text: 't', elements };
    expect(publicResult(result, tabIdOf)).toBe(result);
    const mixed = { elements, tab: { target_id: 'FFFF6666' } };
    const mapped = publicResult(mixed, tabIdOf) as { elements: unknown; tab: unknown };
    expect(mapped).toEqual({ elements, tab: { tab_id: '6666' } });
    expect(mapped.elements).toBe(elements);
    expect(mixed.tab).toEqual({ target_id: 'FFFF6666' });
  });
});
