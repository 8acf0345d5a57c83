import { defaultConfig } from '../src/agent/tabpilot-config';
import { UrlPolicy, type PolicyConfig } from '../src/browser/security/url-policy';
import { CdpConnection } from '../src/cdp/connection';
import { CdpSession } from '../src/cdp/session';
import { composeNodeSession } from '../src/entries/node/compose';
import { WebSocketTransport } from '../src/platform/node/ws-transport';
import type { Protocol } from '../src/protocol/cdp';
import type { ClientConnection } from '../src/tools/command-server';
import { BrowserClient, evaluate, launchTestBrowser } from '../test/e2e/harness/browser';
import { URL_CORPUS, fillCorpusConfig, fillCorpusUrl } from '../test/fixtures/security/url-corpus';
import type { PageServer } from './page-server';
import { median, percentile, round } from './stats';

export interface DecisionFigures {
  policy: string;
  urls: number;
  median_us_per_url: number;
}

/** One measure with the policy off and under each policy, the costs as medians of paired differences. */
export type PolicyCostFigures = { transport: string; measure: string; samples: number } & Record<
  string,
  number | string
>;

/**
 * The policies measured. A prohibited list holds only URLs that contain a prohibited host (the bench
 * pages pass unheld); an allow list holds every request, documents and subresources alike (the listing's
 * images, the frames' scripts), for one CDP round trip each.
 */
const POLICIES = {
  off: { prohibited_domains: [], allowed_domains: [] },
  prohibited_list: { prohibited_domains: ['evil.example', '*.tracker.example'], allowed_domains: [] },
  allow_list: { prohibited_domains: [], allowed_domains: ['127.0.0.1', '127.0.0.2'] },
} satisfies Record<string, Partial<PolicyConfig>>;
type Side = keyof typeof POLICIES;
const SIDES = Object.keys(POLICIES) as Side[];
/**
 * The measured pages: one document; one with three cross-site frames (four documents); and the 1,000-card
 * listing, whose lazy images in view are the subresources the policy now holds.
 */
const PAGES = ['form', 'frames', 'listing'];

type Samples = Record<string, Record<string, number[]>>;

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

/** Each side's median, and each policy's cost against `off` as the median of same-round differences. */
function figures(transport: string, samples: Samples): PolicyCostFigures[] {
  return Object.entries(samples).map(([measure, bySide]) => {
    const off = bySide['off'] ?? [];
    const row: PolicyCostFigures = { transport, measure, samples: off.length };
    for (const [side, values] of Object.entries(bySide)) {
      row[`${side}_ms`] = round(median(values));
      if (side !== 'off') {
        const costs = values.map((value, i) => value - (off[i] ?? value));
        row[`${side}_cost_ms`] = round(median(costs));
        row[`${side}_cost_p90_ms`] = round(percentile(costs, 90));
      }
    }
    return row;
  });
}

function record(samples: Samples, measure: string, side: string, ms: number): void {
  ((samples[measure] ??= {})[side] ??= []).push(ms);
}

/** Rounds visit the sides in a rotating order, so drift in the machine's load falls on each alike. */
function sidesOf(round: number): Side[] {
  return SIDES.map((_, i) => SIDES[(i + round) % SIDES.length] as Side);
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
 * The floor: a bare CDP client on a tab of its own, navigating with its own Fetch interception off and
 * holding every document (what Chromium itself charges for a held request), beside tabpilot's figures.
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
    const samples: Samples = {};
    // Chromium's own charge for holding: nothing, every document, every request (what an allow list holds).
    const holds: Record<string, Protocol.Fetch.RequestPattern[] | undefined> = {
      off: undefined,
      documents_held: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
      all_held: [{ urlPattern: '*', requestStage: 'Request' }],
    };
    const sides = Object.keys(holds);
    for (let round = 0; round < rounds; round++) {
      for (const side of sides.map((_, i) => sides[(i + round) % sides.length] ?? 'off')) {
        const patterns = holds[side];
        await (patterns === undefined ? page.send('Fetch.disable') : page.send('Fetch.enable', { patterns }));
        for (const name of PAGES) {
          const started = performance.now();
          const loaded = page.waitFor('Page.lifecycleEvent', {
            predicate: (event) => event.name === 'load' && event.frameId === targetId,
            timeoutMs: 30_000,
          });
          await page.send('Page.navigate', { url: pages.url(name) });
          await loaded;
          record(samples, `navigate ${name}`, side, performance.now() - started);
        }
      }
    }
    await root.send('Target.closeTarget', { targetId });
    return figures('bare CDP client (floor)', samples);
  } finally {
    connection.close('bench done');
  }
}

/** Node: navigate and state under each policy, in one browser. */
async function nodeCosts(pages: PageServer, rounds: number): Promise<PolicyCostFigures[]> {
  const base = defaultConfig();
  // A port, not the default pipe: the raw floor's own connection reaches the same browser through it.
  const { session, server } = composeNodeSession({
    config: { ...base, launch: { ...base.launch, headless: true, remote_debugging_port: 0 } },
  });
  await session.start();
  const client = server.connect({ id: 'bench', kind: 'test' }, { send: () => undefined });
  try {
    const floor = await rawFloor(pages, session.endpoint ?? '', rounds);
    const samples: Samples = {};
    for (let round = 0; round < rounds; round++) {
      for (const side of sidesOf(round)) {
        await session.applyConfig({ ...session.config, ...POLICIES[side] });
        for (const page of PAGES) {
          record(samples, `navigate ${page}`, side, await timedCommand(client, 'navigate', { url: pages.url(page) }));
          record(samples, `state ${page}`, side, await timedCommand(client, 'state', {}));
        }
      }
    }
    return [...floor, ...figures('Node (WebSocket)', samples)];
  } finally {
    client.close();
    await session.stop();
    session.dispose();
  }
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
    const samples: Samples = {};
    // One evaluate per side and round, so no single call outlasts the CDP timeout on a loaded machine.
    for (let round = 0; round < rounds; round++) {
      for (const side of sidesOf(round)) {
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
            await session.applyConfig({ ...session.config, ...${JSON.stringify(POLICIES[side])} });
            const out = {};
            for (const page of ${JSON.stringify(PAGES)}) {
              out['navigate ' + page] = await timed('navigate', { url: ${JSON.stringify(pages.url('PAGE'))}.replace('PAGE', page) });
              out['state ' + page] = await timed('state', {});
            }
            return out;
          })()`,
        );
        for (const [measure, ms] of Object.entries(timings)) {
          record(samples, measure, side, ms);
        }
      }
    }
    return figures('extension (chrome.debugger)', samples);
  } finally {
    client.close();
    await browser.kill();
  }
}

/**
 * What the URL policy costs: the decision alone (per URL), and navigate and state with the policy off,
 * with a prohibited list and with an allow list, over both transports, beside a bare client's floor.
 */
export async function benchSecurity(
  pages: PageServer,
  options: { rounds: number },
): Promise<{ decisions: DecisionFigures[]; costs: PolicyCostFigures[] }> {
  const costs = [...(await nodeCosts(pages, options.rounds)), ...(await extensionCosts(pages, options.rounds))];
  return { decisions: decisions(), costs };
}
