import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { sleep, withTimeout } from '../shared/time';
import { EndpointBusyError } from './endpoint-errors';

export interface ReconnectPolicy {
  maxAttempts: number;
  /** Wait before attempt 2, 3, ...; the last value repeats. A longer Retry-After from a pool wins. */
  backoffMs: readonly number[];
  /** One attempt, whole (socket, any queue, restoring targets); its signal aborts when it runs out. */
  attemptTimeoutMs: number;
}

export interface ReconnectHooks {
  /**
   * Opens a new transport and restores sessions; throws when the browser cannot be reached. `signal`
   * aborts when the attempt runs out of time or the cycle is cancelled: reopen then gives up and closes
   * what it opened.
   */
  reopen(signal: AbortSignal): Promise<void>;
  /** Whether the connection reopen() produced is still alive (it may drop again at once). */
  isAlive(): boolean;
  onAttempt(attempt: number, maxAttempts: number): void;
  onSuccess(attempt: number, downtimeMs: number): void;
  onGiveUp(lastError: unknown): void;
}

/**
 * browser-use's reconnect procedure, fixed: a drop that happens while a reconnect is running is not
 * ignored (#5366): an attempt only counts when the new connection is alive at its end, and `trigger()`
 * after a finished cycle starts a new one.
 */
export class ReconnectController {
  readonly #policy: () => ReconnectPolicy;
  readonly #hooks: ReconnectHooks;
  readonly #log: Logger;
  #running: Promise<boolean> | undefined;
  #abort: AbortController | undefined;
  #waiters = new Set<(ok: boolean) => void>();

  /** `policy` is read at the start of every cycle, so config changes apply to the next drop. */
  constructor(policy: () => ReconnectPolicy, hooks: ReconnectHooks, logger: Logger = silentLogger) {
    this.#policy = policy;
    this.#hooks = hooks;
    this.#log = logger;
  }

  get reconnecting(): boolean {
    return this.#running !== undefined;
  }

  /** How many callers wait for the running cycle's outcome (commands sent during the gap). */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** Starts a reconnect cycle, or joins the one running. Resolves true when connected again. */
  trigger(): Promise<boolean> {
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
      this.#abort = undefined;
    });
    return this.#running;
  }

  /** Stops a running cycle (an intentional stop); waiters learn it failed. */
  cancel(): void {
    this.#abort?.abort(new TabpilotError('CANCELLED', 'reconnect cancelled'));
  }

  /** Waits up to `timeoutMs` for the running cycle; true when connected at the end. */
  async waitForOutcome(timeoutMs: number): Promise<boolean> {
    if (this.#running === undefined) {
      return this.#hooks.isAlive();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(done);
        resolve(false);
      }, timeoutMs);
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        resolve(ok);
      };
      this.#waiters.add(done);
    });
  }

  async #run(): Promise<boolean> {
    const began = performance.now();
    const abort = new AbortController();
    this.#abort = abort;
    let lastError: unknown = new TabpilotError('DISCONNECTED', 'no reconnect attempt was made');
    const { maxAttempts, backoffMs, attemptTimeoutMs } = this.#policy();
    let ok = false;
    for (let attempt = 1; attempt <= maxAttempts && !abort.signal.aborted; attempt++) {
      this.#hooks.onAttempt(attempt, maxAttempts);
      const attemptAbort = new AbortController();
      try {
        await withTimeout(
          this.#hooks.reopen(AbortSignal.any([abort.signal, attemptAbort.signal])),
          attemptTimeoutMs,
          () => {
            const error = new TabpilotError(
              'TIMEOUT',
              `reconnect attempt ${attempt} took longer than reconnect.attempt_timeout_ms (${attemptTimeoutMs} ms)`,
            );
            attemptAbort.abort(error);
            return error;
          },
        );
        if (abort.signal.aborted) {
          // Cancelled (a stop) while this attempt connected: it does not count, and reopen let it go.
          break;
        }
        if (this.#hooks.isAlive()) {
          this.#hooks.onSuccess(attempt, performance.now() - began);
          ok = true;
          break;
        }
        lastError = new TabpilotError('DISCONNECTED', 'the new connection dropped at once');
      } catch (error) {
        lastError = error;
        this.#log.warn('reconnect attempt failed', {
          attempt,
          error: errorMessageOf(error),
        });
      }
      if (attempt < maxAttempts && !abort.signal.aborted) {
        const backoff = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1000;
        const wait = Math.max(backoff, lastError instanceof EndpointBusyError ? (lastError.retryAfterMs ?? 0) : 0);
        await sleep(wait, abort.signal).catch(() => undefined);
      }
    }
    if (!ok) {
      this.#hooks.onGiveUp(abort.signal.aborted ? abort.signal.reason : lastError);
    }
    for (const waiter of this.#waiters) {
      waiter(ok);
    }
    this.#waiters.clear();
    return ok;
  }
}
