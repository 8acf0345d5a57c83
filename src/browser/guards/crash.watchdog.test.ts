import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../shared/time';
import { isTabpilotError } from '../../shared/errors';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { ScrollEvent } from '../../protocol/events/actions.events';
import { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { RefreshEvent } from '../../protocol/events/navigation.events';
import { defaultBrowserConfig } from '../config';
import { crashWatchdog } from './crash.watchdog';
import { navigationWatchdog } from '../watchdogs/navigation.watchdog';

const until = <T>(check: () => T | undefined): Promise<T> =>
  pollUntil(check, { timeoutMs: 5000, intervalMs: 10, onTimeout: () => new Error('condition never held') });

async function crashSetup(crash: Partial<ReturnType<typeof defaultBrowserConfig>['crash']> = {}) {
  const browser = new FakeBrowser();
  const page = browser.addPage('https://example.test/');
  const { session } = await startedFakeSession({
    browser,
    watchdogs: [crashWatchdog, navigationWatchdog],
    config: { crash: { ...defaultBrowserConfig().crash, ...crash } },
  });
  const errors: string[] = [];
  session.bus.observe(({ phase, record }) => {
    if (phase === 'emitted' && record.event.type === BrowserErrorEvent.type) {
      errors.push((record.event.payload as { error_type: string }).error_type);
    }
  });
  // Stand-ins for the action watchdog: the gate sits in front of whatever handles these.
  session.bus.on(ScrollEvent, () => ({ scrolled_x: 0, scrolled_y: 0 }) as never, { name: 'test.on_ScrollEvent' });
  return { browser, page, session, errors };
}

describe('crash watchdog', () => {
  it('fails a pending command and every later one with TAB_CRASHED, reports once, and clears on reload', async () => {
    const { browser, page, session, errors } = await crashSetup({ health_check_interval_ms: 0 });
    const cdp = session.targets.requireSession(page.targetId);
    browser.silent.add('Runtime.evaluate');
    const hanging = cdp.send('Runtime.evaluate', { expression: '1' });
    browser.emitOn(page, 'Inspector.targetCrashed', {});
    browser.emitOn(undefined, 'Target.targetCrashed', { targetId: page.targetId, status: 'crashed', errorCode: 1 });
    await expect(hanging).rejects.toMatchObject({ code: 'TAB_CRASHED' });
    await expect(cdp.send('DOM.getDocument', {})).rejects.toMatchObject({ code: 'TAB_CRASHED' });
    expect(session.conditions.status(page.targetId).status).toBe('crashed');
    await expect(session.bus.emit(ScrollEvent, { target_id: page.targetId, direction: 'down' })).rejects.toMatchObject({
      code: 'TAB_CRASHED',
    });
    await until(() => (errors.includes('TargetCrash') ? true : undefined));
    await session.bus.waitUntilIdle();
    expect(errors.filter((type) => type === 'TargetCrash')).toHaveLength(1);
    // The reload is let through (the browser answers it); the page is back when Chromium says so.
    expect(browser.sentMethods()).not.toContain('DOM.getDocument');
    browser.emitOn(page, 'Inspector.targetReloadedAfterCrash', {});
    await until(() => (session.conditions.status(page.targetId).status === 'ok' ? true : undefined));
    browser.silent.delete('Runtime.evaluate');
    await expect(cdp.send('Runtime.evaluate', { expression: '1' })).resolves.toBeDefined();
  });

  it('finds a stuck page with the bounded health check, fails what waits on it, and clears when it answers', async () => {
    const { browser, page, session, errors } = await crashSetup({
      health_check_interval_ms: 100,
      unresponsive_after_ms: 100,
    });
    browser.silent.add('Runtime.evaluate');
    const cdp = session.targets.requireSession(page.targetId);
    const waiting = cdp.send('Runtime.evaluate', { expression: 'document.title' }).catch((error: unknown) => error);
    await until(() => (session.conditions.status(page.targetId).status === 'unresponsive' ? true : undefined));
    const failure = await waiting;
    expect(isTabpilotError(failure) && failure.code).toBe('TIMEOUT');
    expect(String((failure as Error).message)).toContain('stuck');
    await until(() => (errors.includes('TargetUnresponsive') ? true : undefined));
    await expect(session.bus.emit(ScrollEvent, { target_id: page.targetId, direction: 'down' })).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: { condition: 'unresponsive' },
    });
    browser.silent.delete('Runtime.evaluate');
    await until(() => (session.conditions.status(page.targetId).status === 'ok' ? true : undefined));
  });

  it('ends a stuck renderer before a refresh (Page.crash), since a reload alone keeps the endless script', async () => {
    const { browser, page, session } = await crashSetup({ health_check_interval_ms: 100, unresponsive_after_ms: 100 });
    browser.silent.add('Runtime.evaluate');
    await until(() => (session.conditions.status(page.targetId).status === 'unresponsive' ? true : undefined));
    browser.responders.set('Page.crash', () => {
      queueMicrotask(() => browser.emitOn(page, 'Inspector.targetCrashed', {}));
      return {};
    });
    const refreshed = session.bus.emit(RefreshEvent, { target_id: page.targetId }).done();
    await until(() => (browser.sentMethods().includes('Page.crash') ? true : undefined));
    await until(() => (browser.sentMethods().includes('Page.reload') ? true : undefined));
    expect(browser.sentMethods().indexOf('Page.crash')).toBeLessThan(browser.sentMethods().lastIndexOf('Page.reload'));
    browser.silent.delete('Runtime.evaluate');
    browser.emitOn(page, 'Inspector.targetReloadedAfterCrash', {});
    await refreshed;
  });

  it('reports a request open past the bound once, notes it for the state, and forgets it when it ends', async () => {
    const { browser, page, session, errors } = await crashSetup({
      health_check_interval_ms: 0,
      network_timeout_ms: 50,
    });
    expect(browser.sentMethods()).toContain('Network.enable');
    const request = { requestId: 'r1', type: 'Fetch', request: { url: 'https://example.test/slow', method: 'GET' } };
    browser.emitOn(page, 'Network.requestWillBeSent', request);
    await until(() => (errors.includes('NetworkTimeout') ? true : undefined));
    expect(session.conditions.notesOf(page.targetId).join()).toContain('GET https://example.test/slow');
    browser.emitOn(page, 'Network.requestWillBeSent', { ...request, requestId: 'favicon', type: 'Other' });
    browser.emitOn(page, 'Network.loadingFinished', { requestId: 'r1' });
    await until(() => (session.conditions.notesOf(page.targetId).length === 0 ? true : undefined));
    expect(errors.filter((type) => type === 'NetworkTimeout')).toHaveLength(1);
  });

  it('is attached per config: switched off, nothing is watched and no Network domain is enabled', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://example.test/');
    const { session } = await startedFakeSession({
      browser,
      watchdogs: [crashWatchdog, navigationWatchdog],
      config: { crash: { ...defaultBrowserConfig().crash, enabled: false } },
    });
    browser.emitOn(page, 'Inspector.targetCrashed', {});
    expect(session.conditions.status(page.targetId).status).toBe('ok');
    expect(browser.sentMethods()).not.toContain('Network.enable');
  });
});
