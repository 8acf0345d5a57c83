import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import { CommandServer } from './command-server';
import { createDefaultRegistry } from './actions';
import { servedConfig } from '../../test/fakes/served-config';

async function client() {
  const { session } = await startedFakeSession();
  const server = new CommandServer(session, createDefaultRegistry(), servedConfig);
  const connection = server.connect({ id: 't1', kind: 'test' }, { send: () => undefined });
  const other = server.connect({ id: 't2', kind: 'test' }, { send: () => undefined });
  const started = (type: string) =>
    new Promise<void>((resolve) =>
      session.bus.observe(({ phase, record }) => phase === 'started' && record.event.type === type && resolve()),
    );
  return { session, connection, other, started };
}

describe('CommandServer cancel: a client cancels one of its own requests', () => {
  it('cancels a running request on the bus at once, and the client’s next request runs', async () => {
    const { session, connection, started } = await client();
    const running = started('WaitEvent');
    const wait = connection.handle({ id: 'long', action: 'wait', params: { seconds: 30 } });
    await running;
    // Answered at once, though the wait still holds the client's chain.
    expect(await connection.handle({ id: 'c', action: 'cancel', params: { request_id: 'long' } })).toEqual({
      id: 'c',
      ok: true,
      result: { cancelled: true },
    });
    expect(await wait).toMatchObject({ id: 'long', ok: false, error: { code: 'CANCELLED' } });
    // The event itself was cancelled on the bus (its handler's signal aborted), not only the answer.
    const record = session.bus.history().find((view) => view.type === 'WaitEvent');
    expect(record?.status).toBe('completed');
    expect(record?.handlers[0]).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    expect(await connection.handle({ id: 'next', action: 'wait', params: { seconds: 0 } })).toMatchObject({
      ok: true,
      result: { waited_seconds: 0 },
    });
  });

  it('answers a queued request CANCELLED without running it, and leaves the one before it running', async () => {
    const { session, connection, started } = await client();
    const running = started('WaitEvent');
    const first = connection.handle({ id: 1, action: 'wait', params: { seconds: 0.2 } });
    await running;
    const second = connection.handle({ id: 2, action: 'navigate', params: { url: 'http://a.test/' } });
    expect(await connection.handle({ id: 3, action: 'cancel', params: { request_id: 2 } })).toMatchObject({
      result: { cancelled: true },
    });
    expect(await first).toMatchObject({ id: 1, ok: true, result: { waited_seconds: 0.2 } });
    expect(await second).toMatchObject({ id: 2, ok: false, error: { code: 'CANCELLED' } });
    expect(session.bus.history().some((view) => view.type === 'NavigateToUrlEvent')).toBe(false);
  });

  it('touches only the caller’s own requests: another client’s id is not found, and its work goes on', async () => {
    const { connection, other, started } = await client();
    const running = started('WaitEvent');
    const theirs = other.handle({ id: 'x', action: 'wait', params: { seconds: 0.1 } });
    await running;
    expect(await connection.handle({ id: 1, action: 'cancel', params: { request_id: 'x' } })).toMatchObject({
      ok: true,
      result: { cancelled: false },
    });
    expect(await theirs).toMatchObject({ id: 'x', ok: true });
  });

  it('refuses a cancel without a request_id as INVALID_PARAMS naming the field', async () => {
    const { connection } = await client();
    expect(await connection.handle({ id: 1, action: 'cancel', params: {} })).toMatchObject({
      id: 1,
      ok: false,
      error: { code: 'INVALID_PARAMS', details: { field: 'request_id' } },
    });
  });

  it('a client that goes away mid-call with cancelRunning leaves no work running', async () => {
    const { session, connection, started } = await client();
    const running = started('WaitEvent');
    const wait = connection.handle({ id: 1, action: 'wait', params: { seconds: 30 } });
    await running;
    connection.close({ cancelRunning: true });
    expect(await wait).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(session.bus.history().find((view) => view.type === 'WaitEvent')?.status).toBe('completed');
  });
});
