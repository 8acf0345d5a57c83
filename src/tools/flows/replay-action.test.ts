import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../../shared/errors';
import { isRecord } from '../../shared/narrow';
import type { ServerActionCaller } from '../server-action';
import { replayAction, ReplayParams } from './replay-action';

/** A caller whose actions answer from a script, recording what ran. */
function caller(answer: (action: string, params: Record<string, unknown>) => unknown) {
  const ran: Array<{ action: string; params: Record<string, unknown> }> = [];
  const value: ServerActionCaller = {
    client: { id: 'mcp:test', kind: 'native' },
    signal: new AbortController().signal,
    runAction: (action, params) => {
      const given = isRecord(params) ? params : {};
      ran.push({ action, params: given });
      return Promise.resolve().then(() => answer(action, given));
    },
  };
  return { ran, value };
}

/** A page where every locator names one element, index 7. */
function onePage(action: string): unknown {
  if (action === 'find_elements') {
    return { total: 1, elements: [{ index: 7 }] };
  }
  return action === 'screenshot' ? { path: '/out/replay-step-2.png' } : {};
}

const flow = {
  format: 'tabpilot-flow',
  version: 1,
  name: 'Log in',
  steps: [
    { action: 'fill', locator: { label: 'User' }, input: { param: 'user' } },
    { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
    { action: 'click', locator: { role: 'button', name: 'Log in' } },
  ],
  defaults: { user: 'ada' },
};

const replay = replayAction();
const run = (params: unknown, on: ServerActionCaller) => replay.run(ReplayParams.parse(params), on);

describe('replay', () => {
  it('runs each step on the index its locator finds, a secret as its placeholder, a parameter as given', async () => {
    const { ran, value } = caller(onePage);
    const result = await run({ flow, params: { user: 'grace' } }, value);
    expect(result).toEqual({
      flow: 'Log in',
      steps: 3,
      completed: 3,
      stopped_at: null,
      reason: null,
      screenshot: null,
    });
    const acted = ran.filter((step) => ['input', 'click'].includes(step.action));
    expect(acted).toEqual([
      { action: 'input', params: { index: 7, text: 'grace' } },
      { action: 'input', params: { index: 7, text: '<secret>password</secret>' } },
      { action: 'click', params: { index: 7 } },
    ]);
    expect(ran.find((step) => step.action === 'find_elements')?.params['selector']).toBe('locator={"label":"User"}');
  });

  it('stops at the step whose action fails, with its error and a picture', async () => {
    const { ran, value } = caller((action, params) => {
      if (action === 'input' && params['text'] === '<secret>password</secret>') {
        throw new TabpilotError('FORBIDDEN', 'no secret "password" for this site');
      }
      return onePage(action);
    });
    const result = await run({ flow }, value);
    expect(result).toEqual({
      flow: 'Log in',
      steps: 3,
      completed: 1,
      stopped_at: 2,
      reason: 'step 2 (fill the field labelled "Password"): FORBIDDEN: no secret "password" for this site',
      screenshot: '/out/replay-step-2.png',
    });
    expect(ran.some((step) => step.action === 'click')).toBe(false);
  });

  it('refuses a parameter the flow lacks a value for, or does not take, before any step runs', async () => {
    const { ran, value } = caller(onePage);
    const { defaults: _defaults, ...noDefaults } = flow;
    await expect(run({ flow: noDefaults }, value)).rejects.toThrow('params: the flow needs a value for user');
    await expect(run({ flow, params: { usr: 'x' } }, value)).rejects.toThrow(/params\.usr: the flow has no such/);
    await expect(run({ flow: { ...flow, steps: [] } }, value)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    expect(ran).toEqual([]);
  });

  it('scrolls the page by pages or px, and the container of the element a locator names', async () => {
    const { ran, value } = caller(onePage);
    const scrolls = {
      ...flow,
      steps: [
        { action: 'scroll_by', direction: 'down' },
        { action: 'scroll_by', direction: 'up', pages: 2 },
        { action: 'scroll_by', direction: 'right', amount: 300, locator: { test_id: 'carousel' } },
      ],
      defaults: {},
    };
    expect(await run({ flow: scrolls }, value)).toMatchObject({ completed: 3, stopped_at: null });
    expect(ran.filter((step) => step.action === 'scroll').map((step) => step.params)).toEqual([
      { direction: 'down', pages: 1 },
      { direction: 'up', pages: 2 },
      { direction: 'right', amount: 300, index: 7 },
    ]);
  });
});
