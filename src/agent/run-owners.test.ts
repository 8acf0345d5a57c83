import { describe, expect, it } from 'vitest';
import { RunOwners } from './run-owners';
import { MemoryRunStore, type RunRecord } from './run-store';

function record(runId: string, owner?: string): RunRecord {
  return {
    run_id: runId,
    ...(owner === undefined ? {} : { owner }),
    task: 't',
    started_at: '2026-12-03T00:00:00.000Z',
    finished_at: '2026-12-03T00:00:01.000Z',
    reason: 'done',
    success: true,
    text: '',
    steps: [],
  };
}

describe('RunOwners', () => {
  it('lists a program its own runs only, and the person every run', async () => {
    const store = new MemoryRunStore(10);
    await store.save(record('person-run'));
    await store.save(record('alpha-run', 'native:alpha'));
    await store.save(record('beta-run', 'mcp:beta'));
    const owners = new RunOwners(store);
    const all = await store.list();
    expect(owners.visible({ id: 'alpha', kind: 'native' }, all).map((run) => run.run_id)).toEqual(['alpha-run']);
    expect(owners.visible({ id: 'beta', kind: 'mcp' }, all).map((run) => run.run_id)).toEqual(['beta-run']);
    expect(owners.visible({ id: 'p', kind: 'panel' }, all).map((run) => run.run_id)).toEqual([
      'beta-run',
      'alpha-run',
      'person-run',
    ]);
  });

  it('refuses a program a kept run or a run going that is not its own, FORBIDDEN naming the run', async () => {
    const store = new MemoryRunStore(10);
    await store.save(record('alpha-run', 'native:alpha'));
    await store.save(record('person-run'));
    const owners = new RunOwners(store);
    owners.started('going', 'native:alpha');
    const alpha = { id: 'alpha', kind: 'native' } as const;
    await expect(owners.check(alpha, 'alpha-run', 'rerun')).resolves.toBeUndefined();
    await expect(owners.check(alpha, 'going', 'run_screenshot')).resolves.toBeUndefined();
    await expect(owners.check(alpha, 'person-run', 'run_history')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { run_id: 'person-run' },
    });
    await expect(owners.check({ id: 'beta', kind: 'native' }, 'going', 'run_screenshot')).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(owners.check({ id: 'p', kind: 'panel' }, 'alpha-run', 'rerun')).resolves.toBeUndefined();
  });
});
