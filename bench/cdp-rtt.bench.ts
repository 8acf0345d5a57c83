import WebSocket from 'ws';
import { defaultConfig } from '../src/agent/tabpilot-config';
import { composeNodeSession } from '../src/entries/node/compose';
import { BrowserClient, evaluate, launchTestBrowser } from '../test/e2e/harness/browser';
import type { PageServer } from './page-server';
import { median, percentile, round } from './stats';

export interface RttFigures {
  transport: string;
  calls: number;
  median_ms: number;
  p90_ms: number;
}

const CALLS = 200;
const ROUNDS = 5;

/** A bare `ws` CDP client: the floor a transport's own overhead is measured against. */
class BareClient {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, () => void>();
  #id = 0;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { id?: number; result?: { sessionId?: string } };
      if (message.id !== undefined) {
        this.#pending.get(message.id)?.();
        this.#pending.delete(message.id);
      }
    });
  }

  static open(url: string): Promise<BareClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      socket.once('open', () => resolve(new BareClient(socket)));
      socket.once('error', reject);
    });
  }

  send(method: string, params: object, sessionId?: string): Promise<unknown> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      this.#pending.set(id, () => resolve(undefined));
      this.#socket.send(
        JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }),
      );
    });
  }

  async attach(targetId: string): Promise<string> {
    return new Promise((resolve) => {
      const id = ++this.#id;
      const onMessage = (data: Buffer): void => {
        const message = JSON.parse(data.toString('utf8')) as { id?: number; result?: { sessionId: string } };
        if (message.id === id && message.result !== undefined) {
          this.#socket.off('message', onMessage);
          resolve(message.result.sessionId);
        }
      };
      this.#socket.on('message', onMessage);
      this.#socket.send(JSON.stringify({ id, method: 'Target.attachToTarget', params: { targetId, flatten: true } }));
    });
  }

  close(): void {
    this.#socket.close();
  }
}

async function timed(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    into.push(performance.now() - started);
  }
}

function figures(transport: string, samples: number[]): RttFigures {
  return {
    transport,
    calls: samples.length,
    median_ms: round(median(samples)),
    p90_ms: round(percentile(samples, 90)),
  };
}

/** Runtime.evaluate('1') round trips over the Node transport beside a bare ws client, same browser and tab. */
async function nodeRoundTrips(pages: PageServer): Promise<RttFigures[]> {
  const base = defaultConfig();
  // A port, not the default pipe: the bare client beside tabpilot needs one to reach the same browser.
  const { session } = composeNodeSession({
    config: { ...base, launch: { ...base.launch, headless: true, remote_debugging_port: 0 } },
  });
  await session.start();
  try {
    const target = await session.focusedTargetId();
    await session.targets.requireSession(target).send('Page.navigate', { url: pages.url('form') });
    await new Promise((r) => setTimeout(r, 500));
    const bare = await BareClient.open(session.endpoint ?? '');
    const bareSession = await bare.attach(target);
    const tabpilotSamples: number[] = [];
    const bareSamples: number[] = [];
    const cdp = session.targets.requireSession(target);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['tabpilot', 'bare'] : ['bare', 'tabpilot'];
      for (const who of order) {
        if (who === 'tabpilot') {
          await timed(() => cdp.send('Runtime.evaluate', { expression: '1' }), CALLS / ROUNDS, tabpilotSamples);
        } else {
          await timed(
            () => bare.send('Runtime.evaluate', { expression: '1' }, bareSession),
            CALLS / ROUNDS,
            bareSamples,
          );
        }
      }
    }
    bare.close();
    return [figures('bare ws client (floor)', bareSamples), figures('tabpilot Node (WebSocket)', tabpilotSamples)];
  } finally {
    await session.stop();
    session.dispose();
  }
}

/** The same round trip from the extension's worker: tabpilot's session over chrome.debugger, and raw. */
async function extensionRoundTrips(pages: PageServer): Promise<RttFigures[]> {
  const browser = await launchTestBrowser({ extension: true });
  const client = await BrowserClient.connect(browser.cdpUrl);
  try {
    const worker = await client.serviceWorker();
    await client.createTab(pages.url('form'));
    await new Promise((r) => setTimeout(r, 500));
    const samples = await evaluate<{ tabpilot: number[]; raw: number[] }>(
      worker,
      `(async () => {
        const connection = globalThis.tabpilot.server.connect({ id: 'bench', kind: 'test' }, { send: () => {} });
        const attached = await connection.handle({ id: 1, action: 'attach', params: {} });
        if (!attached.ok) throw new Error(JSON.stringify(attached));
        const session = globalThis.tabpilot.session;
        const target = session.targets.focusedTargetId;
        const cdp = session.targets.requireSession(target);
        const tabId = globalThis.tabpilot.router.tabIdOfTarget(target);
        const out = { tabpilot: [], raw: [] };
        for (let round = 0; round < ${ROUNDS}; round++) {
          const order = round % 2 === 0 ? ['tabpilot', 'raw'] : ['raw', 'tabpilot'];
          for (const who of order) {
            for (let i = 0; i < ${CALLS / ROUNDS}; i++) {
              const started = performance.now();
              if (who === 'tabpilot') await cdp.send('Runtime.evaluate', { expression: '1' });
              else await chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: '1' });
              out[who].push(performance.now() - started);
            }
          }
        }
        return out;
      })()`,
    );
    return [
      figures('raw chrome.debugger.sendCommand (worker)', samples.raw),
      figures('tabpilot extension (chrome.debugger)', samples.tabpilot),
    ];
  } finally {
    client.close();
    await browser.kill();
  }
}

export async function benchRoundTrips(pages: PageServer): Promise<RttFigures[]> {
  return [...(await nodeRoundTrips(pages)), ...(await extensionRoundTrips(pages))];
}
