import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the build script is plain JavaScript
import { bundleActions, generatedModule } from '../../../../scripts/build-actions-inpage.mjs';
import { ACTIONS_SOURCE, ACTIONS_VERSION } from './actions-source';

describe('generated in-page action source', () => {
  it('matches src/browser/actions/in-page (run npm run build after changing it)', () => {
    const fresh = (bundleActions as () => { source: string; version: string })();
    expect(ACTIONS_SOURCE).toBe(fresh.source);
    expect(ACTIONS_VERSION).toBe(fresh.version);
    const file = readFileSync(resolve(import.meta.dirname, 'actions-source.ts'), 'utf8');
    expect(file).toBe((generatedModule as (bundle: { source: string; version: string }) => string)(fresh));
  });
});
