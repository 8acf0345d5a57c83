import { CdpConnectionClosedError } from '../../src/cdp/errors';
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
    await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    // The click is the Stop: it may end the browser (and its pipe) before the release is answered.
    await page
      .send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 })
      .catch((error: unknown) => {
        if (!(error instanceof CdpConnectionClosedError)) {
          throw error;
        }
      });
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
