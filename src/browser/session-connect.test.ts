import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../test/fakes/fake-browser';
import { EndpointBusyError } from '../cdp/endpoint-errors';
import type { CdpTransport } from '../cdp/transport';
import { defaultBrowserConfig, parseBrowserConfig, type BrowserConfigInput } from './config';
import { BrowserReplacedEvent } from '../protocol/events/connection.events';
import { BrowserErrorEvent, BrowserReconnectedEvent, BrowserStartEvent } from '../protocol/events/lifecycle.events';
import { NavigateToUrlEvent } from '../protocol/events/navigation.events';
import { BrowserStateRequestEvent } from '../protocol/events/state.events';
import { SwitchTabEvent, TabClosedEvent } from '../protocol/events/tabs.events';
import { BrowserSession } from './session';
import { domWatchdog } from './state/dom.watchdog';
import { navigationWatchdog } from './watchdogs/navigation.watchdog';
import { tabsWatchdog } from './watchdogs/tabs.watchdog';

const tick = (ms = 10): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A fake browser that says who it is, as a real browser endpoint does (its default context's id). */
function namedBrowser(browserId: string, capabilities: { reconnect?: boolean } = {}): FakeBrowser {
  const browser = new FakeBrowser(capabilities);
  browser.addPage('about:blank');
  browser.responders.set('Target.getBrowserContexts', () => ({
    browserContextIds: [],
    defaultBrowserContextId: browserId,
  }));
  return browser;
}

/** A session whose endpoint hands out the given transports, one per connect, in order. */
function sessionOver(
  transports: Array<() => CdpTransport | Promise<CdpTransport>>,
  config: BrowserConfigInput = {},
): { session: BrowserSession; opens: () => number } {
  let opened = 0;
  const session = new BrowserSession({
    config: parseBrowserConfig({
      connect: { timeout_ms: 5000, backoff_ms: [1] },
      reconnect: { max_attempts: 3, backoff_ms: [5], attempt_timeout_ms: 2000, wait_ms: 5000 },
      ...config,
    }),
    endpoint: 'ws://pool.test/?token=s3cret',
    openTransport: async () => {
      const next = transports[Math.min(opened, transports.length - 1)];
      opened++;
      if (next === undefined) {
        throw new Error('no transport scripted');
      }
      return next();
    },
    host: { tabControl: undefined },
    watchdogs: [navigationWatchdog, tabsWatchdog, domWatchdog],
  });
  return { session, opens: () => opened };
}

describe('BrowserSession: which browser is on the other end', () => {
  it('announces a reconnect that lands in another browser as BrowserReplacedEvent, not as a reconnect', async () => {
    const first = namedBrowser('browser-A');
    const second = namedBrowser('browser-B');
    const { session } = sessionOver([() => first.transport, () => second.transport]);
    await session.start();
    const oldTab = session.targets.focusedTargetId ?? '';
    const oldTabId = session.tabIdOf(oldTab);

    first.drop('socket closed (1006)');
    await tick();
    // A command sent during the gap is answered, in the new browser.
    await session.bus.emit(NavigateToUrlEvent, {
      target_id: await session.resolveTab(undefined),
      url: 'http://a.test/',
    });
    await session.bus.waitUntilIdle();

    const replaced = await session.bus.find(BrowserReplacedEvent);
    expect(replaced?.payload).toMatchObject({
      previous_browser_id: 'browser-A',
      browser_id: 'browser-B',
      lost_target_ids: [oldTab],
      reason: 'socket closed (1006)',
      cdp_url: 'ws://pool.test/?token=***',
    });
    expect(await session.bus.find(BrowserReconnectedEvent)).toBeUndefined();
    expect(await session.bus.find(TabClosedEvent, { where: (e) => e.payload.target_id === oldTab })).toBeDefined();
    expect(session.targets.focusedTargetId).not.toBe(oldTab);

    // The old tab is gone: naming it answers TAB_NOT_FOUND.
    await expect(session.bus.emit(SwitchTabEvent, { target_id: oldTab, activate: false })).rejects.toMatchObject({
      code: 'TAB_NOT_FOUND',
    });
    // The next state says so, once.
    const state = await session.bus.emit(BrowserStateRequestEvent, {
      target_id: await session.resolveTab(undefined),
      include_dom: false,
    });
    expect(state?.browser_errors.join('\n')).toMatch(/The browser was replaced/);
    expect(state?.browser_errors.join('\n')).toContain(oldTabId);
    const later = await session.bus.emit(BrowserStateRequestEvent, {
      target_id: await session.resolveTab(undefined),
      include_dom: false,
    });
    expect(later?.browser_errors.join('\n')).not.toMatch(/replaced/);
  });

  it('reconnects as before when the same browser answers', async () => {
    const browser = namedBrowser('browser-A');
    const { session } = sessionOver([() => browser.transport, () => browser.reopen()]);
    await session.start();
    const focus = session.targets.focusedTargetId;
    browser.drop();
    await tick();
    await session.bus.emit(NavigateToUrlEvent, {
      target_id: await session.resolveTab(undefined),
      url: 'http://a.test/',
    });
    expect(await session.bus.find(BrowserReconnectedEvent)).toBeDefined();
    expect(await session.bus.find(BrowserReplacedEvent)).toBeUndefined();
    expect(session.targets.focusedTargetId).toBe(focus);
  });

  it('does not pretend to reconnect to an endpoint that gives a browser per connection; attach gets a new one', async () => {
    const first = namedBrowser('browser-A', { reconnect: false });
    const second = namedBrowser('browser-B', { reconnect: false });
    const { session, opens } = sessionOver([() => first.transport, () => second.transport]);
    await session.start();
    const oldTab = session.targets.focusedTargetId ?? '';

    first.drop('socket closed (1006)');
    await tick();
    expect(session.connectionState).toBe('disconnected');
    expect(opens()).toBe(1);
    const lost = await session.bus.find(BrowserErrorEvent, { where: (e) => e.payload.error_type === 'ConnectionLost' });
    expect(lost?.payload.message).toMatch(/new browser per connection/);
    const refused = await session.bus
      .emit(NavigateToUrlEvent, { target_id: await session.resolveTab(undefined), url: 'http://a.test/' })
      .result()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'DISCONNECTED' });
    expect((refused as Error).message).toMatch(/socket closed \(1006\).*send attach to get a new browser/);

    // attach (a start): a new browser, announced as such.
    await session.start();
    expect(opens()).toBe(2);
    const replaced = await session.bus.find(BrowserReplacedEvent);
    expect(replaced?.payload).toMatchObject({ previous_browser_id: 'browser-A', browser_id: 'browser-B' });
    expect(replaced?.payload.lost_target_ids).toEqual([oldTab]);
  });

  it('does not call a browser replaced after a deliberate stop', async () => {
    const first = namedBrowser('browser-A');
    const second = namedBrowser('browser-B');
    const { session } = sessionOver([() => first.transport, () => second.transport]);
    await session.start();
    await session.stop();
    await session.start();
    expect(await session.bus.find(BrowserReplacedEvent)).toBeUndefined();
  });

  it("refuses one page's endpoint at once, saying to give the browser's", async () => {
    const page = new FakeBrowser();
    page.responders.set('Target.getTargetInfo', () => ({
      targetInfo: {
        targetId: 'PAGE1',
        type: 'page',
        title: '',
        url: 'about:blank',
        attached: true,
        canAccessOpener: false,
      },
    }));
    const { session, opens } = sessionOver([() => page.transport]);
    const error = await session.start().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
    expect((error as Error).message).toMatch(/endpoint of one page, not of a browser.*browser's endpoint/);
    expect(opens()).toBe(1);
    expect(page.transport.closed).toBe(true);
  });

  it('retries a full pool within the connect budget, then connects', async () => {
    const browser = namedBrowser('browser-A');
    const busy = (): never => {
      throw new EndpointBusyError('ws://pool.test/?token=***', 429, 'Too many requests', undefined);
    };
    const { session, opens } = sessionOver([busy, busy, () => browser.transport]);
    await session.start();
    expect(opens()).toBe(3);
    expect(session.connectionState).toBe('connected');
  });

  it('says the pool is full when it stays full for the whole budget', async () => {
    const busy = (): never => {
      throw new EndpointBusyError('ws://pool.test/?token=***', 429, 'Too many requests', undefined);
    };
    const { session } = sessionOver([busy], { connect: { timeout_ms: 1000, backoff_ms: [50] } });
    const error = await session.start().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DISCONNECTED', details: { reason: 'pool_full' } });
    expect((error as Error).message).toContain('is full');
    expect((error as Error).message).not.toContain('s3cret');
    expect(session.connectionState).toBe('disconnected');
  });

  it('gives BrowserStartEvent room for the whole connect budget', async () => {
    const { session } = sessionOver([], { connect: { timeout_ms: 120_000, backoff_ms: [1] } });
    expect(session.bus.timeoutFor(BrowserStartEvent)).toBeGreaterThan(120_000);
    await session.applyConfig(parseBrowserConfig({ timeouts: { BrowserStartEvent: 7000 } }));
    expect(session.bus.timeoutFor(BrowserStartEvent)).toBe(7000);
  });

  it('asks a transport that cannot say who it is nothing (chrome.debugger keeps adopting tabs as before)', async () => {
    const extension = new FakeBrowser({ browserDomain: false, reconnect: false, ownsBrowser: false });
    extension.addPage('http://a.test/');
    const session = new BrowserSession({
      config: defaultBrowserConfig(),
      openTransport: async () => extension.transport,
      endpoint: 'chrome.debugger',
      host: { tabControl: undefined },
    });
    await session.start();
    expect(extension.sentMethods()).not.toContain('Target.getTargetInfo');
    expect(extension.sentMethods()).not.toContain('Target.getBrowserContexts');
    expect(session.connectionState).toBe('connected');
  });
});
