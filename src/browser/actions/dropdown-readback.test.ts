import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../../shared/errors';
import { inListOrder } from './dropdown-keys';
import { verifyHeld } from './dropdown-verify';
import type { ElementHandle } from './element';
import type { DropdownOption } from './in-page-api';

const option = (text: string, selected = false): DropdownOption => ({
  index: 0,
  text,
  value: text.toLowerCase(),
  selected,
  disabled: false,
});

describe('options met walking a list with the keys', () => {
  it("are put in list order by their ids' row numbers when the walk started in the middle", () => {
    const walked = [
      { id: 'fruit_list_2', option: option('Cherry'), followed: false },
      { id: 'fruit_list_10', option: option('Kiwi'), followed: false },
      { id: 'fruit_list_0', option: option('Apple'), followed: false },
      { id: 'fruit_list_1', option: option('Banana'), followed: false },
    ];
    expect(inListOrder(walked).map((entry) => [entry.index, entry.text])).toEqual([
      [0, 'Apple'],
      [1, 'Banana'],
      [2, 'Cherry'],
      [3, 'Kiwi'],
    ]);
  });

  it('keep the walk order when an id has no row number', () => {
    const walked = [
      { id: 'opt-b', option: option('Banana'), followed: false },
      { id: 'opt-a1', option: option('Apple'), followed: false },
    ];
    expect(inListOrder(walked).map((entry) => entry.text)).toEqual(['Banana', 'Apple']);
  });
});

describe('a list read back after its selection was set', () => {
  const handle = { label: 'element 4' } as ElementHandle;

  it('answers the options it holds when they are exactly the ones asked for (by text or value)', () => {
    const held = verifyHeld(
      handle,
      [option('Apple', true), option('Banana'), option('Cherry', true)],
      ['apple', 'Cherry'],
    );
    expect(held.map((entry) => entry.text)).toEqual(['Apple', 'Cherry']);
  });

  it('fails UNSUPPORTED naming what it holds and what did not change', () => {
    let thrown: unknown;
    try {
      verifyHeld(handle, [option('Apple', true), option('Banana')], ['Banana']);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TabpilotError);
    expect(thrown).toMatchObject({ code: 'UNSUPPORTED', details: { holds: ['Apple'] } });
    expect((thrown as Error).message).toContain('"Apple", "Banana" did not change');
  });

  it('takes an empty set as: holds nothing', () => {
    expect(verifyHeld(handle, [option('Apple'), option('Banana')], [])).toEqual([]);
    expect(() => verifyHeld(handle, [option('Apple', true)], [])).toThrow(/holds "Apple"/);
  });
});
