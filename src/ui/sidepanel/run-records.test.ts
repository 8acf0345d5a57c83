import { describe, expect, it } from 'vitest';
import { recordOf, rerunLine, summariesOf } from './run-records';

describe('kept runs as the panel reads them', () => {
  it('reads summaries and records, skipping what does not parse', () => {
    const summary = {
      run_id: 'r1',
      task: 'T',
      started_at: '2026-12-01T19:00:00.000Z',
      finished_at: '2026-12-01T19:01:00.000Z',
      reason: 'done',
      success: true,
      text: 'ok',
      steps: 2,
    };
    expect(summariesOf({ runs: [summary, { nope: 1 }] }).map((run) => run.run_id)).toEqual(['r1']);
    expect(summariesOf(null)).toEqual([]);
    const record = recordOf({
      ...summary,
      steps: [
        {
          step: 1,
          goal: 'g',
          actions: [
            { name: 'click', params: { index: 1 }, result: 'Clicked' },
            { name: 'input', params: {}, error: { code: 'ELEMENT_NOT_FOUND', message: 'gone' } },
          ],
        },
      ],
    });
    expect(record?.steps[0]?.actions[1]?.error?.message).toBe('gone');
    expect(recordOf({ run_id: 'x' })).toBeUndefined();
  });

  it('says what a rerun did', () => {
    expect(rerunLine({ replayed: 4, results: [] })).toBe('Rerun without the model: 4 actions replayed.');
    expect(rerunLine({ replayed: 1, stopped: true })).toBe('Rerun stopped after 1 action.');
  });
});
