import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { PanelPage } from './harness/panel';

/**
 * The panel's forms as a person fills them, in the built extension: actions grouped with readable
 * names, one way to give scroll's direction, optional nested fields not marked required, numbers as
 * number inputs, an address that is no address refused before it is sent; settings in groups without
 * the Node-only ones, nulls shown as the default, lists edited as lists, unsaved changes marked and reset.
 */
describe('side panel forms', () => {
  const server = new FixtureServer();
  let driver: ExtensionDriver;
  let panel: PanelPage;

  beforeAll(async () => {
    await server.start();
    driver = await ExtensionDriver.start();
    await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
    await panel.click('#attach');
    await panel.waitForText('#tabs', 'Page A');
    await panel.view('actions');
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  it('groups the actions under page, tabs, content and session, with readable names', async () => {
    const groups = await panel.eval<string[]>(
      `[...document.querySelectorAll('#action-select optgroup')].map((group) => group.label)`,
    );
    expect(groups).toEqual(expect.arrayContaining(['Page', 'Tabs', 'Content', 'Session']));
    const navigate = await panel.eval<{ group: string; text: string }>(`(() => {
      const option = document.querySelector('#action-select option[value="navigate"]');
      return { group: option.parentElement.label, text: option.textContent };
    })()`);
    expect(navigate).toEqual({ group: 'Page', text: 'Go to a URL (navigate)' });
    const storage = await panel.eval<{ group: string; text: string }>(`(() => {
      const option = document.querySelector('#action-select option[value="web_storage"]');
      return { group: option.parentElement.label, text: option.textContent };
    })()`);
    expect(storage).toEqual({ group: 'Content', text: 'Web storage (web_storage)' });
    expect(await panel.text('#run-action')).toBe('Run: Go to a URL');
  });

  it('offers scroll one way to say the direction, and runs it', async () => {
    await panel.select('#action-select', 'scroll');
    await panel.waitFor(`document.querySelector('[data-field="direction"] select')`, 'the direction field');
    expect(await panel.exists('[data-field="down"]')).toBe(false);
    await panel.select('[data-field="direction"] select', 'up');
    const before = await panel.shown('action-output');
    await panel.click('#run-action');
    expect(await panel.response('action-output', before)).toMatchObject({ ok: true, result: { direction: 'up' } });
  });

  it('marks only what must be given as required, and numbers are number inputs', async () => {
    await panel.select('#action-select', 'screenshot');
    await panel.waitFor(`document.querySelector('[data-field="clip.x"]')`, 'the clip fields');
    for (const field of ['clip.x', 'clip.y', 'clip.width', 'clip.height']) {
      expect(await panel.exists(`[data-field="${field}"] .required`), field).toBe(false);
    }
    expect(await panel.eval(`document.querySelector('[data-field="quality"] input').type`)).toBe('number');
    await panel.select('#action-select', 'navigate');
    await panel.waitFor(`document.querySelector('[data-field="url"] .required')`, 'url marked required');
    expect(await panel.eval(`document.querySelector('[data-field="timeout_ms"] input').type`)).toBe('number');
  });

  it('refuses an address that is no address before sending it, saying what it expected', async () => {
    const sent = (): Promise<number> =>
      driver.inWorker<number>(
        `globalThis.tabpilot.timeline.entries().filter((entry) => entry.type === 'NavigateToUrlEvent').length`,
      );
    const navigationsBefore = await sent();
    await panel.type('[data-field="url"] input', 'not a url');
    await panel.waitFor(`document.getElementById('run-action').disabled`, 'Run to be disabled');
    expect(await panel.text('#run-blocked')).toBe(
      '“not a url” is not a web address: give a host such as example.com, or a whole URL such as https://example.com.',
    );
    await panel.click('#run-action');
    expect(await sent()).toBe(navigationsBefore);
    await panel.type('[data-field="url"] input', server.url('/b.html').replace('http://', ''));
    await panel.waitFor(`!document.getElementById('run-action').disabled`, 'Run to be enabled for a bare host');
  });

  it('shows the settings in groups without the Node-only ones, nulls as the default, lists as lists', async () => {
    await panel.view('settings');
    await panel.waitFor(`document.querySelector('details[data-group="general"]')`, 'the General group');
    const groups = await panel.eval<string[]>(
      `[...document.querySelectorAll('details.settings-group > summary')].map((summary) => summary.textContent)`,
    );
    expect(groups[0]).toBe('General');
    expect(groups).toEqual(expect.arrayContaining(['State', 'Timeouts', 'Dialogs']));
    for (const nodeOnly of ['launch', 'output_dir', 'connect']) {
      expect(await panel.exists(`[data-field="${nodeOnly}"]`), nodeOnly).toBe(false);
    }
    expect(await panel.text('#settings-node-only')).toContain('launch');
    expect(await panel.text('[data-field="viewport"] .null-value')).toBe('default (tabpilot decides)');
    expect(await panel.exists('[data-field="upload_paths"] .list-add')).toBe(true);
    expect(await panel.exists('[data-field="upload_paths"] textarea')).toBe(false);
  });

  it('marks unsaved changes and resets them', async () => {
    expect(await panel.exists('#settings-unsaved')).toBe(false);
    expect(await panel.eval<boolean>(`document.getElementById('reset-settings').disabled`)).toBe(true);
    await panel.type('[data-field="cdp_timeout_ms"] input', '4321');
    await panel.click('[data-field="upload_paths"] .list-add');
    await panel.type('[data-field="upload_paths"] .list-item input', '/tmp/uploads');
    await panel.waitForText('#settings-unsaved', 'Unsaved changes');
    await panel.click('#reset-settings');
    await panel.waitFor(`!document.getElementById('settings-unsaved')`, 'the unsaved mark to go');
    expect(await panel.eval(`document.querySelector('[data-field="cdp_timeout_ms"] input').value`)).toBe('30000');
    expect(await panel.exists('[data-field="upload_paths"] .list-item')).toBe(false);
    expect(await driver.inWorker('globalThis.tabpilot.session.config.cdp_timeout_ms')).toBe(30_000);
  });
});
