import { EndpointBusyError, EndpointUnreachableError, parseRetryAfter } from '../../cdp/endpoint-errors';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { redactUrl } from '../../shared/redact-url';
import { abortReason } from '../../shared/time';
import { fieldOf } from '../../shared/narrow';

/** How long /json/version may take when the caller gives no signal of its own. */
const DEFAULT_VERSION_TIMEOUT_MS = 30_000;

/**
 * A CDP endpoint as the user gives it: a ws:// URL is used as is; an http(s) URL (like
 * http://127.0.0.1:9222, or a pool's http://host:3000/?token=...) is resolved through /json/version under
 * its path, with its query string, to the browser's WebSocket URL. A pool's answer often names its
 * WebSocket URL without the token it was asked with (browserless gives ws://host:port), so the query
 * parameters of the given URL that the answer lacks are carried over.
 */
export async function resolveCdpUrl(url: string, options: { signal?: AbortSignal } = {}): Promise<string> {
  const given = parseEndpoint(url);
  refusePageEndpoint(given);
  if (given.protocol === 'ws:' || given.protocol === 'wss:') {
    return url;
  }
  const versionUrl = new URL(given.toString());
  versionUrl.pathname = `${given.pathname.replace(/\/+$/, '')}/json/version`;
  const shown = redactUrl(versionUrl.toString());
  const signal = options.signal ?? AbortSignal.timeout(DEFAULT_VERSION_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(versionUrl, { signal });
  } catch (error) {
    if (signal.aborted) {
      throw abortReason(signal);
    }
    throw new EndpointUnreachableError(`Cannot reach ${shown}: ${causeOf(error)}`, { cause: error });
  }
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    throw httpRefusal(
      shown,
      response.status,
      firstLine(body) || response.statusText,
      response.headers.get('retry-after'),
    );
  }
  const body: unknown = await response.json().catch(() => ({}));
  const socketUrl = fieldOf(body, 'webSocketDebuggerUrl');
  if (typeof socketUrl !== 'string') {
    throw new TabpilotError('DISCONNECTED', `${shown} gave no webSocketDebuggerUrl: is this a DevTools endpoint?`);
  }
  return carryQuery(given, socketUrl);
}

/**
 * Whether reconnecting to `url` leads back to the same browser: a browser's own endpoint names it
 * (/devtools/browser/<id>, which is also how browserless reconnects to a running browser), and a Selenium
 * Grid's CDP endpoint names its WebDriver session. Any other path (a pool's /, /chromium, a hosted
 * provider's connect URL) hands out a browser per connection.
 */
export function urlNamesOneBrowser(url: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  return /^\/devtools\/browser\/[^/]+\/?$/.test(path) || /\/session\/[^/]+\/se\/cdp\/?$/.test(path);
}

/** The error for an endpoint that answered an HTTP request (or a WebSocket upgrade) with a refusal. */
export function httpRefusal(shown: string, status: number, text: string, retryAfter: string | null): TabpilotError {
  if (status === 429 || status === 503) {
    return new EndpointBusyError(shown, status, text, parseRetryAfter(retryAfter, Date.now()));
  }
  const answered = `${shown} answered HTTP ${status}${text === '' ? '' : ` (${text})`}`;
  if (status === 401 || status === 403) {
    return new TabpilotError('FORBIDDEN', `${answered}: it refused the credentials; check the token in the cdp_url`, {
      details: { status },
    });
  }
  if (status >= 500) {
    return new EndpointUnreachableError(answered, { status });
  }
  return new TabpilotError(
    'DISCONNECTED',
    `${answered}: there is no browser there (a browser's endpoint is http://host:port or the webSocketDebuggerUrl its /json/version gives)`,
    { details: { status } },
  );
}

function parseEndpoint(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`cdp_url is not a URL: ${redactUrl(url)}`);
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol)) {
    throw invalid(`cdp_url must be ws://, wss://, http:// or https://, got ${redactUrl(url)}`);
  }
  return parsed;
}

/** One page's endpoint drives that page only, and its Target domain cannot attach to anything: refused. */
function refusePageEndpoint(url: URL): void {
  const page = /\/devtools\/(page|worker|shared_worker|service_worker)\/[^/]+\/?$/.exec(url.pathname);
  if (page !== null) {
    throw invalid(
      `${redactUrl(url.toString())} is the endpoint of one ${page[1] ?? 'page'}, not of a browser: tabpilot drives the whole browser. ` +
        "Give the browser's endpoint: http://host:port (resolved through /json/version) or the " +
        'webSocketDebuggerUrl it lists (ws://host:port/devtools/browser/<id>).',
    );
  }
}

function carryQuery(given: URL, wsUrl: string): string {
  if (given.search === '') {
    return wsUrl;
  }
  let ws: URL;
  try {
    ws = new URL(wsUrl);
  } catch {
    throw new TabpilotError('DISCONNECTED', `/json/version gave a webSocketDebuggerUrl that is not a URL`);
  }
  let changed = false;
  for (const [name, value] of given.searchParams) {
    if (!ws.searchParams.has(name)) {
      ws.searchParams.append(name, value);
      changed = true;
    }
  }
  return changed ? ws.toString() : wsUrl;
}

function invalid(message: string): TabpilotError {
  return new TabpilotError('INVALID_PARAMS', message, { details: { field: 'cdp_url' } });
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

/** fetch hides the reason (ECONNREFUSED...) in its cause. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? errorMessageOf(error) : `${errorMessageOf(error)} (${errorMessageOf(cause)})`;
}
