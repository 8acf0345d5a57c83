import { describe, expect, it } from 'vitest';
import { settingsGroups } from './settings-groups';

describe('settingsGroups', () => {
  it('hides Node-only settings, keeps plain ones under General and gives each section its group', () => {
    const { groups, hidden } = settingsGroups({
      type: 'object',
      properties: {
        output_dir: { type: 'string', description: 'Node: the folder files are saved under' },
        launch: {
          type: 'object',
          properties: { headless: { type: 'boolean' } },
          description: 'How Chromium starts (Node only)',
        },
        allow_evaluate: { type: 'boolean', description: 'Offer evaluate' },
        state: { type: 'object', properties: { max_chars: { type: 'integer' } }, description: 'The page as shown' },
      },
      required: ['allow_evaluate'],
    });
    expect(hidden).toEqual(['output_dir', 'launch']);
    expect(groups.map((group) => group.id)).toEqual(['general', 'state']);
    expect(Object.keys(groups[0]?.schema.properties ?? {})).toEqual(['allow_evaluate']);
    expect(groups[0]?.schema.required).toEqual(['allow_evaluate']);
    expect(groups[1]?.label).toBe('State');
  });
});
