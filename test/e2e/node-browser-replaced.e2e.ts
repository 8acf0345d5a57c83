import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { EventMessage } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, launchTestBrowser } from './harness/browser';
import { NodeDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { TcpProxy } from './harness/tcp-proxy';

/**
 * The address tabpilot was given (http://host:port, resolved through /json/version on every connect) now
 * leads to another browser: the one it drove went away and another took its place (a restart on the same
 * port, a load balancer, a pool behind a proxy). The reconnect notices it is not the browser it lost and
 * says so, instead of carrying on in a blank tab as if nothing happened (browser-use does).
 */
describe('Node reconnect that lands in another browser', () => {
  const server = new FixtureServer();
  let first: LaunchedBrowser;
  let second: LaunchedBrowser | undefined;
  let proxy: TcpProxy;
  let driver: NodeDriver;
  const events: EventMessage[] = [];

  beforeAll(async () => {
    await server.start();
    first = await launchTestBrowser();
    proxy = new TcpProxy(Number(new URL(first.cdpUrl).port));
    const proxyPort = await proxy.start();
    driver = await NodeDriver.start({
      cdpUrl: `http://127.0.0.1:${proxyPort}`,
      config: { reconnect: { max_attempts: 5, backoff_ms: [200, 400], attempt_timeout_ms: 10_000, wait_ms: 20_000 } },
    });
    await driver.ok('subscribe', { events: ['*'] });
  });

  afterAll(async () => {
    await driver?.close();
    await proxy?.stop();
    await first?.kill();
    await second?.kill();
    await server.stop();
  });

  it('announces BrowserReplacedEvent, answers old tabs TAB_NOT_FOUND and says so in the next state', async () => {
    const before = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/a.html') });
    const other = await driver.openTab(server.url('/b.html'));

    second = await launchTestBrowser();
    proxy.retarget(Number(new URL(second.cdpUrl).port));
    expect(proxy.cut()).toBeGreaterThan(0);

    const replaced = await pollUntil(
      async () => {
        events.push(...(await driver.takeEvents()));
        return events.find((event) => event.event === 'BrowserReplacedEvent');
      },
      { timeoutMs: 20_000, onTimeout: () => new Error('no BrowserReplacedEvent') },
    );
    const data = replaced.data as { lost_target_ids: string[]; previous_browser_id: string; browser_id: string };
    expect(data.previous_browser_id).not.toBe(data.browser_id);
    expect(data.lost_target_ids.map((targetId) => driver.session.tabIdOf(targetId)).sort()).toEqual(
      [before.tab_id, other].sort(),
    );
    expect(events.some((event) => event.event === 'BrowserReconnectingEvent')).toBe(true);
    expect(events.some((event) => event.event === 'BrowserReconnectedEvent')).toBe(false);
    expect(driver.session.connectionState).toBe('connected');

    for (const tab of [before.tab_id, other]) {
      expect(await driver.send('switch', { tab_id: tab })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
    }
    const tabs = await driver.ok<{ tabs: Array<{ tab_id: string }> }>('tabs');
    expect(tabs.tabs.map((tab) => tab.tab_id)).not.toContain(before.tab_id);
    const state = await driver.ok<{ browser_errors: string[] }>('state');
    expect(state.browser_errors.join('\n')).toMatch(/The browser was replaced.*TAB_NOT_FOUND/);
    // Work goes on in the new browser, which is the one tabpilot now drives.
    await driver.ok('navigate', { url: server.url('/c.html') });
    const look = await BrowserClient.connect(second.cdpUrl);
    try {
      expect((await look.pageTargets()).map((page) => page.url)).toContain(server.url('/c.html'));
    } finally {
      look.close();
    }
  });
});
