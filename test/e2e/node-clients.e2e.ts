import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../src/browser/session';
import { composeNodeSession } from '../../src/entries/node/compose';
import type { CommandResponse } from '../../src/protocol/commands';
import type { CommandServer } from '../../src/tools/command-server';
import { evaluate, TEST_FLAGS } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';

/**
 * The lease rules over the Node transport: several native or MCP clients of one Node session each
 * get their own background tab and are refused on each other's. Tab groups have no CDP API, so in
 * Node the tabs are not grouped (the extension groups them with chrome.tabGroups).
 */

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

describe('several clients of one Node session', () => {
  const server = new FixtureServer();
  let session: BrowserSession;
  let commands: CommandServer;
  let id = 0;
  const client = (name: string, kind: 'native' | 'mcp' | 'cli') => {
    const connection = commands.connect({ id: name, kind }, { send: () => undefined });
    return (action: string, params: Record<string, unknown> = {}) => connection.handle({ id: ++id, action, params });
  };

  beforeAll(async () => {
    await server.start();
    const base = defaultConfig();
    ({ session, server: commands } = composeNodeSession({
      config: { ...base, launch: { ...base.launch, headless: true, args: [...TEST_FLAGS] } },
    }));
    await session.start();
  });

  afterAll(async () => {
    await session?.stop();
    await server.stop();
  });

  it('gives each client its own tab and refuses one on the other’s, naming the owner', async () => {
    const cli = client('stdin', 'cli');
    const blank = ok<{ focused_tab_id: string }>(await cli('tabs')).focused_tab_id;
    const alpha = client('mcp:alpha', 'mcp');
    const beta = client('tabpilot', 'native');
    const [a, b] = await Promise.all([
      alpha('navigate', { url: server.url('/a.html') }),
      beta('navigate', { url: server.url('/b.html') }),
    ]);
    const alphaTab = ok<{ tab_id: string }>(a).tab_id;
    const betaTab = ok<{ tab_id: string }>(b).tab_id;
    expect(new Set([blank, alphaTab, betaTab]).size).toBe(3);
    expect(ok<{ url: string }>(await alpha('state')).url).toBe(server.url('/a.html'));
    expect(await beta('go_back', { tab_id: alphaTab })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { owner: 'mcp:alpha' } },
    });
    // The stdin client (one per process, as before) is not leased: it acts anywhere, as the person does.
    expect(await cli('refresh', { tab_id: alphaTab })).toMatchObject({ ok: true });
    const tabs = ok<{ tabs: Array<{ tab_id: string; owner: string | null }> }>(await cli('tabs'));
    expect(Object.fromEntries(tabs.tabs.map((tab) => [tab.tab_id, tab.owner]))).toEqual({
      [blank]: null,
      [alphaTab]: 'mcp:alpha',
      [betaTab]: 'tabpilot',
    });
    // What alpha emulates in its tab is its own: cleared when it lets the tab go.
    const zone = (): Promise<string> =>
      evaluate<string>(
        session.targets.requireSession(session.tabIds.targetFor(alphaTab) ?? ''),
        'Intl.DateTimeFormat().resolvedOptions().timeZone',
      );
    const ownZone = await zone();
    expect(ok(await alpha('emulate', { timezone: 'Asia/Tokyo' }))).toMatchObject({ timezone: 'Asia/Tokyo' });
    expect(await zone()).toBe('Asia/Tokyo');
    // release ends the lease only: in Node it never lets go of the browser under the other clients.
    expect(ok<{ released_tab_ids: string[] }>(await alpha('release'))).toEqual({ released_tab_ids: [alphaTab] });
    expect(session.connectionState).toBe('connected');
    expect(ownZone).not.toBe('Asia/Tokyo');
    expect(await zone()).toBe(ownZone);
  });
});
