import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { EventMessage } from '../../../src/protocol/commands';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; title: string; focused: boolean; controlled: boolean }>;
  focused_tab_id: string | null;
}

/**
 * The core runtime's contract, run unchanged against both transports (DESIGN §4: one core over two
 * transports). Every check looks through the command protocol or tabpilot's own session, never through a
 * second automation client on the test pages; timing is read from the fixture server's side.
 */
export function defineCoreContract(name: string, start: () => Promise<Driver>): void {
  describe(`core contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();

    beforeAll(async () => {
      server.route('/never-answers.html', () => undefined);
      await server.start();
      driver = await start();
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    async function waitForEvent(
      events: EventMessage[],
      predicate: (event: EventMessage) => boolean,
      timeoutMs = 10_000,
    ): Promise<EventMessage> {
      return pollUntil(
        async () => {
          events.push(...(await driver.takeEvents()));
          return events.find(predicate);
        },
        {
          timeoutMs,
          intervalMs: 50,
          onTimeout: () => new Error(`no matching event among ${events.map((e) => e.event).join(', ')}`),
        },
      );
    }

    it('navigates with wait_until load: returns after the slow image arrived', async () => {
      await driver.openTab(server.url('/a.html'));
      const result = await driver.ok<{ url: string; loading_status: string | null }>('navigate', {
        url: server.url('/slow-load.html?ms=1200'),
        wait_until: 'load',
      });
      expect(result.url).toBe(server.url('/slow-load.html?ms=1200'));
      expect(result.loading_status).toBeNull();
      expect(server.last('/slow-image')?.finishedAt).toBeDefined();
    });

    it('navigates with wait_until domcontentloaded: returns while the image is still loading', async () => {
      const result = await driver.ok<{ loading_status: string | null }>('navigate', {
        url: server.url('/slow-load.html?ms=6000'),
        wait_until: 'domcontentloaded',
      });
      expect(result.loading_status).toBeNull();
      const image = server.last('/slow-image');
      expect(image).toBeDefined();
      expect(image?.finishedAt).toBeUndefined();
    });

    it('navigates with wait_until commit: returns while the document is still streaming', async () => {
      await driver.ok('navigate', { url: server.url('/stream.html?ms=2500'), wait_until: 'commit' });
      const document = server.last('/stream.html');
      expect(document).toBeDefined();
      expect(document?.finishedAt).toBeUndefined();
    });

    it('navigates with wait_until networkidle: returns only after the late fetch', async () => {
      // The page fetches /late 300 ms after load; Chrome calls the network idle 500 ms after the last request.
      await driver.ok('navigate', { url: server.url('/late-fetch.html?delay=300'), wait_until: 'load' });
      expect(server.last('/late')).toBeUndefined();
      const result = await driver.ok<{ loading_status: string | null }>('navigate', {
        url: server.url('/late-fetch.html?delay=300'),
        wait_until: 'networkidle',
        timeout_ms: 15_000,
      });
      expect(result.loading_status).toBeNull();
      expect(server.requests.filter((r) => r.path === '/late').length).toBeGreaterThanOrEqual(1);
    });

    it('reports a readiness timeout in loading_status rather than failing', async () => {
      const result = await driver.ok<{ loading_status: string | null }>('navigate', {
        url: server.url('/slow-load.html?ms=3000'),
        timeout_ms: 300,
      });
      expect(result.loading_status).toMatch(/timeout after 0.3s waiting for 'load'/);
    });

    it('fails an unreachable URL with NAVIGATION_FAILED', async () => {
      const response = await driver.send('navigate', { url: 'http://127.0.0.1:1/nothing' });
      expect(response).toMatchObject({ ok: false, error: { code: 'NAVIGATION_FAILED' } });
    });

    it('gives up on a server that never answers and leaves the tab usable', async () => {
      await driver.openTab(server.url('/a.html'));
      await driver.setConfig({ timeouts: { NavigateToUrlEvent: 3000 } });
      try {
        const response = await driver.send('navigate', { url: server.url('/never-answers.html') });
        expect(response).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
      } finally {
        await driver.setConfig({ timeouts: {} });
      }
      // A pending navigation would hold back every command to the page (the state would time out): it was stopped.
      const state = await driver.ok<{ url: string; text: string; state_error: string | null }>('state');
      expect(state).toMatchObject({ url: server.url('/a.html'), state_error: null });
      expect(state.text).toContain('Page A');
    });

    it('goes back and forward through the tab history', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      await driver.ok('navigate', { url: server.url('/b.html') });
      expect((await driver.ok<{ url: string }>('go_back')).url).toBe(server.url('/a.html'));
      expect((await driver.ok<{ url: string }>('go_forward')).url).toBe(server.url('/b.html'));
      expect((await driver.ok<{ url: string }>('refresh')).url).toBe(server.url('/b.html'));
    });

    it('announces a tab opened by window.open and one opened by a target=_blank link', async () => {
      await driver.ok('subscribe', { events: ['TabCreatedEvent'] });
      const events: EventMessage[] = [];
      const openedBy = (tabId: string) => (e: EventMessage) =>
        e.event === 'TabCreatedEvent' &&
        String((e.data as { opener_target_id: string | null }).opener_target_id)
          .toLowerCase()
          .endsWith(tabId.toLowerCase());
      const opener = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/opener.html') });
      await waitForEvent(events, openedBy(opener.tab_id));
      await pollUntil(
        async () =>
          (await driver.ok<TabsResult>('tabs')).tabs.some((tab) => tab.url.includes('/popup.html')) ? true : undefined,
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () => new Error('the window.open tab never showed /popup.html'),
        },
      );
      await driver.ok('switch', { tab_id: opener.tab_id });
      events.length = 0;
      await driver.ok('navigate', { url: server.url('/blank-link.html') });
      // Chrome opens a target=_blank link only for a trusted click; the core contract clicks through
      // tabpilot's own CDP session, so it does not rest on the click action.
      await driver.clickInTab(opener.tab_id, '#out');
      await waitForEvent(events, openedBy(opener.tab_id));
      await pollUntil(
        async () =>
          (await driver.ok<TabsResult>('tabs')).tabs.some((tab) => tab.url.includes('/c.html')) ? true : undefined,
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () => new Error('the target=_blank tab never showed /c.html'),
        },
      );
      await driver.ok('unsubscribe');
    });

    it('switches between tabs and closes one, recovering focus to another controlled tab', async () => {
      const first = await driver.openTab(server.url('/a.html'));
      const second = await driver.openTab(server.url('/b.html'));
      expect((await driver.ok<{ tab_id: string }>('switch', { tab_id: first })).tab_id).toBe(first);
      expect((await driver.ok<TabsResult>('tabs')).focused_tab_id).toBe(first);
      await driver.ok('switch', { tab_id: second });
      const closed = await driver.ok<{ focused_tab_id: string | null }>('close', { tab_id: second });
      const tabs = await driver.ok<TabsResult>('tabs');
      expect(tabs.tabs.map((tab) => tab.tab_id)).not.toContain(second);
      expect(closed.focused_tab_id).not.toBeNull();
      expect(tabs.tabs.map((tab) => tab.tab_id)).toContain(closed.focused_tab_id);
      expect(await driver.send('switch', { tab_id: second })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
    });

    it('gives a cross-origin iframe its own child session', async () => {
      const tab = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/frames.html') });
      const children = await pollUntil(
        async () => {
          const found = await driver.evaluateInChildren(
            tab.tab_id,
            "document.getElementById('marker')?.textContent + ' @ ' + location.host",
          );
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the OOPIF never got a child session') },
      );
      expect(children[0]).toMatchObject({ type: 'iframe', value: `child marker 42 @ 127.0.0.1:${server.port}` });
    });

    it('answers bad input with a stable error code and keeps working', async () => {
      expect(await driver.send('navigate', { url: 42 })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS' },
      });
      expect(await driver.send('teleport')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_ACTION' } });
      expect(await driver.send('close', { tab_id: 'nope' })).toMatchObject({
        ok: false,
        error: { code: 'TAB_NOT_FOUND' },
      });
      expect((await driver.ok<TabsResult>('tabs')).tabs.length).toBeGreaterThan(0);
    });

    it('refuses javascript: URLs with URL_BLOCKED before they reach the page (Page.navigate would run them)', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      for (const url of [
        "javascript:document.title='ran'",
        " JavaScript:document.title='ran'",
        'java\tscript:void 0',
      ]) {
        expect(await driver.send('navigate', { url }), url).toMatchObject({
          ok: false,
          error: { code: 'URL_BLOCKED' },
        });
        expect(await driver.send('navigate', { url, new_tab: true }), url).toMatchObject({
          ok: false,
          error: { code: 'URL_BLOCKED' },
        });
      }
      const tabs = await driver.ok<TabsResult>('tabs');
      expect(tabs.tabs.map((tab) => tab.title)).not.toContain('ran');
      expect(tabs.tabs.find((tab) => tab.focused)?.url).toBe(server.url('/a.html'));
    });

    it("goes to the browser's own pages only where the transport can drive them, and keeps the tab either way", async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      const response = await driver.send('navigate', { url: 'chrome://version' });
      if (driver.kind === 'node') {
        // Over a WebSocket tabpilot owns the browser: its own pages are pages like any other.
        expect(response).toMatchObject({ ok: true, result: { url: 'chrome://version/' } });
      } else {
        // chrome.debugger would be detached from the tab there and the tab lost: refused before it goes.
        expect(response).toMatchObject({ ok: false, error: { code: 'URL_BLOCKED' } });
        expect(JSON.stringify(response)).toMatch(/the tab would be lost/);
        expect((await driver.ok<TabsResult>('tabs')).tabs.find((tab) => tab.focused)?.url).toBe(server.url('/a.html'));
      }
      expect(await driver.ok('navigate', { url: server.url('/b.html') })).toMatchObject({ url: server.url('/b.html') });
    });

    it('recovers focus when the focused tab closes and no other is left, by each transport rule', async () => {
      let tabs = await driver.ok<TabsResult>('tabs');
      for (const tab of tabs.tabs.slice(0, -1)) {
        await driver.ok('close', { tab_id: tab.tab_id });
      }
      tabs = await driver.ok<TabsResult>('tabs');
      expect(tabs.tabs).toHaveLength(1);
      const last = tabs.tabs[0]?.tab_id ?? '';
      const pagesBefore = await driver.browserPageCount();
      await driver.ok('close', { tab_id: last });
      const after = await driver.ok<TabsResult>('tabs');
      if (driver.kind === 'node') {
        // tabpilot owns this browser: there is always a tab to work in.
        expect(after.tabs).toHaveLength(1);
        expect(after.tabs[0]?.url).toBe('about:blank');
        expect(after.focused_tab_id).toBe(after.tabs[0]?.tab_id);
      } else {
        // The person's browser: nothing is opened, nothing else is taken; commands say NOT_ATTACHED.
        expect(after.tabs).toHaveLength(0);
        expect(after.focused_tab_id).toBeNull();
        expect(await driver.browserPageCount()).toBe(pagesBefore - 1);
        expect(await driver.send('navigate', { url: server.url('/a.html') })).toMatchObject({
          ok: false,
          error: { code: 'NOT_ATTACHED' },
        });
        await driver.openTab(server.url('/a.html'));
        expect((await driver.ok<TabsResult>('tabs')).tabs).toHaveLength(1);
      }
    });
  });
}
