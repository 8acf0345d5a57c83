import { z } from 'zod';
import { defineEvent } from '../src/bus/define-event';
import { EventBus } from '../src/bus/event-bus';
const Ev = defineEvent('BenchEvent', {
  payload: { n: z.number().int(), label: z.string() },
  result: z.number(),
  timeoutMs: 30000,
});
(async () => {
  const bus = new EventBus({ historySize: 100 });
  bus.use(async (_i, next) => next());
  bus.on(Ev, async (e) => e.payload.n + 1, { name: 'h' });
  for (let round = 0; round < 4; round++) {
    for (let n = 0; n < 100000; n++) await bus.emit(Ev, { n, label: 'x' });
    (globalThis as any).gc();
    console.log('heap MB', (process.memoryUsage().heapUsed / 1e6).toFixed(1));
  }
})();
