import { describe, expect, it } from 'vitest';
import { RetriesExhaustedError, retryAfterMs, retryDelayMs, withRetries, type AttemptFailure } from './retry';

const policy = { maxRetries: 2, baseMs: 0, maxWaitMs: 60_000 };

describe('retryAfterMs', () => {
  it('reads retry-after-ms, seconds and an HTTP date, case-insensitively', () => {
    expect(retryAfterMs({ 'retry-after-ms': '250' })).toBe(250);
    expect(retryAfterMs({ 'Retry-After': '3' })).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeNull();
    expect(retryAfterMs({})).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });

  it('prefers the server wait over doubling, capped by the policy', () => {
    const base = { retryable: true, message: 'x' };
    expect(retryDelayMs({ ...policy, baseMs: 100 }, 2, { ...base, retryAfterMs: null })).toBe(400);
    expect(retryDelayMs({ ...policy, baseMs: 100 }, 2, { ...base, retryAfterMs: 30 })).toBe(30);
    expect(retryDelayMs({ ...policy, maxWaitMs: 1000 }, 0, { ...base, retryAfterMs: 120_000 })).toBe(1000);
  });
});

describe('withRetries', () => {
  const retryable = (message: string): AttemptFailure => ({ retryable: true, retryAfterMs: 0, message });

  it('retries retryable failures and answers the attempts it took', async () => {
    let calls = 0;
    const outcome = await withRetries(
      policy,
      new AbortController().signal,
      () => (++calls < 3 ? Promise.reject(new Error('503')) : Promise.resolve('ok')),
      (error) => retryable((error as Error).message),
    );
    expect(outcome).toEqual({ value: 'ok', attempts: 3 });
  });

  it('gives up after the retries with a message naming the attempts and the last failure', async () => {
    const failing = withRetries(
      policy,
      new AbortController().signal,
      () => Promise.reject(new Error('HTTP 500')),
      (error) => retryable((error as Error).message),
    );
    await expect(failing).rejects.toThrow(RetriesExhaustedError);
    await expect(failing).rejects.toThrow('model request failed after 3 attempts: HTTP 500');
  });

  it('does not retry a failure that is not retryable', async () => {
    let calls = 0;
    const failing = withRetries(
      policy,
      new AbortController().signal,
      () => {
        calls++;
        return Promise.reject(new Error('HTTP 401'));
      },
      () => ({ retryable: false, retryAfterMs: null, message: 'HTTP 401: bad key' }),
    );
    await expect(failing).rejects.toThrow('model request failed: HTTP 401: bad key');
    expect(calls).toBe(1);
  });

  it('a stop during the pause ends it at once with the stop', async () => {
    const stop = new AbortController();
    const failing = withRetries(
      { maxRetries: 5, baseMs: 0, maxWaitMs: 600_000 },
      stop.signal,
      () => Promise.reject(new Error('429')),
      () => ({ retryable: true, retryAfterMs: 600_000, message: '429' }),
      () => stop.abort(new Error('stopped by the user')),
    );
    await expect(failing).rejects.toThrow('stopped by the user');
  });
});
