import { TabpilotError, errorMessageOf } from '../shared/errors';
import { abortReason, sleep } from '../shared/time';
import { EndpointBusyError, isRetryableConnectError } from './endpoint-errors';

export interface ConnectPolicy {
  /** The whole connect: every attempt, any wait in a pool's queue and every pause between attempts. */
  budgetMs: number;
  /** Pause before attempt 2, 3, ...; the last value repeats. A longer Retry-After wins. */
  backoffMs: readonly number[];
}

export interface ConnectAttempt {
  attempt: number;
  /** Aborts when the budget runs out (or the caller gives up): the attempt must stop and clean up. */
  signal: AbortSignal;
}

export interface ConnectRetryOptions {
  /** The endpoint as it may be shown (credentials masked), for the final error. */
  endpoint: string;
  /** The caller giving up (a stop during a long queue wait). */
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; error: unknown; waitMs: number }) => void;
}

/**
 * Opens a connection within a time budget: an attempt that fails in a way that may pass (a full pool, a
 * refused or dropped connection) is tried again after a backoff pause, honouring the pool's Retry-After;
 * one that cannot pass (refused credentials, a page's endpoint) fails at once. No attempt has a timeout of
 * its own: a pool that queues the connection is waited for until the budget runs out.
 */
export async function connectWithinBudget<T>(
  open: (attempt: ConnectAttempt) => Promise<T>,
  policy: ConnectPolicy,
  options: ConnectRetryOptions,
): Promise<T> {
  const started = performance.now();
  const deadline = started + policy.budgetMs;
  const budget = new AbortController();
  const timer = setTimeout(
    () => budget.abort(new TabpilotError('TIMEOUT', `the connect budget of ${policy.budgetMs} ms ran out`)),
    policy.budgetMs,
  );
  const signal = options.signal === undefined ? budget.signal : AbortSignal.any([budget.signal, options.signal]);
  let attempts = 0;
  let busyRefusals = 0;
  try {
    for (;;) {
      attempts++;
      try {
        return await untilAborted(open({ attempt: attempts, signal }), signal);
      } catch (error) {
        if (options.signal?.aborted === true) {
          throw error;
        }
        if (error instanceof EndpointBusyError) {
          busyRefusals++;
        }
        if (budget.signal.aborted) {
          throw outOfBudget(options.endpoint, policy.budgetMs, attempts, busyRefusals, error, true);
        }
        if (!isRetryableConnectError(error)) {
          throw error;
        }
        const backoff = policy.backoffMs[Math.min(attempts - 1, policy.backoffMs.length - 1)] ?? 1000;
        const retryAfter = error instanceof EndpointBusyError ? (error.retryAfterMs ?? 0) : 0;
        const waitMs = Math.max(backoff, retryAfter);
        if (performance.now() + waitMs >= deadline) {
          throw outOfBudget(options.endpoint, policy.budgetMs, attempts, busyRefusals, error, false);
        }
        options.onRetry?.({ attempt: attempts, error, waitMs });
        await sleep(waitMs, signal).catch((sleepError: unknown) => {
          throw options.signal?.aborted === true
            ? sleepError
            : outOfBudget(options.endpoint, policy.budgetMs, attempts, busyRefusals, error, false);
        });
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The attempt's outcome, or its signal's reason as soon as it aborts, so the budget holds even where an
 * attempt is slow to notice (the attempt still cleans up after itself when it does).
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    if (signal.aborted) {
      onAbort();
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The error a connect that used up its budget ends with: says what kept it from a browser. */
function outOfBudget(
  endpoint: string,
  budgetMs: number,
  attempts: number,
  busyRefusals: number,
  lastError: unknown,
  cutShort: boolean,
): TabpilotError {
  const seconds = Math.round(budgetMs / 100) / 10;
  const tried = `${attempts} attempt${attempts === 1 ? '' : 's'} in ${seconds} s`;
  if (lastError instanceof EndpointBusyError) {
    return new TabpilotError(
      'DISCONNECTED',
      `The browser pool at ${endpoint} is full: it refused ${busyRefusals} of ${tried} (last: HTTP ${lastError.status}). ` +
        'Wait for one of its sessions to end, raise its limits (browserless: CONCURRENT and QUEUED), or raise ' +
        'connect.timeout_ms to wait longer.',
      { cause: lastError, details: { reason: 'pool_full', status: lastError.status, attempts } },
    );
  }
  if (cutShort) {
    return new TabpilotError(
      'TIMEOUT',
      `No browser from ${endpoint} within connect.timeout_ms (${budgetMs} ms, ${tried}): ${errorMessageOf(lastError)}. ` +
        'A pool may still have had the connection queued; raise connect.timeout_ms to wait longer.',
      { cause: lastError, details: { reason: 'connect_timeout', attempts } },
    );
  }
  return new TabpilotError(
    'DISCONNECTED',
    `Cannot reach a browser at ${endpoint}: ${tried} failed, the last with: ${errorMessageOf(lastError)}`,
    { cause: lastError, details: { reason: 'unreachable', attempts } },
  );
}
