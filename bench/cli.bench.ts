import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { repositoryRoot } from '../test/e2e/harness/browser';
import { BIN, NativeChain } from '../test/e2e/harness/native';
import { median, percentile, round } from './stats';

/**
 * The CLI's cold start, in one run beside a bare `node -e 0`: `tabpilot --version` (load and answer,
 * no socket) and `tabpilot tabs` against a running host (real Chromium, the extension, the host it
 * started), each a new process timed from spawn to exit; and, for comparison, `tabs` through the full
 * bundle (dist/node/cli.js), which is what every command loaded before the lean entry. The subjects
 * take turns run by run, so a busy moment of the machine falls on all of them alike.
 */

export interface CliStartRow {
  command: string;
  runs: number;
  median_ms: number;
  p90_ms: number;
  /** The median over `node -e 0`'s: what tabpilot itself costs. */
  over_node_ms: number;
  target: string;
  verdict: string;
}

export interface CliStartFigures {
  node: string;
  node_version: string;
  rows: CliStartRow[];
}

/** The target: `tabpilot tabs` with the host running, at most 150 ms wall. */
export const TABS_TARGET_MS = 150;
const WARMUP = 3;

function timeOnce(
  node: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; code: number | null; out: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => done({ ms: performance.now() - started, code, out }));
  });
}

export async function benchCliStart(options: { runs: number; node?: string }): Promise<CliStartFigures> {
  const node = options.node ?? process.execPath;
  const nodeVersion = (await timeOnce(node, ['--version'], process.env)).out.trim();
  const chain = await NativeChain.start();
  try {
    await chain.host();
    const env = { ...process.env, TABPILOT_STATE_DIR: chain.stateDir };
    const full = resolve(repositoryRoot(), 'dist/node/cli.js');
    const subjects = [
      { command: 'node -e 0', args: ['-e', '0'], target: undefined },
      { command: 'tabpilot --version', args: [BIN, '--version'], target: undefined },
      { command: 'tabpilot tabs', args: [BIN, 'tabs'], target: TABS_TARGET_MS },
      { command: 'node dist/node/cli.js tabs (the full bundle)', args: [full, 'tabs'], target: undefined },
    ];
    const samples = subjects.map(() => [] as number[]);
    for (let run = 0; run < WARMUP + options.runs; run++) {
      for (const [index, subject] of subjects.entries()) {
        const timed = await timeOnce(node, subject.args, env);
        if (timed.code !== 0) {
          throw new Error(`${subject.command} exited ${timed.code}: ${timed.out}`);
        }
        if (run >= WARMUP) {
          samples[index]?.push(timed.ms);
        }
      }
    }
    const nodeMedian = median(samples[0] ?? []);
    return {
      node,
      node_version: nodeVersion,
      rows: subjects.map((subject, index) => {
        const values = samples[index] ?? [];
        const middle = median(values);
        return {
          command: subject.command,
          runs: values.length,
          median_ms: round(middle, 1),
          p90_ms: round(percentile(values, 90), 1),
          over_node_ms: round(middle - nodeMedian, 1),
          target: subject.target === undefined ? '' : `at most ${subject.target} ms (median)`,
          verdict: subject.target === undefined ? '' : middle <= subject.target ? 'met' : 'missed',
        };
      }),
    };
  } finally {
    await chain.close();
  }
}
