import { TabpilotError } from '../shared/errors';
import { CdpConnectionClosedError } from './errors';

/**
 * The endpoint answered but has no browser to give now: a full pool (HTTP 429, or 503 from a proxy in
 * front of one). Worth retrying, after `retryAfterMs` when the pool said how long.
 */
export class EndpointBusyError extends TabpilotError {
  readonly status: number;
  readonly retryAfterMs: number | undefined;

  constructor(endpoint: string, status: number, statusText: string, retryAfterMs: number | undefined) {
    super('DISCONNECTED', `${endpoint} answered HTTP ${status}${statusText === '' ? '' : ` (${statusText})`}`, {
      details: { status, ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }) },
    });
    this.name = 'EndpointBusyError';
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The endpoint could not be reached, or failed on its side (a refused or reset connection, HTTP 5xx):
 * a pool that is restarting or launching a browser slowly. Worth retrying.
 */
export class EndpointUnreachableError extends TabpilotError {
  constructor(message: string, options: { cause?: unknown; status?: number } = {}) {
    super('DISCONNECTED', message, {
      cause: options.cause,
      ...(options.status === undefined ? {} : { details: { status: options.status } }),
    });
    this.name = 'EndpointUnreachableError';
  }
}

/**
 * Whether a failed connect attempt may succeed if tried again. A connection that closes while it is set
 * up counts (a pool that drops a socket it cannot serve); refused credentials, a wrong path or a page's
 * endpoint do not.
 */
export function isRetryableConnectError(error: unknown): boolean {
  return (
    error instanceof EndpointBusyError ||
    error instanceof EndpointUnreachableError ||
    error instanceof CdpConnectionClosedError
  );
}

/** How long a Retry-After header asks to wait, in ms: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') {
    return undefined;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return Number(text) * 1000;
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
