import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { RouteEvent } from '../../protocol/actions/route.actions';
import { BrowserReconnectedEvent } from '../../protocol/events/lifecycle.events';
import { TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { MAX_ROUTES_PER_TAB } from '../../protocol/routes';
import { isRecord } from '../../shared/narrow';
import { pollUntil } from '../../shared/time';
import { parseBrowserConfig, type BrowserConfig } from '../config';
import { routeWatchdog } from './route.watchdog';
import { securityWatchdog } from '../security/security.watchdog';

const PROHIBIT = { prohibited_domains: ['evil.test'] } satisfies Partial<BrowserConfig>;
const RECONNECTS = { max_attempts: 3, backoff_ms: [10], attempt_timeout_ms: 1000, wait_ms: 5000 };

async function started(config: Partial<BrowserConfig> = {}) {
  const browser = new FakeBrowser();
  const page = browser.addPage('http://start.test/');
  const other = browser.addPage('http://other.test/');
  const { session } = await startedFakeSession({
    browser,
    config: { ...config, reconnect: RECONNECTS },
    watchdogs: [securityWatchdog, routeWatchdog],
  });
  // Async, so a payload the schema refuses rejects like a handler's refusal.
  const route = async (payload: Omit<Parameters<typeof session.bus.emit<typeof RouteEvent>>[1], 'target_id'>) => {
    const answer = await session.bus.emit(RouteEvent, { target_id: page.targetId, ...payload });
    if (answer === undefined) {
      throw new Error('route answered nothing');
    }
    return answer;
  };
  return { browser, session, page, other, route };
}

/** The params of each call of `method`, on the sessions of `targetId` when given. */
function sentOn(browser: FakeBrowser, method: string, targetId?: string): unknown[] {
  const sessions = targetId === undefined ? undefined : new Set(browser.sessionsOf(targetId));
  return browser.sent
    .filter((m) => m.method === method && (sessions === undefined || sessions.has(m.sessionId ?? '')))
    .map((m) => m.params);
}

function paused(url: string, requestId: string, resourceType = 'Fetch'): Record<string, unknown> {
  return {
    requestId,
    request: { url, method: 'GET', headers: {}, initialPriority: 'High', referrerPolicy: 'no-referrer' },
    frameId: 'F',
    resourceType,
  };
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  return pollUntil(probe, { timeoutMs: 2000, intervalMs: 5, onTimeout: () => new Error(`never: ${what}`) });
}

/** The request's answer: which Fetch command named it, with its params. */
async function answerTo(browser: FakeBrowser, requestId: string): Promise<{ method: string; params: unknown }> {
  const answered = (): { method: string; params: unknown } | undefined => {
    const message = browser.sent.find(
      (m) =>
        m.method.startsWith('Fetch.') &&
        m.method !== 'Fetch.enable' &&
        isRecord(m.params) &&
        m.params.requestId === requestId,
    );
    return message === undefined ? undefined : { method: message.method, params: message.params };
  };
  return until(answered, `an answer to ${requestId}`);
}

const JSON_MOCK = { status: 201, content_type: 'application/json', headers: { 'X-Mock': '1' }, body: '{"a":1}' };

describe('RouteWatchdog and the one Fetch owner', () => {
  it("pauses the route's pattern on its tab's sessions only, frames too, and answers block, fulfil or lets go", async () => {
    const { browser, page, other, route } = await started();
    expect(browser.sentMethods()).not.toContain('Fetch.enable');
    const added = await route({ op: 'add', url_pattern: '*/api/*', fulfill: JSON_MOCK });
    await route({ op: 'add', url_pattern: '*.png', resource_type: 'Image', block: true, error_reason: 'timed_out' });
    expect(added).toMatchObject({ route_id: 'r1', max_routes: MAX_ROUTES_PER_TAB });
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [
        { urlPattern: '*/api/*', requestStage: 'Request' },
        { urlPattern: '*.png', resourceType: 'Image', requestStage: 'Request' },
      ],
    });
    expect(sentOn(browser, 'Fetch.enable', other.targetId)).toEqual([]);
    const frame = browser.addChild(page, 'iframe', 'http://frame.test/');
    await until(() => sentOn(browser, 'Fetch.enable', frame.targetId)[0], 'the frame interception');

    browser.emitOn(page, 'Fetch.requestPaused', paused('http://start.test/api/data', 'A'));
    expect(await answerTo(browser, 'A')).toEqual({
      method: 'Fetch.fulfillRequest',
      params: {
        requestId: 'A',
        responseCode: 201,
        responseHeaders: [
          { name: 'X-Mock', value: '1' },
          { name: 'Content-Type', value: 'application/json' },
        ],
        body: Buffer.from('{"a":1}').toString('base64'),
      },
    });
    browser.emitOn(frame, 'Fetch.requestPaused', paused('http://frame.test/logo.png', 'I', 'Image'));
    expect(await answerTo(browser, 'I')).toEqual({
      method: 'Fetch.failRequest',
      params: { requestId: 'I', errorReason: 'TimedOut' },
    });
    // A .png fetched by script is not an image request: the route's type does not match, so it goes on.
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://start.test/logo.png', 'S', 'Fetch'));
    expect(await answerTo(browser, 'S')).toEqual({ method: 'Fetch.continueRequest', params: { requestId: 'S' } });

    expect((await route({ op: 'list' })).routes).toEqual([
      expect.objectContaining({ id: 'r1', action: 'fulfill', status: 201, hits: 1, resource_type: null }),
      expect.objectContaining({ id: 'r2', action: 'block', error_reason: 'timed_out', hits: 1 }),
    ]);
  });

  it('judges the policy first: a prohibited URL is refused whatever a route says, with the union enabled', async () => {
    const { browser, page, route } = await started(PROHIBIT);
    await route({ op: 'add', url_pattern: '*', fulfill: { body: 'mock' } });
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [
        { urlPattern: '*evil.test*', requestStage: 'Request' },
        { urlPattern: '*', requestStage: 'Request' },
      ],
    });
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://evil.test/x', 'E'));
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://fine.test/x', 'F'));
    expect(await answerTo(browser, 'E')).toEqual({
      method: 'Fetch.failRequest',
      params: { requestId: 'E', errorReason: 'BlockedByClient' },
    });
    expect(await answerTo(browser, 'F')).toMatchObject({ method: 'Fetch.fulfillRequest' });
    // Each paused request was answered once.
    expect(sentOn(browser, 'Fetch.failRequest')).toHaveLength(1);
    expect(sentOn(browser, 'Fetch.fulfillRequest')).toHaveLength(1);
    expect(sentOn(browser, 'Fetch.continueRequest')).toHaveLength(0);
    // Clearing the routes keeps the policy's hold.
    await route({ op: 'clear' });
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [{ urlPattern: '*evil.test*', requestStage: 'Request' }],
    });
  });

  it('keeps the routes when the policy changes: enabled with the new hold patterns and the routes together', async () => {
    const { browser, session, page, route } = await started();
    await route({ op: 'add', url_pattern: '*/api/*', block: true });
    await session.applyConfig(parseBrowserConfig({ ...session.config, ...PROHIBIT }));
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [
        { urlPattern: '*evil.test*', requestStage: 'Request' },
        { urlPattern: '*/api/*', requestStage: 'Request' },
      ],
    });
    await session.applyConfig(parseBrowserConfig({ ...session.config, prohibited_domains: [] }));
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [{ urlPattern: '*/api/*', requestStage: 'Request' }],
    });
    expect(sentOn(browser, 'Fetch.disable', page.targetId)).toEqual([]);
  });

  it('remove and clear drop the interception when nothing else needs it; the lease end clears the routes', async () => {
    const { browser, session, page, route } = await started();
    await route({ op: 'add', url_pattern: '*/a', block: true });
    await route({ op: 'add', url_pattern: '*/b', block: true });
    expect((await route({ op: 'remove', route_id: 'r1' })).routes.map((r) => r.id)).toEqual(['r2']);
    expect(sentOn(browser, 'Fetch.enable', page.targetId).at(-1)).toEqual({
      patterns: [{ urlPattern: '*/b', requestStage: 'Request' }],
    });
    await route({ op: 'clear' });
    expect(sentOn(browser, 'Fetch.disable', page.targetId)).toHaveLength(1);
    await route({ op: 'add', url_pattern: '*/c', block: true });
    await session.bus.emit(TabLeaseEndedEvent, { target_ids: [page.targetId], client: 'mcp:alpha' });
    expect(sentOn(browser, 'Fetch.disable', page.targetId)).toHaveLength(2);
    expect((await route({ op: 'list' })).routes).toEqual([]);
  });

  it('enables a new session of the tab with its routes after a reconnect', async () => {
    const { browser, session, page, route } = await started();
    await route({ op: 'add', url_pattern: '*/api/*', fulfill: { body: 'again' } });
    browser.drop();
    await session.bus.find(BrowserReconnectedEvent, { past: false, future: 5000 });
    // The page's sessions are the new transport's only: what was sent on the old one is not counted.
    const enabled = await until(
      () => sentOn(browser, 'Fetch.enable', page.targetId)[0],
      'the routes on the new session',
    );
    expect(enabled).toEqual({ patterns: [{ urlPattern: '*/api/*', requestStage: 'Request' }] });
    browser.emitOn(page, 'Fetch.requestPaused', paused('http://start.test/api/x', 'N'));
    expect(await answerTo(browser, 'N')).toMatchObject({ method: 'Fetch.fulfillRequest' });
  });

  it('refuses bad input naming the field, and more than the bound of routes', async () => {
    const { route } = await started();
    await expect(route({ op: 'add', block: true })).rejects.toMatchObject({ details: { field: 'url_pattern' } });
    await expect(route({ op: 'add', url_pattern: '*' })).rejects.toMatchObject({ details: { field: 'fulfill' } });
    await expect(
      route({ op: 'add', url_pattern: '*', fulfill: { body: 'x', body_base64: 'eA==' } }),
    ).rejects.toMatchObject({ details: { field: 'fulfill.body_base64' } });
    await expect(
      route({ op: 'add', url_pattern: '*', fulfill: { headers: { 'Bad Name': 'x' } } }),
    ).rejects.toMatchObject({ details: { field: 'fulfill.headers.Bad Name' } });
    await expect(route({ op: 'list', url_pattern: '*' })).rejects.toMatchObject({ details: { field: 'url_pattern' } });
    await expect(route({ op: 'remove', route_id: 'r99' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'route_id' },
    });
    await expect(route({ op: 'add', url_pattern: '*', fulfill: { body_file: 'mock.json' } })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    for (let n = 0; n < MAX_ROUTES_PER_TAB; n++) {
      await route({ op: 'add', url_pattern: `*/${n}`, block: true });
    }
    await expect(route({ op: 'add', url_pattern: '*/more', block: true })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });
});
