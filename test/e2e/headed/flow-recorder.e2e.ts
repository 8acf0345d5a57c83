import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlow } from '../../../src/protocol/flow';
import { pollUntil } from '../../../src/shared/time';
import type { ReplayResult } from '../../../src/tools/flows/replay-action';
import { ExtensionDriver, NodeDriver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { addFlowPages } from '../harness/flow-pages';
import { PanelPage } from '../harness/panel';
import { VirtualDisplay } from '../harness/virtual-display';

const SECRET = 'Sw0rdf1sh-Kq7-Zx9';
const PATH = '/flows/signup.html';

/**
 * Headed Chromium under Xvfb with the extension: the person records the sign-up page with the real X
 * pointer and keyboard (xdotool), stops, and gets a flow whose steps name each element by its locator,
 * keep the typed secret as its sensitive_data name and no password anywhere (the flow, its file, the
 * bus's history); replayed, it signs up again, and its file in a fresh profile over the Node transport. A
 * program is refused the recording.
 */
describe('headed: recording a person’s sign-up as a flow, and replaying it', () => {
  const server = new FixtureServer();
  addFlowPages(server);
  const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-flow-recorder-'));
  let display: VirtualDisplay;
  let driver: ExtensionDriver;
  let tab: string;
  let panel: PanelPage;

  /** Where an element's centre is on the X screen (the window sits at 0,0 with no frame of a window manager). */
  const screenPoint = (selector: string): Promise<{ x: number; y: number }> =>
    driver.evaluateInTab<{ x: number; y: number }>(
      tab,
      `(() => {
        const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
        return { x: screenX + (outerWidth - innerWidth) / 2 + r.x + r.width / 2, y: screenY + outerHeight - innerHeight + r.y + r.height / 2 };
      })()`,
    );
  const click = async (selector: string): Promise<void> => {
    const { x, y } = await screenPoint(selector);
    await display.click(x, y);
  };
  const type = (text: string): Promise<string> => display.xdotool('type', '--delay', '30', text);

  beforeAll(async () => {
    await server.start();
    display = await VirtualDisplay.start();
    process.env['DISPLAY'] = display.display;
    driver = await ExtensionDriver.start({ headless: false, args: ['--window-position=0,0'], downloadsDir: downloads });
    const saved = await driver.inWorker<{ ok: boolean }>(
      `globalThis.tabpilot.settings.save(${JSON.stringify({ sensitive_data: { [new URL(server.url('/')).hostname]: { password: SECRET } } })})`,
    );
    expect(saved.ok).toBe(true);
    tab = await driver.openTab(server.url(PATH));
    panel = await PanelPage.open(driver.client);
  });

  afterAll(async () => {
    await driver?.close();
    await display?.stop();
    await server.stop();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('refuses a program: recording what a person types is the person’s alone', async () => {
    const refused = await driver.inWorker<{ ok: boolean; error?: { code: string } }>(`(async () => {
      const program = globalThis.tabpilot.server.connect({ id: 'program', kind: 'mcp' }, { send: () => undefined });
      try { return await program.handle({ id: 1, action: 'record_start', params: { tab_id: ${JSON.stringify(tab)} } }); }
      finally { program.close(); }
    })()`);
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('records clicks, typing, a choice and a checkbox as located steps, the secret by name, and replays them', async () => {
    // The person presses Record in the side panel's Flows: their focused tab, the sign-up, is recorded.
    await panel.view('flows');
    await panel.click('#record-flow');
    await panel.waitFor(`document.getElementById('recording-state')`, 'the panel to say it records');
    // A script's events are not the person's: nothing of this is recorded.
    await driver.evaluateInTab(
      tab,
      `document.getElementById('terms').click(); document.getElementById('terms').click()`,
    );
    await click('#name');
    await type('Ada Lovelace');
    await click('#email');
    await type('ada@example.test');
    await click('#password');
    await type(SECRET);
    // Tab moves to the plan; a letter chooses its option, as a person does without opening the list.
    await display.xdotool('key', 'Tab');
    await type('P');
    await click('#terms');
    await click('button[type=submit]');
    await pollUntil(
      async () =>
        (await driver.evaluateInTab<string>(tab, 'location.pathname')) === '/flows/welcome.html' ? true : undefined,
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the sign-up never reached the welcome page') },
    );

    await panel.click('#stop-recording');
    const saved = (await panel.waitForText('#recorded-flow', '.json')).replace(/^saved /, '');
    expect(saved).toMatch(/^flow-\d{8}-\d{6}\.json$/);
    const file = readFileSync(join(downloads, 'tabpilot', saved), 'utf8');
    const flow = parseFlow(JSON.parse(file));
    expect(flow).toEqual({
      format: 'tabpilot-flow',
      version: 1,
      name: 'Recorded flow',
      defaults: {},
      steps: [
        { action: 'navigate', url: server.url(PATH), expect: { path: PATH } },
        {
          action: 'fill',
          locator: { role: 'textbox', name: 'Full name' },
          input: { value: 'Ada Lovelace' },
          expect: { path: PATH },
        },
        {
          action: 'fill',
          locator: { role: 'textbox', name: 'Email' },
          input: { value: 'ada@example.test' },
          expect: { path: PATH },
        },
        { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' }, expect: { path: PATH } },
        { action: 'press', key: 'Tab', expect: { path: PATH } },
        {
          action: 'select',
          locator: { role: 'combobox', name: 'Plan' },
          input: { value: 'Pro' },
          expect: { path: PATH },
        },
        { action: 'click', locator: { role: 'checkbox', name: 'I accept the terms' }, expect: { path: PATH } },
        { action: 'click', locator: { role: 'button', name: 'Sign up' }, expect: { path: '/flows/welcome.html' } },
      ],
    });
    // The panel keeps it in its list of flows, opened, its steps in words: the secret by its name only.
    await panel.waitForText('#flow-list', 'Recorded flow');
    expect(await panel.text('#flow-list .flow-meta')).toMatch(/^8 steps · recorded \S/);
    expect(
      await panel.eval<string[]>(
        `[...document.querySelectorAll('#flow-steps .step-line')].map((line) => line.textContent)`,
      ),
    ).toEqual([
      `1. Open ${server.url(PATH)}`,
      '2. Fill textbox "Full name" with "Ada Lovelace"',
      '3. Fill textbox "Email" with "ada@example.test"',
      '4. Fill the field labelled "Password" with the secret password',
      '5. Press Tab',
      '6. Choose "Pro" in combobox "Plan"',
      '7. Click checkbox "I accept the terms"',
      '8. Click button "Sign up"',
    ]);
    for (const where of [
      JSON.stringify(flow),
      file,
      await driver.inWorker<string>('JSON.stringify(globalThis.tabpilot.session.bus.history())'),
      await panel.eval<string>('document.body.innerHTML'),
      await panel.eval<string>("chrome.storage.local.get('tabpilot.panel.flows').then((kept) => JSON.stringify(kept))"),
    ]) {
      expect(where).not.toContain(SECRET);
    }

    const replayed = await driver.ok<ReplayResult>('replay', { flow, tab_id: tab });
    expect(replayed).toEqual({
      flow: 'Recorded flow',
      steps: 8,
      completed: 8,
      stopped_at: null,
      reason: null,
      screenshot: null,
    });
    const detail = await driver.ok<{ total: number }>('search_page', {
      tab_id: tab,
      pattern: `ada@example.test on Pro, password of ${SECRET.length} characters, terms accepted`,
    });
    expect(detail.total).toBe(1);

    // The file replays in a fresh profile on the other transport: a browser tabpilot launches itself,
    // given only the flow file and the secret's value under its name.
    const fresh = await NodeDriver.start({
      config: { sensitive_data: { [new URL(server.url('/')).hostname]: { password: SECRET } } },
    });
    try {
      const again = await fresh.ok<ReplayResult>('replay', { flow: JSON.parse(file) });
      expect(again).toMatchObject({ steps: 8, completed: 8, stopped_at: null, reason: null });
      const signedUp = await fresh.ok<{ total: number }>('search_page', {
        pattern: `ada@example.test on Pro, password of ${SECRET.length} characters, terms accepted`,
      });
      expect(signedUp.total).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('saves under the name asked for, and answers record_stop without a recording as ELEMENT_NOT_FOUND', async () => {
    await driver.ok('record_start', { tab_id: tab, name: 'Welcome' });
    const { flow, path } = await driver.ok<{ flow: unknown; path: string }>('record_stop', { file_name: 'welcome' });
    expect(path.endsWith('welcome.json')).toBe(true);
    expect(JSON.parse(readFileSync(join(downloads, 'tabpilot', 'welcome.json'), 'utf8'))).toEqual(flow);
    expect(flow).toMatchObject({
      name: 'Welcome',
      steps: [{ action: 'navigate', expect: { path: '/flows/welcome.html' } }],
    });
    expect(await driver.send('record_stop')).toMatchObject({ ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });
  });

  it('ends a recording, unsaved, when its tab is released', async () => {
    await driver.ok('record_start', { tab_id: tab });
    await driver.ok('release', { tab_id: tab });
    expect(await driver.send('record_stop')).toMatchObject({ ok: false, error: { code: 'ELEMENT_NOT_FOUND' } });
  });
});
