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
    expect(rerunLine({ flow: 'f', steps: 4, completed: 4, stopped_at: null, reason: null, screenshot: null })).toBe(
      'Rerun without the model: 4 of 4 steps replayed.',
    );
    const reason = 'step 2 (click button "Go"): no element on the page is button "Go"';
    expect(rerunLine({ flow: 'f', steps: 3, completed: 1, stopped_at: 2, reason, screenshot: '/tmp/x.png' })).toBe(
      `Rerun stopped at step 2 of 3: ${reason}`,
    );
  });
});
