import { describe, expect, it } from 'vitest';
import type { CdpSession } from '../../cdp/session';
import type { TargetRecord } from '../../cdp/target';
import { silentLogger } from '../../shared/logger';
import { HarRecorder, type HarRecorderOptions } from './har-recorder';
import type { HarEntry, HarPage } from './har-types';

const PAGE: TargetRecord = {
  targetId: 'T1',
  type: 'page',
  url: '',
  title: 'Title',
  openerId: undefined,
  pageTargetId: undefined,
  seq: 1,
};

function fakeSession(bodies: Record<string, { body: string; base64Encoded: boolean }>): CdpSession {
  return {
    sessionId: 'S1',
    targetId: 'T1',
    send: (method: string, params: { requestId: string }) => {
      if (method === 'Runtime.evaluate') {
        return Promise.resolve({ result: { type: 'string', value: 'Title' } });
      }
      if (method !== 'Network.getResponseBody') {
        return Promise.reject(new Error(`unexpected ${method}`));
      }
      const body = bodies[params.requestId];
      return body === undefined
        ? Promise.reject(new Error('No resource with given identifier found'))
        : Promise.resolve(body);
    },
  } as unknown as CdpSession;
}

function recorder(options: Partial<HarRecorderOptions> = {}): {
  recorder: HarRecorder;
  entries: HarEntry[];
  pages: HarPage[][];
  attached: string[];
} {
  const entries: HarEntry[] = [];
  const pages: HarPage[][] = [];
  const attached: string[] = [];
  const instance = new HarRecorder({
    content: 'embed',
    mode: 'full',
    maxBodyBytes: 1000,
    redactHeaders: ['cookie', 'set-cookie', 'authorization'],
    attach: (base64) => {
      attached.push(base64);
      return Promise.resolve(`x_har_parts/${attached.length}.dat`);
    },
    onEntry: (entry) => entries.push(entry),
    onPages: (list) => pages.push(list.map((page) => ({ ...page, pageTimings: { ...page.pageTimings } }))),
    log: silentLogger,
    ...options,
  });
  return { recorder: instance, entries, pages, attached };
}

const timing = {
  requestTime: 100,
  proxyStart: -1,
  proxyEnd: -1,
  dnsStart: 1,
  dnsEnd: 3,
  connectStart: 3,
  connectEnd: 10,
  sslStart: -1,
  sslEnd: -1,
  workerStart: -1,
  workerReady: -1,
  workerFetchStart: -1,
  workerRespondWithSettled: -1,
  sendStart: 10,
  sendEnd: 11,
  pushStart: 0,
  pushEnd: 0,
  receiveHeadersStart: 20,
  receiveHeadersEnd: 21,
};

function request(id: string, url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    requestId: id,
    loaderId: 'L1',
    documentURL: url,
    request: {
      url,
      method: 'GET',
      headers: { Cookie: 'sid=secret; theme=dark', Accept: '*/*' },
      initialPriority: 'High',
      referrerPolicy: 'no-referrer',
    },
    timestamp: 100,
    wallTime: 1_700_000_000,
    initiator: { type: 'other' },
    redirectHasExtraInfo: false,
    type: 'Document',
    frameId: 'T1',
    ...extra,
  };
}

function response(
  url: string,
  status: number,
  headers: Record<string, string>,
  mimeType = 'text/html',
): Record<string, unknown> {
  return {
    url,
    status,
    statusText: status === 200 ? 'OK' : 'Found',
    headers,
    mimeType,
    charset: 'utf-8',
    connectionReused: false,
    connectionId: 7,
    remoteIPAddress: '[::1]',
    remotePort: 80,
    fromDiskCache: false,
    fromServiceWorker: false,
    fromPrefetchCache: false,
    encodedDataLength: 100,
    timing,
    protocol: 'http/1.1',
    securityState: 'neutral',
  };
}

describe('HarRecorder', () => {
  it('records a redirect chain as one entry per hop, with the body, timings and redacted cookies', async () => {
    const session = fakeSession({ R1: { body: '<h1>hi</h1>', base64Encoded: false } });
    const source = { session, target: PAGE };
    const { recorder: rec, entries, pages } = recorder();
    rec.handle('Network.requestWillBeSent', request('R1', 'http://a.test/start?x=1'), source);
    rec.handle(
      'Network.requestWillBeSent',
      request('R1', 'http://a.test/end', {
        redirectResponse: response('http://a.test/start?x=1', 302, {
          Location: '/end',
          'Set-Cookie': 'sid=new; Path=/; HttpOnly',
        }),
        timestamp: 100.05,
      }),
      source,
    );
    rec.handle(
      'Network.responseReceived',
      {
        requestId: 'R1',
        timestamp: 100.1,
        type: 'Document',
        response: response('http://a.test/end', 200, { 'Content-Type': 'text/html' }),
      },
      source,
    );
    rec.handle(
      'Network.dataReceived',
      { requestId: 'R1', timestamp: 100.11, dataLength: 11, encodedDataLength: 11 },
      source,
    );
    rec.handle('Network.loadingFinished', { requestId: 'R1', timestamp: 100.2, encodedDataLength: 111 }, source);
    await rec.settle();
    expect(entries.map((entry) => [entry.request.url, entry.response.status, entry.response.redirectURL])).toEqual([
      ['http://a.test/start?x=1', 302, 'http://a.test/end'],
      ['http://a.test/end', 200, ''],
    ]);
    const [hop, final] = entries as [HarEntry, HarEntry];
    expect(hop.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(hop.request.cookies).toEqual([
      { name: 'sid', value: '<redacted>' },
      { name: 'theme', value: '<redacted>' },
    ]);
    expect(hop.response.cookies[0]).toMatchObject({ name: 'sid', value: '<redacted>', path: '/', httpOnly: true });
    expect(JSON.stringify(entries)).not.toContain('secret');
    expect(final.response.content).toEqual({ size: 11, mimeType: 'text/html', text: '<h1>hi</h1>' });
    expect(final.response.bodySize).toBe(11);
    expect(final.timings).toMatchObject({ dns: 2, connect: 7, send: 1, wait: 10 });
    expect(final.timings.receive).toBeCloseTo(179, 3);
    expect(final.serverIPAddress).toBe('::1');
    expect(final.pageref).toBe('page_1');
    // A new page is titled by its URL until its document says otherwise.
    expect(pages.at(-1)).toEqual([expect.objectContaining({ id: 'page_1', title: 'http://a.test/start?x=1' })]);
    rec.handle('Page.loadEventFired', { timestamp: 100.5 }, source);
    await rec.settle();
    expect(pages.at(-1)).toEqual([
      expect.objectContaining({ id: 'page_1', title: 'Title', pageTimings: { onContentLoad: -1, onLoad: 500 } }),
    ]);
  });

  it('records a failed request with its error, and one still open at the end as it stands', () => {
    const source = { session: fakeSession({}), target: PAGE };
    const { recorder: rec, entries } = recorder();
    rec.handle('Network.requestWillBeSent', request('R2', 'http://a.test/gone', { type: 'Fetch' }), source);
    rec.handle(
      'Network.loadingFailed',
      { requestId: 'R2', timestamp: 101, type: 'Fetch', errorText: 'net::ERR_CONNECTION_REFUSED' },
      source,
    );
    rec.handle('Network.requestWillBeSent', request('R3', 'http://a.test/hangs', { type: 'XHR' }), source);
    rec.finish();
    expect(entries.map((entry) => [entry.request.url, entry.response.status, entry.response._failureText])).toEqual([
      ['http://a.test/gone', -1, 'net::ERR_CONNECTION_REFUSED'],
      ['http://a.test/hangs', -1, 'the session ended before the response came'],
    ]);
  });

  it('keeps bodies over the cap out, attaches bodies in attach mode, and skips other origins in minimal mode', async () => {
    const session = fakeSession({
      big: { body: 'x'.repeat(2000), base64Encoded: false },
      small: { body: 'AAEC', base64Encoded: true },
    });
    const source = { session, target: PAGE };
    const { recorder: rec, entries, attached } = recorder({ content: 'attach', mode: 'minimal' });
    rec.handle('Network.requestWillBeSent', request('doc', 'http://a.test/'), source);
    for (const [id, url] of [
      ['big', 'http://a.test/big'],
      ['small', 'http://a.test/small.bin'],
      ['other', 'http://b.test/ad.js'],
    ] as const) {
      rec.handle('Network.requestWillBeSent', request(id, url, { type: 'Script' }), source);
      rec.handle(
        'Network.responseReceived',
        {
          requestId: id,
          timestamp: 100.1,
          type: 'Script',
          response: response(url, 200, {}, 'application/octet-stream'),
        },
        source,
      );
      rec.handle('Network.loadingFinished', { requestId: id, timestamp: 100.2, encodedDataLength: 200 }, source);
    }
    await rec.settle();
    const byUrl = new Map(entries.map((entry) => [entry.request.url, entry]));
    expect(byUrl.has('http://b.test/ad.js')).toBe(false);
    expect(byUrl.get('http://a.test/big')?.response.content).toMatchObject({ size: 2000 });
    expect(byUrl.get('http://a.test/big')?.response.content.comment).toMatch(/not kept/);
    expect(byUrl.get('http://a.test/small.bin')?.response.content).toMatchObject({
      size: 3,
      _file: 'x_har_parts/1.dat',
    });
    expect(attached).toEqual(['AAEC']);
  });
});
