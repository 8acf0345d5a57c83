import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import type { EventMessage, ServerMessage } from '../protocol/commands';
import { createDefaultRegistry } from './actions';
import { ClientGate } from './client-gate';
import { ClientLeases } from './client-leases';
import { CommandServer } from './command-server';
import { servedConfig } from '../../test/fakes/served-config';

async function setup() {
  const { session } = await startedFakeSession();
  const registry = createDefaultRegistry();
  const server = new CommandServer(session, registry, servedConfig);
  const gate = new ClientGate(session, registry, { leases: new ClientLeases() });
  gate.install();
  server.useGate(gate);
  let id = 0;
  const connect = (name: string, kind: 'native' | 'mcp' | 'panel') => {
    const events: EventMessage[] = [];
    const connection = server.connect(
      { id: name, kind },
      {
        send: (message: ServerMessage) => {
          if ('event' in message) {
            events.push(message);
          }
        },
      },
    );
    const call = (action: string, params: Record<string, unknown> = {}) =>
      connection.handle({ id: ++id, action, params });
    return { call, events };
  };
  return { connect, session };
}

describe('subscriptions: what one program does stays its own', () => {
  it('a program subscribed to * gets its own events and its tabs’, nothing of another program’s; the panel gets all', async () => {
    const { connect } = await setup();
    const alpha = connect('alpha', 'native');
    const beta = connect('beta', 'mcp');
    const panel = connect('p1', 'panel');
    expect(await alpha.call('subscribe', { events: ['*'] })).toMatchObject({ ok: true });
    expect(await panel.call('subscribe', { events: ['*'] })).toMatchObject({ ok: true });
    const betaTab = await beta.call('navigate', { url: 'https://beta.test/secret' });
    expect(betaTab).toMatchObject({ ok: true });
    const alphaTab = await alpha.call('navigate', { url: 'https://alpha.test/' });
    expect(alphaTab).toMatchObject({ ok: true });
    expect(alpha.events.length).toBeGreaterThan(0);
    expect(alpha.events.every((event) => event.source === 'native:alpha' || event.source === null)).toBe(true);
    expect(JSON.stringify(alpha.events)).not.toContain('beta.test');
    expect(alpha.events.map((event) => event.event)).toContain('NavigateToUrlEvent');
    // The person sees both programs' work.
    const sources = new Set(panel.events.map((event) => event.source));
    expect(sources).toContain('native:alpha');
    expect(sources).toContain('mcp:beta');
    expect(JSON.stringify(panel.events)).toContain('beta.test');
  });

  it('a program gets the events of a tab it leases whoever caused them (the person acting in it)', async () => {
    const { connect } = await setup();
    const alpha = connect('alpha', 'native');
    const panel = connect('p1', 'panel');
    const navigated = await alpha.call('navigate', { url: 'https://alpha.test/' });
    const tabId = navigated.ok ? (navigated.result as { tab_id: string }).tab_id : '';
    expect(await alpha.call('subscribe', { events: ['NavigateToUrlEvent'] })).toMatchObject({ ok: true });
    expect(await panel.call('navigate', { url: 'https://alpha.test/by-person', tab_id: tabId })).toMatchObject({
      ok: true,
    });
    expect(alpha.events.map((event) => [event.event, event.source])).toEqual([['NavigateToUrlEvent', 'panel:p1']]);
  });

  it('every program subscribed gets BrowserStoppedEvent when the person stops the browser, and still nothing of another’s work', async () => {
    const { connect } = await setup();
    const alpha = connect('alpha', 'native');
    const beta = connect('beta', 'mcp');
    const unsubscribed = connect('gamma', 'native');
    const panel = connect('p1', 'panel');
    expect(await alpha.call('subscribe', { events: ['*'] })).toMatchObject({ ok: true });
    expect(await beta.call('subscribe', { events: ['BrowserStoppedEvent'] })).toMatchObject({ ok: true });
    expect(await beta.call('navigate', { url: 'https://beta.test/secret' })).toMatchObject({ ok: true });
    expect(await panel.call('stop')).toMatchObject({ ok: true });
    for (const client of [alpha, beta]) {
      expect(client.events.filter((event) => event.event === 'BrowserStoppedEvent')).toEqual([
        expect.objectContaining({ event: 'BrowserStoppedEvent', source: 'panel:p1' }),
      ]);
    }
    expect(JSON.stringify(alpha.events)).not.toContain('beta.test');
    expect(alpha.events.map((event) => event.event)).toEqual(['BrowserStoppedEvent']);
    expect(unsubscribed.events).toEqual([]);
  });
});
