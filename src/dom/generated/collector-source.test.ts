import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the build script is plain JavaScript
import { bundleInPage, generatedModule } from '../../../scripts/build-inpage.mjs';
import { COLLECTOR_SOURCE } from './collector-source';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

describe('generated in-page source', () => {
  it('matches src/dom/in-page (run npm run build after changing it)', () => {
    const fresh = (bundleInPage as () => string)();
    expect(COLLECTOR_SOURCE).toBe(fresh);
    const file = readFileSync(resolve(import.meta.dirname, 'collector-source.ts'), 'utf8');
    expect(file).toBe((generatedModule as (source: string) => string)(fresh));
  });
});
