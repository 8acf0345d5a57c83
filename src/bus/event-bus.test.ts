import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../protocol/define-event';
import { EventCancelledError, EventDepthError, EventHandlerTimeoutError, EventNoResultError } from './errors';
import { EventValidationError } from '../protocol/event-validation-error';
import { EventBus } from './event-bus';

const Ping = defineEvent('PingEvent', { payload: { n: z.number() }, result: z.number().optional(), timeoutMs: 1000 });
const Parent = defineEvent('ParentEvent', { payload: {}, result: z.string().optional(), timeoutMs: 1000 });
const Child = defineEvent('ChildEvent', {
  payload: { label: z.string() },
  result: z.string().optional(),
  timeoutMs: 1000,
});
const Grandchild = defineEvent('GrandchildEvent', { payload: {}, result: z.void(), timeoutMs: 1000 });
const Shot = defineEvent('ShotEvent', { payload: {}, result: z.string(), timeoutMs: 1000 });
const Slow = defineEvent('SlowEvent', { payload: {}, result: z.void(), timeoutMs: 50 });

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('EventBus ordering', () => {
  it('processes events in FIFO order, one at a time', async () => {
    const bus = new EventBus();
    const seen: number[] = [];
    let active = 0;
    bus.on(
      Ping,
      async (event) => {
        active++;
        expect(active).toBe(1);
        await new Promise((r) => setTimeout(r, 1));
        seen.push(event.payload.n);
        active--;
      },
      { name: 'recorder' },
    );
    const handles = [1, 2, 3, 4, 5].map((n) => bus.emit(Ping, { n }));
    await Promise.all(handles.map((h) => h.done()));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('runs the handlers of one event serially in registration order', async () => {
    const bus = new EventBus();
    const order: string[] = [];
    bus.on(
      Ping,
      async () => {
        order.push('a:start');
        await new Promise((r) => setTimeout(r, 5));
        order.push('a:end');
      },
      { name: 'a' },
    );
    bus.on(
      Ping,
      () => {
        order.push('b');
      },
      { name: 'b' },
    );
    bus.on(
      Ping,
      () => {
        order.push('c');
      },
      { name: 'c' },
    );
    await bus.emit(Ping, { n: 1 }).done();
    expect(order).toEqual(['a:start', 'a:end', 'b', 'c']);
  });

  it('refuses a second handler with the same name for one event', () => {
    const bus = new EventBus();
    bus.on(Ping, () => undefined, { name: 'dup' });
    expect(() => bus.on(Ping, () => undefined, { name: 'dup' })).toThrow(/attached twice/);
  });
});

describe('EventBus timeouts', () => {
  it('fails a handler that overruns with a typed error naming event and handler, and aborts its signal', async () => {
    const bus = new EventBus();
    let signalAborted = false;
    bus.on(
      Slow,
      (_event, ctx) =>
        new Promise<void>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            signalAborted = true;
            resolve();
          });
        }),
      { name: 'stuck' },
    );
    const after = vi.fn();
    bus.on(Slow, after, { name: 'after' });
    const handle = bus.emit(Slow, {});
    const error = await handle.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventHandlerTimeoutError);
    expect((error as EventHandlerTimeoutError).message).toContain('SlowEvent');
    expect((error as EventHandlerTimeoutError).message).toContain('stuck');
    expect((error as EventHandlerTimeoutError).code).toBe('TIMEOUT');
    expect(signalAborted).toBe(true);
    expect(after).toHaveBeenCalledOnce();
  });

  it('takes timeout overrides by event name', async () => {
    const bus = new EventBus({ timeouts: { PingEvent: 20 } });
    bus.on(Ping, () => new Promise<number>(() => undefined), { name: 'never' });
    await expect(bus.emit(Ping, { n: 1 }).result()).rejects.toThrow(/after 20 ms/);
  });

  it('cancels queued children of a handler that timed out, so nothing hangs', async () => {
    const bus = new EventBus();
    const childRan = vi.fn();
    bus.on(Child, childRan, { name: 'child' });
    bus.on(
      Slow,
      (_e, ctx) => {
        ctx.emit(Child, { label: 'orphan' });
        return new Promise<void>(() => undefined);
      },
      { name: 'stuck' },
    );
    const handle = bus.emit(Slow, {});
    const view = await handle.done();
    expect(view.status).toBe('completed');
    expect(childRan).not.toHaveBeenCalled();
    const child = bus.history().find((entry) => entry.type === 'ChildEvent');
    expect(child?.handlers[0]?.error?.code).toBe('CANCELLED');
  });
});

describe('EventBus children', () => {
  it('processes a child awaited inside a handler at once (queue jump), ahead of earlier queued events', async () => {
    const bus = new EventBus();
    const order: string[] = [];
    bus.on(
      Ping,
      (event) => {
        order.push(`ping${event.payload.n}`);
      },
      { name: 'ping' },
    );
    bus.on(
      Child,
      (event) => {
        order.push(`child:${event.payload.label}`);
        return event.payload.label.toUpperCase();
      },
      { name: 'child' },
    );
    bus.on(
      Parent,
      async (_event, ctx) => {
        order.push('parent:start');
        const value = await ctx.emit(Child, { label: 'x' });
        order.push(`parent:got:${value}`);
        return 'parent-done';
      },
      { name: 'parent' },
    );
    const parent = bus.emit(Parent, {});
    bus.emit(Ping, { n: 1 });
    expect(await parent).toBe('parent-done');
    await bus.waitUntilIdle();
    expect(order).toEqual(['parent:start', 'child:x', 'parent:got:X', 'ping1']);
  });

  it('does not deadlock when an awaited child queues a grandchild it does not await', async () => {
    const bus = new EventBus();
    const order: string[] = [];
    bus.on(
      Grandchild,
      () => {
        order.push('grandchild');
      },
      { name: 'g' },
    );
    bus.on(
      Child,
      (_e, ctx) => {
        ctx.emit(Grandchild, {});
        order.push('child');
        return 'c';
      },
      { name: 'c' },
    );
    bus.on(
      Parent,
      async (_e, ctx) => {
        await ctx.emit(Child, { label: 'a' });
        order.push('parent:after');
      },
      { name: 'p' },
    );
    await bus.emit(Parent, {}).done();
    expect(order).toEqual(['child', 'grandchild', 'parent:after']);
  });

  it('completes an event only after the children its handlers emitted without awaiting', async () => {
    const bus = new EventBus();
    const gate = deferred();
    bus.on(
      Child,
      async () => {
        await gate.promise;
      },
      { name: 'slow-child' },
    );
    bus.on(
      Parent,
      (_e, ctx) => {
        ctx.emit(Child, { label: 'bg' });
        return 'returned-early';
      },
      { name: 'p' },
    );
    const parent = bus.emit(Parent, {});
    let completed = false;
    const done = parent.done().then(() => {
      completed = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(completed).toBe(false);
    gate.resolve();
    await done;
    expect(completed).toBe(true);
    expect(await parent).toBe('returned-early');
  });

  it('stamps the parent id on children through the handler context', async () => {
    const bus = new EventBus();
    let childParentId: string | undefined;
    bus.on(
      Child,
      (event) => {
        childParentId = event.meta.parentId;
      },
      { name: 'c' },
    );
    bus.on(
      Parent,
      async (_e, ctx) => {
        await ctx.emit(Child, { label: 'l' });
      },
      { name: 'p' },
    );
    const parent = bus.emit(Parent, {});
    await parent.done();
    expect(childParentId).toBe(parent.id);
    const views = await parent.results();
    expect(views[0]?.child_ids).toHaveLength(1);
  });

  it('guards against emit loops with a depth limit', async () => {
    const bus = new EventBus({ maxDepth: 5 });
    bus.on(
      Child,
      async (_e, ctx) => {
        await ctx.emit(Child, { label: 'again' });
      },
      { name: 'loop' },
    );
    const error = await bus
      .emit(Child, { label: 'start' })
      .result()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventDepthError);
  });
});

describe('EventBus results and errors', () => {
  it('result() gives the first validated result, results() every handler', async () => {
    const bus = new EventBus();
    bus.on(Ping, () => undefined, { name: 'none' });
    bus.on(Ping, (e) => e.payload.n * 2, { name: 'double' });
    bus.on(Ping, (e) => e.payload.n * 3, { name: 'triple' });
    const handle = bus.emit(Ping, { n: 7 });
    expect(await handle.result()).toBe(14);
    const results = await handle.results();
    expect(results.map((r) => [r.handler, r.status, r.result])).toEqual([
      ['none', 'completed', undefined],
      ['double', 'completed', 14],
      ['triple', 'completed', 21],
    ]);
    expect(results.every((r) => typeof r.duration_ms === 'number')).toBe(true);
  });

  it('rejects an awaited event whose handler failed, even when another handler succeeded', async () => {
    const bus = new EventBus();
    bus.on(Ping, () => 1, { name: 'ok' });
    bus.on(
      Ping,
      () => {
        throw new Error('boom');
      },
      { name: 'bad' },
    );
    await expect(bus.emit(Ping, { n: 1 })).rejects.toThrow('boom');
    const results = await bus.emit(Ping, { n: 2 }).results();
    expect(results[1]?.error?.message).toBe('boom');
  });

  it('fails a result that does not match the result schema', async () => {
    const bus = new EventBus();
    bus.on(Ping, () => 'not a number' as unknown as number, { name: 'liar' });
    const error = await bus
      .emit(Ping, { n: 1 })
      .result()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventValidationError);
    expect((error as Error).message).toContain('liar');
  });

  it('throws EventNoResultError when a value is required and no handler gave one', async () => {
    const bus = new EventBus();
    await expect(bus.emit(Shot, {}).result()).rejects.toBeInstanceOf(EventNoResultError);
  });

  it('cancelQueued fails waiting events with CANCELLED', async () => {
    const bus = new EventBus();
    const gate = deferred();
    bus.on(
      Ping,
      async () => {
        await gate.promise;
      },
      { name: 'gate' },
    );
    const first = bus.emit(Ping, { n: 1 });
    const second = bus.emit(Ping, { n: 2 });
    await new Promise((r) => setTimeout(r, 5));
    expect(bus.cancelQueued('emergency stop')).toBe(1);
    await expect(second.result()).rejects.toBeInstanceOf(EventCancelledError);
    gate.resolve();
    await expect(first.result()).resolves.toBeUndefined();
  });
});

describe('EventBus validation', () => {
  it('rejects unknown payload keys, naming the field', () => {
    const bus = new EventBus();
    expect(() => bus.emit(Ping, { n: 1, extra: true } as never)).toThrow(/PingEvent: extra: unknown field/);
  });

  it('rejects a wrong type, naming the field', () => {
    const bus = new EventBus();
    try {
      bus.emit(Ping, { n: 'one' } as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EventValidationError);
      expect((error as EventValidationError).field).toBe('n');
      expect((error as EventValidationError).code).toBe('INVALID_PARAMS');
    }
  });

  it('skips validation when the bus runs with validation off', async () => {
    const bus = new EventBus({ validate: false });
    bus.on(Ping, (e) => e.payload.n, { name: 'echo' });
    expect(await bus.emit(Ping, { n: 'raw' } as never)).toBe('raw');
  });
});

describe('EventBus history and find', () => {
  it('keeps a bounded history, oldest evicted first', async () => {
    const bus = new EventBus({ historySize: 3 });
    for (let n = 1; n <= 5; n++) {
      bus.emit(Ping, { n });
    }
    await bus.waitUntilIdle();
    expect(bus.history().map((view) => (view.payload as { n: number }).n)).toEqual([3, 4, 5]);
  });

  it('finds past events newest first and waits for future ones', async () => {
    const bus = new EventBus();
    bus.emit(Ping, { n: 1 });
    bus.emit(Ping, { n: 2 });
    const past = await bus.find(Ping, { where: (e) => e.payload.n < 3 });
    expect(past?.payload.n).toBe(2);
    const future = bus.find(Ping, { past: false, future: 1000, where: (e) => e.payload.n === 9 });
    setTimeout(() => {
      bus.emit(Ping, { n: 9 });
    }, 5);
    expect((await future)?.payload.n).toBe(9);
    expect(await bus.find(Ping, { past: false, future: 10 })).toBeUndefined();
  });
});

describe('EventBus isolation and middleware', () => {
  it('never lets one bus block another', async () => {
    const a = new EventBus({ name: 'a' });
    const b = new EventBus({ name: 'b' });
    const gate = deferred();
    a.on(
      Ping,
      async () => {
        await gate.promise;
      },
      { name: 'blocked' },
    );
    b.on(Ping, (e) => e.payload.n, { name: 'free' });
    const blocked = a.emit(Ping, { n: 1 });
    expect(await b.emit(Ping, { n: 42 })).toBe(42);
    expect(blocked.status).toBe('started');
    gate.resolve();
    await blocked.done();
  });

  it('runs middleware around every handler call, outermost first', async () => {
    const bus = new EventBus();
    const calls: string[] = [];
    bus.use(async (inv, next) => {
      calls.push(`outer:${inv.handlerName}`);
      return next();
    });
    bus.use(async (inv, next) => {
      calls.push(`inner:${inv.definition.type}`);
      return next();
    });
    bus.on(Ping, (e) => e.payload.n + 1, { name: 'inc' });
    expect(await bus.emit(Ping, { n: 1 })).toBe(2);
    expect(calls).toEqual(['outer:inc', 'inner:PingEvent']);
  });

  it('reports emitted, started and completed to observers', async () => {
    const bus = new EventBus();
    const phases: string[] = [];
    bus.observe(({ phase, record }) => phases.push(`${phase}:${record.event.type}`));
    bus.on(Ping, () => undefined, { name: 'h' });
    await bus.emit(Ping, { n: 1 }).done();
    expect(phases).toEqual(['emitted:PingEvent', 'started:PingEvent', 'completed:PingEvent']);
  });
});
