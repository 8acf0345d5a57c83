// Bundles the Node entries (the full CLI, which is also the native host Chrome starts; the lean CLI
// entry bin/tabpilot.mjs runs; npm start) and the benchmark into dist/ with esbuild, and writes the
// action catalog the lean entry reads (every action's params as `describe` gives them).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // ws loads these optional native speed-ups inside try/catch; leave them out of the bundle. The extract
  // benchmark loads esbuild (a native binary) to bundle its in-page script at run time.
  external: ['bufferutil', 'utf-8-validate', 'playwright-core', 'esbuild'],
  // Bundled CommonJS (ws) calls require(); give the ES module a real one.
  banner: {
    js: "import { createRequire as __tabpilotCreateRequire } from 'node:module'; const require = __tabpilotCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

// The catalog: the action declarations run once here, so the CLI never loads them (nor zod's JSON
// Schema conversion) to know an action's params.
const scratch = mkdtempSync(join(tmpdir(), 'tabpilot-catalog-'));
try {
  const printer = join(scratch, 'print-catalog.mjs');
  await build({ ...common, entryPoints: ['src/entries/node/print-catalog.ts'], outfile: printer });
  const catalog = execFileSync(process.execPath, [printer], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  mkdirSync('dist/node', { recursive: true });
  writeFileSync('dist/node/action-catalog.json', catalog);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

await build({
  ...common,
  entryPoints: {
    'node/cli': 'src/entries/node/cli.ts',
    'node/tabpilot': 'src/entries/node/tabpilot.ts',
    'node/start': 'src/entries/node/start-extension.ts',
    'bench/run': 'bench/run.ts',
    'bench/record-dom-fixtures': 'bench/record-dom-fixtures.ts',
  },
  outdir: 'dist',
  sourcemap: 'linked',
});
