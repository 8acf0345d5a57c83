import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../src/protocol/commands';
import { parseFlow } from '../../src/protocol/flow';
import { pollUntil } from '../../src/shared/time';
import { EXTENSION_ID, evaluate, PANEL_URL } from './harness/browser';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { addFlowPages } from './harness/flow-pages';
import { PanelPage } from './harness/panel';
import { addFormPage, elementIndex } from './harness/panel-fixtures';

/**
 * The side panel page, opened as a tab and driven as a person would: attach the
 * current tab, run actions from forms built from `describe`, read the page as the model sees it, watch
 * the timeline, change settings, keep and edit flows, and press the emergency stop.
 */
describe('side panel', () => {
  const server = new FixtureServer();
  addFormPage(server);
  addFlowPages(server);
  let driver: ExtensionDriver;
  let panel: PanelPage;
  let personTab: string;
  const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-downloads-'));

  const inWorker = <T>(expression: string): Promise<T> => driver.inWorker<T>(expression);
  const controlledUrls = (): Promise<string[]> =>
    inWorker(`(async () => {
      const controlled = new Set(globalThis.tabpilot.router.controlled().map((tab) => tab.tabId));
      const tabs = await chrome.tabs.query({});
      return tabs.filter((tab) => controlled.has(tab.id)).map((tab) => tab.url);
    })()`);
  const tabIdOf = async (urlPart: string): Promise<string> =>
    pollUntil(
      async () => {
        const status = await inWorker<Array<{ tab_id: string; url: string }>>(
          `globalThis.tabpilot.session.targets.pages().map((page) => ({ tab_id: globalThis.tabpilot.session.tabIdOf(page.targetId), url: page.url }))`,
        );
        return status.find((tab) => tab.url.includes(urlPart))?.tab_id;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`no controlled tab shows ${urlPart}`) },
    );

  beforeAll(async () => {
    await server.start();
    // The downloads go to the profile's folder (not Browser.setDownloadBehavior's, which also takes the
    // names the worker gives the extension's own saves: a flow exported from Flows would be download.json).
    driver = await ExtensionDriver.start({ downloadsDir: downloads });
    personTab = await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('refuses a chrome:// page with a message that says why', async () => {
    const chromePage = await driver.client.createTab('chrome://version');
    await pollUntil(
      async () =>
        (await driver.client.targets()).some((target) => target.url.startsWith('chrome://version')) ? true : undefined,
      { timeoutMs: 5_000, onTimeout: () => new Error('chrome://version did not open') },
    );
    await panel.click('#attach');
    const answer = await panel.response('output');
    expect(answer).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
    const message = answer.ok ? '' : answer.error.message;
    expect(message).toContain('chrome://');
    expect(message).toMatch(/cannot/i);
    expect(await panel.text('#output-retry')).toBe('');
    await driver.client.root.send('Target.closeTarget', { targetId: chromePage });
    await driver.client.root.send('Target.activateTarget', { targetId: personTab });
    expect(await controlledUrls()).toEqual([]);
  });

  it('refuses to attach its own page (the panel open as a tab), from the button and by tab_id, and says what works', async () => {
    await driver.client.root.send('Target.activateTarget', { targetId: panel.targetId });
    const windowId = await panel.eval<number>('chrome.windows.getCurrent().then((window) => window.id)');
    await pollUntil(
      async () =>
        (await inWorker<string | undefined>(
          `chrome.tabs.query({ active: true, windowId: ${windowId} }).then(([tab]) => tab?.url)`,
        )) === PANEL_URL
          ? true
          : undefined,
      { timeoutMs: 5_000, intervalMs: 100, onTimeout: () => new Error('the panel tab did not become the active one') },
    );
    const before = await panel.shown('output');
    await panel.click('#attach');
    const answer = await panel.response('output', before);
    expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const message = answer.ok ? '' : answer.error.message;
    expect(message).toContain("tabpilot's own page");
    expect(message).toContain('"tabs" with all, then "attach"');
    // A client naming the panel's tab gets the same refusal.
    const listed = await driver.ok<{ tabs: Array<{ tab_id: string; url: string }> }>('tabs', { all: true });
    const panelTab = listed.tabs.find((tab) => tab.url === PANEL_URL)?.tab_id;
    expect(panelTab).toBeDefined();
    const byId = await driver.send('attach', { tab_id: panelTab });
    expect(byId).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(JSON.stringify(byId)).toContain("tabpilot's own page");
    expect(await controlledUrls()).toEqual([]);
    expect(await panel.text('#debugger-state')).toBe('Debugger not attached');
    // What the refusal says works: attach the web page by its tab_id, from the panel's tab.
    const webTab = listed.tabs.find((tab) => tab.url === server.url('/a.html'))?.tab_id;
    expect(await driver.ok('attach', { tab_id: webTab })).toMatchObject({ url: server.url('/a.html') });
    expect(await driver.ok('release')).toEqual({ released_tab_ids: [webTab] });
    await driver.client.root.send('Target.activateTarget', { targetId: personTab });
    expect(await controlledUrls()).toEqual([]);
  });

  it('attaches the current tab of its window and shows it as controlled, and only that tab', async () => {
    const before = await panel.shown('output');
    await panel.click('#attach');
    expect(await panel.response('output', before)).toMatchObject({
      ok: true,
      result: { url: server.url('/a.html'), focused: true },
    });
    await panel.waitForText('#tabs', 'Page A');
    expect(await panel.text('.header + .response .ok-line')).toBe('✓ Attached Page A');
    expect(await panel.text('#debugger-state')).toBe('Debugger attached to 1 tab');
    expect(await controlledUrls()).toEqual([server.url('/a.html')]);
  });

  it('runs any action from a form built from describe, and points at the field a bad value is in', async () => {
    await panel.view('actions');
    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.url('/panel-form.html'));
    await panel.click('#run-action');
    expect(await panel.response('action-output')).toMatchObject({
      ok: true,
      result: { url: server.url('/panel-form.html') },
    });
    const before = await panel.shown('action-output');
    await panel.type('[data-field="timeout_ms"] input', '0');
    await panel.click('#run-action');
    const refused = await panel.response('action-output', before);
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { field: 'timeout_ms' } } });
    expect(await panel.exists('.field-error[data-field="timeout_ms"]')).toBe(true);
  });

  it('shows the page as the model sees it: indexed elements, a screenshot, and a highlight on hover', async () => {
    await panel.view('page');
    await panel.click('#refresh-state');
    const index = await elementIndex(panel, '"Go"');
    await panel.waitFor(
      `document.getElementById('screenshot')?.complete && document.getElementById('screenshot').naturalWidth > 0`,
      'the screenshot',
    );
    expect(await panel.text('#page-title')).toBe('Panel form');
    const formTab = await tabIdOf('/panel-form.html');
    const highlighted = (): Promise<boolean> =>
      driver.evaluateInTab<boolean>(formTab, `document.getElementById('__tabpilot-highlight') !== null`);
    await panel.hover(`#elements li[data-index="${index}"]`);
    await pollUntil(async () => ((await highlighted()) ? true : undefined), {
      timeoutMs: 5_000,
      onTimeout: () => new Error('hovering the element did not highlight it in the page'),
    });
    await panel.hover('#refresh-state');
    await pollUntil(async () => ((await highlighted()) ? undefined : true), {
      timeoutMs: 5_000,
      onTimeout: () => new Error('leaving the list did not clear the highlight'),
    });
  });

  it('clicks an element from the list and shows the result', async () => {
    await panel.view('page');
    await panel.click('#refresh-state');
    const index = await elementIndex(panel, '"Go"');
    await panel.click(`#elements li[data-index="${index}"]`);
    await panel.click('#element-actions [data-action="click"]');
    expect(await panel.response('page-output')).toMatchObject({ ok: true });
    const formTab = await tabIdOf('/panel-form.html');
    expect(await driver.evaluateInTab(formTab, `document.getElementById('out').textContent`)).toBe('clicked 1');
  });

  it('types into a field and picks a select option from the list, as the element actions offer', async () => {
    await panel.view('page');
    await panel.click('#refresh-state');
    const formTab = await tabIdOf('/panel-form.html');
    const name = await elementIndex(panel, '"Name"');
    await panel.click(`#elements li[data-index="${name}"]`);
    await panel.type('#element-text', 'Ada Lovelace');
    let before = await panel.shown('page-output');
    await panel.click('#element-actions [data-action="input"]');
    expect(await panel.response('page-output', before)).toMatchObject({ ok: true });
    expect(await driver.evaluateInTab(formTab, `document.getElementById('name').value`)).toBe('Ada Lovelace');

    const colour = await elementIndex(panel, '"Colour"');
    await panel.click(`#elements li[data-index="${colour}"]`);
    // The options are read as the select is chosen, its current value preselected; choosing is one step.
    await panel.waitFor(
      `[...document.querySelectorAll('#element-option option')].some((option) => option.value === 'blue')`,
      'the options to show',
    );
    const current = await panel.eval<string>(`document.getElementById('element-option').value`);
    expect(current).not.toBe('');
    expect(await driver.evaluateInTab(formTab, `document.getElementById('colour').selectedOptions[0].text`)).toBe(
      current,
    );
    before = await panel.shown('page-output');
    await panel.select('#element-option', 'blue');
    expect(await panel.response('page-output', before)).toMatchObject({ ok: true });
    expect(await driver.evaluateInTab(formTab, `document.getElementById('colour').value`)).toBe('blue');
  });

  it('uploads a file the person picks in the panel, sent as its content (no path, no upload_paths)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabpilot-panel-upload-'));
    try {
      const file = join(dir, 'notes.txt');
      writeFileSync(file, 'picked in the panel');
      await panel.view('page');
      await panel.click('#refresh-state');
      const index = await elementIndex(panel, '"Attachment"');
      await panel.click(`#elements li[data-index="${index}"]`);
      const before = await panel.shown('page-output');
      await panel.chooseFiles('#element-file', [file]);
      expect(await panel.response('page-output', before)).toMatchObject({
        ok: true,
        result: { method: 'bytes', files: [{ name: 'notes.txt', size: 19 }] },
      });
      const formTab = await tabIdOf('/panel-form.html');
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(formTab, `document.getElementById('attachment-out').textContent`)) ===
          'notes.txt: picked in the panel'
            ? true
            : undefined,
        { timeoutMs: 5_000, onTimeout: () => new Error('the page never read the uploaded file') },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the timeline as a lineage tree labelled by source, with search, filter and a JSON-lines export', async () => {
    await panel.view('timeline');
    const navigationWithChild = `[...document.querySelectorAll('#timeline > .tl-node[data-type="NavigateToUrlEvent"]')].find((node) =>
      node.querySelector(':scope > .tl-row .tl-source')?.textContent === 'panel' &&
      node.querySelector(':scope > .tl-children > .tl-node[data-type="NavigationStartedEvent"]') &&
      node.querySelector(':scope > .tl-children > .tl-node[data-type="NavigationCompleteEvent"]'))`;
    await panel.waitFor(navigationWithChild, 'a panel navigation with its child events');
    await panel.eval(`${navigationWithChild}.querySelector(':scope > .tl-row').click()`);
    const details = await panel.eval<string>(
      `${navigationWithChild}.querySelector(':scope > .tl-details').textContent`,
    );
    expect(details).toContain('navigation.on_NavigateToUrlEvent');
    expect(details).toMatch(/completed · \d+ ms/);
    expect(details).toContain('/panel-form.html');

    await panel.type('#timeline-search', 'NavigationComplete');
    await panel.waitFor(`!document.querySelector('#timeline > .tl-node[data-type="TabCreatedEvent"]')`, 'the search');
    const roots = await panel.eval<string[]>(
      `[...document.querySelectorAll('#timeline > .tl-node')].map((node) => node.dataset.type)`,
    );
    expect(roots.length).toBeGreaterThan(0);
    expect(new Set(roots)).toEqual(new Set(['NavigateToUrlEvent']));
    await panel.type('#timeline-search', '');
    await panel.select('#timeline-source', 'browser');
    await panel.waitFor(
      `!document.querySelector('#timeline > .tl-node[data-type="NavigateToUrlEvent"]')`,
      'the filter',
    );
    const sources = await panel.eval<string[]>(
      `[...document.querySelectorAll('#timeline .tl-source')].map((node) => node.textContent)`,
    );
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(['browser']));
    await panel.select('#timeline-source', '');

    await panel.click('#timeline-export');
    const file = await pollUntil(
      async () => readdirSync(downloads).find((name) => name.endsWith('.jsonl') && !name.endsWith('.crdownload')),
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the export was not downloaded') },
    );
    // Chrome may show the file under its name before its last bytes are written: read until it is whole.
    const exported = await pollUntil(
      () => {
        const text = readFileSync(join(downloads, file), 'utf8');
        return text.endsWith('\n') ? text.trimEnd().split('\n') : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the export was never written whole') },
    ).then((lines) => lines.map((line) => JSON.parse(line) as { id: string; kind: string; type?: string }));
    expect(exported.every((entry) => typeof entry.id === 'string' && ['event', 'note'].includes(entry.kind))).toBe(
      true,
    );
    expect(exported.some((entry) => entry.type === 'NavigateToUrlEvent')).toBe(true);
  });

  it('saves settings from a schema-built form: refuses a bad value naming the field, applies and keeps good ones, masks secrets and keeps them out of the timeline', async () => {
    await panel.view('settings');
    await panel.type('[data-field="cdp_timeout_ms"] input', '-5');
    await panel.click('#save-settings');
    expect(await panel.waitForText('#settings-result', 'cdp_timeout_ms')).toMatch(/cdp_timeout_ms/);
    expect(await panel.exists('.field-error[data-field="cdp_timeout_ms"]')).toBe(true);
    expect(await inWorker('globalThis.tabpilot.session.config.cdp_timeout_ms')).toBe(30_000);

    await panel.type('[data-field="cdp_timeout_ms"] input', '12345');
    await panel.setChecked('[data-field="allow_evaluate"] input[type="checkbox"]', true);
    await panel.type('[data-field="timeouts"] > .record > .row > .record-key', 'NavigateToUrlEvent');
    await panel.click('[data-field="timeouts"] > .record > .row > .record-add');
    await panel.type('[data-field="timeouts.NavigateToUrlEvent"] input', '20000');
    await panel.type('[data-field="sensitive_data"] > .record > .row > .record-key', '*');
    await panel.click('[data-field="sensitive_data"] > .record > .row > .record-add');
    await panel.type('[data-field="sensitive_data.*"] > .record > .row > .record-key', 'password');
    await panel.click('[data-field="sensitive_data.*"] > .record > .row > .record-add');
    const secretField = '[data-field="sensitive_data.*.password"] input';
    expect(await panel.eval(`document.querySelector(${JSON.stringify(secretField)}).type`)).toBe('password');
    await panel.type(secretField, 'hunter2-secret');
    await panel.click('#save-settings');
    await panel.waitForText('#settings-result', 'Saved and applied');
    expect(
      await inWorker(`(() => {
        const config = globalThis.tabpilot.session.config;
        return [config.cdp_timeout_ms, config.allow_evaluate, config.timeouts.NavigateToUrlEvent, config.sensitive_data['*'].password];
      })()`),
    ).toEqual([12345, true, 20000, 'hunter2-secret']);
    const stored = await inWorker<{ cdp_timeout_ms: number }>(
      `chrome.storage.local.get('tabpilot.config').then((items) => items['tabpilot.config'])`,
    );
    expect(stored.cdp_timeout_ms).toBe(12345);

    await panel.view('actions');
    await panel.select('#action-select', 'navigate');
    await panel.type('[data-field="url"] input', server.url('/b.html?token=hunter2-secret'));
    const before = await panel.shown('action-output');
    await panel.click('#run-action');
    const answer = await panel.response('action-output', before);
    expect(JSON.stringify(answer)).toContain('<secret>password</secret>');
    // The status names the tab's URL as the answer does, secret masked.
    const statusUrl = `(document.querySelector('#tabs li.focused .tab-title')?.title ?? '')`;
    await panel.waitFor(`${statusUrl}.includes('/b.html')`, 'the status to show the new page');
    expect(await panel.eval(statusUrl)).toBe(server.url('/b.html?token=<secret>password</secret>'));
    await panel.view('timeline');
    await panel.type('#timeline-search', 'secret>password');
    await panel.waitFor(`document.querySelector('#timeline > .tl-node[data-type="NavigateToUrlEvent"]')`, 'the event');
    await panel.click('#timeline > .tl-node[data-type="NavigateToUrlEvent"] > .tl-row');
    const shown = await panel.text('#timeline');
    expect(shown).toContain('<secret>password</secret>');
    expect(shown).not.toContain('hunter2-secret');
    await panel.type('#timeline-search', '');
    const recorded = await inWorker<string>('JSON.stringify(globalThis.tabpilot.timeline.entries())');
    expect(recorded).toContain('<secret>password</secret>');
    expect(recorded).not.toContain('hunter2-secret');
    const persisted = await pollUntil(
      async () => {
        const text = await inWorker<string>(
          `chrome.storage.session.get('tabpilot.timeline').then((items) => JSON.stringify(items['tabpilot.timeline']))`,
        );
        return text.includes('token=<secret>password</secret>') ? text : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 100, onTimeout: () => new Error('the timeline was not saved') },
    );
    expect(persisted).not.toContain('hunter2-secret');
  });

  it('sets the URL policy from Settings: a malformed pattern is refused naming the entry, a good one holds at once', async () => {
    await panel.view('settings');
    // A list is edited as a list: Add gives an empty entry to type in.
    await panel.click('[data-field="prohibited_domains"] .list-add');
    await panel.type('[data-field="prohibited_domains"] .list-item input', '127.0.0.1/path');
    await panel.click('#save-settings');
    expect(await panel.waitForText('#settings-result', 'prohibited_domains')).toMatch(
      /prohibited_domains\.0: malformed domain pattern/,
    );
    expect(await inWorker('globalThis.tabpilot.session.config.prohibited_domains')).toEqual([]);
    await panel.type('[data-field="prohibited_domains"] .list-item input', '127.0.0.1');
    await panel.click('#save-settings');
    await panel.waitForText('#settings-result', 'Saved and applied');
    try {
      const seen = server.requests.length;
      await panel.view('actions');
      await panel.select('#action-select', 'navigate');
      await panel.type('[data-field="url"] input', server.crossUrl('/c.html?policy'));
      const before = await panel.shown('action-output');
      await panel.click('#run-action');
      expect(await panel.response('action-output', before)).toMatchObject({
        ok: false,
        error: { code: 'URL_BLOCKED', details: { rule: 'prohibited_domains', pattern: '127.0.0.1' } },
      });
      expect(server.requests.slice(seen).some((record) => record.host.startsWith('127.0.0.1'))).toBe(false);
    } finally {
      await panel.view('settings');
      await panel.click('[data-field="prohibited_domains"] .list-item button');
      await panel.click('#save-settings');
      await panel.waitForText('#settings-result', 'Saved and applied');
    }
  });

  it('keeps an imported flow in Flows: a bad file refused, then renamed, a step deleted, a value made a parameter, replayed, exported, deleted', async () => {
    const signup = server.url('/flows/signup.html');
    const files = mkdtempSync(join(tmpdir(), 'tabpilot-panel-flows-'));
    try {
      await panel.view('flows');
      await panel.waitFor(`document.getElementById('flows-empty')`, 'the empty list of flows');
      // A file that is no version 1 flow is refused, naming it and the field, and nothing is kept.
      const bad = join(files, 'bad.json');
      writeFileSync(
        bad,
        JSON.stringify({ format: 'tabpilot-flow', version: 1, name: 'Bad', steps: [{ action: 'fly' }] }),
      );
      await panel.chooseFiles('#flow-import', [bad]);
      expect(await panel.waitForText('#flows-error', 'bad.json')).toMatch(
        /^bad\.json: not a tabpilot flow \(version 1\): steps\.0/,
      );
      expect(await panel.eval<number>(`document.querySelectorAll('#flow-list li').length`)).toBe(0);

      // A sign-up with a step whose locator names several elements (every paragraph of the form): replayed as
      // it is, it stops there.
      const draft = join(files, 'signup-draft.json');
      writeFileSync(
        draft,
        JSON.stringify({
          format: 'tabpilot-flow',
          version: 1,
          name: 'Sign-up draft',
          steps: [
            { action: 'navigate', url: signup, expect: { path: '/flows/signup.html' } },
            { action: 'fill', locator: { role: 'textbox', name: 'Full name' }, input: { value: 'Ada Lovelace' } },
            { action: 'fill', locator: { role: 'textbox', name: 'Email' }, input: { value: 'ada@example.test' } },
            { action: 'fill', locator: { label: 'Password' }, input: { param: 'password' } },
            { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { value: 'Pro' } },
            { action: 'click', locator: { css: 'form p' } },
            { action: 'click', locator: { role: 'checkbox', name: 'I accept the terms' } },
            {
              action: 'click',
              locator: { role: 'button', name: 'Sign up' },
              expect: { path: '/flows/welcome.html', text: 'Welcome' },
            },
          ],
          defaults: { password: 'correct-horse' },
        }),
      );
      await panel.chooseFiles('#flow-import', [draft]);
      await panel.waitForText('#flow-list', 'Sign-up draft');
      expect(await panel.exists('#flows-error')).toBe(false);
      expect(await panel.text('#flow-list .flow-meta')).toMatch(/^8 steps · imported \S/);
      const lines = (): Promise<string[]> =>
        panel.eval<string[]>(
          `[...document.querySelectorAll('#flow-steps .step-line')].map((line) => line.textContent)`,
        );
      expect(await lines()).toEqual([
        `1. Open ${signup}`,
        '2. Fill textbox "Full name" with "Ada Lovelace"',
        '3. Fill textbox "Email" with "ada@example.test"',
        '4. Fill the field labelled "Password" with {password}',
        '5. Choose "Pro" in combobox "Plan"',
        '6. Click the element at form p',
        '7. Click checkbox "I accept the terms"',
        '8. Click button "Sign up"',
      ]);

      await panel.click('#replay-flow');
      await panel.waitFor(`document.getElementById('replay-result')`, 'the replay to answer', 30_000);
      const failed = await panel.text('#replay-result');
      expect(failed).toMatch(/^Failed at step 6 of 8 \(5 passed\): step 6 \(click .*form p.*\): .+\. Picture: (.+)$/);
      expect(await panel.eval<string>(`document.getElementById('replay-result').dataset.passed`)).toBe('false');
      expect(existsSync(/Picture: (.+)$/.exec(failed)?.[1] ?? '')).toBe(true);

      await panel.type('#flow-name-input', 'Sign up');
      await panel.click('#flow-rename');
      await panel.waitFor(
        `document.querySelector('#flow-list .open-flow')?.textContent === 'Sign up'`,
        'the list to show the new name',
      );

      await panel.click('#flow-steps li[data-step="6"] .delete-step');
      await panel.waitFor(`document.querySelectorAll('#flow-steps li').length === 7`, 'the step to go');
      expect((await lines()).slice(5)).toEqual(['6. Click checkbox "I accept the terms"', '7. Click button "Sign up"']);

      await panel.click('#flow-steps li[data-step="3"] .parameterize-step');
      await panel.type('#param-name', 'email');
      await panel.click('#param-save');
      await panel.waitForText('#flow-steps li[data-step="3"]', '{email}');
      expect((await lines())[2]).toBe('3. Fill textbox "Email" with {email}');
      expect(await panel.eval<string>(`document.querySelector('[data-param="email"]').value`)).toBe('ada@example.test');

      // Replayed on the focused tab with a value for the parameter: the page gets that value.
      await panel.type('[data-param="email"]', 'grace@example.test');
      await panel.click('#replay-flow');
      expect(await panel.waitForText('#replay-result', 'Passed', 30_000)).toBe('Passed: all 7 steps ran and held.');
      const welcomed = await tabIdOf('/flows/welcome.html');
      expect(await driver.evaluateInTab<string>(welcomed, `document.getElementById('detail').textContent`)).toBe(
        'grace@example.test on Pro, password of 13 characters, terms accepted',
      );

      await panel.click('#export-flow-json');
      const jsonFile = join(downloads, 'tabpilot', 'sign-up.json');
      expect(await panel.waitForText('#flow-export-output', 'sign-up.json')).toBe(`Saved ${jsonFile}`);
      const exported = parseFlow(JSON.parse(readFileSync(jsonFile, 'utf8')));
      expect(exported.name).toBe('Sign up');
      expect(exported.steps).toHaveLength(7);
      expect(exported.steps[2]).toEqual({
        action: 'fill',
        locator: { role: 'textbox', name: 'Email' },
        input: { param: 'email' },
      });
      expect(exported.defaults).toEqual({ password: 'correct-horse', email: 'ada@example.test' });
      expect(JSON.stringify(exported)).not.toContain('form p');

      await panel.click('#export-flow-playwright');
      const specFile = join(downloads, 'tabpilot', 'sign-up.spec.ts');
      expect(await panel.waitForText('#flow-export-output', 'sign-up.spec.ts')).toBe(`Saved ${specFile}`);
      const code = readFileSync(specFile, 'utf8');
      expect(code).toContain(`test("Sign up"`);
      expect(code).toContain(`fill(params["email"])`);
      expect(code).toContain('TABPILOT_PARAM_EMAIL');
      expect(code).not.toContain('form p');

      await panel.click('#delete-flow');
      await panel.click('#delete-flow-confirm');
      await panel.waitFor(`document.getElementById('flows-empty')`, 'the list to be empty again');
      expect(await panel.exists('#flow-detail')).toBe(false);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  it('releases one tab with its release button and every tab with Release all: the tabs stay open, the debugger lets go', async () => {
    const [firstUrl] = await controlledUrls();
    const secondUrl = server.url('/c.html?released-from-panel');
    const second = await driver.ok<{ tab_id: string }>('navigate', { url: secondUrl, new_tab: true });
    await panel.waitForText('#debugger-state', 'attached to 2 tabs');
    const attachedTo = (url: string): Promise<boolean | undefined> => driver.debuggerAttachedTo(url);
    expect(await attachedTo(secondUrl)).toBe(true);

    let before = await panel.shown('output');
    await panel.click(`#tabs li[data-tab-id="${second.tab_id}"] button.link`);
    expect(await panel.response('output', before)).toMatchObject({
      ok: true,
      result: { released_tab_ids: [second.tab_id] },
    });
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    expect(await panel.exists(`#tabs li[data-tab-id="${second.tab_id}"]`)).toBe(false);
    expect(await controlledUrls()).toEqual([firstUrl]);
    expect(await attachedTo(secondUrl)).toBe(false);
    const openUrls = async (): Promise<string[]> => (await driver.client.pageTargets()).map((target) => target.url);
    expect(await openUrls()).toContain(secondUrl);

    before = await panel.shown('output');
    await panel.click('#release');
    const all = await panel.response('output', before);
    expect(all).toMatchObject({ ok: true, result: { released_tab_ids: [expect.any(String)] } });
    await panel.waitForText('#debugger-state', 'Debugger not attached');
    expect(await panel.text('.header + .response .ok-line')).toMatch(/^✓ Released /);
    expect(await controlledUrls()).toEqual([]);
    expect(await attachedTo(firstUrl ?? '')).toBe(false);
    expect(await openUrls()).toEqual(expect.arrayContaining([firstUrl, secondUrl]));
    expect(await panel.exists('#release[disabled]')).toBe(true);

    // Attach takes the person's tab back.
    await driver.client.root.send('Target.activateTarget', { targetId: personTab });
    before = await panel.shown('output');
    await panel.click('#attach');
    expect(await panel.response('output', before)).toMatchObject({ ok: true, result: { focused: true } });
    await panel.waitForText('#debugger-state', 'attached to 1 tab');
    expect(await controlledUrls()).toEqual([firstUrl]);
    const secondTarget = (await driver.client.pageTargets()).find((target) => target.url === secondUrl)?.targetId;
    await driver.client.root.send('Target.closeTarget', { targetId: secondTarget ?? '' });
  });

  it('emergency stop cancels, detaches every tab and says so in the timeline', async () => {
    await driver.ok('navigate', { url: server.url('/c.html'), new_tab: true });
    await pollUntil(async () => ((await controlledUrls()).length === 2 ? true : undefined), {
      timeoutMs: 5_000,
      onTimeout: () => new Error('the second tab was not controlled'),
    });
    await panel.waitForText('#debugger-state', 'attached to 2 tabs');
    // Another client's long wait runs, and its scroll waits behind it: the stop must not wait for either.
    const running = driver.send('wait', { seconds: 20 });
    const queued = driver.send('scroll', { direction: 'down' });
    await pollUntil(async () => ((await driver.runningEvents()).includes('WaitEvent') ? true : undefined), {
      timeoutMs: 5_000,
      onTimeout: () => new Error('the wait never started'),
    });
    const before = await panel.shown('output');
    await panel.click('#stop');
    const answer: CommandResponse = await panel.response('output', before);
    expect(answer).toMatchObject({ ok: true, result: { stopped: true, cancelled: 2 } });
    expect(await running).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(await queued).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await panel.waitForText('#debugger-state', 'not attached');
    await panel.waitForText('#debugger-state', 'Stopped');
    expect(await panel.text('#stop')).toBe('Stop');
    expect(await controlledUrls()).toEqual([]);
    const attached = await inWorker<string[]>(
      `chrome.debugger.getTargets().then((targets) => targets.filter((t) => t.attached && t.url.startsWith(${JSON.stringify(server.url('/'))})).map((t) => t.url))`,
    );
    expect(attached).toEqual([]);
    await panel.view('timeline');
    await panel.waitForText('#timeline', 'Emergency stop (panel button): cancelled 2 ');
    expect(await panel.exists('#timeline > .tl-node[data-type="BrowserStopEvent"]')).toBe(true);
  });

  it('is per window: a panel attaches the active tab of its own window, and every panel shows the same tabs', async () => {
    const secondWindow = await inWorker<number>(
      `chrome.windows.create({ url: ${JSON.stringify(server.url('/c.html?window=2'))}, focused: false }).then((window) => window.id)`,
    );
    const known = new Set((await driver.client.targets()).map((target) => target.targetId));
    await inWorker(
      `chrome.tabs.create({ windowId: ${secondWindow}, url: ${JSON.stringify(PANEL_URL)}, active: false })`,
    );
    const secondPanelTarget = await pollUntil(
      async () =>
        (await driver.client.targets()).find((target) => target.url === PANEL_URL && !known.has(target.targetId))
          ?.targetId,
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the second window has no panel') },
    );
    const secondPanel = await PanelPage.connect(driver.client, secondPanelTarget);
    await secondPanel.click('#attach');
    expect(await secondPanel.response('output')).toMatchObject({
      ok: true,
      result: { url: server.url('/c.html?window=2') },
    });
    await secondPanel.waitForText('#tabs', 'Page C');
    expect(await secondPanel.exists('#tabs .badge.muted')).toBe(false);
    await panel.waitForText('#tabs', 'Page C');
    expect(await panel.text('#tabs li .badge.muted')).toBe('other window');
    expect(await controlledUrls()).toEqual([server.url('/c.html?window=2')]);
  });

  it('opens as the real side panel (the toolbar button is set to open it) and works there', async () => {
    expect(await inWorker('chrome.sidePanel.getPanelBehavior()')).toMatchObject({ openPanelOnActionClick: true });
    const windowId = await panel.eval<number>('chrome.windows.getCurrent().then((window) => window.id)');
    const known = new Set((await driver.client.targets()).map((target) => target.targetId));
    // Opening needs a user gesture, as the toolbar click gives it.
    await panel.session.send('Runtime.evaluate', {
      expression: `chrome.sidePanel.open({ windowId: ${windowId} })`,
      userGesture: true,
      awaitPromise: true,
    });
    const sidePanelTarget = await pollUntil(
      async () =>
        (await driver.client.targets()).find((target) => target.url === PANEL_URL && !known.has(target.targetId))
          ?.targetId,
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the side panel did not open') },
    );
    // The target can show before the extension registers the context: Chrome itself must report one panel.
    await pollUntil(
      async () =>
        (await inWorker<unknown[]>(`chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL'] })`)).length === 1
          ? true
          : undefined,
      { timeoutMs: 5_000, intervalMs: 100, onTimeout: () => new Error('Chrome reports no side panel context') },
    );
    const sidePanel = await PanelPage.connect(driver.client, sidePanelTarget);
    await sidePanel.waitForText('#tabs', 'Page C');
    expect(await sidePanel.text('#debugger-state')).toBe('Debugger attached to 1 tab');
  });

  it('gives web pages no way to reach the worker', async () => {
    const page = await driver.client.attach(await driver.client.createTab(server.url('/c.html')));
    const reachable = await evaluate(
      page,
      `typeof chrome === 'object' && typeof chrome.runtime === 'object' && typeof chrome.runtime.connect === 'function'`,
    );
    expect(reachable).toBe(false);
    const viaMessage = await evaluate(
      page,
      `(async () => { try { await chrome.runtime.sendMessage(${JSON.stringify(EXTENSION_ID)}, { id: 1, action: 'tabs' }); return 'sent'; } catch (e) { return 'refused'; } })()`,
    );
    expect(viaMessage).toBe('refused');
  });
});
