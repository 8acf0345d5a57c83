import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse, EventMessage } from '../../src/protocol/commands';
import { processAlive } from '../../src/platform/node/native/discovery';
import { pollUntil } from '../../src/shared/time';
import { PANEL_URL } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';
import { NativeChain } from './harness/native';

/**
 * The chain when a part of it goes away: the host killed while commands flow, the worker stopped
 * while a client is connected, native clients turned off and on. Every open command is answered
 * (done, or DISCONNECTED), the extension starts a new host, and the clients reconnect and go on with
 * their own tabs. Real Chromium, the real host; the worker is reached over CDP only to stop it.
 */

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string; owner: string | null; focused: boolean }>;
  focused_tab_id: string | null;
}

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

describe('native messaging: the host or the worker going away', () => {
  const server = new FixtureServer();
  let chain: NativeChain;

  beforeAll(async () => {
    await server.start();
    chain = await NativeChain.start();
    await chain.host();
  });

  afterAll(async () => {
    await chain?.close();
    await server.stop();
  });

  it('host killed while commands flow: each open command is answered, a new host starts, the client goes on', async () => {
    const client = await chain.connect('tabpilot:flow', 30_000);
    const events: EventMessage[] = [];
    client.onMessage((message) => {
      if ('event' in message) {
        events.push(message);
      }
    });
    ok(await client.request('subscribe', { events: ['NavigationCompleteEvent'] }));
    const tab = ok<{ tab_id: string }>(await client.request('navigate', { url: server.url('/a.html') })).tab_id;
    const first = await chain.host();
    const flowing: Array<Promise<CommandResponse>> = [];
    for (let i = 0; i < 30; i++) {
      flowing.push(client.request(i % 2 === 0 ? 'tabs' : 'wait', i % 2 === 0 ? {} : { seconds: 0.1 }));
    }
    // Queued behind the 30 (a client's requests run in order): surely still open when the host dies.
    const long = client.request('wait', { seconds: 3 });
    // Some are answered, some still open, when the host dies.
    await flowing[3];
    process.kill(first.record.pid, 'SIGKILL');
    const answers = await Promise.all(flowing);
    expect(await long).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    const codes = answers.map((answer) => (answer.ok ? 'ok' : answer.error.code));
    for (const code of codes) {
      expect(['ok', 'DISCONNECTED']).toContain(code);
    }
    expect(codes.slice(0, 4)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const second = await chain.host({ not: first.record.pid });
    expect(processAlive(first.record.pid)).toBe(false);
    await pollUntil(
      () => (client.state === 'connected' && client.record?.pid === second.record.pid ? true : undefined),
      {
        timeoutMs: 20_000,
        onTimeout: () => new Error(`the client did not reconnect (state ${client.state})`),
      },
    );
    // Its tab is still its own and still its focus; its subscription was renewed.
    const tabs = ok<TabsResult>(await client.request('tabs'));
    expect(tabs.focused_tab_id).toBe(tab);
    expect(tabs.tabs.find((candidate) => candidate.tab_id === tab)?.owner).toBe('tabpilot:flow');
    events.length = 0;
    ok(await client.request('navigate', { url: server.url('/b.html') }));
    await pollUntil(() => events.find((event) => event.event === 'NavigationCompleteEvent'), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('no event after the reconnect: the subscription was not renewed'),
    });
    client.close();
  });

  it('worker stopped while a client is connected: its open command is DISCONNECTED, then it goes on in its tab', async () => {
    const client = await chain.connect('tabpilot:steady', 30_000);
    const tab = ok<{ tab_id: string }>(await client.request('navigate', { url: server.url('/c.html') })).tab_id;
    const before = await chain.host();
    const open = client.request('wait', { seconds: 20 });
    await pollUntil(
      async () =>
        (await chain.inWorker<number>('globalThis.tabpilot.native.clients.connectionCount')) > 0 ? true : undefined,
      { timeoutMs: 5000, onTimeout: () => new Error('the worker never saw the client') },
    );
    await chain.restartWorker(PANEL_URL);
    const answer = await open;
    expect(answer).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    const after = await chain.host({ not: before.record.pid });
    await pollUntil(
      () => (client.state === 'connected' && client.record?.pid === after.record.pid ? true : undefined),
      {
        timeoutMs: 20_000,
        onTimeout: () => new Error(`the client did not reconnect (state ${client.state})`),
      },
    );
    // The new worker kept the client's lease and focus (chrome.storage.session).
    const state = ok<{ url: string; tab_id: string }>(await client.request('state'));
    expect(state).toMatchObject({ url: server.url('/c.html'), tab_id: tab });
    const tabs = ok<TabsResult>(await client.request('tabs'));
    expect(tabs.tabs.find((candidate) => candidate.tab_id === tab)?.owner).toBe('tabpilot:steady');
    client.close();
  });

  it('native clients turned off in the settings stop the host; turned on, a new one starts', async () => {
    const running = await chain.host();
    await chain.inWorker(
      `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { enabled: false, approve_new_clients: false } })`,
    );
    await pollUntil(() => (processAlive(running.record.pid) ? undefined : true), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('the host kept running with native clients off'),
    });
    const off = await chain.cli(['tabs']);
    expect(off.code).toBe(3);
    expect(off.stderr).toContain('tabpilot doctor');
    await chain.inWorker(
      `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { enabled: true, approve_new_clients: false } })`,
    );
    await chain.host({ not: running.record.pid });
    expect((await chain.cli(['tabs'])).code).toBe(0);
  });
});
