import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import type { CommandResponse } from '../protocol/commands';
import { ClientGate, type TabGrouper } from './client-gate';
import { ClientLeases } from './client-leases';
import { CommandServer } from './command-server';
import { createDefaultRegistry } from './actions';
import { servedConfig } from '../../test/fakes/served-config';

interface TabsResult {
  tabs: Array<{ tab_id: string; owner: string | null; focused: boolean }>;
  focused_tab_id: string | null;
}

async function setup(options: { withTabControl?: boolean; hold?: () => string | undefined } = {}) {
  const host =
    options.withTabControl === true
      ? {
          tabControl: {
            listAll: () => Promise.resolve([]),
            attach: () => Promise.reject(new Error('not used')),
            release: () => Promise.resolve(),
          },
        }
      : undefined;
  const { session, browser } = await startedFakeSession(host === undefined ? {} : { host });
  const registry = createDefaultRegistry();
  const server = new CommandServer(session, registry, servedConfig);
  const leases = new ClientLeases();
  const grouped: Array<[string, string]> = [];
  const grouper: TabGrouper = {
    group: (targetId, client) => {
      grouped.push([targetId, client]);
      return Promise.resolve();
    },
    ungroup: () => Promise.resolve(),
  };
  const gate = new ClientGate(session, registry, {
    leases,
    grouper,
    ...(options.hold === undefined ? {} : { hold: options.hold }),
  });
  gate.install();
  server.useGate(gate);
  let id = 0;
  const connect = (name: string, kind: 'native' | 'mcp' | 'agent' | 'panel' | 'test' = 'native') => {
    const connection = server.connect({ id: name, kind }, { send: () => undefined });
    return (action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> =>
      connection.handle({ id: ++id, action, params });
  };
  return { session, browser, leases, grouped, connect };
}

function result<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

describe('ClientGate: several clients in one browser', () => {
  it('opens a background tab for a client with none, grouped under its name, and keeps it its own', async () => {
    const { session, browser, connect, grouped, leases } = await setup();
    const person = connect('person', 'test');
    const before = result<TabsResult>(await person('tabs'));
    const alpha = connect('mcp:alpha');
    const navigated = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' }));
    expect(before.tabs.map((tab) => tab.tab_id)).not.toContain(navigated.tab_id);
    const target = session.tabIds.targetFor(navigated.tab_id) ?? '';
    expect(leases.owner(target)).toBe('mcp:alpha');
    expect(grouped).toContainEqual([target, 'mcp:alpha']);
    expect(browser.sent.filter((message) => message.method === 'Target.createTarget').at(-1)?.params).toMatchObject({
      background: true,
    });
    // A second command without tab_id goes to the client's own tab, not the session's focus.
    const again = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/2' }));
    expect(again.tab_id).toBe(navigated.tab_id);
  });

  it("refuses a client's command on another client's tab with FORBIDDEN naming the owner; the person may act", async () => {
    const { connect } = await setup();
    const alpha = connect('mcp:alpha');
    const beta = connect('tabpilot');
    const alphaTab = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' })).tab_id;
    const betaTab = result<{ tab_id: string }>(await beta('navigate', { url: 'https://b.test/' })).tab_id;
    expect(alphaTab).not.toBe(betaTab);
    const refused = await beta('refresh', { tab_id: alphaTab });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { owner: 'mcp:alpha', tab_id: alphaTab } },
    });
    expect(refused.ok ? '' : refused.error.message).toContain('mcp:alpha');
    expect(await beta('switch', { tab_id: alphaTab })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const person = connect('person', 'test');
    expect(await person('refresh', { tab_id: alphaTab })).toMatchObject({ ok: true });
  });

  it('shows each tab with its owner, and each client its own focused tab', async () => {
    const { connect } = await setup();
    const alpha = connect('mcp:alpha');
    const beta = connect('mcp:beta');
    const alphaTab = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' })).tab_id;
    const betaTab = result<{ tab_id: string }>(await beta('navigate', { url: 'https://b.test/' })).tab_id;
    const seenByAlpha = result<TabsResult>(await alpha('tabs'));
    expect(seenByAlpha.focused_tab_id).toBe(alphaTab);
    expect(seenByAlpha.tabs.find((tab) => tab.tab_id === alphaTab)).toMatchObject({
      owner: 'mcp:alpha',
      focused: true,
    });
    expect(seenByAlpha.tabs.find((tab) => tab.tab_id === betaTab)).toMatchObject({ owner: 'mcp:beta', focused: false });
    expect(result<TabsResult>(await beta('tabs')).focused_tab_id).toBe(betaTab);
    const person = result<TabsResult>(await connect('person', 'test')('tabs'));
    expect(person.tabs.filter((tab) => tab.owner === null)).toHaveLength(1);
  });

  it('answers NOT_ATTACHED to a client with no tab that asks for something other than a navigation', async () => {
    const { connect } = await setup();
    const response = await connect('mcp:new')('state');
    expect(response).toMatchObject({ ok: false, error: { code: 'NOT_ATTACHED' } });
    expect(response.ok ? '' : response.error.message).toContain('mcp:new has no tab yet');
  });

  it('lets a client take a tab nobody owns with switch, and gives it the tabs its tab opens', async () => {
    const { connect, leases, session, browser } = await setup();
    const person = result<TabsResult>(await connect('person', 'test')('tabs'));
    const free = person.tabs[0]?.tab_id ?? '';
    const alpha = connect('mcp:alpha');
    result(await alpha('switch', { tab_id: free, activate: false }));
    const freeTarget = session.tabIds.targetFor(free) ?? '';
    expect(leases.owner(freeTarget)).toBe('mcp:alpha');
    expect(leases.focusOf('mcp:alpha')).toBe(freeTarget);
    const popup = browser.addPage('https://popup.test/', freeTarget).targetId;
    await expect.poll(() => leases.owner(popup)).toBe('mcp:alpha');
  });

  it('release ends only the client’s own leases; in Node the tabs stay open', async () => {
    const { connect, leases, session } = await setup();
    const alpha = connect('mcp:alpha');
    const beta = connect('mcp:beta');
    const alphaTab = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' })).tab_id;
    const betaTab = result<{ tab_id: string }>(await beta('navigate', { url: 'https://b.test/' })).tab_id;
    expect(await alpha('release', { tab_id: betaTab })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(result<{ released_tab_ids: string[] }>(await alpha('release'))).toEqual({ released_tab_ids: [alphaTab] });
    expect(leases.owner(session.tabIds.targetFor(alphaTab) ?? '')).toBeUndefined();
    expect(leases.owner(session.tabIds.targetFor(betaTab) ?? '')).toBe('mcp:beta');
    expect(session.targets.target(session.tabIds.targetFor(alphaTab) ?? '')).toBeDefined();
  });

  it('ends a lease when its tab closes, moving the focus to the client’s other tab', async () => {
    const { connect, leases, session } = await setup();
    const alpha = connect('mcp:alpha');
    const first = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' })).tab_id;
    const second = result<{ tab_id: string }>(
      await alpha('navigate', { url: 'https://a.test/2', new_tab: true }),
    ).tab_id;
    expect(second).not.toBe(first);
    expect(leases.focusOf('mcp:alpha')).toBe(session.tabIds.targetFor(second));
    result(await alpha('close', { tab_id: second }));
    expect(leases.focusOf('mcp:alpha')).toBe(session.tabIds.targetFor(first));
  });

  it('refuses stop from a native client where the browser is the person’s', async () => {
    const { connect } = await setup({ withTabControl: true });
    expect(await connect('mcp:alpha')('stop')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('under the person’s hold refuses a client’s attach, navigate, search and new tab FORBIDDEN with the reason; the person may act', async () => {
    let hold: string | undefined;
    const { connect, browser } = await setup({ hold: () => hold });
    const alpha = connect('mcp:alpha');
    const alphaTab = result<{ tab_id: string }>(await alpha('navigate', { url: 'https://a.test/' })).tab_id;
    hold = 'the person pressed Stop in the panel';
    const created = browser.sent.filter((message) => message.method === 'Target.createTarget').length;
    for (const [action, params] of [
      ['attach', { tab_id: alphaTab }],
      ['navigate', { url: 'https://a.test/2' }],
      ['navigate', { url: 'https://a.test/3', new_tab: true }],
      ['search', { query: 'x' }],
      ['refresh', {}],
    ] as const) {
      const refused = await alpha(action, params);
      expect(refused, action).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', details: { hold: 'the person pressed Stop in the panel' } },
      });
      expect(refused.ok ? '' : refused.error.message).toContain('presses Resume in the panel');
    }
    // A client with no tab yet is refused before any tab opens for it.
    expect(await connect('mcp:beta')('navigate', { url: 'https://b.test/' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(browser.sent.filter((message) => message.method === 'Target.createTarget')).toHaveLength(created);
    // Reading is not held, and the person is never held by their own Stop.
    expect(await alpha('tabs')).toMatchObject({ ok: true });
    expect(await connect('person', 'test')('navigate', { url: 'https://p.test/', tab_id: alphaTab })).toMatchObject({
      ok: true,
    });
    hold = undefined;
    expect(await alpha('navigate', { url: 'https://a.test/4' })).toMatchObject({ ok: true });
  });

  it("refuses the person's own actions to every program and the agent, on every transport, and lets the person past", async () => {
    for (const withTabControl of [false, true]) {
      const { connect } = await setup({ withTabControl });
      for (const kind of ['native', 'mcp', 'agent'] as const) {
        for (const action of ['record_start', 'record_stop']) {
          expect(await connect(`${kind}-client`, kind)(action), `${kind} ${action}`).toMatchObject({
            ok: false,
            error: { code: 'FORBIDDEN', message: expect.stringContaining("the person's alone") },
          });
        }
      }
      // The person gets past the gate to the bus (this fake session has no watchdog to answer the event).
      expect(await connect('sidepanel', 'panel')('record_stop')).toMatchObject({
        ok: false,
        error: { details: { event: 'RecordFlowStopEvent' } },
      });
    }
  });
});
