// Bundles the Node entries (the CLI, which is also the native host Chrome starts, and npm start) and the benchmark into dist/ with esbuild.
import { build } from 'esbuild';

await build({
  entryPoints: {
    'node/cli': 'src/entries/node/cli.ts',
    'node/start': 'src/entries/node/start-extension.ts',
    'bench/run': 'bench/run.ts',
    'bench/record-dom-fixtures': 'bench/record-dom-fixtures.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // ws loads these optional native speed-ups inside try/catch; leave them out of the bundle. The extract
  // benchmark loads esbuild (a native binary) to bundle its in-page script at run time.
  external: ['bufferutil', 'utf-8-validate', 'playwright-core', 'esbuild'],
  // Bundled CommonJS (ws) calls require(); give the ES module a real one.
  banner: {
    js: "import { createRequire as __tabpilotCreateRequire } from 'node:module'; const require = __tabpilotCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
