import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; focused: boolean }>;
  focused_tab_id: string | null;
}

/**
 * The worker is stopped (CDP Target.closeTarget on it, as Chrome does when it idles) while tabs are
 * attached. The debugger sessions survive it; the new worker resumes them, child
 * (OOPIF) sessions included, and restores the focus, so commands keep working.
 */
describe('extension worker restart', () => {
  const server = new FixtureServer();
  let driver: ExtensionDriver;

  beforeAll(async () => {
    await server.start();
    driver = await ExtensionDriver.start();
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  async function childMarker(tabId: string): Promise<unknown> {
    const children = await pollUntil(
      async () => {
        const found = await driver.evaluateInChildren(tabId, "document.getElementById('marker')?.textContent");
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`no child session in tab ${tabId}`) },
    );
    return children[0]?.value;
  }

  it('resumes the attached tabs, their child sessions and the focus in a new worker', async () => {
    const frames = await driver.openTab(server.url('/frames.html'));
    const plain = await driver.openTab(server.url('/a.html'));
    await driver.ok('switch', { tab_id: frames, activate: false });
    expect(await childMarker(frames)).toBe('child marker 42');
    const bootBefore = await driver.inWorker<string>('globalThis.tabpilot.session.bus.history()[0]?.id');

    await driver.restartWorker();

    const bootAfter = await driver.inWorker<string>('globalThis.tabpilot.session.bus.history()[0]?.id');
    expect(bootAfter).not.toBe(bootBefore);
    const tabs = await driver.ok<TabsResult>('tabs');
    expect(tabs.tabs.map((tab) => tab.tab_id).sort()).toEqual([frames, plain].sort());
    expect(tabs.focused_tab_id).toBe(frames);
    expect(await childMarker(frames)).toBe('child marker 42');
  });

  it('keeps serving commands after the restart: navigation with lifecycle waits, new tabs, close', async () => {
    const result = await driver.ok<{ url: string; loading_status: string | null }>('navigate', {
      url: server.url('/slow-load.html?ms=300'),
    });
    expect(result.loading_status).toBeNull();
    expect(server.last('/slow-image')?.finishedAt).toBeDefined();
    const opened = await driver.ok<{ tab_id: string }>('navigate', { url: server.url('/b.html'), new_tab: true });
    expect((await driver.ok<TabsResult>('tabs')).tabs.map((tab) => tab.tab_id)).toContain(opened.tab_id);
    await driver.ok('close', { tab_id: opened.tab_id });
  });

  it('does not take tabs it was never given, before or after the restart', async () => {
    const focused = (await driver.ok<TabsResult>('tabs')).focused_tab_id ?? '';
    await driver.ok('switch', { tab_id: focused, activate: true });
    // Chrome gives a tab opened while a controlled tab is active that tab as its openerTabId, as it does
    // for Ctrl+T; no page opened it, so it is not tabpilot's.
    await driver.client.createTab(server.url('/c.html'));
    // The page then opens a popup, which is adopted; by then the earlier tab has been seen too.
    await driver.ok('navigate', { url: server.url('/opener.html') });
    const controlled = await pollUntil(
      async () => {
        const { tabs } = await driver.ok<TabsResult>('tabs');
        return tabs.some((tab) => tab.url.includes('/popup.html')) ? tabs : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the popup was never adopted') },
    );
    expect(controlled.map((tab) => tab.url)).not.toContainEqual(expect.stringContaining('/c.html'));
    await driver.restartWorker();
    const after = await driver.ok<TabsResult>('tabs');
    expect(after.tabs.map((tab) => tab.tab_id).sort()).toEqual(controlled.map((tab) => tab.tab_id).sort());
    const all = await driver.ok<{ tabs: Array<{ url: string; controlled: boolean }> }>('tabs', { all: true });
    expect(all.tabs.find((tab) => tab.url.includes('/c.html'))?.controlled).toBe(false);
  });
});
