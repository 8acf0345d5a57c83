import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../protocol/commands';
import { EXTENSION_ORIGIN, type HostToWorker, type WorkerToHost } from '../../../protocol/native-messages';
import { createLogger } from '../../../shared/logger';
import { pollUntil } from '../../../shared/time';
import { encodeFrame, FrameDecoder } from './frame-codec';
import { CLIENT_CONNECTION_LIMIT } from './broker';
import { HostClient } from './host-client';
import { runNativeHost } from './native-host';
import { statePaths } from './state-dir';

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAME_LIMIT = 4096;
const LINE_LIMIT = 8192;

interface Harness {
  toHost: PassThrough;
  exit: Promise<number>;
  stateDir: string;
  /** Messages the host sent to the "worker", parsed. */
  received: HostToWorker[];
  write(message: WorkerToHost): void;
  writeRaw(bytes: Buffer): void;
  onMessage(listener: (message: HostToWorker) => void): void;
  /** Resolves when the host said hello (it listens and has published its record by then). */
  ready: Promise<void>;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function startHost(): Harness {
  const stateDir = mkdtempSync(join(tmpdir(), 'tabpilot-fuzz-'));
  dirs.push(stateDir);
  const toHost = new PassThrough();
  const fromHost = new PassThrough();
  const listeners: Array<(message: HostToWorker) => void> = [];
  const received: HostToWorker[] = [];
  const decoder = new FrameDecoder(16 * 1024 * 1024);
  fromHost.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) {
      if (frame.kind !== 'frame') {
        throw new Error(`the host wrote a bad frame: ${frame.kind}`);
      }
      const message = JSON.parse(frame.text) as HostToWorker;
      received.push(message);
      for (const listener of listeners) {
        listener(message);
      }
    }
  });
  const exit = runNativeHost({
    origin: EXTENSION_ORIGIN,
    input: toHost,
    output: fromHost,
    paths: statePaths(stateDir),
    log: createLogger(() => undefined),
    version: 'test',
    pid: process.pid,
    userDataDir: null,
    publish: true,
    limits: { frameBytes: FRAME_LIMIT, lineBytes: LINE_LIMIT },
  });
  const ready = new Promise<void>((resolve) => listeners.push((message) => message.type === 'hello' && resolve()));
  return {
    ready,
    toHost,
    exit,
    stateDir,
    received,
    write: (message) => toHost.write(encodeFrame(JSON.stringify(message))),
    writeRaw: (bytes) => toHost.write(bytes),
    onMessage: (listener) => listeners.push(listener),
  };
}

/** A frame whose length is right and whose body is wrong in one of the ways a broken peer could be. */
function badFrame(next: () => number): Buffer {
  const kind = Math.floor(next() * 6);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  switch (kind) {
    case 0: {
      const bytes = Buffer.alloc(1 + Math.floor(next() * 40));
      for (let i = 0; i < bytes.length; i++) {
        bytes[i] = 0x80 + Math.floor(next() * 0x7f);
      }
      bytes[0] = 0xff;
      return frameOf(bytes);
    }
    case 1:
      return frameOf(Buffer.from(`not json ${Math.floor(next() * 1e9).toString(36)} {`));
    case 2:
      return frameOf(
        Buffer.from(
          JSON.stringify(
            pick([
              [1, 2, 3],
              42,
              'text',
              null,
              { type: 'nope' },
              { type: 'response', conn: 5, seq: 1, response: {} },
              { type: 'response', conn: 'c1', seq: -1, response: { id: 1, ok: true, result: 1 } },
              { type: 'event', conn: 'c1', message: { event: 1 } },
              { type: 'hello', protocol: 'one' },
              { type: 'client_status', conn: 'c1', approval: 'maybe', message: '' },
            ]),
          ),
        ),
      );
    case 3:
      return frameOf(Buffer.alloc(FRAME_LIMIT + 1 + Math.floor(next() * 500), 0x61));
    case 4:
      return frameOf(Buffer.from(JSON.stringify({ type: 'chunk', id: `z${next()}`, index: 3, total: 2, data: 'x' })));
    default:
      return frameOf(
        Buffer.from(JSON.stringify({ type: 'response', conn: 'c1', seq: 1, response: { id: 1, ok: 'yes' } })),
      );
  }
}

function frameOf(body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** A socket line that is wrong: not JSON, not UTF-8, too long, the wrong shape, a second hello. */
function badLine(next: () => number): { bytes: Buffer; expect: 'host' | 'worker' } {
  const kind = Math.floor(next() * 5);
  switch (kind) {
    case 0:
      return { bytes: Buffer.from(`{"id": ${Math.floor(next() * 100)}, oops\n`), expect: 'host' };
    case 1:
      return { bytes: Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]), expect: 'host' };
    case 2:
      return { bytes: Buffer.from(`${'x'.repeat(LINE_LIMIT + 10 + Math.floor(next() * 100))}\n`), expect: 'host' };
    case 3:
      return {
        bytes: Buffer.from(
          `${JSON.stringify([[1], 7, { id: { deep: 1 }, action: 5 }, { action: 'tabs' }, { id: 'x', params: [] }][Math.floor(next() * 5)])}\n`,
        ),
        expect: 'worker',
      };
    default:
      return { bytes: Buffer.from('{"hello": {"client": "tabpilot"}}\n'), expect: 'host' };
  }
}

function rawClient(path: string): { socket: Socket; lines: unknown[] } {
  const socket = connect(path);
  const lines: unknown[] = [];
  let rest = '';
  socket.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      lines.push(JSON.parse(part));
    }
  });
  return { socket, lines };
}

/** The fake worker: answers each well-formed request with its echo and each malformed one INVALID_REQUEST. */
function fakeWorker(
  host: Harness,
  options: { hold: Set<string>; events: (conn: string, n: number) => boolean },
): {
  conns: Map<string, string>;
  protocolErrors: () => number;
} {
  const conns = new Map<string, string>();
  let protocolErrors = 0;
  host.onMessage((message) => {
    switch (message.type) {
      case 'hello':
        host.write({
          type: 'hello',
          protocol: 1,
          extension: { id: 'test', version: 'test', browser: 'fake', profile_id: 'p' },
        });
        return;
      case 'client_connected':
        conns.set(message.conn, message.client);
        return;
      case 'protocol_error':
        protocolErrors++;
        return;
      case 'request': {
        if (options.hold.has(message.conn)) {
          return;
        }
        const request = message.message as { id?: unknown; action?: unknown; params?: { n?: number } };
        const id = typeof request.id === 'number' || typeof request.id === 'string' ? request.id : null;
        const response: CommandResponse =
          typeof request.action === 'string' && id !== null && !Array.isArray(request)
            ? { id, ok: true, result: { echo: request.params?.n ?? null } }
            : { id, ok: false, error: { code: 'INVALID_REQUEST', message: 'not a request' } };
        const n = request.params?.n;
        if (typeof n === 'number' && options.events(message.conn, n)) {
          host.write({
            type: 'event',
            conn: message.conn,
            message: { event: 'TabCreatedEvent', data: { n }, id: `e${n}`, parent_id: null, source: 'browser' },
          });
        }
        host.write({ type: 'response', conn: message.conn, seq: message.seq, response });
        return;
      }
      case 'chunk':
      case 'client_disconnected':
      case 'ping':
        return;
    }
  });
  return { conns, protocolErrors: () => protocolErrors };
}

describe('native host under fuzz', () => {
  it(
    'answers every bad frame and bad line with a typed error while the good clients lose nothing',
    { timeout: 60_000 },
    async () => {
      const next = random(20261201);
      const host = startHost();
      const hold = new Set<string>();
      const worker = fakeWorker(host, { hold, events: (_conn, n) => n % 10 === 0 });
      await host.ready;
      const good = await HostClient.connect({ client: 'tabpilot', stateDir: host.stateDir });
      const events: unknown[] = [];
      good.onMessage((message) => {
        if ('event' in message) {
          events.push(message);
        }
      });
      const socketPath = good.record?.socket ?? '';
      const bad = rawClient(socketPath);
      await new Promise<void>((resolve) => bad.socket.once('connect', () => resolve()));

      // Lines before the hello are refused (the connection stays open for its hello).
      let expectedBadAnswers = 0;
      for (let i = 0; i < 50; i++) {
        bad.socket.write('{"id": 1, "action": "tabs"}\n');
        expectedBadAnswers++;
      }
      bad.socket.write('{"hello": {"client": "mcp:fuzzer"}}\n');
      const BAD_LINES = 5000;
      const BAD_FRAMES = 5000;
      const GOOD = 300;
      const goodAnswers: Array<Promise<CommandResponse>> = [];
      let garbage: Buffer[] = [];
      for (let i = 0; i < BAD_LINES; i++) {
        bad.socket.write(badLine(next).bytes);
        expectedBadAnswers++;
        garbage.push(badFrame(next));
        if (i % Math.floor(BAD_LINES / GOOD) === 0 && goodAnswers.length < GOOD) {
          goodAnswers.push(good.request('echo', { n: goodAnswers.length }));
        }
        if (garbage.length >= 50) {
          // One write cut at random places: frames arrive split across reads, several per read.
          const stream = Buffer.concat(garbage);
          garbage = [];
          let offset = 0;
          while (offset < stream.length) {
            const size = 1 + Math.floor(next() * 3000);
            host.writeRaw(stream.subarray(offset, offset + size));
            offset += size;
          }
        }
      }
      host.writeRaw(Buffer.concat(garbage));
      expect(BAD_LINES + BAD_FRAMES + GOOD).toBeGreaterThanOrEqual(10_000);

      const answers = await Promise.all(goodAnswers);
      answers.forEach((answer, n) => expect(answer).toEqual({ id: n + 1, ok: true, result: { echo: n } }));
      expect(events).toHaveLength(answers.filter((_answer, n) => n % 10 === 0).length);
      await pollUntil(() => (bad.lines.length >= expectedBadAnswers + 1 ? true : undefined), {
        timeoutMs: 30_000,
        onTimeout: () => new Error(`the bad client got ${bad.lines.length} of ${expectedBadAnswers + 1} answers`),
      });
      const [welcome, ...rest] = bad.lines.slice(50) as Array<Record<string, unknown>>;
      expect(welcome).toHaveProperty('hello');
      const refusedBeforeHello = bad.lines.slice(0, 50) as CommandResponse[];
      for (const answer of [...refusedBeforeHello, ...(rest as unknown as CommandResponse[])]) {
        expect(answer.ok).toBe(false);
        expect(['INVALID_JSON', 'INVALID_REQUEST']).toContain(answer.ok ? '' : answer.error.code);
      }
      expect(bad.lines).toHaveLength(expectedBadAnswers + 1);
      await pollUntil(() => (worker.protocolErrors() >= BAD_FRAMES ? true : undefined), {
        timeoutMs: 30_000,
        onTimeout: () => new Error(`${worker.protocolErrors()} of ${BAD_FRAMES} bad frames answered`),
      });
      expect(worker.protocolErrors()).toBe(BAD_FRAMES);

      // A client that goes away mid-command disturbs nobody; then stdin EOF answers what is open.
      const leaver = await HostClient.connect({ client: 'tabpilot:leaver', stateDir: host.stateDir });
      await pollUntil(() => ([...worker.conns.values()].includes('tabpilot:leaver') ? true : undefined), {
        timeoutMs: 5000,
        onTimeout: () => new Error('the leaver never connected'),
      });
      const leaverConn = [...worker.conns].find(([, name]) => name === 'tabpilot:leaver')?.[0] ?? '';
      hold.add(leaverConn);
      const abandoned = leaver.request('echo', { n: 1 });
      leaver.close();
      expect(await abandoned).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
      expect(await good.request('echo', { n: 7 })).toEqual({ id: GOOD + 1, ok: true, result: { echo: 7 } });

      const goodConn = [...worker.conns].find(([, name]) => name === 'tabpilot')?.[0] ?? '';
      hold.add(goodConn);
      const open = [good.request('echo', { n: 8 }), good.request('echo', { n: 9 })];
      await pollUntil(
        () =>
          host.received.filter((m) => m.type === 'request' && m.conn === goodConn).length >= GOOD + 3
            ? true
            : undefined,
        { timeoutMs: 5000, onTimeout: () => new Error('the open requests never reached the worker') },
      );
      host.toHost.end();
      for (const answer of await Promise.all(open)) {
        expect(answer).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
        expect(answer.ok ? '' : answer.error.message).toContain('closed');
      }
      expect(await host.exit).toBe(0);
      expect(readdirSync(join(host.stateDir, 'run'))).toEqual([]);
      expect(existsSync(socketPath)).toBe(false);
    },
  );

  it('survives a byte stream that is not frames at all, keeps serving its socket and exits 0 on EOF', async () => {
    const next = random(7);
    const host = startHost();
    fakeWorker(host, { hold: new Set(), events: () => false });
    await host.ready;
    const client = await HostClient.connect({ client: 'tabpilot', stateDir: host.stateDir });
    // Arbitrary bytes: lengths that lie, frames cut short, a length that claims gigabytes.
    for (let i = 0; i < 200; i++) {
      const bytes = Buffer.alloc(1 + Math.floor(next() * 64));
      for (let j = 0; j < bytes.length; j++) {
        bytes[j] = Math.floor(next() * 256);
      }
      host.writeRaw(bytes);
    }
    // The host still greets new clients (that part needs no worker).
    const second = await HostClient.connect({ client: 'mcp:late', stateDir: host.stateDir });
    expect(second.welcome?.client).toBe('mcp:late');
    host.toHost.end();
    expect(await host.exit).toBe(0);
    client.close();
    second.close();
  });

  it(
    'hello and identity tricks: the worker hears who the system says is calling, never who the hello claims, and a key only as its hash',
    { timeout: 60_000 },
    async () => {
      const next = random(24);
      const host = startHost();
      fakeWorker(host, { hold: new Set(), events: () => false });
      await host.ready;
      const socketPath = join(host.stateDir, 'run', `host-${process.pid}.sock`);
      const keyChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
      const validKey = (): string =>
        Array.from({ length: 43 }, () => keyChars[Math.floor(next() * keyChars.length)]).join('');
      const tricks: Array<{ hello: unknown; valid: boolean; key?: string; claimed?: number }> = [];
      for (let i = 0; i < 96; i++) {
        const name = ['tabpilot', 'mcp:claude-code', `tabpilot:t${i}`][i % 3];
        const claimed = Math.floor(next() * 1e6);
        switch (i % 8) {
          case 0: {
            const key = validKey();
            tricks.push({ hello: { hello: { client: name, pid: claimed, key } }, valid: true, key, claimed });
            break;
          }
          case 1:
            tricks.push({ hello: { hello: { client: name, pid: claimed } }, valid: true, claimed });
            break;
          case 2:
            tricks.push({ hello: { hello: { client: name, key: validKey().slice(1) } }, valid: false });
            break;
          case 3:
            tricks.push({ hello: { hello: { client: name, key: 42 } }, valid: false });
            break;
          case 4:
            tricks.push({
              hello: { hello: { client: name, peer: { pid: 1, exe: '/usr/bin/trusted' } } },
              valid: false,
            });
            break;
          case 5:
            tricks.push({ hello: { hello: { client: name, key_hash: '0'.repeat(64) } }, valid: false });
            break;
          case 6:
            tricks.push({ hello: { hello: { client: name }, key: validKey() }, valid: false });
            break;
          default:
            tricks.push({ hello: { hello: { client: `${name}!`, pid: claimed } }, valid: false });
        }
      }
      // In batches well under the connection limit, each connection closed after its answer.
      for (let start = 0; start < tricks.length; start += 8) {
        const batch = tricks.slice(start, start + 8);
        const clients = batch.map(() => rawClient(socketPath));
        batch.forEach((trick, index) => clients[index]?.socket.write(`${JSON.stringify(trick.hello)}\n`));
        await pollUntil(() => (clients.every((client) => client.lines.length >= 1) ? true : undefined), {
          timeoutMs: 30_000,
          onTimeout: () => new Error('a hello got no answer'),
        });
        batch.forEach((trick, index) => {
          const [first] = clients[index]?.lines ?? [];
          if (trick.valid) {
            expect(first).toHaveProperty('hello');
          } else {
            expect(first).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
          }
        });
        for (const client of clients) {
          client.socket.destroy();
        }
      }
      const connected = host.received.filter(
        (message): message is Extract<HostToWorker, { type: 'client_connected' }> =>
          message.type === 'client_connected',
      );
      const valid = tricks.filter((trick) => trick.valid);
      expect(connected).toHaveLength(valid.length);
      // Each connection is named by its own lookup, so they reach the worker in any order: matched by claimed pid.
      for (const message of connected) {
        const trick = valid.find((candidate) => candidate.claimed === message.pid);
        expect(trick).toBeDefined();
        // The peer is this test process, whatever pid the hello claimed.
        expect(message.peer).toMatchObject({ pid: process.pid, exe: process.execPath });
        const key = trick?.key;
        expect(message.key_hash).toBe(key === undefined ? null : createHash('sha256').update(key).digest('hex'));
      }
      // No key a client presented ever went to the worker as it is.
      const toWorker = JSON.stringify(host.received);
      for (const trick of valid) {
        if (trick.key !== undefined) {
          expect(toWorker).not.toContain(trick.key);
        }
      }
      host.toHost.end();
      expect(await host.exit).toBe(0);
    },
  );

  it(
    'bounds the connections: one past the limit is refused FORBIDDEN and closed, the others keep working',
    { timeout: 60_000 },
    async () => {
      const host = startHost();
      fakeWorker(host, { hold: new Set(), events: () => false });
      await host.ready;
      const socketPath = join(host.stateDir, 'run', `host-${process.pid}.sock`);
      const open = Array.from({ length: CLIENT_CONNECTION_LIMIT }, () => rawClient(socketPath));
      open.forEach((client, index) => client.socket.write(`{"hello": {"client": "tabpilot:n${index}"}}\n`));
      await pollUntil(() => (open.every((client) => client.lines.length >= 1) ? true : undefined), {
        timeoutMs: 40_000,
        onTimeout: () => new Error('not every connection under the limit was welcomed'),
      });
      const extra = rawClient(socketPath);
      const closed = new Promise<void>((resolve) => extra.socket.once('close', () => resolve()));
      await closed;
      expect(extra.lines).toEqual([
        { id: null, ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('connections open') } },
      ]);
      open[0]?.socket.write('{"id": 1, "action": "tabs"}\n');
      await pollUntil(() => (open[0]?.lines.some((line) => (line as { id?: unknown }).id === 1) ? true : undefined), {
        timeoutMs: 5_000,
        onTimeout: () => new Error('a connection under the limit stopped working'),
      });
      for (const client of open) {
        client.socket.destroy();
      }
      host.toHost.end();
      expect(await host.exit).toBe(0);
    },
  );

  it('refuses to start for any caller but the tabpilot extension', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'tabpilot-origin-'));
    dirs.push(stateDir);
    const code = await runNativeHost({
      origin: 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/',
      input: new PassThrough(),
      output: new PassThrough(),
      paths: statePaths(stateDir),
      log: createLogger(() => undefined),
      version: 'test',
      pid: process.pid,
      userDataDir: null,
      publish: true,
    });
    expect(code).toBe(1);
    expect(existsSync(join(stateDir, 'run'))).toBe(false);
  });
});
