import { TabpilotError } from './errors';

/** Resolves after `ms`, or rejects with the signal's reason as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Races `promise` against a timer that is always cleared, so no timer outlives the race.
 * `onTimeout` builds the error at expiry (its message names what timed out).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  if (!Number.isFinite(ms)) {
    return promise;
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) {
    return reason;
  }
  return new TabpilotError('CANCELLED', typeof reason === 'string' ? reason : 'Operation was cancelled');
}

/**
 * Polls `check` until it returns a value other than undefined, or fails with `onTimeout()`.
 * Used where CDP offers no event to wait on.
 */
export async function pollUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal; onTimeout: () => Error },
): Promise<T> {
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (performance.now() >= deadline) {
      throw options.onTimeout();
    }
    await sleep(options.intervalMs ?? 50, options.signal);
  }
}
