import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { zipSync, type Zippable } from 'fflate';
import { EXTENSION_ID } from '../../protocol/native-messages';
import { errorMessageOf } from '../../shared/errors';
import { fieldOf, isRecord } from '../../shared/narrow';

export const EXTENSION_USAGE = `  tabpilot extension [--zip FILE]
      Print the folder of the built extension that ships with this tabpilot, to load unpacked
      (chrome://extensions, Developer mode, Load unpacked), and its id. --zip FILE writes the zip a
      Chrome Web Store upload takes instead: manifest.json at its root, without the manifest's "key".`;

/**
 * The package's root: the nearest folder upward whose package.json is tabpilot's. The bundled CLI lives in
 * dist/node (perhaps a folder deeper once it is split), a clone's sources in src/entries/node: both find it.
 */
export function packageRoot(from: string = import.meta.dirname): string {
  let dir = from;
  while (dir !== dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && fieldOf(JSON.parse(readFileSync(manifest, 'utf8')), 'name') === 'tabpilot') {
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error(`no tabpilot package.json above ${from}`);
}

/**
 * Why a path into this package will not last, or undefined: npx runs a tarball or a registry package from
 * its cache (…/_npx/<hash>/), which npm may clear, so a config, a launcher or an unpacked extension that
 * points there breaks later.
 */
export function transientInstallNote(root: string = packageRoot()): string | undefined {
  return /[\\/]_npx[\\/]/.test(root)
    ? `note: this tabpilot runs from npx's cache (${root}), which npm may clear; install it (npm install -g <the tarball>) for paths that last`
    : undefined;
}

/** The built extension inside the package (dist/extension), checked to be one. */
export function builtExtensionDir(root: string = packageRoot()): string {
  const dir = join(root, 'dist', 'extension');
  if (!existsSync(join(dir, 'manifest.json'))) {
    throw new Error(`the extension is not built: ${dir} has no manifest.json (run \`npm run build\` in a clone)`);
  }
  return dir;
}

/**
 * The store zip of an extension folder. The store rejects a manifest with a "key" (it assigns the id
 * itself), so the zip's manifest.json goes without; source maps, if a debug build wrote them, stay out.
 */
export function extensionZip(dir: string): Uint8Array {
  const files: Zippable = {};
  for (const path of filesUnder(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (name.endsWith('.map')) {
      continue;
    }
    if (name === 'manifest.json') {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (!isRecord(parsed)) {
        throw new Error(`${path} holds no manifest object`);
      }
      const { key: _key, ...manifest } = parsed;
      files[name] = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
    } else {
      files[name] = readFileSync(path);
    }
  }
  // A fixed time keeps the zip the same bytes for the same build.
  return zipSync(files, { level: 9, mtime: new Date('2020-01-01T00:00:00Z') });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** `tabpilot extension [--zip FILE]`. */
export function runExtensionCli(argv: readonly string[]): number {
  let values: { zip?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { zip: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    process.stderr.write(`tabpilot extension: ${errorMessageOf(error)}\n\n${EXTENSION_USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(`${EXTENSION_USAGE}\n`);
    return 0;
  }
  let dir: string;
  try {
    dir = builtExtensionDir();
  } catch (error) {
    process.stderr.write(`tabpilot extension: ${errorMessageOf(error)}\n`);
    return 1;
  }
  const note = transientInstallNote();
  if (note !== undefined && values.zip === undefined) {
    process.stderr.write(`${note}\n`);
  }
  if (values.zip !== undefined) {
    const out = resolve(values.zip);
    writeFileSync(out, extensionZip(dir));
    process.stdout.write(`${out}\n`);
    return 0;
  }
  // The folder alone on the first line, so a script can take it: `tabpilot extension | head -1`.
  process.stdout.write(
    `${dir}\n` +
      `Load it unpacked: chrome://extensions, turn on Developer mode, Load unpacked, pick the folder above.\n` +
      `Its id is ${EXTENSION_ID}; then run \`tabpilot install-host\` so the extension can reach tabpilot.\n`,
  );
  return 0;
}
