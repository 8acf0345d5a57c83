import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PerformanceStopEvent } from '../../../src/protocol/actions/performance.actions';
import type { ResultOf } from '../../../src/protocol/define-event';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import {
  addHarPages,
  addLoginPages,
  HAR_AUTHORIZATION,
  HAR_COOKIE_VALUE,
  HAR_POST_BODY,
  HAR_READY_TITLE,
  LOGIN_DONE_TITLE,
  LOGIN_SECRET,
} from '../harness/har-pages';
import { validateHar } from '../harness/har-validator';
import {
  addPerformancePage,
  CLICK_BUSY_MS,
  KEY_BUSY_MS,
  LCP_DELAY_MS,
  LONG_TASK_MS,
  PERF_READY_TITLE,
} from '../harness/performance-page';

interface HarJson {
  log: {
    version: string;
    creator: { name: string };
    browser: { name: string; version: string };
    pages: Array<{ id: string; title: string; pageTimings: { onContentLoad: number; onLoad: number } }>;
    entries: Array<{
      pageref?: string;
      time: number;
      request: {
        method: string;
        url: string;
        headers: Array<{ name: string; value: string }>;
        cookies: Array<{ name: string; value: string }>;
        postData?: { mimeType: string; text: string };
      };
      response: {
        status: number;
        redirectURL: string;
        headers: Array<{ name: string; value: string }>;
        cookies: Array<{ name: string; value: string }>;
        content: { size: number; mimeType: string; text?: string; encoding?: string; _file?: string };
        _failureText?: string;
      };
      timings: { send: number; wait: number; receive: number };
    }>;
  };
}

export interface HarContractHooks {
  /** Applies config fields as settings do (the running session takes them at once). */
  configure(driver: Driver, fields: Record<string, unknown>): Promise<void>;
  /** Where a HAR the config names `name` lands on disk. */
  fileOf(name: string): string;
  /** The session's bus history as JSON. */
  history(driver: Driver): Promise<string>;
  /** Lets the client's tab go and takes it back, returning its tab_id (each transport's release rule). */
  releaseAndAttach(driver: Driver, tabId: string): Promise<string>;
}

/** A trace file's events as a test reads them; what DevTools needs of each is checked at run time. */
interface TraceEventJson {
  name: unknown;
  ph: unknown;
  pid: unknown;
  tid: unknown;
  ts: unknown;
  args?: {
    frame?: string;
    data?: { frames?: Array<{ frame: string; parent?: string }>; documentLoaderURL?: string };
  };
}

interface TraceJson {
  traceEvents: TraceEventJson[];
  metadata: Record<string, unknown>;
}

/** What performance_stop answers: its declared result, not a copy of it. */
type PerformanceAnswer = ResultOf<typeof PerformanceStopEvent>;

const PERF_SECRET = 'perf-token-5f3a9c';
/** Typed into the page during a trace: not a secret, and still not in the file. */
const TYPED_TEXT = 'typed-during-trace-77c1';

const PLAYWRIGHT_LAUNCH = { executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] };

function readHar(path: string): HarJson {
  return JSON.parse(readFileSync(path, 'utf8')) as HarJson;
}

function header(list: Array<{ name: string; value: string }>, name: string): string | undefined {
  return list.find((entry) => entry.name.toLowerCase() === name)?.value;
}

/**
 * HAR recording, the same over both transports: a real page's traffic recorded to a file that passes an
 * independent HAR 1.2 schema check (har-schema with ajv), holds what it should (pages, timings, headers,
 * post data, bodies, the redirect hop, the failed request) with cookie and authorization values
 * redacted, is complete on disk while recording goes on, and replays offline in Playwright's
 * routeFromHAR (embedded bodies, and bodies attached as files beside it).
 */
export function defineHarContract(name: string, start: () => Promise<Driver>, hooks: HarContractHooks): void {
  describe(`HAR recording over ${name}`, () => {
    // The recorded site has a server of its own, stopped before the replays so they are truly offline.
    const site = new FixtureServer();
    addHarPages(site);
    addLoginPages(site);
    addPerformancePage(site);
    let driver: Driver;
    let tab: string;

    const recordPage = async (file: string, content: 'embed' | 'attach'): Promise<HarJson> => {
      await hooks.configure(driver, { record_har_path: file, record_har_content: content });
      await driver.ok('navigate', { url: site.url('/har/index.html') });
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(tab, 'document.title')) === HAR_READY_TITLE ? true : undefined,
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the HAR page never finished its requests') },
      );
      // While recording, the file on disk is already a complete HAR holding the page's requests.
      const during = await pollUntil(
        () => {
          if (!existsSync(hooks.fileOf(file))) {
            return undefined;
          }
          const har = readHar(hooks.fileOf(file));
          return har.log.entries.some((entry) => entry.request.url.endsWith('/har/submit')) ? har : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error(`${file} never held the page's requests`) },
      );
      expect(validateHar(during)).toEqual([]);
      await hooks.configure(driver, { record_har_path: null });
      const har = await pollUntil(
        () => {
          const written = readHar(hooks.fileOf(file));
          // The close writes the pages with their load timings; the checkpoint before may not have them.
          return written.log.pages.some((page) => page.pageTimings.onLoad >= 0) ? written : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error(`${file} was not finished`) },
      );
      return har;
    };

    beforeAll(async () => {
      await site.start();
      driver = await start();
      tab = await driver.openTab('about:blank');
    });

    afterAll(async () => {
      await driver?.close();
      await site.stop().catch(() => undefined);
    });

    let embedded: HarJson;
    let attached: HarJson;

    it('records the traffic of a page into a file that passes the HAR 1.2 schema', async () => {
      embedded = await recordPage('recordings/embed.har', 'embed');
      expect(validateHar(embedded)).toEqual([]);
      const { log } = embedded;
      expect(log.version).toBe('1.2');
      expect(log.creator.name).toBe('tabpilot');
      expect(log.browser.version).toMatch(/^\d+\./);
      const page = log.pages.find((candidate) => candidate.title === HAR_READY_TITLE || candidate.title === 'HAR page');
      expect(page).toBeDefined();
      expect(page?.pageTimings.onContentLoad).toBeGreaterThan(0);
      expect(page?.pageTimings.onLoad).toBeGreaterThanOrEqual(page?.pageTimings.onContentLoad ?? 0);
      const byPath = (path: string) => log.entries.find((entry) => entry.request.url.endsWith(path));
      for (const path of ['/har/index.html', '/har/style.css', '/har/app.js', '/har/pixel.png', '/har/data.json']) {
        const entry = byPath(path);
        expect(entry, path).toBeDefined();
        expect(entry?.response.status, path).toBe(200);
        expect(entry?.pageref, path).toBe(page?.id);
        expect(entry?.timings.wait, path).toBeGreaterThanOrEqual(0);
        expect(entry?.time, path).toBeGreaterThan(0);
      }
      expect(byPath('/har/style.css')?.response.content.text).toContain('rgb(0, 128, 0)');
      expect(byPath('/har/pixel.png')?.response.content).toMatchObject({ mimeType: 'image/png', encoding: 'base64' });
      expect(header(byPath('/har/index.html')?.response.headers ?? [], 'content-type')).toContain('text/html');
      // The redirect is its own entry, pointing at where it went.
      expect(byPath('/har/redirect')?.response).toMatchObject({ status: 302 });
      expect(byPath('/har/redirect')?.response.redirectURL).toBe(site.url('/har/data.json'));
      // The POST with its body.
      const post = byPath('/har/submit');
      expect(post?.request.method).toBe('POST');
      expect(post?.request.postData).toEqual({ mimeType: 'application/json', text: HAR_POST_BODY });
      expect(post?.response.content.text).toContain('"n":42');
      // The failed request, with the browser's error.
      const failed = byPath('/unreachable');
      expect(failed?.response.status).toBe(-1);
      expect(failed?.response._failureText).toMatch(/ERR_/);
      // Cookie and authorization values are redacted by default.
      const text = JSON.stringify(embedded);
      expect(text).not.toContain(HAR_COOKIE_VALUE);
      expect(text).not.toContain('top-secret-token');
      expect(header(post?.request.headers ?? [], 'authorization')).toBe('<redacted>');
      expect(byPath('/har/index.html')?.response.cookies).toEqual([
        expect.objectContaining({ name: 'session', value: '<redacted>' }),
      ]);
    });

    it('keeps bodies as files beside the HAR in attach mode, and records values when redaction is off', async () => {
      await hooks.configure(driver, { record_har_redact_headers: [] });
      attached = await recordPage('recordings/attach.har', 'attach');
      expect(validateHar(attached)).toEqual([]);
      const css = attached.log.entries.find((entry) => entry.request.url.endsWith('/har/style.css'));
      const file = css?.response.content._file ?? '';
      expect(file).toMatch(/^attach_har_parts\/[0-9a-f]{40}\.css$/);
      expect(css?.response.content.text).toBeUndefined();
      const onDisk = join(dirname(hooks.fileOf('recordings/attach.har')), file);
      await pollUntil(() => (existsSync(onDisk) ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 100,
        onTimeout: () => new Error(`${onDisk} was not written`),
      });
      expect(readFileSync(onDisk, 'utf8')).toContain('rgb(0, 128, 0)');
      expect(readdirSync(dirname(onDisk)).length).toBeGreaterThanOrEqual(4);
      const post = attached.log.entries.find((entry) => entry.request.url.endsWith('/har/submit'));
      expect(header(post?.request.headers ?? [], 'authorization')).toBe(HAR_AUTHORIZATION);
      await hooks.configure(driver, {
        record_har_redact_headers: ['cookie', 'set-cookie', 'authorization', 'proxy-authorization'],
      });
    });

    it('records on request: start_har, then stop_har answers the finished file, one recording at a time', async () => {
      const stopFirst = await driver.send('stop_har', {});
      expect(stopFirst).toMatchObject({ ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });
      const started = await driver.ok<{ path: string }>('start_har', {
        file_name: 'asked/on-request',
        mode: 'minimal',
      });
      expect(started.path).toMatch(/on-request\.har$/);
      expect(await driver.send('start_har', { file_name: 'asked/second.har' })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringMatching(/stop_har/) as unknown },
      });
      expect(await driver.send('start_har', { file_name: '../outside.har' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS' },
      });
      await driver.ok('navigate', { url: site.url('/har/index.html') });
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(tab, 'document.title')) === HAR_READY_TITLE ? true : undefined,
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the HAR page never finished its requests') },
      );
      const stopped = await driver.ok<{ path: string; entries: number }>('stop_har', {});
      expect(stopped.path).toBe(started.path);
      const har = readHar(hooks.fileOf('asked/on-request.har'));
      expect(validateHar(har)).toEqual([]);
      expect(har.log.entries).toHaveLength(stopped.entries);
      const urls = har.log.entries.map((entry) => entry.request.url);
      expect(urls).toContain(site.url('/har/index.html'));
      expect(urls).toContain(site.url('/har/submit'));
      // minimal mode: the document's own origin only, so the unreachable host is left out.
      expect(urls.some((url) => url.includes('/unreachable'))).toBe(false);
      expect(existsSync(hooks.fileOf('asked/second.har'))).toBe(false);
      // Stopped, nothing is recorded any more, even once the page's requests are done.
      await driver.ok('navigate', { url: site.url('/har/index.html?after') });
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(tab, 'document.title')) === HAR_READY_TITLE ? true : undefined,
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the HAR page never finished its requests') },
      );
      expect(readHar(hooks.fileOf('asked/on-request.har')).log.entries).toHaveLength(stopped.entries);
    });

    it('a login typed with a sensitive_data placeholder: the HAR holds the placeholder, never the password, wherever it travelled', async () => {
      // Header redaction off: only sensitive_data keeps the cookie and the header out.
      await hooks.configure(driver, {
        sensitive_data: { localhost: { password: LOGIN_SECRET } },
        record_har_redact_headers: [],
      });
      try {
        await driver.ok('navigate', { url: site.url('/har/login.html') });
        const started = await driver.ok<{ path: string }>('start_har', { file_name: 'login.har', content: 'embed' });
        expect(started.path).toMatch(/login\.har$/);
        const state = await driver.ok<{ text: string }>('state');
        const field = /\[(\d+)\][^\n]*password/.exec(state.text)?.[1];
        expect(field, state.text).toBeDefined();
        await driver.ok('input', { index: Number(field), text: '<secret>password</secret>' });
        await driver.ok('send_keys', { keys: 'Enter' });
        await pollUntil(
          async () =>
            (await driver.evaluateInTab<string>(tab, 'document.title')) === LOGIN_DONE_TITLE ? true : undefined,
          { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the login never finished') },
        );
        // The page really had the password: the secret was typed, not its placeholder.
        expect(await driver.evaluateInTab<string>(tab, 'document.getElementById("token").textContent')).toBe(
          LOGIN_SECRET,
        );
        await driver.ok('stop_har', {});
        const har = await pollUntil(
          () => {
            const path = hooks.fileOf('login.har');
            return existsSync(path) ? readHar(path) : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('login.har was not written') },
        );
        expect(validateHar(har)).toEqual([]);
        const text = JSON.stringify(har);
        const encoded = encodeURIComponent(LOGIN_SECRET);
        expect(text).not.toContain(LOGIN_SECRET);
        expect(text.toLowerCase()).not.toContain(LOGIN_SECRET.toLowerCase());
        expect(text).not.toContain(encoded);
        const placeholder = '<secret>password</secret>';
        const byPath = (path: string) => har.log.entries.find((entry) => entry.request.url.includes(path));
        const login = har.log.entries.find((entry) => entry.request.url.endsWith('/har/login'));
        expect(login?.request.postData?.text).toContain(`password=${placeholder}`);
        const welcome = byPath('/har/welcome');
        // In a URL the placeholder is percent-encoded, so the HAR's URLs stay URIs.
        expect(welcome?.request.url).toBe(site.url(`/har/welcome?token=${encodeURI(placeholder)}`));
        expect(welcome?.response.content.text).toContain(`<p id="token">${placeholder}</p>`);
        const whoami = byPath('/har/whoami');
        expect(header(whoami?.request.headers ?? [], 'x-password')).toBe(placeholder);
        expect(whoami?.response.content.text).toBe(JSON.stringify({ password: placeholder }));
      } finally {
        await hooks.configure(driver, { sensitive_data: {} });
      }
    });

    it("network_requests lists the tab's requests since its page loaded: status, type, failure, filters", async () => {
      site.route('/har/errors.html', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(
          `<!doctype html><title>errors page</title><script>(async () => { await (await fetch('/har/missing.json')).text(); await (await fetch('/har/broken')).text(); document.title = 'errors done'; })();</script>`,
        );
      });
      site.route('/har/broken', (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end('broken');
      });
      await driver.ok('navigate', { url: site.url('/har/index.html') });
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(tab, 'document.title')) === HAR_READY_TITLE ? true : undefined,
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the HAR page never finished its requests') },
      );
      type Listed = {
        requests: Array<{
          id: string;
          url: string;
          method: string;
          resource_type: string;
          status: number | null;
          failed: boolean;
          failure: string | null;
          duration_ms: number | null;
        }>;
        total: number;
        dropped: number;
      };
      const all = await pollUntil(
        async () => {
          const listed = await driver.ok<Listed>('network_requests', {});
          return listed.requests.some((request) => request.failure !== null) ? listed : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the failed request was never listed') },
      );
      const byPath = (path: string) => all.requests.find((request) => request.url.endsWith(path));
      expect(byPath('/har/index.html')).toMatchObject({
        method: 'GET',
        resource_type: 'Document',
        status: 200,
        failed: false,
      });
      expect(byPath('/har/app.js')).toMatchObject({ resource_type: 'Script', status: 200 });
      expect(byPath('/har/redirect')).toMatchObject({ status: 302 });
      expect(byPath('/har/data.json')).toMatchObject({ resource_type: 'Fetch', status: 200 });
      expect(byPath('/har/submit')).toMatchObject({ method: 'POST', status: 200 });
      expect(byPath('/unreachable')).toMatchObject({
        status: null,
        failed: true,
        failure: expect.stringMatching(/^net::ERR_/),
      });
      expect(all.total).toBe(all.requests.length);

      // One request's headers and bodies: the POST's authorization replaced, its body and its answer given.
      type Detail = {
        request_headers: Array<{ name: string; value: string }>;
        response_headers: Array<{ name: string; value: string }> | null;
        request_body: { text: string | null; path: string | null; bytes: number } | null;
        response_body: { text: string | null; path: string | null; bytes: number; missing: string | null } | null;
      };
      const idOf = (path: string): string => {
        const found = all.requests.find((request) => request.url.endsWith(path));
        if (found === undefined) {
          throw new Error(`no id for ${path}`);
        }
        return found.id;
      };
      const submit = await driver.ok<Detail>('network_request', { request_id: idOf('/har/submit') });
      expect(header(submit.request_headers, 'authorization')).toBe('<redacted>');
      expect(JSON.stringify(submit)).not.toContain('top-secret-token');
      expect(submit.request_body?.text).toBe(HAR_POST_BODY);
      expect(submit.response_body?.text).toContain('"n":42');
      expect(header(submit.response_headers ?? [], 'content-type')).toContain('application/json');
      // A binary body only through a file, which holds the image the server sent.
      const pixel = await driver.ok<Detail>('network_request', { request_id: idOf('/har/pixel.png') });
      expect(pixel.response_body?.missing).toMatch(/^binary/);
      const written = await driver.ok<Detail>('network_request', { request_id: idOf('/har/pixel.png'), to_file: true });
      const png = readFileSync(written.response_body?.path ?? '');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBe(written.response_body?.bytes);
      const unknown = await driver.send('network_request', { request_id: 'no-such-request' });
      expect(unknown).toMatchObject({ ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });

      // The browser's own favicon request may be listed too (a 404 here): the page's requests are the point.
      const pageOwn = (listed: Listed) => listed.requests.filter((request) => !request.url.endsWith('/favicon.ico'));
      const failedOnly = await driver.ok<Listed>('network_requests', { only_failed: true });
      expect(failedOnly.requests.every((request) => request.failed)).toBe(true);
      expect(pageOwn(failedOnly).map((request) => new URL(request.url).pathname)).toEqual(['/unreachable']);
      const scripts = await driver.ok<Listed>('network_requests', { resource_types: ['Script'] });
      expect(scripts.requests.map((request) => new URL(request.url).pathname)).toEqual(['/har/app.js']);
      const newest = await driver.ok<Listed>('network_requests', { url_contains: 'HAR/', max_results: 2 });
      expect(newest.requests).toHaveLength(2);
      expect(newest.total).toBeGreaterThan(2);

      // A new page starts the list anew: the 404 and the 500 are marked failed, with their status.
      await driver.ok('navigate', { url: site.url('/har/errors.html') });
      let lastListed: Listed | undefined;
      const errors = await pollUntil(
        async () => {
          lastListed = await driver.ok<Listed>('network_requests', {});
          const own = pageOwn(lastListed).filter((request) => request.failed);
          return own.length === 2 && own.every((request) => request.duration_ms !== null) ? own : undefined;
        },
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () => new Error(`the 404 and the 500 were never listed: ${JSON.stringify(lastListed)}`),
        },
      );
      expect(errors.map((request) => [new URL(request.url).pathname, request.status])).toEqual([
        ['/har/missing.json', 404],
        ['/har/broken', 500],
      ]);
      const page = await driver.ok<Listed>('network_requests', {});
      expect(page.requests.some((request) => request.url.endsWith('/har/index.html'))).toBe(false);

      expect(await driver.send('network_requests', { tab_id: 'no-such-tab' })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
      expect(await driver.send('network_requests', { only_failed: 'yes' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'only_failed' } },
      });
    });

    it('performance_start with reload, a click, performance_stop: the vitals the page was built to have, and a trace file DevTools loads', async () => {
      await hooks.configure(driver, { sensitive_data: { localhost: { perf_token: PERF_SECRET } } });
      try {
        await driver.ok('navigate', { url: site.url(`/perf/vitals.html?token=${PERF_SECRET}`) });
        expect(await driver.send('performance_stop', {})).toMatchObject({
          ok: false,
          error: { code: 'ELEMENT_NOT_FOUND', message: expect.stringMatching(/performance_start/) as unknown },
        });
        expect(await driver.send('performance_start', { file_name: '../outside' })).toMatchObject({
          ok: false,
          error: { code: 'INVALID_PARAMS', details: { field: 'file_name' } },
        });
        const startedAt = Date.now();
        const started = await driver.ok<{ file: string; reloaded: boolean }>('performance_start', {
          reload: true,
          file_name: 'traces/load',
        });
        const startMs = Date.now() - startedAt;
        expect(started).toMatchObject({
          reloaded: true,
          file: expect.stringMatching(/traces\/load\.json$/) as unknown,
        });
        expect(await driver.send('performance_start', {})).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN', message: expect.stringMatching(/performance_stop/) as unknown },
        });
        await pollUntil(
          async () =>
            (await driver.evaluateInTab<string>(tab, 'document.title')) === PERF_READY_TITLE ? true : undefined,
          { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the perf page never finished its script') },
        );
        const button = await driver.evaluateInTab<{ x: number; y: number }>(
          tab,
          '(() => { const r = document.getElementById("act").getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()',
        );
        await driver.ok('click', { coordinate_x: button.x, coordinate_y: button.y });
        // The browser times an interaction once its next frame is presented: the trace has it from then on.
        await pollUntil(
          async () => ((await driver.evaluateInTab<number>(tab, 'window.timedInteractions')) > 0 ? true : undefined),
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the click was never timed by the page') },
        );
        const expectedShift = await driver.evaluateInTab<number>(tab, 'window.expectedShift');
        expect(expectedShift).toBeGreaterThan(0.1);

        const stoppedAt = Date.now();
        const answer = await driver.ok<PerformanceAnswer>('performance_stop', {});
        const stopMs = Date.now() - stoppedAt;
        console.info(`performance trace: ${answer.bytes} bytes, start ${startMs} ms, stop ${stopMs} ms`, answer);

        expect(answer.file).toMatch(/traces\/load\.json$/);
        // The largest text came LCP_DELAY_MS after navigation start, not with the first paint.
        expect(answer.lcp_ms).toBeGreaterThanOrEqual(LCP_DELAY_MS);
        expect(answer.lcp_ms).toBeLessThan(LCP_DELAY_MS + 3_000);
        // One shift, as the page computed it from its viewport.
        expect(answer.cls).toBeGreaterThan(0.1);
        expect(Math.abs(answer.cls - expectedShift)).toBeLessThan(expectedShift * 0.2);
        // The click's handler held the main thread CLICK_BUSY_MS before the next paint.
        expect(answer.interactions).toBe(1);
        expect(answer.inp_ms).toBeGreaterThanOrEqual(CLICK_BUSY_MS - 10);
        expect(answer.inp_ms).toBeLessThan(CLICK_BUSY_MS + 1_000);
        // The page's own busy task and the click's handler are long tasks; nothing else there is.
        expect(answer.long_tasks.count).toBeGreaterThanOrEqual(2);
        expect(answer.long_tasks.longest_ms).toBeGreaterThanOrEqual(LONG_TASK_MS - 10);
        expect(answer.long_tasks.total_ms).toBeGreaterThanOrEqual(LONG_TASK_MS + CLICK_BUSY_MS - 20);
        expect(answer.dom_content_loaded_ms).toBeGreaterThan(0);
        expect(answer.load_ms).toBeGreaterThanOrEqual(answer.dom_content_loaded_ms ?? 0);

        const text = readFileSync(hooks.fileOf('traces/load.json'), 'utf8');
        expect(Buffer.byteLength(text)).toBe(answer.bytes);
        const trace = JSON.parse(text) as TraceJson;
        expect(trace.metadata).toMatchObject({ source: 'tabpilot', dataOrigin: 'TraceEvents' });
        expect(trace.traceEvents.length).toBeGreaterThan(100);
        // What DevTools needs of every event, and the event it starts a recording from.
        for (const event of trace.traceEvents) {
          expect(typeof event.name === 'string' && typeof event.ph === 'string', JSON.stringify(event)).toBe(true);
          expect(typeof event.pid === 'number' && typeof event.tid === 'number', JSON.stringify(event)).toBe(true);
          expect(typeof event.ts === 'number' || event.ph === 'M', JSON.stringify(event)).toBe(true);
        }
        const names = new Set(trace.traceEvents.map((event) => event.name));
        for (const name of [
          'TracingStartedInBrowser',
          'navigationStart',
          'largestContentfulPaint::Candidate',
          'LayoutShift',
          'EventTiming',
          'RunTask',
        ]) {
          expect(names.has(name), name).toBe(true);
        }
        // The main frame DevTools reads from TracingStartedInBrowser is the one that navigated (over
        // chrome.debugger the event is tabpilot's: the browser records only the tab's renderer there).
        const tracingStarted = trace.traceEvents.find((event) => event.name === 'TracingStartedInBrowser');
        const navigation = trace.traceEvents.find(
          (event) =>
            event.name === 'navigationStart' &&
            event.args?.data?.documentLoaderURL?.includes('/perf/vitals.html') === true,
        );
        expect(navigation?.args?.frame).toBeDefined();
        const mainFrames = (tracingStarted?.args?.data?.frames ?? [])
          .filter((frame) => frame.parent === undefined)
          .map((frame) => frame.frame);
        expect(mainFrames).toContain(navigation?.args?.frame);
        // The page's URL carried a configured secret: the file holds its placeholder, never the value.
        expect(text).not.toContain(PERF_SECRET);
        expect(text).toContain('perf_token');
      } finally {
        await hooks.configure(driver, { sensitive_data: {} });
      }
    });

    it('a trace still running when the client releases the tab is ended and thrown away', async () => {
      await driver.ok('performance_start', { file_name: 'traces/released.json' });
      tab = await hooks.releaseAndAttach(driver, tab);
      expect(await driver.send('performance_stop', { tab_id: tab })).toMatchObject({
        ok: false,
        error: { code: 'ELEMENT_NOT_FOUND' },
      });
      expect(existsSync(hooks.fileOf('traces/released.json'))).toBe(false);
      // The browser traces no more: a new trace starts. Without a page load its load figures are null; what
      // is typed during it is timed as interactions, and is nowhere in the file.
      await driver.ok('performance_start', { tab_id: tab, file_name: 'traces/after-release.json' });
      const state = await driver.ok<{ text: string }>('state', { tab_id: tab });
      const field = /\[(\d+)\][^\n]*field/.exec(state.text)?.[1];
      expect(field, state.text).toBeDefined();
      await driver.ok('input', { tab_id: tab, index: Number(field), text: TYPED_TEXT });
      expect(await driver.evaluateInTab<string>(tab, 'document.getElementById("field").value')).toBe(TYPED_TEXT);
      // The text goes in as one insert; a key pressed after it is an interaction the browser times.
      await driver.ok('send_keys', { tab_id: tab, keys: 'Enter' });
      await pollUntil(
        async () => ((await driver.evaluateInTab<number>(tab, 'window.timedInteractions')) > 1 ? true : undefined),
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the typing was never timed by the page') },
      );
      const answer = await driver.ok<PerformanceAnswer>('performance_stop', { tab_id: tab });
      expect(answer).toMatchObject({ lcp_ms: null, dom_content_loaded_ms: null, load_ms: null });
      expect(answer.interactions).toBeGreaterThan(0);
      expect(answer.inp_ms).toBeGreaterThanOrEqual(KEY_BUSY_MS);
      const text = readFileSync(hooks.fileOf('traces/after-release.json'), 'utf8');
      expect(text).toContain('EventTiming');
      expect(text).not.toContain(TYPED_TEXT);
    });

    it("replays offline in Playwright's routeFromHAR, embedded and attached alike", async () => {
      expect(embedded).toBeDefined();
      expect(attached).toBeDefined();
      await site.stop();
      const browser = await chromium.launch(PLAYWRIGHT_LAUNCH);
      try {
        for (const file of ['recordings/embed.har', 'recordings/attach.har']) {
          const context = await browser.newContext();
          await context.routeFromHAR(hooks.fileOf(file), { notFound: 'abort' });
          const page = await context.newPage();
          await page.goto(site.url('/har/index.html'));
          await page.waitForFunction(() => document.getElementById('posted')?.textContent === 'posted 42');
          expect(await page.textContent('#out'), file).toBe('loaded from data.json');
          expect(await page.evaluate(() => getComputedStyle(document.querySelector('h1') as Element).color), file).toBe(
            'rgb(0, 128, 0)',
          );
          expect(
            await page.evaluate(() => (document.querySelector('img') as HTMLImageElement).naturalWidth),
            file,
          ).toBe(1);
          await context.close();
        }
      } finally {
        await browser.close();
      }
    });

    it('refuses a HAR path outside the output folder, naming the field, and writes nothing there', async () => {
      // The config change is awaited until every watchdog acted on it, so whoever saved it hears the refusal.
      const refusal = await hooks.configure(driver, { record_har_path: '../outside.har' }).then(
        () => 'applied',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      expect(refusal).toMatch(/record_har_path: .*outside/);
      const failure = await pollUntil(
        async () => {
          const history = JSON.parse(await hooks.history(driver)) as Array<{
            type: string;
            handlers: Array<{ status: string; error?: { message: string } }>;
          }>;
          return history
            .filter((record) => record.type === 'ConfigChangedEvent')
            .flatMap((record) => record.handlers)
            .find((handler) => handler.status === 'error')?.error?.message;
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the bad path was not refused') },
      );
      expect(failure).toMatch(/^record_har_path: .*outside/);
      expect(existsSync(join(dirname(hooks.fileOf('x.har')), '..', 'outside.har'))).toBe(false);
      await hooks.configure(driver, { record_har_path: null });
    });
  });
}
