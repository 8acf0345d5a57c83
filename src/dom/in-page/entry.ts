import { collect, COLLECTOR_VERSION, resolve } from './collector';
import { highlight } from './highlight';

/** Installs the collector in tabpilot's isolated world (the core checks `version` before each use). */
Object.assign(globalThis, {
  __tabpilot: {
    version: COLLECTOR_VERSION,
    collect,
    resolve,
    highlight: (id: number | null, label: string) => highlight(id === null ? null : resolve(id), label),
  },
});
