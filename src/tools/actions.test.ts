import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from './actions';
import type { ActionContext } from './registry';
import { servedConfig } from '../../test/fakes/served-config';

const registry = createDefaultRegistry();
const notReached = (): never => {
  throw new Error('a refused parameter must be answered before the action runs');
};
/** Parameter errors are answered before an action runs: no session is needed to check them. */
const noSession: ActionContext = {
  client: { id: 'unit', kind: 'test' },
  emit: notReached,
  resolveTab: notReached,
  tabIdOf: notReached,
};
const INTERACTIONS = [
  'click',
  'input',
  'scroll',
  'send_keys',
  'find_text',
  'upload_file',
  'dropdown_options',
  'select_dropdown',
  'hover',
  'drag',
];

async function codeOf(action: string, params: unknown): Promise<string> {
  try {
    await registry.run(action, params, noSession, servedConfig.fields);
    return 'ran';
  } catch (error) {
    return (error as { code?: string }).code ?? 'untyped';
  }
}

describe('action parameters', () => {
  it.each([
    ['click', {}],
    ['click', { index: 1, coordinate_x: 3, coordinate_y: 4 }],
    ['click', { coordinate_x: 3 }],
    ['click', { index: 0 }],
    ['click', { index: 1, button: 'back' }],
    ['input', { index: 1 }],
    ['input', { index: 1, text: 'x', typing: 'fast' }],
    ['scroll', { direction: 'sideways' }],
    ['upload_file', { index: 1 }],
    ['upload_file', { index: 1, path: '/a', files: [{ name: 'a', content_base64: '' }] }],
    ['drag', { index: 1 }],
    ['drag', { index: 1, to_index: 2, to_x: 3, to_y: 4 }],
    ['select_dropdown', { index: 1, text: '' }],
    ['select_dropdown', { index: 1 }],
    ['select_dropdown', { index: 1, text: 'a', values: ['a'] }],
    ['send_keys', { keys: '', extra: 1 }],
  ])('%s refuses %j with INVALID_PARAMS', async (action, params) => {
    expect(await codeOf(action, params)).toBe('INVALID_PARAMS');
  });

  it('describes every tool with a JSON Schema that marks its required fields', () => {
    const described = Object.fromEntries(
      registry
        .describe()
        .filter((entry) => INTERACTIONS.includes(entry.name))
        .map((entry) => [entry.name, entry.params_schema]),
    );
    expect(Object.keys(described)).toEqual([
      'click',
      'input',
      'scroll',
      'send_keys',
      'find_text',
      'upload_file',
      'dropdown_options',
      'select_dropdown',
      'hover',
      'drag',
    ]);
    expect(described['input']).toMatchObject({ required: ['text'] });
    expect(described['select_dropdown']).toMatchObject({ required: ['index'] });
  });
});
