import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { EndpointBusyError } from '../../cdp/endpoint-errors';
import { WebSocketTransport } from './ws-transport';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((done) => server.close(() => done()))));
});

/** A server that answers WebSocket upgrades as told: refuse with a status, hold them, or accept. */
async function upgrades(
  answer: 'hold' | 'accept' | { status: number; headers?: Record<string, string>; body: string },
): Promise<string> {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (answer === 'hold') {
      return;
    }
    if (answer === 'accept') {
      wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', () => undefined));
      return;
    }
    const headers = Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(
      `HTTP/1.1 ${answer.status} Refused\r\nContent-Type: text/plain\r\n${headers.join('')}\r\n${answer.body}`,
    );
  });
  server.on('close', () => wss.close());
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('WebSocketTransport.connect', () => {
  it("reads a full pool's refused upgrade: status, Retry-After and the pool's words", async () => {
    const url = await upgrades({ status: 429, headers: { 'Retry-After': '3' }, body: 'Too many requests' });
    const error = await WebSocketTransport.connect(`${url}/?token=s3cret`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointBusyError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3000 });
    expect((error as Error).message).toContain('Too many requests');
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('refuses a bad token with FORBIDDEN', async () => {
    const url = await upgrades({ status: 401, body: 'Bad or missing authentication.' });
    await expect(WebSocketTransport.connect(url)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('waits for a queued upgrade as long as its signal lets it, with no timeout of its own', async () => {
    const url = await upgrades('hold');
    const budget = new AbortController();
    const pending = WebSocketTransport.connect(url, { signal: budget.signal });
    budget.abort(Object.assign(new Error('the connect budget ran out'), { code: 'TIMEOUT' }));
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/handshake got no answer before the connect budget ran out/);
  });

  it("takes a browser's own endpoint as one to reconnect to, and a pool's as a browser per connection", async () => {
    const url = await upgrades('accept');
    const own = await WebSocketTransport.connect(`${url}/devtools/browser/abc`);
    const pooled = await WebSocketTransport.connect(`${url}/?token=x`);
    expect(own.capabilities.reconnect).toBe(true);
    expect(pooled.capabilities.reconnect).toBe(false);
    own.close();
    pooled.close();
  });
});
