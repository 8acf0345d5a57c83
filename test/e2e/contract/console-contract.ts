import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

interface Listed {
  messages: Array<{
    level: string;
    source: string;
    text: string;
    url: string | null;
    line: number | null;
    column: number | null;
    stack: string | null;
  }>;
  total: number;
  dropped: number;
  mark: number;
}

const READY_TITLE = 'console ready';

/** The page's script, line by line: the lines the messages must name. */
const APP_JS = [
  "console.log('plain log', 42, { a: 1, b: 'x' });",
  "console.info('an info');",
  "console.warn('a warning %s', 'formatted');",
  "console.debug('a debug');",
  "console.error('an error', new Error('logged error'));",
  "function explode() { throw new Error('uncaught boom'); }",
  'setTimeout(explode, 0);',
  "Promise.reject(new Error('rejected nope'));",
  "fetch('/console/missing.json').catch(() => undefined);",
  "new Worker('/console/worker.js');",
  "document.getElementById('again').addEventListener('click', () => console.log('after the mark'));",
  `setTimeout(() => { document.title = '${READY_TITLE}'; }, 100);`,
].join('\n');

/**
 * console_messages, the same over both transports: a real page that logs at every level, throws, leaves
 * a promise rejected and fails a load gives each message its level, text and place (the script's URL,
 * 1-based line), errors their stack; the filters, the mark and a new page's fresh list hold.
 */
export function defineConsoleContract(name: string, start: () => Promise<Driver>): void {
  describe(`console_messages over ${name}`, () => {
    const site = new FixtureServer();
    site.route('/console/index.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        `<!doctype html><title>console page</title><button id="again">again</button><iframe src="${site.crossUrl('/console/frame.html')}"></iframe><script src="/console/app.js"></script>`,
      );
    });
    site.route('/console/app.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end(APP_JS);
    });
    site.route('/console/frame.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><script>console.warn('from the frame')</script>`);
    });
    site.route('/console/worker.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end(`console.info('from the worker')`);
    });
    site.route('/console/quiet.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`<!doctype html><title>quiet page</title><script>console.log('the quiet page')</script>`);
    });
    let driver: Driver;
    let tab: string;

    beforeAll(async () => {
      await site.start();
      driver = await start();
      tab = await driver.openTab('about:blank');
    });

    afterAll(async () => {
      await driver?.close();
      await site.stop().catch(() => undefined);
    });

    it('lists the levels, texts, places and stacks of a page’s messages, filtered, since a mark, anew after a navigation', async () => {
      await driver.ok('navigate', { url: site.url('/console/index.html') });
      await pollUntil(
        async () => ((await driver.evaluateInTab<string>(tab, 'document.title')) === READY_TITLE ? true : undefined),
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the console page never finished') },
      );
      let last: Listed | undefined;
      const all = await pollUntil(
        async () => {
          last = await driver.ok<Listed>('console_messages', {});
          const texts = last.messages.map((message) => message.text);
          return last.messages.some((message) => message.source === 'browser') &&
            texts.includes('from the frame') &&
            texts.includes('from the worker')
            ? last
            : undefined;
        },
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () =>
            new Error(`the failed load, the frame's or the worker's message was never listed: ${JSON.stringify(last)}`),
        },
      );
      const script = site.url('/console/app.js');
      const bySource = (source: string) =>
        all.messages.filter((message) => message.source === source && message.url === script);
      // The cross-site frame (its own process, its own session) and the worker count toward their tab.
      expect(all.messages.find((message) => message.text === 'from the frame')).toMatchObject({
        level: 'warning',
        url: site.crossUrl('/console/frame.html'),
      });
      expect(all.messages.find((message) => message.text === 'from the worker')).toMatchObject({
        level: 'info',
        url: site.url('/console/worker.js'),
      });
      expect(bySource('console').map((message) => [message.level, message.text.split('\n')[0], message.line])).toEqual([
        ['log', 'plain log 42 {a: 1, b: "x"}', 1],
        ['info', 'an info', 2],
        ['warning', 'a warning formatted', 3],
        ['debug', 'a debug', 4],
        ['error', 'an error Error: logged error', 5],
      ]);
      for (const message of bySource('console')) {
        expect(message.url).toBe(script);
        expect(message.column).toBe(9);
        // Only the error carries its stack.
        expect(message.stack === null).toBe(message.level !== 'error');
      }
      const exceptions = bySource('exception');
      // Which is reported first (the timer's throw or the rejection, reported after a task of its own) is
      // Chromium's business: they are compared in line order.
      expect(
        exceptions
          .map((message) => [message.level, message.text, message.url, message.line])
          .sort((a, b) => Number(a[3]) - Number(b[3])),
      ).toEqual([
        ['error', 'Uncaught Error: uncaught boom', script, 6],
        ['error', 'Uncaught (in promise) Error: rejected nope', script, 8],
      ]);
      const thrown = exceptions.find((message) => message.line === 6);
      expect(thrown?.column).toBeGreaterThan(1);
      expect(thrown?.stack).toContain(`at explode (${script}:6:`);
      const rejected = exceptions.find((message) => message.line === 8);
      expect(rejected?.stack).toContain(`${script}:8:`);
      const failedLoad = all.messages.find(
        (message) => message.source === 'browser' && message.url === site.url('/console/missing.json'),
      );
      expect(failedLoad).toMatchObject({ level: 'error', text: expect.stringContaining('404') });
      expect(all.total).toBe(all.messages.length);
      expect(all.dropped).toBe(0);

      const errors = await driver.ok<Listed>('console_messages', { levels: ['error'] });
      expect(errors.messages.every((message) => message.level === 'error')).toBe(true);
      expect(errors.total).toBe(all.messages.filter((message) => message.level === 'error').length);
      expect(errors.total).toBeGreaterThanOrEqual(4);
      const warnings = await driver.ok<Listed>('console_messages', { levels: ['warning', 'info'] });
      expect(warnings.messages.map((message) => message.text).sort()).toEqual(
        ['a warning formatted', 'an info', 'from the frame', 'from the worker'].sort(),
      );
      const boom = await driver.ok<Listed>('console_messages', { text_contains: 'UNCAUGHT BOOM' });
      expect(boom.messages.map((message) => message.text)).toEqual(['Uncaught Error: uncaught boom']);
      const newest = await driver.ok<Listed>('console_messages', { max_results: 2 });
      expect(newest.messages).toEqual(all.messages.slice(-2));
      expect(newest.total).toBe(all.total);

      // The state says how many errors came since the tab's last state (this tab had none), then none more.
      expect(await driver.ok<{ console_errors: number }>('state', {})).toMatchObject({ console_errors: errors.total });
      expect(await driver.ok<{ console_errors: number }>('state', {})).toMatchObject({ console_errors: 0 });

      // A mark: only what came after it.
      await driver.clickInTab(tab, '#again');
      const afterMark = await pollUntil(
        async () => {
          const listed = await driver.ok<Listed>('console_messages', { since_mark: all.mark });
          return listed.total > 0 ? listed : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the click never logged') },
      );
      expect(afterMark.messages.map((message) => message.text)).toEqual(['after the mark']);
      expect(afterMark.mark).toBeGreaterThan(all.mark);
      expect(await driver.ok<Listed>('console_messages', { since_mark: afterMark.mark })).toMatchObject({
        messages: [],
        total: 0,
      });

      // A new page (another site, so another renderer) starts the list anew; the marks still count on.
      await driver.ok('navigate', { url: site.crossUrl('/console/quiet.html') });
      const quiet = await pollUntil(
        async () => {
          last = await driver.ok<Listed>('console_messages', {});
          return last.messages.some((message) => message.text === 'the quiet page') ? last : undefined;
        },
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () => new Error(`the quiet page's message was never listed: ${JSON.stringify(last)}`),
        },
      );
      expect(quiet.messages.filter((message) => message.source !== 'browser').map((message) => message.text)).toEqual([
        'the quiet page',
      ]);
      expect(quiet.mark).toBeGreaterThan(afterMark.mark);
      expect(
        (await driver.ok<Listed>('console_messages', { since_mark: afterMark.mark })).messages.map(
          (message) => message.text,
        ),
      ).toContain('the quiet page');

      expect(await driver.send('console_messages', { tab_id: 'no-such-tab' })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
      expect(await driver.send('console_messages', { levels: ['warn'] })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'levels.0' } },
      });
    });
  });
}
