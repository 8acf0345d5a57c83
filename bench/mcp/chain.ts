import { spawn, type ChildProcess } from 'node:child_process';
import type { HostClient } from '../../src/platform/node/native/host-client';
import type { CommandResponse } from '../../src/protocol/commands';
import { BIN, NativeChain } from '../../test/e2e/harness/native';
import { answerById } from '../memory/probe';
import type { PageServer } from '../page-server';
import { median, percentile, round } from '../stats';
import { CLICK_LABEL } from './servers';
import { TimedMcpClient } from './timed-client';

export interface ChainRow {
  path: string;
  action: string;
  calls: number;
  median_ms: number;
  p90_ms: number;
  /** Every click was counted by the page itself. */
  valid: string;
}

/** One way into the extension: a protocol request, timed from send to answer, in a tab of its own. */
interface ChainPath {
  name: string;
  request(action: string, params: Record<string, unknown>): Promise<{ ms: number; result: unknown }>;
  close(): Promise<void>;
}

function resultOf(response: CommandResponse, path: string): unknown {
  if (!response.ok) {
    throw new Error(`${path}: ${response.error.code} ${response.error.message}`);
  }
  return response.result;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/** `tabpilot mcp --extension` under the SDK's client: the whole chain an agent's call takes. */
async function mcpPath(chain: NativeChain): Promise<ChainPath> {
  const client = await TimedMcpClient.start('tabpilot mcp --extension', [BIN, 'mcp', '--extension'], {
    env: { TABPILOT_STATE_DIR: chain.stateDir },
  });
  return {
    name: 'MCP client → tabpilot mcp --extension → host → extension',
    request: async (action, params) => {
      const answer = await client.call(action, params);
      return { ms: answer.ms, result: answer.result.structuredContent ?? answer.text };
    },
    close: () => client.close(),
  };
}

/** `tabpilot connect --extension`: the native CLI's JSON lines on stdin and stdout, one process kept open. */
async function connectPath(chain: NativeChain): Promise<ChainPath> {
  const child: ChildProcess = spawn(
    process.execPath,
    [BIN, 'connect', '--extension', '--client', 'tabpilot:bench-connect'],
    { env: { ...process.env, TABPILOT_STATE_DIR: chain.stateDir }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const waiting = new Map<number, (message: CommandResponse) => void>();
  answerById(child.stdout as NodeJS.ReadableStream, waiting);
  let id = 0;
  const path = 'tabpilot connect --extension (JSON lines) → host → extension';
  return {
    name: path,
    request: async (action, params) => {
      const n = ++id;
      const { ms, value } = await timed(
        () =>
          new Promise<CommandResponse>((resolve) => {
            waiting.set(n, resolve);
            child.stdin?.write(`${JSON.stringify({ id: n, action, params })}\n`);
          }),
      );
      return { ms, result: resultOf(value, path) };
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      await exited;
    },
  };
}

/** A socket client in this process: the host and the extension with no client program around them. */
async function socketPath(chain: NativeChain): Promise<ChainPath> {
  const client: HostClient = await chain.connect('tabpilot:bench-socket');
  const path = 'socket client in the bench process → host → extension';
  return {
    name: path,
    request: async (action, params) => {
      const { ms, value } = await timed(() => client.request(action, params));
      return { ms, result: resultOf(value, path) };
    },
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}

/** The click target's index and the tab, from the form page's state text (the same text on every path). */
async function clickIndex(path: ChainPath): Promise<{ index: number; tab: string }> {
  const { result } = await path.request('state', {});
  const state = result as { text: string; tab_id: string };
  const index = new RegExp(`\\[(\\d+)\\][^\\n]*${CLICK_LABEL}`).exec(state.text)?.[1];
  if (index === undefined) {
    throw new Error(`${path.name}: no "${CLICK_LABEL}" in the form page's state`);
  }
  return { index: Number(index), tab: state.tab_id };
}

/**
 * One tool call through the whole chain (MCP client → `tabpilot mcp --extension` → native host →
 * extension → page) beside the same call over `tabpilot connect --extension` and over a bare socket
 * client, each in a tab of its own on the form page of one browser, in interleaved rounds: `click` (it
 * reaches the page, and the page counts it) and `tabs` (the chain alone, no page).
 */
export async function benchChain(pages: PageServer, options: { rounds: number; calls: number }): Promise<ChainRow[]> {
  const chain = await NativeChain.start();
  const paths: ChainPath[] = [];
  try {
    await chain.host();
    paths.push(await mcpPath(chain), await connectPath(chain), await socketPath(chain));
    const targets: Array<{ index: number; tab: string }> = [];
    for (const path of paths) {
      await path.request('navigate', { url: pages.url('form') });
      targets.push(await clickIndex(path));
    }
    // Read through the extension's own debugger session: no second automation client on a measured page.
    const countOf = (tab: string): Promise<number> =>
      chain.inWorker<number>(`(async () => {
        const session = globalThis.tabpilot.session;
        const page = session.targets.requireSession(session.tabIds.targetFor(${JSON.stringify(tab)}));
        const answer = await page.send('Runtime.evaluate', { expression: 'window.__benchClicks', returnByValue: true });
        return answer.result.value;
      })()`);
    const before = await Promise.all(targets.map((target) => countOf(target.tab)));
    const samples = paths.map(() => ({ click: [] as number[], tabs: [] as number[] }));
    for (let round = 0; round < options.rounds; round++) {
      for (const [n, path] of paths.entries()) {
        const target = targets[n];
        const sample = samples[n];
        if (target === undefined || sample === undefined) {
          continue;
        }
        for (let i = 0; i < options.calls; i++) {
          sample.click.push((await path.request('click', { index: target.index })).ms);
          sample.tabs.push((await path.request('tabs', {})).ms);
        }
      }
    }
    const after = await Promise.all(targets.map((target) => countOf(target.tab)));
    return paths.flatMap((path, n) => {
      const sample = samples[n] ?? { click: [], tabs: [] };
      const counted = (after[n] ?? 0) - (before[n] ?? 0);
      return [
        {
          path: path.name,
          action: 'click (by index)',
          calls: sample.click.length,
          median_ms: round(median(sample.click)),
          p90_ms: round(percentile(sample.click, 90)),
          valid: counted === sample.click.length ? 'yes' : `NO: the page counted ${counted}`,
        },
        {
          path: path.name,
          action: 'tabs',
          calls: sample.tabs.length,
          median_ms: round(median(sample.tabs)),
          p90_ms: round(percentile(sample.tabs, 90)),
          valid: 'yes',
        },
      ];
    });
  } finally {
    for (const path of paths) {
      await path.close();
    }
    await chain.close();
  }
}
