import { sleep } from '../shared/time';

/** How a failed model request is retried. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseMs: number;
  readonly maxWaitMs: number;
}

/** What one failed attempt tells the retry loop. */
export interface AttemptFailure {
  readonly retryable: boolean;
  /** The server's own wait (Retry-After), in ms, when it sent one. */
  readonly retryAfterMs: number | null;
  readonly message: string;
}

/**
 * The wait a server asks for: `retry-after-ms` (OpenAI's), else `Retry-After` as seconds or an HTTP
 * date. Null when there is none or it cannot be read.
 */
export function retryAfterMs(headers: Readonly<Record<string, string>> | undefined, now = Date.now()): number | null {
  if (headers === undefined) {
    return null;
  }
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number(lower.get('retry-after-ms'));
  if (lower.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) {
    return ms;
  }
  const value = lower.get('retry-after');
  if (value === undefined || value.trim() === '') {
    return null;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds)) {
    return seconds >= 0 ? seconds * 1000 : null;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The pause before retry number `retry` (0-based): the server's wait when given, else doubling; capped. */
export function retryDelayMs(policy: RetryPolicy, retry: number, failure: AttemptFailure): number {
  const wait = failure.retryAfterMs ?? policy.baseMs * 2 ** retry;
  return Math.min(wait, policy.maxWaitMs);
}

export interface RetryOutcome<T> {
  readonly value: T;
  readonly attempts: number;
}

export class RetriesExhaustedError extends Error {
  readonly attempts: number;
  constructor(message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.name = 'RetriesExhaustedError';
    this.attempts = attempts;
  }
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, or the retries are used up; the stop
 * signal ends a pause at once. `classify` turns a thrown error into what the loop needs to know.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  signal: AbortSignal,
  attempt: (attemptNumber: number) => Promise<T>,
  classify: (error: unknown) => AttemptFailure,
  onRetry: (failure: AttemptFailure, delayMs: number, attemptNumber: number) => void = () => undefined,
): Promise<RetryOutcome<T>> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return { value: await attempt(attemptNumber), attempts: attemptNumber };
    } catch (error) {
      signal.throwIfAborted();
      const failure = classify(error);
      const retry = attemptNumber - 1;
      if (!failure.retryable || retry >= policy.maxRetries) {
        const tries = attemptNumber === 1 ? '1 attempt' : `${attemptNumber} attempts`;
        throw new RetriesExhaustedError(
          failure.retryable
            ? `model request failed after ${tries}: ${failure.message}`
            : `model request failed: ${failure.message}`,
          attemptNumber,
          error,
        );
      }
      const delay = retryDelayMs(policy, retry, failure);
      onRetry(failure, delay, attemptNumber);
      await sleep(delay, signal);
    }
  }
}
