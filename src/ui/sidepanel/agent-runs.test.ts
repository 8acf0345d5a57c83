import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../protocol/panel-messages';
import { finishLine, liveRun, outcomeLine, paramsLine, reachHint, runKey, runsIn } from './agent-runs';

let next = 0;
function event(type: string, payload: Record<string, unknown>): TimelineEntry {
  next += 1;
  return {
    kind: 'event',
    id: `e${next}`,
    type,
    parent_id: null,
    source: 'agent:r1',
    status: 'completed',
    created_at: next,
    completed_at: next,
    payload,
    handlers: [],
  };
}

const step = (run: string, n: number, actions: unknown[] = []): TimelineEntry =>
  event('AgentStepEvent', {
    run_id: run,
    step: n,
    url: 'http://x/',
    thinking: 'why',
    next_goal: 'goal',
    actions,
    error: null,
    model_attempts: 1,
    prompt_chars: 10,
  });

describe('runs read from the timeline', () => {
  it('groups steps under their run, follows pause and finish, and drops a run whose start is gone', () => {
    const entries = [
      step('gone', 1),
      event('AgentRunStartedEvent', { run_id: 'r1', task: 'T1', model: 'm', provider: 'openai', max_steps: 5 }),
      step('r1', 1, [
        {
          name: 'click',
          params: { index: 1 },
          success: true,
          extracted_content: 'Clicked',
          error: null,
          error_code: null,
        },
      ]),
      event('AgentPausedEvent', { run_id: 'r1', paused: true }),
      { kind: 'note', id: 'n', created_at: 0, level: 'info', source: null, text: 'hi' } as TimelineEntry,
    ];
    let runs = runsIn(entries);
    expect(runs.map((run) => run.runId)).toEqual(['r1']);
    expect(runs[0]?.paused).toBe(true);
    expect(runs[0]?.steps[0]?.actions[0]?.name).toBe('click');
    expect(liveRun(runs)?.runId).toBe('r1');
    entries.push(event('AgentRunFinishedEvent', { run_id: 'r1', reason: 'done', success: true, text: 'ok', steps: 1 }));
    runs = runsIn(entries);
    expect(runs[0]?.paused).toBe(false);
    expect(liveRun(runs)).toBeUndefined();
    expect(finishLine(runs[0]!.finished!)).toBe('Done (succeeded) after 1 step');
  });

  it('a follow-up goes on with the same run: its steps kept, the new task last, and it is the newest run', () => {
    const entries = [
      event('AgentRunStartedEvent', { run_id: 'f1', task: 'first', model: 'm', provider: 'openai', max_steps: 5 }),
      step('f1', 1),
      event('AgentRunFinishedEvent', { run_id: 'f1', reason: 'done', success: true, text: 'a', steps: 1 }),
      event('AgentRunStartedEvent', { run_id: 'f2', task: 'other', model: 'm', provider: 'openai', max_steps: 5 }),
      event('AgentRunFinishedEvent', { run_id: 'f2', reason: 'done', success: true, text: 'b', steps: 0 }),
      event('AgentRunStartedEvent', { run_id: 'f1', task: 'then', model: 'm', provider: 'openai', max_steps: 5 }),
    ];
    const runs = runsIn(entries);
    expect(runs.map((run) => run.runId)).toEqual(['f2', 'f1']);
    const run = liveRun(runs);
    expect(run?.tasks).toEqual(['first', 'then']);
    expect(run?.task).toBe('then');
    expect(run?.steps.map((known) => known.step)).toEqual([1]);
    expect(runKey(run)).toBe('f1:2');
  });

  it('keeps the approvals a run waits on until each is resolved or the run ends', () => {
    const entries = [
      event('AgentRunStartedEvent', { run_id: 'r2', task: 'T2', model: 'm', provider: 'openai', max_steps: 5 }),
      event('AgentApprovalRequestedEvent', {
        run_id: 'r2',
        approval_id: 'a1',
        action: 'navigate',
        params: { url: 'http://other/' },
        risk: 'new_domain',
        reason: 'a new domain: other',
      }),
      event('AgentApprovalRequestedEvent', {
        run_id: 'r2',
        approval_id: 'a2',
        action: 'evaluate',
        params: {},
        risk: 'evaluate',
        reason: 'runs script',
      }),
    ];
    expect(runsIn(entries)[0]?.approvals.map((approval) => approval.approval_id)).toEqual(['a1', 'a2']);
    entries.push(event('AgentApprovalResolvedEvent', { run_id: 'r2', approval_id: 'a1', approved: true }));
    expect(runsIn(entries)[0]?.approvals.map((approval) => approval.approval_id)).toEqual(['a2']);
    entries.push(
      event('AgentRunFinishedEvent', { run_id: 'r2', reason: 'stopped', success: false, text: '', steps: 0 }),
    );
    expect(runsIn(entries)[0]?.approvals).toEqual([]);
  });

  it('says what an action did and what a refused fetch needs', () => {
    const base = { name: 'x', params: {}, success: false, extracted_content: null, error: 'no such element' };
    expect(outcomeLine(base)).toBe('no such element');
    expect(outcomeLine({ ...base, success: true, extracted_content: 'Typed' })).toBe('Typed');
    expect(paramsLine({ text: 'a'.repeat(200) }, 20)).toHaveLength(20);
    expect(reachHint('model request failed: Cannot connect to API: Failed to fetch')).toContain('Allow access');
    expect(reachHint('HTTP 401: bad key')).toBeUndefined();
    expect(finishLine({ run_id: 'r', reason: 'stopped', success: false, text: '', steps: 0 })).toBe(
      'Stopped after 0 steps',
    );
  });
});
