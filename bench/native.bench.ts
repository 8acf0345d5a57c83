import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommandResponse } from '../src/protocol/commands';
import type { CdpSession } from '../src/cdp/session';
import { evaluate, PANEL_URL } from '../test/e2e/harness/browser';
import { NativeChain } from '../test/e2e/harness/native';
import type { PageServer } from './page-server';
import { pollUntil } from '../src/shared/time';
import { median, percentile, round } from './stats';

/**
 * Native messaging, side by side in one browser: the same command's round trip from a socket client
 * (client → host → Chrome's native port → worker → back) and from the panel's runtime port inside the
 * extension, and from an in-worker client (no transport: the CommandServer's own cost). Then 1,000
 * pipelined `tabs` over each, and a 5 MB answer (a full-page PNG of noise) over each.
 */

export interface NativeRttFigures {
  path: string;
  calls: number;
  median_ms: number;
  p90_ms: number;
}

export interface NativeFigures {
  round_trip: NativeRttFigures[];
  native_hop_added_median_ms: number;
  native_hop_added_p90_ms: number;
  pipelined: Array<{ path: string; calls: number; total_ms: number; per_second: number }>;
  big_answer: Array<{ path: string; bytes: number; median_ms: number }>;
}

const ROUNDS = 6;
const CALLS_PER_ROUND = 40;
const PIPELINED = 1000;
const BIG_RUNS = 3;

/** The panel's own protocol on a runtime port, timed inside the panel page. */
function panelScript(body: string): string {
  return `(async () => {
    const port = chrome.runtime.connect({ name: 'tabpilot-panel' });
    const pending = new Map();
    port.onMessage.addListener((message) => {
      if (message.type !== 'response') return;
      const settle = pending.get(message.response.id);
      if (settle) { pending.delete(message.response.id); settle(message.response); }
    });
    let id = 0;
    const ask = (action, params = {}) => new Promise((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      port.postMessage({ type: 'command', request: { id: n, action, params } });
    });
    try { ${body} } finally { port.disconnect(); }
  })()`;
}

function figures(path: string, samples: number[]): NativeRttFigures {
  return { path, calls: samples.length, median_ms: round(median(samples)), p90_ms: round(percentile(samples, 90)) };
}

function noisePage(): Promise<{ url: string; close: () => void }> {
  const page = `<!doctype html><title>noise</title><style>body{margin:0}</style><canvas id="c" width="1280" height="1400"></canvas><script>
    const c = document.getElementById('c'); const g = c.getContext('2d'); const img = g.createImageData(c.width, c.height);
    let s = 1; for (let i = 0; i < img.data.length; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; img.data[i] = i % 4 === 3 ? 255 : s >>> 24; }
    g.putImageData(img, 0, 0);</script>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/noise.html`,
        close: () => server.close(),
      }),
    ),
  );
}

function ok(response: CommandResponse): unknown {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result;
}

export async function benchNative(pages: PageServer): Promise<NativeFigures> {
  const chain = await NativeChain.start();
  const noise = await noisePage();
  try {
    await chain.host();
    const client = await chain.connect('tabpilot:bench');
    const tab = (ok(await client.request('navigate', { url: pages.url('form') })) as { tab_id: string }).tab_id;
    const { targetId } = await chain.client.root.send('Target.createTarget', { url: PANEL_URL, background: true });
    const panel: CdpSession = await chain.client.attach(targetId);
    // The page is still loading when it is attached: ask until its document is the panel's.
    await pollUntil(
      () =>
        evaluate<boolean>(panel, `location.href === ${JSON.stringify(PANEL_URL)} && document.readyState === 'complete'`)
          .catch(() => false)
          .then((ready) => (ready ? true : undefined)),
      { timeoutMs: 15_000, intervalMs: 50, onTimeout: () => new Error('the panel page never loaded') },
    );
    for (let i = 0; i < 20; i++) {
      ok(await client.request('tabs'));
    }
    const nativeSamples: number[] = [];
    const panelSamples: number[] = [];
    const workerSamples: number[] = [];
    const pingSamples: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        const started = performance.now();
        await client.ping();
        pingSamples.push(performance.now() - started);
      }
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        const started = performance.now();
        ok(await client.request('tabs'));
        nativeSamples.push(performance.now() - started);
      }
      panelSamples.push(
        ...(await evaluate<number[]>(
          panel,
          panelScript(`const out = []; for (let i = 0; i < ${CALLS_PER_ROUND + (r === 0 ? 20 : 0)}; i++) {
            const started = performance.now(); const response = await ask('tabs');
            if (!response.ok) throw new Error(JSON.stringify(response)); out.push(performance.now() - started); }
            return out.slice(${r === 0 ? 20 : 0});`),
        )),
      );
      workerSamples.push(
        ...(await chain.inWorker<number[]>(`(async () => {
          const connection = globalThis.tabpilot.server.connect({ id: 'bench', kind: 'test' }, { send: () => {} });
          const out = [];
          for (let i = 0; i < ${CALLS_PER_ROUND}; i++) { const started = performance.now(); await connection.handle({ id: i, action: 'tabs' }); out.push(performance.now() - started); }
          connection.close();
          return out;
        })()`)),
      );
    }
    const nativeFigures = figures('socket client → host → worker (native)', nativeSamples);
    const panelFigures = figures('panel runtime port → worker', panelSamples);

    let started = performance.now();
    const answers = await Promise.all(Array.from({ length: PIPELINED }, () => client.request('tabs')));
    const nativeTotal = performance.now() - started;
    answers.forEach(ok);
    const panelTotal = await evaluate<number>(
      panel,
      panelScript(`const started = performance.now();
        const all = await Promise.all(Array.from({ length: ${PIPELINED} }, () => ask('tabs')));
        if (all.some((response) => !response.ok)) throw new Error('a pipelined tabs failed');
        return performance.now() - started;`),
    );

    ok(await client.request('navigate', { url: noise.url, tab_id: tab }));
    // In front: a hidden tab renders no new frames, and a second capture of it would wait for one.
    ok(await client.request('switch', { tab_id: tab, activate: true }));
    const nativeBig: number[] = [];
    const panelBig: number[] = [];
    let bytes = 0;
    for (let i = 0; i < BIG_RUNS; i++) {
      started = performance.now();
      const shot = ok(await client.request('screenshot', { full_page: true, format: 'png' })) as { data: string };
      nativeBig.push(performance.now() - started);
      bytes = shot.data.length;
      panelBig.push(
        await evaluate<number>(
          panel,
          panelScript(`const started = performance.now();
            const response = await ask('screenshot', { full_page: true, format: 'png', tab_id: ${JSON.stringify(tab)} });
            if (!response.ok || response.result.data.length < 1000000) throw new Error('no big answer: ' + JSON.stringify(response).slice(0, 300));
            return performance.now() - started;`),
        ),
      );
    }
    client.close();
    return {
      round_trip: [
        nativeFigures,
        figures('socket client → host → worker, ping (no command run)', pingSamples),
        panelFigures,
        figures('in-worker client (no transport)', workerSamples),
      ],
      native_hop_added_median_ms: round(nativeFigures.median_ms - panelFigures.median_ms),
      native_hop_added_p90_ms: round(nativeFigures.p90_ms - panelFigures.p90_ms),
      pipelined: [
        {
          path: 'native',
          calls: PIPELINED,
          total_ms: round(nativeTotal, 1),
          per_second: Math.round((PIPELINED / nativeTotal) * 1000),
        },
        {
          path: 'panel port',
          calls: PIPELINED,
          total_ms: round(panelTotal, 1),
          per_second: Math.round((PIPELINED / panelTotal) * 1000),
        },
      ],
      big_answer: [
        { path: 'native', bytes, median_ms: round(median(nativeBig), 1) },
        { path: 'panel port', bytes, median_ms: round(median(panelBig), 1) },
      ],
    };
  } finally {
    noise.close();
    await chain.close();
  }
}
