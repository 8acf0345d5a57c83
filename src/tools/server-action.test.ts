import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDeferred } from '../shared/deferred';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { createDefaultRegistry } from './actions';
import { CommandServer } from './command-server';
import type { ServerAction } from './server-action';
import { servedConfig } from '../../test/fakes/served-config';

const Params = z.strictObject({ word: z.string().min(1).describe('A word') });

function echo(calls: Array<{ word: string; client: string }>): ServerAction<typeof Params> {
  return {
    name: 'echo',
    summary: 'Echo.',
    description: 'Says the word back.',
    params: Params,
    category: 'session',
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    run: async (params, caller) => {
      calls.push({ word: params.word, client: caller.client.id });
      return { said: params.word };
    },
  };
}

describe('server actions', () => {
  it('serves one beside the registry: params checked first, described with the rest', async () => {
    const { session } = await startedFakeSession();
    const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
    const calls: Array<{ word: string; client: string }> = [];
    server.addServerAction(echo(calls));
    const connection = server.connect({ id: 'c1', kind: 'test' }, { send: () => undefined });
    expect(await connection.handle({ id: 1, action: 'echo', params: { word: 'hi' } })).toEqual({
      id: 1,
      ok: true,
      result: { said: 'hi' },
    });
    expect(await connection.handle({ id: 2, action: 'echo', params: { word: '' } })).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'INVALID_PARAMS', details: { field: 'word' } },
    });
    expect(calls).toEqual([{ word: 'hi', client: 'c1' }]);
    const described = server.describe() as { actions: Array<{ name: string; params_schema: unknown }> };
    expect(described.actions.find((action) => action.name === 'echo')?.params_schema).toMatchObject({
      properties: { word: { type: 'string' } },
    });
  });

  it('refuses a name that is served already', async () => {
    const { session } = await startedFakeSession();
    const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
    server.addServerAction(echo([]));
    expect(() => server.addServerAction(echo([]))).toThrow(/echo is served already/);
    expect(() => server.addServerAction({ ...echo([]), name: 'click' })).toThrow(/click is served already/);
  });

  it("an immediate one runs beside the same client's request in flight; another waits its turn", async () => {
    const { session } = await startedFakeSession();
    const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
    const release = createDeferred<void>();
    const order: string[] = [];
    server.addServerAction({
      ...echo([]),
      name: 'long',
      run: async () => {
        await release.promise;
        order.push('long');
        return {};
      },
    });
    server.addServerAction({
      ...echo([]),
      name: 'steer',
      immediate: true,
      run: async () => {
        order.push('steer');
        return {};
      },
    });
    server.addServerAction({
      ...echo([]),
      run: async () => {
        order.push('queued');
        return {};
      },
    });
    const connection = server.connect({ id: 'c1', kind: 'test' }, { send: () => undefined });
    const long = connection.handle({ id: 1, action: 'long', params: { word: 'x' } });
    const queued = connection.handle({ id: 2, action: 'echo', params: { word: 'x' } });
    expect(await connection.handle({ id: 3, action: 'steer', params: { word: 'x' } })).toMatchObject({ ok: true });
    expect(order).toEqual(['steer']);
    release.resolve();
    expect(await Promise.all([long, queued])).toMatchObject([{ ok: true }, { ok: true }]);
    expect(order).toEqual(['steer', 'long', 'queued']);
  });
});
