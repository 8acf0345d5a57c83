import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { toActionResult, type ActionResult } from './action-result';
import { createDefaultRegistry } from './actions';
import { CommandServer } from './command-server';
import type { ActionContext } from './registry';
import { servedConfig } from '../../test/fakes/served-config';

/** An action run as the agent's actions are: its outcome as an ActionResult, failures included. */
function act(name: string, params: unknown, ctx: ActionContext): Promise<ActionResult> {
  return toActionResult(name, () => createDefaultRegistry().run(name, params, ctx, servedConfig.fields));
}

describe('ActionResult', () => {
  it('reports success with a model-facing summary and the structured result', async () => {
    const { session } = await startedFakeSession();
    const ctx = new CommandServer(session, createDefaultRegistry(), servedConfig).contextFor({ id: 'x', kind: 'test' });
    const result = await act('navigate', { url: 'http://a.test/' }, ctx);
    expect(result).toMatchObject({ action: 'navigate', success: true, error: null, result: { url: 'http://a.test/' } });
    expect(result.extracted_content).toContain('http://a.test/');
  });

  it('turns a failure into a readable result instead of throwing', async () => {
    const { session } = await startedFakeSession();
    const ctx = new CommandServer(session, createDefaultRegistry(), servedConfig).contextFor({ id: 'x', kind: 'test' });
    expect(await act('switch', { tab_id: 'nope' }, ctx)).toMatchObject({
      success: false,
      error_code: 'TAB_NOT_FOUND',
      result: null,
    });
    expect(await act('fly', {}, ctx)).toMatchObject({
      success: false,
      error_code: 'UNKNOWN_ACTION',
    });
  });
});
