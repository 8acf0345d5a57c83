import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { PanelPage } from './harness/panel';

/**
 * Chrome stops the worker whenever it likes; the panel's port dies with it. The panel
 * comes back by itself, the settings and the timeline are still there, and a command that was in flight
 * gets an error with a Retry, never silence.
 */
describe('side panel across a worker restart', () => {
  const server = new FixtureServer();
  let driver: ExtensionDriver;
  let panel: PanelPage;

  beforeAll(async () => {
    await server.start();
    driver = await ExtensionDriver.start();
    await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  it('keeps the settings and the timeline, and the panel reconnects on its own', async () => {
    await panel.click('#attach');
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    await panel.view('settings');
    await panel.type('[data-field="cdp_timeout_ms"] input', '4321');
    await panel.click('#save-settings');
    await panel.waitForText('#settings-result', 'Saved and applied');
    await panel.view('actions');
    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.url('/b.html'));
    await panel.click('#run-action');
    expect(await panel.response('action-output')).toMatchObject({ ok: true });
    const navigationId = await pollUntil(
      () =>
        driver.inWorker<string | undefined>(
          `chrome.storage.session.get('tabpilot.timeline').then((items) => (items['tabpilot.timeline'] ?? []).find((entry) => entry.type === 'NavigateToUrlEvent' && entry.status === 'completed')?.id)`,
        ),
      { timeoutMs: 5_000, intervalMs: 100, onTimeout: () => new Error('the navigation was not saved in the timeline') },
    );
    const oldPort = await driver.inWorker<number>('globalThis.tabpilot.hub.size');
    expect(oldPort).toBeGreaterThanOrEqual(1);

    // Nothing but the panel's own reconnect starts the new worker.
    await driver.restartWorker({ wake: false });

    await panel.view('timeline');
    await panel.waitForText('#timeline', 'Extension worker restarted', 15_000);
    await panel.waitForConnected();
    expect(await panel.exists(`#timeline .tl-node[data-id="${navigationId}"]`)).toBe(true);
    expect(await driver.inWorker('globalThis.tabpilot.session.config.cdp_timeout_ms')).toBe(4321);
    await panel.view('settings');
    await panel.waitFor(
      `document.querySelector('[data-field="cdp_timeout_ms"] input')?.value === '4321'`,
      'the saved setting in the form',
    );
    await panel.waitForText('#tabs', 'Page B');
    expect(await panel.text('#debugger-state')).toBe('Debugger attached to 1 tab');
    expect(await driver.inWorker<number>('globalThis.tabpilot.hub.size')).toBeGreaterThanOrEqual(1);
  });

  it('answers a command cut short by the worker stopping with an error and a Retry that runs it again', async () => {
    await panel.view('actions');
    await panel.select('#action-select', 'wait');
    await panel.type('[data-field="seconds"] input', '3');
    await panel.click('#run-action');
    await panel.waitFor(`document.getElementById('action-output-busy')`, 'the command to be running');

    await driver.restartWorker({ wake: false });

    const cut = await panel.response('action-output');
    expect(cut).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    expect(await panel.text('.actions-view .error-line')).toContain('DISCONNECTED');
    await panel.waitForConnected();
    await panel.click('#action-output-retry');
    const retried = await panel.response('action-output', cut);
    expect(retried).toMatchObject({ ok: true, result: { waited_seconds: 3 } });
  });
});
