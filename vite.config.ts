import { crx } from '@crxjs/vite-plugin';
import { defineConfig } from 'vite';
import manifest from './manifest.config.ts';

export default defineConfig({
  plugins: [crx({ manifest })],
  build: {
    outDir: 'dist/extension',
    emptyOutDir: true,
    sourcemap: true,
    // The worker runs only in Chromium >= 125.
    target: 'chrome125',
  },
});
