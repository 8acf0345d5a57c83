import { z } from 'zod';
import { defineEvent } from '../src/protocol/define-event';
import { EventBus } from '../src/bus/event-bus';

const BenchEvent = defineEvent('BenchEvent', {
  payload: { n: z.number().int(), label: z.string(), flag: z.boolean().default(false) },
  result: z.number(),
  timeoutMs: 30_000,
});

export interface BusFigures {
  mode: string;
  validate: boolean;
  events: number;
  events_per_second: number;
  microseconds_per_event: number;
}

function busUnderTest(validate: boolean): EventBus {
  const bus = new EventBus({ validate, historySize: 100 });
  // Middleware on (a pass-through, as the circuit breaker is when connected) and an async handler,
  // so every event pays for the timeout timer too.
  bus.use(async (_invocation, next) => next());
  bus.on(BenchEvent, async (event) => event.payload.n + 1, { name: 'bench.on_BenchEvent' });
  return bus;
}

async function sequential(validate: boolean, count: number): Promise<BusFigures> {
  const bus = busUnderTest(validate);
  const started = performance.now();
  for (let n = 0; n < count; n++) {
    const result = await bus.emit(BenchEvent, { n, label: 'bench' });
    if (result !== n + 1) {
      throw new Error(`wrong result ${String(result)} for ${n}`);
    }
  }
  return figures('dispatch and await, one at a time', validate, count, performance.now() - started);
}

/** Bursts of 1,000 emits awaited together: many events queued at once, as a busy page produces. */
async function bursts(validate: boolean, count: number, burst = 1000): Promise<BusFigures> {
  const bus = busUnderTest(validate);
  const started = performance.now();
  for (let base = 0; base < count; base += burst) {
    const handles = [];
    for (let n = base; n < base + burst; n++) {
      handles.push(bus.emit(BenchEvent, { n, label: 'bench' }));
    }
    await Promise.all(handles.map((handle) => handle.result()));
  }
  return figures(`bursts of ${burst}, each awaited together`, validate, count, performance.now() - started);
}

function figures(mode: string, validate: boolean, count: number, elapsedMs: number): BusFigures {
  return {
    mode,
    validate,
    events: count,
    events_per_second: Math.round(count / (elapsedMs / 1000)),
    microseconds_per_event: Number(((elapsedMs * 1000) / count).toFixed(2)),
  };
}

/** Bus throughput with one handler, validation, the timeout timer and a middleware on; then validation off. */
export async function benchBus(count = 200_000): Promise<BusFigures[]> {
  // Warm the JIT once so the first mode measured is not penalised.
  await sequential(true, 20_000);
  const out: BusFigures[] = [];
  for (const validate of [true, false]) {
    out.push(await sequential(validate, count));
    out.push(await bursts(validate, count));
  }
  return out;
}
