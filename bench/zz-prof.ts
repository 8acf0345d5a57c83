import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { PageServer } from './page-server';
import { openSides, SETTLE } from './sides';

const pages = new PageServer();
await pages.start();
const sides = await openSides('zz');
await sides.command('navigate', { url: pages.url('huge'), timeout_ms: 60_000 });
await sides.evaluate(SETTLE);
const params = { viewport_expansion: -1, max_chars: 0 };
for (let i = 0; i < 3; i++) await sides.command('state', params);
const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
await inspector.post('Profiler.start');
const times: number[] = [];
for (let i = 0; i < 7; i++) {
  const t = performance.now();
  await sides.command('state', params);
  times.push(Math.round(performance.now() - t));
}
const { profile } = await inspector.post('Profiler.stop');
writeFileSync('/tmp/exp/node.cpuprofile', JSON.stringify(profile));
console.log('times', times.join(' '));
await sides.close();
await pages.stop();
