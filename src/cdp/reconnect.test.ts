import { describe, expect, it, vi } from 'vitest';
import { EndpointBusyError } from './endpoint-errors';
import { ReconnectController, type ReconnectHooks } from './reconnect';

function hooks(overrides: Partial<ReconnectHooks>): ReconnectHooks & { attempts: number[] } {
  const attempts: number[] = [];
  return {
    attempts,
    reopen: async () => undefined,
    isAlive: () => true,
    onAttempt: (attempt) => attempts.push(attempt),
    onSuccess: vi.fn(),
    onGiveUp: vi.fn(),
    ...overrides,
  };
}

describe('ReconnectController', () => {
  it('retries with backoff until the browser answers', async () => {
    let calls = 0;
    const h = hooks({
      reopen: async () => {
        calls++;
        if (calls < 3) {
          throw new Error('refused');
        }
      },
    });
    const controller = new ReconnectController(
      () => ({ maxAttempts: 3, backoffMs: [5, 10], attemptTimeoutMs: 1000 }),
      h,
    );
    expect(await controller.trigger()).toBe(true);
    expect(h.attempts).toEqual([1, 2, 3]);
    expect(h.onSuccess).toHaveBeenCalledWith(3, expect.any(Number));
    expect(h.onGiveUp).not.toHaveBeenCalled();
  });

  it('gives up after the last attempt and tells waiters', async () => {
    const h = hooks({
      reopen: async () => {
        throw new Error('refused');
      },
    });
    const controller = new ReconnectController(() => ({ maxAttempts: 2, backoffMs: [5], attemptTimeoutMs: 1000 }), h);
    const cycle = controller.trigger();
    const outcome = controller.waitForOutcome(5000);
    expect(await cycle).toBe(false);
    expect(await outcome).toBe(false);
    expect(h.onGiveUp).toHaveBeenCalledOnce();
  });

  it('does not count an attempt whose connection is already dead (browser-use #5366)', async () => {
    let alive = false;
    let calls = 0;
    const h = hooks({
      reopen: async () => {
        calls++;
        alive = calls >= 2;
      },
      isAlive: () => alive,
    });
    const controller = new ReconnectController(() => ({ maxAttempts: 3, backoffMs: [1], attemptTimeoutMs: 1000 }), h);
    expect(await controller.trigger()).toBe(true);
    expect(h.attempts).toEqual([1, 2]);
  });

  it('joins a running cycle instead of starting a second, and a later drop starts a new one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const reopen = vi.fn(async () => gate);
    const controller = new ReconnectController(
      () => ({ maxAttempts: 1, backoffMs: [], attemptTimeoutMs: 1000 }),
      hooks({ reopen }),
    );
    const a = controller.trigger();
    const b = controller.trigger();
    expect(a).toBe(b);
    release();
    await a;
    expect(controller.reconnecting).toBe(false);
    await controller.trigger();
    expect(reopen).toHaveBeenCalledTimes(2);
  });

  it('fails an attempt that exceeds its time budget', async () => {
    const h = hooks({ reopen: () => new Promise<void>(() => undefined) });
    const controller = new ReconnectController(() => ({ maxAttempts: 1, backoffMs: [], attemptTimeoutMs: 20 }), h);
    expect(await controller.trigger()).toBe(false);
    expect(h.onGiveUp).toHaveBeenCalledWith(expect.objectContaining({ code: 'TIMEOUT' }));
  });

  it('aborts the attempt that ran out of time, so it stops and cleans up instead of finishing later', async () => {
    const signals: AbortSignal[] = [];
    const h = hooks({
      reopen: (signal) => {
        signals.push(signal);
        return new Promise<void>(() => undefined);
      },
    });
    const controller = new ReconnectController(() => ({ maxAttempts: 1, backoffMs: [], attemptTimeoutMs: 20 }), h);
    expect(await controller.trigger()).toBe(false);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toMatchObject({ code: 'TIMEOUT' });
  });

  it("waits as long as a full pool's Retry-After asks before the next attempt", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const h = hooks({
        reopen: async () => {
          calls++;
          if (calls === 1) {
            throw new EndpointBusyError('ws://pool.test/', 429, 'Too Many Requests', 5000);
          }
        },
      });
      const controller = new ReconnectController(
        () => ({ maxAttempts: 2, backoffMs: [10], attemptTimeoutMs: 1000 }),
        h,
      );
      const cycle = controller.trigger();
      await vi.advanceTimersByTimeAsync(100);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toBe(2);
      expect(await cycle).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
