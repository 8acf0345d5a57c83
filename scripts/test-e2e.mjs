#!/usr/bin/env node
// npm run test:e2e: the end-to-end files (TABPILOT_E2E_WORKERS at a time), then the ones that time the wall clock alone
// (vitest.e2e.config.ts says which). Arguments go to both runs (a reporter, say); the second run goes on
// after a failed first one, so one run shows every failure, and the exit code is the worse of the two.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

// vitest's bin, found through its package.json (its exports do not name the bin itself).
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);
let code = 0;
for (const lane of ['shared', 'alone']) {
  console.log(`[e2e] ${lane === 'shared' ? 'the files that share the machine' : 'the wall-clock files, alone'}`);
  const run = spawnSync(process.execPath, [vitest, 'run', '-c', 'vitest.e2e.config.ts', ...args], {
    stdio: 'inherit',
    env: { ...process.env, TABPILOT_E2E_LANE: lane },
  });
  code = Math.max(code, run.status ?? 1);
}
process.exit(code);
