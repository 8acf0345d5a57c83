import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('ReconnectController timing and cancel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits each backoff step before the next attempt, repeating the last step', async () => {
    vi.useFakeTimers();
    const startedAt: number[] = [];
    const began = Date.now();
    const h = hooks({
      reopen: async () => {
        startedAt.push(Date.now() - began);
        throw new Error('refused');
      },
    });
    const controller = new ReconnectController(
      () => ({ maxAttempts: 4, backoffMs: [100, 250], attemptTimeoutMs: 1000 }),
      h,
    );
    const cycle = controller.trigger();
    await vi.advanceTimersByTimeAsync(99);
    expect(startedAt).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(startedAt).toEqual([0, 100]);
    await vi.advanceTimersByTimeAsync(249);
    expect(startedAt).toEqual([0, 100]);
    await vi.advanceTimersByTimeAsync(1);
    expect(startedAt).toEqual([0, 100, 350]);
    await vi.advanceTimersByTimeAsync(250);
    expect(startedAt).toEqual([0, 100, 350, 600]);
    // No wait after the last attempt: the cycle gives up at once.
    expect(await cycle).toBe(false);
    expect(h.onGiveUp).toHaveBeenCalledOnce();
  });

  it('cancel() ends a cycle in its backoff at once: no more attempts, waiters told, CANCELLED given up', async () => {
    vi.useFakeTimers();
    const h = hooks({
      reopen: async () => {
        throw new Error('refused');
      },
    });
    const controller = new ReconnectController(
      () => ({ maxAttempts: 5, backoffMs: [10_000], attemptTimeoutMs: 1000 }),
      h,
    );
    const cycle = controller.trigger();
    const outcome = controller.waitForOutcome(60_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.attempts).toEqual([1]);
    controller.cancel();
    // Ends without the 10 s backoff running out.
    expect(await cycle).toBe(false);
    expect(await outcome).toBe(false);
    expect(h.attempts).toEqual([1]);
    expect(h.onGiveUp).toHaveBeenCalledWith(expect.objectContaining({ code: 'CANCELLED' }));
    expect(controller.reconnecting).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.attempts).toEqual([1]);
  });

  it('cancel() during an attempt that then connects: the attempt does not count and nothing follows it', async () => {
    let finish!: () => void;
    const signals: AbortSignal[] = [];
    const h = hooks({
      reopen: (signal) =>
        new Promise<void>((resolve) => {
          signals.push(signal);
          finish = resolve;
        }),
      isAlive: () => true,
    });
    const controller = new ReconnectController(() => ({ maxAttempts: 3, backoffMs: [1], attemptTimeoutMs: 1000 }), h);
    const cycle = controller.trigger();
    await Promise.resolve();
    controller.cancel();
    // reopen sees the abort when it has connected, and lets that connection go.
    expect(signals[0]?.aborted).toBe(true);
    finish();
    expect(await cycle).toBe(false);
    expect(h.attempts).toEqual([1]);
    expect(h.onSuccess).not.toHaveBeenCalled();
    expect(h.onGiveUp).toHaveBeenCalledWith(expect.objectContaining({ code: 'CANCELLED' }));
  });

  it('cancel() with no cycle running does nothing, and a later trigger runs a full cycle', async () => {
    const h = hooks({});
    const controller = new ReconnectController(() => ({ maxAttempts: 2, backoffMs: [1], attemptTimeoutMs: 1000 }), h);
    controller.cancel();
    expect(await controller.trigger()).toBe(true);
    expect(h.onSuccess).toHaveBeenCalledOnce();
    expect(h.onGiveUp).not.toHaveBeenCalled();
  });
});
