import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import type { ServerMessage } from '../protocol/commands';
import { CommandServer } from './command-server';
import { createDefaultRegistry } from './actions';
import { servedConfig } from '../../test/fakes/served-config';

async function client() {
  const { session, browser } = await startedFakeSession();
  const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
  const out: ServerMessage[] = [];
  const connection = server.connect({ id: 't1', kind: 'test' }, { send: (m) => out.push(m) });
  return { session, browser, server, connection, out };
}

describe('CommandServer', () => {
  it('answers an unparsable line with INVALID_JSON and id null, and carries on', async () => {
    const { connection, out } = await client();
    await connection.handleLine('{not json');
    await connection.handleLine('{"id": 2, "action": "tabs"}');
    expect(out[0]).toMatchObject({ id: null, ok: false, error: { code: 'INVALID_JSON' } });
    expect(out[1]).toMatchObject({ id: 2, ok: true });
  });

  it('answers a request of the wrong shape with INVALID_REQUEST, echoing its id', async () => {
    const { connection } = await client();
    expect(await connection.handle({ id: 7, params: {} })).toMatchObject({
      id: 7,
      ok: false,
      error: { code: 'INVALID_REQUEST' },
    });
    expect(await connection.handle({ id: 8, action: 'tabs', extra: 1 })).toMatchObject({
      id: 8,
      error: { code: 'INVALID_REQUEST' },
    });
    expect(await connection.handle([1, 2])).toMatchObject({ id: null, error: { code: 'INVALID_REQUEST' } });
  });

  it('answers an unknown action with UNKNOWN_ACTION', async () => {
    const { connection } = await client();
    expect(await connection.handle({ id: 1, action: 'fly' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_ACTION' },
    });
  });

  it('answers bad params with INVALID_PARAMS naming the field', async () => {
    const { connection } = await client();
    const response = await connection.handle({ id: 1, action: 'navigate', params: { url: 5 } });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { field: 'url' } } });
    const unknown = await connection.handle({ id: 2, action: 'wait', params: { secs: 1 } });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { field: 'secs' } } });
    const tab = await connection.handle({ id: 3, action: 'switch', params: { tab_id: 'zzzz' } });
    expect(tab).toMatchObject({ ok: false, error: { code: 'TAB_NOT_FOUND' } });
  });

  it('navigates and lists tabs with short tab ids', async () => {
    const { connection } = await client();
    const nav = await connection.handle({ id: 1, action: 'navigate', params: { url: 'a.test/x' } });
    expect(nav).toMatchObject({ ok: true, result: { url: 'https://a.test/x', loading_status: null } });
    const tabs = await connection.handle({ id: 2, action: 'tabs' });
    expect(tabs.ok && (tabs.result as { tabs: Array<{ tab_id: string; focused: boolean }> }).tabs[0]).toMatchObject({
      focused: true,
    });
    const tabId = tabs.ok ? (tabs.result as { tabs: Array<{ tab_id: string }> }).tabs[0]?.tab_id : '';
    expect(tabId).toHaveLength(4);
  });

  it('sends subscribed events only, tagged with their source', async () => {
    const { connection, out, browser } = await client();
    await connection.handle({ id: 1, action: 'subscribe', params: { events: ['TabCreatedEvent'] } });
    browser.addPage('http://popup.test/');
    await connection.handle({ id: 2, action: 'navigate', params: { url: 'http://a.test/' } });
    await new Promise((r) => setTimeout(r, 20));
    const events = out.filter((m) => 'event' in m);
    expect(events.map((e) => ('event' in e ? e.event : ''))).toEqual(['TabCreatedEvent']);
    expect(await connection.handle({ id: 3, action: 'subscribe', params: { events: ['NoSuchEvent'] } })).toMatchObject({
      error: { code: 'INVALID_PARAMS' },
    });
  });

  it('describes every action with a JSON Schema, and the config schema', async () => {
    const { connection } = await client();
    const response = await connection.handle({ id: 1, action: 'describe' });
    const result = (response.ok ? response.result : {}) as {
      actions: Array<{ name: string; params_schema: { type: string } }>;
      config_schema: unknown;
    };
    const names = result.actions.map((a) => a.name);
    for (const name of [
      'navigate',
      'go_back',
      'go_forward',
      'refresh',
      'tabs',
      'switch',
      'close',
      'wait',
      'attach',
      'release',
      'subscribe',
      'describe',
      'stop',
    ]) {
      expect(names).toContain(name);
    }
    expect(result.actions.find((a) => a.name === 'navigate')?.params_schema.type).toBe('object');
    expect(result.config_schema).toMatchObject({ type: 'object' });
  });

  it('keeps serving other clients when one sends garbage', async () => {
    const { server, connection } = await client();
    const other: ServerMessage[] = [];
    const second = server.connect({ id: 't2', kind: 'test' }, { send: (m) => other.push(m) });
    await connection.handleLine('\u0000\u0001 garbage');
    await second.handleLine('{"id":"a","action":"wait","params":{"seconds":0}}');
    expect(other[0]).toMatchObject({ id: 'a', ok: true, result: { waited_seconds: 0 } });
  });

  it('stop cancels and detaches; later commands get NOT_ATTACHED until attach', async () => {
    const { connection } = await client();
    expect(await connection.handle({ id: 1, action: 'stop' })).toMatchObject({ ok: true, result: { stopped: true } });
    expect(await connection.handle({ id: 2, action: 'navigate', params: { url: 'http://a.test/' } })).toMatchObject({
      error: { code: 'NOT_ATTACHED' },
    });
  });

  it('runs nothing more for a client that closed: its queued requests are answered DISCONNECTED', async () => {
    const { connection, session } = await client();
    const started = new Promise<void>((resolve) =>
      session.bus.observe(({ phase }) => phase === 'started' && resolve()),
    );
    const running = connection.handle({ id: 1, action: 'wait', params: { seconds: 0.05 } });
    await started;
    const queued = connection.handle({ id: 2, action: 'wait', params: { seconds: 30 } });
    connection.close();
    expect(await running).toMatchObject({ id: 1, ok: true });
    expect(await queued).toMatchObject({ id: 2, ok: false, error: { code: 'DISCONNECTED' } });
  });
});
