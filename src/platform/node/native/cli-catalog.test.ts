import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOG_FILE, catalogSchemas, enumValues, flagOf, loadCatalog } from './cli-catalog';

const dir = mkdtempSync(join(tmpdir(), 'tabpilot-catalog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the action catalog beside the bundle', () => {
  it('is read from the folder given, and a missing one says to build', () => {
    expect(() => loadCatalog(dir)).toThrow(/action-catalog\.json is missing .*npm run build/);
    const actions = [
      { name: 'wait', description: 'Wait.', params_schema: { properties: { seconds: { type: 'number' } } } },
    ];
    writeFileSync(join(dir, CATALOG_FILE), JSON.stringify({ version: '1.2.3', actions }));
    const catalog = loadCatalog(dir);
    expect(catalog.version).toBe('1.2.3');
    expect(catalogSchemas(catalog).propertiesOf('wait')).toEqual({ seconds: { type: 'number' } });
    expect(catalogSchemas(catalog).propertiesOf('fly')).toBeUndefined();
  });

  it('finds the values a param takes from an enum or from an anyOf of consts, and none otherwise', () => {
    expect(enumValues({ type: 'string', enum: ['up', 'down'] })).toEqual(['up', 'down']);
    expect(enumValues({ anyOf: [{ const: 'a' }, { const: 1 }] })).toEqual(['a', '1']);
    expect(enumValues({ anyOf: [{ const: 'a' }, { type: 'string' }] })).toBeUndefined();
    expect(enumValues({ type: 'string' })).toBeUndefined();
    expect(flagOf('new_tab')).toBe('--new-tab');
  });
});
