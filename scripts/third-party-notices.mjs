#!/usr/bin/env node
// Writes THIRD_PARTY_NOTICES.txt: the licence of every package whose code the bundles carry. The
// extension and the Node bundles inline their dependencies (the installed package has none), so the
// licences (MIT, Apache-2.0, MPL-2.0 for mediabunny and webextension-polyfill, ...) have to travel with
// them: one copy beside the Node bundles and one inside the extension folder, which a zip of it takes
// along. The packages are those src/ imports outside its tests, and everything they depend on.
//   node scripts/third-party-notices.mjs OUT [OUT ...]
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\.|-|$)/i;
const IMPORT = /\bfrom\s+'([^'.][^']*)'|\bimport\s*\(\s*'([^'.][^']*)'\s*\)/g;

/** The npm package an import specifier names (`@ai-sdk/openai-compatible`, `zod` for `zod/mini`), or none. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The packages the source files import (type-only imports left out: they bundle nothing). */
export function importedPackages(sources) {
  const names = new Set();
  for (const source of sources) {
    for (const match of source.matchAll(IMPORT)) {
      const line = source.slice(source.lastIndexOf('\n', match.index) + 1, match.index);
      if (/\bimport\s+type\b/.test(line) || /\bexport\s+type\b/.test(line)) {
        continue;
      }
      const name = packageOf(match[1] ?? match[2]);
      if (name !== undefined) {
        names.add(name);
      }
    }
  }
  return names;
}

/** Where node resolves `name` from the package at `from` (a lock path), as the lock file lays them out. */
function resolveIn(packages, from, name) {
  for (let base = from; ; base = posix.dirname(posix.dirname(base))) {
    const candidate = base === '' || base === '.' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) {
      return candidate;
    }
    if (base === '' || base === '.') {
      return undefined;
    }
  }
}

/** The lock entries of the roots and of everything they depend on, sorted by name. */
export function bundledPackages(lock, roots) {
  const packages = lock.packages ?? {};
  const found = new Map();
  const queue = [...roots].map((name) => resolveIn(packages, '', name)).filter((path) => path !== undefined);
  while (queue.length > 0) {
    const path = queue.shift();
    if (found.has(path)) {
      continue;
    }
    const entry = packages[path];
    const name = path.replace(/^.*node_modules\//, '');
    found.set(path, { path, name, version: entry.version });
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const resolved = resolveIn(packages, path, name);
      if (resolved !== undefined) {
        queue.push(resolved);
      }
    }
  }
  // One copy of a package may be installed at several paths: its licence is listed once.
  const unique = new Map([...found.values()].map((item) => [`${item.name}@${item.version}`, item]));
  return [...unique.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
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

function sourceFiles(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      return sourceFiles(path);
    }
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

export function thirdPartyNotices(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const roots = importedPackages(sourceFiles(join(root, 'src')).map((path) => readFileSync(path, 'utf8')));
  const packages = bundledPackages(lock, roots).filter((item) => existsSync(join(root, item.path, 'package.json')));
  const header =
    'tabpilot bundles code of the packages below into its extension and its Node bundles: the packages\n' +
    'its source imports and everything they depend on (a bundle may leave out what it does not use).\n' +
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
