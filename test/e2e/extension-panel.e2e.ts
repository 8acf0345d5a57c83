import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CdpSession } from '../../src/cdp/session';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, EXTENSION_ID, evaluate, launchTestBrowser, PANEL_URL } from './harness/browser';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import { FixtureServer } from './harness/fixture-server';

/**
 * The side panel page (opened as a tab, as the platform facts recommend for tests) attaches the person's
 * current tab and sends a command over its runtime port; a web page cannot reach the worker at all.
 */
describe('side panel page over the runtime port', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;
  let client: BrowserClient;
  let panel: CdpSession;

  async function output(): Promise<{ ok?: boolean; result?: Record<string, unknown>; error?: { code: string } }> {
    return pollUntil(
      async () => {
        const text = await evaluate<string>(panel, "document.getElementById('output').textContent");
        return text === '' ? undefined : (JSON.parse(text) as { ok?: boolean });
      },
      { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error('the panel showed no answer') },
    );
  }

  async function click(id: string): Promise<void> {
    await evaluate(
      panel,
      `document.getElementById('output').textContent = ''; document.getElementById(${JSON.stringify(id)}).click()`,
    );
  }

  beforeAll(async () => {
    await server.start();
    browser = await launchTestBrowser({ extension: true });
    client = await BrowserClient.connect(browser.cdpUrl);
    await client.serviceWorker();
    // The person's tab, in front; the panel opens behind it so the tab stays the "current" one.
    await client.createTab(server.url('/a.html'));
    const panelTarget = (await client.root.send('Target.createTarget', { url: PANEL_URL, background: true })).targetId;
    panel = await client.attach(panelTarget);
    await pollUntil(
      async () =>
        (await evaluate(panel, "document.getElementById('status')?.textContent")) === 'connected' ? true : undefined,
      {
        timeoutMs: 10_000,
        onTimeout: () => new Error('the panel never connected to the worker'),
      },
    );
  });

  afterAll(async () => {
    client?.close();
    await browser?.kill();
    await server.stop();
  });

  it('attaches the current tab and shows the answer', async () => {
    await click('attach');
    const answer = await output();
    expect(answer).toMatchObject({ ok: true, result: { url: server.url('/a.html'), focused: true } });
    await pollUntil(
      async () =>
        (await evaluate<string>(panel, "document.getElementById('tabs').textContent")).includes('Page A')
          ? true
          : undefined,
      {
        timeoutMs: 5_000,
        onTimeout: () => new Error('the panel did not list the attached tab'),
      },
    );
  });

  it('sends a command from the form and shows its result or its error', async () => {
    await evaluate(
      panel,
      `document.getElementById('action').value = 'navigate'; document.getElementById('params').value = JSON.stringify({ url: ${JSON.stringify(server.url('/b.html'))} })`,
    );
    await click('send');
    expect(await output()).toMatchObject({ ok: true, result: { url: server.url('/b.html') } });
    await evaluate(
      panel,
      `document.getElementById('action').value = 'navigate'; document.getElementById('params').value = '{"url": 5}'`,
    );
    await click('send');
    expect(await output()).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
  });

  it('gives web pages no way to reach the worker', async () => {
    const page = await client.attach(await client.createTab(server.url('/c.html')));
    const reachable = await evaluate(
      page,
      `typeof chrome === 'object' && typeof chrome.runtime === 'object' && typeof chrome.runtime.connect === 'function'`,
    );
    expect(reachable).toBe(false);
    const viaMessage = await evaluate(
      page,
      `(async () => { try { await chrome.runtime.sendMessage(${JSON.stringify(EXTENSION_ID)}, { id: 1, action: 'tabs' }); return 'sent'; } catch (e) { return 'refused'; } })()`,
    );
    expect(viaMessage).toBe('refused');
  });
});
