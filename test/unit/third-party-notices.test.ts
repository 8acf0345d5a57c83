import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimePackages, thirdPartyNotices } from '../../scripts/third-party-notices.mjs';

const root = join(import.meta.dirname, '..', '..');

describe('third-party notices', () => {
  it('lists the runtime packages and leaves out the dev ones', () => {
    const packages = runtimePackages({
      packages: {
        '': { version: '0.1.0' },
        'node_modules/zod': { version: '4.0.0' },
        'node_modules/vite': { version: '8.0.0', dev: true },
        'node_modules/fsevents': { version: '2.0.0', devOptional: true },
        'node_modules/a/node_modules/zod': { version: '3.0.0' },
      },
    });
    expect(packages.map((item) => `${item.name}@${item.version}`)).toEqual(['zod@3.0.0', 'zod@4.0.0']);
  });

  it('carries the licence text of every bundled dependency, MPL and Apache ones included', () => {
    const text = thirdPartyNotices(root);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      expect(text).toContain(`${name} ${version} (`);
    }
    expect(text).toMatch(/mediabunny 1\.\d+\.\d+ \(MPL-2\.0\)\n-+\nMozilla Public License/);
    expect(text).not.toMatch(/^vitest /m);
  });
});
