import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointBusyError, EndpointUnreachableError } from '../../cdp/endpoint-errors';
import { resolveCdpUrl, urlNamesOneBrowser } from './endpoint';

/** A loopback HTTP server answering like a browser pool's /json/version. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((done) => server.close(() => done()))));
});

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('resolveCdpUrl', () => {
  it('keeps the query string for /json/version and carries the token to a WebSocket URL that lacks it', async () => {
    const { base, seen } = await serve((_req, res) => json(res, { webSocketDebuggerUrl: 'ws://127.0.0.1:3000' }));
    const resolved = await resolveCdpUrl(`${base}/?token=s3cret&blockAds=true`);
    expect(seen).toEqual(['/json/version?token=s3cret&blockAds=true']);
    expect(resolved).toBe('ws://127.0.0.1:3000/?token=s3cret&blockAds=true');
  });

  it("keeps a pool's path prefix and leaves a WebSocket URL that has its token alone", async () => {
    const { base, seen } = await serve((_req, res) =>
      json(res, { webSocketDebuggerUrl: 'wss://pool.example/chromium?token=other' }),
    );
    const resolved = await resolveCdpUrl(`${base}/chromium/?token=s3cret`);
    expect(seen).toEqual(['/chromium/json/version?token=s3cret']);
    expect(resolved).toBe('wss://pool.example/chromium?token=other');
  });

  it("resolves a browser's own http endpoint as before", async () => {
    const { base } = await serve((_req, res) =>
      json(res, { webSocketDebuggerUrl: 'ws://127.0.0.1:9222/devtools/browser/abc' }),
    );
    expect(await resolveCdpUrl(base)).toBe('ws://127.0.0.1:9222/devtools/browser/abc');
  });

  it('classifies refusals: a full pool is busy (with Retry-After), a bad token forbidden, a 5xx unreachable', async () => {
    const { base } = await serve((req, res) => {
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status'));
      res.writeHead(status, status === 429 ? { 'retry-after': '7' } : {});
      res.end(status === 401 ? 'Bad or missing authentication.' : 'Too many requests');
    });
    const busy = await resolveCdpUrl(`${base}/?status=429&token=s3cret`).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(EndpointBusyError);
    expect((busy as EndpointBusyError).retryAfterMs).toBe(7000);
    expect((busy as Error).message).not.toContain('s3cret');
    const forbidden = await resolveCdpUrl(`${base}/?status=401`).catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ code: 'FORBIDDEN' });
    expect((forbidden as Error).message).toMatch(/Bad or missing authentication.*check the token/);
    expect(await resolveCdpUrl(`${base}/?status=500`).catch((e: unknown) => e)).toBeInstanceOf(
      EndpointUnreachableError,
    );
  });

  it('says a refused connection may be retried', async () => {
    const { base } = await serve(() => undefined);
    await new Promise<void>((done) => servers.splice(0)[0]?.close(() => done()));
    expect(await resolveCdpUrl(base).catch((e: unknown) => e)).toBeInstanceOf(EndpointUnreachableError);
  });

  it("refuses one page's endpoint at once, saying to give the browser's", async () => {
    for (const url of ['ws://127.0.0.1:3000/devtools/page/ABC?token=s3cret', 'http://127.0.0.1:9/devtools/page/ABC']) {
      const error = await resolveCdpUrl(url).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'cdp_url' } });
      expect((error as Error).message).toMatch(/endpoint of one page.*browser's endpoint/);
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('refuses what is not a CDP URL', async () => {
    await expect(resolveCdpUrl('ftp://x')).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    await expect(resolveCdpUrl('not a url')).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
  });
});

describe('urlNamesOneBrowser', () => {
  it("tells a browser's own endpoint (and a Grid session's) from a pool's", () => {
    expect(urlNamesOneBrowser('ws://127.0.0.1:9222/devtools/browser/0b1c')).toBe(true);
    expect(urlNamesOneBrowser('ws://grid:4444/session/42/se/cdp')).toBe(true);
    expect(urlNamesOneBrowser('ws://127.0.0.1:3000/?token=x')).toBe(false);
    expect(urlNamesOneBrowser('wss://pool.example/chromium?token=x')).toBe(false);
  });
});
