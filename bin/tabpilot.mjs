#!/usr/bin/env node
// The tabpilot command: runs the bundled Node entry (built by `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('tabpilot is not built yet: run `npm run build` in the tabpilot folder first.\n');
  process.exit(1);
}
await import(entry);
