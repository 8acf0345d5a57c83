import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../../../test/fakes/memory-store';
import { startedFakeSession } from '../../../../test/fakes/fake-session';
import { framesFor } from '../../../protocol/native-chunks';
import { HOST_TO_EXTENSION_MAX_BYTES, WorkerToHost } from '../../../protocol/native-messages';
import { createLogger } from '../../../shared/logger';
import { ClientGate } from '../../../tools/client-gate';
import { ClientLeases } from '../../../tools/client-leases';
import { CommandServer } from '../../../tools/command-server';
import { createDefaultRegistry } from '../../../tools/actions';
import { ClientApprovals } from './client-approvals';
import { hashClientKey } from './client-key';
import { HELD_REQUEST_LIMIT, NativeClients } from './native-clients';
import { NativeLink, type NativePortLike, type NativeRuntime } from './native-link';
import { SERVED_CONFIG } from '../../../agent/tabpilot-config';

class FakePort implements NativePortLike {
  readonly posted: unknown[] = [];
  readonly #messageListeners: Array<(message: unknown) => void> = [];
  readonly #disconnectListeners: Array<() => void> = [];
  disconnected = false;
  readonly onMessage = { addListener: (listener: (message: unknown) => void) => this.#messageListeners.push(listener) };
  readonly onDisconnect = { addListener: (listener: () => void) => this.#disconnectListeners.push(listener) };

  postMessage(message: unknown): void {
    // What Chrome does: the message is serialised as JSON on its way to the host.
    this.posted.push(JSON.parse(JSON.stringify(message)));
  }

  disconnect(): void {
    this.disconnected = true;
  }

  deliver(message: unknown): void {
    for (const listener of this.#messageListeners) {
      listener(message);
    }
  }

  die(): void {
    for (const listener of this.#disconnectListeners) {
      listener();
    }
  }
}

async function setup(options: { approve?: boolean } = {}) {
  const { session } = await startedFakeSession();
  const registry = createDefaultRegistry();
  const server = new CommandServer(session, registry, SERVED_CONFIG);
  const gate = new ClientGate(session, registry, { leases: new ClientLeases() });
  gate.install();
  server.useGate(gate);
  const ports: FakePort[] = [];
  const runtime: NativeRuntime = {
    connectNative: () => {
      const port = new FakePort();
      ports.push(port);
      return port;
    },
    lastErrorMessage: () => 'Native host has exited.',
  };
  const log = createLogger(() => undefined);
  const link = new NativeLink(runtime, log);
  const approvals = new ClientApprovals(memoryStore());
  const notes: string[] = [];
  const clients = new NativeClients({
    server,
    link,
    gate,
    approvals,
    approveNewClients: () => options.approve === true,
    extension: () => ({ id: 'x', version: '1', browser: 'fake', profile_id: 'p' }),
    secrets: () => [],
    note: (_level, text) => notes.push(text),
    describeTab: () => undefined,
    log,
  });
  link.setEnabled(true);
  const port = (): FakePort => ports[ports.length - 1] as FakePort;
  const sent = (): WorkerToHost[] => port().posted.map((message) => WorkerToHost.parse(message));
  const deliver = (message: unknown): void => port().deliver(message);
  const responses = () => sent().filter((message) => message.type === 'response');
  return { session, link, clients, ports, port, sent, deliver, responses, notes, gate };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('NativeClients (the worker side of native messaging)', () => {
  it('runs a client request through the CommandServer and answers it with its connection and seq', async () => {
    const { deliver, responses } = await setup();
    deliver({ type: 'client_connected', conn: 'c1', client: 'tabpilot', pid: null });
    deliver({ type: 'request', conn: 'c1', seq: 7, message: { id: 'a', action: 'tabs' } });
    await expect.poll(() => responses().length).toBe(1);
    expect(responses()[0]).toMatchObject({ conn: 'c1', seq: 7, response: { id: 'a', ok: true } });
  });

  it('never throws on 10,000 random messages; every well-formed request gets one typed answer', async () => {
    const { deliver, responses, link, sent } = await setup();
    deliver({ type: 'client_connected', conn: 'c1', client: 'tabpilot', pid: null });
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const shapes: Array<() => unknown> = [
      () => next(),
      () => 'string',
      () => null,
      () => [1, 2],
      () => ({ type: 'request' }),
      () => ({ type: 'request', conn: 'c1', seq: -1, message: {} }),
      () => ({ type: 'mystery', conn: 'c1' }),
      () => ({ type: 'chunk', id: 'q', index: 9, total: 2, data: '' }),
      () => ({ type: 'client_connected', conn: 'c1', client: 'not a name!', pid: null }),
    ];
    let requests = 0;
    let refused = 0;
    for (let i = 0; i < 10_000; i++) {
      if (i % 25 === 0) {
        const kinds = [
          { id: i, action: 'wait', params: { seconds: 0 } },
          { id: i, action: 'fly' },
          { id: i, params: 3 },
          [i],
          'x',
        ];
        deliver({ type: 'request', conn: 'c1', seq: i, message: kinds[requests % kinds.length] });
        requests++;
        continue;
      }
      const make = shapes[Math.floor(next() * shapes.length)] ?? (() => null);
      expect(() => deliver(make())).not.toThrow();
      refused++;
    }
    await expect.poll(() => responses().length, { timeout: 10_000 }).toBe(requests);
    const codes = new Set(
      responses().map((message) =>
        message.type === 'response' && !message.response.ok ? message.response.error.code : 'ok',
      ),
    );
    expect([...codes].sort()).toEqual(['INVALID_REQUEST', 'UNKNOWN_ACTION', 'ok']);
    expect(link.refused).toBe(refused);
    expect(sent().filter((message) => message.type === 'protocol_error')).toHaveLength(refused);
  });

  it('joins a request chunked over Chrome’s 1 MiB limit and runs it', async () => {
    const { deliver, responses } = await setup();
    deliver({ type: 'client_connected', conn: 'c1', client: 'tabpilot', pid: null });
    const big = {
      type: 'request',
      conn: 'c1',
      seq: 1,
      message: { id: 1, action: 'wait', params: { seconds: 0, pad: 'é'.repeat(900_000) } },
    };
    const frames = framesFor(big, HOST_TO_EXTENSION_MAX_BYTES, () => 'big');
    expect(frames.length).toBeGreaterThan(1);
    for (const frame of frames) {
      deliver(JSON.parse(frame));
    }
    await expect.poll(() => responses().length).toBe(1);
    // The request arrived whole: the CommandServer refused its unknown param by name.
    expect(responses()[0]).toMatchObject({
      response: { id: 1, ok: false, error: { code: 'INVALID_PARAMS', details: { field: 'pad' } } },
    });
  });

  it('holds a new client’s requests until the person allows it, and refuses them when the person does not', async () => {
    const { deliver, responses, clients, sent } = await setup({ approve: true });
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:agent', pid: 5 });
    deliver({ type: 'client_connected', conn: 'c2', client: 'mcp:other', pid: 6 });
    expect(sent()).toContainEqual(expect.objectContaining({ type: 'client_status', conn: 'c1', approval: 'pending' }));
    deliver({ type: 'request', conn: 'c1', seq: 1, message: { id: 1, action: 'tabs' } });
    deliver({ type: 'request', conn: 'c1', seq: 2, message: { id: 2, action: 'tabs' } });
    deliver({ type: 'request', conn: 'c2', seq: 3, message: { id: 3, action: 'tabs' } });
    expect(clients.status(true).clients.map((client) => [client.name, client.approval])).toEqual([
      ['mcp:agent', 'pending'],
      ['mcp:other', 'pending'],
    ]);
    expect(responses()).toHaveLength(0);
    await clients.answer('mcp:agent', 'once');
    await expect
      .poll(() => responses().map((message) => (message.type === 'response' ? message.seq : -1)))
      .toEqual([1, 2]);
    await clients.answer('mcp:other', 'deny');
    await expect.poll(() => responses().length).toBe(3);
    expect(responses()[2]).toMatchObject({ seq: 3, response: { id: 3, ok: false, error: { code: 'FORBIDDEN' } } });
    // Allowed once is this connection only: the same name connecting again is asked about again.
    deliver({ type: 'client_connected', conn: 'c3', client: 'mcp:agent', pid: 7 });
    deliver({ type: 'request', conn: 'c3', seq: 4, message: { id: 4, action: 'tabs' } });
    expect(clients.status(true).clients.find((client) => client.name === 'mcp:agent')?.approval).toBe('pending');
    expect(responses()).toHaveLength(3);
  });

  it('answers a held client’s ping only once the person allows it (nothing of the browser before), and a refused one’s FORBIDDEN', async () => {
    const { deliver, responses, clients, sent } = await setup({ approve: true });
    const pongs = () => sent().filter((message) => message.type === 'pong');
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:prober', pid: 5 });
    deliver({ type: 'client_connected', conn: 'c2', client: 'mcp:refused', pid: 6 });
    deliver({ type: 'ping', conn: 'c1', seq: 1 });
    deliver({ type: 'ping', conn: 'c2', seq: 2 });
    // Held: the only thing either has had is the held notice.
    expect(pongs()).toEqual([]);
    expect(responses()).toEqual([]);
    expect(
      sent()
        .filter((message) => 'conn' in message && message.conn === 'c1')
        .map((message) => message.type),
    ).toEqual(['client_status']);
    await clients.answer('mcp:prober', 'once');
    expect(pongs()).toEqual([
      { type: 'pong', conn: 'c1', seq: 1, extension: expect.objectContaining({ version: '1' }) },
    ]);
    await clients.answer('mcp:refused', 'deny');
    expect(responses()).toEqual([
      expect.objectContaining({
        conn: 'c2',
        seq: 2,
        response: expect.objectContaining({
          ok: false,
          error: expect.objectContaining({ code: 'FORBIDDEN', details: { approval: 'denied' } }),
        }),
      }),
    ]);
    // Refused stays refused; allowed answers at once.
    deliver({ type: 'ping', conn: 'c2', seq: 3 });
    deliver({ type: 'ping', conn: 'c1', seq: 4 });
    expect(responses().map((message) => message.seq)).toEqual([2, 3]);
    expect(pongs().map((message) => message.seq)).toEqual([1, 4]);
  });

  it('counts a held client’s pings against its limit of waiting requests', async () => {
    const { deliver, responses, sent } = await setup({ approve: true });
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:prober', pid: 5 });
    for (let seq = 1; seq <= HELD_REQUEST_LIMIT + 1; seq++) {
      deliver({ type: 'ping', conn: 'c1', seq });
    }
    expect(sent().filter((message) => message.type === 'pong')).toEqual([]);
    expect(responses()).toEqual([
      expect.objectContaining({
        seq: HELD_REQUEST_LIMIT + 1,
        response: expect.objectContaining({
          error: expect.objectContaining({ code: 'FORBIDDEN', details: { approval: 'pending' } }),
        }),
      }),
    ]);
  });

  it('allowed until revoked, a program is let in again with its key from the same executable; a name alone, or the key from another executable, is held', async () => {
    const { deliver, responses, clients, sent } = await setup({ approve: true });
    const peer = (pid: number, exe: string) => ({ pid, exe, cmdline: `${exe} agent`, parent: null });
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:agent', pid: 5, peer: peer(5, '/usr/bin/agent') });
    expect(clients.status(true).clients[0]?.waiting).toEqual([
      { conn: 'c1', claimed_pid: 5, peer: peer(5, '/usr/bin/agent') },
    ]);
    await clients.answer('mcp:agent', 'always', 'c1');
    const status = sent().find((message) => message.type === 'client_status' && message.approval === 'approved');
    const key = status?.type === 'client_status' ? status.key : undefined;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const keyHash = await hashClientKey(key ?? '');

    deliver({
      type: 'client_connected',
      conn: 'c2',
      client: 'mcp:agent',
      pid: 8,
      peer: peer(8, '/usr/bin/agent'),
      key_hash: keyHash,
    });
    deliver({ type: 'request', conn: 'c2', seq: 1, message: { id: 1, action: 'tabs' } });
    await expect.poll(() => responses().length).toBe(1);
    expect(responses()[0]).toMatchObject({ conn: 'c2', response: { ok: true } });

    // Same name, no key: an impostor, held. Same name and key, another executable: held too.
    deliver({ type: 'client_connected', conn: 'c3', client: 'mcp:agent', pid: 9, peer: peer(9, '/usr/bin/agent') });
    deliver({
      type: 'client_connected',
      conn: 'c4',
      client: 'mcp:agent',
      pid: 10,
      peer: peer(10, '/tmp/evil'),
      key_hash: keyHash,
    });
    deliver({ type: 'request', conn: 'c3', seq: 2, message: { id: 2, action: 'tabs' } });
    deliver({ type: 'request', conn: 'c4', seq: 3, message: { id: 3, action: 'tabs' } });
    expect(clients.status(true).clients[0]?.waiting.map((waiting) => waiting.conn)).toEqual(['c3', 'c4']);
    expect(responses()).toHaveLength(1);

    // Disconnect forgets the grant: the key no longer lets the program in.
    await clients.disconnect('mcp:agent');
    deliver({
      type: 'client_connected',
      conn: 'c5',
      client: 'mcp:agent',
      pid: 11,
      peer: peer(11, '/usr/bin/agent'),
      key_hash: keyHash,
    });
    expect(clients.status(true).clients[0]?.approval).toBe('pending');
  });

  it('bounds a held connection’s waiting requests: the one past the limit is refused FORBIDDEN, saying why', async () => {
    const { deliver, responses } = await setup({ approve: true });
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:agent', pid: 5 });
    for (let seq = 1; seq <= HELD_REQUEST_LIMIT + 1; seq++) {
      deliver({ type: 'request', conn: 'c1', seq, message: { id: seq, action: 'tabs' } });
    }
    expect(responses()).toHaveLength(1);
    expect(responses()[0]).toMatchObject({
      seq: HELD_REQUEST_LIMIT + 1,
      response: { ok: false, error: { code: 'FORBIDDEN', details: { approval: 'pending' } } },
    });
    const refused = responses()[0];
    expect(refused?.type === 'response' && !refused.response.ok ? refused.response.error.message : '').toContain(
      `already has ${HELD_REQUEST_LIMIT} requests waiting`,
    );
  });

  it('refuses a held client nobody answered once the wait is over, saying so', async () => {
    const { deliver, responses } = await setup({ approve: true });
    vi.useFakeTimers();
    deliver({ type: 'client_connected', conn: 'c1', client: 'mcp:agent', pid: 5 });
    deliver({ type: 'request', conn: 'c1', seq: 1, message: { id: 1, action: 'tabs' } });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(responses()[0]).toMatchObject({ response: { ok: false, error: { code: 'FORBIDDEN' } } });
    const refused = responses()[0];
    expect(refused?.type === 'response' && !refused.response.ok ? refused.response.error.message : '').toMatch(
      /Nobody allowed mcp:agent .* within 5 minutes/,
    );
  });

  it('opens the port again with backoff when the host exits, and the clients’ connections end', async () => {
    const { ports, deliver, clients, link } = await setup();
    vi.useFakeTimers();
    deliver({
      type: 'hello',
      protocol: 1,
      host: { pid: 1, version: 'v', socket: '/s', user_data_dir: null, started_at: 0 },
    });
    deliver({ type: 'client_connected', conn: 'c1', client: 'tabpilot', pid: null });
    expect(clients.connectionCount).toBe(1);
    ports[0]?.die();
    expect(clients.connectionCount).toBe(0);
    expect(link.state).toMatchObject({ state: 'waiting', error: 'Native host has exited.' });
    expect(ports).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ports).toHaveLength(2);
    link.setEnabled(false);
    expect(ports[1]?.disconnected).toBe(true);
    expect(link.state).toEqual({ state: 'off' });
  });
});
