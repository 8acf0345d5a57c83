import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../shared/errors';
import { batchAction, BatchParams } from './batch-action';
import type { ServerActionCaller } from './server-action';

/** A caller whose actions answer from a script, recording what ran. */
function caller(answer: (action: string, params: unknown) => unknown, signal = new AbortController().signal) {
  const ran: Array<{ action: string; params: unknown }> = [];
  const value: ServerActionCaller = {
    client: { id: 'mcp:test', kind: 'native' },
    signal,
    runAction: (action, params) => {
      ran.push({ action, params });
      return Promise.resolve().then(() => answer(action, params));
    },
  };
  return { ran, value };
}

const batch = batchAction((name) => ['click', 'input', 'search_page', 'tabs'].includes(name));
const run = (steps: unknown, on: ServerActionCaller) => batch.run(BatchParams.parse({ steps }), on);

describe('batch', () => {
  it('runs the steps in order and answers each one', async () => {
    const { ran, value } = caller((action) => ({ did: action }));
    const answer = await run(
      [
        { action: 'input', params: { index: 1, text: 'a' } },
        { action: 'click', params: { index: 2 } },
      ],
      value,
    );
    expect(answer).toEqual({
      steps: [
        { action: 'input', ok: true, result: { did: 'input' } },
        { action: 'click', ok: true, result: { did: 'click' } },
      ],
      completed: 2,
      stopped_at: null,
      reason: null,
    });
    expect(ran.map((step) => step.action)).toEqual(['input', 'click']);
  });

  it('stops at a failing step with its error, and runs nothing after it', async () => {
    const { ran, value } = caller((action) => {
      if (action === 'click') {
        throw new TabpilotError('ELEMENT_NOT_FOUND', 'No element 9');
      }
      return {};
    });
    const answer = await run([{ action: 'input' }, { action: 'click' }, { action: 'input' }], value);
    expect(answer).toMatchObject({
      completed: 1,
      stopped_at: 2,
      reason: 'click failed: ELEMENT_NOT_FOUND: No element 9',
    });
    expect(ran).toHaveLength(2);
  });

  it('checks an expectation on the tab the step named, looking again until it holds', async () => {
    let searches = 0;
    const { ran, value } = caller((action) => {
      if (action === 'search_page') {
        searches += 1;
        return { total: searches >= 3 ? 1 : 0 };
      }
      return {};
    });
    const answer = await run(
      [{ action: 'click', params: { tab_id: 'AB12', index: 1 }, expect: { text_appears: 'Saved', timeout_ms: 2_000 } }],
      value,
    );
    expect(answer).toMatchObject({ completed: 1, stopped_at: null });
    expect(ran.filter((step) => step.action === 'search_page').at(-1)?.params).toMatchObject({
      tab_id: 'AB12',
      pattern: 'Saved',
    });
  });

  it('stops at an expectation that does not hold in its time, saying what is missing', async () => {
    const { value } = caller((action) =>
      action === 'tabs' ? { tabs: [{ tab_id: 'T1', url: 'https://a.example/form' }], focused_tab_id: 'T1' } : {},
    );
    const answer = await run(
      [{ action: 'click', expect: { url_includes: '/done', timeout_ms: 150 } }, { action: 'click' }],
      value,
    );
    expect(answer).toMatchObject({
      completed: 0,
      stopped_at: 1,
      reason: expect.stringContaining('"https://a.example/form" does not contain "/done"'),
    });
  });

  it('refuses an action a batch cannot run before running anything', async () => {
    const { ran, value } = caller(() => ({}));
    await expect(run([{ action: 'click' }, { action: 'run' }], value)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'steps.1.action' },
    });
    expect(ran).toEqual([]);
  });

  it('ends when its client cancels it, between steps', async () => {
    const controller = new AbortController();
    const { ran, value } = caller((action) => {
      controller.abort('cancelled by its client');
      return { did: action };
    }, controller.signal);
    await expect(run([{ action: 'click' }, { action: 'click' }], value)).rejects.toBeDefined();
    expect(ran).toHaveLength(1);
  });

  it('takes at most 20 steps, and an expectation must name something', () => {
    expect(BatchParams.safeParse({ steps: Array.from({ length: 21 }, () => ({ action: 'click' })) }).success).toBe(
      false,
    );
    expect(BatchParams.safeParse({ steps: [{ action: 'click', expect: { timeout_ms: 10 } }] }).success).toBe(false);
  });
});
