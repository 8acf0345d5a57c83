import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bundledPackages, importedPackages, thirdPartyNotices } from '../../scripts/third-party-notices.mjs';

const root = join(import.meta.dirname, '..', '..');

describe('third-party notices', () => {
  it('takes the packages the source imports, not its type-only imports or node modules', () => {
    const names = importedPackages([
      "import { z } from 'zod/mini';\nimport type { Protocol } from 'devtools-protocol';\n",
      "import { readFileSync } from 'node:fs';\nconst m = await import('@ai-sdk/anthropic');\n",
      "import { x } from './local';\n",
    ]);
    expect([...names].sort()).toEqual(['@ai-sdk/anthropic', 'zod']);
  });

  it('follows dependencies as node resolves them, nested copies first, each version once', () => {
    const packages = bundledPackages(
      {
        packages: {
          '': { version: '0.1.0' },
          'node_modules/a': { version: '1.0.0', dependencies: { b: '^2' } },
          'node_modules/a/node_modules/b': { version: '2.0.0' },
          'node_modules/b': { version: '1.0.0' },
          'node_modules/c': { version: '1.0.0', dependencies: { b: '^1' } },
          'node_modules/vite': { version: '8.0.0' },
        },
      },
      ['a', 'c'],
    );
    expect(packages.map((item) => `${item.name}@${item.version}`)).toEqual([
      'a@1.0.0',
      'b@1.0.0',
      'b@2.0.0',
      'c@1.0.0',
    ]);
  });

  it('carries the licence text of what the bundles inline, MPL and Apache ones included, and no build tools', () => {
    const text = thirdPartyNotices(root);
    for (const name of ['zod', 'preact', 'ws', 'tldts', 'ai', '@modelcontextprotocol/sdk', 'webextension-polyfill']) {
      expect(text).toMatch(new RegExp(`^${name.replace(/[/.]/g, '\\$&')} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    }
    expect(text).toMatch(/^mediabunny \d+\.\d+\.\d+ \(MPL-2\.0\)\n-+\nMozilla Public License/m);
    expect(text).toMatch(/^ai \d+\.\d+\.\d+ \(Apache-2\.0\)\n-+\n[^]*?Licensed under the Apache License/m);
    expect(text).not.toMatch(/^(vite|vitest|esbuild|typescript) /m);
  });
});
