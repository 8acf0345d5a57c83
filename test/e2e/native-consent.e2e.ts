import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, linkSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { FixtureServer } from './harness/fixture-server';
import { BIN, NativeChain } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * Consent per program, with the person's default settings (nothing pre-allowed): real Chromium, the
 * built extension, the real host Chrome starts, the real panel page, and clients that are separate
 * processes. The panel names each caller as the system knows it (ss + /proc on Linux), never by the
 * name it gives itself; "allow until revoked" is bound to a key and an executable, not to a name.
 */

interface Run {
  pid: number;
  result: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** A line-JSON client written by hand, as a program that ignores the client library would. */
class RawClient {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly #socket: Socket;

  private constructor(socket: Socket) {
    this.#socket = socket;
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      this.lines.push(...parts.map((part) => JSON.parse(part) as Record<string, unknown>));
    });
    socket.on('error', () => undefined);
  }

  static async open(path: string): Promise<RawClient> {
    const socket = connect(path);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return new RawClient(socket);
  }

  send(message: unknown): void {
    this.#socket.write(`${JSON.stringify(message)}\n`);
  }

  answer(id: number): Record<string, unknown> | undefined {
    return this.lines.find((line) => line['id'] === id);
  }

  close(): void {
    this.#socket.destroy();
  }
}

describe('consent per program: held until the person allows it, and a name is not an identity', () => {
  const server = new FixtureServer();
  let chain: NativeChain;
  let panel: PanelPage;

  /** The CLI as a separate program (its own pid), with the chain's state folder. */
  const cli = (args: string[], executable = process.execPath): Run => {
    const child = spawn(executable, [BIN, ...args], {
      env: { ...process.env, TABPILOT_STATE_DIR: chain.stateDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return {
      pid: child.pid ?? -1,
      result: new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr }))),
    };
  };

  const busEventsOf = (client: string): Promise<string[]> =>
    chain.inWorker<string[]>(
      `globalThis.tabpilot.session.bus.history().filter((view) => view.source === ${JSON.stringify(`native:${client}`)}).map((view) => view.type)`,
    );

  /** The waiting connection the panel shows for this pid, once it does. */
  const waitingFor = async (client: string, pid: number): Promise<string> => {
    const selector = `[data-client="${client}"] .consent`;
    await panel.waitFor(
      `[...document.querySelectorAll('${selector}')].some((node) => node.querySelector('.peer-pid')?.textContent === '${pid}')`,
      `a consent request for pid ${pid}`,
      15_000,
    );
    return panel.eval<string>(
      `[...document.querySelectorAll('${selector}')].find((node) => node.querySelector('.peer-pid')?.textContent === '${pid}').dataset.conn`,
    );
  };

  const answer = (conn: string, action: 'allow-once' | 'allow-always' | 'deny'): Promise<void> =>
    panel.click(`.consent[data-conn="${conn}"] [data-action="${action}"]`);

  beforeAll(async () => {
    server.route('/consent.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>consent page</title><p>reached</p>');
    });
    await server.start();
    chain = await NativeChain.start({ consent: true });
    await chain.host();
    panel = await PanelPage.open(chain.client);
  });

  afterAll(async () => {
    await chain?.close();
    await server.stop();
  });

  it('is on by default in the person’s profile', async () => {
    expect(await chain.inWorker('globalThis.tabpilot.settings.config.native_clients.approve_new_clients')).toBe(true);
  });

  it('holds an unknown program (nothing reaches a page), shows its pid, executable, command and parent from the system; Allow once runs it', async () => {
    const url = server.url('/consent.html');
    const run = cli(['navigate', '--url', url, '--json']);
    const conn = await waitingFor('tabpilot', run.pid);
    expect(await panel.text(`.consent[data-conn="${conn}"] .peer-exe`)).toBe(process.execPath);
    expect(await panel.text(`.consent[data-conn="${conn}"] .peer-cmdline`)).toContain(`${BIN} navigate --url ${url}`);
    // Its parent is this test process, which started it (as a coding agent starts an MCP server).
    expect(await panel.text(`.consent[data-conn="${conn}"] .peer-parent`)).toContain(`pid ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await busEventsOf('tabpilot')).toEqual([]);

    await answer(conn, 'allow-once');
    const done = await run.result;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ ok: true, result: { url } });
    expect(await busEventsOf('tabpilot')).toContain('NavigateToUrlEvent');
    expect(done.stderr).toContain('Waiting for the person to allow tabpilot');
  });

  it('asks again after Allow once, and a denied program is answered FORBIDDEN, saying why, with nothing run', async () => {
    const before = (await busEventsOf('tabpilot')).length;
    const run = cli(['navigate', '--url', server.url('/consent.html'), '--json']);
    const conn = await waitingFor('tabpilot', run.pid);
    await answer(conn, 'deny');
    const done = await run.result;
    expect(done.code).not.toBe(0);
    expect(`${done.stdout}${done.stderr}`).toMatch(/FORBIDDEN[\s\S]*did not allow tabpilot/);
    expect(await busEventsOf('tabpilot')).toHaveLength(before);
  });

  it('allowed until revoked, the program keeps a private key and comes back unasked; an impostor with the name and no key is held, and so is the key from another executable', async () => {
    const first = cli(['tabs', '--json']);
    await answer(await waitingFor('tabpilot', first.pid), 'allow-always');
    expect((await first.result).code).toBe(0);
    const keys = join(chain.stateDir, 'clients');
    expect(statSync(keys).mode & 0o777).toBe(0o700);
    const [keyFile] = readdirSync(keys);
    expect(keyFile).toMatch(/\.key$/);
    expect(statSync(join(keys, keyFile ?? '')).mode & 0o777).toBe(0o600);

    // The same program again: let in at once, never held.
    const again = await cli(['tabs', '--json']).result;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Waiting for the person');

    const socketPath = (await chain.host()).record.socket;
    // An impostor: the allowed name, no key. Held, its navigate unanswered, nothing on the bus.
    const before = (await busEventsOf('tabpilot')).length;
    const impostor = await RawClient.open(socketPath);
    impostor.send({ hello: { client: 'tabpilot', pid: 1 } });
    impostor.send({ id: 1, action: 'navigate', params: { url: server.url('/consent.html') } });
    const conn = await waitingFor('tabpilot', process.pid);
    // It claims pid 1; the panel shows the pid the system saw (this test process).
    expect(await panel.text(`.consent[data-conn="${conn}"] .peer-pid`)).toBe(String(process.pid));
    expect(impostor.answer(1)).toBeUndefined();
    expect(impostor.lines).toContainEqual({ notice: expect.objectContaining({ approval: 'pending' }) });
    await answer(conn, 'deny');
    const refused = await pollUntil(() => impostor.answer(1), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('the denied impostor got no answer'),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    impostor.close();

    // The stolen key, presented from another executable (a copy of node at another path): held.
    const otherNode = join(chain.stateDir, 'other-node');
    try {
      linkSync(process.execPath, otherNode);
    } catch {
      copyFileSync(process.execPath, otherNode);
      chmodSync(otherNode, 0o755);
    }
    const stolen = readFileSync(join(keys, keyFile ?? ''), 'utf8').trim();
    const thief = spawn(
      otherNode,
      [
        '-e',
        `const s = require('node:net').connect(process.argv[1]);
         s.on('connect', () => s.write(JSON.stringify({ hello: { client: 'tabpilot', key: process.argv[2] } }) + '\\n' + JSON.stringify({ id: 1, action: 'tabs' }) + '\\n'));
         s.on('data', (d) => process.stdout.write(d));`,
        socketPath,
        stolen,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let thiefOut = '';
    thief.stdout.on('data', (chunk: Buffer) => (thiefOut += chunk.toString()));
    try {
      const thiefConn = await waitingFor('tabpilot', thief.pid ?? -1);
      expect(await panel.text(`.consent[data-conn="${thiefConn}"] .peer-exe`)).toBe(otherNode);
      expect(thiefOut).toContain('"approval":"pending"');
      expect(thiefOut).not.toContain('"ok":true');
    } finally {
      thief.kill();
    }
    expect(await busEventsOf('tabpilot')).toHaveLength(before);
  });

  it('Disconnect revokes: the program that was allowed until revoked is held again', async () => {
    await panel.click('[data-client="tabpilot"] [data-action="disconnect"]');
    const run = cli(['tabs', '--json']);
    const conn = await waitingFor('tabpilot', run.pid);
    await answer(conn, 'deny');
    expect((await run.result).code).not.toBe(0);
  });

  it('a flood of hello and identity tricks is held or refused, none reaches the bus, and the host still serves', async () => {
    const socketPath = (await chain.host()).record.socket;
    const tricks: unknown[] = [
      { hello: { client: 'tabpilot', key: 'x'.repeat(43) } },
      { hello: { client: 'tabpilot', key: 'short' } },
      { hello: { client: 'tabpilot', key: 12 } },
      { hello: { client: 'tabpilot', pid: process.pid, peer: { pid: 1, exe: '/usr/bin/trusted' } } },
      { hello: { client: 'tabpilot', key_hash: '0'.repeat(64) } },
      { hello: { client: 'mcp:claude-code' } },
      { hello: { client: 'tabpilot' }, key: 'A'.repeat(43) },
    ];
    const names = ['tabpilot', 'mcp:claude-code', 'mcp:second-hello'];
    const before = await Promise.all(names.map(async (name) => (await busEventsOf(name)).length));
    const clients = await Promise.all(tricks.map(() => RawClient.open(socketPath)));
    tricks.forEach((hello, index) => {
      clients[index]?.send(hello);
      clients[index]?.send({ hello: { client: 'mcp:second-hello' } });
      clients[index]?.send({ id: 7, action: 'navigate', params: { url: server.url('/consent.html') } });
    });
    await pollUntil(() => (clients.every((client) => client.lines.length >= 2) ? true : undefined), {
      timeoutMs: 15_000,
      onTimeout: () => new Error('a trick got no answer'),
    });
    // Every trick ends held (a bad hello is refused, and the second, valid one is then held): its
    // navigate has no answer, the panel asks about each as the system knows it, nothing ran.
    for (const client of clients) {
      expect(client.answer(7)).toBeUndefined();
    }
    await panel.waitFor(
      `[...document.querySelectorAll('.consent .peer-pid')].filter((node) => node.textContent === '${process.pid}').length >= ${tricks.length}`,
      'a consent request for every trick',
      15_000,
    );
    expect(await Promise.all(names.map(async (name) => (await busEventsOf(name)).length))).toEqual(before);
    for (const client of clients) {
      client.close();
    }
    // The same host still answers: a new program is held, and once the person allows it, its ping is answered.
    const probe = await RawClient.open(socketPath);
    probe.send({ hello: { client: 'tabpilot:probe' } });
    probe.send({ ping: {} });
    await answer(await waitingFor('tabpilot:probe', process.pid), 'allow-once');
    const pong = await pollUntil(() => probe.lines.find((line) => 'pong' in line), {
      timeoutMs: 10_000,
      onTimeout: () => new Error('the host no longer answers a ping'),
    });
    expect(pong).toMatchObject({ pong: { extension: { id: expect.any(String) } } });
    probe.close();
  });

  it('a held program’s ping gets nothing but the held notice until the person answers; refused, it is answered FORBIDDEN', async () => {
    const socketPath = (await chain.host()).record.socket;
    const prober = await RawClient.open(socketPath);
    prober.send({ hello: { client: 'mcp:prober' } });
    prober.send({ ping: {} });
    prober.send({ ping: {} });
    const conn = await waitingFor('mcp:prober', process.pid);
    // Time for a pong to come, were one coming (before the fix it came within milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The host's welcome (what its discovery record already tells), then the held notice, and nothing more:
    // the ping is the one round trip to the extension, and it waits for the person like any request.
    expect(prober.lines[0]).toHaveProperty('hello');
    expect(prober.lines.slice(1)).toEqual([{ notice: expect.objectContaining({ approval: 'pending' }) }]);
    await answer(conn, 'deny');
    const refused = await pollUntil(
      () => {
        const answers = prober.lines.filter((line) => 'ok' in line);
        return answers.length >= 2 ? answers : undefined;
      },
      {
        timeoutMs: 10_000,
        onTimeout: () => new Error(`the refused pings got no answer: ${JSON.stringify(prober.lines)}`),
      },
    );
    expect(refused).toEqual([
      expect.objectContaining({
        id: null,
        ok: false,
        error: expect.objectContaining({ code: 'FORBIDDEN', details: { approval: 'denied' } }),
      }),
      expect.objectContaining({ id: null, ok: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) }),
    ]);
    expect(JSON.stringify(prober.lines)).not.toContain('pong');
    prober.close();
  });
});
