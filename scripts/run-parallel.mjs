#!/usr/bin/env node
// Runs npm scripts side by side and fails when any fails: `npm run check` lints and type-checks at once,
// since eslint and tsc each keep one core busy and CI has two. Each script's output is kept whole and
// printed when it ends, so the two never interleave line by line.
//   node scripts/run-parallel.mjs lint typecheck
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs SCRIPT [SCRIPT ...]\n');
  process.exit(2);
}

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    // npm is npm.cmd on Windows, which only a shell runs.
    const child = spawn('npm', ['run', script], { shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ script, code: 127, output: [Buffer.from(`${error.message}\n`)], started }));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? (signal === null ? 1 : 128), output, started }),
    );
  }).then((result) => {
    process.stdout.write(Buffer.concat(result.output));
    const seconds = ((Date.now() - result.started) / 1000).toFixed(1);
    process.stdout.write(
      `[parallel] ${result.script}: ${result.code === 0 ? 'passed' : `failed (${result.code})`} in ${seconds} s\n`,
    );
    return result.code;
  });
}

const codes = await Promise.all(scripts.map(run));
process.exit(codes.every((code) => code === 0) ? 0 : 1);
