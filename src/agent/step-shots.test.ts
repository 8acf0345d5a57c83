import { describe, expect, it } from 'vitest';
import { RunOwners } from './run-owners';
import { TabpilotError } from '../shared/errors';
import { runScreenshotAction } from './run-screenshot-action';
import { MemoryStepShots, ShotBudget, shotBytes } from './step-shots';

const shot = (data: string) => ({ format: 'jpeg' as const, data });

/** The screenshot action reads the run store only: it never runs an action of its own. */
const runAction = (): Promise<unknown> => Promise.reject(new Error('not used by the step screenshot'));

describe('ShotBudget', () => {
  it('drops the oldest pictures first once the total passes the budget', () => {
    const budget = new ShotBudget(10);
    expect(budget.add('a/1', 4)).toEqual([]);
    expect(budget.add('a/2', 4)).toEqual([]);
    expect(budget.add('b/1', 4)).toEqual(['a/1']);
    expect(budget.bytes).toBe(8);
    expect(budget.entries()).toEqual([
      ['a/2', 4],
      ['b/1', 4],
    ]);
  });

  it('counts a key kept again once, as the newest', () => {
    const budget = new ShotBudget(10);
    budget.add('a/1', 4);
    budget.add('a/2', 4);
    expect(budget.add('a/1', 5)).toEqual([]);
    expect(budget.entries()).toEqual([
      ['a/2', 4],
      ['a/1', 5],
    ]);
    expect(budget.add('a/1', 7)).toEqual(['a/2']);
    expect(budget.entries()).toEqual([['a/1', 7]]);
  });

  it('does not keep a picture bigger than the whole budget', () => {
    const budget = new ShotBudget(10);
    budget.add('a/1', 4);
    // Everything older goes before the big one does: the budget never holds more than its bytes.
    expect(budget.add('a/2', 11)).toEqual(['a/1', 'a/2']);
    expect(budget.has('a/2')).toBe(false);
    expect(budget.bytes).toBe(0);
  });

  it('counts again from the entries a store wrote down', () => {
    const first = new ShotBudget(10);
    first.add('a/1', 3);
    first.add('a/2', 3);
    const again = new ShotBudget(10, first.entries());
    expect(again.bytes).toBe(6);
    expect(again.add('a/3', 5)).toEqual(['a/1']);
  });
});

describe('MemoryStepShots', () => {
  it('keeps each step by run and step, within its byte budget', async () => {
    const one = shot('A'.repeat(100));
    const store = new MemoryStepShots(shotBytes(one) * 2);
    await store.put('r1', 1, one);
    await store.put('r1', 2, shot('B'.repeat(100)));
    expect(await store.get('r1', 1)).toEqual(one);
    await store.put('r2', 1, shot('C'.repeat(100)));
    expect(await store.get('r1', 1)).toBeUndefined();
    expect((await store.get('r1', 2))?.data).toBe('B'.repeat(100));
    expect((await store.get('r2', 1))?.data).toBe('C'.repeat(100));
    expect(store.bytes).toBeLessThanOrEqual(shotBytes(one) * 2);
  });
});

describe('run_screenshot', () => {
  it("answers a kept step's picture, and INVALID_PARAMS naming the step for one not kept", async () => {
    const store = new MemoryStepShots();
    await store.put('r1', 2, shot('/9j/abc'));
    const action = runScreenshotAction(store, new RunOwners(undefined));
    const caller = { client: { id: 'p', kind: 'panel' as const }, signal: new AbortController().signal, runAction };
    expect(action.params.safeParse({ run_id: 'r1', step: 0 }).success).toBe(false);
    await expect(action.run({ run_id: 'r1', step: 2 }, caller)).resolves.toEqual({
      run_id: 'r1',
      step: 2,
      format: 'jpeg',
      data: '/9j/abc',
    });
    const missing = action.run({ run_id: 'r1', step: 1 }, caller);
    await expect(missing).rejects.toBeInstanceOf(TabpilotError);
    await expect(missing).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'step', step: 1 } });
  });

  it('gives a program the pictures of its own runs only; the person gets every one', async () => {
    const store = new MemoryStepShots();
    await store.put('theirs', 1, shot('/9j/theirs'));
    await store.put('mine', 1, shot('/9j/mine'));
    const owners = new RunOwners(undefined);
    owners.started('theirs', undefined);
    owners.started('mine', 'native:alpha');
    const action = runScreenshotAction(store, owners);
    const as = (client: { id: string; kind: 'native' | 'panel' }) => ({
      client,
      signal: new AbortController().signal,
      runAction,
    });
    const alpha = as({ id: 'alpha', kind: 'native' });
    await expect(action.run({ run_id: 'mine', step: 1 }, alpha)).resolves.toMatchObject({ data: '/9j/mine' });
    await expect(action.run({ run_id: 'theirs', step: 1 }, alpha)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { run_id: 'theirs' },
    });
    await expect(action.run({ run_id: 'mine', step: 1 }, as({ id: 'beta', kind: 'native' }))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(action.run({ run_id: 'theirs', step: 1 }, as({ id: 'p', kind: 'panel' }))).resolves.toMatchObject({
      data: '/9j/theirs',
    });
  });
});
