import { defineConfig } from 'vitest/config';

/**
 * The files that measure time against the wall clock (a video's frames within a gap, a browser pool's
 * queue and session limits, keys pressed on an X screen): `npm run test:e2e` runs them alone, after the
 * others, so a neighbour's load never decides their outcome.
 */
const ALONE = [
  'test/e2e/node-browser-pool.e2e.ts',
  'test/e2e/node-recording.e2e.ts',
  'test/e2e/extension-recording.e2e.ts',
  'test/e2e/headed/**/*.e2e.ts',
];

/**
 * End-to-end tests in real Chromium: one browser per file, two files at a time by default (a file mostly
 * waits on its browser; one at a time took the fresh-clone CI to about 16 minutes). TABPILOT_E2E_WORKERS
 * sets how many (1: one at a time). TABPILOT_E2E_LANE picks the files (scripts/test-e2e.mjs runs `shared`,
 * then `alone`); unset, every file given or found runs.
 */
const lane = process.env['TABPILOT_E2E_LANE'];
const workers = lane === 'alone' ? 1 : Number(process.env['TABPILOT_E2E_WORKERS'] ?? 2);

export default defineConfig({
  test: {
    include: lane === 'alone' ? ALONE : ['test/e2e/**/*.e2e.ts'],
    exclude: lane === 'shared' ? ALONE : [],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
