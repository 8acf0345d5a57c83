import { describe, expect, it } from 'vitest';
import { FakeBrowser, type FakeTransport } from '../../test/fakes/fake-browser';
import { pollUntil } from '../shared/time';
import { defaultBrowserConfig } from './config';
import { BrowserSession } from './session';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { defineWatchdog, attachWatchdog } from './define-watchdog';
import {
  BrowserReconnectedEvent,
  BrowserReconnectingEvent,
  BrowserConnectedEvent,
} from '../protocol/events/lifecycle.events';
import {
  GoBackEvent,
  NavigateToUrlEvent,
  NavigationCompleteEvent,
  NavigationStartedEvent,
  WaitEvent,
} from '../protocol/events/navigation.events';
import {
  AgentFocusChangedEvent,
  CloseTabEvent,
  SwitchTabEvent,
  TabClosedEvent,
  TabCreatedEvent,
} from '../protocol/events/tabs.events';
import { aboutBlankWatchdog } from './watchdogs/about-blank.watchdog';
import { navigationWatchdog } from './watchdogs/navigation.watchdog';
import { tabsWatchdog } from './watchdogs/tabs.watchdog';

const tick = (ms = 10): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The tab an action names: the focused one, as the registry resolves a missing tab_id. */
function focusOf(session: BrowserSession): string {
  return session.targets.focusedTargetId ?? '';
}

describe('BrowserSession', () => {
  it('connects, announces the connection and focuses a page', async () => {
    const { session } = await startedFakeSession();
    expect(session.connectionState).toBe('connected');
    expect(await session.bus.find(BrowserConnectedEvent)).toBeDefined();
    expect(session.targets.focusedTargetId).toBeDefined();
  });

  it('navigates with NavigationStarted before and NavigationComplete after', async () => {
    const { session } = await startedFakeSession();
    const outcome = await session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/' });
    expect(outcome).toMatchObject({ url: 'http://a.test/', loading_status: null });
    const types = session.bus.history().map((view) => view.type);
    const started = types.indexOf('NavigationStartedEvent');
    const complete = types.indexOf('NavigationCompleteEvent');
    expect(started).toBeGreaterThan(types.indexOf('NavigateToUrlEvent'));
    expect(complete).toBeGreaterThan(started);
  });

  it('stops a navigation before it is sent when a NavigationStartedEvent handler refuses it', async () => {
    const { session, browser } = await startedFakeSession();
    session.bus.on(
      NavigationStartedEvent,
      (event) => {
        if (event.payload.url.includes('blocked')) {
          throw new Error('blocked by policy');
        }
      },
      { name: 'policy' },
    );
    await expect(
      session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://blocked.test/' }),
    ).rejects.toThrow('blocked by policy');
    expect(browser.sent.some((m) => m.method === 'Page.navigate' && JSON.stringify(m.params).includes('blocked'))).toBe(
      false,
    );
  });

  it('fails a net:: error with NAVIGATION_FAILED and records it on NavigationCompleteEvent', async () => {
    const { session } = await startedFakeSession();
    await expect(
      session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://fail.test/x' }),
    ).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
    });
    const complete = await session.bus.find(NavigationCompleteEvent);
    expect(complete?.payload.error_message).toContain('ERR_NAME_NOT_RESOLVED');
  });

  it('opens a new tab, announces it and moves focus there', async () => {
    const { session } = await startedFakeSession();
    await session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/' });
    const first = session.targets.focusedTargetId;
    const outcome = await session.bus.emit(NavigateToUrlEvent, {
      target_id: focusOf(session),
      url: 'http://b.test/',
      new_tab: true,
    });
    expect(outcome?.target_id).not.toBe(first);
    expect(session.targets.focusedTargetId).toBe(outcome?.target_id);
    await session.bus.waitUntilIdle();
    expect(
      await session.bus.find(TabCreatedEvent, { where: (e) => e.payload.target_id === outcome?.target_id }),
    ).toBeDefined();
    expect(
      await session.bus.find(AgentFocusChangedEvent, { where: (e) => e.payload.target_id === outcome?.target_id }),
    ).toBeDefined();
  });

  it('announces tabs the page opens itself (window.open), with the opener', async () => {
    const { session, browser } = await startedFakeSession();
    const opener = session.targets.focusedTargetId ?? '';
    const popup = browser.addPage('http://a.test/popup', opener);
    const created = await session.bus.find(TabCreatedEvent, {
      past: true,
      future: 2000,
      where: (e) => e.payload.target_id === popup.targetId,
    });
    expect(created?.payload.opener_target_id).toBe(opener);
  });

  it('goes back through the history and refuses to go back past the first entry', async () => {
    const { session } = await startedFakeSession();
    await session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/1' });
    await session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/2' });
    expect((await session.bus.emit(GoBackEvent, { target_id: focusOf(session) }))?.url).toBe('http://a.test/1');
    await session.bus.emit(GoBackEvent, { target_id: focusOf(session) });
    await expect(session.bus.emit(GoBackEvent, { target_id: focusOf(session) })).rejects.toMatchObject({
      code: 'NAVIGATION_FAILED',
    });
  });

  it('switches focus and closes a tab, recovering focus once (no duplicate TabClosedEvent)', async () => {
    const { session, browser } = await startedFakeSession();
    const a = session.targets.focusedTargetId ?? '';
    const b = browser.addPage('http://b.test/');
    await session.targets.waitForPage(b.targetId);
    expect(await session.bus.emit(SwitchTabEvent, { target_id: b.targetId })).toMatchObject({ target_id: b.targetId });
    await session.bus.emit(CloseTabEvent, { target_id: b.targetId });
    expect(session.targets.focusedTargetId).toBe(a);
    await session.bus.waitUntilIdle();
    const closed = session.bus.history().filter((view) => view.type === 'TabClosedEvent');
    expect(closed).toHaveLength(1);
    await expect(session.bus.emit(CloseTabEvent, { target_id: b.targetId })).rejects.toMatchObject({
      code: 'TAB_NOT_FOUND',
    });
  });

  it('resolves the tab_id of a tab that closed to TAB_NOT_FOUND, not to its old target', async () => {
    const { session, browser } = await startedFakeSession();
    const b = browser.addPage('http://b.test/');
    await session.targets.waitForPage(b.targetId);
    const tabId = session.tabIdOf(b.targetId);
    expect(await session.resolveTab(tabId)).toBe(b.targetId);
    await session.bus.emit(CloseTabEvent, { target_id: b.targetId });
    await expect(session.resolveTab(tabId)).rejects.toMatchObject({
      code: 'TAB_NOT_FOUND',
      message: expect.stringMatching(/not controlled: it closed or was released/),
    });
    await expect(session.resolveTab('zzzz')).rejects.toMatchObject({ code: 'TAB_NOT_FOUND' });
  });

  it('keeps a tab open with the about-blank watchdog when the last one closes', async () => {
    const { session } = await startedFakeSession({ watchdogs: [aboutBlankWatchdog, navigationWatchdog, tabsWatchdog] });
    const only = session.targets.focusedTargetId ?? '';
    await session.bus.emit(CloseTabEvent, { target_id: only });
    await session.bus.waitUntilIdle();
    expect(session.targets.pages()).toHaveLength(1);
    expect(session.targets.focusedTargetId).not.toBe(only);
  });

  it('reconnects after a dropped socket, announcing it, and serves events again', async () => {
    const { session, browser } = await startedFakeSession({
      config: { reconnect: { max_attempts: 3, backoff_ms: [10], attempt_timeout_ms: 1000, wait_ms: 5000 } },
    });
    const focus = session.targets.focusedTargetId;
    browser.drop();
    await tick();
    // An event emitted during the gap waits for the reconnect instead of failing or hanging.
    const during = session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/after' });
    expect((await during)?.url).toBe('http://a.test/after');
    expect(session.connectionState).toBe('connected');
    expect(session.targets.focusedTargetId).toBe(focus);
    expect(await session.bus.find(BrowserReconnectingEvent)).toBeDefined();
    expect((await session.bus.find(BrowserReconnectedEvent))?.payload.attempt).toBe(1);
  });

  it('stays stopped when the stop comes while a reconnect attempt is connecting', async () => {
    const browser = new FakeBrowser();
    let first = true;
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let reopened: FakeTransport | undefined;
    const session = new BrowserSession({
      config: {
        ...defaultBrowserConfig(),
        reconnect: { max_attempts: 3, backoff_ms: [1], attempt_timeout_ms: 5000, wait_ms: 2000 },
      },
      endpoint: 'ws://fake/devtools/browser',
      openTransport: async () => {
        if (first) {
          first = false;
          return browser.transport;
        }
        await gate;
        reopened = browser.reopen();
        return reopened;
      },
      host: { tabControl: undefined },
      watchdogs: [navigationWatchdog, tabsWatchdog],
    });
    await session.start();
    browser.drop();
    await tick();
    expect(session.connectionState).toBe('reconnecting');
    await session.stop();
    // The attempt that was under way connects only now.
    openGate();
    const outcome = await pollUntil(
      () =>
        session.bus
          .history()
          .find((view) => view.type === 'BrowserReconnectedEvent' || view.type === 'BrowserErrorEvent'),
      { timeoutMs: 5000, intervalMs: 5, onTimeout: () => new Error('the reconnect attempt never finished') },
    );
    expect(outcome.type).toBe('BrowserErrorEvent');
    expect(session.connectionState).toBe('stopped');
    expect(reopened?.closed).toBe(true);
    expect(session.targets.pages()).toEqual([]);
    await expect(session.bus.emit(WaitEvent, { seconds: 0 })).rejects.toMatchObject({ code: 'NOT_ATTACHED' });
  });

  it('fails events with DISCONNECTED when reconnecting gives up, and NOT_ATTACHED after stop', async () => {
    const browser = new FakeBrowser();
    const { session } = await startedFakeSession({
      browser,
      config: { reconnect: { max_attempts: 1, backoff_ms: [1], attempt_timeout_ms: 50, wait_ms: 2000 } },
    });
    browser.silent.add('Target.setDiscoverTargets');
    browser.drop();
    await tick();
    await expect(
      session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/' }),
    ).rejects.toMatchObject({
      code: 'DISCONNECTED',
    });
    await session.stop();
    await expect(session.bus.emit(WaitEvent, { seconds: 0 })).rejects.toMatchObject({ code: 'NOT_ATTACHED' });
  });
});

describe('watchdog contract', () => {
  const Probe = defineWatchdog({
    name: 'probe',
    listensTo: [TabClosedEvent],
    emits: [],
    setup: () => ({ TabClosedEvent: () => undefined }),
  });

  it('refuses a handler for an event the watchdog does not listen to', async () => {
    const Stray = defineWatchdog({
      name: 'stray',
      listensTo: [TabClosedEvent],
      emits: [],
      setup: () => ({ TabClosedEvent: () => undefined, TabCreatedEvent: () => undefined }),
    });
    const { session } = await startedFakeSession();
    expect(() => attachWatchdog(session.bus, session, Stray, session.log)).toThrow(
      /TabCreatedEvent, which it does not listen to/,
    );
  });

  it('refuses to attach the same watchdog twice', async () => {
    const { session } = await startedFakeSession({ watchdogs: [Probe] });
    expect(() => attachWatchdog(session.bus, session, Probe, session.log)).toThrow(/attached twice/);
  });

  it('names handlers after the watchdog and the event, and aborts the signal on detach', async () => {
    let signal: AbortSignal | undefined;
    const Watcher = defineWatchdog({
      name: 'watcher',
      listensTo: [TabClosedEvent],
      emits: [],
      setup: (ctx) => {
        signal = ctx.signal;
        return { TabClosedEvent: () => undefined };
      },
    });
    const { session } = await startedFakeSession();
    const detach = attachWatchdog(session.bus, session, Watcher, session.log);
    expect(session.bus.handlerNames(TabClosedEvent)).toContain('watcher.on_TabClosedEvent');
    detach();
    expect(signal?.aborted).toBe(true);
    expect(session.bus.handlerNames(TabClosedEvent)).not.toContain('watcher.on_TabClosedEvent');
  });
});
