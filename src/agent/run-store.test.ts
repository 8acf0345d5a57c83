import { describe, expect, it } from 'vitest';
import { MemoryRunStore, type RunRecord } from './run-store';

function record(runId: string, steps = 1): RunRecord {
  return {
    run_id: runId,
    task: `task ${runId}`,
    started_at: '2026-12-01T19:00:00.000Z',
    finished_at: '2026-12-01T19:01:00.000Z',
    reason: 'done',
    success: true,
    text: 'ok',
    steps: Array.from({ length: steps }, (_, i) => ({
      step: i + 1,
      goal: null,
      actions: [{ name: 'click', params: { index: 1 }, result: 'clicked' }],
    })),
  };
}

describe('MemoryRunStore', () => {
  it('lists the runs newest first as summaries, and gives a run back whole', async () => {
    const store = new MemoryRunStore(10);
    await store.save(record('a', 2));
    await store.save(record('b', 3));
    expect((await store.list()).map((summary) => [summary.run_id, summary.steps])).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
    expect(await store.get('a')).toEqual(record('a', 2));
    expect(await store.get('nope')).toBeUndefined();
  });

  it('keeps at most its cap, dropping the oldest; the cap is read at each save', async () => {
    let cap = 2;
    const store = new MemoryRunStore(() => cap);
    for (const id of ['a', 'b', 'c']) {
      await store.save(record(id));
    }
    expect((await store.list()).map((summary) => summary.run_id)).toEqual(['c', 'b']);
    cap = 1;
    await store.save(record('d'));
    expect((await store.list()).map((summary) => summary.run_id)).toEqual(['d']);
  });

  it('keeps a copy: changing the saved object afterwards changes nothing kept; the same id replaces', async () => {
    const store = new MemoryRunStore(5);
    const steps = [...record('a').steps];
    await store.save({ ...record('a'), steps });
    steps.length = 0;
    expect((await store.get('a'))?.steps).toHaveLength(1);
    await store.save({ ...record('a'), text: 'second' });
    expect(await store.list()).toHaveLength(1);
    expect((await store.get('a'))?.text).toBe('second');
  });
});
