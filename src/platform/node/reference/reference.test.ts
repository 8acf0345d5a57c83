import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../../protocol/actions';
import { AGENT_ACTIONS } from '../../../agent/agent-actions';
import { REFERENCE_COMMAND, referenceFiles } from './reference-files';
import { renderConfigReference } from './config-reference';
import { renderProtocolReference } from './protocol-reference';
import { typeText } from './schema-rows';

const ROOT = join(import.meta.dirname, '../../../..');

describe('the generated references', () => {
  it('are up to date in docs/reference', async () => {
    for (const file of await referenceFiles(ROOT)) {
      const written = await readFile(join(ROOT, file.path), 'utf8').catch(() => '');
      if (written !== file.text) {
        expect.fail(`${file.path} is stale (the declarations changed): run ${REFERENCE_COMMAND}`);
      }
    }
  }, 30_000);

  it('name every action, the agent’s included', () => {
    const text = renderProtocolReference();
    for (const name of [...ACTIONS.map((action) => action.name), ...AGENT_ACTIONS.map((action) => action.name)]) {
      expect(text).toContain(`### \`${name}\``);
    }
  });

  it('list every config field with its description', () => {
    const text = renderConfigReference();
    expect(text).toContain(
      '- `reconnect.max_attempts` (integer (≥ 0, ≤ 20), default `3`): Attempts after a drop; 0 turns reconnect off',
    );
    expect(text).toContain('`native_clients.approve_new_clients`');
  });

  it('say types in words', () => {
    expect(typeText({ type: 'string', enum: ['a', 'b'] })).toBe('"a" or "b"');
    expect(typeText({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string or null');
    expect(typeText({ type: 'array', items: { type: 'integer', minimum: 1 } })).toBe('array of integer (≥ 1)');
    expect(typeText({ type: 'object', additionalProperties: { type: 'string' } })).toBe('object of string');
  });
});
