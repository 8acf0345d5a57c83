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
    // The offscreen document that encodes recordings is no manifest entry: it is built as a page of its own.
    rollupOptions: { input: { 'video-offscreen': 'src/entries/extension/video-offscreen.html' } },
  },
});
