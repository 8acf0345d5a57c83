#!/usr/bin/env node
// Installs the open-source browserless server (a browser pool) for the scale-out end-to-end tests, once
// per machine: it is a project of its own, too heavy for tabpilot's dependencies (about 300 MB with its
// Playwright and Puppeteer copies), so it is packed from the npm registry, unpacked and installed with
// its production dependencies into a cache folder outside the repository, and reused after that.
//
//   node scripts/ensure-browserless.mjs            installs if needed; prints the package folder
//
// TABPILOT_BROWSERLESS_DIR overrides the cache folder (default: $XDG_CACHE_HOME or ~/.cache, then
// tabpilot/browserless-<version>). No browser download happens: the tests point its Playwright at the
// system Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const BROWSERLESS_VERSION = '2.42.0';
const PACKAGE = `@browserless.io/browserless@${BROWSERLESS_VERSION}`;

const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
const dir = process.env.TABPILOT_BROWSERLESS_DIR || join(cacheRoot, 'tabpilot', `browserless-${BROWSERLESS_VERSION}`);
const packageDir = join(dir, 'package');
const marker = join(dir, '.installed');
const say = (line) => process.stderr.write(`[browserless] ${line}\n`);

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
  return result.stdout;
}

if (!existsSync(marker)) {
  // Installed beside the final folder and renamed into place, so a parallel run (another engineer's
  // tests) never sees half an install; whichever finishes second discards its copy.
  const staging = `${dir}.staging-${process.pid}`;
  // A folder without the marker is what an interrupted install left behind.
  rmSync(dir, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    say(`packing ${PACKAGE} from the npm registry`);
    run('npm', ['pack', PACKAGE, '--silent', '--pack-destination', staging], staging);
    const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) {
      throw new Error('npm pack left no tarball');
    }
    run('tar', ['-xzf', tarball], staging);
    rmSync(join(staging, tarball));
    say('installing its production dependencies (npm install --omit=dev --ignore-scripts; about a minute)');
    run(
      'npm',
      [
        'install',
        '--omit=dev',
        '--omit=optional',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--loglevel=error',
      ],
      join(staging, 'package'),
    );
    writeFileSync(join(staging, '.installed'), `${PACKAGE}\n`);
    mkdirSync(join(dir, '..'), { recursive: true });
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(marker)) {
        throw error;
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  say(`installed in ${dir}`);
}
process.stdout.write(`${packageDir}\n`);
