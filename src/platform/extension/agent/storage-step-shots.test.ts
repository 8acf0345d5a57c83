import { describe, expect, it } from 'vitest';
import { shotBytes } from '../../../agent/step-shots';
import { StorageStepShots, type ShotArea } from './storage-step-shots';

/** chrome.storage.local as a map of structured clones, counting what each write and removal touched. */
function memoryArea(): ShotArea & { data: Map<string, unknown>; writes: string[][] } {
  const data = new Map<string, unknown>();
  const writes: string[][] = [];
  return {
    data,
    writes,
    get: (key) => Promise.resolve(structuredClone(data.get(key))),
    set: (items) => {
      writes.push(Object.keys(items));
      for (const [key, value] of Object.entries(items)) {
        data.set(key, structuredClone(value));
      }
      return Promise.resolve();
    },
    remove: (keys) => {
      for (const key of keys) {
        data.delete(key);
      }
      return Promise.resolve();
    },
  };
}

const shot = (fill: string) => ({ format: 'jpeg' as const, data: fill.repeat(1000) });

describe('StorageStepShots', () => {
  it('keeps each picture under a key of its own, with an index; reading one reads no other', async () => {
    const area = memoryArea();
    const store = new StorageStepShots(area);
    await store.put('r1', 1, shot('a'));
    await store.put('r1', 2, shot('b'));
    expect(area.writes).toEqual([
      ['tabpilot.run_shot.r1/1', 'tabpilot.run_shots'],
      ['tabpilot.run_shot.r1/2', 'tabpilot.run_shots'],
    ]);
    expect(area.data.get('tabpilot.run_shots')).toEqual([
      ['r1/1', shotBytes(shot('a'))],
      ['r1/2', shotBytes(shot('b'))],
    ]);
    expect((await store.get('r1', 2))?.data).toBe('b'.repeat(1000));
    expect(await store.get('r1', 3)).toBeUndefined();
  });

  it('drops the oldest pictures from storage past the budget, counting on after a restart', async () => {
    const area = memoryArea();
    const budget = shotBytes(shot('a')) * 2;
    await new StorageStepShots(area, budget).put('r1', 1, shot('a'));
    await new StorageStepShots(area, budget).put('r1', 2, shot('b'));
    // A restarted worker: a new store over the same storage reads the index before counting.
    const restarted = new StorageStepShots(area, budget);
    await restarted.put('r2', 1, shot('c'));
    expect(area.data.has('tabpilot.run_shot.r1/1')).toBe(false);
    expect(await restarted.get('r1', 1)).toBeUndefined();
    expect((await restarted.get('r1', 2))?.data).toBe('b'.repeat(1000));
    expect((await restarted.get('r2', 1))?.data).toBe('c'.repeat(1000));
    const kept = [...area.data.keys()].filter((key) => key.startsWith('tabpilot.run_shot.'));
    expect(kept.sort()).toEqual(['tabpilot.run_shot.r1/2', 'tabpilot.run_shot.r2/1']);
  });

  it('two pictures kept at once both land in the index', async () => {
    const area = memoryArea();
    const store = new StorageStepShots(area);
    await Promise.all([store.put('r1', 1, shot('a')), store.put('r1', 2, shot('b'))]);
    expect((area.data.get('tabpilot.run_shots') as unknown[]).length).toBe(2);
  });

  it('a write that fails is the caller’s; the next one still lands', async () => {
    const area = memoryArea();
    const set = area.set;
    let fail = true;
    area.set = (items) => (fail ? Promise.reject(new Error('QUOTA_BYTES quota exceeded')) : set(items));
    const store = new StorageStepShots(area);
    await expect(store.put('r1', 1, shot('a'))).rejects.toThrow('quota');
    fail = false;
    await store.put('r1', 2, shot('b'));
    expect((await store.get('r1', 2))?.data).toBe('b'.repeat(1000));
  });

  it('leaves out a stored value that is not a picture', async () => {
    const area = memoryArea();
    area.data.set('tabpilot.run_shot.r1/1', { format: 'gif', data: 'x' });
    area.data.set('tabpilot.run_shots', [['r1/1', 3], 'junk']);
    const store = new StorageStepShots(area);
    expect(await store.get('r1', 1)).toBeUndefined();
    await store.put('r1', 2, shot('b'));
    expect(area.data.get('tabpilot.run_shots')).toEqual([
      ['r1/1', 3],
      ['r1/2', shotBytes(shot('b'))],
    ]);
  });
});
