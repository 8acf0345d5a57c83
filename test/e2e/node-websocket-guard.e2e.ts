import { afterAll, describe, expect, it } from 'vitest';
import { NodeDriver } from './harness/drivers';

/**
 * The launched browser holds WebSockets through its guard extension (node-request-policy.e2e.ts shows the
 * handshakes held). Where the guard cannot run (extensions turned off by the person's flags) the session
 * says so, as a BrowserErrorEvent, instead of holding nothing in silence.
 */
describe('the WebSocket guard of a launched browser', () => {
  let driver: NodeDriver | undefined;
  afterAll(async () => {
    await driver?.close();
  });

  it('announces WebSocketsNotHeld when the browser runs no guard and the policy has WebSocket rules', async () => {
    driver = await NodeDriver.start({
      config: { prohibited_domains: ['evil.example'] },
      args: ['--disable-extensions'],
    });
    const errors = driver.session.bus
      .history()
      .filter((view) => view.type === 'BrowserErrorEvent')
      .map((view) => view.payload);
    expect(errors).toContainEqual(
      expect.objectContaining({ error_type: 'WebSocketsNotHeld', details: { rules: expect.any(Number) } }),
    );
    // The session works on: only WebSockets go unheld.
    expect(await driver.send('navigate', { url: 'about:blank' })).toMatchObject({ ok: true });
  });
});
