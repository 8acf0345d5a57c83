import type { Protocol } from 'devtools-protocol';
import { describe, expect, it } from 'vitest';
import type { CdpSession } from '../../cdp/session';
import { REQUESTS_PER_TAB, RequestLog } from './request-log';

/** The log keeps the session for a request's bodies; these tests never ask for one. */
const SESSION = {} as CdpSession;

function started(log: RequestLog, event: Protocol.Network.RequestWillBeSentEvent): void {
  log.started('t', event, SESSION);
}

function sent(
  requestId: string,
  url: string,
  timestamp: number,
  extra: Partial<Protocol.Network.RequestWillBeSentEvent> = {},
) {
  return {
    requestId,
    loaderId: 'l',
    documentURL: url,
    request: { url, method: 'GET', headers: {}, initialPriority: 'High', referrerPolicy: 'no-referrer' },
    timestamp,
    wallTime: timestamp,
    initiator: { type: 'other' },
    redirectHasExtraInfo: false,
    type: 'Fetch',
    ...extra,
  } as Protocol.Network.RequestWillBeSentEvent;
}

const ALL = { urlContains: undefined, resourceTypes: [], onlyFailed: false, max: 1000 };

describe('RequestLog', () => {
  it('keeps a redirect hop with its status, and times each request from the page start', () => {
    const log = new RequestLog();
    started(log, sent('1', 'http://a.test/', 10, { type: 'Document' }));
    started(log, sent('2', 'http://a.test/go', 10.5));
    started(
      log,
      sent('2', 'http://a.test/there', 10.6, {
        redirectResponse: { status: 302 } as Protocol.Network.Response,
      }),
    );
    log.finished('t', { requestId: '2', timestamp: 10.8, encodedDataLength: 42 });
    const { requests } = log.list('t', ALL);
    expect(requests.map((request) => [request.url, request.status, request.started_ms, request.duration_ms])).toEqual([
      ['http://a.test/', null, 0, null],
      ['http://a.test/go', 302, 500, 100],
      ['http://a.test/there', null, 600, 200],
    ]);
    // Each hop has a short id of its own for network_request; the hops share the CDP request id.
    expect(requests.map((request) => request.id)).toEqual(['1', '2', '3']);
    expect(log.request('t', '2')).toMatchObject({ url: 'http://a.test/go', cdpRequestId: '2', redirected: true });
    // A new page's requests never reuse an id: one from the page before names nothing.
    log.forget('t');
    started(log, sent('9', 'http://a.test/next', 11, { type: 'Document' }));
    expect(log.list('t', ALL).requests.map((request) => request.id)).toEqual(['4']);
    expect(log.request('t', '2')).toBeUndefined();
  });

  it('keeps at most its bound per tab and says how many went', () => {
    const log = new RequestLog();
    for (let n = 0; n < REQUESTS_PER_TAB + 7; n++) {
      started(log, sent(String(n), `http://a.test/${n}`, n));
    }
    const listed = log.list('t', { ...ALL, max: 3 });
    expect(listed).toMatchObject({ total: REQUESTS_PER_TAB, dropped: 7 });
    expect(listed.requests.map((request) => request.url)).toEqual([
      `http://a.test/${REQUESTS_PER_TAB + 4}`,
      `http://a.test/${REQUESTS_PER_TAB + 5}`,
      `http://a.test/${REQUESTS_PER_TAB + 6}`,
    ]);
  });

  it('marks failures and 4xx/5xx answers, and filters by URL text, type and failure', () => {
    const log = new RequestLog();
    started(log, sent('1', 'http://a.test/app.js', 1, { type: 'Script' }));
    started(log, sent('2', 'http://a.test/api', 1.1));
    log.responded('t', {
      requestId: '2',
      response: { status: 500, mimeType: 'text/plain' },
    } as Protocol.Network.ResponseReceivedEvent);
    started(log, sent('3', 'http://b.test/x', 1.2));
    log.failed('t', {
      requestId: '3',
      timestamp: 1.3,
      type: 'Fetch',
      errorText: 'net::ERR_FAILED',
      blockedReason: 'inspector',
    });
    expect(
      log.list('t', { ...ALL, onlyFailed: true }).requests.map((request) => [request.url, request.failure]),
    ).toEqual([
      ['http://a.test/api', null],
      ['http://b.test/x', 'blocked: inspector'],
    ]);
    expect(log.list('t', { ...ALL, resourceTypes: ['script'] }).requests).toHaveLength(1);
    expect(log.list('t', { ...ALL, urlContains: 'B.TEST' }).requests).toHaveLength(1);
    log.forget('t');
    expect(log.list('t', ALL)).toEqual({ requests: [], total: 0, dropped: 0 });
  });
});
