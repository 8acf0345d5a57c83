import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { CommandServer } from './command-server';
import { createDefaultRegistry } from './actions';
import { servedConfig } from '../../test/fakes/served-config';

/** The fields only the person (the panel's settings) or the Node config file may set. */
const POLICY_FIELDS = [
  'allowed_domains',
  'prohibited_domains',
  'block_ip_addresses',
  'allowed_schemes',
  'permissions',
  'allow_evaluate',
  'upload_paths',
  'sensitive_data',
  'native_clients_see_all_tabs',
  'output_dir',
];

describe('who may change the policy', () => {
  it('offers protocol clients no action that sets config: the panel settings and the config file are the only roads', async () => {
    const { session } = await startedFakeSession();
    const described = new CommandServer(session, createDefaultRegistry(), servedConfig).describe() as {
      actions: Array<{ name: string; params_schema: { properties?: Record<string, unknown> } }>;
    };
    for (const action of described.actions) {
      const params = Object.keys(action.params_schema.properties ?? {});
      expect(
        params.filter((param) => POLICY_FIELDS.includes(param)),
        action.name,
      ).toEqual([]);
      expect(action.name).not.toMatch(/config|setting|polic/i);
    }
  });

  it('refuses a client that names a config field in an action with FORBIDDEN, and changes nothing', async () => {
    const { session } = await startedFakeSession();
    const connection = new CommandServer(session, createDefaultRegistry(), servedConfig).connect(
      { id: 'agent', kind: 'test' },
      { send: () => undefined },
    );
    const tries: Array<[string, Record<string, unknown>]> = [
      ['navigate', { url: 'http://a.test/', allowed_domains: [] }],
      ['state', { prohibited_domains: [], block_ip_addresses: false }],
      ['tabs', { allow_evaluate: true }],
    ];
    for (const [action, params] of tries) {
      expect(await connection.handle({ id: 1, action, params }), action).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining('only the person sets'), details: { action } },
      });
    }
    expect(session.config.allow_evaluate).toBe(false);
    // A key that is no config field stays an ordinary parameter error.
    expect(await connection.handle({ id: 2, action: 'tabs', params: { colour: 'red' } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
  });

  it("refuses the agent's section as any other config field, and describes it in the config schema", async () => {
    const { session } = await startedFakeSession();
    const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
    const connection = server.connect({ id: 'agent', kind: 'test' }, { send: () => undefined });
    expect(
      await connection.handle({
        id: 1,
        action: 'navigate',
        params: { url: 'http://a.test/', agent: { max_steps: 1 } },
      }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', details: { action: 'navigate', fields: ['agent'] } } });
    const described = server.describe() as { config_schema: { properties: Record<string, unknown> } };
    expect(Object.keys(described.config_schema.properties)).toContain('agent');
  });
});
