import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the build script is plain JavaScript
import { bundleInPage, generatedModule } from '../../../scripts/build-inpage.mjs';
import { PAGE_SOURCE, PAGE_VERSION } from './page-source';

describe('generated in-page source', () => {
  it('matches src/dom/in-page and src/browser/actions/in-page (run npm run build after changing them)', () => {
    const fresh = (bundleInPage as () => { source: string; version: string })();
    expect(PAGE_SOURCE).toBe(fresh.source);
    expect(PAGE_VERSION).toBe(fresh.version);
    const file = readFileSync(resolve(import.meta.dirname, 'page-source.ts'), 'utf8');
    expect(file).toBe((generatedModule as (bundle: { source: string; version: string }) => string)(fresh));
  });
});
