import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { CommandResponse, EventMessage } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { launchTestBrowser } from './harness/browser';
import { NodeDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { TcpProxy } from './harness/tcp-proxy';

/**
 * The Node WebSocket drops (cut by the test between tabpilot and the browser, which stays up): the session
 * reconnects with backoff, restores targets and focus, re-installs every subscription, announces the
 * reconnect, and every command gets an answer.
 */
describe('Node reconnect after a dropped WebSocket', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;
  let proxy: TcpProxy;
  let driver: NodeDriver;
  const events: EventMessage[] = [];

  async function collect(): Promise<EventMessage[]> {
    events.push(...(await driver.takeEvents()));
    return events;
  }

  beforeAll(async () => {
    await server.start();
    browser = await launchTestBrowser();
    const browserUrl = new URL(browser.cdpUrl);
    proxy = new TcpProxy(Number(browserUrl.port));
    const proxyPort = await proxy.start();
    driver = await NodeDriver.start({
      cdpUrl: `ws://127.0.0.1:${proxyPort}${browserUrl.pathname}`,
      config: { reconnect: { max_attempts: 5, backoff_ms: [200, 400], attempt_timeout_ms: 10_000, wait_ms: 20_000 } },
    });
    await driver.ok('subscribe', { events: ['*'] });
  });

  afterAll(async () => {
    await driver?.close();
    await proxy?.stop();
    await browser?.kill();
    await server.stop();
  });

  it('reconnects, restores focus and child sessions, and loses no command or event', async () => {
    const tab = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/frames.html') });
    await pollUntil(async () => ((await driver.evaluateInChildren(tab.tab_id, '1')).length > 0 ? true : undefined), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('no child session before the cut'),
    });
    // The focused tab is `other`; the frames tab sits in the background with its OOPIF session.
    const other = await driver.openTab(server.url('/a.html'));

    // A command in flight across the drop: its page finishes loading while the socket is down.
    const inFlight = driver.send('navigate', { url: server.url('/slow-load.html?ms=1500') });
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.cut()).toBeGreaterThan(0);
    // A command sent during the gap waits for the reconnect instead of failing or hanging.
    const duringGap = driver.send('tabs');

    const answers: CommandResponse[] = await Promise.all([inFlight, duringGap]);
    for (const answer of answers) {
      expect(answer.ok || ['DISCONNECTED', 'TIMEOUT', 'NAVIGATION_FAILED'].includes(answer.error.code)).toBe(true);
    }
    expect(answers[1]).toMatchObject({ ok: true });
    const tabs = (answers[1] as { result: { tabs: Array<{ tab_id: string }>; focused_tab_id: string } }).result;
    expect(tabs.tabs.map((t) => t.tab_id).sort()).toEqual([other, tab.tab_id].sort());
    expect(tabs.focused_tab_id).toBe(other);
    // The background tab's cross-origin iframe has a (new) child session that answers.
    const children = await pollUntil(
      async () => {
        const found = await driver.evaluateInChildren(tab.tab_id, "document.getElementById('marker')?.textContent");
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 10_000, onTimeout: () => new Error('the OOPIF child session was not restored') },
    );
    expect(children[0]?.value).toBe('child marker 42');

    await pollUntil(
      async () => ((await collect()).some((e) => e.event === 'BrowserReconnectedEvent') ? true : undefined),
      {
        timeoutMs: 15_000,
        onTimeout: () => new Error('no BrowserReconnectedEvent'),
      },
    );
    expect(events.some((e) => e.event === 'BrowserReconnectingEvent')).toBe(true);
    expect(driver.session.connectionState).toBe('connected');
  });

  it('re-installs every subscription: lifecycle waits, new-tab announcements and child sessions work again', async () => {
    await collect();
    events.length = 0;
    // Lifecycle events: a load wait sees the new document's load, not a timeout.
    const loaded = await driver.ok<{ loading_status: string | null }>('navigate', {
      url: server.url('/slow-load.html?ms=300'),
    });
    expect(loaded.loading_status).toBeNull();
    // Target events: a window.open after the reconnect is announced.
    const opener = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/opener.html') });
    await pollUntil(
      async () =>
        (await collect()).some(
          (e) =>
            e.event === 'TabCreatedEvent' &&
            String((e.data as { opener_target_id: string }).opener_target_id).endsWith(opener.tab_id),
        )
          ? true
          : undefined,
      { timeoutMs: 10_000, onTimeout: () => new Error('the popup after the reconnect was not announced') },
    );
    // Auto-attach inside pages: a cross-origin iframe gets its child session again.
    await driver.ok('switch', { tab_id: opener.tab_id });
    const frames = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/frames.html') });
    const children = await pollUntil(
      async () => {
        const found = await driver.evaluateInChildren(frames.tab_id, "document.getElementById('marker')?.textContent");
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 10_000, onTimeout: () => new Error('no child session after the reconnect') },
    );
    expect(children[0]?.value).toBe('child marker 42');
    // Every command's events reached the subscriber: one NavigateToUrlEvent per navigate sent.
    await collect();
    expect(events.filter((e) => e.event === 'NavigateToUrlEvent')).toHaveLength(3);
  });

  it('keeps the whole story in the bus history, before and after the gap', () => {
    const types = driver.session.bus.history().map((view) => view.type);
    const reconnected = types.indexOf('BrowserReconnectedEvent');
    expect(reconnected).toBeGreaterThan(0);
    expect(types.slice(0, reconnected)).toContain('NavigateToUrlEvent');
    expect(types.slice(reconnected)).toContain('NavigateToUrlEvent');
  });
});
