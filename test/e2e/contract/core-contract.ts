import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { CommandResponse, EventMessage } from '../../../src/protocol/commands';
import { ExtensionDriver, type Driver } from '../harness/drivers';
import { FixtureServer, html, page } from '../harness/fixture-server';

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; title: string; focused: boolean; controlled: boolean }>;
  focused_tab_id: string | null;
}

/**
 * The core runtime's contract, run unchanged against both transports (one core over two
 * transports). Every check looks through the command protocol or tabpilot's own session, never through a
 * second automation client on the test pages; timing is read from the fixture server's side.
 */
export function defineCoreContract(name: string, start: () => Promise<Driver>): void {
  describe(`core contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();

    beforeAll(async () => {
      server.route('/never-answers.html', () => undefined);
      server.route('/policy-blocked.html', (_req, res) => html(res, page('Blocked by policy', '<h1>Blocked</h1>')));
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
      // The server holds the image until the test releases it: the page cannot reach load before the check.
      const result = await driver.ok<{ loading_status: string | null }>('navigate', {
        url: server.url('/slow-load.html?hold=dcl-image'),
        wait_until: 'domcontentloaded',
      });
      expect(result.loading_status).toBeNull();
      // DOMContentLoaded can come before the image's request reaches the server: wait for it, bounded.
      const image = await server.arrival('/slow-image', 'hold=dcl-image');
      expect(image).toBeDefined();
      expect(image.finishedAt).toBeUndefined();
      server.release('dcl-image');
    });

    it('navigates with wait_until commit: returns while the document is still streaming', async () => {
      await driver.ok('navigate', { url: server.url('/stream.html?hold=commit-body'), wait_until: 'commit' });
      const document = server.last('/stream.html', 'hold=commit-body');
      expect(document).toBeDefined();
      expect(document?.finishedAt).toBeUndefined();
      server.release('commit-body');
    });

    it('navigates with wait_until networkidle: returns only after the late fetch', async () => {
      // The page keeps a request to /gate in flight until the test releases it, then fetches /late; Chrome
      // calls the network idle 500 ms after the last request, so only after /late.
      await driver.ok('navigate', { url: server.url('/late-fetch.html?gate=after-load'), wait_until: 'load' });
      await server.arrival('/gate', 'key=after-load');
      expect(server.last('/late', 'key=after-load')).toBeUndefined();
      let lateRequestedOnReturn: boolean | undefined;
      const navigation = driver
        .ok<{ loading_status: string | null }>('navigate', {
          url: server.url('/late-fetch.html?gate=idle'),
          wait_until: 'networkidle',
          timeout_ms: 15_000,
        })
        .then((result) => {
          lateRequestedOnReturn = server.last('/late', 'key=idle') !== undefined;
          return result;
        });
      await server.arrival('/gate', 'key=idle');
      // The gate is held, so the network cannot be idle yet.
      expect(lateRequestedOnReturn).toBeUndefined();
      expect(server.last('/late', 'key=idle')).toBeUndefined();
      server.release('idle');
      const result = await navigation;
      expect(result.loading_status).toBeNull();
      expect(lateRequestedOnReturn).toBe(true);
      expect(server.requests.filter((r) => r.path === '/late').length).toBeGreaterThanOrEqual(1);
      server.release('after-load');
    });

    it('reports a readiness timeout in loading_status rather than failing', async () => {
      // The image (so the load event) waits for a release that comes only after the answer.
      const result = await driver.ok<{ loading_status: string | null }>('navigate', {
        url: server.url('/slow-load.html?hold=readiness-timeout'),
        timeout_ms: 300,
      });
      expect(result.loading_status).toMatch(/timeout after 0.3s waiting for 'load'/);
      server.release('readiness-timeout');
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

    it("goes to the browser's own pages only when allowed_schemes lists them and the transport can drive them, keeping the tab either way", async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      // Refused by default, before anything is sent.
      expect(await driver.send('navigate', { url: 'chrome://version' })).toMatchObject({
        ok: false,
        error: { code: 'URL_BLOCKED', details: { rule: driver.kind === 'node' ? 'allowed_schemes' : 'browser_page' } },
      });
      await driver.setConfig({ allowed_schemes: ['chrome'] });
      try {
        const response = await driver.send('navigate', { url: 'chrome://version' });
        if (driver.kind === 'node') {
          // Over a WebSocket tabpilot owns the browser: its own pages are pages like any other, once allowed.
          expect(response).toMatchObject({ ok: true, result: { url: 'chrome://version/' } });
        } else {
          // chrome.debugger would be detached from the tab there and the tab lost: refused before it goes,
          // whatever allowed_schemes says.
          expect(response).toMatchObject({
            ok: false,
            error: { code: 'URL_BLOCKED', details: { rule: 'browser_page' } },
          });
          expect(JSON.stringify(response)).toMatch(/the tab would be lost/);
          expect((await driver.ok<TabsResult>('tabs')).tabs.find((tab) => tab.focused)?.url).toBe(
            server.url('/a.html'),
          );
        }
      } finally {
        await driver.setConfig({ allowed_schemes: [] });
      }
      expect(await driver.ok('navigate', { url: server.url('/b.html') })).toMatchObject({ url: server.url('/b.html') });
    });

    it('refuses a navigation in the NavigationStartedEvent policy hook before its request leaves', async () => {
      await driver.ok('navigate', { url: server.url('/a.html') });
      const removePolicy = await driver.refuseNavigations('/policy-blocked');
      try {
        const refused = await driver.send('navigate', { url: server.url('/policy-blocked.html') });
        expect(refused).toMatchObject({ ok: false, error: { code: 'URL_BLOCKED' } });
        expect(JSON.stringify(refused)).toContain("refused by the test's navigation policy");
      } finally {
        await removePolicy();
      }
      // The page stayed, and the server never saw the request.
      expect((await driver.ok<TabsResult>('tabs')).tabs.find((tab) => tab.focused)?.url).toBe(server.url('/a.html'));
      expect(server.last('/policy-blocked.html')).toBeUndefined();
      // The same URL loads once the policy is gone: the refusal was the hook's.
      await driver.ok('navigate', { url: server.url('/policy-blocked.html') });
      expect(server.last('/policy-blocked.html')).toBeDefined();
    });

    it('announces a closed tab once, whether the close action or the page itself closed it', async () => {
      await driver.ok('subscribe', { events: ['TabClosedEvent'] });
      const events: EventMessage[] = [];
      const closedAnnouncements = (tabId: string): EventMessage[] =>
        events.filter(
          (e) =>
            e.event === 'TabClosedEvent' &&
            String((e.data as { target_id: string }).target_id)
              .toLowerCase()
              .endsWith(tabId.toLowerCase()),
        );
      const byAction = await driver.openTab(server.url('/a.html?closed-by-action'));
      await driver.ok('close', { tab_id: byAction });
      // A page may close only a window a script opened: the opener page closes its popup. The opener
      // opens through navigate, so it is controlled before its load handler opens the popup (a tab opened as a
      // person would and attached after may have opened it already, and its popup is then nobody's).
      const opener = await driver.ok<{ tab_id: string }>('navigate', {
        url: server.url(`/opener.html?target=${encodeURIComponent('/b.html?closes-itself')}`),
        new_tab: true,
      });
      const byPage = await pollUntil(
        async () =>
          (await driver.ok<TabsResult>('tabs')).tabs.find((tab) => tab.url.endsWith('/b.html?closes-itself'))?.tab_id,
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the popup never showed /b.html') },
      );
      // Its opener closes it: an evaluation in the popup that closed it could lose its answer with the tab
      // (CI failed twice with 'target detached', once with the close put on the popup's next task).
      await driver.evaluateInTab(opener.tab_id, 'window.popup.close(), true');
      await waitForEvent(events, () => closedAnnouncements(byPage).length > 0);
      // One more close after both: a late second announcement of either would come before this one's.
      const barrier = await driver.openTab(server.url('/c.html?barrier'));
      await driver.ok('close', { tab_id: barrier });
      await waitForEvent(events, () => closedAnnouncements(barrier).length > 0);
      expect(closedAnnouncements(byAction)).toHaveLength(1);
      expect(closedAnnouncements(byPage)).toHaveLength(1);
      expect(closedAnnouncements(barrier)).toHaveLength(1);
      const open = (await driver.ok<TabsResult>('tabs')).tabs.map((tab) => tab.tab_id);
      expect(open).not.toContain(byAction);
      expect(open).not.toContain(byPage);
      await driver.ok('unsubscribe');
    });

    it('answers go_back at the first page of a tab with an error, and the tab stays where it was', async () => {
      const tab = await driver.openTab(server.url('/a.html?first-page'));
      // Over the WebSocket, navigate opens a new tab at about:blank and then goes to the page: walk back to the
      // first entry, whatever it is (at most one step).
      let refused: CommandResponse | undefined;
      for (let step = 0; step < 2 && refused === undefined; step++) {
        const answer = await driver.send('go_back', { tab_id: tab });
        refused = answer.ok ? undefined : answer;
      }
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'NAVIGATION_FAILED', message: expect.stringMatching(/first page/) },
      });
      const first = (await driver.ok<TabsResult>('tabs')).tabs.find((entry) => entry.tab_id === tab)?.url;
      expect(await driver.send('go_back', { tab_id: tab })).toMatchObject({
        ok: false,
        error: { code: 'NAVIGATION_FAILED' },
      });
      // The refusal moved nothing: the tab is still at its first entry, and forward leads to the page.
      expect((await driver.ok<TabsResult>('tabs')).tabs.find((entry) => entry.tab_id === tab)?.url).toBe(first);
      if (first !== server.url('/a.html?first-page')) {
        expect(await driver.ok('go_forward', { tab_id: tab })).toMatchObject({ url: server.url('/a.html?first-page') });
      }
      expect(await driver.send('go_forward', { tab_id: tab })).toMatchObject({
        ok: false,
        error: { code: 'NAVIGATION_FAILED', message: expect.stringMatching(/last page/) },
      });
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

    it('releases by each transport rule: the extension lets tabs go and they stay open; Node lets go of the browser, which keeps running, and attach reconnects', async () => {
      const kept = await driver.openTab(server.url('/a.html?kept'));
      // A mark in the document: found again after the release only if the page was never closed or reloaded.
      await driver.evaluateInTab(kept, 'window.__keptMark = 42');
      if (driver instanceof ExtensionDriver) {
        const released = await driver.openTab(server.url('/b.html?released'));
        await driver.evaluateInTab(released, 'window.__keptMark = 43');
        expect(await driver.debuggerAttachedTo(server.url('/b.html?released'))).toBe(true);
        expect(await driver.ok('release', { tab_id: released })).toEqual({ released_tab_ids: [released] });
        const tabs = await driver.ok<TabsResult>('tabs');
        expect(tabs.tabs.map((tab) => tab.tab_id)).not.toContain(released);
        expect(tabs.tabs.map((tab) => tab.tab_id)).toContain(kept);
        // The tab is still open, no longer controlled, and the debugger has let it go.
        expect((await driver.ok<TabsResult>('tabs', { all: true })).tabs).toContainEqual(
          expect.objectContaining({ tab_id: released, url: server.url('/b.html?released'), controlled: false }),
        );
        expect(await driver.debuggerAttachedTo(server.url('/b.html?released'))).toBe(false);
        expect(await driver.send('state', { tab_id: released })).toMatchObject({
          ok: false,
          error: { code: 'TAB_NOT_FOUND' },
        });
        // Without a tab_id every controlled tab goes; then nothing is attached.
        const rest = await driver.ok<{ released_tab_ids: string[] }>('release');
        expect(rest.released_tab_ids).toContain(kept);
        expect((await driver.ok<TabsResult>('tabs')).tabs).toEqual([]);
        expect(await driver.debuggerAttachedTo(server.url('/a.html?kept'))).toBe(false);
        expect(await driver.send('state')).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
        await driver.ok('attach', { tab_id: released });
        expect(await driver.evaluateInTab(released, 'window.__keptMark')).toBe(43);
        await driver.ok('attach', { tab_id: kept });
      } else {
        expect(await driver.send('release', { tab_id: kept })).toMatchObject({
          ok: false,
          error: { code: 'INVALID_PARAMS', details: { field: 'tab_id' } },
        });
        const before = (await driver.ok<TabsResult>('tabs')).tabs.map((tab) => tab.tab_id);
        const released = await driver.ok<{ released_tab_ids: string[] }>('release');
        expect([...released.released_tab_ids].sort()).toEqual([...before].sort());
        expect(await driver.send('state')).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
        expect(await driver.send('navigate', { url: server.url('/b.html') })).toMatchObject({
          ok: false,
          error: { code: 'NOT_ATTACHED' },
        });
        await driver.ok('attach');
      }
      // The same browser and the same document: the tab kept its id, its page and the mark in it.
      const after = await driver.ok<TabsResult>('tabs');
      expect(after.tabs.find((tab) => tab.tab_id === kept)?.url).toBe(server.url('/a.html?kept'));
      expect(await driver.evaluateInTab(kept, 'window.__keptMark')).toBe(42);
      expect(server.requests.filter((r) => r.path === '/a.html' && r.query === '?kept')).toHaveLength(1);
    });
  });
}
