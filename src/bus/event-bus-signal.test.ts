import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../protocol/define-event';
import { EventCancelledError } from './errors';
import { EventBus } from './event-bus';

const Work = defineEvent('SignalWorkEvent', { payload: { n: z.number() }, result: z.number(), timeoutMs: 10_000 });
const Inner = defineEvent('SignalInnerEvent', { payload: {}, result: z.number(), timeoutMs: 10_000 });

/** A handler that only ends when its signal aborts. */
function hang(signal: AbortSignal): Promise<number> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('aborted by signal')), { once: true });
  });
}

describe('EventBus emit with a signal: one caller cancels its own event', () => {
  it('interrupts the event and the child it awaits, and the events queued behind it still run', async () => {
    const bus = new EventBus();
    let innerSignal: AbortSignal | undefined;
    bus.on(
      Inner,
      (_event, ctx) => {
        innerSignal = ctx.signal;
        return hang(ctx.signal);
      },
      { name: 'inner' },
    );
    bus.on(
      Work,
      async (event, ctx) => (event.payload.n === 1 ? ctx.emit(Inner, {}).result().then(Number) : event.payload.n),
      {
        name: 'work',
      },
    );
    const controller = new AbortController();
    const innerStarted = new Promise<void>((resolve) =>
      bus.observe(({ phase, record }) => phase === 'started' && record.event.type === Inner.type && resolve()),
    );
    const mine = bus.emit(Work, { n: 1 }, { signal: controller.signal });
    const next = bus.emit(Work, { n: 2 });
    await innerStarted;
    controller.abort('the client cancelled it');
    await expect(mine.result()).rejects.toBeInstanceOf(EventCancelledError);
    await expect(mine.result()).rejects.toThrow('the client cancelled it');
    expect(innerSignal?.aborted).toBe(true);
    expect(await next.result()).toBe(2);
  });

  it('fails a queued event without running it, and leaves the running one alone', async () => {
    const bus = new EventBus();
    const ran: number[] = [];
    let release: (() => void) | undefined;
    bus.on(
      Work,
      (event) => {
        ran.push(event.payload.n);
        return event.payload.n === 1 ? new Promise<number>((resolve) => (release = () => resolve(1))) : event.payload.n;
      },
      { name: 'work' },
    );
    const controller = new AbortController();
    const firstStarted = new Promise<void>((resolve) => bus.observe(({ phase }) => phase === 'started' && resolve()));
    const first = bus.emit(Work, { n: 1 });
    const second = bus.emit(Work, { n: 2 }, { signal: controller.signal });
    await firstStarted;
    controller.abort();
    release?.();
    expect(await first.result()).toBe(1);
    await expect(second.result()).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(ran).toEqual([1]);
  });

  it('an already aborted signal cancels the event before it runs', async () => {
    const bus = new EventBus();
    let ran = false;
    bus.on(
      Work,
      () => {
        ran = true;
        return 1;
      },
      { name: 'work' },
    );
    const controller = new AbortController();
    controller.abort();
    await expect(bus.emit(Work, { n: 1 }, { signal: controller.signal }).result()).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(ran).toBe(false);
  });
});
