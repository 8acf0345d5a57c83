import { defaultConfig } from '../src/browser/config';
import { UrlPolicy, type PolicyConfig } from '../src/browser/security/url-policy';
import { CdpConnection } from '../src/cdp/connection';
import { CdpSession } from '../src/cdp/session';
import { composeNodeSession } from '../src/entries/node/compose';
import { WebSocketTransport } from '../src/platform/node/ws-transport';
import type { ClientConnection } from '../src/tools/command-server';
import { BrowserClient, evaluate, launchTestBrowser } from '../test/e2e/harness/browser';
import { URL_CORPUS, fillCorpusConfig, fillCorpusUrl } from '../test/fixtures/security/url-corpus';
import type { PageServer } from './page-server';
import { median, round } from './stats';

export interface PolicyCostFigures {
  transport: string;
  measure: string;
  policy_off_ms: number;
  policy_on_ms: number;
  cost_ms: number;
  samples: number;
}

export interface DecisionFigures {
  policy: string;
  urls: number;
  median_us_per_url: number;
}

/** A policy with a host rule, so every document request is held for a decision (the bench pages pass it). */
const HOLDING: Partial<PolicyConfig> = { prohibited_domains: ['evil.example', '*.tracker.example'] };
const OFF: Partial<PolicyConfig> = { prohibited_domains: [] };
/** The measured pages: one document, and one with three cross-site frames (four documents). */
const PAGES = ['form', 'frames'];

/** The decision function alone, over the corpus, per URL. */
function decisions(): DecisionFigures[] {
  const ports = { port: 8080, tls: 8443 };
  const urls = URL_CORPUS.flatMap((profile) => profile.cases.map((entry) => fillCorpusUrl(entry.url, ports)));
  return URL_CORPUS.map((profile) => {
    const policy = new UrlPolicy({ ...defaultConfig(), ...fillCorpusConfig(profile.config, ports) });
    const samples: number[] = [];
    for (let run = 0; run < 20; run++) {
      const started = performance.now();
      for (const url of urls) {
        policy.decide(url, { drivesBrowserPages: true });
      }
      samples.push(((performance.now() - started) * 1000) / urls.length);
    }
    return { policy: profile.name, urls: urls.length, median_us_per_url: round(median(samples)) };
  });
}

/** The cost is the median of paired differences (the same round, on minus off), which load drifts less. */
function figures(transport: string, measure: string, off: number[], on: number[]): PolicyCostFigures {
  const pairs = Math.min(off.length, on.length);
  const differences = Array.from({ length: pairs }, (_, i) => (on[i] ?? 0) - (off[i] ?? 0));
  return {
    transport,
    measure,
    policy_off_ms: round(median(off)),
    policy_on_ms: round(median(on)),
    cost_ms: round(median(differences)),
    samples: pairs,
  };
}

let requestId = 0;

async function timedCommand(
  client: ClientConnection,
  action: string,
  params: Record<string, unknown>,
): Promise<number> {
  const started = performance.now();
  const response = await client.handle({ id: ++requestId, action, params });
  if (!response.ok) {
    throw new Error(`${action}: ${response.error.code} ${response.error.message}`);
  }
  return performance.now() - started;
}

/**
 * The floor: a bare CDP client on a tab of its own, navigating with its own Fetch interception off and on
 * (what Chromium itself charges for holding a document request one round trip), beside tabpilot's figures.
 */
async function rawFloor(pages: PageServer, endpoint: string, rounds: number): Promise<PolicyCostFigures[]> {
  const connection = new CdpConnection(await WebSocketTransport.connect(endpoint), { timeoutMs: 30_000 });
  const root = new CdpSession(connection, '', 'browser');
  try {
    const { targetId } = await root.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await root.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new CdpSession(connection, sessionId, targetId);
    await page.send('Page.enable');
    await page.send('Page.setLifecycleEventsEnabled', { enabled: true });
    page.on('Fetch.requestPaused', (params) => {
      page.send('Fetch.continueRequest', { requestId: params.requestId }).catch((error: unknown) => {
        process.stderr.write(`floor: could not continue a held request: ${String(error)}\n`);
      });
    });
    const samples: Record<string, { off: number[]; on: number[] }> = {};
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        await (side === 'on'
          ? page.send('Fetch.enable', {
              patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
            })
          : page.send('Fetch.disable'));
        for (const name of PAGES) {
          const started = performance.now();
          const loaded = page.waitFor('Page.lifecycleEvent', {
            predicate: (event) => event.name === 'load' && event.frameId === targetId,
            timeoutMs: 30_000,
          });
          await page.send('Page.navigate', { url: pages.url(name) });
          await loaded;
          (samples[`navigate ${name}`] ??= { off: [], on: [] })[side].push(performance.now() - started);
        }
      }
    }
    await root.send('Target.closeTarget', { targetId });
    return Object.entries(samples).map(([measure, { off, on }]) =>
      figures('bare CDP client (floor)', measure, off, on),
    );
  } finally {
    connection.close('bench done');
  }
}

/** Node: navigate and state with the policy off and on, interleaved rounds in one browser. */
async function nodeCosts(pages: PageServer, rounds: number): Promise<PolicyCostFigures[]> {
  const floor: PolicyCostFigures[] = [];
  const base = defaultConfig();
  const { session, server } = composeNodeSession({ config: { ...base, launch: { ...base.launch, headless: true } } });
  await session.start();
  const client = server.connect({ id: 'bench', kind: 'test' }, { send: () => undefined });
  const samples: Record<string, { off: number[]; on: number[] }> = {};
  const into = (key: string, side: 'off' | 'on', ms: number): void => {
    (samples[key] ??= { off: [], on: [] })[side].push(ms);
  };
  try {
    floor.push(...(await rawFloor(pages, session.endpoint ?? '', rounds)));
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        await session.applyConfig({ ...session.config, ...(side === 'on' ? HOLDING : OFF) });
        for (const page of PAGES) {
          into(`navigate ${page}`, side, await timedCommand(client, 'navigate', { url: pages.url(page) }));
          into(`state ${page}`, side, await timedCommand(client, 'state', {}));
        }
      }
    }
  } finally {
    client.close();
    await session.stop();
  }
  return [
    ...floor,
    ...Object.entries(samples).map(([measure, { off, on }]) => figures('Node (WebSocket)', measure, off, on)),
  ];
}

/** The extension: the same through the worker's own session over chrome.debugger. */
async function extensionCosts(pages: PageServer, rounds: number): Promise<PolicyCostFigures[]> {
  const browser = await launchTestBrowser({ extension: true });
  const client = await BrowserClient.connect(browser.cdpUrl);
  try {
    const worker = await client.serviceWorker();
    await client.createTab(pages.url('form'));
    await evaluate(
      worker,
      `(async () => {
        const connection = globalThis.tabpilot.server.connect({ id: 'bench', kind: 'test' }, { send: () => {} });
        const attached = await connection.handle({ id: 'attach', action: 'attach', params: {} });
        if (!attached.ok) throw new Error(JSON.stringify(attached));
        globalThis.__bench = connection;
        return true;
      })()`,
    );
    const samples: Record<string, { off: number[]; on: number[] }> = {};
    // One evaluate per side and round, so no single call outlasts the CDP timeout on a loaded machine.
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const timings = await evaluate<Record<string, number>>(
          worker,
          `(async () => {
            const session = globalThis.tabpilot.session;
            let id = 0;
            const timed = async (action, params) => {
              const started = performance.now();
              const response = await globalThis.__bench.handle({ id: ++id, action, params });
              if (!response.ok) throw new Error(action + ': ' + JSON.stringify(response.error));
              return performance.now() - started;
            };
            await session.applyConfig({ ...session.config, ...${JSON.stringify(side === 'on' ? HOLDING : OFF)} });
            const out = {};
            for (const page of ${JSON.stringify(PAGES)}) {
              out['navigate ' + page] = await timed('navigate', { url: ${JSON.stringify(pages.url('PAGE'))}.replace('PAGE', page) });
              out['state ' + page] = await timed('state', {});
            }
            return out;
          })()`,
        );
        for (const [measure, ms] of Object.entries(timings)) {
          (samples[measure] ??= { off: [], on: [] })[side].push(ms);
        }
      }
    }
    return Object.entries(samples).map(([measure, { off, on }]) =>
      figures('extension (chrome.debugger)', measure, off, on),
    );
  } finally {
    client.close();
    await browser.kill();
  }
}

/**
 * What the URL policy costs: the decision alone (per URL), and per navigation and per state with it
 * off (no host rule: nothing is held) and on (a host rule: every document request waits for one CDP
 * round trip), side by side in one browser per transport.
 */
export async function benchSecurity(
  pages: PageServer,
  options: { rounds: number },
): Promise<{ decisions: DecisionFigures[]; costs: PolicyCostFigures[] }> {
  const costs = [...(await nodeCosts(pages, options.rounds)), ...(await extensionCosts(pages, options.rounds))];
  return { decisions: decisions(), costs };
}
