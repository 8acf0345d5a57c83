// Bundles the Node entries (CLI; later the native host) into dist/node with esbuild.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'src/entries/node/cli.ts' },
  outdir: 'dist/node',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // ws loads these optional native speed-ups inside try/catch; leave them out of the bundle.
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS (ws) calls require(); give the ES module a real one.
  banner: {
    js: "import { createRequire as __tabpilotCreateRequire } from 'node:module'; const require = __tabpilotCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
