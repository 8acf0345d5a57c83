import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { createDefaultRegistry } from './actions';
import { CommandServer } from './command-server';
import { servedConfig } from '../../test/fakes/served-config';

describe('ActionResult', () => {
  it('reports success with a model-facing summary and the structured result', async () => {
    const { session } = await startedFakeSession();
    const result = await createDefaultRegistry().act(
      'navigate',
      { url: 'http://a.test/' },
      new CommandServer(session, createDefaultRegistry(), servedConfig).contextFor({ id: 'x', kind: 'test' }),
      servedConfig.fields,
    );
    expect(result).toMatchObject({ action: 'navigate', success: true, error: null, result: { url: 'http://a.test/' } });
    expect(result.extracted_content).toContain('http://a.test/');
  });

  it('turns a failure into a readable result instead of throwing', async () => {
    const { session } = await startedFakeSession();
    const ctx = new CommandServer(session, createDefaultRegistry(), servedConfig).contextFor({ id: 'x', kind: 'test' });
    expect(await createDefaultRegistry().act('switch', { tab_id: 'nope' }, ctx, servedConfig.fields)).toMatchObject({
      success: false,
      error_code: 'TAB_NOT_FOUND',
      result: null,
    });
    expect(await createDefaultRegistry().act('fly', {}, ctx, servedConfig.fields)).toMatchObject({
      success: false,
      error_code: 'UNKNOWN_ACTION',
    });
  });
});
