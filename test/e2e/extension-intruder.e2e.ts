import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import type { CdpSession } from '../../src/cdp/session';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, EXTENSION_ID, evaluate, launchTestBrowser, PANEL_URL } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';

const INTRUDER_DIR = resolve(import.meta.dirname, '../fixtures/intruder-extension');

interface Attempt {
  port: { disconnected: boolean; error: string | null; received: unknown[] };
  message: { answered: boolean; error?: string };
}

/**
 * Only the extension's own pages may send commands. Another installed extension tries every
 * way in: a port named like the panel's, and a one-shot message. The same port from our own panel page
 * is answered, so the refusal is about who asks.
 */
describe('another extension', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;
  let client: BrowserClient;
  let worker: CdpSession;
  let intruder: CdpSession;

  beforeAll(async () => {
    await server.start();
    browser = await launchTestBrowser({ extension: true, otherExtensions: [INTRUDER_DIR] });
    client = await BrowserClient.connect(browser.cdpUrl);
    worker = await client.serviceWorker();
    await client.createTab(server.url('/a.html'));
    const intruderTarget = await pollUntil(
      async () =>
        (await client.targets()).find(
          (target) =>
            target.type === 'service_worker' &&
            target.url.startsWith('chrome-extension://') &&
            !target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
        )?.targetId,
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the intruder extension did not start') },
    );
    intruder = await client.attach(intruderTarget);
    await pollUntil(
      async () => ((await evaluate(intruder, `typeof globalThis.tryTabpilot === 'function'`)) ? true : undefined),
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the intruder never got ready') },
    );
  });

  afterAll(async () => {
    client?.close();
    await browser?.kill();
    await server.stop();
  });

  it('cannot send commands to the worker, by port or by message', async () => {
    const attempt = await evaluate<Attempt>(intruder, `globalThis.tryTabpilot(${JSON.stringify(EXTENSION_ID)})`);
    expect(attempt.port.disconnected).toBe(true);
    expect(attempt.port.received).toEqual([]);
    expect(attempt.port.error).toMatch(/Receiving end does not exist|Could not establish connection/);
    expect(attempt.message.answered).toBe(false);
    expect(await evaluate(worker, 'globalThis.tabpilot.router.controlled().length')).toBe(0);
    expect(await evaluate(worker, 'globalThis.tabpilot.hub.size')).toBe(0);
    const commandEvents = await evaluate<string[]>(
      worker,
      `globalThis.tabpilot.session.bus.history().filter((record) => record.source !== undefined && !['session', 'browser'].includes(record.source)).map((record) => record.type)`,
    );
    expect(commandEvents).toEqual([]);
  });

  it('while the same port from our own panel page is answered', async () => {
    const { targetId } = await client.root.send('Target.createTarget', { url: PANEL_URL, background: true });
    const panel = await client.attach(targetId);
    const answer = await pollUntil(
      async () =>
        evaluate<{ ok: boolean } | null>(
          panel,
          `typeof chrome === 'object' && chrome.runtime?.connect ? new Promise((resolve) => {
            const port = chrome.runtime.connect(${JSON.stringify(EXTENSION_ID)}, { name: 'tabpilot-panel' });
            port.onMessage.addListener((message) => { if (message.type === 'response') { port.disconnect(); resolve(message.response); } });
            port.postMessage({ type: 'command', request: { id: 'own', action: 'tabs', params: {} } });
          }) : null`,
        ).then((value) => value ?? undefined),
      { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('our own page got no answer') },
    );
    expect(answer).toMatchObject({ ok: true, id: 'own' });
  });
});
