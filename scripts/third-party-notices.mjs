#!/usr/bin/env node
// Writes THIRD_PARTY_NOTICES.txt: the licence of every runtime package the bundles may carry (the
// production closure of package-lock.json). The extension and the Node bundles inline their code, so the
// licences (MIT, Apache-2.0 with its notice, MPL-2.0 for mediabunny and webextension-polyfill, ...) have
// to travel with them: one copy beside the Node bundles and one inside the extension folder, which is
// what a zip of it takes along.
//   node scripts/third-party-notices.mjs OUT [OUT ...]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

/** The packages of the lock file that ship at run time (neither dev nor dev-optional), sorted by path. */
export function runtimePackages(lock) {
  return Object.entries(lock.packages ?? {})
    .filter(([path, entry]) => path !== '' && entry.dev !== true && entry.devOptional !== true)
    .map(([path, entry]) => ({ path, name: path.replace(/^.*node_modules\//, ''), version: entry.version }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.path.localeCompare(b.path));
}

/** One package's section: name, version, licence id, and the texts of its licence and notice files. */
export function noticeOf(root, item) {
  const folder = join(root, item.path);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const license = typeof manifest.license === 'string' ? manifest.license : 'see the text below';
  const texts = readdirSync(folder)
    .filter((file) => LICENSE_FILE.test(file))
    .sort()
    .map((file) => readFileSync(join(folder, file), 'utf8').trim());
  const body =
    texts.length > 0 ? texts.join('\n\n') : `No licence file ships with this package; package.json says ${license}.`;
  return `${item.name} ${item.version} (${license})\n${'-'.repeat(72)}\n${body}\n`;
}

export function thirdPartyNotices(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = runtimePackages(lock).filter((item) => existsSync(join(root, item.path, 'package.json')));
  const header =
    'tabpilot bundles code of the packages below into its extension and its Node bundles.\n' +
    'Each is listed with its version, its licence and the licence text it ships.\n';
  return [header, ...packages.map((item) => noticeOf(root, item))].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const outputs = process.argv.slice(2);
  if (outputs.length === 0) {
    process.stderr.write('usage: node scripts/third-party-notices.mjs OUT [OUT ...]\n');
    process.exit(2);
  }
  const text = thirdPartyNotices(root);
  for (const output of outputs) {
    writeFileSync(output, text);
  }
}
