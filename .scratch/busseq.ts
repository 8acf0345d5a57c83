import { z } from 'zod';
import { defineEvent } from '../src/bus/define-event';
import { EventBus } from '../src/bus/event-bus';
const Ev = defineEvent('BenchEvent', {
  payload: { n: z.number().int(), label: z.string(), flag: z.boolean().default(false) },
  result: z.number(),
  timeoutMs: 30000,
});
async function run(validate: boolean, N: number, mw: boolean) {
  const bus = new EventBus({ validate, historySize: 100 });
  if (mw) bus.use(async (_i, next) => next());
  bus.on(Ev, async (e) => e.payload.n + 1, { name: 'h' });
  const t = performance.now();
  for (let n = 0; n < N; n++) await bus.emit(Ev, { n, label: 'x' });
  const ms = performance.now() - t;
  console.log(validate, mw, ((ms * 1000) / N).toFixed(2), 'us/event');
}
(async () => {
  for (let i = 0; i < 2; i++) {
    await run(true, 200000, true);
    await run(false, 200000, true);
    await run(true, 200000, false);
  }
})();
