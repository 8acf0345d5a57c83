import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { pollUntil } from '../../shared/time';
import { parseBrowserConfig, type BrowserConfig } from '../config';
import { BrowserReconnectedEvent } from '../../protocol/events/lifecycle.events';
import { NavigateToUrlEvent } from '../../protocol/events/navigation.events';
import { NavigationBlockedEvent } from '../../protocol/events/security.events';
import type { BrowserSession } from '../session';
import { navigationWatchdog } from '../watchdogs/navigation.watchdog';
import { securityWatchdog } from './security.watchdog';
import { tabsWatchdog } from '../watchdogs/tabs.watchdog';

const PROHIBIT = { prohibited_domains: ['evil.test', '*.tracker.test'] } satisfies Partial<BrowserConfig>;

async function started(config: Partial<BrowserConfig> = {}, browser = new FakeBrowser()) {
  const { session } = await startedFakeSession({
    browser,
    config,
    watchdogs: [securityWatchdog, navigationWatchdog, tabsWatchdog],
  });
  return { session, browser };
}

/** The tab an action names: the focused one, as the registry resolves a missing tab_id. */
function focusOf(session: BrowserSession): string {
  return session.targets.focusedTargetId ?? '';
}

function sentOn(browser: FakeBrowser, method: string, targetId?: string): Array<Record<string, unknown>> {
  const sessions = targetId === undefined ? undefined : new Set(browser.sessionsOf(targetId));
  return browser.sent
    .filter((m) => m.method === method && (sessions === undefined || sessions.has(m.sessionId ?? '')))
    .map((m) => (m.params ?? {}) as Record<string, unknown>);
}

async function blocks(session: BrowserSession): Promise<Array<Record<string, unknown>>> {
  await session.bus.waitUntilIdle();
  return session.bus
    .history()
    .filter((view) => view.type === NavigationBlockedEvent.type)
    .map((view) => view.payload as Record<string, unknown>);
}

function paused(
  url: string,
  frameId: string,
  requestId = `R-${url}`,
  resourceType = 'Document',
): Record<string, unknown> {
  return {
    requestId,
    request: { url, method: 'GET', headers: {}, initialPriority: 'VeryHigh', referrerPolicy: 'no-referrer' },
    frameId,
    resourceType,
  };
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  return pollUntil(probe, { timeoutMs: 2000, intervalMs: 5, onTimeout: () => new Error(`never: ${what}`) });
}

describe('SecurityWatchdog', () => {
  it('holds no request when the policy has no host rule: no Fetch round trip per navigation', async () => {
    const { session, browser } = await started({ allowed_schemes: ['file'] });
    await session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://a.test/' });
    expect(browser.sentMethods()).not.toContain('Fetch.enable');
  });

  it('holds every request on every page and frame session, sent before a paused target resumes', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    // Only what could be refused is held: URLs with a prohibited host in them, of every resource type
    // (issue 24: subresources too, no longer documents only).
    expect(sentOn(browser, 'Fetch.enable', page.targetId)).toEqual([
      {
        patterns: [
          { urlPattern: '*evil.test*', requestStage: 'Request' },
          { urlPattern: '*tracker.test*', requestStage: 'Request' },
        ],
      },
    ]);
    const frame = browser.addChild(page, 'iframe', 'http://frame.test/');
    await until(() => session.targets.sessionFor(frame.targetId), 'the frame session');
    const frameSession = browser.sessionsOf(frame.targetId)[0];
    const onFrame = browser.sent.filter((m) => m.sessionId === frameSession).map((m) => m.method);
    expect(onFrame.indexOf('Fetch.enable')).toBeGreaterThanOrEqual(0);
    expect(onFrame.indexOf('Fetch.enable')).toBeLessThan(onFrame.indexOf('Runtime.runIfWaitingForDebugger'));
  });

  it('lets an allowed document through and fails a prohibited one before it is sent, announcing the rule', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://fine.test/', page.targetId, 'R1'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://x.tracker.test/', page.targetId, 'R2'));
    await until(() => sentOn(browser, 'Fetch.failRequest')[0], 'a failed request');
    expect(sentOn(browser, 'Fetch.continueRequest')).toEqual([{ requestId: 'R1' }]);
    expect(sentOn(browser, 'Fetch.failRequest')).toEqual([{ requestId: 'R2', errorReason: 'Aborted' }]);
    const blocked = await until(async () => (await blocks(session))[0], 'the event');
    expect(blocked).toMatchObject({
      target_id: page.targetId,
      url: 'http://x.tracker.test/',
      rule: 'prohibited_domains',
      pattern: '*.tracker.test',
      stage: 'request',
      frame: 'main',
      tab_closed: false,
    });
  });

  it('fails a refused subresource as a network error the page sees, announces it once, and leaves the page', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/pixel.gif', page.targetId, 'I1', 'Image'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/pixel.gif', page.targetId, 'I2', 'Image'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://fine.test/app.js', page.targetId, 'S1', 'Script'));
    await until(() => sentOn(browser, 'Fetch.failRequest')[1], 'both failed requests');
    expect(sentOn(browser, 'Fetch.failRequest')).toEqual([
      { requestId: 'I1', errorReason: 'BlockedByClient' },
      { requestId: 'I2', errorReason: 'BlockedByClient' },
    ]);
    expect(sentOn(browser, 'Fetch.continueRequest')).toEqual([{ requestId: 'S1' }]);
    expect(await blocks(session)).toEqual([
      expect.objectContaining({ url: 'http://evil.test/pixel.gif', stage: 'subresource', frame: 'subframe' }),
    ]);
    expect(sentOn(browser, 'Page.navigate')).toEqual([]);
    expect(session.guard.mainFrameBlockSince(page.targetId, 0)).toBeUndefined();
  });

  it("holds a dedicated worker's own requests on its session", async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    const worker = browser.addChild(page, 'worker', 'http://start.test/worker.js');
    await until(() => sentOn(browser, 'Fetch.enable', worker.targetId)[0], 'the worker interception');
    browser.emitOn(worker, 'Fetch.requestPaused', paused('http://evil.test/w', 'no-frame', 'W1', 'Fetch'));
    await until(() => sentOn(browser, 'Fetch.failRequest')[0], 'the worker request failed');
    expect(sentOn(browser, 'Fetch.failRequest')).toEqual([{ requestId: 'W1', errorReason: 'BlockedByClient' }]);
    expect(await blocks(session)).toEqual([
      expect.objectContaining({ target_id: page.targetId, stage: 'subresource' }),
    ]);
  });

  it('resolves a host name at each request under block_ip_addresses and refuses one that leads to a private address', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const answers = new Map([
      ['public.test', ['93.184.215.14']],
      ['rebind.test', ['10.0.0.7']],
    ]);
    const asked: string[] = [];
    const { session } = await startedFakeSession({
      browser,
      config: { block_ip_addresses: true },
      watchdogs: [securityWatchdog, navigationWatchdog, tabsWatchdog],
      host: {
        tabControl: undefined,
        resolver: {
          addresses: (name) => {
            asked.push(name);
            const found = answers.get(name);
            return found === undefined ? Promise.reject(new Error('ENOTFOUND')) : Promise.resolve(found);
          },
        },
      },
    });
    // With a resolver every request is held: any name may lead inside.
    expect(sentOn(browser, 'Fetch.enable', page.targetId)).toEqual([
      { patterns: [{ urlPattern: '*', requestStage: 'Request' }] },
    ]);
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://public.test/', page.targetId, 'P1'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://rebind.test/x', page.targetId, 'P2', 'XHR'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://unknown.test/', page.targetId, 'P3'));
    await until(() => sentOn(browser, 'Fetch.continueRequest')[1], 'the two let through');
    await until(() => sentOn(browser, 'Fetch.failRequest')[0], 'the private one failed');
    expect(sentOn(browser, 'Fetch.failRequest')).toEqual([{ requestId: 'P2', errorReason: 'BlockedByClient' }]);
    expect(
      sentOn(browser, 'Fetch.continueRequest')
        .map((p) => p['requestId'])
        .sort(),
    ).toEqual(['P1', 'P3']);
    expect(asked.sort()).toEqual(['public.test', 'rebind.test', 'unknown.test']);
    expect(await blocks(session)).toEqual([
      expect.objectContaining({ rule: 'block_ip_addresses', pattern: '10.0.0.7', stage: 'subresource' }),
    ]);
  });

  it('refuses navigate to a blocked URL before sending anything, naming the rule, and announces it', async () => {
    const { session, browser } = await started(PROHIBIT);
    await expect(
      session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://www.evil.test/login' }),
    ).rejects.toMatchObject({
      code: 'URL_BLOCKED',
      message: expect.stringContaining('prohibited_domains'),
      details: { rule: 'prohibited_domains', pattern: 'evil.test' },
    });
    expect(sentOn(browser, 'Page.navigate').some((p) => String(p['url']).includes('evil'))).toBe(false);
    expect(await blocks(session)).toEqual([expect.objectContaining({ stage: 'navigate', rule: 'prohibited_domains' })]);
  });

  it('answers URL_BLOCKED, not NAVIGATION_FAILED, when a redirect of navigate was failed at the network', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('about:blank');
    browser.responders.set('Page.navigate', (params) => {
      // The allowed URL redirects to a prohibited one: the browser holds the second hop.
      browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/after', page.targetId));
      return { frameId: page.targetId, loaderId: 'L1', errorText: 'net::ERR_ABORTED', url: params['url'] };
    });
    const { session } = await started(PROHIBIT, browser);
    await expect(
      session.bus.emit(NavigateToUrlEvent, { target_id: focusOf(session), url: 'http://fine.test/redirect' }),
    ).rejects.toMatchObject({
      code: 'URL_BLOCKED',
      message: expect.stringContaining('it led to http://evil.test/after'),
      details: { url: 'http://evil.test/after', rule: 'prohibited_domains' },
    });
  });

  it('closes a popup whose first request is blocked', async () => {
    const browser = new FakeBrowser();
    const opener = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    const popup = browser.addPage('', opener.targetId);
    await until(() => session.targets.sessionFor(popup.targetId), 'the popup session');
    browser.emitOn(popup, 'Fetch.requestPaused', paused('http://evil.test/', popup.targetId));
    await until(() => sentOn(browser, 'Target.closeTarget')[0], 'the close');
    expect(sentOn(browser, 'Target.closeTarget')).toEqual([{ targetId: popup.targetId }]);
    const announced = await until(async () => (await blocks(session))[0], 'the event');
    expect(announced).toMatchObject({ target_id: popup.targetId, tab_closed: true, stage: 'request' });
    expect(sentOn(browser, 'Target.closeTarget', opener.targetId)).toEqual([]);
  });

  it('closes a popup that escaped the hold (its history the blank page and the blocked URL) once, announced once as closed, when its tab and its commit both show the blocked URL', async () => {
    const browser = new FakeBrowser();
    const opener = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    const url = 'http://evil.test/escaped';
    // The commit arrives while the leave for the tab is under way (it asks for the tab's history first).
    let committed = false;
    browser.responders.set('Page.getNavigationHistory', () => {
      if (!committed) {
        committed = true;
        browser.emitOn(popup, 'Page.frameNavigated', {
          frame: { id: popup.targetId, loaderId: 'L1', url, securityOrigin: '', mimeType: 'text/html' },
          type: 'Navigation',
        });
      }
      // It started on a blank page, which shows nothing to keep.
      const entries = ['about:blank', url].map((entryUrl, id) => ({
        id,
        url: entryUrl,
        userTypedURL: entryUrl,
        title: '',
        transitionType: 'link',
      }));
      return { currentIndex: 1, entries };
    });
    // chrome.debugger attaches to a popup only once Chrome made it, so its first request can go unheld.
    const popup = browser.addPage(url, opener.targetId);
    await until(() => sentOn(browser, 'Target.closeTarget')[0], 'the close');
    const announced = await until(async () => {
      const all = await blocks(session);
      return all.length > 0 ? all : undefined;
    }, 'the event');
    expect(committed).toBe(true);
    expect(sentOn(browser, 'Target.closeTarget')).toEqual([{ targetId: popup.targetId }]);
    expect(announced).toEqual([expect.objectContaining({ target_id: popup.targetId, tab_closed: true, stage: 'tab' })]);
  });

  it('fails a blocked frame request without touching the tab', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/frame', 'CHILD-FRAME-ID'));
    const announced = await until(async () => (await blocks(session))[0], 'the event');
    expect(announced).toMatchObject({ frame: 'subframe', tab_closed: false });
    expect(sentOn(browser, 'Target.closeTarget')).toEqual([]);
    expect(sentOn(browser, 'Page.navigate')).toEqual([]);
  });

  it('takes a tab off a blocked page that committed without a request it held (the back/forward cache)', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await started(PROHIBIT, browser);
    browser.emitOn(page, 'Page.frameNavigated', {
      frame: { id: page.targetId, loaderId: 'L9', url: 'http://evil.test/', securityOrigin: '', mimeType: 'text/html' },
      type: 'BackForwardCacheRestore',
    });
    await until(() => sentOn(browser, 'Page.navigate', page.targetId)[0], 'the blank page');
    expect(sentOn(browser, 'Page.navigate', page.targetId)).toEqual([{ url: 'about:blank' }]);
    expect(await until(async () => (await blocks(session))[0], 'the event')).toMatchObject({ stage: 'commit' });
  });

  it('applies a policy change to every controlled tab at once, and drops the interception when it is not needed', async () => {
    const browser = new FakeBrowser();
    const first = browser.addPage('http://fine.test/');
    const second = browser.addPage('http://evil.test/inbox');
    const { session } = await started({}, browser);
    expect(browser.sentMethods()).not.toContain('Fetch.enable');
    await session.bus.waitUntilIdle();
    await session.applyConfig(parseBrowserConfig({ ...session.config, ...PROHIBIT }));
    expect(sentOn(browser, 'Fetch.enable', first.targetId)).toHaveLength(1);
    expect(sentOn(browser, 'Fetch.enable', second.targetId)).toHaveLength(1);
    expect(sentOn(browser, 'Page.navigate', second.targetId)).toEqual([{ url: 'about:blank' }]);
    expect(sentOn(browser, 'Page.navigate', first.targetId)).toEqual([]);
    expect(await blocks(session)).toEqual([
      expect.objectContaining({ target_id: second.targetId, stage: 'policy', rule: 'prohibited_domains' }),
    ]);
    await session.applyConfig(parseBrowserConfig({ ...session.config, prohibited_domains: [] }));
    expect(sentOn(browser, 'Fetch.disable', first.targetId)).toHaveLength(1);
  });

  it('holds requests again after a reconnect: the interception is part of every session setup', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('http://start.test/');
    const { session } = await startedFakeSession({
      browser,
      config: {
        ...PROHIBIT,
        reconnect: { max_attempts: 3, backoff_ms: [10], attempt_timeout_ms: 1000, wait_ms: 5000 },
      },
      watchdogs: [securityWatchdog],
    });
    const before = browser.transport;
    browser.drop();
    await session.bus.find(BrowserReconnectedEvent, { past: false, future: 5000 });
    expect(browser.transport).not.toBe(before);
    await until(() => sentOn(browser, 'Fetch.enable', page.targetId)[0], 'the interception on the new session');
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/after-reconnect', page.targetId));
    await until(() => sentOn(browser, 'Fetch.failRequest')[0], 'a held request on the new transport');
  });
});
