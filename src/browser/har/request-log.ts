import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import { tabOf, type SessionManager } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';

/** The requests a tab keeps, newest last; past it the oldest go (the answer says how many went). */
export const REQUESTS_PER_TAB = 500;

/** One request as `network_requests` answers it. */
export interface LoggedRequest {
  /** What `network_request` takes to give its headers and bodies. */
  id: string;
  url: string;
  method: string;
  resource_type: string;
  /** Null until the response comes, and for a request that failed before one. */
  status: number | null;
  mime_type: string | null;
  /** Why it failed (net::ERR_..., blocked, cancelled); null when it did not. */
  failure: string | null;
  /** Failed, or answered 4xx or 5xx. */
  failed: boolean;
  /** When it started, in ms after the tab's page began loading. */
  started_ms: number;
  /** Null while it is open. */
  duration_ms: number | null;
  /** The bytes that came over the wire; null while it is open. */
  encoded_bytes: number | null;
  from_cache: boolean;
}

export interface RequestFilter {
  urlContains: string | undefined;
  resourceTypes: readonly string[];
  onlyFailed: boolean;
  max: number;
}

/** What is kept of a request beside its line, for `network_request` (never listed). */
export interface RequestParts {
  startSeconds: number;
  /** The session that saw it: its bodies are asked of that session (a frame's or the page's). */
  session: CdpSession;
  /** The CDP request id, shared by the hops of a redirect chain (the last hop alone has a body). */
  cdpRequestId: string;
  /** A redirect hop: its response was the redirect, and its body is not kept. */
  redirected: boolean;
  requestHeaders: Protocol.Network.Headers;
  responseHeaders: Protocol.Network.Headers | null;
  hasPostData: boolean;
}

export type KeptRequest = LoggedRequest & RequestParts;

interface TabRequests {
  /** When the page began loading (the main frame's navigation), in CDP's monotonic seconds. */
  origin: number | undefined;
  byId: Map<string, KeptRequest>;
  dropped: number;
}

/**
 * The network requests of each tab since its page last loaded, bounded per tab: what a coding agent asks
 * for when a page misbehaves (the 404 of a script, the 500 of an API, a blocked request). Fed by the
 * Network domain's events; a navigation of the tab's main frame starts its list anew.
 */
export class RequestLog {
  readonly #tabs = new Map<string, TabRequests>();
  /** Request ids as clients see them: short, and never given twice (a new page does not reuse one). */
  #lastId = 0;

  #tab(targetId: string): TabRequests {
    let tab = this.#tabs.get(targetId);
    if (tab === undefined) {
      tab = { origin: undefined, byId: new Map(), dropped: 0 };
      this.#tabs.set(targetId, tab);
    }
    return tab;
  }

  /** A new main document (the list of the page before it is gone), or a closed tab. */
  forget(targetId: string): void {
    this.#tabs.delete(targetId);
  }

  started(targetId: string, params: Protocol.Network.RequestWillBeSentEvent, session: CdpSession): void {
    const tab = this.#tab(targetId);
    // The page's first request (its document) is when it began loading.
    tab.origin ??= params.timestamp;
    const previous = tab.byId.get(params.requestId);
    if (previous !== undefined) {
      // A redirect: the hop before it ended with the redirect's status.
      previous.status = params.redirectResponse?.status ?? previous.status;
      previous.duration_ms = Math.round((params.timestamp - previous.startSeconds) * 1000);
      previous.responseHeaders = params.redirectResponse?.headers ?? previous.responseHeaders;
      previous.redirected = true;
      tab.byId.delete(params.requestId);
      tab.byId.set(`${params.requestId}:${previous.started_ms}`, previous);
    }
    this.#lastId += 1;
    tab.byId.set(params.requestId, {
      id: String(this.#lastId),
      url: params.request.url,
      method: params.request.method,
      resource_type: params.type ?? 'Other',
      status: null,
      mime_type: null,
      failure: null,
      failed: false,
      started_ms: Math.round((params.timestamp - tab.origin) * 1000),
      duration_ms: null,
      encoded_bytes: null,
      from_cache: false,
      startSeconds: params.timestamp,
      session,
      cdpRequestId: params.requestId,
      requestHeaders: params.request.headers,
      responseHeaders: null,
      hasPostData: params.request.hasPostData === true,
      redirected: false,
    });
    while (tab.byId.size > REQUESTS_PER_TAB) {
      const oldest = tab.byId.keys().next().value;
      if (oldest === undefined) {
        break;
      }
      tab.byId.delete(oldest);
      tab.dropped += 1;
    }
  }

  responded(targetId: string, params: Protocol.Network.ResponseReceivedEvent): void {
    const request = this.#tabs.get(targetId)?.byId.get(params.requestId);
    if (request !== undefined) {
      request.status = params.response.status;
      request.mime_type = params.response.mimeType;
      request.from_cache = params.response.fromDiskCache === true || params.response.fromServiceWorker === true;
      request.failed = params.response.status >= 400;
      request.responseHeaders = params.response.headers;
    }
  }

  finished(targetId: string, params: Protocol.Network.LoadingFinishedEvent): void {
    const request = this.#tabs.get(targetId)?.byId.get(params.requestId);
    if (request !== undefined) {
      request.duration_ms = Math.round((params.timestamp - request.startSeconds) * 1000);
      request.encoded_bytes = params.encodedDataLength;
    }
  }

  failed(targetId: string, params: Protocol.Network.LoadingFailedEvent): void {
    const request = this.#tabs.get(targetId)?.byId.get(params.requestId);
    if (request !== undefined) {
      request.duration_ms = Math.round((params.timestamp - request.startSeconds) * 1000);
      request.failure = params.blockedReason === undefined ? params.errorText : `blocked: ${params.blockedReason}`;
      request.failed = true;
    }
  }

  /** One request of the tab's page by its id, with what is kept for its details. */
  request(targetId: string, id: string): KeptRequest | undefined {
    return [...(this.#tabs.get(targetId)?.byId.values() ?? [])].find((request) => request.id === id);
  }

  /** The tab's requests, oldest first, filtered; `total` counts every match, `dropped` what the bound let go. */
  list(targetId: string, filter: RequestFilter): { requests: LoggedRequest[]; total: number; dropped: number } {
    const tab = this.#tabs.get(targetId);
    if (tab === undefined) {
      return { requests: [], total: 0, dropped: 0 };
    }
    const needle = filter.urlContains?.toLowerCase();
    const types = new Set(filter.resourceTypes.map((type) => type.toLowerCase()));
    const matching = [...tab.byId.values()]
      .filter((request) => needle === undefined || request.url.toLowerCase().includes(needle))
      .filter((request) => types.size === 0 || types.has(request.resource_type.toLowerCase()))
      .filter((request) => !filter.onlyFailed || request.failed)
      .sort((a, b) => a.started_ms - b.started_ms);
    return {
      requests: matching.slice(-filter.max).map(lineOf),
      total: matching.length,
      dropped: tab.dropped,
    };
  }
}

/** The request as a list shows it, without what is kept for its details. */
export function lineOf(request: KeptRequest): LoggedRequest {
  const {
    startSeconds: _startSeconds,
    session: _session,
    cdpRequestId: _cdpRequestId,
    redirected: _redirected,
    requestHeaders: _requestHeaders,
    responseHeaders: _responseHeaders,
    hasPostData: _hasPostData,
    ...line
  } = request;
  return line;
}

/**
 * A RequestLog fed by every page and frame session (iframes count toward their page) until `signal`
 * aborts. The Network domain is on for them with small buffers, as the crash watchdog has it: the
 * requests are followed, their bodies are not kept.
 */
export function followRequests(targets: SessionManager, signal: AbortSignal): RequestLog {
  const log = new RequestLog();
  const disposers = [
    targets.on('Network.requestWillBeSent', (params, source) => {
      const targetId = tabOf(source);
      if (targetId === undefined) {
        return;
      }
      // A new document in the tab's main frame (the frame id is the page's target id) is a new page.
      if (params.type === 'Document' && params.frameId === targetId && params.redirectResponse === undefined) {
        log.forget(targetId);
      }
      log.started(targetId, params, source.session);
    }),
    targets.on('Network.responseReceived', (params, source) =>
      withPage(tabOf(source), (id) => log.responded(id, params)),
    ),
    targets.on('Network.loadingFinished', (params, source) =>
      withPage(tabOf(source), (id) => log.finished(id, params)),
    ),
    targets.on('Network.loadingFailed', (params, source) => withPage(tabOf(source), (id) => log.failed(id, params))),
    targets.addSessionSetup(async (session, target) => {
      if (target.type === 'page' || target.type === 'iframe') {
        await session.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 100_000 });
      }
    }),
  ];
  disposeOnAbort(signal, disposers);
  return log;
}

function withPage(targetId: string | undefined, record: (targetId: string) => void): void {
  if (targetId !== undefined) {
    record(targetId);
  }
}
