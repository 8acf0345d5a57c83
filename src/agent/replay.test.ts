import { describe, expect, it } from 'vitest';
import type { ElementSummary } from '../protocol/events/state.events';
import type { StateSummary } from '../tools/actions';
import type { ActionGate } from './approval-gate';
import { Replay, type ReplayHost } from './replay';
import type { RunRecord } from './run-store';

const field = (index: number, name: string): ElementSummary => ({
  index,
  tag: 'input',
  role: 'textbox',
  name,
  attributes: { placeholder: name },
  box: { x: 0, y: 0, width: 1, height: 1 },
  is_new: false,
});

/** A page whose fields the test moves around; each action is recorded with its params. */
class PageHost implements ReplayHost {
  elements: ElementSummary[] = [field(1, 'Name'), field(2, 'City')];
  readonly calls: Array<{ name: string; params: unknown }> = [];
  readonly paused: boolean[] = [];
  onAction: (name: string) => void = () => undefined;

  runAction(name: string, params: unknown): Promise<unknown> {
    if (name === 'state') {
      return Promise.resolve({
        url: 'https://a.test/',
        tab_id: 't1',
        elements: this.elements,
      } as unknown as StateSummary);
    }
    this.calls.push({ name, params });
    this.onAction(name);
    return Promise.resolve({ typed: true });
  }

  emitPaused(paused: boolean): Promise<void> {
    this.paused.push(paused);
    return Promise.resolve();
  }
}

const identity = (name: string) => ({
  tag: 'input',
  role: 'textbox',
  name,
  attributes: { placeholder: name },
  occurrence: 0,
});

const record: RunRecord = {
  run_id: 'past',
  task: 'fill in the form',
  started_at: '2026-12-01T19:00:00.000Z',
  finished_at: '2026-12-01T19:01:00.000Z',
  reason: 'done',
  success: true,
  text: 'ok',
  steps: [
    {
      step: 1,
      goal: 'fill in',
      actions: [
        { name: 'input', params: { index: 1, text: 'Ada' }, result: 'typed', elements: { index: identity('Name') } },
        { name: 'click', params: { index: 9 }, error: { code: 'ELEMENT_NOT_FOUND', message: 'gone' } },
        { name: 'input', params: { index: 2, text: 'Paris' }, result: 'typed', elements: { index: identity('City') } },
      ],
    },
    { step: 2, goal: null, actions: [{ name: 'done', params: { text: 'ok' }, result: 'ok' }] },
  ],
};

describe('Replay', () => {
  it("replays the run's successful actions with each index found anew, skipping its failures and done", async () => {
    const host = new PageHost();
    host.elements = [field(1, 'Coupon'), field(2, 'City'), field(3, 'Name')];
    const result = await new Replay({ record, host, settleMs: 0 }).run();
    expect(host.calls).toEqual([
      { name: 'input', params: { index: 3, text: 'Ada' } },
      { name: 'input', params: { index: 2, text: 'Paris' } },
    ]);
    expect(result).toMatchObject({ run_id: 'past', replayed: 2, stopped: false });
  });

  it('fails ELEMENT_NOT_FOUND at the action whose element is gone, with the results so far', async () => {
    const host = new PageHost();
    host.onAction = () => {
      host.elements = [field(1, 'Name')];
    };
    const replay = new Replay({ record, host, settleMs: 0 });
    await expect(replay.run()).rejects.toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
      message: expect.stringContaining('input "City"'),
      details: { run_id: 'past', replayed: 1 },
    });
    expect(host.calls).toHaveLength(1);
  });

  it('a refused action is recorded and the replay goes on; a stop ends it before the next action', async () => {
    const host = new PageHost();
    const gate: ActionGate = {
      review: (action) =>
        Promise.resolve(
          (action.params as { text: string }).text === 'Ada'
            ? { kind: 'refused', risk: 'upload', reason: 'no' }
            : { kind: 'run' },
        ),
    };
    const refused = await new Replay({ record, host, gate, settleMs: 0 }).run();
    expect(refused.results.map((result) => [result.name, result.success, result.error_code])).toEqual([
      ['input', false, 'FORBIDDEN'],
      ['input', true, null],
    ]);
    const stopping = new PageHost();
    const replay = new Replay({ record, host: stopping, settleMs: 0 });
    stopping.onAction = () => replay.stop();
    const stopped = await replay.run();
    expect(stopped).toMatchObject({ replayed: 1, stopped: true });
    expect(stopping.calls).toHaveLength(1);
  });

  it('pauses before its next action until resumed', async () => {
    const host = new PageHost();
    const replay = new Replay({ record, host, settleMs: 0 });
    host.onAction = () => {
      if (host.calls.length === 1) {
        replay.pause();
      }
    };
    const running = replay.run();
    // The fake host answers in microtasks: once a macrotask turn has passed, the replay is as far as it gets.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.calls).toHaveLength(1);
    expect(replay.paused).toBe(true);
    replay.resume();
    expect(await running).toMatchObject({ replayed: 2 });
    expect(host.paused).toEqual([true, false]);
  });
});
