// Writes the generated references (docs/reference/*.md) from the declarations: the actions, their events,
// the agent's actions, the MCP tool catalog, the error codes and the config schema. `--check` writes
// nothing and exits 1 when a page is stale. The TypeScript is bundled with esbuild at run time.
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'reference', 'reference-files.mjs');
await build({
  entryPoints: [join(root, 'src/platform/node/reference/reference-files.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: ['prettier'],
  logLevel: 'warning',
});
const { referenceFiles } = await import(pathToFileURL(out).href);
const check = process.argv.includes('--check');
let stale = 0;
for (const file of await referenceFiles(root)) {
  const path = join(root, file.path);
  const current = await readFile(path, 'utf8').catch(() => '');
  if (current === file.text) {
    continue;
  }
  stale += 1;
  if (check) {
    process.stderr.write(`${file.path} is stale: run node scripts/docs-reference.mjs\n`);
  } else {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
    process.stdout.write(`wrote ${file.path}\n`);
  }
}
if (check && stale > 0) {
  process.exit(1);
}
if (stale === 0) {
  process.stdout.write('docs/reference is up to date\n');
}
