import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil, sleep } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer, html, page } from '../harness/fixture-server';

/**
 * The emergency stop takes effect at once, whatever is running: the running command and every command
 * queued behind it are answered CANCELLED, and nothing stays attached. Run over both transports. The
 * bound asserted is functional (far below what the stopped work would have taken); how fast a stop is
 * goes in `npm run bench`.
 */
export function defineStopContract(name: string, start: () => Promise<Driver>): void {
  describe(`emergency stop over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    /** Far below what the stopped work would take (20 s and more): the stop did not wait behind it. */
    const AT_ONCE_MS = 3000;
    /** The stop's own answer may include killing a browser tabpilot launched (Node), but never the work. */
    const STOP_ANSWER_MS = 10_000;

    beforeAll(async () => {
      // A document that never answers: a navigation to it waits for its readiness until stopped.
      server.route('/never.html', () => undefined);
      // A page whose main thread is stuck in a loop once told to (stuckSoon): every call into it hangs.
      server.route('/stuck.html', (_req, res) => html(res, page('Stuck', '<p>stuck soon</p>', '')));
      await server.start();
      driver = await start();
      await driver.openTab(server.url('/a.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    /**
     * Sends `stop` while `pending` runs: how long until `pending` was answered (the stop took effect),
     * and the stop's own answer.
     */
    async function stopWhile(
      pending: Promise<CommandResponse>,
    ): Promise<{ cancelled: CommandResponse; cancelledMs: number; stopped: CommandResponse }> {
      const started = performance.now();
      const stop = driver.send('stop');
      const cancelled = await pending;
      const cancelledMs = performance.now() - started;
      const stopped = await stop;
      expect(performance.now() - started).toBeLessThan(STOP_ANSWER_MS);
      return { cancelled, cancelledMs, stopped };
    }

    async function whenRunning(record: string): Promise<void> {
      await pollUntil(async () => ((await driver.runningEvents()).includes(record) ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 20,
        onTimeout: () => new Error(`${record} never started`),
      });
    }

    it('cancels a long wait and the commands queued behind it, at once', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      const wait = driver.send('wait', { seconds: 20 });
      const queued = [driver.send('scroll', { direction: 'down' }), driver.send('tabs')];
      await whenRunning('WaitEvent');
      const { cancelled, cancelledMs, stopped } = await stopWhile(wait);
      expect(cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(cancelledMs).toBeLessThan(AT_ONCE_MS);
      // The running wait, and the scroll and tabs queued behind it.
      expect(stopped).toMatchObject({ ok: true, result: { stopped: true, cancelled: 3 } });
      for (const answer of await Promise.all(queued)) {
        expect(answer).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      }
      await driver.ok('attach');
    });

    it('cancels a wait for a text that never comes', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      const wait = driver.send('wait_for_text', { text: 'never on this page', timeout: 30 });
      await whenRunning('WaitForTextEvent');
      const { cancelled, cancelledMs, stopped } = await stopWhile(wait);
      expect(cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(cancelledMs).toBeLessThan(AT_ONCE_MS);
      expect(stopped).toMatchObject({ ok: true, result: { stopped: true, cancelled: 1 } });
      await driver.ok('attach');
    });

    it('cancels a navigation that is waiting for a page that never answers', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      const navigation = driver.send('navigate', { url: server.url('/never.html'), timeout_ms: 60_000 });
      await whenRunning('NavigateToUrlEvent');
      const { cancelled, cancelledMs, stopped } = await stopWhile(navigation);
      expect(cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(cancelledMs).toBeLessThan(AT_ONCE_MS);
      expect(stopped).toMatchObject({ ok: true, result: { stopped: true, cancelled: 1 } });
      await driver.ok('attach');
    });

    /**
     * Resolves once the tab's main thread no longer answers: a state sent before that could finish before
     * the page's loop began, and never be seen running.
     */
    async function untilStuck(tabId: string): Promise<void> {
      await pollUntil(
        async () => {
          // A probe the stuck page never answers stays pending until the stop lets the tab go.
          const answered = driver.evaluateInTab(tabId, '1').then(
            () => true,
            () => true,
          );
          return (await Promise.race([answered, sleep(500).then(() => false)])) ? undefined : true;
        },
        { timeoutMs: 10_000, intervalMs: 20, onTimeout: () => new Error('the page never got stuck') },
      );
    }

    it('cancels a state of a page whose script is stuck, and leaves nothing attached', async () => {
      await driver.ok('navigate', { url: server.url('/stuck.html') });
      const tabId = (await driver.ok<{ focused_tab_id: string }>('tabs')).focused_tab_id;
      // The loop starts a moment after the evaluate that schedules it has answered.
      await driver.evaluateInTab(tabId, 'setTimeout(() => { for (;;) {} }, 50), true');
      await untilStuck(tabId);
      const state = driver.send('state');
      await whenRunning('BrowserStateRequestEvent');
      const { cancelled, cancelledMs, stopped } = await stopWhile(state);
      expect(cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(cancelledMs).toBeLessThan(AT_ONCE_MS);
      expect(stopped).toMatchObject({ ok: true, result: { stopped: true } });
      expect(await driver.send('tabs')).toMatchObject({ ok: true, result: { tabs: [] } });
      expect(await driver.send('state')).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
    });
  });
}
