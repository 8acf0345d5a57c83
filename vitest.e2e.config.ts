import { defineConfig } from 'vitest/config';

// End-to-end tests in real Chromium: one browser per file, files one after another (2 cores).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
