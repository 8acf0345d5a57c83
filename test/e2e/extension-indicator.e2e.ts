import { expect } from 'vitest';
import type { CdpSession } from '../../src/cdp/session';
import { pollUntil } from '../../src/shared/time';
import { defineIndicatorContract } from './contract/indicator-contract';
import { evaluate } from './harness/browser';
import { ExtensionDriver, type Driver } from './harness/drivers';

function extension(driver: Driver): ExtensionDriver {
  if (!(driver instanceof ExtensionDriver)) {
    throw new Error('the extension indicator test needs the extension driver');
  }
  return driver;
}

/** The test's own CDP session of a tab (tabpilot's is the extension's chrome.debugger one). */
const own = new Map<string, CdpSession>();
async function ownSession(driver: ExtensionDriver, tabId: string): Promise<CdpSession> {
  const known = own.get(tabId);
  if (known !== undefined) {
    return known;
  }
  const targetId = await driver.inWorker<string>(
    `globalThis.tabpilot.session.tabIds.targetFor(${JSON.stringify(tabId)})`,
  );
  const session = await driver.client.attach(targetId);
  own.set(tabId, session);
  return session;
}

defineIndicatorContract('the extension (chrome.debugger)', () => ExtensionDriver.start(), {
  pressAt: async (driver, tabId, x, y) => {
    const page = await ownSession(extension(driver), tabId);
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    for (const type of ['mousePressed', 'mouseReleased'] as const) {
      await page.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
    }
  },
  lookWithoutTabpilot: async (driver, tabId, expression) =>
    evaluate(await ownSession(extension(driver), tabId), expression),
  // The emergency stop: every tab let go, the toolbar says stopped, the timeline says who pressed it,
  // and the indicator leaves the page with tabpilot's debugger.
  waitForStopped: async (driver, tabId) => {
    const ext = extension(driver);
    const page = await ownSession(ext, tabId);
    await pollUntil(
      async () => {
        const [text, controlled] = await ext.inWorker<[string, number]>(
          'Promise.all([chrome.action.getBadgeText({}), globalThis.tabpilot.router.controlled().length])',
        );
        return text === 'stop' && controlled === 0 ? true : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the stop never let go of the tab') },
    );
    const notes = await ext.inWorker<string[]>(
      `globalThis.tabpilot.timeline.entries().map((entry) => entry.text ?? '')`,
    );
    expect(notes.some((note) => note.includes(`Emergency stop (Stop in tab ${tabId})`))).toBe(true);
    await pollUntil(
      async () =>
        (await evaluate<boolean>(page, `document.querySelector('tabpilot-control-indicator') === null`))
          ? true
          : undefined,
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the indicator outlived the stop') },
    );
    // Attaching again ends the stopped state, and the tab shows the indicator again.
    await ext.ok('attach', { tab_id: tabId });
    await pollUntil(
      async () => ((await ext.inWorker<string>('chrome.action.getBadgeText({})')) === '1' ? true : undefined),
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the badge still says stopped') },
    );
    await pollUntil(
      async () =>
        (await evaluate<boolean>(page, `document.querySelector('tabpilot-control-indicator') !== null`))
          ? true
          : undefined,
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the indicator did not come back') },
    );
  },
});
