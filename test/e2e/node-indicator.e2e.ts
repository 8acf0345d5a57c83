import { pollUntil } from '../../src/shared/time';
import { defineIndicatorContract } from './contract/indicator-contract';
import { NodeDriver, type Driver } from './harness/drivers';

function node(driver: Driver): NodeDriver {
  if (!(driver instanceof NodeDriver)) {
    throw new Error('the Node indicator test needs the Node driver');
  }
  return driver;
}

defineIndicatorContract('the Node WebSocket transport', () => NodeDriver.start(), {
  pressAt: async (driver, tabId, x, y) => {
    const { session } = node(driver);
    const page = session.targets.requireSession(session.tabIds.targetFor(tabId) ?? '');
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    for (const type of ['mousePressed', 'mouseReleased'] as const) {
      await page.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
    }
  },
  // Node's stop lets go of the browser it launched: the session says stopped.
  waitForStopped: async (driver) => {
    const { session } = node(driver);
    await pollUntil(() => (session.connectionState === 'stopped' ? true : undefined), {
      timeoutMs: 15_000,
      intervalMs: 100,
      onTimeout: () => new Error(`the session never stopped (${session.connectionState})`),
    });
  },
});
