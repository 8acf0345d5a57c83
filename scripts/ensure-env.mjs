#!/usr/bin/env node
// Makes a fresh clone ready to build and test: the npm packages (npm ci when node_modules is missing or
// older than the lock file), a Chromium, and with --tests Xvfb and xdotool for the headed tests (apt-get
// when run as root on Debian/Ubuntu, else the exact command is printed). No dependencies: this runs
// before they exist.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEnginesRange, satisfiesEngines } from './node-range.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const say = (line) => quiet || process.stderr.write(`[setup] ${line}\n`);

// The range is package.json's engines, the one place it is written. npm start, npm test and npm run bench
// get here through with-node.mjs, which provides a Node in it, so this fails only when run by hand.
const range = readEnginesRange(join(root, 'package.json'));
if (!satisfiesEngines(process.versions.node, range)) {
  process.stderr.write(
    `tabpilot needs Node.js ${range} (package.json engines); this is ${process.versions.node}.\n` +
      'Run it through npm start, npm test or npm run bench, which provide a supported Node from the npm ' +
      'registry,\nor install Node.js 22 LTS (https://nodejs.org/en/download, or `nvm install 22`).\n',
  );
  process.exit(1);
}

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  say('installing npm packages (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
}

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];
function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
const configured = process.env.TABPILOT_CHROME || process.env.CHROME_PATH;
const chromium = configured && executable(configured) ? configured : CANDIDATES.find(executable);
const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && executable(join(dir, name)));

// Debian packages to install: Chromium when none is found; for the tests (--tests) also the X server and
// the key presser the headed end-to-end tests drive a visible window with, and ffmpeg.
const packages = [];
if (chromium === undefined && process.platform === 'linux') {
  packages.push('chromium');
}
if (process.argv.includes('--tests') && process.platform === 'linux') {
  if (!onPath('Xvfb')) {
    packages.push('xvfb');
  }
  if (!onPath('xdotool')) {
    packages.push('xdotool');
  }
  // The native host names each client with ss (iproute2); the consent tests check the pid it shows.
  if (!onPath('ss')) {
    packages.push('iproute2');
  }
  // Node's screen recordings are encoded by ffmpeg, and the recording tests read them back with ffprobe.
  if (!onPath('ffmpeg') || !onPath('ffprobe')) {
    packages.push('ffmpeg');
  }
}
if (packages.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && executable('/usr/bin/apt-get')) {
    say(`installing ${packages.join(', ')} (apt-get install)`);
    execFileSync('apt-get', ['update'], { stdio: quiet ? 'ignore' : 'inherit' });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
      stdio: quiet ? 'ignore' : 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    process.stderr.write(
      `tabpilot needs ${packages.join(', ')}. Install with:\n\n    sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n\n` +
        (packages.includes('chromium') ? 'or point TABPILOT_CHROME at a Chrome or Chromium binary.\n' : ''),
    );
    process.exit(1);
  }
} else if (chromium === undefined && !configured) {
  say('no Chromium in the usual Linux places; set TABPILOT_CHROME if the launcher does not find Chrome');
}
say('ready');
