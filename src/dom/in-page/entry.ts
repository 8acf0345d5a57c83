import { collect, COLLECTOR_VERSION, indexedId, resolve } from './collector';
import { find, markdown, search } from './extract';
import { highlight } from './highlight';

/** Installs the collector in tabpilot's isolated world (the core checks `version` before each use). */
Object.assign(globalThis, {
  __tabpilot: {
    version: COLLECTOR_VERSION,
    collect,
    resolve,
    highlight: (id: number | null, label: string) => highlight(id === null ? null : resolve(id), label),
    markdown,
    search,
    find: (options: Parameters<typeof find>[0]) => find(options, indexedId),
  },
});
