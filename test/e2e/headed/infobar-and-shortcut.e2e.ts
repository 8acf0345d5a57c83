import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import { ExtensionDriver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { PanelPage } from '../harness/panel';
import { findPrimaryButton, VirtualDisplay } from '../harness/virtual-display';

/** The bar sits right above the page; it is 56 px high. Above it, the toolbar. */
const INFOBAR_MAX_HEIGHT = 60;

/**
 * Headed Chromium under Xvfb, without --silent-debugger-extension-api, so Chrome shows its "started
 * debugging this browser" bar. The test presses the bar's real Cancel with the X
 * pointer: every tab is let go, the panel says why, and nothing attaches again until the person asks.
 * Then the keyboard emergency stop (manifest `commands`), pressed as real keys.
 */
describe('headed: the debugging bar Cancel and the keyboard emergency stop', () => {
  const server = new FixtureServer();
  let display: VirtualDisplay;
  let driver: ExtensionDriver;
  let panel: PanelPage;

  const controlledCount = (): Promise<number> => driver.inWorker('globalThis.tabpilot.router.controlled().length');
  const fixtureTabIds = (): Promise<number[]> =>
    driver.inWorker(
      `chrome.tabs.query({}).then((tabs) => tabs.filter((tab) => tab.url.startsWith(${JSON.stringify(server.url('/'))})).map((tab) => tab.id))`,
    );
  /** The Cancel button of the debugging bar, found on the X screen above the page's content. */
  const cancelButton = async (): Promise<ReturnType<typeof findPrimaryButton>> => {
    const contentTop = await driver.inWorker<number>(`(async () => {
      const session = globalThis.tabpilot.session;
      const cdp = session.targets.requireSession(session.targets.focusedTargetId);
      const { result } = await cdp.send('Runtime.evaluate', { expression: 'screenY + outerHeight - innerHeight', returnByValue: true });
      return result.value;
    })()`);
    return findPrimaryButton(display.screen(), { top: contentTop - INFOBAR_MAX_HEIGHT, bottom: contentTop });
  };

  beforeAll(async () => {
    await server.start();
    display = await VirtualDisplay.start();
    process.env['DISPLAY'] = display.display;
    driver = await ExtensionDriver.start({ headless: false, infobar: true, args: ['--window-position=0,0'] });
    await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
  });

  afterAll(async () => {
    await driver?.close();
    await display?.stop();
    await server.stop();
  });

  it('pressing Cancel on the real debugging bar lets every tab go, says so, and nothing re-attaches', async () => {
    await panel.click('#attach');
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    await driver.ok('navigate', { url: server.url('/b.html'), new_tab: true });
    await panel.waitForText('#debugger-state', 'attached to 2 tabs');
    const button = await pollUntil(cancelButton, {
      timeoutMs: 10_000,
      intervalMs: 200,
      onTimeout: () => new Error('the debugging bar with its Cancel button never showed on the screen'),
    });

    await display.click(button.x + button.width / 2, button.y + button.height / 2);

    await pollUntil(async () => ((await controlledCount()) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('Cancel did not detach the tabs'),
    });
    expect(await driver.inWorker('globalThis.tabpilot.router.userCancelled')).toBe(true);
    await panel.waitFor(`document.getElementById('cancelled-banner')`, 'the panel to say Cancel was pressed');
    expect(await panel.text('#debugger-state')).toBe('Debugger not attached');
    await panel.view('timeline');
    await panel.waitForText('#timeline', 'You pressed Cancel on the debugging bar');
    const stopped = await driver.inWorker<string>(
      `JSON.stringify(globalThis.tabpilot.timeline.entries().filter((entry) => entry.type === 'BrowserStoppedEvent'))`,
    );
    expect(stopped).toContain('canceled_by_user');

    // Everything that could bring it back: reloads, and a tab opened from a once-controlled tab.
    // The page opens a popup (window.open, with a user gesture), as a controlled page's popup is adopted.
    const opener = await driver.client.attach(
      (await driver.client.pageTargets()).find((target) => target.url.endsWith('/a.html'))?.targetId ?? '',
    );
    const popup = await opener.send('Runtime.evaluate', {
      expression: `window.open(${JSON.stringify(server.url('/c.html'))}) !== null`,
      userGesture: true,
      returnByValue: true,
    });
    expect(popup.result.value, 'the page opened its popup').toBe(true);
    await driver.client.root.send('Target.detachFromTarget', { sessionId: opener.sessionId });
    await driver.inWorker(`Promise.all(${JSON.stringify(await fixtureTabIds())}.map((id) => chrome.tabs.reload(id)))`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await controlledCount()).toBe(0);
    const attached = await driver.inWorker<string[]>(
      `chrome.debugger.getTargets().then((targets) => targets.filter((t) => t.attached && t.url.startsWith(${JSON.stringify(server.url('/'))})).map((t) => t.url))`,
    );
    expect(attached).toEqual([]);
    const where = { top: button.y - 10, bottom: button.y + button.height + 10 };
    expect(findPrimaryButton(display.screen(), where), 'the debugging bar is gone').toBeUndefined();
  });

  it('comes back only when the person attaches again', async () => {
    const before = await panel.shown('output');
    await panel.click('#attach');
    expect(await panel.response('output', before)).toMatchObject({ ok: true });
    expect(await driver.inWorker('globalThis.tabpilot.router.userCancelled')).toBe(false);
    await panel.waitFor(`!document.getElementById('cancelled-banner')`, 'the Cancel notice to go');
    await pollUntil(cancelButton, {
      timeoutMs: 10_000,
      intervalMs: 200,
      onTimeout: () => new Error('the debugging bar did not come back after attaching again'),
    });
  });

  it('the keyboard emergency stop detaches every tab and says so in the timeline', async () => {
    const commands = await driver.inWorker<Array<{ name: string; shortcut: string }>>('chrome.commands.getAll()');
    expect(commands.find((command) => command.name === 'emergency-stop')?.shortcut).toBe('Alt+Shift+S');
    expect(await controlledCount()).toBe(1);

    await display.pressInWindow('[Cc]hromium', 'alt+shift+s');

    await pollUntil(async () => ((await controlledCount()) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('the keyboard shortcut did not stop tabpilot'),
    });
    await panel.view('timeline');
    await panel.waitForText('#timeline', 'Emergency stop (keyboard shortcut)');
    await panel.waitForText('#debugger-state', 'not attached');
  });
});
