#!/usr/bin/env node
// The tabpilot command: runs the lean bundled entry (built by `npm run build`), which loads the full
// CLI only for the commands that need it.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { readEnginesRange, satisfiesEngines } from '../scripts/node-range.mjs';

// Node 22.1+ keeps the compiled code of the bundles on disk between runs (Node 20 has no such API, so
// the call is skipped there). Measured on Node 22.23 (2 busy cores, medians of 20): the lean entry's
// `--version` 63 ms with it, 68 ms without; a command that loads the full 3.4 MB bundle (`mcp --help`)
// 308 ms with it, 383 ms without.
module.enableCompileCache?.();

// An installed copy runs on whatever `node` the PATH has: say plainly when it is older than the engines
// range, instead of failing later in a bundle that needs Node 22.
const range = readEnginesRange(fileURLToPath(new URL('../package.json', import.meta.url)));
if (!satisfiesEngines(process.version, range)) {
  process.stderr.write(
    `tabpilot needs Node.js ${range}; this is ${process.version} (${process.execPath}). ` +
      'Install Node.js 22 LTS or newer (nvm install 22), or in a clone run it as ' +
      '`node scripts/with-node.mjs node bin/tabpilot.mjs ...`.\n',
  );
  process.exit(1);
}

const entry = fileURLToPath(new URL('../dist/node/tabpilot.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('tabpilot is not built yet: run `npm run build` in the tabpilot folder first.\n');
  process.exit(1);
}
await import(entry);
