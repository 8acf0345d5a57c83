import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

export interface EmulationContractHooks {
  /** How the tab's page may read the emulated position on this transport (the answer's geolocation_permission). */
  geolocationPermission: 'granted_to_origin' | 'granted_by_config';
  /** Lets the client's tab go and takes it back, returning its tab_id (each transport's release rule). */
  releaseAndAttach(driver: Driver, tabId: string): Promise<string>;
}

/** What the loopback page reads of itself: the window, the agent, the zone, the language, the media and the position. */
interface Report {
  width: number;
  ratio: number;
  agent: string;
  zone: string;
  language: string;
  intl_locale: string;
  dark: boolean;
  reduce: boolean;
  position: { latitude: number; longitude: number; accuracy: number } | string;
}

/**
 * A mobile page's width follows its meta viewport (without one a phone lays it out 980 px wide). The
 * position reads `no answer` after 3 s: a page without the permission is left waiting on a prompt. */
const REPORT_PAGE = `<!doctype html><meta name="viewport" content="width=device-width"><title>report</title><script>
window.report = () => new Promise((done) => {
  const base = {
    width: innerWidth,
    ratio: devicePixelRatio,
    agent: navigator.userAgent,
    zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    language: navigator.language,
    intl_locale: Intl.DateTimeFormat().resolvedOptions().locale,
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
  };
  const timer = setTimeout(() => done({ ...base, position: 'no answer' }), 3000);
  navigator.geolocation.getCurrentPosition(
    (p) => { clearTimeout(timer); done({ ...base, position: { latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy } }); },
    (e) => { clearTimeout(timer); done({ ...base, position: 'error ' + e.code }); },
    { timeout: 2000, maximumAge: 0 },
  );
});
</script>`;

const EIFFEL_TOWER = { latitude: 48.8584, longitude: 2.2945, accuracy: 25 };
const AGENT = 'TabpilotEmulationTest/1.0 (like Nothing)';

const EVERYTHING = {
  viewport: { width: 500, height: 700, device_scale_factor: 2, mobile: false },
  user_agent: AGENT,
  geolocation: EIFFEL_TOWER,
  timezone: 'Asia/Tokyo',
  locale: 'de-DE',
  color_scheme: 'dark',
  reduced_motion: 'reduce',
  cpu_throttling_rate: 2,
};

/**
 * `emulate`, the same over both transports: what a real page reads of itself (window width, user agent,
 * time zone, language, color scheme, reduced motion, position) follows the emulation, keeps it across
 * navigations, and is the browser's own again after reset and after the client releases the tab.
 */
export function defineEmulationContract(
  name: string,
  start: () => Promise<Driver>,
  hooks: EmulationContractHooks,
): void {
  describe(`emulate over ${name}`, () => {
    const server = new FixtureServer();
    server.route('/emulation/report.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.end(REPORT_PAGE);
    });
    server.route('/emulation/data.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end('data');
    });
    server.route('/emulation/api/data', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ real: true }));
    });
    server.route('/emulation/pixel.gif', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' });
      res.end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
    });
    server.route('/emulation/app.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end('window.appRan = true;');
    });
    let driver: Driver;
    let tab: string;
    let own: Report;

    const report = (): Promise<Report> => driver.evaluateInTab<Report>(tab, 'window.report()');

    /** The page reads its own again: nothing of the emulation is left. */
    const expectOwn = (seen: Report): void => {
      expect(seen).toMatchObject({
        width: own.width,
        ratio: own.ratio,
        agent: own.agent,
        zone: own.zone,
        language: own.language,
        intl_locale: own.intl_locale,
        dark: own.dark,
        reduce: own.reduce,
      });
      expect(seen.position).not.toEqual(EIFFEL_TOWER);
    };

    const expectEmulated = (seen: Report, position: boolean): void => {
      expect(seen).toMatchObject({
        width: 500,
        ratio: 2,
        agent: AGENT,
        zone: 'Asia/Tokyo',
        language: 'de-DE',
        intl_locale: 'de-DE',
        dark: true,
        reduce: true,
      });
      if (position) {
        expect(seen.position).toEqual(EIFFEL_TOWER);
      }
    };

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tab = await driver.openTab(server.url('/emulation/report.html'));
      own = await report();
      // Each emulated value differs from the browser's own, so each assertion below can fail.
      expect(own).toMatchObject({ dark: false, reduce: false });
      expect(own.width).not.toBe(500);
      expect(own.zone).not.toBe('Asia/Tokyo');
      expect(own.language).not.toBe('de-DE');
      expect(own.agent).not.toBe(AGENT);
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    it('emulates each field in the page and answers what is in force', async () => {
      const answer = await driver.ok('emulate', { tab_id: tab, ...EVERYTHING });
      expect(answer).toEqual({
        ...EVERYTHING,
        geolocation_permission: hooks.geolocationPermission,
      });
      expectEmulated(await report(), true);
    });

    it('keeps the emulation across navigations of the tab, to the same site and another', async () => {
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?again') });
      expectEmulated(await report(), true);
      // Another site (another renderer): the position's permission was the first origin's, the rest holds.
      await driver.ok('navigate', { tab_id: tab, url: server.crossUrl('/emulation/report.html?cross') });
      expectEmulated(await report(), hooks.geolocationPermission === 'granted_by_config');
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html') });
    });

    it('changes only the fields given, and refuses a time zone the browser does not know', async () => {
      expect(await driver.ok('emulate', { tab_id: tab, color_scheme: 'light' })).toMatchObject({
        color_scheme: 'light',
        timezone: 'Asia/Tokyo',
      });
      expect((await report()).dark).toBe(false);
      expect(
        await driver.send('emulate', { tab_id: tab, timezone: 'Mars/Olympus_Mons', color_scheme: 'dark' }),
      ).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'timezone' } },
      });
      // The refused call changed nothing: not its time zone, nor the color scheme sent before it.
      const seen = await report();
      expect(seen.zone).toBe('Asia/Tokyo');
      expect(seen.dark).toBe(false);
      expect(await driver.send('emulate', { tab_id: tab, locale: 'not a locale' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'locale' } },
      });
    });

    it('expands a preset into its viewport and user agent', async () => {
      const answer = await driver.ok('emulate', { tab_id: tab, preset: 'pixel-8' });
      expect(answer).toMatchObject({ viewport: { width: 412, height: 915, device_scale_factor: 2.625, mobile: true } });
      const seen = await report();
      expect(seen.width).toBe(412);
      expect(seen.ratio).toBe(2.625);
      expect(seen.agent).toContain('Pixel 8');
    });

    it('reset: true gives the page back its own', async () => {
      expect(await driver.ok('emulate', { tab_id: tab, reset: true })).toEqual({
        viewport: null,
        user_agent: null,
        geolocation: null,
        timezone: null,
        locale: null,
        color_scheme: null,
        reduced_motion: null,
        cpu_throttling_rate: null,
        geolocation_permission: null,
      });
      expectOwn(await report());
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?after-reset') });
      expectOwn(await report());
    });

    it('is cleared when the client releases the tab', async () => {
      await driver.ok('emulate', { tab_id: tab, ...EVERYTHING });
      expectEmulated(await report(), true);
      tab = await hooks.releaseAndAttach(driver, tab);
      expectOwn(await report());
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?after-release') });
      expectOwn(await report());
    });

    /** A fetch from the page to its own server, timed in the page: whether it answered, and how long it took. */
    const timedFetch = (): Promise<{ ok: boolean; ms: number; error?: string }> =>
      driver.evaluateInTab(
        tab,
        `(async () => {
          const start = performance.now();
          try {
            const response = await fetch('/emulation/data.txt?' + Math.random(), { cache: 'no-store' });
            return { ok: (await response.text()) === 'data', ms: performance.now() - start };
          } catch (error) {
            return { ok: false, ms: performance.now() - start, error: String(error) };
          }
        })()`,
      );

    const UNCONDITIONED = { offline: false, latency_ms: null, download_kbps: null, upload_kbps: null };

    it('network_conditions offline: fetches and navigations fail until reset', async () => {
      expect(await driver.ok('network_conditions', { tab_id: tab, offline: true })).toEqual({
        ...UNCONDITIONED,
        offline: true,
      });
      const offline = await timedFetch();
      expect(offline.ok).toBe(false);
      expect(offline.error).toContain('TypeError');
      expect(
        await driver.send('navigate', { tab_id: tab, url: server.url('/emulation/report.html?offline') }),
      ).toMatchObject({ ok: false, error: { code: 'NAVIGATION_FAILED' } });

      expect(await driver.ok('network_conditions', { tab_id: tab, reset: true })).toEqual(UNCONDITIONED);
      // The tab shows the browser's error page now, which has no origin to fetch from: back to the site.
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?online') });
      expect((await timedFetch()).ok).toBe(true);
    });

    it('network_conditions throttles each request by the latency, across navigations, and refuses a bad profile', async () => {
      // Unthrottled, a loopback fetch answers in well under the latency, so the assertions below can fail.
      expect((await timedFetch()).ms).toBeLessThan(300);
      expect(await driver.ok('network_conditions', { tab_id: tab, profile: 'fast-3g' })).toEqual({
        offline: false,
        latency_ms: 562.5,
        download_kbps: 1440,
        upload_kbps: 675,
      });
      const slow = await timedFetch();
      expect(slow.ok).toBe(true);
      expect(slow.ms).toBeGreaterThanOrEqual(562.5);
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?throttled') });
      expect((await timedFetch()).ms).toBeGreaterThanOrEqual(562.5);
      expect(await driver.send('network_conditions', { tab_id: tab, profile: '5g' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'profile' } },
      });
      expect(await driver.ok('network_conditions', { tab_id: tab, profile: 'none' })).toEqual(UNCONDITIONED);
      expect((await timedFetch()).ms).toBeLessThan(300);
    });

    it('network_conditions is cleared when the client releases the tab', async () => {
      await driver.ok('network_conditions', { tab_id: tab, latency_ms: 800 });
      expect((await timedFetch()).ms).toBeGreaterThanOrEqual(800);
      tab = await hooks.releaseAndAttach(driver, tab);
      const released = await timedFetch();
      expect(released.ok).toBe(true);
      expect(released.ms).toBeLessThan(300);
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?after-release') });
      expect((await timedFetch()).ms).toBeLessThan(300);
      await driver.ok('network_conditions', { tab_id: tab, offline: true });
      tab = await hooks.releaseAndAttach(driver, tab);
      expect((await timedFetch()).ok).toBe(true);
    });

    /** The page fetches /emulation/api/data (tagged `c`) and writes what it got into itself, then reads it back. */
    const apiData = (c: number): Promise<{ status: number; type: string | null; shown: string } | string> =>
      driver.evaluateInTab(
        tab,
        `(async () => {
          try {
            const response = await fetch('/emulation/api/data?c=${c}', { cache: 'no-store' });
            const shown = document.createElement('pre');
            shown.id = 'api-${c}';
            shown.textContent = await response.text();
            document.body.append(shown);
            return { status: response.status, type: response.headers.get('content-type'), shown: document.getElementById('api-${c}').textContent };
          } catch (error) {
            return String(error);
          }
        })()`,
      );

    /** The page loads an image and a script (tagged `c`): whether each loaded or failed. */
    const imageAndScript = (c: number): Promise<{ img: string; script: string }> =>
      driver.evaluateInTab(
        tab,
        `(async () => {
          const load = (element) => new Promise((done) => {
            element.onload = () => done('loaded');
            element.onerror = () => done('failed');
            document.body.append(element);
          });
          const img = document.createElement('img');
          img.src = '/emulation/pixel.gif?c=${c}';
          const script = document.createElement('script');
          script.src = '/emulation/app.js?c=${c}';
          const [imgOutcome, scriptOutcome] = await Promise.all([load(img), load(script)]);
          return { img: imgOutcome, script: scriptOutcome };
        })()`,
      );

    const arrived = (path: string, c: number): boolean => server.last(path, `c=${c}`) !== undefined;
    let tag = 1000;
    const MOCK = { real: false, mocked: 'yes' };

    it('route fulfil: the page gets the JSON mock (status, type, body) and the server never sees the request; the log says so', async () => {
      const real = tag++;
      expect(await apiData(real)).toEqual({ status: 200, type: 'application/json', shown: '{"real":true}' });
      expect(arrived('/emulation/api/data', real)).toBe(true);

      const added = await driver.ok('route', {
        tab_id: tab,
        op: 'add',
        url_pattern: '*/emulation/api/data?*',
        fulfill: { status: 203, content_type: 'application/json', body: JSON.stringify(MOCK) },
      });
      expect(added).toMatchObject({
        route_id: expect.any(String),
        routes: [{ url_pattern: '*/emulation/api/data?*', action: 'fulfill', status: 203, hits: 0 }],
      });
      const mocked = tag++;
      expect(await apiData(mocked)).toEqual({ status: 203, type: 'application/json', shown: JSON.stringify(MOCK) });
      // Across a navigation too.
      await driver.ok('navigate', { tab_id: tab, url: server.url('/emulation/report.html?routed') });
      const again = tag++;
      expect(await apiData(again)).toEqual({ status: 203, type: 'application/json', shown: JSON.stringify(MOCK) });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(arrived('/emulation/api/data', mocked) || arrived('/emulation/api/data', again)).toBe(false);
      const log = await driver.ok('network_requests', { tab_id: tab, url_contains: `/emulation/api/data?c=${again}` });
      expect(log.requests).toEqual([expect.objectContaining({ status: 203, failed: false, failure: null })]);

      const listed = await driver.ok('route', { tab_id: tab, op: 'list' });
      expect(listed.routes).toEqual([expect.objectContaining({ id: added.route_id, hits: 2 })]);
      await driver.ok('route', { tab_id: tab, op: 'remove', route_id: added.route_id });
      const removed = tag++;
      expect(await apiData(removed)).toEqual({ status: 200, type: 'application/json', shown: '{"real":true}' });
      expect(arrived('/emulation/api/data', removed)).toBe(true);
    });

    it('route block: an image and a script fail in the page and never reach the server, until the route is removed', async () => {
      const before = tag++;
      expect(await imageAndScript(before)).toEqual({ img: 'loaded', script: 'loaded' });
      const image = await driver.ok('route', {
        tab_id: tab,
        op: 'add',
        url_pattern: '*/emulation/pixel.gif*',
        resource_type: 'Image',
        block: true,
      });
      await driver.ok('route', {
        tab_id: tab,
        op: 'add',
        url_pattern: '*/emulation/app.js?*',
        block: true,
        error_reason: 'connection_refused',
      });
      const blocked = tag++;
      expect(await imageAndScript(blocked)).toEqual({ img: 'failed', script: 'failed' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(arrived('/emulation/pixel.gif', blocked)).toBe(false);
      expect(arrived('/emulation/app.js', blocked)).toBe(false);
      // Chrome reports a request failed through CDP with BlockedByClient as blocked by the inspector.
      const log = await driver.ok('network_requests', { tab_id: tab, url_contains: `?c=${blocked}` });
      expect(log.requests).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            url: expect.stringContaining('pixel.gif'),
            failed: true,
            failure: 'blocked: inspector',
          }),
          expect.objectContaining({
            url: expect.stringContaining('app.js'),
            failed: true,
            failure: 'net::ERR_CONNECTION_REFUSED',
          }),
        ]),
      );

      await driver.ok('route', { tab_id: tab, op: 'remove', route_id: image.route_id });
      const after = tag++;
      expect(await imageAndScript(after)).toEqual({ img: 'loaded', script: 'failed' });
      expect(arrived('/emulation/pixel.gif', after)).toBe(true);
      expect((await driver.ok('route', { tab_id: tab, op: 'clear' })).routes).toEqual([]);
      const cleared = tag++;
      expect(await imageAndScript(cleared)).toEqual({ img: 'loaded', script: 'loaded' });
    });

    it('route is cleared when the client releases the tab: the real response comes back', async () => {
      await driver.ok('route', { tab_id: tab, op: 'add', url_pattern: '*/emulation/api/*', fulfill: { body: 'mock' } });
      expect(await apiData(tag++)).toMatchObject({ status: 200, shown: 'mock' });
      tab = await hooks.releaseAndAttach(driver, tab);
      const released = tag++;
      expect(await apiData(released)).toEqual({ status: 200, type: 'application/json', shown: '{"real":true}' });
      expect(arrived('/emulation/api/data', released)).toBe(true);
      expect((await driver.ok('route', { tab_id: tab, op: 'list' })).routes).toEqual([]);
    });
  });
}
