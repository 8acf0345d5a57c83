#!/usr/bin/env node
// Runs a command (the rest of the arguments) on a Node that package.json's engines range accepts: this
// one when it does, else the pinned Node from the npm registry (provide-node.mjs), with one line on stderr
// saying so. That Node's folder goes first on PATH, so everything the command starts by name (npm, npx,
// vitest's workers, the scripts' `node`, and the native host, which pins the Node that registers it) runs
// on it too. `npm start`, `npm test` and `npm run bench` go through here. Dependency-free: it runs before npm ci.
import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEnginesRange, satisfiesEngines } from './node-range.mjs';
import { PINNED_NODE, providePinnedNode } from './provide-node.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv.slice(2);
if (command.length === 0) {
  process.stderr.write('usage: node scripts/with-node.mjs <command> [arguments...]\n');
  process.exit(2);
}

const range = readEnginesRange(join(root, 'package.json'));
let node = process.execPath;
if (!satisfiesEngines(process.versions.node, range)) {
  const provided = providePinnedNode(root, (line) => process.stderr.write(`[node] ${line}\n`));
  if (provided.error !== undefined) {
    process.stderr.write(
      `tabpilot needs Node.js ${range} (package.json engines); this is ${process.versions.node}, and ` +
        `${provided.error}.\nInstall Node.js 22 LTS (https://nodejs.org/en/download, or \`nvm install 22\`), ` +
        'then run this again.\n',
    );
    process.exit(1);
  }
  node = provided.binary;
  process.stderr.write(
    `[node] this is Node ${process.versions.node} and tabpilot needs ${range}: running on Node ${PINNED_NODE} from npm (${node})\n`,
  );
}

// Windows spells the variable Path; whichever spelling is there is the one to change.
const pathKey = Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
const env = { ...process.env, [pathKey]: [dirname(node), process.env[pathKey]].filter(Boolean).join(delimiter) };
// npm is npm.cmd on Windows, which only a shell runs.
const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env, shell: process.platform === 'win32' });

// A signal sent to this process alone (a supervisor's SIGTERM) reaches the command too; a terminal's
// Ctrl-C reaches both anyway, as it does npm and the script npm runs.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) {
  process.on(signal, forward);
}
child.on('error', (error) => {
  process.stderr.write(`[node] could not run ${command[0]}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal !== null) {
    // Die of the same signal, so whoever ran this sees what happened to the command.
    for (const each of forwarded) {
      process.off(each, forward);
    }
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
