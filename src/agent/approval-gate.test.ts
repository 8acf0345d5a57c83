import { describe, expect, it } from 'vitest';
import type { ElementSummary } from '../protocol/events/state.events';
import type { StateSummary } from '../tools/actions';
import { createDeferred } from '../shared/deferred';
import { approvalGate, type ApprovalRequest } from './approval-gate';

function stateAt(url: string, elements: ElementSummary[] = []): StateSummary {
  return { tab_id: 't1', url, elements } as unknown as StateSummary;
}

const button = (index: number, name: string): ElementSummary => ({
  index,
  tag: 'button',
  role: 'button',
  name,
  attributes: {},
  box: { x: 0, y: 0, width: 1, height: 1 },
  is_new: false,
});

/** A page with one form posting to another origin, answered as find_elements would. */
function formPage(name: string, params: unknown): unknown {
  if (name !== 'find_elements') {
    throw new Error(`unexpected ${name}`);
  }
  const selector = (params as { selector: string }).selector;
  if (selector === 'form[action]') {
    return { elements: [{ tag: 'form', attributes: { action: 'https://pay.test/charge' }, index: null }], total: 1 };
  }
  if (selector.startsWith('form[action="https://pay.test/charge"]')) {
    return { elements: [{ tag: 'button', attributes: {}, index: 2 }], total: 1 };
  }
  return { elements: [], total: 0 };
}

describe('approvalGate', () => {
  it('lets every action run when approval is off, asking nobody', async () => {
    const asked: ApprovalRequest[] = [];
    const gate = approvalGate({
      runId: 'r',
      approval: false,
      risky: ['evaluate'],
      runAction: () => Promise.reject(new Error('not asked')),
      ask: (request) => {
        asked.push(request);
        return Promise.resolve(true);
      },
    });
    const verdict = await gate.review(
      { name: 'evaluate', params: { code: '1' } },
      stateAt('https://a.test/'),
      new AbortController().signal,
    );
    expect(verdict).toEqual({ kind: 'run' });
    expect(asked).toEqual([]);
  });

  it("asks about a submit to another origin (found by asking the page's forms) and answers refused or run", async () => {
    const answers = [false, true];
    const asked: ApprovalRequest[] = [];
    const gate = approvalGate({
      runId: 'r',
      approval: true,
      risky: ['cross_origin_form', 'new_domain'],
      runAction: (name, params) => Promise.resolve(formPage(name, params)),
      ask: (request) => {
        asked.push(request);
        return Promise.resolve(answers.shift() ?? false);
      },
    });
    const state = stateAt('https://shop.test/cart', [button(1, 'Save'), button(2, 'Pay')]);
    const signal = new AbortController().signal;
    expect(await gate.review({ name: 'click', params: { index: 1 } }, state, signal)).toEqual({ kind: 'run' });
    expect(await gate.review({ name: 'click', params: { index: 2 } }, state, signal)).toMatchObject({
      kind: 'refused',
      risk: 'cross_origin_form',
    });
    expect(await gate.review({ name: 'click', params: { index: 2 } }, state, signal)).toEqual({ kind: 'run' });
    expect(asked.map((request) => [request.run_id, request.action, request.risk])).toEqual([
      ['r', 'click', 'cross_origin_form'],
      ['r', 'click', 'cross_origin_form'],
    ]);
    expect(new Set(asked.map((request) => request.approval_id)).size).toBe(2);
  });

  it('a domain becomes known once the run has acted on a page of it', async () => {
    const gate = approvalGate({
      runId: 'r',
      approval: true,
      risky: ['new_domain'],
      runAction: () => Promise.resolve({ elements: [], total: 0 }),
      ask: () => Promise.resolve(false),
    });
    const signal = new AbortController().signal;
    const toB = { name: 'navigate', params: { url: 'https://b.test/' } };
    expect((await gate.review(toB, stateAt('https://a.test/'), signal)).kind).toBe('refused');
    expect((await gate.review({ name: 'scroll', params: {} }, stateAt('https://www.b.test/x'), signal)).kind).toBe(
      'run',
    );
    expect((await gate.review(toB, stateAt('https://a.test/'), signal)).kind).toBe('run');
  });

  it('answers stopped when the run stops while it waits, or before it asks', async () => {
    const stop = new AbortController();
    const asked = createDeferred<void>();
    const gate = approvalGate({
      runId: 'r',
      approval: true,
      risky: ['evaluate'],
      runAction: () => Promise.resolve({ elements: [], total: 0 }),
      ask: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve('stopped'), { once: true });
          asked.resolve();
        }),
    });
    const evaluate = { name: 'evaluate', params: { code: '1' } };
    const waiting = gate.review(evaluate, stateAt('https://a.test/'), stop.signal);
    await asked.promise;
    stop.abort();
    expect(await waiting).toEqual({ kind: 'stopped' });
    expect(await gate.review(evaluate, stateAt('https://a.test/'), stop.signal)).toEqual({ kind: 'stopped' });
  });
});
