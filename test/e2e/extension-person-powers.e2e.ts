import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/platform/node/native/host-client';
import type { CommandResponse } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { FixtureServer } from './harness/fixture-server';
import { NativeChain } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * The person's powers stay the person's: a program (here an MCP client through the real native host)
 * that asks to export or import the profile's cookies, or to record the traffic, is asked about in the
 * real side panel each time, with what it would do counted; refused, unanswered or with no panel open
 * it gets FORBIDDEN and nothing happens. What it may export are the cookies and storage of its own tabs'
 * sites. The person's own actions are not asked.
 */

interface SavedState {
  cookies: Array<{ name: string; domain: string; httpOnly: boolean }>;
  origins: Array<{ origin: string }>;
}

const cookie = (name: string, domain: string) => ({
  name,
  value: `${name}-value`,
  domain,
  path: '/',
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: 'Lax',
});

describe('the person’s powers: a program asks in the panel', () => {
  const server = new FixtureServer();
  const downloads = mkdtempSync(join(tmpdir(), 'tabpilot-powers-downloads-'));
  let chain: NativeChain;
  let alpha: HostClient;
  let panel: PanelPage | undefined;

  const fileOf = (name: string): string => join(downloads, 'tabpilot', name);
  const savedState = (name: string): Promise<SavedState> =>
    pollUntil(
      () => {
        try {
          return JSON.parse(readFileSync(fileOf(name), 'utf8')) as SavedState;
        } catch {
          // chrome.downloads finishes writing a moment after the answer.
          return undefined;
        }
      },
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`${name} was not written`) },
    );
  const browserCookies = async (): Promise<string[]> => {
    const { cookies } = await chain.client.root.send('Storage.getCookies', {});
    return cookies.map((entry) => `${entry.name}@${entry.domain}`).sort();
  };
  /** The person's own connection in the worker, as the panel's is. */
  const asPerson = (action: string, params: Record<string, unknown>): Promise<CommandResponse> =>
    chain.inWorker<CommandResponse>(`globalThis.tabpilot.server
      .connect({ id: 'person', kind: 'panel' }, { send: () => undefined })
      .handle(${JSON.stringify({ id: 1, action, params })})`);
  /** Waits for the question a request of alpha's puts in the panel, and returns its text. */
  const question = async (action: string): Promise<string> => {
    const selector = `[data-client="mcp:alpha"].person-question`;
    await panel!.waitFor(`document.querySelector('${selector}')`, `the question for ${action}`);
    return panel!.text(`${selector} .question-what`);
  };
  const answer = (choice: 'allow' | 'refuse'): Promise<void> =>
    panel!.click(`[data-client="mcp:alpha"].person-question [data-answer="${choice}"]`);
  const noQuestionLeft = (): Promise<void> =>
    panel!.waitFor(`!document.querySelector('.person-question')`, 'the question gone from the panel');

  beforeAll(async () => {
    server.route('/site.html', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': 'sid=alpha-session; HttpOnly; Path=/',
      });
      res.end('<!doctype html><title>alpha site</title><script>localStorage.setItem("k", "v")</script>');
    });
    await server.start();
    chain = await NativeChain.start({ downloadsDir: downloads });
    await chain.host();
    alpha = await chain.connect('mcp:alpha');
    const navigated = await alpha.request('navigate', { url: server.url('/site.html') });
    expect(navigated).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    alpha?.close();
    await chain?.close();
    await server.stop();
    rmSync(downloads, { recursive: true, force: true });
  });

  it('the person’s own import is not asked (no panel open), and plants cookies of other sites', async () => {
    const loaded = await asPerson('load_storage_state', {
      state: { cookies: [cookie('theirs', 'other.example'), cookie('cross', '127.0.0.1')], origins: [] },
    });
    expect(loaded).toMatchObject({ ok: true, result: { cookies_count: 2 } });
    expect(await browserCookies()).toEqual(['cross@127.0.0.1', 'sid@localhost', 'theirs@other.example']);
  });

  it('with no panel open, a program’s cookie export is refused FORBIDDEN saying why, and no file is written', async () => {
    const refused = await alpha.request('save_storage_state', { path: 'nobody-asked.json' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringContaining('no tabpilot side panel is open') as unknown },
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(existsSync(fileOf('nobody-asked.json'))).toBe(false);
  });

  it('a cookie export is asked in the panel, counted; allowed once it writes only the cookies of the program’s own sites', async () => {
    panel = await PanelPage.open(chain.client);
    await panel.waitForConnected();
    const saving = alpha.request('save_storage_state', { path: 'alpha-state.json' });
    const what = await question('save_storage_state');
    expect(what).toContain('save 1 cookie of 1 site (localhost)');
    expect(what).toContain('alpha-state.json');
    expect(await panel.text('[data-client="mcp:alpha"].person-question .client-name')).toBe('mcp:alpha');
    await answer('allow');
    expect(await saving).toMatchObject({ ok: true, result: { cookies_count: 1, origins_count: 1 } });
    const saved = await savedState('alpha-state.json');
    expect(saved.cookies.map((entry) => `${entry.name}@${entry.domain}`)).toEqual(['sid@localhost']);
    expect(saved.cookies[0]?.httpOnly).toBe(true);
    expect(saved.origins.map((origin) => origin.origin)).toEqual([new URL(server.url('/')).origin]);
    await noQuestionLeft();
    // The person's own export, from the same browser, holds every site's cookies: the program's was scoped.
    const whole = await asPerson('save_storage_state', { path: 'person-state.json' });
    expect(whole).toMatchObject({ ok: true, result: { cookies_count: 3 } });
  });

  it('allowed once is once: the next export is asked again, and refused it is FORBIDDEN with no file', async () => {
    const saving = alpha.request('save_storage_state', { path: 'refused-state.json' });
    await question('save_storage_state');
    await answer('refuse');
    expect(await saving).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringContaining('the person refused it') as unknown },
    });
    await noQuestionLeft();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(existsSync(fileOf('refused-state.json'))).toBe(false);
  });

  it('an import is asked, counted: refused nothing is planted, allowed the cookie is', async () => {
    const state = { cookies: [cookie('planted', 'elsewhere.example')], origins: [] };
    const refusing = alpha.request('load_storage_state', { state });
    expect(await question('load_storage_state')).toContain('load 1 cookie for 1 site (elsewhere.example)');
    await answer('refuse');
    expect(await refusing).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await browserCookies()).not.toContain('planted@elsewhere.example');
    await noQuestionLeft();

    const loading = alpha.request('load_storage_state', { state });
    await question('load_storage_state');
    await answer('allow');
    expect(await loading).toMatchObject({ ok: true, result: { cookies_count: 1 } });
    expect(await browserCookies()).toContain('planted@elsewhere.example');
  });

  it('recording the traffic is asked: allowed it records; the panel closed while asking refuses it', async () => {
    const starting = alpha.request('start_har', { file_name: 'alpha.har' });
    expect(await question('start_har')).toContain('record the network traffic of every controlled tab');
    await answer('allow');
    expect(await starting).toMatchObject({ ok: true });
    expect(await alpha.request('stop_har', {})).toMatchObject({ ok: true });
    await noQuestionLeft();

    const closedWhileAsking = alpha.request('start_har', { file_name: 'unanswered.har' });
    await question('start_har');
    await chain.client.root.send('Target.closeTarget', { targetId: panel!.targetId });
    panel = undefined;
    expect(await closedWhileAsking).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringContaining('panel was closed') as unknown },
    });
    const timeline = await chain.inWorker<string[]>(
      `globalThis.tabpilot.timeline.entries().filter((entry) => entry.kind === 'note').map((entry) => entry.text)`,
    );
    expect(timeline.some((text) => text.startsWith('You allowed mcp:alpha once to record the network traffic'))).toBe(
      true,
    );
    expect(timeline.some((text) => text.includes('mcp:alpha was refused to save'))).toBe(true);
  });
});
