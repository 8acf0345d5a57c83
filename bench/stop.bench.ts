import { CdpTargetClosedError } from '../src/cdp/errors';
import type { CommandResponse } from '../src/protocol/commands';
import { pollUntil, sleep } from '../src/shared/time';
import { NodeDriver } from '../test/e2e/harness/drivers';
import { FixtureServer, html, page } from '../test/e2e/harness/fixture-server';
import { NativeChain } from '../test/e2e/harness/native';
import { PanelPage } from '../test/e2e/harness/panel';
import { median, percentile, round } from './stats';

/**
 * The emergency stop, timed (the e2e stop contract checks that it works; this says how fast). Three
 * cases, each in a fresh tab: a long `wait` (20 s), a navigation to a route that never answers, and a
 * `state` of a page whose main thread is stuck in `for (;;) {}`. Three paths: the Node transport (a
 * launched session, the protocol through its CommandServer as the e2e drives it), and the extension with
 * the real native host, where a socket client (an agent) sends the work and the person stops it: `stop`
 * over the side panel's runtime port (the protocol; a native client may not send stop), or a click on
 * the panel's Stop button.
 *
 * What is timed, per round: from just before `stop` is sent (in the extension, through one CDP evaluate
 * in the panel page that posts it or clicks the button) to the moment the in-flight command's CANCELLED answer reaches its
 * client. The stop's own answer is timed from the same start, beside it. After each round the tab is
 * checked released: `tabs` lists nothing attached (outside the timing), and the tab is closed from the
 * browser level.
 */

export interface StopRow {
  path: string;
  case: string;
  rounds: number;
  median_ms: number;
  p90_ms: number;
  /** The stop command's own answer (the protocol paths; the panel shows its answer, not timed here). */
  stop_answer_median_ms: number | null;
  target: string;
  verdict: string;
}

/** The target: a stop takes effect within 500 ms; met when the p90 (so the median too) is within it. */
export const STOP_TARGET_MS = 500;

interface StopPath {
  readonly name: string;
  send(action: string, params?: Record<string, unknown>): Promise<CommandResponse>;
  runningEvents(): Promise<string[]>;
  evaluateInTab(tabId: string, expression: string): Promise<unknown>;
  /** A tab under control showing `url` (after a stop nothing is attached: a navigate alone is refused). */
  openTab(url: string): Promise<string>;
  /** Triggers the stop; resolves with the stop's own answer when the path has one to read. */
  stop(): Promise<CommandResponse | undefined>;
  /**
   * After a stop, outside the timing: closes the round's tabs (pages under `origin`) from the browser level
   * and does what lets the next round start as the first did.
   */
  afterStop(origin: string): Promise<void>;
  close(): Promise<void>;
}

type Case = 'long wait' | 'slow navigation' | 'stuck page script';
const CASES: readonly Case[] = ['long wait', 'slow navigation', 'stuck page script'];

function okResult<T>(response: CommandResponse, what: string): T {
  if (!response.ok) {
    throw new Error(`${what} failed: ${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

async function whenRunning(path: StopPath, record: string): Promise<void> {
  await pollUntil(async () => ((await path.runningEvents()).includes(record) ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 10,
    onTimeout: () => new Error(`${record} never started on ${path.name}`),
  });
}

/** Resolves once the tab's main thread no longer answers (as the e2e's untilStuck). */
async function untilStuck(path: StopPath, tabId: string): Promise<void> {
  await pollUntil(
    async () => {
      // A probe the stuck page never answers stays pending until the stop lets the tab go; either outcome
      // of it is fine here, only whether it answered within 300 ms matters.
      const answered = path.evaluateInTab(tabId, '1').then(
        () => true,
        () => true,
      );
      return (await Promise.race([answered, sleep(300).then(() => false)])) ? undefined : true;
    },
    { timeoutMs: 10_000, intervalMs: 20, onTimeout: () => new Error('the page never got stuck') },
  );
}

/**
 * Starts the case's in-flight command in a fresh tab and returns it once it is seen running (wrapped: an
 * async function returning the bare promise would wait for it).
 */
async function startCase(
  path: StopPath,
  which: Case,
  server: FixtureServer,
  turn: number,
): Promise<{ pending: Promise<CommandResponse> }> {
  const start = which === 'stuck page script' ? `/stuck.html?r=${turn}` : `/a.html?r=${turn}`;
  const tabId = await path.openTab(server.url(start));
  if (which === 'long wait') {
    const pending = path.send('wait', { seconds: 20 });
    await whenRunning(path, 'WaitEvent');
    return { pending };
  }
  if (which === 'slow navigation') {
    const pending = path.send('navigate', { url: server.url(`/never.html?r=${turn}`), timeout_ms: 60_000 });
    await whenRunning(path, 'NavigateToUrlEvent');
    return { pending };
  }
  // The loop starts a moment after the evaluate that schedules it has answered.
  await path.evaluateInTab(tabId, 'setTimeout(() => { for (;;) {} }, 50), true');
  await untilStuck(path, tabId);
  const pending = path.send('state');
  await whenRunning(path, 'BrowserStateRequestEvent');
  return { pending };
}

async function measureOne(
  path: StopPath,
  which: Case,
  server: FixtureServer,
  turn: number,
): Promise<{ cancelledMs: number; stopMs: number | undefined }> {
  const { pending } = await startCase(path, which, server, turn);
  const started = performance.now();
  const stop = path.stop().then((answer) => ({ answer, ms: performance.now() - started }));
  const cancelled = await pending;
  const cancelledMs = performance.now() - started;
  const stopped = await stop;
  if (cancelled.ok || cancelled.error.code !== 'CANCELLED') {
    throw new Error(
      `${path.name}, ${which}: the in-flight command was answered ${JSON.stringify(cancelled)}; the stop ${JSON.stringify(stopped.answer)} after ${round(stopped.ms, 1)} ms`,
    );
  }
  if (stopped.answer !== undefined) {
    okResult(stopped.answer, 'stop');
  }
  // Released: nothing stays attached after a stop.
  const listing = okResult<{ tabs: unknown[] }>(await path.send('tabs'), 'tabs');
  if (listing.tabs.length !== 0) {
    throw new Error(`${path.name}, ${which}: ${listing.tabs.length} tabs still attached after the stop`);
  }
  await path.afterStop(server.url('/'));
  return { cancelledMs, stopMs: stopped.answer === undefined ? undefined : stopped.ms };
}

async function nodePath(): Promise<StopPath> {
  const driver = await NodeDriver.start();
  return {
    name: 'Node (protocol)',
    send: (action, params) => driver.send(action, params),
    runningEvents: () => driver.runningEvents(),
    evaluateInTab: (tabId, expression) => driver.evaluateInTab(tabId, expression),
    openTab: async (url) => {
      // The stop ended the browser: attach launches a new one and takes its tab, as the e2e does.
      if (okResult<{ tabs: unknown[] }>(await driver.send('tabs'), 'tabs').tabs.length === 0) {
        okResult(await driver.send('attach'), 'attach');
      }
      return okResult<{ tab_id: string }>(await driver.send('navigate', { url, new_tab: true }), 'navigate').tab_id;
    },
    stop: () => driver.send('stop'),
    // Nothing to close: the stop ends the Chromium tabpilot launched (the local-browser watchdog kills
    // it), and the next round's navigate launches a new one, outside the timing.
    afterStop: async () => undefined,
    close: () => driver.close(),
  };
}

/** The extension through the real native host, stopped over the protocol or by the panel's button. */
async function extensionPaths(): Promise<{ paths: StopPath[]; close: () => Promise<void> }> {
  const chain = await NativeChain.start();
  await chain.host();
  const client = await chain.connect('tabpilot:bench');
  const panel = await PanelPage.open(chain.client);
  // The panel's own protocol on a runtime port of its own, opened once: a native client may not send
  // stop (only the person may, FORBIDDEN otherwise), so the protocol's stop comes from the panel page.
  await panel.eval(`(() => {
    const port = chrome.runtime.connect({ name: 'tabpilot-panel' });
    const pending = new Map();
    port.onMessage.addListener((message) => {
      if (message.type !== 'response') return;
      const settle = pending.get(message.response.id);
      if (settle) { pending.delete(message.response.id); settle(message.response); }
    });
    let id = 0;
    globalThis.__benchAsk = (action, params = {}) => new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      port.postMessage({ type: 'command', request: { id: n, action, params } });
    });
    globalThis.__benchResume = () => new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      port.postMessage({ type: 'resume_clients', id: n });
    });
    return true;
  })()`);
  const inTab = (tabId: string, expression: string): Promise<unknown> =>
    chain.inWorker(`(async () => {
      const session = globalThis.tabpilot.session;
      const cdp = session.targets.requireSession(session.tabIds.targetFor(${JSON.stringify(tabId)}));
      const response = await cdp.send('Runtime.evaluate', { expression: ${JSON.stringify(expression)}, returnByValue: true, awaitPromise: true });
      if (response.exceptionDetails) throw new Error(response.exceptionDetails.text);
      return response.result.value;
    })()`);
  const common = {
    send: (action: string, params?: Record<string, unknown>) => client.request(action, params),
    runningEvents: () =>
      chain.inWorker<string[]>(
        `globalThis.tabpilot.session.bus.history().filter((view) => view.status === 'started').map((view) => view.type)`,
      ),
    evaluateInTab: inTab,
    // A native client leases a tab of its own: its navigate opens one (a stop let go of the last).
    openTab: async (url: string) =>
      okResult<{ tab_id: string }>(await client.request('navigate', { url, new_tab: true }), 'navigate').tab_id,
    afterStop: async (origin: string) => {
      for (const target of await chain.client.pageTargets()) {
        if (target.url.startsWith(origin)) {
          await chain.client.root.send('Target.closeTarget', { targetId: target.targetId }).catch((error: unknown) => {
            // Listed a moment ago and gone now (closing already): that is what this wanted.
            if (!(error instanceof CdpTargetClosedError)) {
              throw error;
            }
          });
        }
      }
      // A stop holds every program until the person resumes: the person presses Resume, as in the panel.
      okResult(await panel.eval<CommandResponse>('globalThis.__benchResume()'), 'resume_clients');
      // After a stop no tab opens for a client until the person attaches one: the person opens a tab and
      // attaches it from the panel (it is closed after the next round with the others).
      const targetId = await chain.client.createTab(`${origin}a.html?person`);
      const tabId = await pollUntil(
        async () => {
          const listing = okResult<{ tabs: Array<{ tab_id: string }> }>(
            await panel.eval<CommandResponse>("globalThis.__benchAsk('tabs', { all: true })"),
            'tabs',
          );
          return listing.tabs.find((tab) => targetId.toLowerCase().endsWith(tab.tab_id.toLowerCase()))?.tab_id;
        },
        { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error(`tab ${targetId} never listed in tabs`) },
      );
      okResult(
        await panel.eval<CommandResponse>(`globalThis.__benchAsk('attach', { tab_id: ${JSON.stringify(tabId)} })`),
        'attach',
      );
    },
    close: async () => undefined,
  };
  return {
    paths: [
      {
        ...common,
        name: "extension, panel's port (protocol)",
        stop: () => panel.eval<CommandResponse>("globalThis.__benchAsk('stop')"),
      },
      {
        ...common,
        name: 'extension, side panel Stop button',
        stop: async () => {
          await panel.click('#stop');
          return undefined;
        },
      },
    ],
    close: async () => {
      client.close();
      await chain.close();
    },
  };
}

export async function benchStop(options: { rounds: number; paths: readonly string[] }): Promise<StopRow[]> {
  const server = new FixtureServer();
  // A document that never answers: a navigation to it waits for its readiness until stopped.
  server.route('/never.html', () => undefined);
  server.route('/stuck.html', (_req, res) => html(res, page('Stuck', '<p>stuck soon</p>', '')));
  await server.start();
  const rows: StopRow[] = [];
  const openers: Array<() => Promise<{ paths: StopPath[]; close: () => Promise<void> }>> = [];
  if (options.paths.includes('node')) {
    openers.push(async () => {
      const path = await nodePath();
      return { paths: [path], close: () => path.close() };
    });
  }
  if (options.paths.includes('extension')) {
    openers.push(extensionPaths);
  }
  try {
    for (const open of openers) {
      const opened = await open();
      try {
        const samples = new Map<string, { cancelled: number[]; stop: number[] }>();
        // One warm-up round per path and case, then rounds that take the cases (and paths) in turn.
        for (let turn = -1; turn < options.rounds; turn++) {
          for (const path of opened.paths) {
            for (const which of CASES) {
              const key = `${path.name}\u0000${which}`;
              const { cancelledMs, stopMs } = await measureOne(path, which, server, turn);
              if (turn < 0) {
                continue;
              }
              const entry = samples.get(key) ?? { cancelled: [], stop: [] };
              entry.cancelled.push(cancelledMs);
              if (stopMs !== undefined) {
                entry.stop.push(stopMs);
              }
              samples.set(key, entry);
            }
          }
        }
        for (const [key, entry] of samples) {
          const [path = '', which = ''] = key.split('\u0000');
          const p90 = percentile(entry.cancelled, 90);
          rows.push({
            path,
            case: which,
            rounds: entry.cancelled.length,
            median_ms: round(median(entry.cancelled), 1),
            p90_ms: round(p90, 1),
            stop_answer_median_ms: entry.stop.length === 0 ? null : round(median(entry.stop), 1),
            target: `at most ${STOP_TARGET_MS} ms (p90)`,
            verdict: p90 <= STOP_TARGET_MS ? 'met' : 'missed',
          });
        }
      } finally {
        await opened.close();
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}
