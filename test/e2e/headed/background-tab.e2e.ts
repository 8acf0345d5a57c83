import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtensionDriver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { decodePng } from '../harness/image';
import { addFormPage } from '../harness/panel-fixtures';
import { VirtualDisplay } from '../harness/virtual-display';

interface StateResult {
  url: string;
  screenshot: string | null;
  elements: Array<{ index: number; tag: string; name: string }>;
}

/**
 * A visible window (headed, under Xvfb) whose front tab is the person's; tabpilot works in a tab behind
 * it. Reading, clicking and typing there must never bring it to the front.
 */
describe('headed: a background tab of a visible window', () => {
  const server = new FixtureServer();
  addFormPage(server);
  let display: VirtualDisplay;
  let driver: ExtensionDriver;
  let formTab: string;

  /** The person's tab is still the one in front, and the worked-in tab is still hidden. */
  async function expectStillInBackground(): Promise<void> {
    const front = await driver.inWorker<string>(
      `chrome.tabs.query({ active: true, lastFocusedWindow: true }).then(([tab]) => tab.url || tab.pendingUrl)`,
    );
    expect(front).toBe(server.url('/a.html'));
    expect(await driver.evaluateInTab(formTab, 'document.visibilityState')).toBe('hidden');
  }

  beforeAll(async () => {
    await server.start();
    display = await VirtualDisplay.start();
    process.env['DISPLAY'] = display.display;
    driver = await ExtensionDriver.start({ headless: false, args: ['--window-position=0,0'] });
    const formTarget = await driver.client.createTab(server.url('/panel-form.html'));
    // The person's tab opens last, in front of it.
    await driver.client.createTab(server.url('/a.html'));
    formTab = (await driver.ok<{ tab_id: string }>('attach', { tab_id: formTarget.slice(-4) })).tab_id;
    await expectStillInBackground();
  });

  afterAll(async () => {
    await driver?.close();
    await display?.stop();
    await server.stop();
  });

  it('reads its state and screenshot without bringing it to the front', async () => {
    const state = await driver.ok<StateResult>('state', { tab_id: formTab, include_screenshot: true });
    expect(state.url).toBe(server.url('/panel-form.html'));
    expect(state.elements.some((element) => element.tag === 'button' && element.name === 'Go')).toBe(true);
    expect(state.screenshot).not.toBeNull();
    const format = state.screenshot?.startsWith('iVBOR') === true ? 'png' : 'jpeg';
    if (format === 'png') {
      expect(decodePng(Buffer.from(state.screenshot ?? '', 'base64')).width).toBeGreaterThan(0);
    } else {
      expect(Buffer.from(state.screenshot ?? '', 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    await expectStillInBackground();
  });

  it('clicks and types in it without bringing it to the front', async () => {
    const state = await driver.ok<StateResult>('state', { tab_id: formTab });
    const go = state.elements.find((element) => element.tag === 'button' && element.name === 'Go');
    const name = state.elements.find((element) => element.tag === 'input');
    if (go === undefined || name === undefined) {
      throw new Error(`the form's button and field are not in the state: ${JSON.stringify(state.elements)}`);
    }
    await driver.ok('click', { index: go.index });
    expect(await driver.evaluateInTab(formTab, `document.getElementById('out').textContent`)).toBe('clicked 1');
    await driver.ok('input', { index: name.index, text: 'typed in the background' });
    expect(await driver.evaluateInTab(formTab, `document.getElementById('name').value`)).toBe(
      'typed in the background',
    );
    await expectStillInBackground();
  });
});
