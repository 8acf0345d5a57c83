import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../protocol/define-event';
import { EventCancelledError } from './errors';
import { EventBus } from './event-bus';

const Work = defineEvent('WorkEvent', { payload: { n: z.number() }, result: z.number().optional(), timeoutMs: 10_000 });
const Stop = defineEvent('StopNowEvent', {
  payload: {},
  result: z.strictObject({ cancelled: z.number() }),
  timeoutMs: 1000,
});
const Parent = defineEvent('ParentEvent', { payload: {}, result: z.void(), timeoutMs: 1000 });
const Child = defineEvent('ChildEvent', { payload: {}, result: z.string(), timeoutMs: 1000 });
const Loop = defineEvent('LoopEvent', { payload: {}, result: z.void(), timeoutMs: 1000 });

/** A handler that never finishes on its own; it only ends when its signal aborts. */
function hang(signal: AbortSignal): Promise<number> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('aborted by signal')), { once: true });
  });
}

function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

describe('EventBus.cancelAll and preempting emits', () => {
  it('fails the running handler at once, aborts its signal and skips the handlers after it', async () => {
    const bus = new EventBus();
    let signal: AbortSignal | undefined;
    let laterRan = false;
    bus.on(
      Work,
      (_event, ctx) => {
        signal = ctx.signal;
        return hang(ctx.signal);
      },
      { name: 'hangs' },
    );
    bus.on(
      Work,
      () => {
        laterRan = true;
        return 1;
      },
      { name: 'later' },
    );
    const running = bus.emit(Work, { n: 1 });
    const queued = bus.emit(Work, { n: 2 });
    await tick();
    expect(bus.cancelAll('stop pressed')).toBe(2);
    await expect(running.result()).rejects.toBeInstanceOf(EventCancelledError);
    await expect(queued.result()).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(signal?.aborted).toBe(true);
    expect(laterRan).toBe(false);
    // The bus goes on with new work.
    bus.on(Work, (event) => event.payload.n, { name: 'answers' });
    expect(bus.handlerNames(Work)).toEqual(['hangs', 'later', 'answers']);
  });

  it('an event emitted with preempt cancels what runs and what waits, then runs itself and knows how many it cancelled', async () => {
    const bus = new EventBus();
    bus.on(Work, (_event, ctx) => hang(ctx.signal), { name: 'hangs' });
    bus.on(Stop, (_event, ctx) => ({ cancelled: ctx.preempted }), { name: 'stop' });
    const work = [bus.emit(Work, { n: 1 }), bus.emit(Work, { n: 2 }), bus.emit(Work, { n: 3 })];
    await tick();
    const stopped = await bus.emit(Stop, {}, { preempt: true }).result();
    expect(stopped).toEqual({ cancelled: 3 });
    for (const handle of work) {
      await expect(handle.result()).rejects.toMatchObject({ code: 'CANCELLED' });
    }
  });

  it('cancels a child the running parent awaits inline, and the parent with it', async () => {
    const bus = new EventBus();
    bus.on(Child, (_event, ctx) => hang(ctx.signal).then(String), { name: 'child' });
    bus.on(
      Parent,
      async (_event, ctx) => {
        await ctx.emit(Child, {});
      },
      { name: 'parent' },
    );
    const parent = bus.emit(Parent, {});
    await tick();
    await tick();
    expect(bus.cancelAll('stop')).toBe(2);
    await expect(parent.result()).rejects.toMatchObject({ code: 'CANCELLED' });
    const [view] = await parent.results();
    expect(view?.status).toBe('error');
  });

  it('counts nothing and changes nothing when the bus is idle', async () => {
    const bus = new EventBus();
    bus.on(Work, (event) => event.payload.n, { name: 'echo' });
    expect(await bus.emit(Work, { n: 4 }).result()).toBe(4);
    expect(bus.cancelAll('nothing to stop')).toBe(0);
    expect(await bus.emit(Work, { n: 5 }).result()).toBe(5);
  });
});

describe('EventBus guards', () => {
  it('applies the depth guard to un-awaited descendants of an event processed inline', async () => {
    const bus = new EventBus({ maxDepth: 4 });
    // Each LoopEvent queues another without awaiting it: a chain below the awaited child that only the
    // guard stops (bounded here so that, without the guard, the test fails instead of spinning forever).
    let emitted = 0;
    bus.on(
      Loop,
      (_event, ctx) => {
        if (++emitted < 1000) {
          ctx.emit(Loop, {});
        }
      },
      { name: 'loop' },
    );
    bus.on(
      Child,
      (_event, ctx) => {
        ctx.emit(Loop, {});
        return 'done';
      },
      { name: 'child' },
    );
    let childResult: string | undefined;
    bus.on(
      Parent,
      async (_event, ctx) => {
        childResult = await ctx.emit(Child, {});
      },
      { name: 'parent' },
    );
    const parent = await bus.emit(Parent, {}).done();
    expect(childResult).toBe('done');
    expect(parent.status).toBe('completed');
    const failures = bus
      .history()
      .filter((view) => view.type === 'LoopEvent' && view.handlers.some((run) => run.error !== undefined));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]?.handlers[0]?.error?.message).toContain('levels deep');
  });

  it('runs every one of thousands of events queued behind a busy handler', async () => {
    const bus = new EventBus({ historySize: 10 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ran = 0;
    bus.on(
      Work,
      async (event) => {
        if (event.payload.n === 0) {
          await gate;
        }
        ran++;
      },
      { name: 'count' },
    );
    const handles = Array.from({ length: 3000 }, (_, n) => bus.emit(Work, { n }));
    await tick();
    release();
    await Promise.all(handles.map((handle) => handle.done()));
    expect(ran).toBe(3000);
  });

  it('cancelQueued leaves alone a child that already ran inline but is still in the queue', async () => {
    const bus = new EventBus();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    bus.on(Child, () => 'ran', { name: 'child' });
    let child: { done(): Promise<unknown> } | undefined;
    bus.on(
      Parent,
      async (_event, ctx) => {
        const handle = ctx.emit(Child, {});
        child = handle;
        await handle;
        await gate;
      },
      { name: 'parent' },
    );
    const parent = bus.emit(Parent, {});
    await tick();
    await tick();
    expect(bus.cancelQueued('stop')).toBe(0);
    release();
    await parent.done();
    const view = (await child?.done()) as { handlers: Array<{ status: string }> };
    expect(view.handlers.map((run) => run.status)).toEqual(['completed']);
  });
});
