import { crx } from '@crxjs/vite-plugin';
import { defineConfig } from 'vite';
import manifest from './manifest.config.ts';

// Source maps are for debugging a build, not for shipping: they tripled dist/extension (and the zip a store
// upload takes). TABPILOT_SOURCEMAP=1 npm run build writes them again.
const sourcemap = process.env['TABPILOT_SOURCEMAP'] === '1';

export default defineConfig({
  plugins: [crx({ manifest })],
  build: {
    outDir: 'dist/extension',
    emptyOutDir: true,
    sourcemap,
    // The worker runs only in Chromium >= 125.
    target: 'chrome125',
    rolldownOptions: {
      // The offscreen document that encodes recordings is no manifest entry: it is built as a page of its own.
      input: { 'video-offscreen': 'src/entries/extension/video-offscreen.html' },
      // Rolldown inlines an imported const at each place it is read, even a long string: tldts's suffix list
      // (one 46 KB string read at three places) came out three times, 137 KB more in the worker. Every const
      // stays a variable; the minifier still folds the small ones it can see through.
      optimization: { inlineConst: false },
    },
  },
});
