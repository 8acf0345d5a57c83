import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostClient } from '../../../src/platform/node/native/host-client';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import { FixtureServer } from '../harness/fixture-server';
import { NativeChain } from '../harness/native';
import { PanelPage } from '../harness/panel';
import { findPrimaryButton, VirtualDisplay } from '../harness/virtual-display';

/** The bar sits right above the page; it is 56 px high. */
const INFOBAR_MAX_HEIGHT = 60;
const CANCEL_HOLD = 'the person cancelled the debugging bar';

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

/**
 * Headed Chromium under Xvfb with Chrome's debugging bar, the real native host and a client on its
 * socket: the person presses the bar's real Cancel with the X pointer, and the client's attach, navigate
 * and new tab are refused FORBIDDEN naming the Cancel, even after the person attaches a tab again,
 * until the person presses Resume in the panel.
 */
describe('headed: the debugging bar’s Cancel holds every program until Resume', () => {
  const server = new FixtureServer();
  let display: VirtualDisplay;
  let chain: NativeChain;
  let panel: PanelPage;
  let client: HostClient;

  const cancelButton = async (): Promise<ReturnType<typeof findPrimaryButton>> => {
    const contentTop = await chain.inWorker<number>(`(async () => {
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
    chain = await NativeChain.start({ headless: false, infobar: true, args: ['--window-position=0,0'] });
    await chain.host();
    await chain.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(chain.client);
    client = await chain.connect('mcp:held');
  });

  afterAll(async () => {
    client?.close();
    await chain?.close();
    await display?.stop();
    await server.stop();
  });

  it('after Cancel, the client is refused FORBIDDEN naming it, an attach by the person does not lift it, Resume does', async () => {
    await panel.click('#attach');
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    const clientTab = ok<{ tab_id: string }>(await client.request('navigate', { url: server.url('/b.html') })).tab_id;
    const button = await pollUntil(cancelButton, {
      timeoutMs: 10_000,
      intervalMs: 200,
      onTimeout: () => new Error('the debugging bar with its Cancel button never showed on the screen'),
    });
    await display.click(button.x + button.width / 2, button.y + button.height / 2);
    await pollUntil(
      async () =>
        (await chain.inWorker<number>('globalThis.tabpilot.router.controlled().length')) === 0 ? true : undefined,
      { timeoutMs: 10_000, onTimeout: () => new Error('Cancel did not detach the tabs') },
    );
    await panel.waitFor(`document.getElementById('resume')`, 'Resume after Cancel');
    expect(await panel.text('#hold')).toContain(CANCEL_HOLD);

    const refusedAll = async (): Promise<void> => {
      for (const [action, params] of [
        ['attach', { tab_id: clientTab }],
        ['navigate', { url: server.url('/c.html') }],
        ['navigate', { url: server.url('/c.html'), new_tab: true }],
      ] as const) {
        expect(await client.request(action, params), action).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN', details: { hold: CANCEL_HOLD } },
        });
      }
    };
    await refusedAll();
    // The person attaching their tab again ends the Cancel for them, not for the programs.
    await panel.click('#attach');
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    await refusedAll();
    expect(await chain.inWorker('globalThis.tabpilot.router.controlled().length')).toBe(1);

    await panel.click('#resume');
    await panel.waitFor(`!document.getElementById('resume')`, 'Resume to go once pressed');
    expect(ok<{ tab_id: string }>(await client.request('attach', { tab_id: clientTab }))).toMatchObject({
      tab_id: clientTab,
    });
    expect(await client.request('navigate', { url: server.url('/c.html') })).toMatchObject({ ok: true });
  });
});
