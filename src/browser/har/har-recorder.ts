import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import type { TargetRecord } from '../../cdp/target';
import { base64ToBytes, bytesToBase64, strictUtf8, utf8 } from '../../shared/bytes';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import {
  harTimings,
  headerList,
  headerValue,
  httpVersion,
  isTextual,
  postDataOf,
  queryString,
  redactHeaders,
  requestCookies,
  responseCookies,
} from './har-entry';
import type { HarContent, HarEntry, HarNameValue, HarPage } from './har-types';

export interface HarRecorderOptions {
  content: 'omit' | 'embed' | 'attach';
  mode: 'full' | 'minimal';
  maxBodyBytes: number;
  /** Header names (lower case) whose values are recorded as redacted, with the cookies they carry. */
  redactHeaders: readonly string[];
  /** Keeps a body beside the HAR (content 'attach'); returns its path relative to the HAR's folder. */
  attach(base64: string, mimeType: string): Promise<string>;
  /** A finished entry, in the order requests finish. */
  onEntry(entry: HarEntry): void;
  /** The pages changed (a navigation, its DOMContentLoaded or load). */
  onPages(pages: readonly HarPage[]): void;
  log: Logger;
}

export interface HarEventSource {
  session: CdpSession;
  target: TargetRecord | undefined;
}

interface PendingRequest {
  readonly session: CdpSession;
  readonly requestId: string;
  readonly pageref: string | undefined;
  readonly wallTime: number;
  readonly timestamp: number;
  readonly request: Protocol.Network.Request;
  readonly resourceType: string;
  rawRequestHeaders: Protocol.Network.Headers | undefined;
  response: Protocol.Network.Response | undefined;
  responseTimestamp: number | undefined;
  rawResponseHeaders: Protocol.Network.Headers | undefined;
  dataLength: number;
}

interface PageState {
  page: HarPage;
  /** When its document request was issued (s, monotonic), the origin of page timings. */
  timestamp: number;
  origin: string;
}

const RECORDED_SCHEMES = new Set(['http:', 'https:']);

/**
 * Turns the Network and Page events of every controlled session (pages, their out-of-process frames and
 * workers) into HAR entries and pages. An entry is handed over when its request is over: finished (with
 * its body fetched, when bodies are kept), failed, or redirected (each hop is an entry, as in Chrome's
 * own HAR export). http and https are recorded alike (browser-use records only https).
 */
export class HarRecorder {
  readonly #options: HarRecorderOptions;
  readonly #redact: ReadonlySet<string>;
  readonly #pending = new Map<string, PendingRequest>();
  /** Extra-info events can come before the request they belong to. */
  readonly #earlyRequestHeaders = new Map<string, Protocol.Network.Headers>();
  readonly #earlyResponseHeaders = new Map<string, Protocol.Network.Headers>();
  readonly #pages: PageState[] = [];
  readonly #currentPage = new Map<string, PageState>();
  /** Work still out (bodies, titles) that the entries and pages wait for. */
  readonly #bodies = new Set<Promise<void>>();
  #pageCounter = 0;

  constructor(options: HarRecorderOptions) {
    this.#options = options;
    this.#redact = new Set(options.redactHeaders.map((name) => name.toLowerCase()));
  }

  get pages(): readonly HarPage[] {
    return this.#pages.map((state) => state.page);
  }

  /** Feeds one CDP event; anything not Network.* or a page's load events is ignored. */
  handle(method: string, params: unknown, source: HarEventSource): void {
    switch (method) {
      case 'Network.requestWillBeSent':
        this.#onRequest(params as Protocol.Network.RequestWillBeSentEvent, source);
        break;
      case 'Network.requestWillBeSentExtraInfo': {
        const event = params as Protocol.Network.RequestWillBeSentExtraInfoEvent;
        const pending = this.#pending.get(keyOf(source.session, event.requestId));
        if (pending !== undefined && pending.rawRequestHeaders === undefined) {
          pending.rawRequestHeaders = event.headers;
        } else {
          this.#earlyRequestHeaders.set(keyOf(source.session, event.requestId), event.headers);
        }
        break;
      }
      case 'Network.responseReceived': {
        const event = params as Protocol.Network.ResponseReceivedEvent;
        const pending = this.#pending.get(keyOf(source.session, event.requestId));
        if (pending !== undefined) {
          pending.response = event.response;
          pending.responseTimestamp = event.timestamp;
        }
        break;
      }
      case 'Network.responseReceivedExtraInfo': {
        const event = params as Protocol.Network.ResponseReceivedExtraInfoEvent;
        const key = keyOf(source.session, event.requestId);
        const pending = this.#pending.get(key);
        if (pending !== undefined && pending.rawResponseHeaders === undefined) {
          pending.rawResponseHeaders = event.headers;
        } else {
          this.#earlyResponseHeaders.set(key, event.headers);
        }
        break;
      }
      case 'Network.dataReceived': {
        const event = params as Protocol.Network.DataReceivedEvent;
        const pending = this.#pending.get(keyOf(source.session, event.requestId));
        if (pending !== undefined) {
          pending.dataLength += event.dataLength;
        }
        break;
      }
      case 'Network.loadingFinished':
        this.#onFinished(params as Protocol.Network.LoadingFinishedEvent, source);
        break;
      case 'Network.loadingFailed': {
        const event = params as Protocol.Network.LoadingFailedEvent;
        const pending = this.#take(keyOf(source.session, event.requestId));
        if (pending !== undefined) {
          this.#options.onEntry(this.#entry(pending, { end: event.timestamp, failure: event.errorText }));
        }
        break;
      }
      case 'Page.domContentEventFired':
      case 'Page.loadEventFired':
        this.#onPageTiming(method, (params as { timestamp: number }).timestamp, source);
        break;
      default:
        break;
    }
  }

  /** Waits for the bodies being fetched; their entries are handed over when each arrives. */
  async settle(): Promise<void> {
    while (this.#bodies.size > 0) {
      await Promise.allSettled([...this.#bodies]);
    }
  }

  /** Hands over every request still open (no response yet, or still loading) as it stands, and the pages. */
  finish(): void {
    for (const pending of [...this.#pending.values()]) {
      this.#pending.delete(keyOf(pending.session, pending.requestId));
      this.#options.onEntry(
        this.#entry(pending, {
          end: undefined,
          failure: pending.response === undefined ? 'the session ended before the response came' : undefined,
        }),
      );
    }
    this.#options.onPages(this.pages);
  }

  #onRequest(event: Protocol.Network.RequestWillBeSentEvent, source: HarEventSource): void {
    const key = keyOf(source.session, event.requestId);
    if (event.redirectResponse !== undefined) {
      const previous = this.#take(key);
      if (previous !== undefined) {
        previous.response = event.redirectResponse;
        previous.responseTimestamp = event.timestamp;
        this.#options.onEntry(
          this.#entry(previous, { end: event.timestamp, failure: undefined, redirect: event.request.url }),
        );
      }
    }
    let scheme: string;
    try {
      scheme = new URL(event.request.url).protocol;
    } catch {
      // A URL the browser accepted but URL() cannot read is not something a HAR consumer could replay.
      return;
    }
    if (!RECORDED_SCHEMES.has(scheme)) {
      return;
    }
    const pageTargetId =
      source.target === undefined ? undefined : (source.target.pageTargetId ?? source.target.targetId);
    const isMainDocument =
      event.type === 'Document' && source.target?.type === 'page' && event.frameId === source.target.targetId;
    let page = pageTargetId === undefined ? undefined : this.#currentPage.get(pageTargetId);
    if (isMainDocument && pageTargetId !== undefined && event.redirectResponse === undefined) {
      page = this.#startPage(pageTargetId, event);
    } else if (isMainDocument && page !== undefined) {
      page.origin = originOf(event.request.url);
    }
    if (this.#options.mode === 'minimal' && event.type !== 'Document' && originOf(event.request.url) !== page?.origin) {
      return;
    }
    this.#pending.set(key, {
      session: source.session,
      requestId: event.requestId,
      pageref: page?.page.id,
      wallTime: event.wallTime,
      timestamp: event.timestamp,
      request: event.request,
      resourceType: (event.type ?? 'Other').toLowerCase(),
      rawRequestHeaders: this.#takeEarly(this.#earlyRequestHeaders, key),
      response: undefined,
      responseTimestamp: undefined,
      rawResponseHeaders: this.#takeEarly(this.#earlyResponseHeaders, key),
      dataLength: 0,
    });
  }

  #startPage(pageTargetId: string, event: Protocol.Network.RequestWillBeSentEvent): PageState {
    this.#pageCounter += 1;
    const state: PageState = {
      page: {
        startedDateTime: new Date(event.wallTime * 1000).toISOString(),
        id: `page_${this.#pageCounter}`,
        title: event.documentURL,
        pageTimings: { onContentLoad: -1, onLoad: -1 },
      },
      timestamp: event.timestamp,
      origin: originOf(event.request.url),
    };
    this.#pages.push(state);
    this.#currentPage.set(pageTargetId, state);
    this.#options.onPages(this.pages);
    return state;
  }

  #onPageTiming(method: string, timestamp: number, source: HarEventSource): void {
    if (source.target?.type !== 'page') {
      return;
    }
    const state = this.#currentPage.get(source.target.targetId);
    if (state === undefined) {
      return;
    }
    const ms = Math.round((timestamp - state.timestamp) * 1000 * 1000) / 1000;
    if (method === 'Page.loadEventFired') {
      state.page.pageTimings.onLoad = ms;
    } else {
      state.page.pageTimings.onContentLoad = ms;
    }
    this.#options.onPages(this.pages);
    // The document's title, read as Playwright does at these two moments (the target's own title lags).
    const titled = source.session
      .send('Runtime.evaluate', { expression: 'document.title', returnByValue: true })
      .then(({ result }) => {
        if (typeof result.value === 'string' && result.value !== '' && result.value !== state.page.title) {
          state.page.title = result.value;
          this.#options.onPages(this.pages);
        }
      })
      .catch((error: unknown) => this.#options.log.debug('page title unavailable', { error: errorMessageOf(error) }));
    this.#bodies.add(titled);
    void titled.finally(() => this.#bodies.delete(titled));
  }

  #onFinished(event: Protocol.Network.LoadingFinishedEvent, source: HarEventSource): void {
    const pending = this.#take(keyOf(source.session, event.requestId));
    if (pending === undefined) {
      return;
    }
    const entry = this.#entry(pending, { end: event.timestamp, failure: undefined });
    const encodedBody = event.encodedDataLength - (pending.response?.encodedDataLength ?? 0);
    entry.response.bodySize = Math.max(0, Math.round(encodedBody));
    const wantsBody = this.#options.content !== 'omit' && pending.response !== undefined;
    if (!wantsBody) {
      this.#options.onEntry(entry);
      return;
    }
    if (pending.dataLength > this.#options.maxBodyBytes) {
      entry.response.content.comment = `body of ${pending.dataLength} bytes not kept (over record_har_max_body_bytes)`;
      this.#options.onEntry(entry);
      return;
    }
    const fetched = this.#fillBody(pending, entry.response.content).then(
      () => this.#options.onEntry(entry),
      (error: unknown) => {
        this.#options.log.debug('response body unavailable', {
          url: pending.request.url,
          error: errorMessageOf(error),
        });
        this.#options.onEntry(entry);
      },
    );
    this.#bodies.add(fetched);
    void fetched.finally(() => this.#bodies.delete(fetched));
  }

  async #fillBody(pending: PendingRequest, content: HarContent): Promise<void> {
    const { body, base64Encoded } = await pending.session.send('Network.getResponseBody', {
      requestId: pending.requestId,
    });
    const size = base64Encoded ? Math.floor((body.length * 3) / 4) - padding(body) : utf8(body).length;
    content.size = size;
    if (size > this.#options.maxBodyBytes) {
      content.comment = `body of ${size} bytes not kept (over record_har_max_body_bytes)`;
      return;
    }
    if (this.#options.content === 'attach') {
      content._file = await this.#options.attach(base64Encoded ? body : bytesToBase64(utf8(body)), content.mimeType);
      return;
    }
    if (base64Encoded && isTextual(content.mimeType)) {
      const text = strictUtf8(base64ToBytes(body));
      if (text !== undefined) {
        content.text = text;
        return;
      }
    }
    content.text = body;
    if (base64Encoded) {
      content.encoding = 'base64';
    }
  }

  #entry(
    pending: PendingRequest,
    outcome: { end: number | undefined; failure: string | undefined; redirect?: string },
  ): HarEntry {
    const response = pending.response;
    const requestHeaders = headerList(pending.rawRequestHeaders ?? response?.requestHeaders ?? pending.request.headers);
    const responseHeaders = headerList(pending.rawResponseHeaders ?? response?.headers);
    const redactCookies = this.#redact.has('cookie');
    const redactSetCookies = this.#redact.has('set-cookie');
    const { timings, time } = harTimings(response?.timing, pending.timestamp, pending.responseTimestamp, outcome.end);
    const mimeType = response?.mimeType ?? headerValue(responseHeaders, 'content-type') ?? 'x-unknown';
    const version = httpVersion(response?.protocol);
    // No response (failed, or still open at the end): -1, as Playwright writes it; its routeFromHAR then
    // stalls such a request instead of failing to fulfil a status of 0.
    const status = response?.status ?? -1;
    const entry: HarEntry = {
      startedDateTime: new Date(pending.wallTime * 1000).toISOString(),
      time,
      request: {
        method: pending.request.method,
        url: pending.request.url + (pending.request.urlFragment ?? ''),
        httpVersion: version,
        cookies: requestCookies(requestHeaders, redactCookies),
        headers: redactHeaders(requestHeaders, this.#redact),
        queryString: queryString(pending.request.url),
        headersSize: -1,
        bodySize: pending.request.postData === undefined ? 0 : utf8(pending.request.postData).length,
      },
      response: {
        status,
        statusText: response?.statusText ?? '',
        httpVersion: version,
        cookies: responseCookies(responseHeaders, redactSetCookies),
        headers: redactHeaders(responseHeaders, this.#redact),
        content: { size: pending.dataLength, mimeType },
        redirectURL: outcome.redirect ?? locationOf(responseHeaders, status, pending.request.url),
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings,
      _resourceType: pending.resourceType,
    };
    const postData = postDataOf(pending.request.postData, headerValue(requestHeaders, 'content-type'));
    if (postData !== undefined) {
      entry.request.postData = postData;
    }
    if (pending.pageref !== undefined) {
      entry.pageref = pending.pageref;
    }
    const address = response?.remoteIPAddress?.replace(/^\[|\]$/g, '');
    if (address !== undefined && address !== '') {
      entry.serverIPAddress = address;
    }
    if (response?.connectionId !== undefined) {
      entry.connection = String(response.connectionId);
    }
    if (outcome.failure !== undefined) {
      entry.response._failureText = outcome.failure;
    }
    return entry;
  }

  #take(key: string): PendingRequest | undefined {
    const pending = this.#pending.get(key);
    this.#pending.delete(key);
    return pending;
  }

  #takeEarly(map: Map<string, Protocol.Network.Headers>, key: string): Protocol.Network.Headers | undefined {
    const headers = map.get(key);
    map.delete(key);
    return headers;
  }
}

function keyOf(session: CdpSession, requestId: string): string {
  return `${session.sessionId}|${requestId}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    // Only http(s) URLs reach here, which URL() reads; an unreadable one matches no origin.
    return '';
  }
}

function locationOf(headers: readonly HarNameValue[], status: number, base: string): string {
  const location = headerValue(headers, 'location');
  if (location === undefined || status < 300 || status > 399) {
    return '';
  }
  try {
    return new URL(location, base).href;
  } catch {
    // A Location the browser could not follow is recorded as written.
    return location;
  }
}

function padding(base64: string): number {
  return base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
}
