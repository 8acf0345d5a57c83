import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { CommandServer } from './command-server';
import { createDefaultRegistry } from './actions';

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
    const described = new CommandServer(session, createDefaultRegistry()).describe() as {
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
});
