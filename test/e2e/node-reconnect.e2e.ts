import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { CommandResponse, EventMessage } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, launchTestBrowser } from './harness/browser';
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

  it("sends a tab's emulation again to its new session: the browser dropped it with the old connection", async () => {
    const tab = await driver.openTab(server.url('/a.html?emulated'));
    await driver.ok('emulate', { tab_id: tab, timezone: 'Asia/Tokyo', viewport: { width: 555, height: 666 } });
    const read = (): Promise<string> =>
      driver.evaluateInTab<string>(tab, "Intl.DateTimeFormat().resolvedOptions().timeZone + ' ' + innerWidth");
    expect(await read()).toBe('Asia/Tokyo 555');
    await collect();
    events.length = 0;
    expect(proxy.cut()).toBeGreaterThan(0);
    await pollUntil(
      async () => ((await collect()).some((e) => e.event === 'BrowserReconnectedEvent') ? true : undefined),
      { timeoutMs: 15_000, onTimeout: () => new Error('no BrowserReconnectedEvent') },
    );
    expect(await read()).toBe('Asia/Tokyo 555');
    expect(await driver.ok('emulate', { tab_id: tab, reset: true })).toMatchObject({ timezone: null, viewport: null });
  });

  /** Bus history from `from` on: what the session did after a point of the test. */
  const historySince = (from: number): string[] =>
    driver.session.bus
      .history()
      .slice(from)
      .map((view) => view.type);

  const closedAnnouncements = (tabId: string): EventMessage[] =>
    events.filter(
      (e) =>
        e.event === 'TabClosedEvent' &&
        String((e.data as { target_id: string }).target_id)
          .toLowerCase()
          .endsWith(tabId.toLowerCase()),
    );

  it('announces a tab that closed during the gap once, after the reconnect, and moves focus off it', async () => {
    const direct = await BrowserClient.connect(browser.cdpUrl);
    try {
      const staying = await driver.openTab(server.url('/a.html?stays'));
      const closing = await driver.openTab(server.url('/b.html?closes-in-gap'));
      const closingTarget = driver.session.tabIds.targetFor(closing) ?? '';
      await collect();
      events.length = 0;
      // The browser is slow to answer again: the reconnect waits at the proxy while the tab closes.
      proxy.setMode('hold');
      expect(proxy.cut()).toBeGreaterThan(0);
      await pollUntil(() => (driver.session.connectionState === 'reconnecting' ? true : undefined), {
        timeoutMs: 5_000,
        onTimeout: () => new Error('the session did not notice the cut'),
      });
      // Closed by someone else while tabpilot cannot hear it (the test's own client, straight to the browser).
      await direct.root.send('Target.closeTarget', { targetId: closingTarget });
      await pollUntil(
        async () => ((await direct.targets()).some((target) => target.targetId === closingTarget) ? undefined : true),
        { timeoutMs: 10_000, onTimeout: () => new Error('the tab did not close') },
      );
      proxy.setMode('pass');
      await pollUntil(
        async () => ((await collect()).some((e) => e.event === 'BrowserReconnectedEvent') ? true : undefined),
        { timeoutMs: 20_000, onTimeout: () => new Error('no BrowserReconnectedEvent') },
      );
      await pollUntil(async () => ((await collect()) && closedAnnouncements(closing).length > 0 ? true : undefined), {
        timeoutMs: 10_000,
        onTimeout: () => new Error('the tab closed during the gap was never announced'),
      });
      const tabs = await driver.ok<{ tabs: Array<{ tab_id: string }>; focused_tab_id: string }>('tabs');
      expect(tabs.tabs.map((tab) => tab.tab_id)).not.toContain(closing);
      expect(tabs.tabs.map((tab) => tab.tab_id)).toContain(staying);
      expect(tabs.focused_tab_id).not.toBe(closing);
      expect(tabs.tabs.map((tab) => tab.tab_id)).toContain(tabs.focused_tab_id);
      expect(await driver.send('state', { tab_id: closing })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
      // One more close after it: a second announcement of the first would come before this one's.
      const barrier = await driver.openTab(server.url('/c.html?barrier'));
      await driver.ok('close', { tab_id: barrier });
      await pollUntil(async () => ((await collect()) && closedAnnouncements(barrier).length > 0 ? true : undefined), {
        timeoutMs: 10_000,
        onTimeout: () => new Error('the barrier tab was never announced closed'),
      });
      expect(closedAnnouncements(closing)).toHaveLength(1);
    } finally {
      proxy.setMode('pass');
      direct.close();
    }
  });

  it('gives up after its last attempt: commands answer DISCONNECTED, and attach connects again', async () => {
    const tab = await driver.openTab(server.url('/a.html?survives-the-give-up'));
    const historyMark = driver.session.bus.history().length;
    const refusedBefore = proxy.refused;
    // The browser does not answer: the first attempt waits at the proxy until the test refuses it.
    proxy.setMode('hold');
    expect(proxy.cut()).toBeGreaterThan(0);
    await pollUntil(() => (driver.session.connectionState === 'reconnecting' ? true : undefined), {
      timeoutMs: 5_000,
      onTimeout: () => new Error('the session did not notice the cut'),
    });
    // Sent during the gap: it waits for the reconnect, which then gives up.
    const duringGap = driver.send('state');
    await pollUntil(() => (driver.session.waitingForReconnect > 0 ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 20,
      onTimeout: () => new Error('the state never started waiting'),
    });
    proxy.setMode('refuse');
    expect(await duringGap).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    expect(JSON.stringify(await duringGap)).toMatch(/reconnecting failed/);
    // Every attempt the config allows was made (max_attempts: 5), then it stopped trying.
    expect(proxy.refused - refusedBefore).toBe(5);
    expect(driver.session.connectionState).toBe('disconnected');
    const since = historySince(historyMark);
    expect(since.filter((type) => type === 'BrowserReconnectingEvent')).toHaveLength(5);
    expect(since).not.toContain('BrowserReconnectedEvent');
    expect(
      driver.session.bus
        .history()
        .slice(historyMark)
        .some(
          (view) =>
            view.type === 'BrowserErrorEvent' &&
            (view.payload as { error_type: string }).error_type === 'ReconnectionFailed',
        ),
    ).toBe(true);
    // Later commands fail at once, with the same code.
    expect(await driver.send('navigate', { url: server.url('/b.html') })).toMatchObject({
      ok: false,
      error: { code: 'DISCONNECTED', message: expect.stringMatching(/was lost/) },
    });
    expect(proxy.refused - refusedBefore).toBe(5);
    // The browser is back: attach connects, to the same browser and its tabs.
    proxy.setMode('pass');
    await driver.ok('attach');
    expect(driver.session.connectionState).toBe('connected');
    const tabs = await driver.ok<{ tabs: Array<{ tab_id: string; url: string }> }>('tabs');
    expect(tabs.tabs).toContainEqual(
      expect.objectContaining({ tab_id: tab, url: server.url('/a.html?survives-the-give-up') }),
    );
    expect(await driver.ok('state', { tab_id: tab })).toMatchObject({
      url: server.url('/a.html?survives-the-give-up'),
    });
  });

  it('after a deliberate stop: no reconnect is tried, commands answer NOT_ATTACHED, and attach connects again', async () => {
    const tab = (await driver.ok<{ focused_tab_id: string }>('tabs')).focused_tab_id;
    const historyMark = driver.session.bus.history().length;
    const refusedBefore = proxy.refused;
    // Were a reconnect tried, it would meet a refusal (counted) rather than the browser.
    proxy.setMode('refuse');
    expect(await driver.ok('stop')).toMatchObject({ stopped: true });
    expect(driver.session.connectionState).toBe('stopped');
    expect(await driver.send('state')).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
    expect(await driver.send('navigate', { url: server.url('/b.html') })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ATTACHED' },
    });
    // Commands that name no focused tab reach the circuit breaker, which refuses them too.
    expect(await driver.send('wait', { seconds: 0 })).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
    expect(await driver.send('state', { tab_id: tab })).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
    expect(proxy.refused).toBe(refusedBefore);
    expect(historySince(historyMark)).not.toContain('BrowserReconnectingEvent');
    proxy.setMode('pass');
    await driver.ok('attach');
    expect(await driver.ok('state')).toMatchObject({ state_error: null });
  });
});
