import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../protocol/panel-messages';
import { runsIn } from './agent-runs';
import { recordOf } from './run-records';
import { stepShotOf } from './step-shots';

function event(type: string, payload: Record<string, unknown>, at: number): TimelineEntry {
  return {
    kind: 'event',
    id: `e${at}`,
    type,
    parent_id: null,
    source: 'agent:r1',
    status: 'completed',
    created_at: at,
    completed_at: at,
    payload,
    handlers: [],
  };
}

describe("a step's picture in the panel", () => {
  it('reads whether a streamed step has a picture, leniently: a step of an older worker has none', () => {
    const base = { run_id: 'r1', url: 'http://x/', thinking: null, next_goal: null, actions: [], error: null };
    const runs = runsIn([
      event('AgentRunStartedEvent', { run_id: 'r1', task: 'T', model: 'm', provider: 'openai', max_steps: 5 }, 1),
      event('AgentStepEvent', { ...base, step: 1, screenshot: { format: 'jpeg', bytes: 9000 } }, 2),
      event('AgentStepEvent', { ...base, step: 2, screenshot: null }, 3),
      event('AgentStepEvent', { ...base, step: 3 }, 4),
      event('AgentStepEvent', { ...base, step: 4, screenshot: 'garbled' }, 5),
    ]);
    expect(runs[0]?.steps.map((step) => step.screenshot)).toEqual([{ format: 'jpeg', bytes: 9000 }, null, null, null]);
  });

  it("reads a kept run's marks the same way", () => {
    const record = recordOf({
      run_id: 'r1',
      task: 'T',
      started_at: '',
      finished_at: '',
      reason: 'done',
      success: true,
      text: 'ok',
      steps: [
        { step: 1, goal: null, actions: [], screenshot: { format: 'jpeg', bytes: 10 } },
        { step: 2, goal: null, actions: [] },
      ],
    });
    expect(record?.steps.map((step) => step.screenshot)).toEqual([{ format: 'jpeg', bytes: 10 }, null]);
  });

  it('makes a data URL of a run_screenshot answer, and nothing of one that is not a picture', () => {
    expect(stepShotOf({ run_id: 'r1', step: 1, format: 'jpeg', data: '/9j/4AAQ' })).toEqual({
      src: 'data:image/jpeg;base64,/9j/4AAQ',
    });
    expect(stepShotOf({ format: 'gif', data: 'x' })).toBeUndefined();
    expect(stepShotOf({ format: 'png', data: '' })).toBeUndefined();
    expect(stepShotOf(undefined)).toBeUndefined();
  });
});
