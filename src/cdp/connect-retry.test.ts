import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../shared/errors';
import { connectWithinBudget } from './connect-retry';
import { EndpointBusyError, EndpointUnreachableError, parseRetryAfter } from './endpoint-errors';
import { CdpConnectionClosedError } from './errors';

const ENDPOINT = 'ws://pool.test/?token=***';

function scripted<T>(outcomes: Array<T | Error>): {
  open: (attempt: { attempt: number; signal: AbortSignal }) => Promise<T>;
  calls: number[];
} {
  const calls: number[] = [];
  return {
    calls,
    open: async ({ attempt }) => {
      calls.push(attempt);
      const outcome = outcomes[Math.min(attempt - 1, outcomes.length - 1)];
      if (outcome instanceof Error) {
        throw outcome;
      }
      return outcome as T;
    },
  };
}

describe('connectWithinBudget', () => {
  it('retries a full pool and a refused connection until a browser answers', async () => {
    const busy = new EndpointBusyError(ENDPOINT, 429, 'Too Many Requests', undefined);
    const refused = new EndpointUnreachableError('connect ECONNREFUSED');
    const { open, calls } = scripted([busy, refused, 'connected']);
    const retries: number[] = [];
    const result = await connectWithinBudget(
      open,
      { budgetMs: 5000, backoffMs: [1, 2] },
      { endpoint: ENDPOINT, onRetry: ({ attempt }) => retries.push(attempt) },
    );
    expect(result).toBe('connected');
    expect(calls).toEqual([1, 2, 3]);
    expect(retries).toEqual([1, 2]);
  });

  it('waits as long as Retry-After asks when that is longer than the backoff', async () => {
    const { open } = scripted([new EndpointBusyError(ENDPOINT, 503, 'Service Unavailable', 40), 'connected']);
    const waits: number[] = [];
    await connectWithinBudget(
      open,
      { budgetMs: 5000, backoffMs: [5] },
      { endpoint: ENDPOINT, onRetry: ({ waitMs }) => waits.push(waitMs) },
    );
    expect(waits).toEqual([40]);
  });

  it('retries a connection the endpoint closed while it was set up', async () => {
    const { open, calls } = scripted([new CdpConnectionClosedError('socket closed (1006)'), 'connected']);
    expect(await connectWithinBudget(open, { budgetMs: 5000, backoffMs: [1] }, { endpoint: ENDPOINT })).toBe(
      'connected',
    );
    expect(calls).toHaveLength(2);
  });

  it('fails at once on an error that a retry cannot fix', async () => {
    const refused = new TabpilotError('FORBIDDEN', 'HTTP 401 (Bad or missing authentication)');
    const { open, calls } = scripted([refused, 'connected']);
    await expect(connectWithinBudget(open, { budgetMs: 5000, backoffMs: [1] }, { endpoint: ENDPOINT })).rejects.toBe(
      refused,
    );
    expect(calls).toEqual([1]);
  });

  it('says the pool is full when it kept refusing until the budget ran out', async () => {
    const { open, calls } = scripted<string>([new EndpointBusyError(ENDPOINT, 429, 'Too Many Requests', undefined)]);
    const error = await connectWithinBudget(open, { budgetMs: 200, backoffMs: [5] }, { endpoint: ENDPOINT }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TabpilotError);
    expect(error).toMatchObject({ code: 'DISCONNECTED', details: { reason: 'pool_full', status: 429 } });
    expect((error as Error).message).toMatch(/browser pool at ws:\/\/pool\.test\/\?token=\*\*\* is full/);
    expect((error as Error).message).toContain('connect.timeout_ms');
    expect(calls.length).toBeGreaterThan(1);
  });

  it('gives up without waiting past the budget when Retry-After is longer than what is left', async () => {
    const { open, calls } = scripted<string>([new EndpointBusyError(ENDPOINT, 429, '', 3_600_000)]);
    const error = await connectWithinBudget(open, { budgetMs: 10_000, backoffMs: [1] }, { endpoint: ENDPOINT }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'DISCONNECTED', details: { reason: 'pool_full' } });
    expect(calls).toEqual([1]);
  });

  it('aborts an attempt still waiting (a queued handshake) when the budget runs out, with TIMEOUT', async () => {
    let sawAbort = false;
    const error = await connectWithinBudget(
      ({ signal }) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new EndpointUnreachableError('the handshake got no answer'));
          });
        }),
      { budgetMs: 30, backoffMs: [1] },
      { endpoint: ENDPOINT },
    ).catch((e: unknown) => e);
    expect(sawAbort).toBe(true);
    expect(error).toMatchObject({ code: 'TIMEOUT', details: { reason: 'connect_timeout', attempts: 1 } });
    expect((error as Error).message).toContain('queued');
  });

  it('holds the budget even when an attempt ignores its signal', async () => {
    const error = await connectWithinBudget(
      () => new Promise<string>(() => undefined),
      { budgetMs: 30, backoffMs: [1] },
      { endpoint: ENDPOINT },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
  });

  it('stops when the caller gives up, with the caller’s reason', async () => {
    const caller = new AbortController();
    const { open } = scripted<string>([new EndpointUnreachableError('connect ECONNREFUSED')]);
    const pending = connectWithinBudget(
      open,
      { budgetMs: 60_000, backoffMs: [50_000] },
      {
        endpoint: ENDPOINT,
        signal: caller.signal,
        onRetry: () => caller.abort(new TabpilotError('CANCELLED', 'stopped')),
      },
    );
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
