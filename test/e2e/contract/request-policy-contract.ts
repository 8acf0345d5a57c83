import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../../src/browser/security/private-address';
import type { PolicyConfig } from '../../../src/browser/security/url-policy';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { SecurityRig, type SecurityHooks } from '../harness/security-rig';
import { addSubresourcePages, SUBRESOURCE_KINDS, type SubresourceKind } from '../harness/subresource-pages';

export interface RequestPolicyHooks extends SecurityHooks {
  /** Whether block_ip_addresses resolves host names at request time (Node: yes; the extension has no DNS API). */
  resolvesHostNames: boolean;
  /** Whether navigate loads a data: URL in a tab (Node: yes; Chrome refuses it over chrome.debugger). */
  navigatesToData: boolean;
  /**
   * Whether WebSocket handshakes are held: the extension blocks them with declarativeNetRequest; over CDP
   * alone nothing can (Fetch never sees one, Network.setBlockedURLs does not stop one: Chromium 156).
   */
  holdsWebSockets: boolean;
}

/** How a WebSocket is judged: as its URL is written (declarativeNetRequest has no DNS), or not at all. */
interface WebSocketHold {
  /** False where the rule needs the host's resolved address, which a URL-matching rule cannot see. */
  byResolvedAddress?: boolean;
}

/**
 * The URL policy on every request of a controlled tab, over both transports: each subresource kind (img,
 * script, fetch, XHR, WebSocket, EventSource, sendBeacon, a dedicated worker's fetch, an iframe) and the
 * navigations a data: page starts, sent to a refused host, never reach its server (the loopback server is
 * the witness), fail in the page as network errors while the page goes on, and are announced. Each test
 * first shows the same page's requests do arrive where the policy lets them, so a witness that saw
 * nothing means a block, not a page that sent nothing.
 */
export function defineRequestPolicyContract(
  name: string,
  start: () => Promise<Driver>,
  hooks: RequestPolicyHooks,
): void {
  describe(`the URL policy on every request, over ${name}`, () => {
    const rig = new SecurityRig(hooks);
    addSubresourcePages(rig.server);

    /** Whether the `kind` request tagged `tag` reached the server under `host`. */
    const arrivedAt = (host: string, kind: SubresourceKind, tag: number): boolean =>
      rig.server.requests.some(
        (r) =>
          r.path === `/sub/${kind}` && r.host.startsWith(host) && new URLSearchParams(r.query).get('c') === String(tag),
      );

    /** Loads the page on good.example that sends every kind to `host`; resolves with its outcomes once all settled. */
    const sendEveryKind = async (host: string, tag: number): Promise<Record<string, string>> => {
      const origin = rig.at(host, '').replace(/\/$/, '');
      const page = rig.at('good.example', `/sec/subresources.html?to=${encodeURIComponent(origin)}&c=${tag}`);
      await rig.driver.ok('navigate', { url: page });
      let outcomes: Record<string, string> = {};
      await pollUntil(
        async () => {
          const state = await rig.driver.evaluateInTab<{ settled: boolean; outcomes: Record<string, string> }>(
            rig.tab,
            '({ settled: window.settled === true, outcomes: window.outcomes ?? {} })',
          );
          outcomes = state.outcomes;
          return state.settled || undefined;
        },
        {
          timeoutMs: 15_000,
          intervalMs: 50,
          onTimeout: () => new Error(`the page never settled: ${JSON.stringify(outcomes)}`),
        },
      );
      return outcomes;
    };

    const expectAllArrive = async (host: string): Promise<void> => {
      const tag = rig.tag();
      await sendEveryKind(host, tag);
      await pollUntil(() => SUBRESOURCE_KINDS.every((kind) => arrivedAt(host, kind, tag)) || undefined, {
        timeoutMs: 10_000,
        intervalMs: 25,
        onTimeout: () =>
          new Error(
            `not witnessed at ${host}: ${SUBRESOURCE_KINDS.filter((k) => !arrivedAt(host, k, tag)).join(', ')}`,
          ),
      });
    };

    const expectNoneArrive = async (host: string, rule: string, webSocket: WebSocketHold = {}): Promise<void> => {
      rig.events = [];
      const tag = rig.tag();
      const outcomes = await sendEveryKind(host, tag);
      // Blocked at once; give a request that slipped through time to land before looking.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const holdsWebSocket = hooks.holdsWebSockets && webSocket.byResolvedAddress !== false;
      const held = SUBRESOURCE_KINDS.filter((kind) => holdsWebSocket || kind !== 'websocket');
      expect(held.filter((kind) => arrivedAt(host, kind, tag))).toEqual([]);
      // Each failed as a network error in the page, which kept running (it settled and answers).
      expect(outcomes).toMatchObject({
        img: 'failed',
        script: 'failed',
        fetch: 'TypeError',
        xhr: 'failed',
        ...(holdsWebSocket ? { websocket: 'failed' } : {}),
        eventsource: 'failed',
        'worker-fetch': 'TypeError',
      });
      const block = await rig.nextBlock((b) => b.url.includes(`/sub/img?c=${tag}`), 'the image');
      expect(block).toMatchObject({ stage: 'subresource', rule, frame: 'subframe', tab_closed: false });
      expect(block.target_id.toLowerCase().endsWith(rig.tab.toLowerCase())).toBe(true);
      expect(await rig.tabUrl()).toContain('/sec/subresources.html');
    };

    const policy = (fields: Partial<PolicyConfig>): Promise<void> => rig.policy(fields);

    beforeAll(async () => {
      await rig.start(start);
    });

    afterAll(async () => {
      await rig.stop();
    });

    it('holds every subresource kind to a prohibited host; the same page reaches an allowed host', async () => {
      await policy({ prohibited_domains: ['evil.example'] });
      await expectAllArrive('fine.example');
      await expectNoneArrive('evil.example', 'prohibited_domains');
    });

    it('holds every subresource kind to a host outside allowed_domains', async () => {
      await policy({ allowed_domains: ['good.example', 'fine.example'] });
      await expectAllArrive('fine.example');
      await expectNoneArrive('else.example', 'allowed_domains');
    });

    it('holds every subresource kind to an IP literal under block_ip_addresses', async () => {
      await policy({ block_ip_addresses: true });
      await expectNoneArrive('127.0.0.1', 'block_ip_addresses');
    });

    it('holds the navigations and subresources of a data: page, framed and (where navigate loads one) top-level', async () => {
      await policy({ prohibited_domains: ['evil.example'] });
      const tag = rig.tag();
      const to = (path: string): string => rig.at('evil.example', `${path}?c=${tag}`);
      const documents = (where: string): string[] => [
        `<meta http-equiv="refresh" content="0;url=${to(`/${where}-meta`)}"><img src="${to(`/${where}-img`)}">`,
        `<script>fetch('${to(`/${where}-fetch`)}', { mode: 'no-cors' }).catch(() => {}); setTimeout(() => { location.href = '${to(`/${where}-location`)}'; }, 50);</script>`,
      ];
      const dataUrl = (body: string): string => `data:text/html,${encodeURIComponent(body)}`;
      rig.events = [];
      const framed = documents('framed').map(
        (body) => `<iframe src="${dataUrl(body).replace(/"/g, '&quot;')}"></iframe>`,
      );
      await rig.driver.ok('navigate', { url: rig.at('good.example', '/sec/empty.html') });
      await rig.driver.evaluateInTab(
        rig.tab,
        `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(framed.join(''))})`,
      );
      const paths = ['meta', 'img', 'fetch', 'location'].map((kind) => `/framed-${kind}`);
      await rig.nextBlock((b) => b.url.includes('/framed-location'), 'the location set from a framed data: page');
      await rig.nextBlock((b) => b.url.includes('/framed-meta'), 'the meta refresh of a framed data: page');
      if (hooks.navigatesToData) {
        // One at a time: a second navigate would replace the first page before its refresh fires.
        const [refreshing, scripted] = documents('top');
        await rig.driver.ok('navigate', { url: dataUrl(refreshing ?? '') });
        await rig.nextBlock((b) => b.url.includes('/top-meta'), 'the meta refresh of a data: page');
        await rig.driver.ok('navigate', { url: dataUrl(scripted ?? '') });
        await rig.nextBlock((b) => b.url.includes('/top-location'), 'the location set from a data: page');
        paths.push(...['meta', 'img', 'fetch', 'location'].map((kind) => `/top-${kind}`));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const path of paths) {
        expect(rig.sawPath('evil.example', path), path).toBe(false);
      }
    });

    it('refuses localhost and *.localhost under block_ip_addresses: Chromium answers them with loopback itself', async () => {
      await policy({ block_ip_addresses: true });
      await expectNoneArrive('localhost', 'block_ip_addresses');
      expect(await rig.driver.send('navigate', { url: rig.at('app.localhost', '/sec/empty.html') })).toMatchObject({
        ok: false,
        error: { code: 'URL_BLOCKED', details: { rule: 'block_ip_addresses' } },
      });
      expect(rig.sawPath('app.localhost', '/sec/empty.html')).toBe(false);
    });

    it.runIf(hooks.resolvesHostNames)(
      'refuses a host name that resolves to a private address under block_ip_addresses, resolved at request time',
      async () => {
        // This machine's own name resolves to its loopback or private address (/etc/hosts), not by any rule.
        const name = hostname().toLowerCase();
        const addresses = (await lookup(name, { all: true })).map((answer) => answer.address);
        expect(addresses.some(isPrivateAddress), `${name} resolves to ${addresses.join(', ')}`).toBe(true);
        await policy({});
        await expectAllArrive(name);
        await policy({ block_ip_addresses: true });
        // The WebSocket guard is a declarativeNetRequest rule, which matches the URL as written: a name is
        // not resolved for it (docs/protocol.md says so).
        await expectNoneArrive(name, 'block_ip_addresses', { byResolvedAddress: false });
        const response = await rig.driver.send('navigate', { url: rig.at(name, '/sec/empty.html?named') });
        expect(response).toMatchObject({
          ok: false,
          error: {
            code: 'URL_BLOCKED',
            details: { rule: 'block_ip_addresses', pattern: addresses.find(isPrivateAddress) },
          },
        });
        expect(rig.server.requests.some((r) => r.query === '?named')).toBe(false);
      },
    );

    it("a client's route cannot answer for a refused URL: the policy is judged first, and a mocked redirect is judged again", async () => {
      await policy({ prohibited_domains: ['evil.example'] });
      await rig.driver.ok('navigate', { url: rig.at('good.example', '/sec/empty.html') });
      rig.events = [];
      const tag = rig.tag();
      const route = (fields: Record<string, unknown>) =>
        rig.driver.ok('route', { tab_id: rig.tab, op: 'add', ...fields });
      await route({ url_pattern: '*/routed?*', fulfill: { body: 'mock' } });
      await route({
        url_pattern: '*/redirect-me?*',
        fulfill: { status: 302, headers: { Location: rig.at('evil.example', `/after-redirect?c=${tag}`) } },
      });
      try {
        const outcomes = await rig.driver.evaluateInTab(
          rig.tab,
          `(async () => {
            const attempt = (url) => fetch(url, { mode: 'no-cors', cache: 'no-store' }).then(() => 'answered', (error) => error.name);
            return {
              refused: await attempt(${JSON.stringify(rig.at('evil.example', `/routed?c=${tag}`))}),
              allowed: await fetch('/routed?c=${tag}').then((response) => response.text(), (error) => error.name),
              redirected: await attempt('/redirect-me?c=${tag}'),
            };
          })()`,
        );
        expect(outcomes).toEqual({ refused: 'TypeError', allowed: 'mock', redirected: 'TypeError' });
        await rig.nextBlock((b) => b.url.includes(`/after-redirect?c=${tag}`), 'the redirect to a refused host');
        await rig.nextBlock((b) => b.url.includes(`/routed?c=${tag}`), 'the routed request to a refused host');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(rig.sawPath('evil.example', '/routed')).toBe(false);
        expect(rig.sawPath('evil.example', '/after-redirect')).toBe(false);
        // The allowed URL was answered by the route, not the server.
        expect(rig.sawPath('good.example', '/routed')).toBe(false);
      } finally {
        await rig.driver.ok('route', { tab_id: rig.tab, op: 'clear' });
      }
    });
  });
}
