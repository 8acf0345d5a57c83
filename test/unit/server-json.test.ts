import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

/**
 * What the MCP registry's server.schema.json (2025-12-11) requires of a stdio npm package entry, written out
 * here (the tests run offline): its required fields, the name pattern, the description's length and a
 * package version that is no range nor "latest".
 */
const REQUIRED = {
  type: 'object',
  required: ['$schema', 'name', 'description', 'version', 'packages'],
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json' },
    name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', minLength: 3, maxLength: 200 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(-[\\w.]+)?$' },
    repository: {
      type: 'object',
      required: ['url', 'source'],
      properties: { url: { type: 'string' }, source: { type: 'string' } },
    },
    packages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['registryType', 'identifier', 'version', 'transport'],
        properties: {
          registryType: { const: 'npm' },
          identifier: { type: 'string' },
          version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(-[\\w.]+)?$' },
          transport: { type: 'object', required: ['type'], properties: { type: { const: 'stdio' } } },
        },
      },
    },
  },
};

describe('server.json (the MCP registry entry)', () => {
  const server = read('server.json');
  const manifest = read('package.json');

  it('has what the registry schema requires', () => {
    const validate = new Ajv({ allErrors: true }).compile(REQUIRED);
    expect(validate(server) ? [] : validate.errors).toEqual([]);
  });

  it('names the package, its version and its repository as package.json does', () => {
    expect(server['name']).toBe(manifest['mcpName']);
    expect(server['version']).toBe(manifest['version']);
    expect(server['packages']).toMatchObject([
      { identifier: manifest['name'], version: manifest['version'], packageArguments: [{ value: 'mcp' }] },
    ]);
    const repository = manifest['repository'] as { url: string };
    expect(`git+${(server['repository'] as { url: string }).url}.git`).toBe(repository.url);
  });
});
