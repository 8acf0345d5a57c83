import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../../test/fakes/memory-store';
import type { RunRecord } from '../../../agent/run-store';
import { StorageRunStore } from './storage-run-store';

function record(id: string, text = 'ok'): RunRecord {
  return {
    run_id: id,
    task: `task ${id}`,
    started_at: '2026-12-01T19:00:00.000Z',
    finished_at: '2026-12-01T19:01:00.000Z',
    reason: 'done',
    success: true,
    text,
    steps: [{ step: 1, goal: null, actions: [{ name: 'done', params: { text }, result: text }] }],
  };
}

describe('StorageRunStore', () => {
  it('keeps runs newest first across instances, replaces one of the same id and drops the oldest past the cap', async () => {
    const storage = memoryStore();
    let cap = 3;
    const store = new StorageRunStore(storage, () => cap);
    await Promise.all([store.save(record('a')), store.save(record('b')), store.save(record('c'))]);
    await store.save(record('b', 'again'));
    const reopened = new StorageRunStore(storage, () => cap);
    expect((await reopened.list()).map((run) => run.run_id)).toEqual(['b', 'c', 'a']);
    expect((await reopened.get('b'))?.text).toBe('again');
    expect((await reopened.list())[0]?.steps).toBe(1);
    cap = 2;
    await reopened.save(record('d'));
    expect((await reopened.list()).map((run) => run.run_id)).toEqual(['d', 'b']);
    expect(await reopened.get('a')).toBeUndefined();
  });

  it('drops the oldest runs past the byte budget but always keeps the newest', async () => {
    const store = new StorageRunStore(memoryStore(), () => 50, 1000);
    await store.save(record('a', 'x'.repeat(400)));
    await store.save(record('b', 'y'.repeat(400)));
    await store.save(record('c', 'z'.repeat(2000)));
    expect((await store.list()).map((run) => run.run_id)).toEqual(['c']);
  });
});
